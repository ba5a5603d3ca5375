//===- InProcessCc1.cpp - clang -cc1 jobs run inside divcc ----------------===//
//
// runCc1InProcess follows clang's cc1_main (clang/tools/driver/cc1_main.cpp,
// not part of any library) step for step, minus what only a separate
// process needs. Two things differ because divcc may run several jobs, and
// its own code generator, in one process:
//  * LLVM's global options (-mllvm) are reset before each job, so that one
//    translation unit's options never reach the next;
//  * a crash is caught (like clang's integrated cc1), reported with a stack
//    trace, and returned as a failure instead of killing the driver; so is
//    an LLVM fatal error, reported as clang reports it.
//
//===----------------------------------------------------------------------===//

#include "driver/InProcessCc1.h"
#include "codegen/CodeGen.h"
#include "support/Diagnostics.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/ObjectFilePCHContainerOperations.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/FrontendTool/Utils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using clang::driver::Command;

namespace divcc {

bool isCc1(const Command &Cmd) {
  const auto &Args = Cmd.getArguments();
  return !Args.empty() && StringRef(Args[0]) == "-cc1";
}

namespace {

/// Points standard output and error at files for as long as it lives, the
/// way a child process would have had them redirected.
class RedirectedStreams {
public:
  Error redirect(ArrayRef<std::optional<StringRef>> Redirects) {
    for (int Fd : {1, 2}) {
      if (size_t(Fd) >= Redirects.size() || !Redirects[Fd])
        continue;
      std::string Path = Redirects[Fd]->empty() ? "/dev/null" : Redirects[Fd]->str();
      int File = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (File < 0)
        return errorCodeToError(std::error_code(errno, std::generic_category()));
      flushStreams();
      Saved.push_back({Fd, ::fcntl(Fd, F_DUPFD_CLOEXEC, 0)});
      ::dup2(File, Fd);
      ::close(File);
    }
    return Error::success();
  }

  ~RedirectedStreams() {
    flushStreams();
    for (auto [Fd, Copy] : Saved) {
      ::dup2(Copy, Fd);
      ::close(Copy);
    }
  }

private:
  static void flushStreams() {
    outs().flush();
    errs().flush();
  }

  SmallVector<std::pair<int, int>, 2> Saved;
};

/// LLVM's fatal errors during the job become clang's "error in backend"
/// diagnostic. Process::Exit does not end divcc: inside the job's
/// CrashRecoveryContext it returns to runCc1InProcess with the status.
void reportFatalError(void *Diags, const char *Message, bool GenCrashDiag) {
  static_cast<clang::DiagnosticsEngine *>(Diags)->Report(
      clang::diag::err_fe_error_backend)
      << Message;
  sys::RunInterruptHandlers();
  sys::Process::Exit(GenCrashDiag ? 70 : 1);
}

int runCc1(ArrayRef<const char *> Cc1Args) {
  // Each job starts from LLVM's defaults; ExecuteCompilerInvocation then
  // applies this job's -mllvm options.
  cl::ResetAllOptionOccurrences();

  auto Clang = std::make_unique<clang::CompilerInstance>();
  auto PCHOps = Clang->getPCHContainerOperations();
  PCHOps->registerWriter(std::make_unique<clang::ObjectFilePCHContainerWriter>());
  PCHOps->registerReader(std::make_unique<clang::ObjectFilePCHContainerReader>());

  // Argument errors are buffered until the real diagnostics engine, which
  // the arguments configure, exists.
  IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  auto *DiagsBuffer = new clang::TextDiagnosticBuffer;
  clang::DiagnosticsEngine Diags(new clang::DiagnosticIDs(), &*DiagOpts,
                                 DiagsBuffer);
  bool Success = clang::CompilerInvocation::CreateFromArgs(
      Clang->getInvocation(), Cc1Args, Diags, clangExecutable().data());

  Clang->createDiagnostics();
  if (!Clang->hasDiagnostics())
    return 1;
  install_fatal_error_handler(reportFatalError, &Clang->getDiagnostics());
  auto RemoveHandler = make_scope_exit(remove_fatal_error_handler);
  DiagsBuffer->FlushDiagnostics(Clang->getDiagnostics());
  if (!Success) {
    Clang->getDiagnosticClient().finish();
    return 1;
  }

  const clang::FrontendOptions &FrontendOpts = Clang->getFrontendOpts();
  // ExecuteCompilerInvocation applies -mllvm options and exits the process
  // on a bad one; checked here first, a bad option fails only this job.
  // With plugins loaded (-fplugin) their options are not known yet.
  if (!FrontendOpts.LLVMArgs.empty() && FrontendOpts.Plugins.empty()) {
    SmallVector<const char *, 8> Args = {"clang (LLVM option parsing)"};
    for (const std::string &A : FrontendOpts.LLVMArgs)
      Args.push_back(A.c_str());
    bool Valid = cl::ParseCommandLineOptions(Args.size(), Args.data(), "", &errs());
    cl::ResetAllOptionOccurrences();
    if (!Valid)
      return 1;
  }
  if (!FrontendOpts.TimeTracePath.empty())
    timeTraceProfilerInitialize(FrontendOpts.TimeTraceGranularity,
                                clangExecutable(),
                                FrontendOpts.TimeTraceVerbose);

  Success = clang::ExecuteCompilerInvocation(Clang.get());

  if (timeTraceProfilerEnabled()) {
    // -ftime-trace: the front end's trace, written where the driver said.
    if (Error E = timeTraceProfilerWrite(FrontendOpts.TimeTracePath, ""))
      printWarning("cannot write the time trace: " + toString(std::move(E)));
    timeTraceProfilerCleanup();
  }

  // -ftime-report's timers, which cc1 prints at exit.
  TimerGroup::printAll(errs());
  TimerGroup::clearAll();

  if (Clang->getFrontendOpts().DisableFree) {
    // The diagnostics consumer must always be destroyed: it may flush.
    Clang->getDiagnosticClient().~DiagnosticConsumer();
    BuryPointer(std::move(Clang));
  }
  return !Success;
}

} // namespace

/// Set once a job crashed. What a crashed job leaves behind (timers and
/// other objects on stack frames that are gone, still listed in LLVM's
/// global registries) is not safe for the next front end to touch, so the
/// front ends of later jobs run in processes of their own, as they do in
/// clang whenever a compilation has several jobs.
static bool EarlierJobCrashed = false;

int runRecoverably(function_ref<int()> Job) {
  CrashRecoveryContext::Enable();
  CrashRecoveryContext CRC;
  CRC.DumpStackAndCleanupOnFailure = true;
  const void *PrettyState = SavePrettyStackState();
  int Result = 1;
  if (!CRC.RunSafely([&] { Result = Job(); })) {
    RestorePrettyStackState(PrettyState);
    remove_fatal_error_handler(); // its scope was left by a jump
    // As clang's driver does: the crashed job's timers were on stack frames
    // that are gone, so LLVM's default timer group must never be touched
    // again (not even at shutdown).
    BuryPointer(TimerGroup::aquireDefaultGroup());
    EarlierJobCrashed = true;
    return CRC.RetCode ? CRC.RetCode : 1;
  }
  return Result;
}

/// Runs the -cc1 command line \p Args in a clang process of its own.
static int runCc1InChild(ArrayRef<const char *> Args,
                         ArrayRef<std::optional<StringRef>> Redirects) {
  SmallVector<StringRef, 64> Argv = {clangExecutable()};
  Argv.append(Args.begin(), Args.end());
  std::string Message;
  bool Failed = false;
  int Code = sys::ExecuteAndWait(clangExecutable(), Argv, std::nullopt,
                                 Redirects, 0, 0, &Message, &Failed);
  if (Failed || Code < 0) {
    printError("cannot run the front end: " + Message);
    return 1;
  }
  return Code;
}

int runCc1InProcess(ArrayRef<const char *> Args,
                    ArrayRef<std::optional<StringRef>> Redirects) {
  if (EarlierJobCrashed)
    return runCc1InChild(Args, Redirects);
  RedirectedStreams Streams;
  if (Error E = Streams.redirect(Redirects)) {
    printError("cannot redirect the front end's output: " +
               toString(std::move(E)));
    return 1;
  }
  return runRecoverably([&] { return runCc1(Args.drop_front()); });
}

/// --print-supported-cpus and its kin make cc1 print what the target offers
/// and compile nothing. cc1_main answers them itself, not the library, so
/// they run in clang's own process: its output is then clang's by
/// construction.
static bool printsTargetInformation(const Command &Cc1) {
  return llvm::any_of(Cc1.getArguments(), [](StringRef A) {
    return A == "--print-supported-cpus" || A == "--print-supported-extensions" ||
           A == "--print-enabled-extensions";
  });
}

int InProcessCc1Command::Execute(ArrayRef<std::optional<StringRef>> Redirects,
                                 std::string *ErrMsg,
                                 bool *ExecutionFailed) const {
  if (printsTargetInformation(*this))
    return Command::Execute(Redirects, ErrMsg, ExecutionFailed);
  if (ExecutionFailed)
    *ExecutionFailed = false; // nothing to start
  return runCc1InProcess(getArguments(), Redirects);
}

void freeMemoryAfterJob(Command &Cc1) {
  opt::ArgStringList Args = Cc1.getArguments();
  llvm::erase_if(Args, [](const char *A) { return StringRef(A) == "-disable-free"; });
  Cc1.replaceArguments(std::move(Args));
}

} // namespace divcc
