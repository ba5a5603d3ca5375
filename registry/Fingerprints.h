//===- Fingerprints.h - Code layout fingerprints, for divtool identify ----===//
//
// Every variant of a population has its own code layout, so a piece of
// machine code (a whole binary, a stripped copy, a 4 KiB page of .text found
// in a crash dump) tells which variant it came from. divtool keeps, for each
// variant, a sample of hashes of its code and compares a suspect's sample
// against them.
//
// The sample is winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003):
// hash the 32-byte window at every offset of the code, then, in every run of
// 32 consecutive window hashes, keep the smallest (the rightmost on ties).
// The choice depends only on the bytes around a window, so the same code
// yields the same fingerprints wherever it sits, whatever comes before or
// after it: any stretch of at least 63 bytes that a suspect shares with a
// variant shares at least one fingerprint, and a sample is about 1/16 of the
// windows. Nothing here is secret: fingerprints describe shipped code.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_REGISTRY_FINGERPRINTS_H
#define DIVCC_REGISTRY_FINGERPRINTS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace divcc {

/// Bytes hashed per window.
constexpr unsigned FingerprintWindowBytes = 32;
/// Consecutive window hashes among which winnowing keeps one.
constexpr unsigned FingerprintWinnowWindow = 32;

/// The hash of the FingerprintWindowBytes bytes at \p Bytes.
uint64_t windowHash(const uint8_t *Bytes);

/// Adds the winnowed fingerprints of \p Code to \p Out (unsorted, possibly
/// repeated). Code shorter than one window adds nothing; code with fewer
/// windows than the winnowing window adds its smallest hash.
void addFingerprints(llvm::ArrayRef<uint8_t> Code, std::vector<uint64_t> &Out);

/// Sorts \p Hashes and removes repeats.
void sortUnique(std::vector<uint64_t> &Hashes);

} // namespace divcc

#endif
