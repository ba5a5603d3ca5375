//===- MacroFusion.h - Instruction pairs the target's cores fuse ----------===//
//
// Some processors decode two adjacent instructions as one (macro fusion): on
// x86, a flag-setting cmp/test/and/add/sub/inc/dec directly followed by the
// conditional branch that reads its flags; on AArch64, an AES round and its
// mix-columns step, or adrp and the add that completes its address. LLVM's
// own schedulers keep such pairs together with a scheduling-DAG mutation; a
// scheduler that replaces them (transforms/ScheduleRandomization.cpp) must
// add the same one, and this is where the knowledge of which pairs fuse
// lives (targets/x86/X86MacroFusion.cpp, targets/aarch64/AArch64MacroFusion.cpp).
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

/// The AArch64 mutation: ties the pairs LLVM's generic AArch64 tuning fuses
/// (aese+aesmc, aesd+aesimc, adrp+add) on subtargets with those tuning
/// features, as LLVM's AArch64 scheduler does.
std::unique_ptr<llvm::ScheduleDAGMutation> createAArch64MacroFusionMutation();

/// Whether \p Second, right after \p First, fuses with it on the AArch64
/// subtarget the function is compiled for.
bool isAArch64MacroFusedPair(const llvm::MachineInstr &First,
                             const llvm::MachineInstr &Second);

/// Whether \p First and \p Second, adjacent in that order, are decoded as
/// one by the cores the function is tuned for: nothing may be inserted
/// between them without costing a cycle on every execution.
inline bool isMacroFusedPair(const llvm::MachineInstr &First,
                             const llvm::MachineInstr &Second) {
  const llvm::Triple &T = First.getMF()->getTarget().getTargetTriple();
  if (T.isX86())
    return isX86MacroFusedPair(First, Second);
  if (T.isAArch64())
    return isAArch64MacroFusedPair(First, Second);
  return false;
}

/// The mutation that keeps the macro-fused pairs of \p T adjacent, or null
/// if divcc knows of none for \p T.
inline std::unique_ptr<llvm::ScheduleDAGMutation>
createMacroFusionMutation(const llvm::Triple &T) {
  if (T.isX86())
    return createX86MacroFusionMutation();
  if (T.isAArch64())
    return createAArch64MacroFusionMutation();
  return nullptr;
}

/// Whether the target's own pre-register-allocation scheduler clusters
/// neighbouring loads and stores (LLVM's load and store cluster mutations,
/// which pair them up for ldp/stp): AArch64's does, x86's does not.
inline bool clustersMemoryOperations(const llvm::Triple &T) {
  return T.isAArch64();
}

} // namespace divcc

#endif
