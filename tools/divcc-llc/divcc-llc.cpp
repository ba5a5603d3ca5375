//===- divcc-llc.cpp - llc with divcc's passes, to test each one alone ----===//
//
// A small llc (after llvm/tools/llc/llc.cpp of LLVM 19) in which divcc's
// passes can be run by name (transforms/PassRegistry.h), so that each
// transformation can be tested on its own on a few lines of .ll or .mir
// with FileCheck, as LLVM tests its passes in llvm/test/CodeGen. Three
// modes:
//
//   divcc-llc F.ll [-fdiversify=LIST]
//       LLVM IR through divcc's whole code generator (codegen/CodeGen.h's
//       emitModule): clang's pass sequence, each transformation of LIST in
//       its place. Without -fdiversify=, exactly LLVM's code.
//   divcc-llc F.ll -run-pass=divcc-funcs[,...]
//       divcc's IR passes (funcs, globals, frames) alone; prints the IR.
//   divcc-llc F.mir -run-pass=NAME[,NAME...]
//       machine passes on MIR, divcc's (divcc-regs, -blocks, -subst, -nops,
//       -sched) or any of LLVM's, as `llc -run-pass`; prints the MIR.
//
// Streams are keyed by -frandom-seed=STRING's bytes, as in divcc's driver,
// and by the module's stream name (transforms/Passes.h), so a pass run
// here on a module decides what it decides in divcc for the same seed.
//
// Secrecy, as in divcc: the secret is condensed into the master key at
// once and its bytes are then wiped, from the option and from argv; no
// message prints it, and a crash prints no command line (this tool installs
// no PrettyStackTraceProgram, which would print argv).
//
//===----------------------------------------------------------------------===//

#include "codegen/BackendDiagnostics.h"
#include "codegen/CodeGen.h"
#include "random/RandomStream.h"
#include "random/SecretSeed.h"
#include "support/Diagnostics.h"
#include "transforms/DiversityOptionParser.h"
#include "transforms/DiversityOptions.h"
#include "transforms/PassRegistry.h"
#include "transforms/Passes.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/CodeGen/MIRParser/MIRParser.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/IRPrintingPasses.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/InitializePasses.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetLoweringObjectFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstring>
#include <optional>

using namespace llvm;
using namespace divcc;

static codegen::RegisterCodeGenFlags CodeGenFlags; // -mcpu, -filetype, ...

static cl::OptionCategory Category("divcc-llc options");

static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<input .ll or .mir>"),
                                          cl::init("-"), cl::cat(Category));
static cl::opt<std::string>
    OutputFilename("o", cl::desc("Output file (default: standard output)"),
                   cl::value_desc("filename"), cl::init("-"),
                   cl::cat(Category));
static cl::opt<std::string>
    TargetTriple("mtriple", cl::desc("Override the module's target triple"),
                 cl::cat(Category));
static cl::opt<char>
    OptLevel("O", cl::desc("Optimization level: -O0, -O1, -O2 or -O3 "
                           "(default: -O2)"),
             cl::Prefix, cl::init('2'), cl::cat(Category));
static cl::list<std::string>
    RunPasses("run-pass",
              cl::desc("Run these passes only: divcc's (divcc-funcs, "
                       "-globals, -frames on .ll; divcc-sched, -regs, "
                       "-blocks, -subst, -nops on .mir) or LLVM's (.mir)"),
              cl::CommaSeparated, cl::value_desc("pass-name"),
              cl::cat(Category));
static cl::opt<std::string>
    Secret("frandom-seed",
           cl::desc("The secret seed: its bytes key every random stream"),
           cl::value_desc("string"), cl::cat(Category));
static cl::alias SecretAlias("divcc-seed", cl::desc("Alias for -frandom-seed"),
                             cl::aliasopt(Secret));
static const char *ProgramName = "divcc-llc";

/// Prints an error the way divcc does and returns the exit status.
static int error(const Twine &Message) {
  printError(Message);
  return 1;
}

namespace {

/// A divcc pass of -run-pass=, or an LLVM one (Divcc null).
struct RequestedPass {
  std::string Name;
  const RegisteredPass *Divcc;
};

} // namespace

/// Overwrites the secret in argv (-frandom-seed=S, -divcc-seed=S, or the
/// value after a bare -frandom-seed), so that nothing reading this
/// process's arguments later finds it.
static void wipeSecretArguments(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    StringRef A = Argv[I];
    StringRef Name = A.ltrim('-');
    for (StringRef Spelling : {"frandom-seed", "divcc-seed"}) {
      if (Name == Spelling && I + 1 < Argc) {
        memset(Argv[I + 1], '*', strlen(Argv[I + 1]));
      } else if (Name.starts_with(Spelling) &&
                 Name.drop_front(Spelling.size()).starts_with("=")) {
        char *Value = Argv[I] + (A.size() - Name.size()) + Spelling.size() + 1;
        memset(Value, '*', strlen(Value));
      }
    }
  }
}

/// Takes the options of the transformations (transforms/
/// DiversityOptionParser.h, the same as divcc's) out of \p Argv into
/// \p Options; what is left is for LLVM's command line. False after an
/// error (printed).
static bool takeDiversityOptions(SmallVectorImpl<char *> &Argv,
                                 DiversityOptions &Options) {
  Options.Transformations = TransformationSet();
  SmallVector<char *, 16> Rest;
  for (char *Arg : Argv) {
    Expected<bool> Applied = applyDiversityOption(Arg, Options);
    if (!Applied) {
      printError(Applied.takeError());
      return false;
    }
    if (!*Applied)
      Rest.push_back(Arg);
  }
  Argv.assign(Rest.begin(), Rest.end());
  for (const TransformationInfo &T : allTransformations())
    if (T.Slot == PipelineSlot::LinkTime &&
        Options.Transformations.has(T.Kind)) {
      error("'" + Twine(T.Name) +
            "' acts on the link, and divcc-llc links nothing");
      return false;
    }
  return true;
}

/// The options of the transformations, for --help.
static std::string diversityOptionHelp() {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "\ndivcc's options (as divcc's):\n";
  printSelectionHelp(OS);
  OS << "\nTransformations, each with its own options:\n";
  printTransformationHelp(OS);
  return Text;
}

/// The passes of -run-pass=, checked against the input's kind. False after
/// an error (printed).
static bool readRunPasses(bool IsMIR, SmallVectorImpl<RequestedPass> &Out) {
  unsigned Schedulers = 0;
  for (const std::string &Name : RunPasses) {
    if (Name == "none")
      continue;
    const RegisteredPass *Divcc = findRegisteredPass(Name);
    if (Divcc && Divcc->Level == PassLevel::IR && IsMIR) {
      error("'-run-pass=" + Name +
            "' is an IR pass: give it LLVM IR (.ll), not MIR");
      return false;
    }
    if (Divcc && Divcc->Level == PassLevel::Machine && !IsMIR) {
      error("'-run-pass=" + Name +
            "' is a machine pass: give it MIR (.mir, e.g. from llc-19 "
            "-stop-after=...), or use -fdiversify= for the whole pipeline");
      return false;
    }
    if (!Divcc && !IsMIR) {
      error("'-run-pass=" + Name +
            "': on LLVM IR only divcc's IR passes run (divcc-funcs, "
            "divcc-globals, divcc-frames)");
      return false;
    }
    if (!Divcc && !PassRegistry::getPassRegistry()->getPassInfo(Name)) {
      error("unknown pass '" + Name + "' in '-run-pass=' (divcc's: " +
            registeredPassNames() + "; or any LLVM machine pass)");
      return false;
    }
    if (Divcc && Divcc->Kind == Transformation::Sched && ++Schedulers > 1) {
      error("'-run-pass=divcc-sched' may appear once");
      return false;
    }
    Out.push_back({Name, Divcc});
  }
  return true;
}

static void initializePasses() {
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers();
  PassRegistry &Registry = *PassRegistry::getPassRegistry();
  initializeCore(Registry);
  initializeCodeGen(Registry);
  initializeTarget(Registry);
  initializeTransformUtils(Registry);
  initializeScalarOpts(Registry);
}

int main(int Argc, char **Argv) {
  // No PrettyStackTraceProgram (InitLLVM): a crash would print argv.
  sys::PrintStackTraceOnErrorSignal(Argv[0], /*DisableCrashReporting=*/true);
  llvm_shutdown_obj Shutdown;
  setProgramName(ProgramName);
  initializePasses();
  cl::AddExtraVersionPrinter(
      [](raw_ostream &OS) { OS << "divcc-llc: divcc's passes by name\n"; });
  static const std::string ExtraHelpText = diversityOptionHelp();
  static cl::extrahelp ExtraHelp(ExtraHelpText);
  DiversityOptions Options;
  SmallVector<char *, 16> LLVMArgs(Argv, Argv + Argc);
  if (!takeDiversityOptions(LLVMArgs, Options))
    return 1;
  cl::ParseCommandLineOptions(
      LLVMArgs.size(), LLVMArgs.data(),
      "divcc-llc: LLVM's code generator with divcc's passes, to test them\n\n"
      "  divcc-llc F.ll [-fdiversify=LIST] -frandom-seed=S   whole pipeline\n"
      "  divcc-llc F.ll -run-pass=divcc-funcs -frandom-seed=S  IR passes\n"
      "  divcc-llc F.mir -run-pass=divcc-nops -frandom-seed=S  machine "
      "passes\n");

  // The secret becomes the master key, and is then wiped.
  std::optional<MasterKey> Key;
  if (Secret.getNumOccurrences()) {
    std::string &Bytes = Secret.getValue();
    if (Bytes.empty())
      return error("'-frandom-seed=' needs a non-empty string");
    Key.emplace(MasterKey::fromSecret(arrayRefFromStringRef(Bytes)));
    memset(Bytes.data(), 0, Bytes.size());
    Bytes.clear();
  }
  wipeSecretArguments(Argc, Argv);

  bool IsMIR = StringRef(InputFilename).ends_with(".mir");
  SmallVector<RequestedPass, 4> Passes;
  if (!readRunPasses(IsMIR, Passes))
    return 1;
  if (!RunPasses.empty() && !Options.Transformations.empty())
    return error("'-fdiversify=' runs the whole pipeline and '-run-pass=' "
                 "single passes: give one of them");
  if (IsMIR && RunPasses.empty())
    return error("a .mir input needs '-run-pass=NAME'");
  bool NeedsKey = !Options.Transformations.empty() ||
                  any_of(Passes, [](const RequestedPass &P) {
                    return P.Divcc != nullptr;
                  });
  if (NeedsKey && !Key)
    return error("divcc's passes need a secret: '-frandom-seed=STRING'");

  std::optional<CodeGenOptLevel> OLvl = CodeGenOpt::parseLevel(OptLevel);
  if (!OLvl)
    return error("invalid optimization level '-O" + Twine(OptLevel) +
                 "': expected -O0, -O1, -O2 or -O3");
  CodeGenFileType FileType = codegen::getFileType();

  // The module, and the target machine built from its triple (or
  // -mtriple) while it is parsed, as llc does.
  LLVMContext Context;
  SMDiagnostic Err;
  std::unique_ptr<Module> M;
  std::unique_ptr<MIRParser> MIR;
  std::unique_ptr<TargetMachine> TM;
  std::string CPU = codegen::getCPUStr(), Features = codegen::getFeaturesStr();
  std::string TargetError;
  auto SetDataLayout = [&](StringRef DataLayoutTriple,
                           StringRef) -> std::optional<std::string> {
    Triple TheTriple(TargetTriple.empty() ? DataLayoutTriple.str()
                                          : Triple::normalize(TargetTriple));
    if (TheTriple.getTriple().empty())
      TheTriple.setTriple(sys::getDefaultTargetTriple());
    const Target *TheTarget =
        TargetRegistry::lookupTarget(codegen::getMArch(), TheTriple,
                                     TargetError);
    if (!TheTarget)
      return std::nullopt;
    TargetOptions TO = codegen::InitTargetOptionsFromCodeGenFlags(TheTriple);
    TM.reset(TheTarget->createTargetMachine(
        TheTriple.getTriple(), CPU, Features, TO,
        codegen::getExplicitRelocModel(), codegen::getExplicitCodeModel(),
        *OLvl));
    if (!TM)
      return std::nullopt;
    return TM->createDataLayout().getStringRepresentation();
  };
  if (IsMIR) {
    MIR = createMIRParserFromFile(
        InputFilename, Err, Context,
        [&](Function &F) { codegen::setFunctionAttributes(CPU, Features, F); });
    if (MIR)
      M = MIR->parseIRModule(SetDataLayout);
  } else {
    M = parseIRFile(InputFilename, Err, Context,
                    ParserCallbacks(SetDataLayout));
  }
  if (!TargetError.empty())
    return error(TargetError);
  if (!M) {
    Err.print(ProgramName, WithColor::error(errs(), ProgramName));
    return 1;
  }
  if (!TM)
    return error("cannot create a target machine for '" +
                 M->getTargetTriple() + "'");
  if (!TargetTriple.empty())
    M->setTargetTriple(Triple::normalize(TargetTriple));
  if (std::optional<CodeModel::Model> CM = M->getCodeModel();
      CM && !codegen::getExplicitCodeModel())
    TM->setCodeModel(*CM);
  {
    std::string Problems;
    raw_string_ostream OS(Problems);
    if (verifyModule(*M, &OS))
      return error("'" + InputFilename + "' is not valid LLVM IR:\n" +
                   OS.str());
  }
  codegen::setFunctionAttributes(CPU, Features, *M);

  // Whole pipeline: divcc's code generator, as divcc runs it.
  if (RunPasses.empty()) {
    // A pipeline stopped early has no object to write (llc prints MIR).
    if (TargetPassConfig::hasLimitedCodeGenPipeline())
      return error("-" + TargetPassConfig::getLimitedCodeGenPipelineReason() +
                   " is not supported: divcc-llc runs the whole pipeline or "
                   "the passes of -run-pass=; stop a pipeline early with "
                   "llc-19");
    DiversityPlan Plan{Options, Key ? &*Key : nullptr};
    PipelineOptions Pipeline;
    bool Null = FileType == CodeGenFileType::Null;
    return exitCodeFor(emitModule(
        *M, *TM, Pipeline,
        {Null ? StringRef("/dev/null") : StringRef(OutputFilename), "",
         FileType == CodeGenFileType::AssemblyFile},
        Plan));
  }

  // Single passes: IR passes print IR, machine passes print MIR.
  std::error_code EC;
  ToolOutputFile Out(OutputFilename, EC, sys::fs::OF_None);
  if (EC)
    return error("cannot write '" + OutputFilename + "': " + EC.message());
  auto HandlerOwner = std::make_unique<BackendDiagnostics>(PipelineOptions());
  BackendDiagnostics &Handler = *HandlerOwner;
  Context.setDiagnosticHandler(std::move(HandlerOwner));

  std::optional<StreamSource> Streams;
  if (Key)
    Streams.emplace(*Key, moduleStreamName(*M), Options.Functions);
  // Scopes outlive the pass manager's run (declared first, destroyed last).
  SmallVector<std::unique_ptr<RandomSchedulerScope>, 1> Scopes;
  auto &LLVMTM = static_cast<LLVMTargetMachine &>(*TM);
  legacy::PassManager PM;
  TargetLibraryInfoImpl TLII(Triple(M->getTargetTriple()));
  PM.add(new TargetLibraryInfoWrapperPass(TLII));
  TargetPassConfig *TPC = LLVMTM.createPassConfig(PM);
  if (TPC->hasLimitedCodeGenPipeline()) {
    delete TPC;
    return error("'-run-pass=' cannot be used with " +
                 TargetPassConfig::getLimitedCodeGenPipelineReason());
  }
  TPC->setDisableVerify(false);
  PM.add(TPC);
  MachineModuleInfoWrapperPass *MMIWP = nullptr;
  if (IsMIR) {
    MMIWP = new MachineModuleInfoWrapperPass(&LLVMTM);
    PM.add(MMIWP);
    TPC->printAndVerify("");
  }
  for (const RequestedPass &R : Passes) {
    Pass *P;
    if (R.Divcc) {
      PassInstance Instance = createRegisteredPass(*R.Divcc, Options, *Streams);
      P = Instance.P;
      if (Instance.Scheduler)
        Scopes.push_back(std::move(Instance.Scheduler));
    } else {
      const PassInfo *PI = PassRegistry::getPassRegistry()->getPassInfo(R.Name);
      if (!PI->getNormalCtor())
        return error("cannot create pass '" + R.Name + "'");
      P = PI->getNormalCtor()();
    }
    if (!IsMIR) {
      PM.add(P);
      continue;
    }
    // As llc: the machine verifier after each pass with
    // -verify-machineinstrs.
    std::string Banner = "After " + P->getPassName().str();
    TPC->addMachinePrePasses();
    PM.add(P);
    TPC->addMachinePostPasses(Banner);
  }
  TPC->setInitialized();
  if (FileType != CodeGenFileType::Null)
    PM.add(IsMIR ? static_cast<Pass *>(createPrintMIRPass(Out.os()))
                 : createPrintModulePass(Out.os()));
  if (IsMIR) {
    PM.add(createFreeMachineFunctionPass());
    const_cast<TargetLoweringObjectFile *>(LLVMTM.getObjFileLowering())
        ->Initialize(MMIWP->getMMI().getContext(), LLVMTM);
    if (MIR->parseMachineFunctions(*M, MMIWP->getMMI()))
      return 1;
  }
  PM.run(*M);
  if (Handler.hadError())
    return 1;
  Out.keep();
  return 0;
}
