//===- StreamDump.cpp - Print divcc's stream words for fixed labels -------===//
//
// divcc-stream-dump prints, for a fixed table of (secret, transformation,
// module, function, word range), the words divcc's own RandomStream yields,
// in the format of stream_reference.py (an independent pure-Python model of
// HKDF-SHA256 + ChaCha20). The ctest `stream-matches-python-reference`
// requires the two outputs to be identical. Keep Cases in step with CASES
// in stream_reference.py.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "random/SecretSeed.h"

#include "llvm/ADT/StringRef.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

using namespace divcc;

namespace {

struct Case {
  std::string Secret, Transformation, Module, Function;
  unsigned First, Count;
};

std::string hex(const std::string &Bytes) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out;
  for (unsigned char C : Bytes) {
    Out.push_back(Digits[C >> 4]);
    Out.push_back(Digits[C & 15]);
  }
  return Out;
}

std::vector<Case> cases() {
  std::string AllBytes;
  for (int I = 0; I < 256; ++I)
    AllBytes.push_back(char(I));
  return {
      {"SECRETVALUE", "nops", "foo.c", "main", 0, 8},
      {"SECRETVALUE", "funcs", "foo.c", "", 0, 8},
      {"SECRETVALUE", "nops", "foo.c", "mainx", 0, 8},
      {"SECRETVALUE", "nops", "bar.c", "main", 0, 8},
      {"SECRETVALUF", "nops", "foo.c", "main", 0, 8},
      {AllBytes, "nops", "dir/a b.cpp", "_ZN3foo3barEv", 0, 8},
      {"x", "", "", "", 0, 8},
      {"k", "ab", "c", "", 0, 8},
      {"k", "a", "bc", "", 0, 8},
      {std::string(100, '\xff'), "funcs", std::string(300, 'm'), "f\xc3\xa9",
       0, 8},
      // Across the 256-byte buffer refills of RandomStream (words 32, 64).
      {"SECRETVALUE", "nops", "foo.c", "main", 28, 16},
      {"SECRETVALUE", "nops", "foo.c", "main", 60, 12},
  };
}

} // namespace

int main() {
  for (const Case &C : cases()) {
    MasterKey Master = MasterKey::fromSecret(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(C.Secret.data()), C.Secret.size()));
    RandomStream S(Master, StreamLabel{C.Transformation, C.Module, C.Function});
    for (unsigned I = 0; I < C.First; ++I)
      S.next64();
    std::printf("secret=%s t=%s m=%s f=%s words[%u..%u]:", hex(C.Secret).c_str(),
                hex(C.Transformation).c_str(), hex(C.Module).c_str(),
                hex(C.Function).c_str(), C.First, C.First + C.Count - 1);
    for (unsigned I = 0; I < C.Count; ++I)
      std::printf(" %016" PRIx64, S.next64());
    std::printf("\n");
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}
