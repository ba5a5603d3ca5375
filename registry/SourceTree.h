//===- SourceTree.h - Copies of a source tree and what a build made -------===//
//
// Every variant is built in its own copy of the project's source tree, so
// that builds never see each other's objects. A copy keeps modes,
// modification times (make decides as it would in the source tree) and
// symbolic links. What a build produced is what is new or changed in the
// tree since before it ran: a snapshot of sizes and modification times
// taken after the copy tells.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_REGISTRY_SOURCETREE_H
#define DIVCC_REGISTRY_SOURCETREE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace divcc {

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

} // namespace divcc

#endif
