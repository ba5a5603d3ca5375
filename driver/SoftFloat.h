//===- SoftFloat.h - `softfp`: libgcc's soft-float routines, diversified --===//
//
// What a program calls in libgcc.a is linked into it as it is, the same
// bytes at the same offsets in every variant: on AArch64 and RISC-V,
// whose long double is quad precision, that is soft-fp's routines
// (__multf3, __getf2, ...), which the hardware lacks. `softfp` compiles
// them from libgcc's own sources with divcc's code generator and the
// variant's secret, and links those copies in libgcc's place.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_SOFTFLOAT_H
#define DIVCC_DRIVER_SOFTFLOAT_H

#include "llvm/Support/Error.h"

namespace clang::driver {
class Compilation;
}

namespace divcc {

struct Config;

/// With `softfp` on a target with soft-float routines, puts a job before
/// each link of \p C that compiles diversified copies of those its inputs
/// call into an archive, and that archive right before the link's first
/// -lgcc. Runs after the link jobs took their final form.
llvm::Error linkDiversifiedSoftFloat(clang::driver::Compilation &C,
                                     const Config &Cfg);

/// Whether \p Arg names the archive of such a job (a temporary file).
bool isSoftFloatArchive(llvm::StringRef Arg);

} // namespace divcc

#endif
