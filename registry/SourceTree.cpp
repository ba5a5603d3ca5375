//===- SourceTree.cpp - Copies of a source tree and what a build made -----===//

#include "registry/SourceTree.h"

#include "support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace divcc {

static std::error_code lastError() {
  return std::error_code(errno, std::generic_category());
}

/// The ELF type (ET_EXEC, ET_DYN...) of a little-endian ELF file, or 0.
static unsigned elfType(StringRef Path) {
  int Fd = ::open(Path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 0;
  uint8_t Header[18] = {};
  ssize_t N = ::pread(Fd, Header, sizeof(Header), 0);
  ::close(Fd);
  if (N != sizeof(Header) ||
      memcmp(Header,
             "\x7f"
             "ELF",
             4) != 0 ||
      Header[5] != 1 /* ELFDATA2LSB */)
    return 0;
  return support::endian::read16le(Header + 16);
}

static bool looksBuilt(StringRef Name, const struct stat &St, StringRef Path) {
  if (Name.ends_with(".o") || Name.ends_with(".a") || Name.ends_with(".so") ||
      Name.contains(".so."))
    return true;
  return (St.st_mode & S_IXUSR) && elfType(Path) != 0;
}

static StringRef relativeTo(StringRef Root, StringRef Path) {
  return Path.drop_front(Root.size()).ltrim('/');
}

Expected<CopyStats> copyTree(StringRef From, StringRef To,
                             ArrayRef<std::string> Exclude) {
  CopyStats Stats;
  if (std::error_code EC = sys::fs::create_directories(To))
    return makeError("cannot create '" + To + "'", EC);
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(From, EC,
                                                /*follow_symlinks=*/false),
       End;
       It != End && !EC; It.increment(EC)) {
    std::string Source = It->path();
    if (is_contained(Exclude, Source)) {
      It.no_push();
      continue;
    }
    StringRef Relative = relativeTo(From, Source);
    SmallString<256> Target(To);
    sys::path::append(Target, Relative);
    struct stat St;
    if (::lstat(Source.c_str(), &St) != 0)
      return makeError("cannot copy '" + Source + "'", lastError());
    if (S_ISDIR(St.st_mode)) {
      // Owner access is kept, so that the copy can be filled and removed.
      if (::mkdir(Target.c_str(), (St.st_mode & 07777) | 0700) != 0 &&
          errno != EEXIST)
        return makeError("cannot create '" + Target + "'", lastError());
    } else if (S_ISLNK(St.st_mode)) {
      SmallString<256> Link;
      Link.resize(St.st_size + 1);
      ssize_t N = ::readlink(Source.c_str(), Link.data(), Link.size());
      if (N < 0 ||
          ::symlink(std::string(Link.data(), N).c_str(), Target.c_str()) != 0)
        return makeError("cannot copy the link '" + Source + "'", lastError());
    } else if (S_ISREG(St.st_mode)) {
      if (std::error_code CopyEC = sys::fs::copy_file(Source, Target))
        return makeError("cannot copy '" + Source + "'", CopyEC);
      // The modification times make `make` decide as it would in the
      // source tree.
      struct timespec Times[2] = {St.st_atim, St.st_mtim};
      if (::chmod(Target.c_str(), St.st_mode & 07777) != 0 ||
          ::utimensat(AT_FDCWD, Target.c_str(), Times, 0) != 0)
        return makeError("cannot copy '" + Source + "'", lastError());
      ++Stats.Files;
      if (looksBuilt(sys::path::filename(Source), St, Source))
        Stats.BuiltFiles.push_back(Relative.str());
    }
  }
  if (EC)
    return makeError("cannot copy the source tree '" + From + "'", EC);
  return Stats;
}

static int64_t modificationNanos(const struct stat &St) {
  return int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
}

TreeSnapshot snapshotTree(StringRef Root) {
  TreeSnapshot Snapshot;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Root, EC, false), End;
       It != End && !EC; It.increment(EC)) {
    struct stat St;
    if (::lstat(It->path().c_str(), &St) == 0 && S_ISREG(St.st_mode))
      Snapshot[relativeTo(Root, It->path())] = {uint64_t(St.st_size),
                                                modificationNanos(St)};
  }
  return Snapshot;
}

static bool changedSince(const TreeSnapshot &Before, StringRef Relative,
                         const struct stat &St) {
  auto It = Before.find(Relative);
  return It == Before.end() ||
         It->second !=
             std::make_pair(uint64_t(St.st_size), modificationNanos(St));
}

Expected<std::vector<std::string>> findArtifacts(StringRef Tree,
                                                 const TreeSnapshot &Before,
                                                 ArrayRef<std::string> Named) {
  std::vector<std::string> Found;
  if (!Named.empty()) {
    for (const std::string &Relative : Named) {
      SmallString<256> Path(Tree);
      sys::path::append(Path, Relative);
      struct stat St;
      if (::lstat(Path.c_str(), &St) != 0)
        return makeError("artifact '" + Relative +
                         "' was not built (it is "
                         "not in the variant's tree)");
      if (!S_ISREG(St.st_mode))
        return makeError("artifact '" + Relative + "' is not a regular file");
      if (!changedSince(Before, Relative, St))
        return makeError("artifact '" + Relative +
                         "' was not rebuilt: it is "
                         "the source tree's copy; clean the source tree (e.g. "
                         "make clean) so that the build compiles it with "
                         "divcc");
      Found.push_back(Relative);
    }
    return Found;
  }
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Tree, EC, false), End;
       It != End && !EC; It.increment(EC)) {
    struct stat St;
    if (::lstat(It->path().c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    StringRef Relative = relativeTo(Tree, It->path());
    unsigned Type = elfType(It->path());
    if ((Type == ELF::ET_EXEC || Type == ELF::ET_DYN) &&
        changedSince(Before, Relative, St))
      Found.push_back(Relative.str());
  }
  if (EC)
    return makeError("cannot read the variant's tree '" + Tree + "'", EC);
  if (Found.empty())
    return makeError("the build created no ELF executable or shared object in "
                     "the tree (was the source tree already built? clean it, "
                     "or name the outputs with --artifact)");
  llvm::sort(Found);
  return Found;
}

} // namespace divcc
