//===- InstallLayout.h - A golden master laid out again per install ------===//
//
// A distributor qualifies one golden master and ships it; each install gets
// its own code layout, rewritten from the golden master by LLVM BOLT
// (llvm-bolt-19) under a stream derived from the master secret, the SHA-256
// of the golden master's code (its executable segments: the same with or
// without debug information) and the install's id:
//
//   1. the golden master (linked by divcc -fdiversify-golden, which keeps
//      the relocations BOLT needs to move every function) is checked;
//   2. its functions, named as BOLT names them, are shuffled;
//   3. with --blocks, a profile of random branch counts (every direct jump
//      inside a function, and each conditional one's fall-through), which
//      makes BOLT lay out every function's blocks in an order of its own;
//   4. llvm-bolt moves every function into that order, into the space of
//      the golden master's own .text where it fits (no 2 MiB alignment,
//      no hot-text padding), and fills the original code it no longer
//      runs with traps (-trap-old-code); a function BOLT refuses is
//      retried as skipped (-skip-funcs), and so stays where it was;
//   5. what the PLT no longer runs becomes traps (UnusedPlt.h);
//   6. BOLT's note, which records its command line, is blanked, and the
//      build id becomes a digest of the install's loaded segments, so that
//      it names the install rather than the golden master (and is the same
//      with or without debug information);
//   7. the output is written atomically.
//
// InstallLayout.cpp runs these as named steps, one function each, in the
// manner of mold's pass list: readGoldenMaster (1), drawLayout (2-3),
// writeInputs and runBolt (4), patchOutput (5-6), proveSound (every code
// address checked and repaired, LayoutCheck.h), accountForEveryFunction
// (each function BOLT left in place or out of order named), writeInstall
// (6-7).
//
// The same golden master, secret and id give the same bytes. Nothing
// derived from the secret appears in the output or in any message: the
// function order goes to BOLT through a file of mode 0600 in a private
// directory, removed afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_INSTALL_INSTALLLAYOUT_H
#define DIVCC_DIVTOOL_INSTALL_INSTALLLAYOUT_H

#include "random/SecretSeed.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace divcc {

struct InstallOptions {
  /// The llvm-bolt program (a name looked up on PATH, or a path).
  std::string Bolt = "llvm-bolt-19";
  /// Keep the private working directory (its secret files removed).
  bool Keep = false;
  /// Also lay out the blocks of each function anew: BOLT reorders the
  /// blocks of functions that have a profile, so each install gets one with
  /// random counts. Costs jumps where fall-throughs break (about +1%
  /// instructions executed).
  bool Blocks = false;
  /// x86-64: pad before branches so that none crosses or ends at a 32-byte
  /// boundary (the assembler's JCC-erratum alignment, in BOLT): the padding
  /// follows each function's address in the install, so offsets inside
  /// functions differ between installs. Costs the NOPs that run (about 1%
  /// more cycles).
  bool AlignBranches = false;
};

/// A function of the golden master an install keeps at its address.
struct FunctionLeftInPlace {
  std::string Name;   ///< as BOLT names it (NAME/N for a local one)
  std::string Reason; ///< what BOLT said of it
};

struct InstallResult {
  uint64_t Functions = 0; ///< functions in the new order
  /// Every function the install keeps where the golden master has it.
  std::vector<FunctionLeftInPlace> LeftInPlace;
  /// Functions BOLT moved, but not into their place in the new order.
  std::vector<std::string> OutOfOrder;
  bool FitInOldText = false;       ///< the new code took the old .text's place
  /// Why not, when it did not: "the new code did not fit", or a function
  /// left in place keeps the old .text.
  std::string NewSegmentReason;
  /// The PLT's lazy binding became traps, and this many stubs nothing calls.
  bool TrappedLazyBinding = false;
  unsigned TrappedPltStubs = 0;
  unsigned FunctionAlignment = 16; ///< 1 when 16 would not fit
  uint64_t GoldenSize = 0, OutputSize = 0;
  std::string OutputSha256;
  std::string GoldenCodeSha256; ///< of the golden master's code segments
  std::string WorkDir; ///< set when kept
  /// Code addresses inside functions named for BOLT (computed gotos).
  unsigned CodeLabels = 0;
  /// Code addresses the soundness check proved (LayoutCheck.h), and the
  /// references it repaired first.
  uint64_t CheckedReferences = 0;
  std::vector<std::string> Repairs;
  /// Wall-clock seconds in llvm-bolt (every attempt) and in the check.
  double BoltSeconds = 0, CheckSeconds = 0;
};

/// How an install's stream is derived, in words, for the registry.
std::string installSeedDerivation(llvm::StringRef InstallId);

/// Lays out the golden master \p Golden for the install \p InstallId under
/// \p Key and writes the result to \p Output.
llvm::Expected<InstallResult> layOutInstall(llvm::StringRef Golden,
                                            const MasterKey &Key,
                                            llvm::StringRef InstallId,
                                            llvm::StringRef Output,
                                            const InstallOptions &Options);

} // namespace divcc

#endif
