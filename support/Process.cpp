//===- Process.cpp - Starting and waiting for the processes divtool runs --===//

#include "support/Process.h"

#include "support/Diagnostics.h"
#include "support/Environment.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace divcc {

Expected<pid_t> startProcess(ArrayRef<std::string> Command, StringRef Dir,
                             ArrayRef<std::string> Env, StringRef Stdout,
                             StringRef Stderr, bool OwnProcessGroup,
                             StringRef What) {
  std::string Program = Command[0];
  if (!StringRef(Program).contains('/')) {
    SmallVector<StringRef, 16> Paths;
    std::string PathVariable =
        lookupEnvironment(Env, "PATH").value_or("/usr/bin:/bin");
    SplitString(PathVariable, Paths, ":");
    ErrorOr<std::string> Found = sys::findProgramByName(Program, Paths);
    if (!Found)
      return makeError("cannot run " + What + ": '" + Program +
                       "' is not on PATH");
    Program = *Found;
  }
  int LogFd = -1, ErrFd = -1;
  for (auto [Path, Fd] : {std::pair<StringRef, int *>(Stdout, &LogFd),
                          std::pair<StringRef, int *>(Stderr, &ErrFd)}) {
    if (Fd == &ErrFd && Stderr == Stdout)
      break;
    *Fd = ::open(Path.str().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                 0644);
    if (*Fd < 0) {
      std::error_code EC(errno, std::generic_category());
      if (LogFd >= 0)
        ::close(LogFd);
      return makeError("cannot create '" + Path + "'", EC);
    }
  }
  std::vector<char *> Argv, Envp;
  for (const std::string &A : Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  // PWD names the process's directory, not divtool's (make's $(PWD) and
  // scripts read it).
  std::string WorkingDir = Dir.str();
  std::string Pwd = "PWD=" + WorkingDir;
  for (const std::string &E : Env)
    if (variableName(E) != "PWD")
      Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(Pwd.data());
  Envp.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, LogFd, 1);
  posix_spawn_file_actions_adddup2(&Actions, ErrFd >= 0 ? ErrFd : LogFd, 2);
  posix_spawn_file_actions_addchdir_np(&Actions, WorkingDir.c_str());
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  if (OwnProcessGroup) {
    posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&Attributes, 0);
  }
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Program.c_str(), &Actions, &Attributes,
                       Argv.data(), Envp.data());
  posix_spawnattr_destroy(&Attributes);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(LogFd);
  if (ErrFd >= 0)
    ::close(ErrFd);
  if (Rc != 0)
    return makeError("cannot run " + What + " '" + Program + "'",
                     std::error_code(Rc, std::generic_category()));
  return Pid;
}

std::optional<int> waitProcess(pid_t Pid, bool Block, struct rusage *Usage) {
  for (;;) {
    int Status = 0;
    pid_t R = ::wait4(Pid, &Status, Block ? 0 : WNOHANG, Usage);
    if (R == Pid)
      return Status;
    if (R == 0)
      return std::nullopt;
    if (errno != EINTR)
      return 255 << 8; // Lost: reported as a failure.
  }
}

std::string describeWaitStatus(int Status) {
  if (WIFEXITED(Status))
    return "exit status " + std::to_string(WEXITSTATUS(Status));
  if (WIFSIGNALED(Status))
    return "killed by signal " + std::to_string(WTERMSIG(Status)) + " (" +
           strsignal(WTERMSIG(Status)) + ")";
  return "wait status " + std::to_string(Status);
}

int exitCodeOf(int Status) {
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return 255;
}

std::string lastLines(StringRef Log, unsigned N) {
  auto Buffer = MemoryBuffer::getFile(Log);
  if (!Buffer)
    return "  (no log: " + Buffer.getError().message() + ")\n";
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().rtrim('\n').split(Lines, '\n');
  if (Lines.size() == 1 && Lines[0].empty())
    return "  (the log is empty)\n";
  std::string Out;
  for (StringRef Line : ArrayRef(Lines).take_back(N)) {
    Out += "  ";
    Out +=
        Line.size() > 300 ? (Line.take_front(300) + "...").str() : Line.str();
    Out += "\n";
  }
  return Out;
}

} // namespace divcc
