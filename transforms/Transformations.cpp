//===- Transformations.cpp - The table of divcc's transformations ---------===//

#include "transforms/Transformations.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

using namespace llvm;

namespace divcc {

static const TransformationInfo Table[] = {
    {Transformation::Nops, "nops", false, true,
     "insert no-op instructions between machine instructions"},
    {Transformation::Funcs, "funcs", true, false,
     "shuffle the order of functions within each object file"},
    {Transformation::Sched, "sched", true, true,
     "randomize instruction scheduling before register allocation"},
    {Transformation::Regs, "regs", false, true,
     "randomize register allocation with random allocation hints"},
    {Transformation::Frames, "frames", false, true,
     "shuffle stack slots and pad stack frames"},
    {Transformation::Globals, "globals", true, false,
     "shuffle global variables within each object file"},
    {Transformation::Blocks, "blocks", false, true,
     "shuffle the order of basic blocks within functions"},
    {Transformation::Subst, "subst", true, true,
     "substitute equivalent instructions"},
    {Transformation::Link, "link", false, false,
     "shuffle all functions of the program at link time (with lld)"},
    {Transformation::Offset, "offset", true, false,
     "move the PLT and the C runtime's code by a random distance at link time"},
    {Transformation::Gaps, "gaps", true, true,
     "pad with traps where control never falls through (after jumps, "
     "returns, tail calls, and between functions)"},
    {Transformation::Saves, "saves", true, true,
     "shuffle the order in which callee-saved registers are saved and "
     "restored (x86-64)"},
    {Transformation::Prefixes, "prefixes", true, true,
     "give memory accesses redundant prefixes, which move the code after "
     "them (x86-64)"},
};
static_assert(std::size(Table) == unsigned(Transformation::Count),
              "every transformation needs a row");

ArrayRef<TransformationInfo> allTransformations() { return Table; }

std::optional<Transformation> findTransformation(StringRef Name) {
  for (const TransformationInfo &Info : Table)
    if (Name == Info.Name)
      return Info.Kind;
  return std::nullopt;
}

const char *transformationName(Transformation T) {
  return Table[unsigned(T)].Name;
}

TransformationSet TransformationSet::defaultSet() {
  TransformationSet S;
  for (const TransformationInfo &Info : Table)
    if (Info.InDefaultSet)
      S.add(Info.Kind);
  return S;
}

std::string TransformationSet::str() const {
  std::string Out;
  for (const TransformationInfo &Info : Table) {
    if (!has(Info.Kind))
      continue;
    if (!Out.empty())
      Out += ',';
    Out += Info.Name;
  }
  return Out;
}

Expected<TransformationSet> parseTransformationList(StringRef List,
                                                   StringRef Spelling) {
  TransformationSet Set;
  SmallVector<StringRef, 8> Names;
  List.split(Names, ',');
  for (StringRef Name : Names) {
    if (Name == "all" || Name == "default") {
      for (const TransformationInfo &Info : allTransformations())
        if (Name == "all" || Info.InDefaultSet)
          Set.add(Info.Kind);
      continue;
    }
    std::optional<Transformation> T = findTransformation(Name);
    if (!T) {
      std::string Known;
      for (const TransformationInfo &Info : allTransformations())
        Known += std::string(Known.empty() ? "" : ", ") + Info.Name;
      return createStringError(inconvertibleErrorCode(),
                               "unknown transformation '" + Name + "' in '" +
                                   Spelling + "' (known: " + Known +
                                   ", all, default)");
    }
    Set.add(*T);
  }
  return Set;
}

} // namespace divcc
