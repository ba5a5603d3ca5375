//===- LinkedPrograms.h - Programs assembled and linked at test time ------===//
//
// Tests of what divtool reads in linked programs build them from assembly
// with clang-19 and ld.lld in a directory of their own, and are skipped
// where either is missing.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TESTS_UNIT_LINKEDPROGRAMS_H
#define DIVCC_TESTS_UNIT_LINKEDPROGRAMS_H

#include "TempDir.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace divcc {

class LinkedProgramsTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto Clang = llvm::sys::findProgramByName("clang-19");
    auto Lld = llvm::sys::findProgramByName("ld.lld");
    if (!Clang || !Lld)
      GTEST_SKIP() << "clang-19 or ld.lld not found";
    ClangPath = *Clang;
    LldPath = *Lld;
  }

  /// The object clang-19 assembles from the file \p Source, with \p Flags.
  std::string assembleFile(llvm::StringRef Name, llvm::StringRef Source,
                           std::vector<llvm::StringRef> Flags = {}) {
    std::string O = Dir.file(Name + ".o");
    std::vector<llvm::StringRef> Args = {ClangPath, "-c", "-x", "assembler",
                                         Source};
    Args.insert(Args.end(), Flags.begin(), Flags.end());
    Args.insert(Args.end(), {"-o", O});
    EXPECT_EQ(llvm::sys::ExecuteAndWait(ClangPath, Args), 0) << Name.str();
    return O;
  }
  /// The object clang-19 assembles from the text \p Source.
  std::string assemble(llvm::StringRef Name, llvm::StringRef Source) {
    return assembleFile(Name, Dir.write(Name + ".s", Source));
  }
  /// Runs ld.lld with \p Args.
  void link(std::vector<llvm::StringRef> Args) {
    Args.insert(Args.begin(), LldPath);
    EXPECT_EQ(llvm::sys::ExecuteAndWait(LldPath, Args), 0);
  }
  /// The bytes of the file \p Path (empty, with a failure, if unreadable).
  template <class Bytes> Bytes readFile(llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    EXPECT_TRUE(bool(Buffer)) << Path.str();
    if (!Buffer)
      return {};
    return Bytes((*Buffer)->getBufferStart(), (*Buffer)->getBufferEnd());
  }

  TempDir Dir;
  std::string ClangPath, LldPath;
};

} // namespace divcc

#endif
