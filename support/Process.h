//===- Process.h - Starting and waiting for the processes divtool runs ----===//
//
// divtool runs other programs: a project's build command, a benchmark, a
// test command. Each starts here with an environment built for it
// (support/Environment.h), standard input from /dev/null and its output to
// files, in a directory of its own; PWD names that directory. A process may
// get a process group of its own, so that killing the group ends whatever
// it started as well (a test that hangs).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_PROCESS_H
#define DIVCC_SUPPORT_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>

namespace divcc {

/// Starts \p Command in \p Dir with \p Env, standard input from /dev/null,
/// standard output to \p Stdout and standard error to \p Stderr (the same
/// file if equal), in a process group of its own if \p OwnProcessGroup (so
/// that kill(-pid) ends it and its children). The program is looked up on
/// the PATH of \p Env. \p What names the command in errors ("the build
/// command").
llvm::Expected<pid_t> startProcess(llvm::ArrayRef<std::string> Command,
                                   llvm::StringRef Dir,
                                   llvm::ArrayRef<std::string> Env,
                                   llvm::StringRef Stdout,
                                   llvm::StringRef Stderr, bool OwnProcessGroup,
                                   llvm::StringRef What);

/// The wait status of \p Pid once it has ended; none if \p Block is false
/// and it is still running. With \p Usage, also the resources it and the
/// descendants it waited for used (wait4).
std::optional<int> waitProcess(pid_t Pid, bool Block,
                               struct rusage *Usage = nullptr);

/// "exit status N" or "killed by signal N (NAME)".
std::string describeWaitStatus(int Status);
/// The shell's number for a wait status: the exit status, or 128 + signal.
int exitCodeOf(int Status);

/// The last \p N lines of \p Log, each indented by two spaces.
std::string lastLines(llvm::StringRef Log, unsigned N);

} // namespace divcc

#endif
