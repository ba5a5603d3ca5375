//===- LtoLink.h - Links whose code divcc generates (-flto) ---------------===//
//
// With -flto, machine code is generated when the program is linked. A link
// of LLVM bitcode runs in three steps instead of one lld command:
//
//   1. lld with the same arguments, plus --plugin-opt=emit-llvm and
//      --thinlto-index-only: it resolves symbols as it would, merges and
//      optimizes the regular LTO modules and writes that module, and writes
//      each ThinLTO module's index (what it imports, what it exports);
//   2. divcc's code generator compiles the regular module, and runs each
//      ThinLTO module's back end (codegen/LtoBackend.h);
//   3. lld with the same arguments again, the bitcode inputs replaced by
//      the objects of step 2, placed last as lld places its LTO objects.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_LTOLINK_H
#define DIVCC_DRIVER_LTOLINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace clang::driver {
class Compilation;
}

namespace divcc {

struct Config;

/// Whether clang's arguments \p ClangArgs ask for LTO (-flto, -flto=...,
/// not undone by a later -fno-lto).
bool requestsLto(llvm::ArrayRef<std::string> ClangArgs);

/// Replaces every lld link job of \p C that generates code from bitcode
/// (clang passed it --plugin-opt=..., or an input holds bitcode) by the
/// three steps above.
llvm::Error generateLtoCodeInDivcc(clang::driver::Compilation &C,
                                   const Config &Cfg);

} // namespace divcc

#endif
