//===- ForkPool.cpp - Code generation jobs in processes forked from divcc -===//

#include "driver/ForkPool.h"
#include "driver/InProcessCc1.h"
#include "support/Diagnostics.h"
#include "support/Process.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace divcc {

void ForkPool::fail(Error E) {
  if (Failed) {
    consumeError(std::move(E));
    return;
  }
  Failed = true;
  consumeError(std::move(Failure));
  Failure = std::move(E);
}

void ForkPool::start(const std::string &Name, function_ref<Error()> Job) {
  while (!Running.empty() && Running.size() >= Jobs)
    waitForOne();
  if (Failed)
    return;
  if (Jobs <= 1) {
    if (Error E = Job())
      fail(std::move(E));
    return;
  }
  outs().flush();
  errs().flush();
  pid_t Pid = ::fork();
  if (Pid == 0) {
    // The child's own crash recovery: a crash must end this process, never
    // return into the parent's frames.
    int Code = runRecoverably([&] { return exitCodeFor(Job()); });
    errs().flush();
    ::_exit(Code);
  }
  if (Pid < 0) { // no process to spare: run it here
    if (Error E = Job())
      fail(std::move(E));
    return;
  }
  Running[Pid] = Name;
}

void ForkPool::waitForOne() {
  // Only this pool's children are reaped: divcc may have another (the
  // linker of an LTO link), whose status its owner reads. waitid with
  // WNOWAIT says which child ended without reaping it.
  siginfo_t Info{};
  pid_t Pid = Running.begin()->first;
  if (::waitid(P_ALL, 0, &Info, WEXITED | WNOWAIT) == 0 &&
      Running.count(Info.si_pid))
    Pid = Info.si_pid;
  int Status = 0;
  pid_t Done;
  do
    Done = ::waitpid(Pid, &Status, 0);
  while (Done < 0 && errno == EINTR);
  auto It = Running.find(Pid);
  if (Done < 0)
    fail(makeError("cannot wait for " + It->second,
                   std::error_code(errno, std::generic_category())));
  else if (Status != 0)
    // An exit status: the job printed why in its own process.
    fail(WIFEXITED(Status) ? alreadyReportedError()
                           : makeError(It->second + " ended: " +
                                       describeWaitStatus(Status)));
  Running.erase(It);
}

Error ForkPool::wait() {
  while (!Running.empty())
    waitForOne();
  Failed = false;
  Error Result = std::move(Failure);
  Failure = Error::success();
  return Result;
}

} // namespace divcc
