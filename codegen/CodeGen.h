//===- CodeGen.h - divcc's code generator: bitcode to object --------------===//

#ifndef DIVCC_CODEGEN_CODEGEN_H
#define DIVCC_CODEGEN_CODEGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace divcc {

struct Config;

/// One translation unit's back end: the cc1 arguments the clang driver built
/// for it (they say how clang itself would have generated code), the
/// optimized bitcode clang's front end and optimizer produced, and where the
/// object or assembly goes.
struct CodeGenJob {
  llvm::ArrayRef<const char *> Cc1Args; // without the leading "-cc1"
  llvm::StringRef BitcodePath;
  llvm::StringRef OutputPath;
  bool EmitAssembly = false;
};

/// Generates code exactly as clang-19 would from the same cc1 arguments,
/// with the transformations of \p Cfg added. Prints diagnostics itself;
/// returns 0 on success, like a process exit code.
int runCodeGen(const CodeGenJob &Job, const Config &Cfg);

/// The clang executable whose front end, optimizer and linker divcc uses.
llvm::StringRef clangExecutable();

} // namespace divcc

#endif
