//===- FunctionFilter.h - Per-function transformations turned off ---------===//
//
// -fdiversify-skip=T:FUNCS and -fdiversify-only=T:FUNCS turn a per-function
// transformation T off for some functions: they get exactly the code T
// would leave them without it, while T still acts on the others. This is
// what `divtool test --bisect` narrows a failure with ("function f breaks
// when its registers are randomized"), and how a user works around such a
// function.
//
// The one place: every per-function transformation (nops, sched, regs,
// frames, blocks, subst; TransformationInfo::PerFunction) takes its random
// stream for a function from StreamSource::forFunction()
// (transforms/DiversityOptions.h), which returns none for
// a function the filter turns T off for; the transformation then leaves that
// function alone. No transformation reads the filter itself.
//
// Invariants:
//   - With no -fdiversify-skip= or -fdiversify-only=, forFunction() gives
//     every function the stream it always had: the output is unchanged.
//   - A function's stream depends only on (T, module, function), never on
//     the filter: turning T off for some functions leaves T's choices in
//     every other function exactly as they were.
//   - Functions are named as in the symbol table (mangled names; static
//     functions by their local name, the same in every module that has
//     one). Module-wide transformations (funcs, globals, link, offset)
//     cannot be filtered; the driver refuses them.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_FUNCTIONFILTER_H
#define DIVCC_TRANSFORMS_FUNCTIONFILTER_H

#include "transforms/Transformations.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <array>
#include <memory>

namespace divcc {

/// Which functions each per-function transformation acts on.
class FunctionFilter {
public:
  /// -fdiversify-skip=T:NAMES: \p T leaves \p Function alone.
  void skip(Transformation T, llvm::StringRef Function);
  /// -fdiversify-only=T:NAMES: \p T acts only on the functions named this
  /// way (every -fdiversify-only= for T adds to the list). Call with no
  /// function (restrict) to make the list exist, possibly empty.
  void restrict(Transformation T);
  void allow(Transformation T, llvm::StringRef Function);

  /// Whether \p T acts on \p Function: it is on T's -fdiversify-only= list,
  /// if T has one, and not on its -fdiversify-skip= list.
  bool allows(Transformation T, llvm::StringRef Function) const;
  /// No function is filtered for any transformation.
  bool empty() const;

private:
  struct Rule {
    bool Restricted = false;
    llvm::StringSet<> Only;
    llvm::StringSet<> Skipped;
  };
  std::array<Rule, unsigned(Transformation::Count)> Rules;
};

} // namespace divcc

#endif
