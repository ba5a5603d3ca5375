//===- ARM.h - The pieces of divcc's 32-bit ARM target --------------------===//
//
// Private to targets/: ARMDiversityTarget.cpp assembles these into the one
// 32-bit ARM (ARMv7-A, ARM and Thumb state) DiversityTarget.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_ARM_ARM_H
#define DIVCC_TARGETS_ARM_ARM_H

#include "targets/DiversityTarget.h"

namespace divcc {

std::unique_ptr<DiversityTarget> createARMDiversityTarget();

/// ARMGadgetTarget.cpp.
std::unique_ptr<GadgetTarget>
createARMGadgetTarget(const llvm::MCInstrInfo &MII,
                      const llvm::MCRegisterInfo &MRI);

/// ARMSubstitutions.cpp: the table of equivalent ARM-state instructions.
std::unique_ptr<SubstitutionTarget>
createARMSubstitutionTarget(const llvm::TargetSubtargetInfo &STI);

} // namespace divcc

#endif
