//===- AArch64.h - The pieces of divcc's AArch64 target -------------------===//
//
// Private to targets/: AArch64DiversityTarget.cpp assembles these into the
// one AArch64 DiversityTarget.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_AARCH64_AARCH64_H
#define DIVCC_TARGETS_AARCH64_AARCH64_H

#include "targets/DiversityTarget.h"

namespace divcc {

std::unique_ptr<DiversityTarget> createAArch64DiversityTarget();

/// AArch64MacroFusion.cpp: the pairs LLVM's generic AArch64 tuning fuses
/// (aese+aesmc, aesd+aesimc, adrp+add) on subtargets with those tuning
/// features, as LLVM's AArch64 scheduler.
bool isAArch64MacroFusedPair(const llvm::MachineInstr &First,
                             const llvm::MachineInstr &Second);
std::unique_ptr<llvm::ScheduleDAGMutation> createAArch64MacroFusionMutation();

/// AArch64Substitutions.cpp: the table of equivalent instructions.
std::unique_ptr<SubstitutionTarget>
createAArch64SubstitutionTarget(const llvm::TargetSubtargetInfo &STI);

/// AArch64GadgetTarget.cpp.
std::unique_ptr<GadgetTarget>
createAArch64GadgetTarget(const llvm::MCInstrInfo &MII);

} // namespace divcc

#endif
