//===- SeedFile.h - Reading and writing the files that hold secrets -------===//
//
// A seed file's bytes are a secret: all of them, a trailing newline
// included, are condensed into the master key (SecretSeed.h), and then
// wiped. This is the one reader of seed files, for divcc
// (-fdiversify-seed-file=, DIVCC_SEED_FILE) and divtool (--seed-file), so
// that both read the same bytes the same way and say the same things about
// a file they cannot use. Errors name the file, never its contents.
//
// The other direction: divtool hands a variant its seed in a file of mode
// 0600, created anew (O_EXCL, no symbolic link followed) in a directory of
// mode 0700 that only this run knows (PrivateDir), and removes it as soon
// as the build ends, also on a fatal signal.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_RANDOM_SEEDFILE_H
#define DIVCC_RANDOM_SEEDFILE_H

#include "random/SecretSeed.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divcc {

/// Secret bytes read from a file; wiped (every byte of the buffer, with
/// OPENSSL_cleanse) by wipe() and on destruction. Not copyable.
class SecretBuffer {
public:
  SecretBuffer() = default;
  SecretBuffer(SecretBuffer &&) = default;
  SecretBuffer &operator=(SecretBuffer &&Other);
  SecretBuffer(const SecretBuffer &) = delete;
  SecretBuffer &operator=(const SecretBuffer &) = delete;
  ~SecretBuffer() { wipe(); }

  llvm::ArrayRef<uint8_t> bytes() const {
    return {reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()};
  }
  /// Zeroes the buffer and empties it; its memory stays allocated until
  /// destruction.
  void wipe();

private:
  friend llvm::Expected<SecretBuffer> readSecretFile(llvm::StringRef,
                                                     llvm::StringRef);
  llvm::SmallVector<char, 0> Bytes;
};

/// Every byte of the seed file \p Path, which must not be empty. Errors
/// name the file and, if given, where it was named (\p Origin, e.g.
/// "DIVCC_SEED_FILE"): "cannot read seed file 'PATH' (from ORIGIN):
/// REASON", "seed file 'PATH' (from ORIGIN) is empty".
llvm::Expected<SecretBuffer> readSecretFile(llvm::StringRef Path,
                                            llvm::StringRef Origin = "");

/// The master key of the seed file \p Path: MasterKey::fromSecret of all its
/// bytes. The bytes read are wiped. \p Origin as for readSecretFile.
llvm::Expected<MasterKey> readSeedFile(llvm::StringRef Path,
                                       llvm::StringRef Origin = "");

/// A temporary directory only the user can enter (mode 0700), removed with
/// everything in it on destruction unless kept.
class PrivateDir {
public:
  /// A new directory PREFIX-XXXXXX in the system's temporary directory.
  static llvm::Expected<PrivateDir> create(llvm::StringRef Prefix);
  PrivateDir(PrivateDir &&Other);
  PrivateDir &operator=(PrivateDir &&) = delete;
  ~PrivateDir();

  const std::string &path() const { return Path; }
  /// Writes \p Bytes to a new file \p Name of mode 0600 in the directory.
  /// The file is also removed if the process dies of a signal.
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

} // namespace divcc

#endif
