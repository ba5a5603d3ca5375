//===- DivccOptions.h - divcc options for the builds divtool runs ---------===//
//
// divtool runs a project's own build, which starts divcc itself: divtool's
// only way to give that divcc options is DIVCC_OPTIONS (the seed goes
// through a private DIVCC_SEED_FILE, never here). This is the typed list of
// those options. Each option is one word, added whole; the environment's
// value is made once, where the build's environment is made.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_DIVCCOPTIONS_H
#define DIVCC_DIVTOOL_DIVCCOPTIONS_H

#include "support/Environment.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace divcc {

/// Whether \p Text holds white space, which no word of DIVCC_OPTIONS can.
bool hasWhiteSpace(llvm::StringRef Text);

class DivccOptions {
public:
  /// The words of the user's own DIVCC_OPTIONS in \p Env, which come first
  /// so that divtool's options win where they overlap.
  static DivccOptions fromEnvironment(const DivccEnvironment &Env);

  /// -fno-diversify.
  DivccOptions &noDiversity();
  /// -fdiversify=LIST.
  DivccOptions &diversify(llvm::StringRef List);
  /// -fdiversify-only=T:FUNCTIONS (names, or @FILE).
  DivccOptions &only(Transformation T, llvm::StringRef Functions);
  /// Every option of \p Other, after these.
  DivccOptions &append(const DivccOptions &Other);

  bool empty() const { return Words.empty(); }
  /// The value of DIVCC_OPTIONS, which divcc splits at white space.
  std::string str() const;
  /// "DIVCC_OPTIONS=VALUE", for environmentWith.
  std::string assignment() const;

private:
  DivccOptions &add(std::string Word);

  std::vector<std::string> Words;
};

} // namespace divcc

#endif
