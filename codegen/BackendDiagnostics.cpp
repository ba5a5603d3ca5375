//===- BackendDiagnostics.cpp - LLVM's diagnostics, printed as divcc's ----===//

#include "codegen/BackendDiagnostics.h"
#include "codegen/CodeGen.h"
#include "support/Diagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace divcc {

BackendDiagnostics::BackendDiagnostics(const PipelineOptions &Pipeline)
    : Passed(Pipeline.PassedRemarks), Missed(Pipeline.MissedRemarks),
      Analysis(Pipeline.AnalysisRemarks) {}

bool BackendDiagnostics::isAnalysisRemarkEnabled(StringRef PassName) const {
  return Analysis ? Analysis->match(PassName)
                  : DiagnosticHandler::isAnalysisRemarkEnabled(PassName);
}

bool BackendDiagnostics::isMissedOptRemarkEnabled(StringRef PassName) const {
  return Missed ? Missed->match(PassName)
                : DiagnosticHandler::isMissedOptRemarkEnabled(PassName);
}

bool BackendDiagnostics::isPassedOptRemarkEnabled(StringRef PassName) const {
  return Passed ? Passed->match(PassName)
                : DiagnosticHandler::isPassedOptRemarkEnabled(PassName);
}

bool BackendDiagnostics::isAnyRemarkEnabled() const {
  return Passed || Missed || Analysis ||
         DiagnosticHandler::isAnyRemarkEnabled();
}

/// "FILE:LINE:COL: remark: MESSAGE [-Rpass-missed=PASS]", as clang's first
/// line of the same remark (LLVM reports it only when enabled).
static void printRemark(const DiagnosticInfo &DI) {
  const auto *Remark = dyn_cast<DiagnosticInfoOptimizationBase>(&DI);
  if (!Remark || !Remark->isEnabled())
    return;
  const char *Option = "-Rpass";
  if (Remark->isMissed())
    Option = "-Rpass-missed";
  else if (Remark->getKind() == DK_OptimizationRemarkAnalysis ||
           Remark->getKind() == DK_MachineOptimizationRemarkAnalysis)
    Option = "-Rpass-analysis";
  errs() << Remark->getLocationStr() << ": remark: " << Remark->getMsg()
         << " [" << Option << '=' << Remark->getPassName() << "]\n";
}

bool BackendDiagnostics::handleDiagnostics(const DiagnosticInfo &DI) {
  const char *Kind = "error";
  switch (DI.getSeverity()) {
  case DS_Error:
    HadError = true;
    break;
  case DS_Warning:
    Kind = "warning";
    break;
  case DS_Remark:
    printRemark(DI);
    return true;
  case DS_Note:
    return true;
  }
  errs() << programName() << ": " << Kind << ": ";
  DiagnosticPrinterRawOStream DP(errs());
  DI.print(DP);
  errs() << '\n';
  return true;
}

} // namespace divcc
