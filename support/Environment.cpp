//===- Environment.cpp - Environments for the processes divcc starts ------===//

#include "support/Environment.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Process.h"

extern char **environ;

using namespace llvm;

namespace divcc {

DivccEnvironment DivccEnvironment::fromProcess() {
  DivccEnvironment E;
  E.SeedFile = sys::Process::GetEnv(EnvSeedFile);
  E.Options = sys::Process::GetEnv(EnvOptions);
  E.Prefix = sys::Process::GetEnv(EnvPrefix);
  E.CacheDir = sys::Process::GetEnv(EnvCacheDir);
  E.CacheSize = sys::Process::GetEnv(EnvCacheSize);
  E.EntropyLog = sys::Process::GetEnv(EnvEntropyLog);
  return E;
}

std::vector<std::string> environmentWith(ArrayRef<std::string> Remove,
                                         ArrayRef<std::string> Add) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    StringRef Name = variableName(*E);
    if (is_contained(Remove, Name) || any_of(Add, [&](const std::string &A) {
          return variableName(A) == Name;
        }))
      continue;
    Env.push_back(*E);
  }
  Env.insert(Env.end(), Add.begin(), Add.end());
  return Env;
}

std::optional<std::string> lookupEnvironment(ArrayRef<std::string> Env,
                                             StringRef Name) {
  for (const std::string &E : Env)
    if (variableName(E) == Name)
      return E.substr(Name.size() + 1);
  return std::nullopt;
}

} // namespace divcc
