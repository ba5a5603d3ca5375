//===- RandomStream.cpp - ChaCha20 keystream and unbiased draws -----------===//

#include "random/RandomStream.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

using namespace llvm;

namespace divcc {

Expected<Probability> Probability::parse(StringRef Text) {
  // Plain decimal notation only: strtod alone would also take leading
  // spaces, hexadecimal floats and the locale's decimal comma.
  bool Decimal = !Text.empty() &&
                 Text.find_first_not_of("0123456789.eE+-") == StringRef::npos;
  if (!Decimal)
    return createStringError(inconvertibleErrorCode(),
                             "expected a number from 0 to 1");
  std::string S = Text.str();
  char *End = nullptr;
  double P = std::strtod(S.c_str(), &End);
  if (S.empty() || End != S.c_str() + S.size() || !(P >= 0.0 && P <= 1.0))
    return createStringError(inconvertibleErrorCode(),
                             "expected a number from 0 to 1");
  return fromFraction(P);
}

double Probability::entropyBits() const {
  double P = double(Threshold) / double(One);
  if (P <= 0 || P >= 1)
    return 0;
  return -P * std::log2(P) - (1 - P) * std::log2(1 - P);
}

namespace {
/// The bits each transformation drew in this process, appended at exit as
/// one JSON line to the file logStreamEntropyTo() named, e.g.
/// {"nops": 812.5, "funcs": 95.3}. It holds amounts of randomness, never a
/// value drawn.
struct EntropyLog {
  std::string Path;
  std::map<std::string, double> Bits;
  ~EntropyLog() {
    if (!Path.empty() && !Bits.empty())
      append(Path);
  }
  void append(StringRef Path) const {
    std::string Line = "{";
    for (const auto &[Name, B] : Bits)
      Line += (Line.size() > 1 ? ", \"" : "\"") + Name + "\": " +
              std::to_string(B);
    Line += "}\n";
    // One write in append mode: lines of parallel compiles do not mix.
    std::error_code EC;
    raw_fd_ostream Out(Path, EC, sys::fs::OF_Append);
    if (!EC)
      Out << Line;
  }
};
EntropyLog &entropyLog() {
  static EntropyLog Log;
  return Log;
}
} // namespace

void logStreamEntropyTo(StringRef Path) { entropyLog().Path = Path.str(); }

Probability Probability::fromFraction(double P) {
  // Scaling by a power of two is exact; only the rounding of the decimal
  // input (done by strtod, correctly rounded) and llround remain.
  return Probability(uint64_t(std::llround(P * double(One))));
}

RandomStream::RandomStream(const Key256 &K) : Key(K) {}

RandomStream::~RandomStream() {
  if (!Transformation.empty() && DrawnBits > 0)
    entropyLog().Bits[Transformation] += DrawnBits;
  OPENSSL_cleanse(Key.data(), Key.size());
  OPENSSL_cleanse(Buffer.data(), Buffer.size());
}

void RandomStream::refill() {
  // OpenSSL's ChaCha20 IV is the 32-bit little-endian block counter followed
  // by the 96-bit nonce (zero: each key serves one stream only).
  uint8_t IV[16] = {};
  for (int I = 0; I < 4; ++I)
    IV[I] = uint8_t(Counter >> (8 * I));
  Counter += Buffer.size() / 64;
  if (Counter == 0)
    report_fatal_error("divcc: random stream exhausted");

  // Fetched once: OpenSSL 3 looks a cipher up through its providers on
  // every fetch (EVP_chacha20() included), which costs more than the block.
  static EVP_CIPHER *const ChaCha20 =
      EVP_CIPHER_fetch(nullptr, "ChaCha20", nullptr);
  EVP_CIPHER_CTX *Ctx = EVP_CIPHER_CTX_new();
  int Len = 0;
  static const std::array<uint8_t, 256> Zeros{};
  bool OK = ChaCha20 && Ctx &&
            EVP_EncryptInit_ex2(Ctx, ChaCha20, Key.data(), IV, nullptr) == 1 &&
            EVP_EncryptUpdate(Ctx, Buffer.data(), &Len, Zeros.data(),
                              Zeros.size()) == 1 &&
            Len == int(Buffer.size());
  EVP_CIPHER_CTX_free(Ctx);
  if (!OK)
    report_fatal_error("divcc: OpenSSL ChaCha20 failed");
  Used = 0;
}

uint64_t RandomStream::nextWord() {
  if (Used + 8 > Buffer.size())
    refill();
  uint64_t V = 0;
  for (int I = 7; I >= 0; --I)
    V = (V << 8) | Buffer[Used + I];
  Used += 8;
  return V;
}

uint64_t RandomStream::below(uint64_t Bound) {
  if (Bound == 0)
    report_fatal_error("divcc: RandomStream::below(0)");
  // The largest multiple of Bound that fits in 2^64 is 2^64 - (2^64 % Bound);
  // (-Bound) % Bound computes 2^64 % Bound in 64-bit arithmetic.
  uint64_t Reject = (0 - Bound) % Bound;
  uint64_t Limit = 0 - Reject; // 0 means "accept everything" (Reject == 0)
  DrawnBits += std::log2(double(Bound));
  for (;;) {
    uint64_t V = nextWord();
    if (Reject == 0 || V < Limit)
      return V % Bound;
  }
}

} // namespace divcc
