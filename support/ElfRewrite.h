//===- ElfRewrite.h - llvm-objcopy on an ELF file, in-process -------------===//
//
// divcc rewrites the objects its LTO code generator writes (dropping their
// section groups) and divtool strips variants and splits off their debug
// information: both are llvm-objcopy runs, done with LLVM's objcopy
// library instead of a process.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ELFREWRITE_H
#define DIVCC_SUPPORT_ELFREWRITE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm::objcopy {
struct CommonConfig;
} // namespace llvm::objcopy

namespace divcc {

/// What llvm-objcopy, with the settings \p Configure makes, makes of the
/// ELF file \p Path (an object, executable or shared library).
llvm::Expected<llvm::SmallVector<char, 0>>
rewriteElf(llvm::StringRef Path,
           llvm::function_ref<void(llvm::objcopy::CommonConfig &)> Configure);

} // namespace divcc

#endif
