//===- Transformations.cpp - The table of divcc's transformations ---------===//

#include "transforms/Transformations.h"

#include "targets/DiversityTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <string>

using namespace llvm;

namespace divcc {

static const TransformationInfo Table[] = {
#define DIVCC_TRANSFORMATION(KIND, NAME, DEFAULT, SCOPE, SLOT, ORDER,         \
                             SUMMARY, CREATE)                                  \
  {Transformation::KIND, NAME,    DEFAULT,                                     \
   TransformationScope::SCOPE == TransformationScope::PerFunction,            \
   PipelineSlot::SLOT,   ORDER,   SUMMARY},
#include "transforms/Transformations.def"
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

const TransformationInfo &transformationInfo(Transformation T) {
  return Table[unsigned(T)];
}

const char *transformationName(Transformation T) {
  return transformationInfo(T).Name;
}

SmallVector<const TransformationInfo *, 16> transformationsInPipelineOrder() {
  SmallVector<const TransformationInfo *, 16> Rows;
  for (const TransformationInfo &Info : Table)
    if (Info.Slot != PipelineSlot::LinkTime)
      Rows.push_back(&Info);
  llvm::stable_sort(Rows, [](const TransformationInfo *A,
                             const TransformationInfo *B) {
    return std::pair(A->Slot, A->Order) < std::pair(B->Slot, B->Order);
  });
  return Rows;
}

TransformationSet TransformationSet::defaultSet() {
  TransformationSet S;
  for (const TransformationInfo &Info : Table)
    if (Info.InDefaultSet)
      S.add(Info.Kind);
  S.HoldsDefaultSet = true;
  return S;
}

void TransformationSet::addTargetDefaults(const DiversityTarget &Target) {
  if (!HoldsDefaultSet)
    return;
  for (StringRef Name : Target.defaultSetAdditions()) {
    std::optional<Transformation> T = findTransformation(Name);
    if (!T)
      report_fatal_error("divcc: a target adds the unknown transformation '" +
                         Name + "' to its default set");
    add(*T);
  }
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
      Set.HoldsDefaultSet |= Name == "default";
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
