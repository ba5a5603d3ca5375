//===- FrontendCache.h - Optimized bitcode, reused across variants --------===//
//
// Diversity lives entirely in the code generator: clang's front end and
// optimizer produce the same bitcode for every seed. So when DIVCC_CACHE_DIR
// is set, divcc keeps that bitcode in a content-addressed cache, and a
// second variant of the same code runs only the preprocessor, the
// diversifying code generator and the link.
//
// What goes into a key (as in ccache's preprocessor mode):
//   - "divcc front-end cache v1" and the identity (path,
//     size, modification time) of the clang executable, of divcc itself and
//     of the shared libraries that run the front end and the optimizer,
//     libclang-cpp and libLLVM, as this process loaded them: an upgraded
//     library never gets bitcode made by the old one. Identities are taken
//     once per process;
//   - the cc1 arguments, except the output file, the dependency-file
//     options (they name files, not code) and, when no debug information
//     or coverage is asked for, the compilation directory: without debug
//     information the directory appears nowhere in the bitcode, so
//     variants built in different trees share entries;
//   - the preprocessed source, which covers every header and macro.
// The seed goes into no key: it never reaches the front end.
//
// An entry holds the bitcode and the front end's diagnostics (replayed on
// a hit, so warnings do not disappear), with its size and SHA-256 in front.
// Entries are written to a temporary file and renamed, so concurrent builds
// and builds killed halfway see whole entries or none; an entry whose size
// or hash does not match is corrupt: it is removed, reported, counted, and
// the code is compiled again. A store that fails (a full disk) is a
// warning, never a failed compile, and leaves no temporary file.
// Hits refresh an entry's modification time; when the cache outgrows
// DIVCC_CACHE_SIZE, the least recently used entries go, with the
// temporary files that killed stores left over an hour ago.
//
// Compilations that write other files from the front end (optimization
// records, time traces, stack-usage or coverage files) or that do not start
// from C-family source are not cached.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_CACHE_FRONTENDCACHE_H
#define DIVCC_CACHE_FRONTENDCACHE_H

#include "support/Environment.h"
#include "support/Sha256.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

struct CacheSettings {
  std::string Dir;
  uint64_t MaxBytes = 5ull << 30;
};

/// From DIVCC_CACHE_DIR (none if unset or empty) and DIVCC_CACHE_SIZE
/// (bytes, with an optional K, M or G suffix; default 5G) of \p Env.
llvm::Expected<std::optional<CacheSettings>>
cacheSettingsFrom(const DivccEnvironment &Env);

/// Parses a size such as "500M"; fails with a message naming \p Origin.
llvm::Expected<uint64_t> parseCacheSize(llvm::StringRef Text,
                                        llvm::StringRef Origin);

/// Whether a compilation with these cc1 arguments may use the cache.
bool isCacheable(llvm::ArrayRef<const char *> Cc1Args);

/// The key of a compilation: the compilers' identity, its cc1 arguments
/// (output excluded) and its preprocessed source.
Sha256Digest frontendCacheKey(llvm::StringRef CompilerIdentity,
                              llvm::ArrayRef<const char *> Cc1Args,
                              llvm::StringRef Preprocessed);

/// "PATH SIZE MTIME" of an executable or library, for CompilerIdentity.
std::string executableIdentity(llvm::StringRef Path);

/// executableIdentity() of the shared library (or executable) that holds
/// \p Symbol in this process, as the dynamic loader found it.
std::string loadedCodeIdentity(const void *Symbol);

struct CacheEntry {
  std::string Bitcode;
  std::string Diagnostics;
};

struct CacheStats {
  uint64_t Hits = 0, Misses = 0, Corrupt = 0;
  uint64_t Entries = 0, Bytes = 0;
};

class FrontendCache {
public:
  explicit FrontendCache(CacheSettings S) : Settings(std::move(S)) {}

  /// The entry stored under \p Key, counted as a hit; none on a miss or a
  /// corrupt entry (removed, with a warning on stderr).
  std::optional<CacheEntry> lookup(const Sha256Digest &Key);
  /// Stores \p E under \p Key, then evicts old entries if the cache is
  /// over its size. Counted as a miss. Fails, naming the entry's file and
  /// leaving no temporary file, when it cannot be written.
  llvm::Error store(const Sha256Digest &Key, const CacheEntry &E);

  /// Counters since the last clear, and what is stored now.
  llvm::Expected<CacheStats> stats() const;
  /// Removes every entry and resets the counters.
  llvm::Error clear();

  const CacheSettings &settings() const { return Settings; }

private:
  std::string entryPath(const Sha256Digest &Key) const;
  /// Adds to the counters under the cache's lock, and evicts the least
  /// recently used entries when the cache has grown over its size.
  void count(uint64_t Hits, uint64_t Misses, uint64_t Corrupt,
             int64_t StoredBytes);

  CacheSettings Settings;
};

} // namespace divcc

#endif
