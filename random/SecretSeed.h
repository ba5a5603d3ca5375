//===- SecretSeed.h - The user's secret and the keys derived from it ------===//
//
// divcc's randomness starts from one secret: the bytes of -frandom-seed=, of
// the seed file, or 32 fresh bytes from the operating system. The secret is
// never stored, printed or passed to another process; it is condensed once
// with HKDF-Extract (RFC 5869, SHA-256) into a master key, and every random
// decision divcc makes reads from a stream whose key is derived from the
// master key with HKDF-Expand under a label naming exactly one
// (transformation, module, function). Streams for different labels are
// independent, so turning one transformation off, or editing one function,
// leaves every other stream as it was.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_RANDOM_SECRETSEED_H
#define DIVCC_RANDOM_SECRETSEED_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace divcc {

using Key256 = std::array<uint8_t, 32>;

/// Names one random stream: which transformation asks, in which module, for
/// which function (empty for module-wide decisions).
struct StreamLabel {
  llvm::StringRef Transformation;
  llvm::StringRef Module;
  llvm::StringRef Function;
};

/// The master key. Copies are cheap; the bytes are wiped on destruction.
class MasterKey {
public:
  /// Condenses arbitrary secret bytes (at least one) into a master key.
  static MasterKey fromSecret(llvm::ArrayRef<uint8_t> Secret);
  /// A master key from 32 bytes of operating-system randomness.
  static llvm::Expected<MasterKey> fresh();
  /// The master key as 64 lowercase hex digits, for a compile that runs on
  /// another host (-fdiversify-key=, see driver/RemoteCompile.h). It
  /// rebuilds this variant but reveals nothing of the secret it came from.
  std::string toHex() const;
  /// The inverse of toHex(); nullopt unless \p Hex is 64 hex digits.
  static std::optional<MasterKey> fromHex(llvm::StringRef Hex);
  /// The key of the stream named by \p Label.
  Key256 streamKey(const StreamLabel &Label) const;

  MasterKey(const MasterKey &) = default;
  MasterKey &operator=(const MasterKey &) = default;
  ~MasterKey();

private:
  MasterKey() = default;
  Key256 PRK{};
};

/// The exact HKDF "info" bytes for a label: a fixed prefix, then each field
/// preceded by its length as a 32-bit big-endian number, so that no two
/// labels encode alike. Public for the reference tests.
std::string encodeStreamLabel(const StreamLabel &Label);

/// The HKDF salt under which secrets are condensed (a fixed, public string).
extern const char MasterKeySalt[];

} // namespace divcc

#endif
