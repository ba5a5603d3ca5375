//===- Artifacts.h - What the registry records of a built file ------------===//
//
// An artifact is recorded by the SHA-256 of its bytes, the SHA-256 of its
// executable segments (which stripping, or adding debug information to the
// build, leaves unchanged), the hash of the stripped copy divtool ships,
// and winnowed fingerprints of its code (Fingerprints.h). Debug information
// is kept beside the registry in the layout of /usr/lib/debug, by GNU build
// id, where gdb, elfutils and debuginfod look for it.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_REGISTRY_ARTIFACTS_H
#define DIVCC_REGISTRY_ARTIFACTS_H

#include "analysis/ElfImage.h"
#include "registry/Registry.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divcc {

/// SHA-256 of the bytes of a file, as hex.
llvm::Expected<std::string> fileSha256(llvm::StringRef Path);
/// SHA-256 of the executable segments of an ELF image (address, size and
/// bytes of each): stripping a binary or adding debug information to its
/// build leaves it unchanged.
std::string codeSha256(const ElfImage &Image);
/// The winnowed fingerprints of \p Image's code, sorted and unique.
std::vector<uint64_t> codeFingerprints(const ElfImage &Image);

/// Size, hashes and fingerprints of the artifact \p Relative of \p Tree.
/// With \p StripTo, also writes a copy stripped of symbols and debug
/// information there (ELF files only) and records its hash.
llvm::Expected<ArtifactRecord> examineArtifact(llvm::StringRef Tree,
                                               llvm::StringRef Relative,
                                               llvm::StringRef StripTo);

/// Whether the ELF file \p Path has DWARF line tables.
bool hasLineTables(llvm::StringRef Path);

/// The GNU build id of the ELF file \p Path in lowercase hex; empty if it
/// has none or is not ELF.
std::string buildIdOf(llvm::StringRef Path);
/// Where the debug file of build id \p BuildId is kept under \p Root, in
/// the layout of /usr/lib/debug that gdb, elfutils and debuginfod read:
/// ROOT/.build-id/XX/REST.debug, XX the first byte in hex.
std::string keptDebugFile(llvm::StringRef Root, llvm::StringRef BuildId);
/// Writes the debug information of the ELF file \p Path (objcopy
/// --only-keep-debug: the sections keep their addresses, code and data
/// become NOBITS) to keptDebugFile(\p Root, its build id); returns that
/// path. Empty, and nothing written, when \p Path has no build id or no
/// line tables.
llvm::Expected<std::string> keepDebugInfo(llvm::StringRef Path,
                                          llvm::StringRef Root);

} // namespace divcc

#endif
