//===- ElfPatch.h - Small patches to a linked ELF image in memory ---------===//
//
// What divtool changes in a program BOLT wrote, in place, without laying
// the file out again (which objcopy would do, and which breaks BOLT's
// AArch64 output): a section's bytes found and blanked, the build id
// replaced by a digest of what the program loads.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ELFPATCH_H
#define DIVCC_SUPPORT_ELFPATCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace divcc {

/// The file offset and size of the section \p Name of the ELF image
/// \p Image, if it has one with contents in the file.
llvm::Expected<std::optional<std::pair<uint64_t, uint64_t>>>
sectionInFile(llvm::ArrayRef<char> Image, llvm::StringRef Name);

/// Fills the contents of section \p Name of \p Image with zeros.
llvm::Error blankSection(llvm::MutableArrayRef<char> Image,
                         llvm::StringRef Name);

/// Sets the GNU build id of the ELF64 image \p Image to the first bytes of
/// the SHA-256 of what it loads (each PT_LOAD segment's address, size and
/// bytes, the build id zeroed, without the ELF header, which counts the
/// sections): the same for a program laid out from a golden master with
/// debug information and from a copy stripped of it. Nothing if it has
/// none.
llvm::Error setBuildIdToDigest(llvm::MutableArrayRef<char> Image);

} // namespace divcc

#endif
