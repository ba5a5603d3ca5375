//===- SecretSeed.cpp - HKDF-SHA256 from the secret to stream keys --------===//

#include "random/SecretSeed.h"

#include "llvm/ADT/StringExtras.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <memory>
#include <string>

using namespace llvm;

namespace divcc {

const char MasterKeySalt[] = "divcc master key v1";
static const char StreamLabelPrefix[] = "divcc stream v1";

namespace {
struct KdfDeleter {
  void operator()(EVP_KDF *K) const { EVP_KDF_free(K); }
  void operator()(EVP_KDF_CTX *C) const { EVP_KDF_CTX_free(C); }
};
} // namespace

// One call of OpenSSL's HKDF in the given mode. Failure here means the
// OpenSSL installation itself is broken, which no user input can cause.
static void runHkdf(int Mode, ArrayRef<uint8_t> Key, StringRef Salt,
                    StringRef Info, uint8_t *Out, size_t OutLen) {
  // Fetched once: OpenSSL 3 looks an algorithm up through its providers on
  // every fetch, which costs more than deriving a key, and divcc derives one
  // per function and transformation.
  static const std::unique_ptr<EVP_KDF, KdfDeleter> Kdf(
      EVP_KDF_fetch(nullptr, OSSL_KDF_NAME_HKDF, nullptr));
  std::unique_ptr<EVP_KDF_CTX, KdfDeleter> Ctx(
      Kdf ? EVP_KDF_CTX_new(Kdf.get()) : nullptr);
  if (!Ctx)
    report_fatal_error("divcc: OpenSSL does not provide HKDF");

  OSSL_PARAM Params[5];
  OSSL_PARAM *P = Params;
  char Digest[] = "SHA256";
  *P++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, Digest, 0);
  *P++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &Mode);
  *P++ = OSSL_PARAM_construct_octet_string(
      OSSL_KDF_PARAM_KEY, const_cast<uint8_t *>(Key.data()), Key.size());
  if (Mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY)
    *P++ = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_SALT, const_cast<char *>(Salt.data()), Salt.size());
  else
    *P++ = OSSL_PARAM_construct_octet_string(
        OSSL_KDF_PARAM_INFO, const_cast<char *>(Info.data()), Info.size());
  *P = OSSL_PARAM_construct_end();
  if (EVP_KDF_derive(Ctx.get(), Out, OutLen, Params) != 1)
    report_fatal_error("divcc: OpenSSL HKDF failed");
}

MasterKey MasterKey::fromSecret(ArrayRef<uint8_t> Secret) {
  MasterKey K;
  runHkdf(EVP_KDF_HKDF_MODE_EXTRACT_ONLY, Secret, MasterKeySalt, "",
          K.PRK.data(), K.PRK.size());
  return K;
}

Expected<MasterKey> MasterKey::fresh() {
  Key256 Secret;
  if (RAND_bytes(Secret.data(), Secret.size()) != 1)
    return createStringError(inconvertibleErrorCode(),
                             "cannot get random bytes from the system");
  MasterKey K = fromSecret(Secret);
  OPENSSL_cleanse(Secret.data(), Secret.size());
  return K;
}

std::string MasterKey::toHex() const {
  return llvm::toHex(PRK, /*LowerCase=*/true);
}

std::optional<MasterKey> MasterKey::fromHex(StringRef Hex) {
  std::string Bytes;
  if (Hex.size() != 2 * sizeof(PRK) || !tryGetFromHex(Hex, Bytes))
    return std::nullopt;
  MasterKey K;
  std::copy(Bytes.begin(), Bytes.end(), K.PRK.begin());
  OPENSSL_cleanse(Bytes.data(), Bytes.size());
  return K;
}

MasterKey::~MasterKey() { OPENSSL_cleanse(PRK.data(), PRK.size()); }

static void appendField(std::string &Out, StringRef Field) {
  uint32_t N = Field.size();
  for (int Shift = 24; Shift >= 0; Shift -= 8)
    Out.push_back(char((N >> Shift) & 0xff));
  Out.append(Field.begin(), Field.end());
}

std::string encodeStreamLabel(const StreamLabel &Label) {
  std::string Info = StreamLabelPrefix;
  appendField(Info, Label.Transformation);
  appendField(Info, Label.Module);
  appendField(Info, Label.Function);
  return Info;
}

Key256 MasterKey::streamKey(const StreamLabel &Label) const {
  Key256 Out;
  runHkdf(EVP_KDF_HKDF_MODE_EXPAND_ONLY, PRK, "", encodeStreamLabel(Label),
          Out.data(), Out.size());
  return Out;
}

} // namespace divcc
