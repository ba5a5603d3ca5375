//===- CacheCommand.cpp - `divtool cache`: divcc's front-end cache --------===//
//
// Shows how well the front-end cache serves a population (hits, misses,
// corrupt entries replaced, size) and empties it. The cache itself is
// described in cache/FrontendCache.h.
//
//===----------------------------------------------------------------------===//

#include "cache/FrontendCache.h"
#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

using namespace llvm;

namespace divcc {
namespace {

struct CacheCommandLine {
  std::string Dir;
  bool Stats = false;
  bool Clear = false;
  bool Json = false;
};

std::string mebibytes(uint64_t Bytes) {
  std::string S;
  raw_string_ostream(S) << format("%.1f MiB", double(Bytes) / (1 << 20));
  return S;
}

/// The cache --dir names, else DIVCC_CACHE_DIR's, limited to
/// DIVCC_CACHE_SIZE (as divcc reads them: cacheSettingsFromEnvironment).
Expected<CacheSettings> cacheSettings(const CacheCommandLine &C,
                                      const DivccEnvironment &Env) {
  CacheSettings Settings;
  if (!C.Dir.empty()) {
    Settings.Dir = C.Dir;
    return Settings;
  }
  Expected<std::optional<CacheSettings>> FromEnv = cacheSettingsFrom(Env);
  if (!FromEnv)
    return FromEnv.takeError();
  if (!*FromEnv)
    return makeError(Twine("no cache named: set ") + EnvCacheDir +
                     " or pass --dir DIR");
  return **FromEnv;
}

int runCacheCommand(const CacheCommandLine &Line, const DivccEnvironment &Env) {
  CacheCommandLine C = Line;
  if (!C.Clear)
    C.Stats = true;
  Expected<CacheSettings> Found = cacheSettings(C, Env);
  if (!Found)
    return reportError(Found.takeError());
  CacheSettings Settings = *Found;
  FrontendCache Cache(Settings);

  if (C.Clear) {
    if (Error E = Cache.clear())
      return reportError(std::move(E));
    if (!C.Json)
      outs() << commandName() << ": cleared " << Settings.Dir << "\n";
  }
  if (!C.Stats && C.Clear)
    return 0;
  Expected<CacheStats> S = Cache.stats();
  if (!S)
    return reportError(S.takeError());
  uint64_t Lookups = S->Hits + S->Misses;
  double HitRate = Lookups ? double(S->Hits) / double(Lookups) : 0.0;
  if (C.Json) {
    nlohmann::json J = {{"dir", Settings.Dir},     {"limit_bytes", Settings.MaxBytes},
                        {"entries", S->Entries},   {"bytes", S->Bytes},
                        {"hits", S->Hits},         {"misses", S->Misses},
                        {"hit_rate", HitRate},     {"corrupt", S->Corrupt}};
    outs() << J.dump(2) << "\n";
    return 0;
  }
  outs() << "cache:    " << Settings.Dir << " (limit "
         << mebibytes(Settings.MaxBytes) << ")\n"
         << "entries:  " << S->Entries << ", " << mebibytes(S->Bytes) << "\n"
         << "hits:     " << S->Hits << "\n"
         << "misses:   " << S->Misses << "\n"
         << "hit rate: " << format("%.1f%%", HitRate * 100) << "\n"
         << "corrupt entries found and rebuilt: " << S->Corrupt << "\n";
  return 0;
}

} // namespace

void addCacheSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<CacheCommandLine>();
  CLI::App *Cache = Divtool.add_subcommand(
      "cache", "Show or clear divcc's front-end cache");
  Cache->footer(
      std::string("divcc keeps the optimized bitcode of each translation "
                  "unit in the directory ") +
      EnvCacheDir +
      " names, so that further variants of the same code skip clang's front "
      "end and optimizer. This shows its counters and size (--stats, the "
      "default) or empties it (--clear).");
  Cache->add_option("--dir", C->Dir,
                    std::string("The cache directory (default: $") +
                        EnvCacheDir + ")");
  Cache->add_flag("--stats,-s", C->Stats, "Show counters and size");
  Cache->add_flag("--clear,-C", C->Clear,
                  "Remove every entry and reset the counters");
  Cache->add_flag("--json", C->Json, "Print the statistics as JSON");
  runWhenChosen(*Cache, Run, C, runCacheCommand);
}

} // namespace divcc
