//===- ForkPool.h - Code generation jobs in processes forked from divcc ---===//
//
// LTO code generation runs one job per module, several at once, each in a
// process forked from divcc: the key stays in divcc's memory (no other
// program ever sees it), and divcc's code generator keeps per-process state
// (LLVM's options, the scheduler registry) that threads would share. A job
// prints its own failure in its own process; the pool carries it up.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_FORKPOOL_H
#define DIVCC_DRIVER_FORKPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <sys/types.h>

namespace divcc {

class ForkPool {
public:
  /// Up to \p Jobs processes at once; with one, jobs run in this process.
  explicit ForkPool(unsigned Jobs) : Jobs(Jobs) {}
  ~ForkPool() { consumeError(wait()); }

  /// Runs \p Job (\p Name says what it is, in errors: "the ThinLTO back
  /// end of 'a.o'") once a process is free. After a
  /// failure nothing more starts.
  void start(const std::string &Name, llvm::function_ref<llvm::Error()> Job);

  /// Waits for every job started; the first failure, if any.
  llvm::Error wait();

private:
  void waitForOne();
  void fail(llvm::Error E);

  unsigned Jobs;
  std::map<pid_t, std::string> Running; // pid -> the job's name
  llvm::Error Failure = llvm::Error::success();
  bool Failed = false;
};

} // namespace divcc

#endif
