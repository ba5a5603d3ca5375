//===- TestRun.cpp - A project's test command run against one build -------===//

#include "divtool/test/TestRun.h"

#include "support/Environment.h"
#include "support/Process.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <signal.h>
#include <thread>

using namespace llvm;

namespace divcc {

Expected<TestResult> runTest(const TestCommandSpec &Test, StringRef Tree,
                             StringRef OutputStem) {
  TestResult R;
  R.StdoutFile = (OutputStem + ".out").str();
  R.StderrFile = (OutputStem + ".err").str();
  std::vector<std::string> Env = environmentWith({EnvSeedFile, EnvOptions}, {});
  Expected<pid_t> Pid =
      startProcess(Test.Argv, Tree, Env, R.StdoutFile, R.StderrFile,
                   /*OwnProcessGroup=*/true, "the test command");
  if (!Pid)
    return Pid.takeError();

  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(Test.TimeoutSeconds);
  std::optional<int> Status;
  while (!(Status = waitProcess(*Pid, /*Block=*/false))) {
    if (std::chrono::steady_clock::now() >= Deadline) {
      ::kill(-*Pid, SIGKILL);
      waitProcess(*Pid, /*Block=*/true);
      R.What = TestResult::Kind::TimedOut;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Whatever the test left running in its group goes with it.
  ::kill(-*Pid, SIGKILL);
  if (Status)
    R.WaitStatus = *Status;
  if (auto Buffer = MemoryBuffer::getFile(R.StdoutFile, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false))
    R.Stdout = (*Buffer)->getBuffer().str();
  return R;
}

TestResult buildFailure(std::string Why) {
  TestResult R;
  R.What = TestResult::Kind::BuildFailed;
  R.BuildError = std::move(Why);
  return R;
}

bool sameResult(const TestResult &A, const TestResult &B) {
  if (A.What != B.What)
    return false;
  if (A.What != TestResult::Kind::Ran)
    return true;
  return A.WaitStatus == B.WaitStatus && A.Stdout == B.Stdout;
}

static std::string describeStatus(const TestResult &R, unsigned Timeout) {
  switch (R.What) {
  case TestResult::Kind::TimedOut:
    return "timed out after " + std::to_string(Timeout) + " s";
  case TestResult::Kind::BuildFailed:
    return "the build failed";
  case TestResult::Kind::Ran:
    break;
  }
  return describeWaitStatus(R.WaitStatus);
}

std::string describeResult(const TestResult &R, unsigned TimeoutSeconds) {
  std::string Text = describeStatus(R, TimeoutSeconds);
  if (R.What == TestResult::Kind::Ran) {
    size_t Lines = StringRef(R.Stdout).count('\n');
    if (!R.Stdout.empty() && R.Stdout.back() != '\n')
      ++Lines;
    Text += ", " + std::to_string(Lines) + " line" + (Lines == 1 ? "" : "s") +
            " of output";
  }
  return Text;
}

/// \p Line for a message: at most 80 characters, control characters shown
/// as '?'.
static std::string quoteLine(StringRef Line) {
  std::string Out;
  for (char C : Line.take_front(80))
    Out += (unsigned char)C < 0x20 ? '?' : C;
  return "'" + Out + (Line.size() > 80 ? "...'" : "'");
}

std::string describeDifference(const TestResult &Reference, const TestResult &R,
                               unsigned TimeoutSeconds) {
  if (R.What == TestResult::Kind::BuildFailed)
    return "the build failed";
  std::vector<std::string> Parts;
  std::string Status = describeStatus(R, TimeoutSeconds);
  std::string RefStatus = describeStatus(Reference, TimeoutSeconds);
  if (Status != RefStatus)
    Parts.push_back(Status + " (undiversified: " + RefStatus + ")");
  if (R.What == TestResult::Kind::Ran && R.Stdout != Reference.Stdout) {
    SmallVector<StringRef, 0> Mine, Theirs;
    StringRef(R.Stdout).split(Mine, '\n');
    StringRef(Reference.Stdout).split(Theirs, '\n');
    size_t I = 0;
    while (I < Mine.size() && I < Theirs.size() && Mine[I] == Theirs[I])
      ++I;
    auto Show = [&](ArrayRef<StringRef> Lines) {
      return I < Lines.size() ? quoteLine(Lines[I]) : std::string("<end>");
    };
    Parts.push_back("output line " + std::to_string(I + 1) + " is " +
                    Show(Mine) + " (undiversified: " + Show(Theirs) + ")");
  }
  std::string Text;
  for (const std::string &P : Parts)
    Text += (Text.empty() ? "" : "; ") + P;
  return Text;
}

} // namespace divcc
