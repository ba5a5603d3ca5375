//===- InProcessCc1.h - clang -cc1 jobs run inside divcc ------------------===//
//
// clang runs its front end in the driver's own process when a compilation
// has one job; a new process per job costs about as much as compiling a
// small file. divcc does the same for every -cc1 job, including the front
// end of each job whose code it generates, so that a compile starts one
// process, not two: configure scripts run thousands of tiny compiles, and
// that saving is most of divcc's fixed cost per file.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_INPROCESSCC1_H
#define DIVCC_DRIVER_INPROCESSCC1_H

#include "clang/Driver/Job.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace divcc {

/// Whether \p Cmd is a clang -cc1 job (its first argument is "-cc1").
bool isCc1(const clang::driver::Command &Cmd);

/// Runs the clang -cc1 command line \p Args (starting with "-cc1") in this
/// process, as clang's cc1_main would in a process of its own. \p Redirects
/// follows Command::Execute: empty, or three optional paths for standard
/// input, output and error ("" meaning nothing). Returns cc1's exit status;
/// a crash in the front end is reported and returns non-zero.
int runCc1InProcess(llvm::ArrayRef<const char *> Args,
                    llvm::ArrayRef<std::optional<llvm::StringRef>> Redirects);

/// Runs \p Job as a job of its own: a crash (a signal, or an LLVM fatal
/// error that exits) is caught, its stack trace printed -- the command line
/// in it with secrets masked -- and returned as a failure instead of ending
/// divcc, as clang's integrated cc1 does.
int runRecoverably(llvm::function_ref<int()> Job);

/// A -cc1 job that does not generate code (preprocessing, syntax checks,
/// emitting IR): the same arguments, run in this process.
class InProcessCc1Command : public clang::driver::Command {
public:
  explicit InProcessCc1Command(const clang::driver::Command &Cc1)
      : Command(Cc1) {}

  int Execute(llvm::ArrayRef<std::optional<llvm::StringRef>> Redirects,
              std::string *ErrMsg, bool *ExecutionFailed) const override;
};

/// clang's front end skips freeing its memory at exit (-disable-free).
/// When one divcc process runs several -cc1 jobs, each must free its own,
/// or the memory of every translation unit would pile up.
void freeMemoryAfterJob(clang::driver::Command &Cc1);

} // namespace divcc

#endif
