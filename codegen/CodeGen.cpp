//===- CodeGen.cpp - divcc's code generator: bitcode to object ------------===//
//
// Clang's own back end, rebuilt so that divcc's passes can join it. Clang
// runs (RunCodegenPipeline in clang/lib/CodeGen/BackendUtil.cpp):
//
//   TargetTransformInfo, TargetLibraryInfo, [ObjCARCContract at -O1+],
//   TargetMachine::addPassesToEmitFile(...)
//
// and addPassesToEmitFile is: TargetPassConfig, MachineModuleInfo,
// addISelPasses, addMachinePasses, the assembly printer, FreeMachineFunction.
// divcc spells that sequence out so that it can put
//
//   - IR transformations (function shuffling) before instruction selection,
//   - machine transformations that must see final code (NOP insertion)
//     after the last machine pass, right before the assembly printer, or,
//     on a target whose last passes measure code size (AArch64's branch
//     relaxation), right before those (lateMachinePassAnchor in
//     targets/DiversityTarget.h); longer encodings (prefixes) after the
//     target's own choice of encodings (encodingPassAnchor: Thumb-2 size
//     reduction), if that comes later.
//
// With no transformation selected the pass sequence is exactly clang's, and
// so is every byte of code (the parity tests check this).
//
//===----------------------------------------------------------------------===//

#include "codegen/CodeGen.h"
#include "codegen/BackendDiagnostics.h"
#include "codegen/ClangTargetOptions.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "targets/DiversityTarget.h"
#include "transforms/PassRegistry.h"
#include "transforms/Passes.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ModuleSummaryAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/Frontend/Driver/CodeGenOptions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/ObjCARC.h"

#include <csignal>

using namespace llvm;

namespace divcc {

StringRef clangExecutable() { return DIVCC_CLANG_EXECUTABLE; }

namespace {

/// Sets LLVM's global options the way clang's cc1 does: its -mllvm
/// arguments, -debug-pass and -limit-float-precision. Options may have been
/// set by an earlier translation unit of the same divcc run, so their
/// occurrence counts are reset first.
void setBackendCommandLine(const clang::CompilerInvocation &CI) {
  const clang::CodeGenOptions &CGO = CI.getCodeGenOpts();
  SmallVector<const char *, 16> Args = {"clang"};
  for (const std::string &A : CI.getFrontendOpts().LLVMArgs)
    Args.push_back(A.c_str());
  if (!CGO.DebugPass.empty()) {
    Args.push_back("-debug-pass");
    Args.push_back(CGO.DebugPass.c_str());
  }
  if (!CGO.LimitFloatPrecision.empty()) {
    Args.push_back("-limit-float-precision");
    Args.push_back(CGO.LimitFloatPrecision.c_str());
  }
  if (Args.size() == 1)
    return;
  cl::ResetAllOptionOccurrences();
  cl::ParseCommandLineOptions(Args.size(), Args.data());
}

/// Whether the user asked LLVM to verify machine code (-mllvm
/// -verify-machineinstrs). LLVM then checks after each of its own passes;
/// divcc's machine passes are added outside that mechanism and so ask for
/// a check of their own.
bool machineVerifierRequested() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("verify-machineinstrs");
  return It != Options.end() && It->second->getNumOccurrences() > 0;
}

/// The passes of RunCodegenPipeline + addPassesToEmitFile, with divcc's
/// transformations in their places. Returns false if the target cannot emit
/// this file type.
bool addCodeGenPasses(legacy::PassManager &PM, LLVMTargetMachine &TM,
                      const PipelineOptions &Pipeline, Module &M,
                      raw_pwrite_stream &Out, raw_pwrite_stream *DwoOut,
                      CodeGenFileType FileType, const DiversityOptions &Options,
                      const StreamSource *Streams) {
  Triple TT(M.getTargetTriple());
  if (Pipeline.TargetTransformInfo)
    PM.add(createTargetTransformInfoWrapperPass(TM.getTargetIRAnalysis()));
  std::unique_ptr<TargetLibraryInfoImpl> TLII(
      llvm::driver::createTLII(TT, Pipeline.VecLib));
  PM.add(new TargetLibraryInfoWrapperPass(*TLII));
  if (Pipeline.SummaryIndex)
    PM.add(createImmutableModuleSummaryIndexWrapperPass(Pipeline.SummaryIndex));
  if (Pipeline.ObjCARCContract)
    PM.add(createObjCARCContractPass());

  auto *MMIWP = new MachineModuleInfoWrapperPass(&TM);
  TargetPassConfig *PassConfig = TM.createPassConfig(PM);
  PassConfig->setDisableVerify(!Pipeline.VerifyModule);
  PM.add(PassConfig);
  PM.add(MMIWP);

  // Each transformation of Transformations.def in its slot, in its order.
  // Without streams (nothing to diversify), none runs. The anchors of the
  // machine slots run only when optimizing: at -O0 there is no scheduler,
  // no placement and no shrink-wrapping.
  //
  // Late passes act on final code: right before the assembly printer, or,
  // on targets whose last machine passes measure code size (AArch64's
  // branch relaxation), right before those, so that every instruction they
  // add is measured. Anchored passes get LLVM's own machine verifier when
  // it is requested; the others ask for it here.
  std::unique_ptr<DiversityTarget> Target = createDiversityTarget(TT);
  AnalysisID LateAnchor = Target ? Target->lateMachinePassAnchor() : nullptr;
  AnalysisID EncodingAnchor = Target ? Target->encodingPassAnchor() : nullptr;
  SmallVector<Pass *, 4> Late;
  TransformationSet T = Streams ? Options.Transformations : TransformationSet();
  for (const TransformationInfo *Info : transformationsInPipelineOrder()) {
    // sched is the scheduler's strategy, set up by the caller's scope.
    if (!T.has(Info->Kind) || Info->Slot == PipelineSlot::SchedulerStrategy)
      continue;
    Pass *P = createTransformationPass(Info->Kind, Options, *Streams);
    switch (Info->Slot) {
    case PipelineSlot::BeforeISel:
      PM.add(P);
      break;
    case PipelineSlot::AfterMachineScheduler:
      PassConfig->insertPass(&MachineSchedulerID, P);
      break;
    case PipelineSlot::AfterBlockPlacement:
      PassConfig->insertPass(&MachineBlockPlacementID, P);
      break;
    case PipelineSlot::BeforePrologEpilog:
      PassConfig->insertPass(&ShrinkWrapID, P);
      break;
    case PipelineSlot::Late: {
      // prefixes choose encodings, after the target's own choice of them.
      AnalysisID Anchor =
          Info->Kind == Transformation::Prefixes ? EncodingAnchor : LateAnchor;
      if (Anchor)
        PassConfig->insertPass(Anchor, P);
      else
        Late.push_back(P);
      break;
    }
    case PipelineSlot::SchedulerStrategy:
    case PipelineSlot::LinkTime:
      llvm_unreachable("not a pass of the code generator");
    }
  }

  if (PassConfig->addISelPasses())
    return false;
  PassConfig->addMachinePasses();
  PassConfig->setInitialized();

  for (Pass *P : Late) {
    std::string Banner = ("After " + P->getPassName()).str();
    PM.add(P);
    if (machineVerifierRequested())
      PM.add(createMachineVerifierPass(Banner));
  }

  if (TM.addAsmPrinter(PM, Out, DwoOut, FileType,
                       MMIWP->getMMI().getContext()))
    return false;
  PM.add(createFreeMachineFunctionPass());
  return true;
}

} // namespace

Error runCodeGen(const CodeGenJob &Job, const DiversityPlan &Plan) {
  IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  auto *Printer = new clang::TextDiagnosticPrinter(errs(), &*DiagOpts);
  Printer->setPrefix(programName().str());
  clang::DiagnosticsEngine Diags(new clang::DiagnosticIDs(), &*DiagOpts,
                                 Printer);

  clang::CompilerInvocation CI;
  if (!clang::CompilerInvocation::CreateFromArgs(CI, Job.Cc1Args, Diags,
                                                 clangExecutable().data()))
    return alreadyReportedError();
  const clang::CodeGenOptions &CGO = CI.getCodeGenOpts();
  setBackendCommandLine(CI);

  LLVMContext Context;
  Context.setDiscardValueNames(CGO.DiscardValueNames);

  auto Buffer = MemoryBuffer::getFile(Job.BitcodePath);
  if (!Buffer)
    return makeError("cannot read '" + Job.BitcodePath + "'",
                     Buffer.getError());
  Expected<std::unique_ptr<Module>> ModuleOrErr =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), Context);
  if (!ModuleOrErr)
    return makeError("invalid bitcode from the front end: " +
                     toString(ModuleOrErr.takeError()));
  Module &M = **ModuleOrErr;

  std::string LookupError;
  const Target *TheTarget =
      TargetRegistry::lookupTarget(M.getTargetTriple(), LookupError);
  if (!TheTarget)
    return makeError(LookupError);
  TargetOptions Options;
  if (!initTargetOptions(Diags, Options, CI))
    return alreadyReportedError();
  const clang::TargetOptions &TO = CI.getTargetOpts();
  std::string Features = targetFeatures(Diags, CI);
  std::optional<CodeGenOptLevel> OptLevel =
      CodeGenOpt::getLevel(CGO.OptimizationLevel);
  std::unique_ptr<TargetMachine> TM(TheTarget->createTargetMachine(
      M.getTargetTriple(), TO.CPU, Features, Options, CGO.RelocationModel,
      codeModel(CI), OptLevel.value_or(CodeGenOptLevel::Default)));
  TM->setLargeDataThreshold(CGO.LargeDataThreshold);
  M.setDataLayout(TM->createDataLayout());

  PipelineOptions Pipeline;
  Pipeline.ObjCARCContract = CGO.OptimizationLevel > 0;
  Pipeline.VerifyModule = CGO.VerifyModule;
  Pipeline.VecLib = CGO.getVecLib();
  Pipeline.PassedRemarks = CGO.OptimizationRemark.Regex;
  Pipeline.MissedRemarks = CGO.OptimizationRemarkMissed.Regex;
  Pipeline.AnalysisRemarks = CGO.OptimizationRemarkAnalysis.Regex;
  return emitModule(M, *TM, Pipeline,
                    {Job.OutputPath, CGO.SplitDwarfOutput, Job.EmitAssembly},
                    Plan);
}

Error emitModule(Module &M, TargetMachine &TM, const PipelineOptions &Pipeline,
                 const OutputFiles &Files, const DiversityPlan &Plan) {
  LLVMContext &Context = M.getContext();
  auto HandlerOwner = std::make_unique<BackendDiagnostics>(Pipeline);
  BackendDiagnostics &Handler = *HandlerOwner;
  Context.setDiagnosticHandler(std::move(HandlerOwner));

  auto Out = AtomicOutput::create(Files.Path);
  if (!Out)
    return makeError("cannot write '" + Files.Path +
                     "': " + toString(Out.takeError()));
  std::optional<AtomicOutput> DwoOut;
  if (!Files.DwoPath.empty()) {
    auto Dwo = AtomicOutput::create(Files.DwoPath);
    if (!Dwo)
      return makeError("cannot write '" + Files.DwoPath +
                       "': " + toString(Dwo.takeError()));
    DwoOut.emplace(std::move(*Dwo));
  }

  {
    // The pass manager owns the assembly printer's stream, which flushes
    // into the output when destroyed: that must happen before the commit.
    std::optional<StreamSource> Streams;
    if (Plan.diversifying())
      Streams.emplace(*Plan.Key, moduleStreamName(M), Plan.Options.Functions);
    std::optional<RandomSchedulerScope> Scheduler;
    if (Streams && Plan.Options.Transformations.has(Transformation::Sched))
      Scheduler.emplace(Plan.Options.Sched, *Streams);
    legacy::PassManager PM;
    CodeGenFileType FileType = Files.EmitAssembly
                                   ? CodeGenFileType::AssemblyFile
                                   : CodeGenFileType::ObjectFile;
    if (!addCodeGenPasses(PM, static_cast<LLVMTargetMachine &>(TM), Pipeline, M,
                          Out->os(), DwoOut ? &DwoOut->os() : nullptr, FileType,
                          Plan.Options, Streams ? &*Streams : nullptr))
      return makeError("the target cannot emit this file type");
    if (Plan.CrashOnPurpose) {
      PrettyStackTraceString Crashing("divcc code generator crashing on "
                                      "purpose (-fdiversify-debug-crash)");
      ::raise(SIGSEGV);
    }
    PM.run(M);
  }
  if (Handler.hadError())
    return alreadyReportedError();

  // Write errors, a full disk among them, surface here: name the file.
  std::pair<AtomicOutput *, StringRef> Outputs[] = {
      {&*Out, Files.Path}, {DwoOut ? &*DwoOut : nullptr, Files.DwoPath}};
  for (auto [O, Path] : Outputs) {
    if (!O)
      continue;
    if (Error E = O->commit())
      return makeError("cannot write '" + Path + "': " + toString(std::move(E)));
  }
  return Error::success();
}

} // namespace divcc
