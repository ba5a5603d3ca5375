//===- TestRun.h - A project's test command run against one build ---------===//
//
// `divtool test` judges a build by what its test command does in the built
// tree: the exit status (or the signal, or running out of time) and the
// bytes of standard output. Two results are the same when all of those are;
// standard error is kept for the user but not compared (it often holds
// timings and addresses).
//
// Invariants: the test runs in its own process group, which is killed when
// the time is up, so a variant that hangs costs --timeout and no more; its
// environment is divtool's without DIVCC_SEED_FILE and DIVCC_OPTIONS (a
// test never sees a seed).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_TEST_TESTRUN_H
#define DIVCC_DIVTOOL_TEST_TESTRUN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace divcc {

/// What a build did under the test.
struct TestResult {
  enum class Kind { Ran, TimedOut, BuildFailed } What = Kind::Ran;
  /// The wait status, when the test ran to its end.
  int WaitStatus = 0;
  std::string Stdout;
  /// Where the test's standard output and error were written.
  std::string StdoutFile, StderrFile;
  /// Why the build failed (with the end of its log).
  std::string BuildError;
};

struct TestCommandSpec {
  std::vector<std::string> Argv;
  unsigned TimeoutSeconds = 300;
};

/// Runs the test command in \p Tree, writing its output to \p OutputStem
/// ".out" and ".err". An error only when the test cannot be started.
llvm::Expected<TestResult> runTest(const TestCommandSpec &Test,
                                   llvm::StringRef Tree,
                                   llvm::StringRef OutputStem);

/// A failed build, as a result (it differs from any test result).
TestResult buildFailure(std::string Why);

/// Same kind, same wait status, same standard output.
bool sameResult(const TestResult &A, const TestResult &B);

/// "exit status 0, 3 lines of output", "timed out after 300 s", ...
std::string describeResult(const TestResult &R, unsigned TimeoutSeconds);

/// How \p R differs from \p Reference, in one line: the status, and the
/// first line of output that differs, e.g. "output line 2 is 'value=12'
/// (undiversified: 'value=7')".
std::string describeDifference(const TestResult &Reference, const TestResult &R,
                               unsigned TimeoutSeconds);

} // namespace divcc

#endif
