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

namespace divcc {

/// Assembles \p Assembly for \p Target into an object file at \p Path. The
/// target's MC layer and assembly parser must have been initialized.
llvm::Error assembleObject(llvm::StringRef Assembly, const llvm::Triple &Target,
                           llvm::StringRef Path);

} // namespace divcc

#endif
