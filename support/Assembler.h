//===- Assembler.h - Assembly text to an object file, in this process -----===//
//
// What `clang -c -x assembler` does, without starting clang: LLVM's own
// assembler (the MC layer) parses the text and writes an ELF object. Used
// for the small objects divcc adds to a link, where starting a process
// would cost more than everything else in a small link.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ASSEMBLER_H
#define DIVCC_SUPPORT_ASSEMBLER_H

#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <optional>

namespace divcc {

/// Assembles \p Assembly for \p Target into an object file at \p Path. The
/// target's MC layer and assembly parser must have been initialized. With
/// \p ElfFlags, the object's ELF header gets those e_flags instead of the
/// assembler's defaults (the floating-point ABI of the objects it is linked
/// with, on RISC-V).
llvm::Error assembleObject(llvm::StringRef Assembly, const llvm::Triple &Target,
                           llvm::StringRef Path,
                           std::optional<uint32_t> ElfFlags = std::nullopt);

} // namespace divcc

#endif
