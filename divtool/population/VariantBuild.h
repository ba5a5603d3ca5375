//===- VariantBuild.h - Building the variants of a population -------------===//
//
// What `divtool population`, `verify`, `symbolize`, `perf` and `test` share:
// reading the master secret, handing a variant's seed to its build without
// letting it out, copying a source tree, running the project's own build
// command in it, finding and describing what the build produced, and
// building a whole population.
//
// The seed's path: the seed file's bytes are condensed into the master key
// (random/SecretSeed.h) and wiped; a variant's seed (a key derived from the
// master key and the variant's id, registry/Registry.h) is written to a file
// of mode 0600 in a directory of mode 0700 that only this run knows, named to
// the build by DIVCC_SEED_FILE, and removed as soon as the build ends (also
// on failure, and on a fatal signal). The master secret itself never leaves
// divtool: no file, no command line, no environment, no log, no registry.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_POPULATION_VARIANTBUILD_H
#define DIVCC_DIVTOOL_POPULATION_VARIANTBUILD_H

#include "analysis/ElfImage.h"
#include "random/SecretSeed.h"
#include "registry/Registry.h"
#include "support/Environment.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <vector>

namespace CLI {
class App;
}

namespace divcc {

/// Adds the options verify, identify and symbolize share, both required:
/// --registry/-r, the population's registry, and --seed-file/-k, the master
/// secret it was built with.
void addRegistryOptions(CLI::App &Command, std::string &Registry,
                        std::string &SeedFile);

/// The master key from the bytes of the seed file \p Path (all of them, a
/// trailing newline included, as divcc reads a seed file). divtool's copy
/// of the bytes is wiped.
llvm::Expected<MasterKey> readSeedFile(llvm::StringRef Path);

/// A population's registry, opened for reading, and the master key of the
/// seed file it must have been built with (a wrong seed file is refused).
struct OpenPopulation {
  MasterKey Key;
  Registry Reg;
};
llvm::Expected<OpenPopulation> openPopulation(llvm::StringRef RegistryPath,
                                              llvm::StringRef SeedFile);

/// A temporary directory only the user can enter (mode 0700), removed with
/// everything in it on destruction unless kept.
class PrivateDir {
public:
  static llvm::Expected<PrivateDir> create(llvm::StringRef Prefix);
  PrivateDir(PrivateDir &&Other);
  PrivateDir &operator=(PrivateDir &&) = delete;
  ~PrivateDir();

  const std::string &path() const { return Path; }
  /// Writes \p Bytes to a new file \p Name of mode 0600 in the directory.
  /// The file is also removed if divtool dies of a signal.
  llvm::Expected<std::string> writeSecret(llvm::StringRef Name,
                                          llvm::ArrayRef<uint8_t> Bytes);
  /// Removes a file that writeSecret wrote.
  void removeSecret(llvm::StringRef File);
  /// Leaves the directory in place on destruction (secrets are removed).
  void keep() { Kept = true; }

private:
  PrivateDir() = default;
  std::string Path;
  std::vector<std::string> Secrets;
  bool Kept = false;
};

/// Writes the seed of variant \p Id to \p Dir; returns the file's path.
llvm::Expected<std::string>
writeVariantSeed(PrivateDir &Dir, const MasterKey &Key, llvm::StringRef Id);

struct CopyStats {
  uint64_t Files = 0;
  /// Objects, archives, libraries and executables found in the source: a
  /// build that reuses them links code divcc did not diversify.
  std::vector<std::string> BuiltFiles;
};

/// Copies the tree \p From to \p To (created), keeping modes, modification
/// times and symbolic links, and leaving out the paths in \p Exclude
/// (absolute, real paths; e.g. the population's own directory).
llvm::Expected<CopyStats> copyTree(llvm::StringRef From, llvm::StringRef To,
                                   llvm::ArrayRef<std::string> Exclude);

/// The size and modification time of every regular file under a root, by
/// path relative to it.
using TreeSnapshot = llvm::StringMap<std::pair<uint64_t, int64_t>>;
TreeSnapshot snapshotTree(llvm::StringRef Root);

/// What a build produced: the files named by \p Named (relative to \p Tree),
/// which must exist and be new or changed since \p Before, or, when none are
/// named, every ELF executable and shared object that is new or changed.
llvm::Expected<std::vector<std::string>>
findArtifacts(llvm::StringRef Tree, const TreeSnapshot &Before,
              llvm::ArrayRef<std::string> Named);

/// SHA-256 of the bytes of a file, as hex.
llvm::Expected<std::string> fileSha256(llvm::StringRef Path);
/// SHA-256 of the executable segments of an ELF image (address, size and
/// bytes of each): stripping a binary or adding debug information to its
/// build leaves it unchanged.
std::string codeSha256(const ElfImage &Image);
/// The winnowed fingerprints of \p Image's code, sorted and unique.
std::vector<uint64_t> codeFingerprints(const ElfImage &Image);

/// Size, hashes and fingerprints of the artifact \p Relative of \p Tree.
/// With \p StripTo, also writes a copy stripped of symbols and debug
/// information there (ELF files only) and records its hash.
llvm::Expected<ArtifactRecord> examineArtifact(llvm::StringRef Tree,
                                               llvm::StringRef Relative,
                                               llvm::StringRef StripTo);

/// Whether the ELF file \p Path has DWARF line tables.
bool hasLineTables(llvm::StringRef Path);

/// The GNU build id of the ELF file \p Path in lowercase hex; empty if it
/// has none or is not ELF.
std::string buildIdOf(llvm::StringRef Path);
/// Where the debug file of build id \p BuildId is kept under \p Root, in
/// the layout of /usr/lib/debug that gdb, elfutils and debuginfod read:
/// ROOT/.build-id/XX/REST.debug, XX the first byte in hex.
std::string keptDebugFile(llvm::StringRef Root, llvm::StringRef BuildId);
/// Writes the debug information of the ELF file \p Path (objcopy
/// --only-keep-debug: the sections keep their addresses, code and data
/// become NOBITS) to keptDebugFile(\p Root, its build id); returns that
/// path. Empty, and nothing written, when \p Path has no build id or no
/// line tables.
llvm::Expected<std::string> keepDebugInfo(llvm::StringRef Path,
                                          llvm::StringRef Root);

/// The divcc a build command uses: a NAME=.../divcc (or div++) argument,
/// the command itself, $CC or $CXX, else divcc on PATH, else the divcc
/// beside divtool. Empty if none is found.
std::string findDivcc(llvm::ArrayRef<std::string> Command);
/// "divcc VERSION (PATH, SHA-256 PREFIX)" for the registry.
std::string compilerIdentity(llvm::StringRef Divcc);

/// Starts \p Command in \p Dir with \p Env, standard input from /dev/null,
/// standard output and error to \p Log. The program is looked up on the
/// PATH of \p Env.
llvm::Expected<pid_t> startBuild(llvm::ArrayRef<std::string> Command,
                                 llvm::StringRef Dir,
                                 llvm::ArrayRef<std::string> Env,
                                 llvm::StringRef Log);
/// Starts \p Command like startBuild, with standard output to \p Stdout and
/// standard error to \p Stderr (the same file if equal), in a process group
/// of its own if \p OwnProcessGroup (so that kill(-pid) ends it and its
/// children). \p What names the command in errors ("the test command").
llvm::Expected<pid_t> startProcess(llvm::ArrayRef<std::string> Command,
                                   llvm::StringRef Dir,
                                   llvm::ArrayRef<std::string> Env,
                                   llvm::StringRef Stdout,
                                   llvm::StringRef Stderr, bool OwnProcessGroup,
                                   llvm::StringRef What);
/// The wait status of \p Pid once it has ended; none if \p Block is false
/// and it is still running. With \p Usage, also the resources it and the
/// descendants it waited for used (wait4).
std::optional<int> waitBuild(pid_t Pid, bool Block,
                             struct rusage *Usage = nullptr);
/// "exit status N" or "killed by signal N (NAME)".
std::string describeWaitStatus(int Status);
/// The shell's number for a wait status: the exit status, or 128 + signal.
int exitCodeOf(int Status);
/// The last \p N lines of \p Log, each indented by two spaces.
std::string lastLines(llvm::StringRef Log, unsigned N);

/// A variant rebuilt from its source and seed in a private temporary tree.
struct RebuiltVariant {
  PrivateDir Dir;
  std::string Tree;
  std::string Log;
};

struct RebuildOptions {
  /// The source tree; empty for the one the population was built from.
  std::string Source;
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
  /// "-fdiversify=regs"); empty to leave the environment's.
  std::string DivccOptions;
};

/// Rebuilds \p V: copies its source to a temporary tree and runs its
/// recorded build command there with its seed, without the front-end cache
/// (so that a rebuild does not depend on what the population stored).
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

/// What to build: `divtool population`'s options, one field per flag.
struct PopulationOptions {
  unsigned Count = 0;
  std::string Out;
  std::string SeedFile;
  std::vector<std::string> Labels;
  unsigned Jobs = 1;
  std::vector<std::string> Artifacts;
  std::string Source;
  std::string Registry;
  std::string Launcher;
  bool Strip = false;
  /// Builds each variant with -g (see addDebugInfoShim in VariantBuild.cpp),
  /// ships stripped copies and keeps the debug information in
  /// DIR/.build-id, DIR the registry's directory.
  bool KeepDebug = false;
  std::optional<bool> Progress;
  std::vector<std::string> Command;
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

/// Builds \p Options.Count variants of a project and records them in the
/// registry: each in its own copy of the source tree (DIR/variants/ID/tree)
/// with its own seed, J at a time, sharing divcc's front-end cache. An
/// error is returned for bad input found before anything is built; a
/// variant that fails is reported and counted, and the others are built.
llvm::Expected<PopulationBuilt>
buildPopulation(const PopulationOptions &Options);

} // namespace divcc

#endif
