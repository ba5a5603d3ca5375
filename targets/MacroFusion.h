//===- MacroFusion.h - Instruction pairs the target's cores fuse ----------===//
//
// Some processors decode two adjacent instructions as one (macro fusion): on
// x86, a flag-setting cmp/test/and/add/sub/inc/dec directly followed by the
// conditional branch that reads its flags. LLVM's own x86 scheduler keeps
// such pairs together with a scheduling-DAG mutation; a scheduler that
// replaces it (transforms/ScheduleRandomization.cpp) must add the same one,
// and this is where the knowledge of which pairs fuse lives.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_MACROFUSION_H
#define DIVCC_TARGETS_MACROFUSION_H

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/ScheduleDAGMutation.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace divcc {

/// The x86 mutation: ties each fusible flag-setting instruction to the
/// conditional branch that ends its scheduling region, on subtargets that
/// fuse (the macrofusion and branchfusion tuning features), exactly as
/// LLVM's x86 scheduler does.
std::unique_ptr<llvm::ScheduleDAGMutation> createX86MacroFusionMutation();

/// Whether the x86 branch \p Second, right after \p First, fuses with it
/// on the subtarget the function is compiled for.
bool isX86MacroFusedPair(const llvm::MachineInstr &First,
                         const llvm::MachineInstr &Second);

/// Whether \p First and \p Second, adjacent in that order, are decoded as
/// one by the cores the function is tuned for: nothing may be inserted
/// between them without costing a cycle on every execution.
inline bool isMacroFusedPair(const llvm::MachineInstr &First,
                             const llvm::MachineInstr &Second) {
  if (First.getMF()->getTarget().getTargetTriple().isX86())
    return isX86MacroFusedPair(First, Second);
  return false;
}

/// The mutation that keeps the macro-fused pairs of \p T adjacent, or null
/// if divcc knows of none for \p T.
inline std::unique_ptr<llvm::ScheduleDAGMutation>
createMacroFusionMutation(const llvm::Triple &T) {
  if (T.isX86())
    return createX86MacroFusionMutation();
  return nullptr;
}

} // namespace divcc

#endif
