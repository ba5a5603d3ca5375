//===- X86.h - The pieces of divcc's x86-64 target ------------------------===//
//
// Private to targets/: X86DiversityTarget.cpp assembles these into the one
// x86-64 DiversityTarget.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_X86_X86_H
#define DIVCC_TARGETS_X86_X86_H

#include "targets/DiversityTarget.h"

namespace divcc {

std::unique_ptr<DiversityTarget> createX86DiversityTarget();

/// X86MacroFusion.cpp: the flag-setting cmp/test/and/add/sub/inc/dec and
/// the conditional branch after it, on subtargets that fuse them (the
/// macrofusion and branchfusion tuning features), as LLVM's x86 scheduler.
bool isX86MacroFusedPair(const llvm::MachineInstr &First,
                         const llvm::MachineInstr &Second);
std::unique_ptr<llvm::ScheduleDAGMutation> createX86MacroFusionMutation();

/// X86Substitutions.cpp.
std::unique_ptr<SubstitutionTarget>
createX86SubstitutionTarget(const llvm::TargetSubtargetInfo &STI);

/// X86GadgetTarget.cpp.
std::unique_ptr<GadgetTarget>
createX86GadgetTarget(const llvm::MCInstrInfo &MII,
                      const llvm::MCRegisterInfo &MRI);

} // namespace divcc

#endif
