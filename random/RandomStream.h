//===- RandomStream.h - A reproducible cryptographic random stream --------===//
//
// A RandomStream is the ChaCha20 keystream (RFC 8439; 256-bit key, zero nonce,
// block counter from 0) under one stream key. Every draw consumes whole
// little-endian 64-bit words in order, so the sequence of decisions is a pure
// function of the key: the same on every machine, compiler and standard
// library. That is also why bounded integers and shuffles are written here
// rather than taken from <random>, whose distributions differ between
// standard libraries.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_RANDOM_RANDOMSTREAM_H
#define DIVCC_RANDOM_RANDOMSTREAM_H

#include "random/SecretSeed.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace divcc {

/// A probability in fixed point: P/2^53. Parsed once from the user's decimal
/// number so that every draw is an exact integer comparison.
class Probability {
public:
  static constexpr uint64_t One = uint64_t(1) << 53;
  Probability() = default; // zero
  /// Parses a decimal number in [0, 1].
  static llvm::Expected<Probability> parse(llvm::StringRef Text);
  static Probability fromFraction(double P);
  uint64_t threshold() const { return Threshold; }
  /// The Shannon entropy in bits of one draw with this probability.
  double entropyBits() const;

private:
  explicit Probability(uint64_t T) : Threshold(T) {}
  uint64_t Threshold = 0;
};

/// Makes this process append, at exit, one JSON line to \p Path with the
/// bits each transformation's streams drew (DIVCC_ENTROPY_LOG, a
/// measurement aid for bench/diversity_table.py).
void logStreamEntropyTo(llvm::StringRef Path);

class RandomStream {
public:
  explicit RandomStream(const Key256 &Key);
  RandomStream(const MasterKey &Master, const StreamLabel &Label)
      : RandomStream(Master.streamKey(Label)) {
    Transformation = Label.Transformation.str();
  }
  ~RandomStream();
  RandomStream(const RandomStream &) = delete;
  RandomStream &operator=(const RandomStream &) = delete;

  /// The next 64 keystream bits, as a little-endian word.
  uint64_t next64() {
    DrawnBits += 64;
    return nextWord();
  }
  /// A uniform integer in [0, Bound), Bound > 0, by rejection sampling:
  /// draws that fall in the incomplete last copy of [0, Bound) are dropped.
  uint64_t below(uint64_t Bound);
  /// A uniform integer in [Lo, Hi].
  uint64_t between(uint64_t Lo, uint64_t Hi) {
    return Hi - Lo == UINT64_MAX ? next64() : Lo + below(Hi - Lo + 1);
  }
  /// True with probability P.
  bool chance(Probability P) {
    DrawnBits += P.entropyBits();
    return (nextWord() >> 11) < P.threshold();
  }

  /// Fisher-Yates: every permutation equally likely.
  template <typename T> void shuffle(llvm::MutableArrayRef<T> Items) {
    for (size_t I = Items.size(); I > 1; --I)
      std::swap(Items[I - 1], Items[below(I)]);
  }

private:
  void refill();
  uint64_t nextWord();

  // The entropy of the decisions drawn so far (log2 of each uniform draw's
  // range, H(p) of each chance): what this stream contributed to telling
  // variants apart. Recorded per transformation when the stream ends, for
  // DIVCC_ENTROPY_LOG (see RandomStream.cpp).
  std::string Transformation;
  double DrawnBits = 0;

  Key256 Key;
  uint32_t Counter = 0;
  std::array<uint8_t, 256> Buffer;
  size_t Used = Buffer.size();
};

} // namespace divcc

#endif
