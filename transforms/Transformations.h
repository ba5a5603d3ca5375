//===- Transformations.h - The table of divcc's transformations -----------===//
//
// The rows of Transformations.def as data: the name users write in
// -fdiversify=LIST (also the name of its random streams), whether
// -fdiversify turns it on, what it acts on and where in the pipeline it
// runs. Passes, options and the pipeline are expanded from the same rows by
// their own consumers (PassRegistry.h, DiversityOptionParser.h,
// codegen/CodeGen.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_TRANSFORMATIONS_H
#define DIVCC_TRANSFORMS_TRANSFORMATIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <bitset>
#include <optional>

namespace divcc {

class DiversityTarget;

enum class Transformation : unsigned {
#define DIVCC_TRANSFORMATION(KIND, NAME, DEFAULT, SCOPE, SLOT, ORDER,         \
                             SUMMARY, CREATE)                                  \
  KIND,
#include "transforms/Transformations.def"
  Count
};

/// What a transformation decides at once.
enum class TransformationScope {
  /// Each function's code, from a stream per function: it can be turned off
  /// for some functions (-fdiversify-skip=, -fdiversify-only=,
  /// transforms/FunctionFilter.h).
  PerFunction,
  /// A whole module's or link's order (functions, globals, link offsets).
  Whole
};

/// Where a transformation runs. The code generator places each slot's
/// transformations in their ORDER of Transformations.def.
enum class PipelineSlot {
  BeforeISel,            // IR passes, before instruction selection
  SchedulerStrategy,     // LLVM's machine scheduler, with divcc's strategy
  AfterMachineScheduler, // machine pass right before register allocation
  AfterBlockPlacement,   // machine pass right after block placement
  BeforePrologEpilog,    // machine pass right after shrink-wrapping
  Late,                  // machine passes on final code
  LinkTime               // in the link, outside the code generator
};

struct TransformationInfo {
  Transformation Kind;
  const char *Name;      // in -fdiversify=LIST and in stream labels
  bool InDefaultSet;     // turned on by plain -fdiversify
  bool PerFunction;      // TransformationScope::PerFunction
  PipelineSlot Slot;
  unsigned Order;        // among the transformations of Slot
  const char *Summary;   // one line for --help
};

llvm::ArrayRef<TransformationInfo> allTransformations();
std::optional<Transformation> findTransformation(llvm::StringRef Name);

/// A set of transformations.
class TransformationSet {
public:
  /// The transformations whose DEFAULT is true, and those the target adds
  /// to them once it is known (addTargetDefaults).
  static TransformationSet defaultSet();
  bool has(Transformation T) const { return Bits.test(unsigned(T)); }
  void add(Transformation T) { Bits.set(unsigned(T)); }
  bool empty() const { return Bits.none(); }
  /// Names in table order, joined by commas, e.g. "nops,funcs".
  std::string str() const;

  /// If the set holds the default set (-fdiversify, "default" in a list),
  /// adds the transformations \p Target puts in its default set
  /// (DiversityTarget::defaultSetAdditions).
  void addTargetDefaults(const DiversityTarget &Target);

private:
  friend llvm::Expected<TransformationSet>
  parseTransformationList(llvm::StringRef List, llvm::StringRef Spelling);

  std::bitset<unsigned(Transformation::Count)> Bits;
  bool HoldsDefaultSet = false;
};

const TransformationInfo &transformationInfo(Transformation T);
const char *transformationName(Transformation T);

/// The transformations that run as passes in the code generator, in the
/// order the pipeline places them: by slot, then by their ORDER.
llvm::SmallVector<const TransformationInfo *, 16> transformationsInPipelineOrder();

/// The set a comma-separated \p List of transformation names means ("all"
/// and "default" included), as -fdiversify=LIST reads it; an unknown name
/// is an error that names it, quotes \p Spelling (the option as written)
/// and lists the known ones.
llvm::Expected<TransformationSet>
parseTransformationList(llvm::StringRef List, llvm::StringRef Spelling);

} // namespace divcc

#endif
