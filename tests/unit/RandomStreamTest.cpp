//===- RandomStreamTest.cpp - Tests of divcc's keys and random streams ----===//
//
// Known answers from RFC 8439 (ChaCha20) and RFC 5869 (HKDF-SHA256), the
// key derivation against an HKDF built here from HMAC, and the documented
// behaviour of bounded draws, probabilities and shuffles. Every stream is
// keyed deterministically, so every statistical check is deterministic too.
// (The whole chain is also compared with an independent pure-Python model by
// the ctest `stream-matches-python-reference`.)
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "random/SecretSeed.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using namespace divcc;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes bytesOf(llvm::StringRef S) { return Bytes(S.bytes_begin(), S.bytes_end()); }

Bytes fromHex(llvm::StringRef Hex) {
  Bytes Out;
  auto Digit = [](char C) -> int {
    if (C >= '0' && C <= '9')
      return C - '0';
    if (C >= 'a' && C <= 'f')
      return C - 'a' + 10;
    ADD_FAILURE() << "bad hex digit " << C;
    return 0;
  };
  std::string Clean;
  for (char C : Hex)
    if (C != ' ')
      Clean.push_back(C);
  EXPECT_EQ(Clean.size() % 2, 0u);
  for (size_t I = 0; I + 1 < Clean.size(); I += 2)
    Out.push_back(uint8_t(Digit(Clean[I]) * 16 + Digit(Clean[I + 1])));
  return Out;
}

Key256 keyFromBytes(const Bytes &B) {
  Key256 K{};
  EXPECT_EQ(B.size(), K.size());
  std::copy_n(B.begin(), std::min(B.size(), K.size()), K.begin());
  return K;
}

Key256 patternKey(uint8_t Start) {
  Key256 K;
  for (size_t I = 0; I < K.size(); ++I)
    K[I] = uint8_t(Start + 7 * I);
  return K;
}

/// Interprets 64 keystream bytes as eight little-endian words.
std::vector<uint64_t> littleEndianWords(const Bytes &B) {
  std::vector<uint64_t> W;
  for (size_t I = 0; I + 8 <= B.size(); I += 8) {
    uint64_t V = 0;
    for (int J = 0; J < 8; ++J)
      V |= uint64_t(B[I + J]) << (8 * J);
    W.push_back(V);
  }
  return W;
}

std::vector<uint64_t> draw(RandomStream &S, size_t N) {
  std::vector<uint64_t> W;
  for (size_t I = 0; I < N; ++I)
    W.push_back(S.next64());
  return W;
}

MasterKey masterFrom(llvm::StringRef Secret) {
  return MasterKey::fromSecret(llvm::arrayRefFromStringRef(Secret));
}

std::vector<uint64_t> firstWords(const MasterKey &M, const StreamLabel &L,
                                 size_t N = 4) {
  RandomStream S(M, L);
  return draw(S, N);
}

/// |Observed - N*P| within Sigmas standard deviations of a binomial(N, P).
void expectBinomial(uint64_t Observed, uint64_t N, double P, double Sigmas,
                    const std::string &What) {
  double Mean = double(N) * P;
  double Sd = std::sqrt(double(N) * P * (1 - P));
  EXPECT_LE(std::fabs(double(Observed) - Mean), Sigmas * Sd)
      << What << ": observed " << Observed << ", expected " << Mean << " +- "
      << Sigmas << " * " << Sd;
}

// --------------------------------------------------------------------------
// ChaCha20: RFC 8439, Appendix A.1 (key, block counter; nonce all zero).
// The byte strings are copied from the RFC and were checked against an
// independent pure-Python ChaCha20.

const char *const A1Vector1 = // key 0, counter 0
    "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28"
    "bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
    "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37"
    "6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86";
const char *const A1Vector2 = // key 0, counter 1
    "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d"
    "cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed"
    "29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5"
    "31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f";
const char *const A1Vector3 = // key 00..00 01, counter 1
    "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd"
    "83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a"
    "8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd"
    "4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0";
const char *const A1Vector4 = // key 00 ff 00..00, counter 2
    "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32"
    "8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca"
    "13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09"
    "24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96";

TEST(RandomStreamChaCha20KnownAnswer, Rfc8439A1Vectors1And2ZeroKey) {
  Key256 Zero{};
  RandomStream S(Zero);
  std::vector<uint64_t> Block0 = draw(S, 8), Block1 = draw(S, 8);
  EXPECT_EQ(Block0, littleEndianWords(fromHex(A1Vector1)));
  EXPECT_EQ(Block1, littleEndianWords(fromHex(A1Vector2)));
  // The byte order of a word, spelled out: bytes 76 b8 e0 ad a0 f1 3d 90.
  EXPECT_EQ(Block0[0], 0x903df1a0ade0b876ULL);
  EXPECT_EQ(Block1[7], 0x6f4d794b1f0ae1acULL);
}

TEST(RandomStreamChaCha20KnownAnswer, Rfc8439A1Vector3KeyEndingInOne) {
  Bytes K(32, 0);
  K[31] = 1;
  RandomStream S(keyFromBytes(K));
  draw(S, 8); // block 0
  EXPECT_EQ(draw(S, 8), littleEndianWords(fromHex(A1Vector3)));
}

TEST(RandomStreamChaCha20KnownAnswer, Rfc8439A1Vector4KeyByteOrder) {
  Bytes K(32, 0);
  K[1] = 0xff;
  RandomStream S(keyFromBytes(K));
  draw(S, 16); // blocks 0 and 1
  EXPECT_EQ(draw(S, 8), littleEndianWords(fromHex(A1Vector4)));
}

TEST(RandomStreamChaCha20KnownAnswer, NoWordRepeatsAcrossBufferRefills) {
  // A block counter that does not advance by exactly the blocks consumed
  // would repeat keystream; 2^-50-ish odds of a chance repeat otherwise.
  RandomStream S(patternKey(20));
  std::set<uint64_t> Seen;
  for (int I = 0; I < 20000; ++I)
    ASSERT_TRUE(Seen.insert(S.next64()).second) << "word " << I << " repeats";
}

// --------------------------------------------------------------------------
// HKDF-SHA256. divcc fixes the salt and the info encoding, so RFC 5869's
// vectors cannot go through MasterKey directly. Instead an HKDF is built
// here from OpenSSL's plain HMAC (not the EVP_KDF that divcc uses), checked
// against RFC 5869, and divcc's keys are checked against it.

Bytes hmacSha256(const Bytes &Key, const Bytes &Data) {
  Bytes Out(32);
  unsigned Len = 0;
  // An empty key must still be a valid pointer (NULL means "no key").
  static const uint8_t Empty = 0;
  const uint8_t *Res = HMAC(EVP_sha256(), Key.empty() ? &Empty : Key.data(),
                            int(Key.size()), Data.empty() ? &Empty : Data.data(),
                            Data.size(), Out.data(), &Len);
  EXPECT_NE(Res, nullptr);
  EXPECT_EQ(Len, 32u);
  return Out;
}

Bytes hkdfExtract(const Bytes &Salt, const Bytes &Ikm) {
  return hmacSha256(Salt, Ikm);
}

Bytes hkdfExpand(const Bytes &Prk, const Bytes &Info, size_t L) {
  Bytes Okm, T;
  for (uint8_t I = 1; Okm.size() < L; ++I) {
    Bytes Msg = T;
    Msg.insert(Msg.end(), Info.begin(), Info.end());
    Msg.push_back(I);
    T = hmacSha256(Prk, Msg);
    Okm.insert(Okm.end(), T.begin(), T.end());
  }
  Okm.resize(L);
  return Okm;
}

Bytes range(unsigned From, unsigned To) { // [From, To)
  Bytes B;
  for (unsigned I = From; I < To; ++I)
    B.push_back(uint8_t(I));
  return B;
}

TEST(RandomStreamHkdfKnownAnswer, ReferenceHkdfReproducesRfc5869) {
  // Test case 1.
  Bytes Prk1 = hkdfExtract(range(0, 13), Bytes(22, 0x0b));
  EXPECT_EQ(Prk1, fromHex("077709362c2e32df0ddc3f0dc47bba63"
                          "90b6c73bb50f9c3122ec844ad7c2b3e5"));
  EXPECT_EQ(hkdfExpand(Prk1, range(0xf0, 0xfa), 42),
            fromHex("3cb25f25faacd57a90434f64d0362f2a"
                    "2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                    "34007208d5b887185865"));
  // Test case 2 (long inputs, three HMAC blocks).
  Bytes Prk2 = hkdfExtract(range(0x60, 0xb0), range(0x00, 0x50));
  EXPECT_EQ(Prk2, fromHex("06a6b88c5853361a06104c9ceb35b45c"
                          "ef760014904671014a193f40c15fc244"));
  EXPECT_EQ(hkdfExpand(Prk2, range(0xb0, 0x100), 82),
            fromHex("b11e398dc80327a1c8e7f78c596a4934"
                    "4f012eda2d4efad8a050cc4c19afa97c"
                    "59045a99cac7827271cb41c65e590e09"
                    "da3275600c2f09b8367793a9aca3db71"
                    "cc30c58179ec3e87c14c01d5c1f3434f"
                    "1d87"));
  // Test case 3 (empty salt and info).
  Bytes Prk3 = hkdfExtract({}, Bytes(22, 0x0b));
  EXPECT_EQ(Prk3, fromHex("19ef24a32c717b167f33a91d6f648bdf"
                          "96596776afdb6377ac434c1c293ccb04"));
  EXPECT_EQ(hkdfExpand(Prk3, {}, 42),
            fromHex("8da4e775a563c18f715f802a063c5a31"
                    "b8a11f5c5ee1879ec3454e5f3c738d2d"
                    "9d201395faa4b61a96c8"));
}

TEST(RandomStreamHkdfKnownAnswer, SaltIsTheDocumentedString) {
  EXPECT_EQ(llvm::StringRef(MasterKeySalt), "divcc master key v1");
}

TEST(RandomStreamHkdfKnownAnswer, StreamKeyIsHkdfOfSecretUnderSaltAndLabel) {
  std::string AllBytes;
  for (int I = 0; I < 256; ++I)
    AllBytes.push_back(char(I));
  const std::string Secrets[] = {"SECRETVALUE", "x", AllBytes,
                                 std::string(1000, 'q')};
  const StreamLabel Labels[] = {{"nops", "foo.c", "main"},
                                {"funcs", "foo.c", ""},
                                {"", "", ""},
                                {"nops", std::string(300, 'm'), "f"}};
  for (const std::string &Secret : Secrets) {
    MasterKey M = masterFrom(Secret);
    Bytes Prk = hkdfExtract(bytesOf(MasterKeySalt), bytesOf(Secret));
    for (const StreamLabel &L : Labels) {
      Bytes Expected = hkdfExpand(Prk, bytesOf(encodeStreamLabel(L)), 32);
      Key256 Got = M.streamKey(L);
      EXPECT_EQ(Bytes(Got.begin(), Got.end()), Expected)
          << "secret of " << Secret.size() << " bytes, label "
          << L.Transformation.str() << "/" << L.Module.size() << "/"
          << L.Function.str();
    }
  }
}

TEST(RandomStreamHkdfKnownAnswer, EncodeStreamLabelExactBytes) {
  using namespace std::string_literals;
  EXPECT_EQ(encodeStreamLabel({"nops", "m.c", "f"}),
            "divcc stream v1"
            "\0\0\0\x04nops"
            "\0\0\0\x03m.c"
            "\0\0\0\x01"
            "f"s);
  EXPECT_EQ(encodeStreamLabel({"", "", ""}), "divcc stream v1"
                                             "\0\0\0\0\0\0\0\0\0\0\0\0"s);
  // Lengths above 255 use more than the last byte, big-endian.
  std::string Long(300, 'm');
  EXPECT_EQ(encodeStreamLabel({"a", Long, ""}),
            "divcc stream v1\0\0\0\x01"
            "a\0\0\x01\x2c"s +
                Long + "\0\0\0\0"s);
}

TEST(RandomStreamHkdfKnownAnswer, LabelledStreamIsStreamOfDerivedKey) {
  MasterKey M = masterFrom("SECRETVALUE");
  StreamLabel L{"nops", "foo.c", "main"};
  RandomStream ByLabel(M, L);
  RandomStream ByKey(M.streamKey(L));
  EXPECT_EQ(draw(ByLabel, 40), draw(ByKey, 40));
}

// --------------------------------------------------------------------------
// Streams and labels.

TEST(RandomStreamStreams, SameMasterAndLabelGiveSameWords) {
  MasterKey A = masterFrom("SECRETVALUE");
  MasterKey B = masterFrom("SECRETVALUE");
  MasterKey C = A; // copies are the same key
  StreamLabel L{"nops", "foo.c", "main"};
  std::vector<uint64_t> W = firstWords(A, L, 100);
  EXPECT_EQ(firstWords(B, L, 100), W);
  EXPECT_EQ(firstWords(C, L, 100), W);
  // Equal labels built from different storage.
  std::string T = "nops", Mod = "foo.c", F = "main";
  EXPECT_EQ(firstWords(A, StreamLabel{T, Mod, F}, 100), W);
}

TEST(RandomStreamStreams, EveryLabelFieldAndTheSecretMatter) {
  MasterKey M = masterFrom("SECRETVALUE");
  std::map<std::vector<uint64_t>, std::string> Seen;
  auto Add = [&](const MasterKey &Key, const StreamLabel &L,
                 const std::string &Name) {
    auto [It, Inserted] = Seen.emplace(firstWords(Key, L), Name);
    EXPECT_TRUE(Inserted) << Name << " gives the same words as " << It->second;
  };
  Add(M, {"nops", "foo.c", "main"}, "base");
  Add(M, {"funcs", "foo.c", "main"}, "other transformation");
  Add(M, {"nops", "bar.c", "main"}, "other module");
  Add(M, {"nops", "foo.c", "mainx"}, "other function");
  Add(M, {"nops", "foo.c", ""}, "no function");
  Add(M, {"nops", "", "main"}, "no module");
  Add(masterFrom("SECRETVALUF"), {"nops", "foo.c", "main"}, "other secret");
  Add(masterFrom("SECRETVALUE\n"), {"nops", "foo.c", "main"},
      "secret with newline");
  Add(masterFrom(llvm::StringRef("SECRETVALUE\0", 12)),
      {"nops", "foo.c", "main"}, "secret with NUL");
}

TEST(RandomStreamStreams, EncodeStreamLabelIsInjectiveOnTrickyCases) {
  const std::pair<StreamLabel, StreamLabel> Pairs[] = {
      {{"ab", "c", ""}, {"a", "bc", ""}},
      {{"a", "bc", ""}, {"a", "b", "c"}},
      {{"a", "", "b"}, {"a", "b", ""}},
      {{"", "a", ""}, {"a", "", ""}},
      {{"", "", "a"}, {"", "a", ""}},
      {{llvm::StringRef("a\0\0\0\x01"
                        "b",
                        6),
        "", ""},
       {"a", "b", ""}},
      {{"a", llvm::StringRef("\0\0\0\0", 4), ""}, {"a", "", ""}},
  };
  MasterKey M = masterFrom("k");
  for (const auto &[X, Y] : Pairs) {
    std::string Desc;
    for (const StreamLabel *L : {&X, &Y}) {
      Desc += Desc.empty() ? "(" : " vs (";
      Desc += L->Transformation;
      Desc += '|';
      Desc += L->Module;
      Desc += '|';
      Desc += L->Function;
      Desc += ')';
    }
    EXPECT_NE(encodeStreamLabel(X), encodeStreamLabel(Y)) << Desc;
    EXPECT_NE(firstWords(M, X), firstWords(M, Y)) << Desc;
  }
}

TEST(RandomStreamStreams, FreshMasterKeysDiffer) {
  llvm::Expected<MasterKey> A = MasterKey::fresh();
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  llvm::Expected<MasterKey> B = MasterKey::fresh();
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  StreamLabel L{"nops", "foo.c", "main"};
  EXPECT_NE(firstWords(*A, L), firstWords(*B, L));
  // ... and a fresh key is still one fixed key.
  EXPECT_EQ(firstWords(*A, L), firstWords(*A, L));
}

// --------------------------------------------------------------------------
// below() and between().

TEST(RandomStreamBelow, AlwaysUnderTheBound) {
  RandomStream S(patternKey(1));
  const uint64_t Bounds[] = {1,
                             2,
                             3,
                             5,
                             7,
                             10,
                             100,
                             1000,
                             (uint64_t(1) << 32) + 1,
                             (uint64_t(1) << 63) - 1,
                             uint64_t(1) << 63,
                             (uint64_t(1) << 63) + 1,
                             UINT64_MAX};
  for (uint64_t B : Bounds)
    for (int I = 0; I < 2000; ++I) {
      uint64_t V = S.below(B);
      ASSERT_LT(V, B) << "bound " << B;
    }
}

TEST(RandomStreamBelow, UniformForSmallBounds) {
  RandomStream S(patternKey(2));
  const uint64_t N = 60000;
  for (uint64_t B : {3u, 7u, 10u}) {
    std::vector<uint64_t> Count(B, 0);
    for (uint64_t I = 0; I < N; ++I) {
      uint64_t V = S.below(B);
      ASSERT_LT(V, B);
      ++Count[V];
    }
    for (uint64_t V = 0; V < B; ++V)
      expectBinomial(Count[V], N, 1.0 / double(B), 5,
                     "below(" + std::to_string(B) + ") == " +
                         std::to_string(V));
  }
}

TEST(RandomStreamBelow, OneIsAlwaysZeroAndConsumesOneWord) {
  RandomStream S(patternKey(3)), Twin(patternKey(3));
  for (int I = 0; I < 1000; ++I) {
    EXPECT_EQ(S.below(1), 0u);
    Twin.next64();
  }
  EXPECT_EQ(S.next64(), Twin.next64());
}

TEST(RandomStreamBelow, PowerOfTwoBoundConsumesExactlyOneWordPerDraw) {
  RandomStream S(patternKey(4)), Twin(patternKey(4));
  for (unsigned K = 0; K < 64; ++K) {
    uint64_t B = uint64_t(1) << K;
    for (int I = 0; I < 50; ++I)
      ASSERT_EQ(S.below(B), Twin.next64() & (B - 1)) << "bound 2^" << K;
  }
  EXPECT_EQ(S.next64(), Twin.next64());
}

/// The documented rule, computed independently with 128-bit arithmetic:
/// take the first word below the largest multiple of Bound that fits in
/// 2^64, reduce it modulo Bound. Returns how many words were rejected.
uint64_t expectedBelow(RandomStream &Twin, uint64_t Bound, uint64_t &Result) {
  unsigned __int128 Two64 = (unsigned __int128)1 << 64;
  unsigned __int128 Limit = Two64 / Bound * Bound;
  uint64_t Rejected = 0;
  for (;;) {
    uint64_t V = Twin.next64();
    if (V < Limit) {
      Result = V % Bound;
      return Rejected;
    }
    ++Rejected;
  }
}

TEST(RandomStreamBelow, FollowsTheDocumentedRejectionRule) {
  const uint64_t Bounds[] = {1,
                             3,
                             7,
                             10,
                             1000,
                             (uint64_t(1) << 62) + 1,
                             uint64_t(3) << 62,
                             (uint64_t(1) << 63) + 1,
                             (uint64_t(1) << 63) + 12345,
                             UINT64_MAX - 1,
                             UINT64_MAX};
  for (uint64_t B : Bounds) {
    RandomStream S(patternKey(5)), Twin(patternKey(5));
    for (int I = 0; I < 2000; ++I) {
      uint64_t Expected = 0;
      expectedBelow(Twin, B, Expected);
      ASSERT_EQ(S.below(B), Expected) << "bound " << B << ", draw " << I;
    }
    EXPECT_EQ(S.next64(), Twin.next64()) << "bound " << B;
  }
}

TEST(RandomStreamBelow, BoundJustAboveHalfRangeRejectsAboutHalf) {
  // For 2^63 < B the only complete copy of [0, B) in [0, 2^64) is [0, B)
  // itself, so every word >= B must be dropped: about half of them.
  for (uint64_t B : {(uint64_t(1) << 63) + 1, (uint64_t(1) << 63) + 999}) {
    RandomStream S(patternKey(6)), Twin(patternKey(6));
    const int Draws = 4000;
    uint64_t Rejected = 0;
    for (int I = 0; I < Draws; ++I) {
      uint64_t V = S.below(B);
      uint64_t W;
      do {
        W = Twin.next64();
        if (W >= B)
          ++Rejected;
      } while (W >= B);
      ASSERT_EQ(V, W) << "bound " << B << ", draw " << I;
    }
    // Words consumed = Draws + Rejected; P(reject) = 1 - B/2^64 ~ 1/2.
    expectBinomial(Rejected, Draws + Rejected, 0.5, 5,
                   "rejections for bound " + std::to_string(B));
    EXPECT_GT(Rejected, 0u);
    EXPECT_EQ(S.next64(), Twin.next64());
  }
}

TEST(RandomStreamBelow, ThreeQuarterRangeBoundRejectsAQuarter) {
  uint64_t B = uint64_t(3) << 62;
  RandomStream S(patternKey(7)), Twin(patternKey(7));
  const int Draws = 8000;
  uint64_t Rejected = 0;
  for (int I = 0; I < Draws; ++I) {
    uint64_t Expected = 0;
    Rejected += expectedBelow(Twin, B, Expected);
    ASSERT_EQ(S.below(B), Expected);
  }
  expectBinomial(Rejected, Draws + Rejected, 0.25, 5, "rejections");
}

TEST(RandomStreamBetween, CoversTheClosedRange) {
  RandomStream S(patternKey(8));
  std::set<uint64_t> Seen;
  for (int I = 0; I < 1000; ++I) {
    uint64_t V = S.between(5, 8);
    ASSERT_GE(V, 5u);
    ASSERT_LE(V, 8u);
    Seen.insert(V);
  }
  EXPECT_EQ(Seen, (std::set<uint64_t>{5, 6, 7, 8}));
  EXPECT_EQ(S.between(7, 7), 7u);
  uint64_t Top = S.between(UINT64_MAX - 1, UINT64_MAX);
  EXPECT_GE(Top, UINT64_MAX - 1);
}

// --------------------------------------------------------------------------
// chance() and Probability.

Probability parsed(llvm::StringRef Text) {
  llvm::Expected<Probability> P = Probability::parse(Text);
  if (!P) {
    ADD_FAILURE() << "'" << Text.str()
                  << "' rejected: " << llvm::toString(P.takeError());
    return Probability::fromFraction(0);
  }
  return *P;
}

TEST(RandomStreamChance, ZeroIsNeverAndOneIsAlways) {
  RandomStream S(patternKey(9));
  Probability Zero = parsed("0"), One = parsed("1");
  for (int I = 0; I < 100000; ++I) {
    ASSERT_FALSE(S.chance(Zero));
    ASSERT_TRUE(S.chance(One));
  }
}

TEST(RandomStreamChance, QuarterIsAboutAQuarter) {
  RandomStream S(patternKey(10));
  Probability P = parsed("0.25");
  const uint64_t N = 100000;
  uint64_t Hits = 0;
  for (uint64_t I = 0; I < N; ++I)
    Hits += S.chance(P);
  expectBinomial(Hits, N, 0.25, 5, "chance(0.25)");
}

TEST(RandomStreamChance, ComparesTheTop53BitsOfOneWord) {
  RandomStream S(patternKey(11)), Twin(patternKey(11));
  for (const char *Text : {"0.5", "0.001", "0.999", "1e-1"}) {
    Probability P = parsed(Text);
    for (int I = 0; I < 2000; ++I)
      ASSERT_EQ(S.chance(P), (Twin.next64() >> 11) < P.threshold()) << Text;
  }
  EXPECT_EQ(S.next64(), Twin.next64());
}

TEST(RandomStreamProbabilityParse, AcceptsDecimalsFromZeroToOne) {
  EXPECT_EQ(parsed("0").threshold(), 0u);
  EXPECT_EQ(parsed("1").threshold(), Probability::One);
  EXPECT_EQ(parsed("0.5").threshold(), Probability::One / 2);
  EXPECT_EQ(parsed("0.25").threshold(), Probability::One / 4);
  // 0.1 as a double is 3602879701896397 / 2^55; times 2^53, rounded.
  EXPECT_EQ(parsed("1e-1").threshold(), 900719925474099u);
  EXPECT_EQ(parsed("1.0").threshold(), Probability::One);
  EXPECT_EQ(Probability::One, uint64_t(1) << 53);
}

TEST(RandomStreamProbabilityParse, RejectsEverythingElse) {
  for (const char *Bad : {"", "abc", "-0.1", "1.5", "0.5x", "nan", "NaN",
                          "inf", "-inf", "1.0000001", "2", "0.5 ", "."}) {
    llvm::Expected<Probability> P = Probability::parse(Bad);
    EXPECT_FALSE(bool(P)) << "'" << Bad << "' accepted with threshold "
                          << (P ? P->threshold() : 0);
    if (!P) {
      std::string Message = llvm::toString(P.takeError());
      EXPECT_NE(Message.find("0 to 1"), std::string::npos) << Message;
    }
  }
}

TEST(RandomStreamProbabilityParse, FromFractionScalesByTwoToThe53) {
  EXPECT_EQ(Probability::fromFraction(0).threshold(), 0u);
  EXPECT_EQ(Probability::fromFraction(1).threshold(), Probability::One);
  EXPECT_EQ(Probability::fromFraction(0.75).threshold(),
            3 * (Probability::One / 4));
}

// --------------------------------------------------------------------------
// shuffle().

std::vector<int> iota(size_t N) {
  std::vector<int> V(N);
  std::iota(V.begin(), V.end(), 0);
  return V;
}

std::vector<int> shuffled(RandomStream &S, size_t N) {
  std::vector<int> V = iota(N);
  S.shuffle(llvm::MutableArrayRef<int>(V));
  return V;
}

TEST(RandomStreamShuffle, IsAPermutation) {
  RandomStream S(patternKey(12));
  for (size_t N : {0u, 1u, 2u, 3u, 5u, 20u, 1000u}) {
    std::vector<int> V = shuffled(S, N);
    std::vector<int> Sorted = V;
    std::sort(Sorted.begin(), Sorted.end());
    EXPECT_EQ(Sorted, iota(N)) << "size " << N;
  }
  // A 1000-element shuffle that leaves everything in place is a bug.
  EXPECT_NE(shuffled(S, 1000), iota(1000));
}

TEST(RandomStreamShuffle, SameKeySamePermutation) {
  MasterKey M = masterFrom("SECRETVALUE");
  StreamLabel L{"funcs", "foo.c", ""};
  RandomStream A(M, L), B(M, L);
  for (int I = 0; I < 10; ++I)
    EXPECT_EQ(shuffled(A, 20), shuffled(B, 20));
}

TEST(RandomStreamShuffle, DifferentLabelsDifferentPermutations) {
  MasterKey M = masterFrom("SECRETVALUE");
  const StreamLabel Labels[] = {{"funcs", "foo.c", ""},
                                {"nops", "foo.c", ""},
                                {"funcs", "bar.c", ""},
                                {"funcs", "foo.c", "main"}};
  std::set<std::vector<int>> Seen;
  for (const StreamLabel &L : Labels) {
    RandomStream S(M, L);
    EXPECT_TRUE(Seen.insert(shuffled(S, 20)).second)
        << L.Transformation.str() << "/" << L.Module.str() << "/"
        << L.Function.str();
  }
}

TEST(RandomStreamShuffle, AllPermutationsOfThreeAreEquallyLikely) {
  RandomStream S(patternKey(13));
  const uint64_t N = 60000;
  std::map<std::vector<int>, uint64_t> Count;
  for (uint64_t I = 0; I < N; ++I)
    ++Count[shuffled(S, 3)];
  EXPECT_EQ(Count.size(), 6u);
  for (const auto &[Perm, C] : Count)
    expectBinomial(C, N, 1.0 / 6, 5,
                   "permutation " + std::to_string(Perm[0]) +
                       std::to_string(Perm[1]) + std::to_string(Perm[2]));
}

TEST(RandomStreamShuffle, IsFisherYatesFromTheTopWithBelow) {
  // The documented algorithm, pinned: for I = N .. 2, swap element I-1 with
  // element below(I). Variants would reorder every existing variant.
  RandomStream S(patternKey(14)), Twin(patternKey(14));
  for (size_t N : {0u, 1u, 2u, 7u, 20u, 100u}) {
    std::vector<int> Expected = iota(N);
    for (size_t I = N; I > 1; --I)
      std::swap(Expected[I - 1], Expected[Twin.below(I)]);
    EXPECT_EQ(shuffled(S, N), Expected) << "size " << N;
  }
  EXPECT_EQ(S.next64(), Twin.next64());
}

} // namespace
