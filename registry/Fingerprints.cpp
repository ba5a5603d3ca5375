//===- Fingerprints.cpp - Code layout fingerprints, for divtool identify --===//

#include "registry/Fingerprints.h"

#include "llvm/Support/Endian.h"

#include <algorithm>
#include <deque>

using namespace llvm;

namespace divcc {

// SplitMix64's finalizer: every input bit affects every output bit.
static uint64_t mix(uint64_t X) {
  X ^= X >> 30;
  X *= 0xbf58476d1ce4e5b9ull;
  X ^= X >> 27;
  X *= 0x94d049bb133111ebull;
  X ^= X >> 31;
  return X;
}

uint64_t windowHash(const uint8_t *Bytes) {
  static_assert(FingerprintWindowBytes % 8 == 0);
  uint64_t H = 0x9e3779b97f4a7c15ull;
  for (unsigned I = 0; I < FingerprintWindowBytes; I += 8)
    H = mix(H ^ support::endian::read64le(Bytes + I)) + I;
  return H;
}

void addFingerprints(ArrayRef<uint8_t> Code, std::vector<uint64_t> &Out) {
  if (Code.size() < FingerprintWindowBytes)
    return;
  size_t Windows = Code.size() - FingerprintWindowBytes + 1;
  if (Windows < FingerprintWinnowWindow) {
    uint64_t Min = UINT64_MAX;
    for (size_t I = 0; I < Windows; ++I)
      Min = std::min(Min, windowHash(Code.data() + I));
    Out.push_back(Min);
    return;
  }
  // A monotonic queue of (position, hash): hashes increase from front to
  // back, so the front is the minimum of the current winnowing window.
  // Popping equal hashes from the back keeps the rightmost of ties.
  std::deque<std::pair<size_t, uint64_t>> Queue;
  size_t LastChosen = SIZE_MAX;
  for (size_t I = 0; I < Windows; ++I) {
    uint64_t H = windowHash(Code.data() + I);
    while (!Queue.empty() && Queue.back().second >= H)
      Queue.pop_back();
    Queue.emplace_back(I, H);
    if (I + 1 < FingerprintWinnowWindow)
      continue;
    size_t WindowStart = I + 1 - FingerprintWinnowWindow;
    while (Queue.front().first < WindowStart)
      Queue.pop_front();
    if (Queue.front().first != LastChosen) {
      LastChosen = Queue.front().first;
      Out.push_back(Queue.front().second);
    }
  }
}

void sortUnique(std::vector<uint64_t> &Hashes) {
  std::sort(Hashes.begin(), Hashes.end());
  Hashes.erase(std::unique(Hashes.begin(), Hashes.end()), Hashes.end());
}

} // namespace divcc
