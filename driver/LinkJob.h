//===- LinkJob.h - What divcc changes in the link job ---------------------===//
//
// Two transformations act when divcc links rather than when it generates
// code: `link` (shuffle all functions of the program with lld) and `offset`
// (move the code the linker and the C runtime add -- the PLT, the start
// files -- by a random distance). Both derive what they need from their own
// random stream and change only the link commands of the compilation. A
// golden master (-fdiversify-golden) keeps its relocations, for the
// install-time layout of divtool rerandomize. A link for another
// architecture that the host's ld cannot do is lld's.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_LINKJOB_H
#define DIVCC_DRIVER_LINKJOB_H

#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::driver {
class Compilation;
}

namespace divcc {

struct Config;

/// Applies the link-time transformations of \p Cfg to every link job of
/// \p C, and keeps relocations for a golden master (-fdiversify-golden).
/// Fails (before anything runs) if they cannot be applied as asked.
llvm::Error diversifyLinkJobs(clang::driver::Compilation &C, const Config &Cfg);

/// Whether \p Arg names a temporary file divcc made with
/// Driver::GetTemporaryPath(\p Prefix, \p Extension without its dot).
bool isDivccTemporary(llvm::StringRef Arg, llvm::StringRef Prefix,
                      llvm::StringRef Extension);

/// Whether \p Arg names an object divcc made for one link of its own (the
/// start files' padding, a golden master's slack: temporary files it
/// removes after the link). libtool learns a C++ compiler's implicit link
/// objects from its -v output and passes them by name to every later link,
/// long after divcc removed them: such an argument is dropped, since each
/// link gets fresh ones of its own.
bool isOwnLinkObject(llvm::StringRef Arg);

/// Links for a foreign target (--target=aarch64-linux-gnu on x86-64) with
/// lld when clang would run the host's ld, which cannot (binutils for the
/// target, TRIPLE-ld, can, and so can a linker named with -fuse-ld).
void linkForeignTargetsWithLld(clang::driver::Compilation &C);

/// The e_flags of the ELF object \p Path, none if it is not one.
std::optional<uint32_t> objectElfFlags(llvm::StringRef Path);

/// Assembles \p Body, assembly that adds no code that runs, into the object
/// \p Obj for \p T (a supported target), with the notes clang's objects
/// carry, so that linking it changes no property of the program, and with
/// \p ElfFlags as its e_flags if given.
llvm::Error
assembleCodeFreeObject(llvm::StringRef Body, const llvm::Triple &T,
                       const std::string &Obj,
                       std::optional<uint32_t> ElfFlags = std::nullopt);

} // namespace divcc

#endif
