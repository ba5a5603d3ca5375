//===- EntryPath.cpp - What a function's entry falls through to --------===//

#include "transforms/EntryPath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"

using namespace llvm;

namespace divcc {

bool isGadgetEnding(const MachineInstr &MI) {
  if (MI.isReturn() && !MI.isCall())
    return true;
  if (MI.isIndirectBranch())
    return true;
  if (!MI.isCall())
    return false;
  // A call is direct when it names its callee (an ARM call's predicate
  // operands are registers too).
  return none_of(MI.explicit_operands(), [](const MachineOperand &MO) {
    return MO.isGlobal() || MO.isSymbol() || MO.isMCSymbol();
  });
}

MachineInstr *firstEndingFromEntry(MachineFunction &MF) {
  for (MachineBasicBlock &MBB : MF) {
    for (MachineInstr &MI : MBB.instrs()) {
      if (MI.isDebugOrPseudoInstr() || MI.isMetaInstruction())
        continue;
      if (isGadgetEnding(MI) || MI.isInlineAsm())
        return &MI;
      if (MI.isBarrier())
        return nullptr;
    }
    if (!MBB.canFallThrough())
      return nullptr;
  }
  return nullptr;
}

} // namespace divcc
