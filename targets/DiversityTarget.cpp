//===- DiversityTarget.cpp - Choosing the target knowledge ----------------===//

#include "targets/DiversityTarget.h"

using namespace llvm;

namespace divcc {

std::unique_ptr<DiversityTarget>
createX86DiversityTarget(const TargetSubtargetInfo &STI);

bool isSupportedTarget(const Triple &T) {
  return T.getArch() == Triple::x86_64 && T.isOSBinFormatELF();
}

std::unique_ptr<DiversityTarget>
createDiversityTarget(const Triple &T, const TargetSubtargetInfo &STI) {
  if (!isSupportedTarget(T))
    return nullptr;
  return createX86DiversityTarget(STI);
}

} // namespace divcc
