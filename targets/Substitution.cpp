//===- Substitution.cpp - What every target's rewrites share --------------===//

#include "targets/Substitution.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;

namespace divcc {

MachineInstr &replaceInstruction(MachineInstr &MI, unsigned Opc,
                                 ArrayRef<MachineOperand> Explicit) {
  MachineBasicBlock &MBB = *MI.getParent();
  const TargetInstrInfo &TII = *MBB.getParent()->getSubtarget().getInstrInfo();
  // BuildMI adds the new opcode's implicit operands; tied uses are tied as
  // they are added.
  MachineInstrBuilder B = BuildMI(MBB, MI, MI.getDebugLoc(), TII.get(Opc));
  for (const MachineOperand &MO : Explicit)
    B.add(MO);
  // Implicit operands the old opcode does not imply (e.g. the implicit-def
  // of a super-register that register allocation added) still hold.
  const MCInstrDesc &Old = MI.getDesc();
  SmallVector<MCPhysReg, 4> OldDefs(Old.implicit_defs()),
      OldUses(Old.implicit_uses());
  for (const MachineOperand &MO : MI.implicit_operands()) {
    if (MO.isReg()) {
      SmallVectorImpl<MCPhysReg> &Own = MO.isDef() ? OldDefs : OldUses;
      auto It = find(Own, MO.getReg());
      if (It != Own.end()) {
        Own.erase(It);
        continue;
      }
    }
    B.add(MO);
  }
  B->setFlags(MI.getFlags());
  B->setAsmPrinterFlag(MI.getAsmPrinterFlags());
  if (unsigned Num = MI.peekDebugInstrNum())
    B->setDebugInstrNum(Num);
  MI.eraseFromParent();
  return *B;
}

void commuteRegisterUses(MachineInstr &MI, unsigned A, unsigned B) {
  MachineOperand &OA = MI.getOperand(A), &OB = MI.getOperand(B);
  Register RA = OA.getReg(), RB = OB.getReg();
  bool KA = OA.isKill(), KB = OB.isKill(), UA = OA.isUndef(),
       UB = OB.isUndef();
  bool NA = OA.isRenamable(), NB = OB.isRenamable();
  OA.setReg(RB);
  OB.setReg(RA);
  OA.setIsKill(KB);
  OB.setIsKill(KA);
  OA.setIsUndef(UB);
  OB.setIsUndef(UA);
  OA.setIsRenamable(NB);
  OB.setIsRenamable(NA);
}

} // namespace divcc
