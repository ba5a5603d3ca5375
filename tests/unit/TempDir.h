//===- TempDir.h - A temporary directory for one unit test ----------------===//
//
// Each test that writes files gets its own directory, removed with
// everything in it when the test ends.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TESTS_UNIT_TEMPDIR_H
#define DIVCC_TESTS_UNIT_TEMPDIR_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

namespace divcc {

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("divcc-unittest", P));
    Path = std::string(P);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  std::string file(const llvm::Twine &Name) const {
    return (Path + "/" + Name).str();
  }
  /// Writes \p Contents to the file \p Name; returns its path.
  std::string write(const llvm::Twine &Name, llvm::StringRef Contents) const {
    std::string F = file(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(F, EC);
    EXPECT_FALSE(EC) << F;
    OS << Contents;
    return F;
  }
  /// The contents of the file \p Path; "<missing>" if it cannot be read.
  static std::string read(const llvm::Twine &Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : "<missing>";
  }

  std::string Path;
};

} // namespace divcc

#endif
