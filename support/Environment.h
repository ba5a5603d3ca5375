//===- Environment.h - Environments for the processes divcc starts --------===//
//
// divcc and divtool start processes whose environment must differ from
// their own in a few variables: a seed file to add, a prefix to drop so it
// is not applied twice. Both build it here, from the process's own.
//
// The DIVCC_* variables are named here once. A program reads them once, at
// its top (DivccEnvironment::fromProcess), and hands the values down; the
// layers below never call getenv for them.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ENVIRONMENT_H
#define DIVCC_SUPPORT_ENVIRONMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

/// The variables divcc and divtool read or set.
/// The seed file of a build (its bytes are the secret).
inline constexpr char EnvSeedFile[] = "DIVCC_SEED_FILE";
/// divcc options added to every divcc command line.
inline constexpr char EnvOptions[] = "DIVCC_OPTIONS";
/// A launcher for each compile, e.g. distcc (driver/RemoteCompile.h).
inline constexpr char EnvPrefix[] = "DIVCC_PREFIX";
/// The front-end cache's directory (empty: no cache) and size limit.
inline constexpr char EnvCacheDir[] = "DIVCC_CACHE_DIR";
inline constexpr char EnvCacheSize[] = "DIVCC_CACHE_SIZE";
/// Where divcc logs what each random stream drew (tests).
inline constexpr char EnvEntropyLog[] = "DIVCC_ENTROPY_LOG";
/// Where the LTO plugin writes the module order (driver/LtoLink.cpp).
inline constexpr char EnvLtoModuleOutput[] = "DIVCC_LTO_MODULE_OUTPUT";

/// The DIVCC_* variables of this process, read once at the top of a
/// program and handed down; unset variables are none, set-but-empty ones
/// are empty strings (which mean something: no cache, for one).
struct DivccEnvironment {
  std::optional<std::string> SeedFile, Options, Prefix, CacheDir, CacheSize,
      EntropyLog;

  static DivccEnvironment fromProcess();
};

/// "NAME=VALUE", an entry for environmentWith's \p Add.
inline std::string assignment(llvm::StringRef Name, const llvm::Twine &Value) {
  return (llvm::Twine(Name) + "=" + Value).str();
}

/// This process's environment, minus the variables named in \p Remove,
/// plus \p Add ("NAME=VALUE" each, replacing any variable of that name).
std::vector<std::string> environmentWith(llvm::ArrayRef<std::string> Remove,
                                         llvm::ArrayRef<std::string> Add);

/// The NAME of a "NAME=VALUE" entry.
inline llvm::StringRef variableName(llvm::StringRef Entry) {
  return Entry.split('=').first;
}

/// The value of \p Name in \p Env, if set.
std::optional<std::string> lookupEnvironment(llvm::ArrayRef<std::string> Env,
                                             llvm::StringRef Name);

} // namespace divcc

#endif
