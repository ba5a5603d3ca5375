//===- AtomicOutputTest.cpp - Files that appear only when complete --------===//
//
// support/AtomicOutput.h: the output appears only on commit, an output
// abandoned without a commit leaves the old file and no temporary behind,
// and a failure is an error from commit(), not an abort.
//
//===----------------------------------------------------------------------===//

#include "TempDir.h"

#include "support/AtomicOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace divcc;
using namespace llvm;

namespace {

/// The names of the files in \p Dir.
std::vector<std::string> filesIn(StringRef Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Names.push_back(sys::path::filename(It->path()).str());
  llvm::sort(Names);
  return Names;
}

TEST(AtomicOutputTest, AppearsOnlyOnCommit) {
  TempDir D;
  std::string File = D.file("out.txt");
  Expected<AtomicOutput> Out = AtomicOutput::create(File);
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  Out->os() << "complete";
  Out->os().flush();
  // Written so far, but only to a temporary file beside it.
  EXPECT_FALSE(sys::fs::exists(File));
  EXPECT_EQ(filesIn(D.Path).size(), 1u);
  ASSERT_FALSE(bool(Out->commit()));
  EXPECT_EQ(TempDir::read(File), "complete");
  EXPECT_EQ(filesIn(D.Path), std::vector<std::string>{"out.txt"});
}

TEST(AtomicOutputTest, AbandonedOutputKeepsTheOldFile) {
  TempDir D;
  std::string File = D.write("out.txt", "old");
  {
    Expected<AtomicOutput> Out = AtomicOutput::create(File);
    ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
    Out->os() << "half of the new";
  }
  EXPECT_EQ(TempDir::read(File), "old");
  EXPECT_EQ(filesIn(D.Path), std::vector<std::string>{"out.txt"});
}

TEST(AtomicOutputTest, ReplacesAnExistingFile) {
  TempDir D;
  std::string File = D.write("out.txt", "old contents, longer");
  ASSERT_FALSE(bool(writeFileAtomically(File, "new")));
  EXPECT_EQ(TempDir::read(File), "new");
}

TEST(AtomicOutputTest, MissingDirectoryIsAnError) {
  TempDir D;
  Error E = writeFileAtomically(D.file("no/such/dir/out.txt"), "x");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("No such file or directory"),
            std::string::npos);
}

TEST(AtomicOutputTest, FullDiskIsReportedByCommit) {
  if (!sys::fs::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full";
  // /dev/full is not a regular file: written directly, and every write
  // fails with ENOSPC, which commit() reports instead of aborting.
  Expected<AtomicOutput> Out = AtomicOutput::create("/dev/full");
  ASSERT_TRUE(bool(Out)) << toString(Out.takeError());
  Out->os() << std::string(1 << 16, 'x');
  Error E = Out->commit();
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("No space left on device"),
            std::string::npos);
}

} // namespace
