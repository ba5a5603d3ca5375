//===- Config.h - What the user asked divcc to do -------------------------===//
//
// The driver fills one Config from the command line and the environment;
// the code generator and the transformations only read it. Each field is
// named after the flag that sets it.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_CONFIG_H
#define DIVCC_DRIVER_CONFIG_H

#include "random/RandomStream.h"
#include "random/SecretSeed.h"
#include "transforms/Transformations.h"

#include <optional>
#include <string>

namespace divcc {

enum class SeedSource { None, Flag, File, Environment };

struct Config {
  /// -fdiversify / -fdiversify=LIST / -fno-diversify. Empty means off.
  TransformationSet Transformations = TransformationSet::defaultSet();
  /// -fdiversify-nop-probability=P: chance of NOPs before an instruction.
  Probability NopProbability = Probability::fromFraction(0.5);
  /// -fdiversify-nop-max=N: at most this many NOPs in one place.
  unsigned NopMax = 1;

  /// -frandom-seed=STRING, -fdiversify-seed-file=PATH or DIVCC_SEED_FILE.
  /// Where the secret came from; the secret itself is only ever held as the
  /// master key below.
  SeedSource Seed = SeedSource::None;
  std::string SeedFile; // a path, never the secret
  std::optional<MasterKey> Key;

  /// Whether the compiler driver is in C++ mode (div++).
  bool CPlusPlus = false;

  bool diversifying() const { return !Transformations.empty(); }
};

} // namespace divcc

#endif
