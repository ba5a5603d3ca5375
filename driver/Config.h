//===- Config.h - What the user asked divcc to do -------------------------===//
//
// The driver fills one Config from the command line and the environment;
// the code generator and the transformations only read it. Each field is
// named after the flag that sets it.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_CONFIG_H
#define DIVCC_DRIVER_CONFIG_H

#include "cache/FrontendCache.h"
#include "random/RandomStream.h"
#include "random/SecretSeed.h"
#include "transforms/FunctionFilter.h"
#include "transforms/Transformations.h"

#include <optional>
#include <string>

namespace divcc {

enum class SeedSource { None, Flag, File, Environment, DerivedKey };

struct Config {
  /// -fdiversify / -fdiversify=LIST / -fno-diversify. Empty means off.
  TransformationSet Transformations = TransformationSet::defaultSet();
  /// -fdiversify-skip=T:FUNCS / -fdiversify-only=T:FUNCS: the functions a
  /// per-function transformation leaves alone (read only through
  /// functionStream()).
  FunctionFilter Functions;
  /// -fdiversify-nop-probability=P: chance of NOPs before an instruction.
  /// The default is low because NOPs are divcc's main run-time cost; what
  /// moves code at link time (offset) does not depend on them (see
  /// docs/performance.md).
  Probability NopProbability = Probability::fromFraction(0.05);
  /// -fdiversify-nop-max=N: at most this many NOPs in one place.
  unsigned NopMax = 1;
  /// -fdiversify-nop-probability-min=P / -max=P: profile-guided NOPs. When
  /// either is given, each block's probability falls from the maximum in
  /// the coldest code to the minimum in the hottest (see NopInsertion.cpp).
  bool ProfileGuidedNops = false;
  Probability NopProbabilityMin = Probability::fromFraction(0.0);
  Probability NopProbabilityMax = Probability::fromFraction(0.5);

  /// -fdiversify-sched=jitter|random.
  enum class SchedMode { Jitter, Random } Sched = SchedMode::Jitter;
  /// -f[no-]diversify-regs-callee-saved: whether random register hints may
  /// name callee-saved registers (each one used costs a save and restore).
  bool RegsCalleeSaved = true;
  /// -fdiversify-frame-pad=BYTES: at most this much random padding per frame.
  unsigned FramePad = 32;
  /// -fdiversify-global-pad=BYTES: at most this much random padding before
  /// each global variable (0: none).
  unsigned GlobalPad = 0;

  /// -frandom-seed=STRING, -fdiversify-seed-file=PATH, DIVCC_SEED_FILE or
  /// -fdiversify-key=HEX (a master key derived elsewhere).
  /// Where the secret came from; the secret itself is only ever held as the
  /// master key below.
  SeedSource Seed = SeedSource::None;
  std::string SeedFile; // a path, never the secret
  std::optional<MasterKey> Key;

  /// DIVCC_CACHE_DIR / DIVCC_CACHE_SIZE: the front-end cache, if enabled.
  std::optional<CacheSettings> Cache;

  /// -fdiversify-debug-crash (hidden): the code generator crashes on
  /// purpose, so that tests can see what a crash shows and leaves behind.
  bool DebugCrash = false;

  bool diversifying() const { return !Transformations.empty(); }
};

} // namespace divcc

#endif
