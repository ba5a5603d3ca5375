//===- ClangTargetOptions.h - Clang's options for LLVM's code generator ---===//

#ifndef DIVCC_CODEGEN_CLANGTARGETOPTIONS_H
#define DIVCC_CODEGEN_CLANGTARGETOPTIONS_H

#include "llvm/Support/CodeGen.h"
#include "llvm/Target/TargetOptions.h"

#include <optional>

namespace clang {
class CompilerInvocation;
class DiagnosticsEngine;
} // namespace clang

namespace divcc {

/// Fills \p Options from a parsed cc1 invocation exactly as clang-19's
/// BackendUtil.cpp (initTargetOptions) does. Returns false after reporting an
/// error (an unreadable basic-block-sections file).
bool initTargetOptions(clang::DiagnosticsEngine &Diags,
                       llvm::TargetOptions &Options,
                       const clang::CompilerInvocation &CI);

/// -mcmodel as clang maps it (getCodeModel in BackendUtil.cpp).
std::optional<llvm::CodeModel::Model>
codeModel(const clang::CompilerInvocation &CI);

} // namespace divcc

#endif
