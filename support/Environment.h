//===- Environment.h - Environments for the processes divcc starts --------===//
//
// divcc and divtool start processes whose environment must differ from
// their own in a few variables: a seed file to add, a prefix to drop so it
// is not applied twice. Both build it here, from the process's own.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ENVIRONMENT_H
#define DIVCC_SUPPORT_ENVIRONMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace divcc {

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
