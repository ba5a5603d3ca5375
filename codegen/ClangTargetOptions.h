//===- ClangTargetOptions.h - Clang's options for LLVM's code generator ---===//

#ifndef DIVCC_CODEGEN_CLANGTARGETOPTIONS_H
#define DIVCC_CODEGEN_CLANGTARGETOPTIONS_H

#include "llvm/Support/CodeGen.h"
#include "llvm/Target/TargetOptions.h"

#include <optional>
#include <string>

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

/// The subtarget features the target machine gets, as clang-19's
/// CompilerInstance computes them (TargetInfo::CreateTargetInfo: the
/// target's defaults for the CPU, then -target-feature in order): the
/// features every function starts from. RISC-V's assembly printer compares
/// each function's features with these (.option arch).
std::string targetFeatures(clang::DiagnosticsEngine &Diags,
                           const clang::CompilerInvocation &CI);

/// -mcmodel as clang maps it (getCodeModel in BackendUtil.cpp).
std::optional<llvm::CodeModel::Model>
codeModel(const clang::CompilerInvocation &CI);

} // namespace divcc

#endif
