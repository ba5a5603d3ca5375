//===- Population.h - Building a whole population of variants -------------===//
//
// `divtool population`, `perf` and `test` build N variants of a project the
// same way: each in its own copy of the source tree (DIR/variants/ID/tree)
// with its own seed, J at a time, sharing divcc's front-end cache, each
// recorded in the registry as it is reserved, built or failed. The builder
// takes the master key and the divcc options as values: a caller never
// writes a secret to disk or changes the process's environment to hand them
// down.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_POPULATION_POPULATION_H
#define DIVCC_DIVTOOL_POPULATION_POPULATION_H

#include "divtool/DivccOptions.h"
#include "random/SecretSeed.h"
#include "support/Environment.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

/// What to build: `divtool population`'s options, one field per flag.
struct PopulationOptions {
  unsigned Count = 0;
  std::string Out;
  /// The seed file the master key was read from, only to leave it out of
  /// the copies should it be in the source tree; empty for a key that came
  /// from no file.
  std::string SeedFile;
  std::vector<std::string> Labels;
  unsigned Jobs = 1;
  std::vector<std::string> Artifacts;
  std::string Source;
  std::string Registry;
  std::string Launcher;
  bool Strip = false;
  /// Builds each variant with -g (see addDebugInfoShim), ships stripped
  /// copies and keeps the debug information in DIR/.build-id, DIR the
  /// registry's directory.
  bool KeepDebug = false;
  std::optional<bool> Progress;
  std::vector<std::string> Command;
  /// divcc options for every divcc the builds run (DIVCC_OPTIONS); none
  /// leaves the environment's.
  std::optional<DivccOptions> Divcc;
  /// Prefix of progress messages.
  std::string Tool = "divtool population";
};

/// What buildPopulation did.
struct PopulationBuilt {
  /// The population's directory and registry, absolute.
  std::string Out, RegistryPath;
  /// The ids this run reserved, in order (built or failed).
  std::vector<std::string> Ids;
  /// How many of them failed; each was reported on stderr and recorded.
  unsigned Failed = 0;
};

/// The errors in \p Options that need no file to be found: no build
/// command, more labels than variants.
llvm::Error checkPopulationOptions(const PopulationOptions &Options);

/// Builds \p Options.Count variants of a project with seeds derived from
/// \p Key and records them in the registry. \p Env is divtool's
/// environment (DIVCC_CACHE_DIR chooses the shared cache, or none). An
/// error is returned for bad input found before anything is built; a
/// variant that fails is reported and counted, and the others are built.
llvm::Expected<PopulationBuilt>
buildPopulation(const PopulationOptions &Options, const MasterKey &Key,
                const DivccEnvironment &Env);

} // namespace divcc

#endif
