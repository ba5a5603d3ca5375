//===- Config.h - What the user asked divcc to do -------------------------===//
//
// The driver fills one Config from the command line and the environment.
// The code generator never sees it: it gets a DiversityPlan (the
// transformations' options and the key), built by plan().
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_CONFIG_H
#define DIVCC_DRIVER_CONFIG_H

#include "cache/FrontendCache.h"
#include "codegen/CodeGen.h"
#include "random/SecretSeed.h"
#include "support/Environment.h"
#include "transforms/DiversityOptions.h"

#include <optional>
#include <string>

namespace divcc {

enum class SeedSource { None, Flag, File, Environment, DerivedKey };

struct Config {
  /// The transformations and their options (-fdiversify=, -fdiversify-*).
  DiversityOptions Diversity;

  /// -frandom-seed=STRING, -fdiversify-seed-file=PATH, DIVCC_SEED_FILE or
  /// -fdiversify-key=HEX (a master key derived elsewhere).
  /// Where the secret came from; the secret itself is only ever held as the
  /// master key below.
  SeedSource Seed = SeedSource::None;
  std::string SeedFile; // a path, never the secret
  std::optional<MasterKey> Key;

  /// The DIVCC_* variables, as divcc read them when it started.
  DivccEnvironment Environment;

  /// DIVCC_CACHE_DIR / DIVCC_CACHE_SIZE: the front-end cache, if enabled.
  std::optional<CacheSettings> Cache;

  /// -fdiversify-golden: link a golden master, which keeps its relocations
  /// (--emit-relocs) so that divtool rerandomize can lay it out again.
  bool GoldenMaster = false;
  /// -fdiversify-golden-slack=BYTES: trap padding at the end of its .text,
  /// room for BOLT's rewritten code.
  unsigned GoldenSlack = 4096;

  /// -fdiversify-debug-crash (hidden): see DiversityPlan::CrashOnPurpose.
  bool DebugCrash = false;

  bool diversifying() const { return Diversity.diversifying(); }

  /// What the code generator is asked to do.
  DiversityPlan plan() const {
    return {Diversity, Key ? &*Key : nullptr, DebugCrash};
  }
};

} // namespace divcc

#endif
