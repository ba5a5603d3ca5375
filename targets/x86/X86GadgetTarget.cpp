//===- X86GadgetTarget.cpp - x86-64 gadget endings for divtool audit ------===//
//
// Gadget endings, as ROPgadget and the literature count them:
//
//   ret     c3, c2 iw, and the far forms cb, ca iw
//   jop     jmp/call through a register or memory (ff /2, /3, /4, /5)
//   sys     syscall (0f 05), sysenter (0f 34), int 0x80 (cd 80)
//
// Inside a gadget no instruction may transfer control for sure or stop the
// program: unconditional jumps, calls, returns, traps (ud2, int3, int n),
// hlt. A conditional branch (jcc, loop, jrcxz) may be inside: its
// fall-through path runs on to the ending, and an attacker who controls the
// flags takes it (ROPgadget counts these gadgets too). x86 instructions
// start at any byte, so unaligned starts are gadgets too.
//
// Opcodes are looked up by name once: their numbers are generated into
// headers that the installed LLVM does not ship.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/x86/X86.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace divcc {
namespace {

class X86GadgetTarget final : public GadgetTarget {
public:
  X86GadgetTarget(const MCInstrInfo &MII, const MCRegisterInfo &MRI)
      : MII(MII) {
    for (unsigned Reg = 1, E = MRI.getNumRegs(); Reg != E; ++Reg) {
      StringRef Name = MRI.getName(Reg);
      if (Name == "ES" || Name == "CS" || Name == "SS" || Name == "DS")
        ZeroBasedSegments.insert(Reg);
    }
    for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc) {
      StringRef Name = MII.getName(Opc);
      if (Name == "SYSCALL" || Name == "SYSENTER")
        SystemCalls.insert(Opc);
      else if (Name == "INT")
        Interrupt = Opc;
      else if (Name == "INT3" || Name == "INTO" || Name == "HLT" ||
               Name.starts_with("UD"))
        Stops.insert(Opc);
      else if (Name.starts_with("NOOP"))
        Nops.insert(Opc);
      else if (Name == "LEA16r" || Name == "LEA32r" || Name == "LEA64r" ||
               Name == "LEA64_32r")
        Leas.insert(Opc);
    }
  }

  bool isNop(const MCInst &I) const override {
    return Nops.contains(I.getOpcode());
  }

  unsigned printerVariant() const override { return 1; } // Intel syntax
  unsigned instructionAlignment(unsigned) const override { return 1; }

  std::optional<GadgetKind> endingKind(const MCInst &I) const override {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    if (D.isReturn())
      return GadgetKind::Ret;
    if (SystemCalls.contains(I.getOpcode()) || isInt80(I))
      return GadgetKind::Sys;
    // Direct branches and calls have one immediate (pc-relative) operand;
    // everything else that branches goes through a register or memory.
    bool Direct = I.getNumOperands() == 1 && I.getOperand(0).isImm();
    if ((D.isIndirectBranch() || (D.isCall() && !Direct)))
      return GadgetKind::Jop;
    return std::nullopt;
  }

  // The segment operand is the last of a memory reference's five operands.
  // An lea's reference, operands 1 to 5 after the destination, is not
  // typed as memory in LLVM's descriptors.
  bool dropRedundantPrefix(MCInst &I) const override {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    for (unsigned Op = 0; Op + 4 < D.getNumOperands(); ++Op) {
      if (Leas.contains(I.getOpcode()) ? Op != 1
                                       : D.operands()[Op].OperandType !=
                                             MCOI::OPERAND_MEMORY)
        continue;
      if (Op + 4 >= I.getNumOperands() || !I.getOperand(Op + 4).isReg() ||
          !ZeroBasedSegments.contains(I.getOperand(Op + 4).getReg()))
        return false;
      I.getOperand(Op + 4).setReg(0);
      return true;
    }
    return false;
  }

  bool breaksGadget(const MCInst &I) const override {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    return (D.isBranch() && !D.isConditionalBranch()) || D.isCall() ||
           D.isReturn() || D.isTrap() || D.isBarrier() || D.isIndirectBranch() ||
           SystemCalls.contains(I.getOpcode()) ||
           I.getOpcode() == Interrupt || Stops.contains(I.getOpcode());
  }

private:
  bool isInt80(const MCInst &I) const {
    return I.getOpcode() == Interrupt && I.getNumOperands() == 1 &&
           I.getOperand(0).isImm() && I.getOperand(0).getImm() == 0x80;
  }

  const MCInstrInfo &MII;
  DenseSet<unsigned> Leas, SystemCalls, Stops, Nops, ZeroBasedSegments;
  unsigned Interrupt = ~0u;
};

} // namespace

std::unique_ptr<GadgetTarget> createX86GadgetTarget(const MCInstrInfo &MII,
                                                    const MCRegisterInfo &MRI) {
  return std::make_unique<X86GadgetTarget>(MII, MRI);
}

} // namespace divcc
