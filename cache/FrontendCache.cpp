//===- FrontendCache.cpp - Optimized bitcode, reused across variants ------===//

#include "cache/FrontendCache.h"

#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#include <dlfcn.h>

using namespace llvm;

namespace divcc {

static constexpr StringLiteral EntryMagic = "DIVCC-FRONTEND-1";
static constexpr size_t EntryHeaderSize = EntryMagic.size() + 8 + 8 + 32;

Expected<uint64_t> parseCacheSize(StringRef Text, StringRef Origin) {
  StringRef Digits = Text;
  uint64_t Unit = 1;
  if (!Digits.empty()) {
    switch (toUpper(Digits.back())) {
    case 'K':
      Unit = 1ull << 10;
      break;
    case 'M':
      Unit = 1ull << 20;
      break;
    case 'G':
      Unit = 1ull << 30;
      break;
    }
    if (Unit != 1)
      Digits = Digits.drop_back();
  }
  uint64_t N;
  if (Digits.getAsInteger(10, N) || N == 0 || N > (UINT64_MAX >> 30))
    return createStringError(inconvertibleErrorCode(),
                             "invalid cache size '" + Text + "' in " +
                                 Origin +
                                 ": expected a number of bytes, with an "
                                 "optional K, M or G suffix");
  return N * Unit;
}

Expected<std::optional<CacheSettings>>
cacheSettingsFrom(const DivccEnvironment &Env) {
  if (!Env.CacheDir || Env.CacheDir->empty())
    return std::nullopt;
  CacheSettings S;
  S.Dir = *Env.CacheDir;
  if (Env.CacheSize) {
    Expected<uint64_t> Bytes = parseCacheSize(*Env.CacheSize, EnvCacheSize);
    if (!Bytes)
      return Bytes.takeError();
    S.MaxBytes = *Bytes;
  }
  return S;
}

bool isCacheable(ArrayRef<const char *> Args) {
  static const char *const OtherOutputs[] = {
      "-opt-record-file", "-stack-usage-file", "-coverage-notes-file",
      "-coverage-data-file", "-header-include-file", "-ftime-trace",
      "-ftime-report", "-print-stats"};
  bool SourceInput = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-") // standard input can be read only once
      return false;
    for (const char *Other : OtherOutputs)
      if (A.starts_with(Other))
        return false;
    if (A == "-x" && I + 1 < Args.size()) {
      StringRef Lang = Args[I + 1];
      SourceInput = Lang == "c" || Lang == "c++" || Lang == "objective-c" ||
                    Lang == "objective-c++";
    }
  }
  return SourceInput;
}

std::string executableIdentity(StringRef Path) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return Path.str() + " ?";
  return (Path + " " + Twine(Status.getSize()) + " " +
          Twine(sys::toTimeT(Status.getLastModificationTime())))
      .str();
}

std::string loadedCodeIdentity(const void *Symbol) {
  Dl_info Info;
  if (!dladdr(Symbol, &Info) || !Info.dli_fname)
    return "? ?";
  // A symbol of the executable itself (LLVM linked statically) comes with
  // the name it was started by, which may be no path at all.
  if (!sys::path::is_absolute(Info.dli_fname))
    return executableIdentity(sys::fs::getMainExecutable(nullptr, nullptr));
  return executableIdentity(Info.dli_fname);
}

Sha256Digest frontendCacheKey(StringRef CompilerIdentity,
                              ArrayRef<const char *> Args,
                              StringRef Preprocessed) {
  bool DebugOrCoverage = false;
  for (StringRef A : Args)
    DebugOrCoverage |= A.starts_with("-debug-info-kind=") ||
                       A.starts_with("-fprofile-instrument") ||
                       A.starts_with("-fcoverage-mapping");
  Sha256 H;
  H.updateField("divcc front-end cache v1");
  H.updateField(CompilerIdentity);
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    // Options naming files the compilation writes, with their value.
    if (A == "-o" || A == "-dependency-file" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    if (!DebugOrCoverage && (A.starts_with("-fdebug-compilation-dir=") ||
                             A.starts_with("-fcoverage-compilation-dir=")))
      continue;
    H.updateField(A);
  }
  H.updateField(Preprocessed);
  return H.final();
}

std::string FrontendCache::entryPath(const Sha256Digest &Key) const {
  std::string Hex = toHex(Key);
  SmallString<256> Path(Settings.Dir);
  sys::path::append(Path, StringRef(Hex).take_front(2),
                    StringRef(Hex).drop_front(2) + ".entry");
  return std::string(Path);
}

/// Marks an entry as recently used.
static void touch(StringRef Path) {
  int FD;
  if (sys::fs::openFileForReadWrite(Path, FD, sys::fs::CD_OpenExisting,
                                    sys::fs::OF_None))
    return;
  sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  sys::Process::SafelyCloseFileDescriptor(FD);
}

std::optional<CacheEntry> FrontendCache::lookup(const Sha256Digest &Key) {
  std::string Path = entryPath(Key);
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  StringRef Data = (*Buffer)->getBuffer();
  auto Corrupt = [&]() -> std::optional<CacheEntry> {
    printWarning("corrupt cache entry '" + Path + "' removed; compiling again");
    sys::fs::remove(Path);
    count(0, 0, 1, 0);
    return std::nullopt;
  };
  if (Data.size() < EntryHeaderSize || !Data.starts_with(EntryMagic))
    return Corrupt();
  const char *P = Data.data() + EntryMagic.size();
  uint64_t BitcodeSize = support::endian::read64le(P);
  uint64_t DiagnosticsSize = support::endian::read64le(P + 8);
  StringRef Payload = Data.drop_front(EntryHeaderSize);
  if (BitcodeSize > Payload.size() ||
      DiagnosticsSize != Payload.size() - BitcodeSize)
    return Corrupt();
  Sha256Digest Stored;
  std::copy(P + 16, P + 48, Stored.begin());
  if (Sha256::digest(Payload) != Stored)
    return Corrupt();
  touch(Path);
  count(1, 0, 0, 0);
  return CacheEntry{Payload.take_front(BitcodeSize).str(),
                    Payload.drop_front(BitcodeSize).str()};
}

Error FrontendCache::store(const Sha256Digest &Key, const CacheEntry &E) {
  std::string Path = entryPath(Key);
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "cannot create cache directory '" +
                                     sys::path::parent_path(Path) +
                                     "': " + EC.message());
  std::string Payload = E.Bitcode + E.Diagnostics;
  std::string Entry(EntryMagic);
  char Sizes[16];
  support::endian::write64le(Sizes, E.Bitcode.size());
  support::endian::write64le(Sizes + 8, E.Diagnostics.size());
  Entry.append(Sizes, sizeof(Sizes));
  Sha256Digest Hash = Sha256::digest(Payload);
  Entry.append(Hash.begin(), Hash.end());
  Entry += Payload;
  // A full cache file system fails the store, never the compile: the caller
  // warns and goes on with the bitcode it has.
  if (Error Err = writeFileAtomically(Path, Entry))
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + Path +
                                 "': " + toString(std::move(Err)));
  count(0, 1, 0, int64_t(Entry.size()));
  return Error::success();
}

namespace {

/// The cache's counters, in a small text file replaced atomically under an
/// exclusive lock on a separate lock file.
struct Counters {
  uint64_t Hits = 0, Misses = 0, Corrupt = 0, Bytes = 0;

  static Counters read(StringRef Path) {
    Counters C;
    auto Buffer = MemoryBuffer::getFile(Path);
    if (!Buffer)
      return C;
    SmallVector<StringRef> Lines;
    (*Buffer)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef Line : Lines) {
      auto [Name, Value] = Line.split(' ');
      uint64_t N = 0;
      if (Value.getAsInteger(10, N))
        continue; // a damaged line counts as zero
      if (Name == "hits")
        C.Hits = N;
      else if (Name == "misses")
        C.Misses = N;
      else if (Name == "corrupt")
        C.Corrupt = N;
      else if (Name == "bytes")
        C.Bytes = N;
    }
    return C;
  }

  Error write(StringRef Path) const {
    std::string Text;
    raw_string_ostream OS(Text);
    OS << "hits " << Hits << "\nmisses " << Misses << "\ncorrupt " << Corrupt
       << "\nbytes " << Bytes << "\n";
    return writeFileAtomically(Path, Text);
  }
};

/// Holds an exclusive lock on DIR/lock while alive.
class CacheLock {
public:
  explicit CacheLock(StringRef Dir) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, "lock");
    if (sys::fs::create_directories(Dir) ||
        sys::fs::openFileForReadWrite(Path, FD, sys::fs::CD_OpenAlways,
                                      sys::fs::OF_None))
      FD = -1;
    else if (sys::fs::lockFile(FD))
      closeFD();
  }
  ~CacheLock() {
    if (FD >= 0) {
      sys::fs::unlockFile(FD);
      closeFD();
    }
  }
  bool held() const { return FD >= 0; }

private:
  void closeFD() {
    sys::Process::SafelyCloseFileDescriptor(FD);
    FD = -1;
  }
  int FD = -1;
};

std::string statsPath(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "stats");
  return std::string(Path);
}

struct StoredEntry {
  std::string Path;
  uint64_t Size;
  sys::TimePoint<> Modified;
};

std::vector<StoredEntry> storedEntries(StringRef Dir) {
  std::vector<StoredEntry> Found;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (!StringRef(It->path()).ends_with(".entry"))
      continue;
    sys::fs::file_status Status;
    if (!sys::fs::status(It->path(), Status) &&
        sys::fs::is_regular_file(Status))
      Found.push_back(
          {It->path(), Status.getSize(), Status.getLastModificationTime()});
  }
  return Found;
}

/// Removes the temporary files of stores that were killed before their
/// rename. An hour old, no live store can still be writing one.
void removeStaleTemporaries(StringRef Dir) {
  auto Limit = std::chrono::system_clock::now() - std::chrono::hours(1);
  std::vector<std::string> Stale;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    sys::fs::file_status Status;
    if (Name.contains(".entry.divcc-") && Name.ends_with(".tmp") &&
        !sys::fs::status(It->path(), Status) &&
        sys::fs::is_regular_file(Status) &&
        Status.getLastModificationTime() < Limit)
      Stale.push_back(It->path());
  }
  for (const std::string &Path : Stale)
    sys::fs::remove(Path);
}

} // namespace

void FrontendCache::count(uint64_t Hits, uint64_t Misses, uint64_t Corrupt,
                          int64_t StoredBytes) {
  CacheLock Lock(Settings.Dir);
  if (!Lock.held())
    return; // counters are best effort; entries never depend on them
  std::string Path = statsPath(Settings.Dir);
  Counters C = Counters::read(Path);
  C.Hits += Hits;
  C.Misses += Misses;
  C.Corrupt += Corrupt;
  C.Bytes = uint64_t(std::max<int64_t>(0, int64_t(C.Bytes) + StoredBytes));
  if (C.Bytes > Settings.MaxBytes) {
    // Least recently used first, down to 90% of the limit; the scan also
    // corrects the running total.
    std::vector<StoredEntry> Entries = storedEntries(Settings.Dir);
    std::sort(Entries.begin(), Entries.end(),
              [](auto &A, auto &B) { return A.Modified < B.Modified; });
    uint64_t Total = 0;
    for (const StoredEntry &E : Entries)
      Total += E.Size;
    for (const StoredEntry &E : Entries) {
      if (Total <= Settings.MaxBytes / 10 * 9)
        break;
      if (!sys::fs::remove(E.Path))
        Total -= E.Size;
    }
    C.Bytes = Total;
    removeStaleTemporaries(Settings.Dir);
  }
  consumeError(C.write(Path));
}

Expected<CacheStats> FrontendCache::stats() const {
  if (!sys::fs::is_directory(Settings.Dir))
    return createStringError(inconvertibleErrorCode(),
                             "no cache at '" + Settings.Dir + "'");
  Counters C = Counters::read(statsPath(Settings.Dir));
  CacheStats S;
  S.Hits = C.Hits;
  S.Misses = C.Misses;
  S.Corrupt = C.Corrupt;
  for (const StoredEntry &E : storedEntries(Settings.Dir)) {
    ++S.Entries;
    S.Bytes += E.Size;
  }
  return S;
}

Error FrontendCache::clear() {
  if (!sys::fs::is_directory(Settings.Dir))
    return createStringError(inconvertibleErrorCode(),
                             "no cache at '" + Settings.Dir + "'");
  CacheLock Lock(Settings.Dir);
  removeStaleTemporaries(Settings.Dir);
  for (const StoredEntry &E : storedEntries(Settings.Dir))
    if (std::error_code EC = sys::fs::remove(E.Path))
      return createStringError(EC, "cannot remove '" + E.Path +
                                       "': " + EC.message());
  return Counters().write(statsPath(Settings.Dir));
}

} // namespace divcc
