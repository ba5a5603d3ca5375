//===- Sha256.h - SHA-256 digests, from OpenSSL ---------------------------===//
//
// Content addresses for the front-end cache, integrity checks of its
// entries, and the hashes of output files in a population's registry.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_SHA256_H
#define DIVCC_SUPPORT_SHA256_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace divcc {

using Sha256Digest = std::array<uint8_t, 32>;

/// An incremental SHA-256 hasher.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256 &) = delete;
  Sha256 &operator=(const Sha256 &) = delete;

  void update(llvm::ArrayRef<uint8_t> Data);
  void update(llvm::StringRef Data) {
    update(llvm::arrayRefFromStringRef(Data));
  }
  /// Adds \p Data preceded by its length, so that a sequence of fields
  /// hashes unambiguously ("ab","c" differs from "a","bc").
  void updateField(llvm::StringRef Data);
  Sha256Digest final();

  static Sha256Digest digest(llvm::StringRef Data);

private:
  struct Context;
  std::unique_ptr<Context> Ctx;
};

std::string toHex(const Sha256Digest &D);

} // namespace divcc

#endif
