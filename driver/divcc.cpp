//===- divcc.cpp - The divcc and div++ compiler drivers -------------------===//
//
// divcc is clang-19's driver with one change to the plan it makes: each job
// that would run LLVM's code generator runs divcc's instead (see
// DiversifyingCommand.h). Everything else -- option parsing, toolchain and
// linker selection, temporary files, dependency files, exit codes -- is
// clang's own, which is what makes divcc a drop-in replacement.
//
// div++ is the same program in C++ mode (like clang++).
//
//===----------------------------------------------------------------------===//

#include "codegen/CodeGen.h"
#include "driver/DiversifyingCommand.h"
#include "driver/InProcessCc1.h"
#include "driver/LinkJob.h"
#include "driver/RemoteCompile.h"
#include "driver/Options.h"
#include "targets/DiversityTarget.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Stack.h"
#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;
using namespace clang::driver;

#ifndef DIVCC_VERSION
#define DIVCC_VERSION "0.1.0"
#endif

namespace divcc {
namespace {

StringRef ProgramName = "divcc";

[[noreturn]] void fail(const Twine &Message) {
  errs() << ProgramName << ": error: " << Message << '\n';
  std::exit(1);
}

/// Why divcc cannot diversify this compilation, or an empty string. Asking
/// for diversity and silently getting none would be the worst outcome, so
/// every case that would bypass divcc's code generator is refused.
std::string whyNotDiversifiable(const Compilation &C) {
  const opt::ArgList &Args = C.getArgs();
  if (opt::Arg *A = Args.getLastArg(clang::driver::options::OPT_flto_EQ,
                               clang::driver::options::OPT_flto,
                               clang::driver::options::OPT_fno_lto))
    if (!A->getOption().matches(clang::driver::options::OPT_fno_lto))
      return "'" + A->getAsString(Args) +
             "' is not supported with diversification: machine code would "
             "be generated at link time, outside divcc";
  for (const Command &Cmd : C.getJobs()) {
    if (!DiversifyingCommand::generatesCode(Cmd))
      continue;
    const auto &A = Cmd.getArguments();
    for (size_t I = 0; I + 1 < A.size(); ++I)
      if (StringRef(A[I]) == "-triple" && !isSupportedTarget(Triple(A[I + 1])))
        return "diversification is not supported for target '" +
               std::string(A[I + 1]) + "' (supported: " + supportedTargetsText() + ")";
  }
  return "";
}

int runDriver(int Argc, const char **Argv) {
  ProgramName = sys::path::filename(Argv[0]);
  bool CPlusPlus = ProgramName.contains("++");

  // Build systems put long command lines into response files; whatever
  // they hold, seeds included, counts as if it were on the command line.
  BumpPtrAllocator ResponseFileStorage;
  SmallVector<const char *, 64> Args(Argv, Argv + Argc);
  if (Error E = expandResponseFiles(Args, ResponseFileStorage))
    fail(toString(std::move(E)));

  Expected<ParsedCommandLine> Parsed =
      parseCommandLine(ArrayRef(Args).drop_front());
  if (!Parsed)
    fail(toString(Parsed.takeError()));
  Config &Cfg = Parsed->Cfg;

  if (Parsed->Help) {
    outs() << helpText(ProgramName);
    return 0;
  }

  // A cache that runs this compile must see the variant in its key before
  // anything, DIVCC_PREFIX included, can produce an object it keeps.
  if (Error E = checkVariantUnderCompilerCache(Args, Cfg))
    fail(toString(std::move(E)));
  if (std::optional<int> Code = runThroughPrefix(Args, Cfg))
    return *Code;
  if (Error E = checkSeedUnderDistcc(Args, Cfg))
    fail(toString(std::move(E)));

  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers(); // inline assembly is parsed by the code generator

  // Arguments for clang's driver. divcc runs every cc1 job in its own
  // process itself (InProcessCc1.h), so clang's driver must not try to.
  std::vector<std::string> DriverArgs = {clangExecutable().str()};
  if (CPlusPlus)
    DriverArgs.push_back("--driver-mode=g++");
  DriverArgs.push_back("-fno-integrated-cc1");
  for (std::string &A : Parsed->ClangArgs)
    DriverArgs.push_back(std::move(A));
  std::vector<const char *> DriverArgv;
  for (const std::string &A : DriverArgs)
    DriverArgv.push_back(A.c_str());

  IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  auto *Printer = new clang::TextDiagnosticPrinter(errs(), &*DiagOpts);
  Printer->setPrefix(ProgramName.str());
  clang::DiagnosticsEngine Diags(new clang::DiagnosticIDs(), &*DiagOpts,
                                 Printer);
  Driver TheDriver(clangExecutable(), sys::getDefaultTargetTriple(), Diags,
                   "divcc (based on clang 19)");
  if (Parsed->Version)
    outs() << ProgramName << " " << DIVCC_VERSION << " (diversifying "
           << (Cfg.diversifying() ? Cfg.Transformations.str() : "off")
           << ") on:\n";

  std::unique_ptr<Compilation> C(TheDriver.BuildCompilation(DriverArgv));
  if (!C || C->containsError())
    return 1;

  if (Cfg.diversifying()) {
    std::string Why = whyNotDiversifiable(*C);
    if (!Why.empty())
      fail(Why + "; add -fno-diversify to build without diversity");
  }

  // Swap in divcc's code generator. With -fno-diversify it still runs, with
  // no transformation, so that the pass pipeline is exercised either way.
  // Every cc1 job runs in this process. JobList offers its slots read-only;
  // the list itself is ours to change.
  auto &Slots = const_cast<JobList::list_type &>(C->getJobs().getJobs());
  bool SeveralCc1Jobs =
      llvm::count_if(Slots, [](const auto &Slot) { return isCc1(*Slot); }) > 1;
  for (std::unique_ptr<Command> &Slot : Slots) {
    if (!isCc1(*Slot))
      continue;
    if (SeveralCc1Jobs)
      freeMemoryAfterJob(*Slot);
    if (DiversifyingCommand::generatesCode(*Slot))
      Slot = std::make_unique<DiversifyingCommand>(*Slot, Cfg);
    else
      Slot = std::make_unique<InProcessCc1Command>(*Slot);
  }

  if (Cfg.diversifying())
    if (Error E = diversifyLinkJobs(*C, Cfg))
      fail(toString(std::move(E)));

  SmallVector<std::pair<int, const Command *>, 4> Failing;
  int Result = TheDriver.ExecuteCompilation(*C, Failing);
  for (const auto &[Code, Cmd] : Failing) {
    if (!Result)
      Result = Code;
    if (Code < 0 && !Result)
      Result = 1;
  }
  // Like clang: a job that crashed (a negative code, or 128 plus a signal
  // number) makes the driver fail with 1.
  return Result < 0 || Result > 128 ? 1 : Result;
}

} // namespace
} // namespace divcc

int main(int Argc, const char **Argv) {
  clang::noteBottomOfStack(); // the front end runs here and checks its stack
  // LLVM's crash handler prints the command line it was given first: it
  // gets one whose secrets are masked.
  std::vector<std::string> Shown;
  for (const char *Arg : ArrayRef(Argv, Argc))
    Shown.push_back(divcc::redactSecret(Arg));
  std::vector<const char *> ShownArgv;
  for (const std::string &Arg : Shown)
    ShownArgv.push_back(Arg.c_str());
  int ShownArgc = Argc;
  const char **ShownArgvData = ShownArgv.data();
  InitLLVM X(ShownArgc, ShownArgvData);
  setBugReportMsg("PLEASE report this crash of divcc with the stack dump "
                  "below (its secrets are masked) and the preprocessed "
                  "source (divcc -E with the same options).\n");
  return divcc::runDriver(Argc, Argv);
}
