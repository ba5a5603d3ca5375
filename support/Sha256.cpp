//===- Sha256.cpp - SHA-256 digests, from OpenSSL -------------------------===//

#include "support/Sha256.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"

#include <openssl/evp.h>

namespace divcc {

struct Sha256::Context {
  EVP_MD_CTX *Md = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(Md); }
};

Sha256::Sha256() : Ctx(std::make_unique<Context>()) {
  if (!Ctx->Md || EVP_DigestInit_ex(Ctx->Md, EVP_sha256(), nullptr) != 1)
    llvm::report_fatal_error("divcc: OpenSSL cannot compute SHA-256");
}

Sha256::~Sha256() = default;

void Sha256::update(llvm::ArrayRef<uint8_t> Data) {
  EVP_DigestUpdate(Ctx->Md, Data.data(), Data.size());
}

void Sha256::updateField(llvm::StringRef Data) {
  uint8_t Length[8];
  llvm::support::endian::write64le(Length, Data.size());
  update(llvm::ArrayRef<uint8_t>(Length));
  update(Data);
}

Sha256Digest Sha256::final() {
  Sha256Digest D;
  unsigned Size = 0;
  EVP_DigestFinal_ex(Ctx->Md, D.data(), &Size);
  return D;
}

Sha256Digest Sha256::digest(llvm::StringRef Data) {
  Sha256 H;
  H.update(Data);
  return H.final();
}

std::string toHex(const Sha256Digest &D) {
  return llvm::toHex(D, /*LowerCase=*/true);
}

} // namespace divcc
