//===- DiversityOptions.h - What each transformation is asked to do -------===//
//
// One small struct a pass, filled by the driver from divcc's options: a pass
// sees its own knobs and nothing else, so that it can be built and tested
// without the driver (tools/divcc-llc builds them from its own flags).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_DIVERSITYOPTIONS_H
#define DIVCC_TRANSFORMS_DIVERSITYOPTIONS_H

#include "random/RandomStream.h"
#include "transforms/FunctionFilter.h"
#include "transforms/Transformations.h"

#include <optional>

namespace divcc {

/// nops: -fdiversify-nop-probability=P, -fdiversify-nop-max=N, the
/// profile-guided bounds -fdiversify-nop-probability-min=/-max= and
/// -f[no-]diversify-nops-in-loops.
struct NopOptions {
  /// The chance of NOPs before an instruction. Low by default because NOPs
  /// are divcc's main run-time cost; what moves code at link time (offset)
  /// does not depend on them (see docs/performance.md).
  Probability Uniform = Probability::fromFraction(0.05);
  /// At most this many NOPs in one place.
  unsigned MaxRun = 1;
  /// When set, each block's chance falls from Coldest in the coldest code
  /// to Hottest in the hottest (see NopInsertion.cpp).
  bool ProfileGuided = false;
  Probability Hottest = Probability::fromFraction(0.0);
  Probability Coldest = Probability::fromFraction(0.5);
  /// Whether NOPs may go in innermost loops when no profile's counts decide
  /// (they do in profile-guided mode with a profile). Off by default: there
  /// NOPs run on every iteration, and without counts an innermost loop is
  /// the best guess at hot code (see NopInsertion.cpp).
  bool InLoops = false;
};

/// gaps: -fdiversify-gap-max=BYTES, at most this much trap padding in one
/// place control never falls into (0: none); without it, the target's
/// default (DiversityTarget::defaultGapBytes). -fdiversify-first-gap-max=
/// BYTES, the same for each function's first gap; without it, the one
/// above if given, else the target's DiversityTarget::defaultFirstGapBytes.
/// Gaps cost no instruction but bytes.
struct GapOptions {
  std::optional<unsigned> MaxBytes;
  std::optional<unsigned> FirstMaxBytes;
};

/// blocks: -fdiversify-blocks=chains|all. Chains moves only what no
/// fall-through joins, so that no jump is added; all moves every block and
/// turns the fall-throughs it breaks into jumps.
enum class BlockShuffleMode { Chains, All };

/// prefixes: -fdiversify-prefix-probability=P, the chance that an
/// instruction the target accepts gets a redundant prefix (a longer
/// encoding); without it, the target's default
/// (DiversityTarget::defaultPrefixProbability). Each prefix is a byte of
/// `.text` on x86-64, two on RISC-V; a function rarely has few accepted
/// instructions before its last return, so a low chance still moves most
/// of the code after them. x86-64, 0.35 (speedtest1, default set: `.text`
/// 1.059x clang's and 3.5% relative survival at 1/2, 1.048x and 3.7% at
/// 0.35, 1.022x and 7.8% without prefixes); RISC-V, 0.2 (a C++ corpus
/// program: 29% relative survival without, 10% at 0.1, 4.7% at 0.2, for
/// 2.5 and 5 points of `.text`). See docs/performance.md.
struct PrefixOptions {
  std::optional<Probability> Chance;
};

/// shift: -fdiversify-shift-max=N, at most this many no-ops before the
/// first return a function's entry falls into (0: none); without it, the
/// target's default (DiversityTarget::defaultShiftNops: 1 on x86-64, whose
/// one no-op takes any length up to 8 bytes, 3 elsewhere). They run once
/// per call that returns there: on the three projects under qemu on
/// AArch64, 3 costs 0.3% more instructions and takes relative survival
/// from 20% to 7.5% (docs/performance.md).
struct ShiftOptions {
  std::optional<unsigned> MaxNops;
};

/// sched: -fdiversify-sched=jitter|random.
enum class ScheduleMode { Jitter, Random };

/// regs: -f[no-]diversify-regs-callee-saved, whether random register hints
/// may name callee-saved registers (each one used costs a save and restore).
struct RegisterHintOptions {
  bool CalleeSaved = true;
};

/// frames: -fdiversify-frame-pad=BYTES, at most this much padding a frame.
struct FrameOptions {
  unsigned MaxPad = 32;
};

/// globals: -fdiversify-global-pad=BYTES, at most this much padding before
/// each global variable (0: none).
struct GlobalOptions {
  unsigned MaxPad = 0;
};

/// Every transformation's options, and which transformations run.
struct DiversityOptions {
  /// -fdiversify / -fdiversify=LIST / -fno-diversify. Empty means off.
  TransformationSet Transformations = TransformationSet::defaultSet();
  /// -fdiversify-skip=T:FUNCS / -fdiversify-only=T:FUNCS (read only through
  /// StreamSource::forFunction()).
  FunctionFilter Functions;
  NopOptions Nops;
  GapOptions Gaps;
  PrefixOptions Prefixes;
  ShiftOptions Shift;
  ScheduleMode Sched = ScheduleMode::Jitter;
  BlockShuffleMode Blocks = BlockShuffleMode::Chains;
  RegisterHintOptions Regs;
  FrameOptions Frames;
  GlobalOptions Globals;

  bool diversifying() const { return !Transformations.empty(); }
};

/// Where one module's passes take their random streams from: the master
/// key, the module's stream name (see moduleStreamName) and the function
/// filter. Every pass draws through this class and nothing else, which is
/// what keeps each (transformation, module, function) stream independent
/// of every other.
class StreamSource {
public:
  StreamSource(const MasterKey &Key, std::string ModuleName,
               const FunctionFilter &Functions)
      : Key(Key), ModuleName(std::move(ModuleName)), Functions(Functions) {}

  /// The stream of the per-function transformation \p T for \p Function, or
  /// null when the filter turns T off for it: T must then leave it exactly
  /// as it is.
  std::unique_ptr<RandomStream> forFunction(Transformation T,
                                            llvm::StringRef Function) const;
  /// The stream of the module-wide transformation \p T.
  RandomStream forModule(Transformation T) const;

  llvm::StringRef moduleName() const { return ModuleName; }

private:
  const MasterKey &Key;
  std::string ModuleName;
  const FunctionFilter &Functions;
};

} // namespace divcc

#endif
