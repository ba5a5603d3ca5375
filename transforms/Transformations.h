//===- Transformations.h - The table of divcc's transformations -----------===//
//
// One row per transformation: the name users write in -fdiversify=LIST, the
// name of its random streams, and whether -fdiversify turns it on. The
// driver, the help text and the code generator all read this table, so a new
// transformation is added here once.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_TRANSFORMATIONS_H
#define DIVCC_TRANSFORMS_TRANSFORMATIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <bitset>
#include <optional>

namespace divcc {

enum class Transformation : unsigned {
  Nops,
  Funcs,
  Sched,
  Regs,
  Frames,
  Globals,
  Blocks,
  Subst,
  Link,
  Offset,
  Gaps,
  Saves,
  Prefixes,
  Count
};

struct TransformationInfo {
  Transformation Kind;
  const char *Name;      // in -fdiversify=LIST and in stream labels
  bool InDefaultSet;     // turned on by plain -fdiversify
  /// Decides each function's code on its own, from a stream per function:
  /// it can be turned off for some functions (-fdiversify-skip=,
  /// -fdiversify-only=, transforms/FunctionFilter.h). The others act on a
  /// whole module or link (orders of functions and globals, link offsets).
  bool PerFunction;
  const char *Summary;   // one line for --help
};

llvm::ArrayRef<TransformationInfo> allTransformations();
std::optional<Transformation> findTransformation(llvm::StringRef Name);

/// A set of transformations.
class TransformationSet {
public:
  static TransformationSet defaultSet();
  bool has(Transformation T) const { return Bits.test(unsigned(T)); }
  void add(Transformation T) { Bits.set(unsigned(T)); }
  bool empty() const { return Bits.none(); }
  /// Names in table order, joined by commas, e.g. "nops,funcs".
  std::string str() const;

private:
  std::bitset<unsigned(Transformation::Count)> Bits;
};

const char *transformationName(Transformation T);

/// The set a comma-separated \p List of transformation names means ("all"
/// and "default" included), as -fdiversify=LIST reads it; an unknown name
/// is an error that names it, quotes \p Spelling (the option as written)
/// and lists the known ones.
llvm::Expected<TransformationSet>
parseTransformationList(llvm::StringRef List, llvm::StringRef Spelling);

} // namespace divcc

#endif
