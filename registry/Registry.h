//===- Registry.h - The record of a population of variants ----------------===//
//
// `divtool population` builds one variant per customer; the registry is what
// a distributor keeps about them, so that a variant can later be rebuilt
// (verify), recognized (identify) and its crashes read (symbolize). It is
// one SQLite file:
//
//   meta          format, schema version, the key id, fingerprint parameters
//   variants      id (v0001...), label, status (building, built, failed),
//                 how its seed is derived, the compiler, the build command,
//                 the source and the variant's tree, creation time, and
//                 whether divtool built it with -g and kept its debug
//                 information (debug_info 'kept'; schema version 2); for
//                 an install (divtool rerandomize --registry), the SHA-256
//                 of its golden master's code (schema version 3)
//   artifacts     per variant: path in the tree, size, SHA-256 of the file,
//                 SHA-256 of its executable segments (the same for any
//                 stripped copy), SHA-256 of the stripped copy divtool made
//   fingerprints  winnowed hashes of each artifact's code (Fingerprints.h)
//
// No secret is stored. A variant's seed is derived from the master secret
// (the seed file) and the variant's id; the registry names the derivation,
// and holds a key id, the first 8 bytes of another derived key, so that a
// seed file that is not the population's is refused before anything is
// built or compared.
//
// Every write is one SQLite transaction. A registry that is missing, is not
// an SQLite file, is another program's database or is corrupt is refused
// with an error naming the file and the problem, and nothing is written to
// it.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_REGISTRY_REGISTRY_H
#define DIVCC_REGISTRY_REGISTRY_H

#include "random/SecretSeed.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace divcc {

/// The seed of variant \p Id: 32 bytes, streamKey("population", "variant",
/// Id) of the master key. The caller wipes it after use.
Key256 variantSeed(const MasterKey &Key, llvm::StringRef Id);
/// How variantSeed derives a variant's seed, in words, for the registry.
std::string variantSeedDerivation(llvm::StringRef Id);
/// The registry's id of install \p InstallId of the golden master whose code
/// has the SHA-256 \p GoldenCodeSha256: "ID@" and 12 hex digits, so that one
/// machine's installs of successive golden masters are distinct rows.
std::string installRecordId(llvm::StringRef InstallId,
                            llvm::StringRef GoldenCodeSha256);
/// Hex of the first 8 bytes of streamKey("population", "key-id", ""): names
/// a master key without revealing it.
std::string populationKeyId(const MasterKey &Key);

struct VariantRecord {
  std::string Id;
  int64_t Number = 0; ///< The number in the id: v0012 is 12.
  std::string Label;
  std::string Status; ///< "building", "built" or "failed".
  std::optional<int64_t> ExitStatus;
  std::string SeedDerivation;
  std::string Compiler;
  std::vector<std::string> BuildCommand;
  std::string SourceDir;
  std::string Tree;
  std::string Created; ///< UTC, ISO 8601.
  /// Built with -g added by divtool, the debug information kept beside the
  /// registry (DIR/.build-id): a rebuild must add the same -g.
  bool KeptDebugInfo = false;
  /// An install (divtool rerandomize): the SHA-256 of its golden master's
  /// code. Its label is the install id, its source the golden master, its
  /// number below zero. Empty for a variant built from source.
  std::string GoldenCodeSha256;
  bool isInstall() const { return !GoldenCodeSha256.empty(); }
};

struct ArtifactRecord {
  int64_t RowId = 0;
  std::string Variant;
  std::string Path; ///< Relative to the variant's tree.
  uint64_t Size = 0;
  std::string Sha256;
  std::string CodeSha256;     ///< Empty unless an ELF executable or library.
  std::string StrippedSha256; ///< Empty unless divtool made a stripped copy.
  std::vector<uint64_t> Fingerprints; ///< Only when recording.
};

class Registry {
public:
  /// Opens an existing registry and checks that it is one (format, schema,
  /// integrity) and that it belongs to \p KeyId.
  static llvm::Expected<Registry> open(llvm::StringRef Path,
                                       llvm::StringRef KeyId, bool Write);
  /// Opens the registry at \p Path for writing, creating it for \p KeyId if
  /// there is no file there.
  static llvm::Expected<Registry> openOrCreate(llvm::StringRef Path,
                                               llvm::StringRef KeyId);

  Registry(Registry &&Other);
  Registry &operator=(Registry &&) = delete;
  ~Registry();

  llvm::StringRef path() const { return Path; }

  /// Reserves the next \p Labels.size() ids, recording each variant as
  /// "building" from \p Template (its id, number, label, tree, seed
  /// derivation and time are filled in). \p TreeFor gives the tree of an id.
  llvm::Expected<std::vector<VariantRecord>>
  reserveVariants(const VariantRecord &Template,
                  llvm::ArrayRef<std::string> Labels,
                  const std::function<std::string(llvm::StringRef)> &TreeFor);
  /// Records a variant as built, with its artifacts and their fingerprints.
  llvm::Error recordBuilt(llvm::StringRef Id,
                          llvm::ArrayRef<ArtifactRecord> Artifacts);
  /// Records a variant as failed, with the build's exit status (-1 if it did
  /// not exit normally).
  llvm::Error recordFailed(llvm::StringRef Id, int64_t ExitStatus);

  /// Records an install, laid out and so built, with its one artifact.
  llvm::Error recordInstall(const VariantRecord &Install,
                            const ArtifactRecord &Artifact);

  /// The variant or install \p Id (an install also by its install id, if
  /// only one golden master's install has it); an error if there is none or
  /// it was not built.
  llvm::Expected<VariantRecord> builtVariant(llvm::StringRef Id);
  /// Every variant, in id order.
  llvm::Expected<std::vector<VariantRecord>> variants();
  /// The artifacts of variant \p Id.
  llvm::Expected<std::vector<ArtifactRecord>> artifacts(llvm::StringRef Id);
  /// The artifacts of built variants whose file, stripped copy or code has
  /// the SHA-256 \p Hex.
  llvm::Expected<std::vector<ArtifactRecord>>
  artifactsWithHash(llvm::StringRef Hex);
  /// For each of \p Hashes (sorted, unique), the built variants whose
  /// artifacts hold it: variant id -> how many of \p Hashes it holds, and how
  /// many of them no other variant holds.
  struct FingerprintCounts {
    uint64_t Found = 0; ///< Hashes held by at least one variant.
    std::map<std::string, uint64_t> Held, HeldAlone;
  };
  llvm::Expected<FingerprintCounts>
  countFingerprints(llvm::ArrayRef<uint64_t> Hashes);

private:
  explicit Registry(std::string P) : Path(std::move(P)) {}
  llvm::Error check(llvm::StringRef KeyId);
  llvm::Error create(llvm::StringRef KeyId);
  llvm::Error exec(llvm::StringRef Sql);
  llvm::Error fail(const llvm::Twine &What);
  /// Inserts \p Artifacts of \p Id and their fingerprints (inside the
  /// caller's transaction).
  llvm::Error insertArtifacts(llvm::StringRef Id,
                              llvm::ArrayRef<ArtifactRecord> Artifacts);
  std::string variantColumns() const;
  /// The artifacts "SELECT columns FROM_WHERE" finds, ?1 bound to \p Value.
  llvm::Expected<std::vector<ArtifactRecord>>
  selectArtifacts(llvm::StringRef FromWhere, llvm::StringRef Value);

  std::string Path;
  sqlite3 *Db = nullptr;
  /// The schema version of the file (an older one opened for reading keeps
  /// its version: no debug_info column before 2, no installs before 3).
  unsigned Schema = 0;
};

} // namespace divcc

#endif
