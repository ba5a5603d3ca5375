//===- VariantBuild.h - Building one variant in a private tree ------------===//
//
// What `divtool verify`, `symbolize`, `test` and the population builder
// (Population.h) share: opening a population with its master key, handing
// a variant's seed to its build without letting it out, finding the divcc a
// build runs, making that divcc add -g, and building a copy of a source
// tree in a private temporary directory.
//
// The seed's path: the seed file's bytes are condensed into the master key
// (random/SeedFile.h) and wiped; a variant's seed (a key derived from the
// master key and the variant's id, registry/Registry.h) is written to a file
// of mode 0600 in a directory of mode 0700 that only this run knows, named to
// the build by DIVCC_SEED_FILE, and removed as soon as the build ends (also
// on failure, and on a fatal signal). The master secret itself never leaves
// divtool: no file, no command line, no environment, no log, no registry.
//
// The lower layers do the rest: starting processes (support/Process.h),
// copying trees and finding what a build made (registry/SourceTree.h),
// hashing and fingerprinting artifacts (registry/Artifacts.h).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_POPULATION_VARIANTBUILD_H
#define DIVCC_DIVTOOL_POPULATION_VARIANTBUILD_H

#include "divtool/DivccOptions.h"
#include "random/SecretSeed.h"
#include "random/SeedFile.h"
#include "registry/Artifacts.h"
#include "registry/Registry.h"
#include "registry/SourceTree.h"
#include "support/Environment.h"
#include "support/Process.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace divcc {

/// A population's registry, opened for reading, and the master key it must
/// have been built with (a wrong key is refused).
struct OpenPopulation {
  MasterKey Key;
  Registry Reg;
};
llvm::Expected<OpenPopulation> openPopulation(llvm::StringRef RegistryPath,
                                              llvm::StringRef SeedFile);
llvm::Expected<OpenPopulation> openPopulation(llvm::StringRef RegistryPath,
                                              const MasterKey &Key);

/// Writes the seed of variant \p Id to \p Dir; returns the file's path.
llvm::Expected<std::string>
writeVariantSeed(PrivateDir &Dir, const MasterKey &Key, llvm::StringRef Id);

/// The divcc a build command uses: a NAME=.../divcc (or div++) argument,
/// the command itself, $CC or $CXX, else divcc on PATH, else the divcc
/// beside divtool. Empty if none is found.
std::string findDivcc(llvm::ArrayRef<std::string> Command);
/// "divcc VERSION (PATH, SHA-256 PREFIX)" for the registry.
std::string compilerIdentity(llvm::StringRef Divcc);

/// Makes every divcc and div++ the build in \p Tree runs add -g: scripts of
/// those names in \p Bin, first on PATH, and NAME=.../divcc arguments and
/// $CC/$CXX pointed at them. The debug information names \p
/// CompilationDir, not \p Tree (see VariantBuild.cpp).
llvm::Error addDebugInfoShim(llvm::StringRef Bin, llvm::StringRef Tree,
                             llvm::StringRef CompilationDir,
                             std::vector<std::string> &Command,
                             std::vector<std::string> &Env);

/// A variant rebuilt from its source and seed in a private temporary tree.
struct RebuiltVariant {
  PrivateDir Dir;
  std::string Tree;
  std::string Log;
};

struct RebuildOptions {
  /// The source tree; empty for the one the population was built from.
  std::string Source;
  /// For an install, its golden master; empty for the recorded one.
  std::string Golden;
  /// The seed file, left out of the copy should it be in the source tree.
  std::string SeedFile;
  /// Adds -g to every divcc and div++ the build runs (see symbolize). A
  /// variant built with kept debug information is always rebuilt with the
  /// -g and compilation directory of its population build.
  bool DebugInfo = false;
  /// Keeps the temporary tree for inspection.
  bool Keep = false;
  /// Prefix of progress messages, e.g. "divtool verify".
  std::string Tool;
  /// The front-end cache the build uses; empty for none, so that a rebuild
  /// depends on nothing stored (verify, symbolize).
  std::string CacheDir;
  /// divcc options for every divcc the build runs (DIVCC_OPTIONS, e.g.
  /// -fdiversify=regs); none to leave the environment's.
  std::optional<DivccOptions> Divcc;
};

/// Rebuilds \p V: copies its source to a temporary tree and runs its
/// recorded build command there with its seed, without the front-end cache
/// (so that a rebuild does not depend on what the population stored). An
/// install is laid out again from its golden master into the tree
/// (install/InstallRecord.h).
llvm::Expected<RebuiltVariant> rebuildVariant(const VariantRecord &V,
                                              const MasterKey &Key,
                                              llvm::StringRef RegistryPath,
                                              const RebuildOptions &Options);

/// One build of a copy of a source tree, in a private temporary directory.
struct PrivateBuild {
  std::string Source; ///< Real path.
  std::vector<std::string> Exclude;
  std::vector<std::string> Command;
  /// With a key, the build gets variant SeedId's seed (DIVCC_SEED_FILE, a
  /// private file removed when the build ends); without, no seed at all.
  const MasterKey *Key = nullptr;
  std::string SeedId;
  /// The build in messages, e.g. "variant v0003".
  std::string What;
};

/// Copies B.Source to a new private temporary directory and runs B.Command
/// there (see RebuildOptions for the cache and divcc options), after
/// \p Prepare, if given, has adjusted the command and environment. A build
/// that fails is an error with the end of its log.
llvm::Expected<RebuiltVariant> buildPrivateCopy(
    const PrivateBuild &B, const RebuildOptions &Options,
    llvm::function_ref<llvm::Error(PrivateDir &, std::vector<std::string> &,
                                   std::vector<std::string> &)>
        Prepare = {});

/// "variant v0003" or "variant v0003 ('acme')".
std::string describeVariant(const VariantRecord &V);

} // namespace divcc

#endif
