//===- BackendDiagnostics.h - LLVM's diagnostics, printed as divcc's ------===//
//
// The diagnostic handler of every LLVM context divcc generates code in (the
// driver's compilations and divcc-llc, whole pipelines and single passes):
// errors and warnings printed the way the driver prints its own, and the
// code generator's optimization remarks as clang prints their first line.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_CODEGEN_BACKENDDIAGNOSTICS_H
#define DIVCC_CODEGEN_BACKENDDIAGNOSTICS_H

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/Support/Regex.h"

#include <memory>

namespace divcc {

struct PipelineOptions;

/// Prints LLVM's back-end diagnostics (inline assembly errors, stack-size
/// warnings) the way the driver prints its own, and remembers errors.
/// Optimization remarks of the code generator's passes (the register
/// allocator's spill counts, for one) are printed as clang prints them,
/// with the -R option that asked for them, when that option's pattern
/// names the pass; without patterns, LLVM's -pass-remarks* decide.
class BackendDiagnostics : public llvm::DiagnosticHandler {
public:
  explicit BackendDiagnostics(const PipelineOptions &Pipeline);

  bool hadError() const { return HadError; }

  bool isAnalysisRemarkEnabled(llvm::StringRef PassName) const override;
  bool isMissedOptRemarkEnabled(llvm::StringRef PassName) const override;
  bool isPassedOptRemarkEnabled(llvm::StringRef PassName) const override;
  bool isAnyRemarkEnabled() const override;
  bool handleDiagnostics(const llvm::DiagnosticInfo &DI) override;

private:
  std::shared_ptr<llvm::Regex> Passed, Missed, Analysis;
  bool HadError = false;
};

} // namespace divcc

#endif
