//===- Bisect.h - A failing variant narrowed to a transformation ----------===//
//
// A variant fails its test; which of divcc's decisions broke it? Every
// decision comes from a stream of its own per (transformation, module,
// function), so the same seed with fewer transformations, or with a
// transformation turned off for some functions, makes exactly the same
// decisions minus those left out (driver: -fdiversify=, -fdiversify-only=,
// transforms/FunctionFilter.h). The bisection rebuilds the variant that way:
//
//   1. Each transformation of the run alone (same seed, -fdiversify=T), in
//      divcc's table order; the first whose build fails is the culprit.
//      When none fails alone, transformations are dropped one at a time
//      while the rest still fails: a set that needs all its members.
//   2. A per-function culprit T is narrowed by halving the functions it may
//      act on (-fdiversify-only=T:@FILE): the half that still fails is kept.
//      When neither half fails alone, the failure needs functions of both,
//      and the bisection reports the set it had. Module-wide culprits
//      (funcs, globals, link, offset) are reported as they are.
//
// Functions are the function symbols of the executables and shared objects
// of the culprit's build (the names divcc's filter takes); a stripped
// build leaves only the transformation. Every step is one build and one
// test run; the steps number about |transformations| + 2 log2(functions).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_TEST_BISECT_H
#define DIVCC_DIVTOOL_TEST_BISECT_H

#include "divtool/DivccOptions.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace divcc {

/// One rebuild of the variant with other divcc options, and its verdict.
struct Trial {
  bool Fails = false;
  /// The function symbols of the build's binaries, when asked for.
  std::vector<std::string> Functions;
};

/// Builds the variant with \p Options given to divcc, runs the test and
/// compares it with the undiversified build; lists the build's functions if
/// \p ListFunctions.
using RunTrial = llvm::function_ref<llvm::Expected<Trial>(
    const DivccOptions &Options, bool ListFunctions)>;

struct BisectResult {
  /// The transformations the failure needs (one, unless none fails alone).
  std::vector<Transformation> Transformations;
  /// The functions it needs, when narrowed (one, unless the failure needs
  /// several together); empty when not narrowed.
  std::vector<std::string> Functions;
  /// Why the functions were not narrowed, or are several; empty otherwise.
  std::string Note;
  /// Whether any build with fewer transformations failed at all.
  bool Reproduced = false;
};

/// Bisects a variant that fails with \p Active. \p FunctionListDir is a
/// directory for the -fdiversify-only= lists; \p Say reports each step.
llvm::Expected<BisectResult>
bisectVariant(llvm::ArrayRef<Transformation> Active, RunTrial Run,
              llvm::StringRef FunctionListDir,
              llvm::function_ref<void(const llvm::Twine &)> Say);

/// The function names of the ELF executables and shared objects in \p Tree,
/// sorted and unique.
std::vector<std::string> functionsOfTree(llvm::StringRef Tree);

} // namespace divcc

#endif
