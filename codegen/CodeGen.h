//===- CodeGen.h - divcc's code generator: bitcode to object --------------===//

#ifndef DIVCC_CODEGEN_CODEGEN_H
#define DIVCC_CODEGEN_CODEGEN_H

#include "transforms/DiversityOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"
#include "llvm/Frontend/Driver/CodeGenOptions.h"

#include <memory>

namespace llvm {
class Module;
class ModuleSummaryIndex;
class TargetMachine;
} // namespace llvm

namespace divcc {

/// What divcc adds to clang's code generation: the transformations, and the
/// master key their streams come from (null when nothing is diversified).
struct DiversityPlan {
  const DiversityOptions &Options;
  const MasterKey *Key = nullptr;
  /// -fdiversify-debug-crash (hidden): the code generator crashes on
  /// purpose, so that tests can see what a crash shows and leaves behind.
  bool CrashOnPurpose = false;

  bool diversifying() const { return Key && Options.diversifying(); }
};

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
/// with the transformations of \p Plan added. Diagnostics of clang and LLVM
/// are printed as they come (the error is then alreadyReportedError()).
llvm::Error runCodeGen(const CodeGenJob &Job, const DiversityPlan &Plan);

/// What the code generator's pass pipeline holds besides the target
/// machine's own passes: clang's RunCodegenPipeline (BackendUtil.cpp) and
/// LTO's codegen() (LTOBackend.cpp) each add their own.
struct PipelineOptions {
  bool TargetTransformInfo = true; // clang adds it; LTO leaves it to isel
  bool ObjCARCContract = false;    // clang, when optimizing
  bool VerifyModule = false;
  llvm::driver::VectorLibrary VecLib = llvm::driver::VectorLibrary::NoLibrary;
  const llvm::ModuleSummaryIndex *SummaryIndex = nullptr; // LTO: the index
  /// Which passes' optimization remarks are printed (clang's -Rpass=,
  /// -Rpass-missed=, -Rpass-analysis=). Null: LLVM's own -pass-remarks*
  /// options decide, as in llc.
  std::shared_ptr<llvm::Regex> PassedRemarks, MissedRemarks, AnalysisRemarks;
};

/// Where the code of one module goes.
struct OutputFiles {
  llvm::StringRef Path;
  llvm::StringRef DwoPath; // split DWARF, or empty
  bool EmitAssembly = false;
};

/// Generates the machine code of \p M (its data layout set for \p TM) with
/// \p TM and the transformations of \p Plan, written atomically to \p Files.
/// LLVM's diagnostics are printed as they come, as runCodeGen's.
llvm::Error emitModule(llvm::Module &M, llvm::TargetMachine &TM,
               const PipelineOptions &Pipeline, const OutputFiles &Files,
               const DiversityPlan &Plan);

/// The clang executable whose front end, optimizer and linker divcc uses.
llvm::StringRef clangExecutable();

} // namespace divcc

#endif
