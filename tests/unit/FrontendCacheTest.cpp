//===- FrontendCacheTest.cpp - What goes into a front-end cache key -------===//
//
// The cache is only correct if its key covers everything that changes the
// bitcode, and only useful if it leaves out what does not (output names,
// dependency files, the build directory when no debug information records
// it), and it must name the files that run the front end and the optimizer.
// Entries themselves are tested end to end in tests/lit/driver/cache.test
// and, under a full disk and a killed compile, in faults.test.
//
//===----------------------------------------------------------------------===//

#include "cache/FrontendCache.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <vector>

using namespace divcc;

namespace {

std::vector<const char *> cc1(std::initializer_list<const char *> Extra) {
  std::vector<const char *> Args = {"-triple", "x86_64-pc-linux-gnu",
                                    "-emit-obj", "-O2",
                                    "-fdebug-compilation-dir=/build/a",
                                    "-o", "out.o", "-x", "c", "p.c"};
  Args.insert(Args.end(), Extra);
  return Args;
}

Sha256Digest key(const std::vector<const char *> &Args,
                 llvm::StringRef Source = "int x;",
                 llvm::StringRef Identity = "clang 1 2") {
  return frontendCacheKey(Identity, Args, Source);
}

std::vector<const char *> replace(std::vector<const char *> Args,
                                  llvm::StringRef Old, const char *New) {
  for (const char *&A : Args)
    if (Old == A)
      A = New;
  return Args;
}

TEST(FrontendCacheKey, IgnoresOutputsAndDependencyFiles) {
  auto Base = cc1({"-dependency-file", "p.d", "-MT", "out.o"});
  EXPECT_EQ(key(Base), key(replace(Base, "out.o", "other.o")));
  EXPECT_EQ(key(Base), key(replace(Base, "p.d", "q.d")));
}

TEST(FrontendCacheKey, BuildDirectoryCountsOnlyWithDebugInfo) {
  auto Plain = cc1({});
  auto Moved = replace(Plain, "-fdebug-compilation-dir=/build/a",
                       "-fdebug-compilation-dir=/build/b");
  EXPECT_EQ(key(Plain), key(Moved));
  auto Debug = cc1({"-debug-info-kind=constructor"});
  EXPECT_NE(key(Debug), key(replace(Debug, "-fdebug-compilation-dir=/build/a",
                                    "-fdebug-compilation-dir=/build/b")));
}

TEST(FrontendCacheKey, CoversFlagsSourceAndCompiler) {
  auto Base = cc1({});
  EXPECT_NE(key(Base), key(replace(Base, "-O2", "-O1")));
  EXPECT_NE(key(Base), key(cc1({"-DNDEBUG"})));
  EXPECT_NE(key(Base), key(Base, "int y;"));
  EXPECT_NE(key(Base), key(Base, "int x;", "clang 1 3"));
  // Fields are length-prefixed: moving a boundary changes the key.
  EXPECT_NE(key(cc1({"-Da", "b"})), key(cc1({"-D", "ab"})));
}

TEST(FrontendCacheKey, NamesTheLoadedLibraries) {
  // The optimizer runs in libLLVM as the dynamic loader found it, and the
  // identity says where, how big and how old that file is.
  std::string LLVM = loadedCodeIdentity(
      reinterpret_cast<const void *>(&llvm::sys::fs::getMainExecutable));
  EXPECT_NE(LLVM.find("libLLVM"), std::string::npos) << LLVM;
  EXPECT_EQ(LLVM, executableIdentity(llvm::StringRef(LLVM).rsplit(' ')
                                         .first.rsplit(' ')
                                         .first));
  // The front end, in libclang-cpp. (In an executable that is not
  // position-independent, a function's address would be its PLT entry.)
  std::string Clang = loadedCodeIdentity(
      reinterpret_cast<const void *>(&clang::getClangFullVersion));
  EXPECT_NE(Clang.find("libclang-cpp"), std::string::npos) << Clang;
}

TEST(FrontendCacheKey, ChangesWithALibrary) {
  // An upgrade replaces the library's file: another size or modification
  // time is another key, though no executable changed.
  llvm::SmallString<128> Library;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("libLLVM", "so", FD,
                                                  Library));
  llvm::FileRemover Remove(Library);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "version 1";
  }
  auto Identity = [&] {
    return "clang 1 2\n" + executableIdentity(Library);
  };
  std::string Before = Identity();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Library, EC, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(EC);
    OS << ", patched";
  }
  std::string After = Identity();
  EXPECT_NE(Before, After);
  auto Base = cc1({});
  EXPECT_NE(key(Base, "int x;", Before), key(Base, "int x;", After));
}

TEST(FrontendCacheKey, Cacheable) {
  EXPECT_TRUE(isCacheable(cc1({})));
  EXPECT_FALSE(isCacheable(replace(cc1({}), "c", "ir")));
  EXPECT_FALSE(isCacheable(cc1({"-opt-record-file", "r.yaml"})));
  EXPECT_FALSE(isCacheable(replace(cc1({}), "p.c", "-")));
}

TEST(FrontendCacheSize, Parses) {
  auto Size = [](const char *Text) {
    return llvm::cantFail(parseCacheSize(Text, "test"));
  };
  EXPECT_EQ(Size("12"), 12u);
  EXPECT_EQ(Size("1K"), 1024u);
  EXPECT_EQ(Size("500M"), 500ull << 20);
  EXPECT_EQ(Size("5g"), 5ull << 30);
  for (const char *Bad : {"", "0", "x", "5T", "-1", "1.5G"}) {
    auto R = parseCacheSize(Bad, "DIVCC_CACHE_SIZE");
    ASSERT_FALSE(bool(R)) << Bad;
    EXPECT_NE(llvm::toString(R.takeError()).find("DIVCC_CACHE_SIZE"),
              std::string::npos);
  }
}

} // namespace
