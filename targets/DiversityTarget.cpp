//===- DiversityTarget.cpp - Choosing the target knowledge ----------------===//

#include "targets/DiversityTarget.h"

using namespace llvm;

namespace divcc {

std::unique_ptr<DiversityTarget>
createX86DiversityTarget(const TargetSubtargetInfo &STI);
TrapPadding x86TrapPadding();
std::unique_ptr<DiversityTarget>
createAArch64DiversityTarget(const TargetSubtargetInfo &STI);
AnalysisID aarch64LateMachinePassAnchor();
TrapPadding aarch64TrapPadding();

bool isSupportedTarget(const Triple &T) {
  if (!T.isOSBinFormatELF())
    return false;
  return T.getArch() == Triple::x86_64 || T.getArch() == Triple::aarch64;
}

const char *supportedTargetsText() {
  return "x86_64 and aarch64 Linux/ELF";
}

TrapPadding trapPadding(const Triple &T) {
  assert(isSupportedTarget(T));
  if (T.getArch() == Triple::aarch64)
    return aarch64TrapPadding();
  return x86TrapPadding();
}

AnalysisID lateMachinePassAnchor(const Triple &T) {
  if (T.getArch() == Triple::aarch64)
    return aarch64LateMachinePassAnchor();
  return nullptr;
}

std::unique_ptr<DiversityTarget>
createDiversityTarget(const Triple &T, const TargetSubtargetInfo &STI) {
  if (!isSupportedTarget(T))
    return nullptr;
  if (T.getArch() == Triple::aarch64)
    return createAArch64DiversityTarget(STI);
  return createX86DiversityTarget(STI);
}

} // namespace divcc
