//===- ClangTargetOptions.cpp - Clang's options for LLVM's code generator -===//
//
// Byte-identical output with clang-19 needs the TargetMachine clang would
// build: the same llvm::TargetOptions, code model, relocation model, CPU and
// features. Clang computes them in a file-local function of its BackendUtil
// from the parsed cc1 invocation; it is not exported, so this file mirrors
// that mapping field by field for LLVM 19.1. When moving to a new LLVM, diff
// this file against clang/lib/CodeGen/BackendUtil.cpp of that release (the
// parity tests catch what is missed).
//
//===----------------------------------------------------------------------===//

#include "codegen/ClangTargetOptions.h"

#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/TargetOptions.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using clang::CodeGenOptions;
using clang::LangOptions;

namespace divcc {

static FPOpFusion::FPOpFusionMode fpOpFusion(const LangOptions &LO) {
  // Off still allows the contractions the front end already formed.
  return LO.getDefaultFPContractMode() == LangOptions::FPM_Fast
             ? FPOpFusion::Fast
             : FPOpFusion::Standard;
}

static bool unsafeFPMath(const LangOptions &LO) {
  auto Mode = LO.getDefaultFPContractMode();
  return LO.AllowFPReassoc && LO.AllowRecip && LO.NoSignedZero &&
         LO.ApproxFunc &&
         (Mode == LangOptions::FPM_Fast ||
          Mode == LangOptions::FPM_FastHonorPragmas);
}

static SwiftAsyncFramePointerMode
swiftAsyncFramePointer(const CodeGenOptions &CGO) {
  switch (CGO.getSwiftAsyncFramePointer()) {
  case CodeGenOptions::SwiftAsyncFramePointerKind::Auto:
    return SwiftAsyncFramePointerMode::DeploymentBased;
  case CodeGenOptions::SwiftAsyncFramePointerKind::Always:
    return SwiftAsyncFramePointerMode::Always;
  case CodeGenOptions::SwiftAsyncFramePointerKind::Never:
    return SwiftAsyncFramePointerMode::Never;
  }
  llvm_unreachable("unknown Swift async frame pointer mode");
}

static void initMCOptions(MCTargetOptions &MC, const clang::CompilerInvocation &CI) {
  const CodeGenOptions &CGO = CI.getCodeGenOpts();
  const clang::HeaderSearchOptions &HSO = CI.getHeaderSearchOpts();
  MC.SplitDwarfFile = CGO.SplitDwarfFile;
  MC.EmitDwarfUnwind = CGO.getEmitDwarfUnwind();
  MC.EmitCompactUnwindNonCanonical = CGO.EmitCompactUnwindNonCanonical;
  MC.MCRelaxAll = CGO.RelaxAll;
  MC.MCSaveTempLabels = CGO.SaveTempLabels;
  MC.MCUseDwarfDirectory = CGO.NoDwarfDirectoryAsm
                               ? MCTargetOptions::DisableDwarfDirectory
                               : MCTargetOptions::EnableDwarfDirectory;
  MC.MCNoExecStack = CGO.NoExecStack;
  MC.MCIncrementalLinkerCompatible = CGO.IncrementalLinkerCompatible;
  MC.MCFatalWarnings = CGO.FatalWarnings;
  MC.MCNoWarn = CGO.NoWarn;
  MC.AsmVerbose = CGO.AsmVerbose;
  MC.Dwarf64 = CGO.Dwarf64;
  MC.PreserveAsmComments = CGO.PreserveAsmComments;
  MC.X86RelaxRelocations = CGO.RelaxELFRelocations;
  MC.CompressDebugSections = CGO.getCompressDebugSections();
  MC.ABIName = CI.getTargetOpts().ABI;
  for (const auto &Entry : HSO.UserEntries) {
    using namespace clang::frontend;
    bool Searched = Entry.Group == Quoted || Entry.Group == Angled ||
                    Entry.Group == System;
    if (!Entry.IsFramework && Searched)
      MC.IASSearchPaths.push_back(Entry.IgnoreSysRoot
                                      ? Entry.Path
                                      : HSO.Sysroot + Entry.Path);
  }
  MC.Argv0 = CGO.Argv0;
  MC.CommandLineArgs = CGO.CommandLineArgs;
  MC.AsSecureLogFile = CGO.AsSecureLogFile;
  MC.PPCUseFullRegisterNames = CGO.PPCUseFullRegisterNames;
}

bool initTargetOptions(clang::DiagnosticsEngine &Diags, TargetOptions &O,
                       const clang::CompilerInvocation &CI) {
  const CodeGenOptions &CGO = CI.getCodeGenOpts();
  const LangOptions &LO = CI.getLangOpts();

  O.ThreadModel = LO.getThreadModel() == LangOptions::ThreadModelKind::Single
                      ? ThreadModel::Single
                      : ThreadModel::POSIX;
  O.FloatABIType = StringSwitch<FloatABI::ABIType>(CGO.FloatABI)
                       .Cases("soft", "softfp", FloatABI::Soft)
                       .Case("hard", FloatABI::Hard)
                       .Default(FloatABI::Default);
  O.AllowFPOpFusion = fpOpFusion(LO);
  O.BinutilsVersion =
      TargetMachine::parseBinutilsVersion(CGO.BinutilsVersion);
  O.UseInitArray = CGO.UseInitArray;
  O.DisableIntegratedAS = CGO.DisableIntegratedAS;
  O.EABIVersion = CI.getTargetOpts().EABIVersion;

  // Later kinds win, as in clang.
  if (LO.hasSjLjExceptions())
    O.ExceptionModel = ExceptionHandling::SjLj;
  if (LO.hasSEHExceptions())
    O.ExceptionModel = ExceptionHandling::WinEH;
  if (LO.hasDWARFExceptions())
    O.ExceptionModel = ExceptionHandling::DwarfCFI;
  if (LO.hasWasmExceptions())
    O.ExceptionModel = ExceptionHandling::Wasm;

  O.NoInfsFPMath = LO.NoHonorInfs;
  O.NoNaNsFPMath = LO.NoHonorNaNs;
  O.NoZerosInBSS = CGO.NoZeroInitializedInBSS;
  O.UnsafeFPMath = unsafeFPMath(LO);
  O.ApproxFuncFPMath = LO.ApproxFunc;

  O.BBAddrMap = CGO.BBAddrMap;
  O.BBSections = StringSwitch<BasicBlockSection>(CGO.BBSections)
                     .Case("all", BasicBlockSection::All)
                     .Case("labels", BasicBlockSection::Labels)
                     .StartsWith("list=", BasicBlockSection::List)
                     .Default(BasicBlockSection::None);
  if (O.BBSections == BasicBlockSection::List) {
    auto Buf = MemoryBuffer::getFile(CGO.BBSections.substr(5));
    if (!Buf) {
      Diags.Report(clang::diag::err_fe_unable_to_load_basic_block_sections_file)
          << Buf.getError().message();
      return false;
    }
    O.BBSectionsFuncListBuf = std::move(*Buf);
  }

  O.EnableMachineFunctionSplitter = CGO.SplitMachineFunctions;
  O.FunctionSections = CGO.FunctionSections;
  O.DataSections = CGO.DataSections;
  O.IgnoreXCOFFVisibility = LO.IgnoreXCOFFVisibility;
  O.UniqueSectionNames = CGO.UniqueSectionNames;
  O.UniqueBasicBlockSectionNames = CGO.UniqueBasicBlockSectionNames;
  O.TLSSize = CGO.TLSSize;
  O.EnableTLSDESC = CGO.EnableTLSDESC;
  O.EmulatedTLS = CGO.EmulatedTLS;
  O.DebuggerTuning = CGO.getDebuggerTuning();
  O.EmitStackSizeSection = CGO.StackSizeSection;
  O.StackUsageOutput = CGO.StackUsageOutput;
  O.EmitAddrsig = CGO.Addrsig;
  O.ForceDwarfFrameSection = CGO.ForceDwarfFrameSection;
  O.EmitCallSiteInfo = CGO.EmitCallSiteInfo;
  O.EnableAIXExtendedAltivecABI = LO.EnableAIXExtendedAltivecABI;
  O.XRayFunctionIndex = CGO.XRayFunctionIndex;
  O.LoopAlignment = CGO.LoopAlignment;
  O.DebugStrictDwarf = CGO.DebugStrictDwarf;
  O.ObjectFilenameForDebug = CGO.ObjectFilenameForDebug;
  O.Hotpatch = CGO.HotPatch;
  O.JMCInstrument = CGO.JMCInstrument;
  O.XCOFFReadOnlyPointers = CGO.XCOFFReadOnlyPointers;
  O.SwiftAsyncFramePointer = swiftAsyncFramePointer(CGO);
  initMCOptions(O.MCOptions, CI);
  O.MisExpect = CGO.MisExpect;
  return true;
}

std::optional<CodeModel::Model> codeModel(const clang::CompilerInvocation &CI) {
  return StringSwitch<std::optional<CodeModel::Model>>(
             CI.getCodeGenOpts().CodeModel)
      .Case("tiny", CodeModel::Tiny)
      .Case("small", CodeModel::Small)
      .Case("kernel", CodeModel::Kernel)
      .Case("medium", CodeModel::Medium)
      .Case("large", CodeModel::Large)
      .Default(std::nullopt);
}

std::string targetFeatures(clang::DiagnosticsEngine &Diags,
                           const clang::CompilerInvocation &CI) {
  auto Options = std::make_shared<clang::TargetOptions>(CI.getTargetOpts());
  llvm::IntrusiveRefCntPtr<clang::TargetInfo> Info =
      clang::TargetInfo::CreateTargetInfo(Diags, Options);
  const std::vector<std::string> &Features =
      Info ? Options->Features : CI.getTargetOpts().Features;
  return llvm::join(Features, ",");
}

} // namespace divcc
