//===- ARMGadgetTarget.cpp - 32-bit ARM gadget endings for divtool audit --===//
//
// Gadget endings on 32-bit ARM, in both instruction sets:
//
//   ret     bx lr; an instruction that loads pc from the stack: pop {..., pc}
//           (ldm sp!, {..., pc}), ldr pc, [sp], #4; mov pc, lr
//   jop     every other write of pc: bx, blx through a register, ldm or ldr
//           into pc from elsewhere, mov/add into pc (ARM's jump tables)
//   sys     svc
//
// Instruction set 0 is Thumb (two-byte alignment), set 1 ARM state
// (four-byte): the mapping symbols the compiler leaves in .symtab say which
// bytes are which ($t, $a) and which are data ($d: literal pools, jump
// tables), which is not decoded. Thumb's IT instruction predicates up to
// four next instructions; a jump into them clears that state, so each
// offset is decoded with none (leavesDecoderState).
//
// Inside a gadget no instruction may transfer control for sure or stop the
// program: the endings, unconditional direct branches and calls (b, bl,
// blx to a label), udf, bkpt. Conditional branches (b<cond>, cbz, cbnz)
// may be inside: their fall-through path runs on to the ending.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/arm/ARM.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace divcc {
namespace {

constexpr int64_t Always = 14; // ARMCC::AL

class ARMGadgetTarget final : public GadgetTarget {
public:
  ARMGadgetTarget(const MCInstrInfo &MII, const MCRegisterInfo &MRI)
      : MII(MII) {
    for (unsigned Reg = 1, E = MRI.getNumRegs(); Reg != E; ++Reg) {
      StringRef Name = MRI.getName(Reg);
      if (Name == "PC")
        PC = Reg;
      else if (Name == "LR")
        LR = Reg;
      else if (Name == "SP")
        SP = Reg;
    }
    for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc) {
      StringRef Name = MII.getName(Opc);
      if (Name == "SVC" || Name == "tSVC")
        SystemCalls.insert(Opc);
      else if (Name == "BX_RET" || Name == "MOVPCLR") // bx lr, mov pc, lr
        Returns.insert(Opc);
      else if (Name == "BX" || Name == "BLX" || Name == "tBX" ||
               Name == "tBLXr")
        RegisterBranches.insert(Opc);
      else if (Name.starts_with("LDM") || Name.starts_with("t2LDM") ||
               Name.starts_with("tLDM") || Name == "tPOP")
        LoadMultiples.insert(Opc);
      if (Name == "tPOP")
        ThumbPop = Opc;
      else if (Name == "B" || Name == "Bcc" || Name == "BL" ||
               Name == "BL_pred" || Name == "BLXi" || Name == "tB" ||
               Name == "tBcc" || Name == "t2B" || Name == "t2Bcc" ||
               Name == "tBL" || Name == "tBLXi")
        DirectBranches.insert(Opc);
      else if (Name == "UDF" || Name == "tUDF" || Name == "t2UDF" ||
               Name == "BKPT" || Name == "tBKPT" || Name == "HLT" ||
               Name == "tHLT" || Name == "TRAP" || Name == "TRAPNaCl" ||
               Name == "tTRAP")
        Stops.insert(Opc);
      else if (Name == "t2IT")
        IfThen = Opc;
    }
  }

  unsigned printerVariant() const override { return 0; }
  unsigned instructionSetCount() const override { return 2; }
  unsigned instructionAlignment(unsigned Set) const override {
    return Set == 0 ? 2 : 4;
  }
  // ARMv7-A with what Debian's armhf binaries may use (VFPv3-D16 is the
  // baseline; NEON, VFPv4 and the divide instructions on newer cores).
  const char *disassemblerFeatures(unsigned Set) const override {
    return Set == 0 ? "+armv7-a,+neon,+vfp4,+hwdiv,+hwdiv-arm,+thumb-mode"
                    : "+armv7-a,+neon,+vfp4,+hwdiv,+hwdiv-arm,-thumb-mode";
  }
  std::optional<int> mappingSymbol(char Letter) const override {
    switch (Letter) {
    case 't':
      return 0;
    case 'a':
      return 1;
    case 'd':
      return DataMapping;
    }
    return std::nullopt;
  }
  bool leavesDecoderState(const MCInst &I) const override {
    return I.getOpcode() == IfThen;
  }

  std::optional<GadgetKind> endingKind(const MCInst &I) const override {
    unsigned Opc = I.getOpcode();
    if (SystemCalls.contains(Opc))
      return GadgetKind::Sys;
    if (Returns.contains(Opc))
      return GadgetKind::Ret;
    if (RegisterBranches.contains(Opc))
      return mentions(I, LR) && !MII.get(Opc).isCall() ? GadgetKind::Ret
                                                       : GadgetKind::Jop;
    if (!writesPC(I))
      return std::nullopt;
    // From the stack (pop, ldm sp!, ldr pc, [sp]; Thumb's 16-bit pop names
    // no base) or the link register (mov pc, lr): a return.
    return Opc == ThumbPop || mentions(I, SP) || mentions(I, LR)
               ? GadgetKind::Ret
               : GadgetKind::Jop;
  }

  bool breaksGadget(const MCInst &I) const override {
    unsigned Opc = I.getOpcode();
    if (Stops.contains(Opc) || endingKind(I))
      return true;
    return DirectBranches.contains(Opc) && !isConditional(I);
  }

private:
  bool mentions(const MCInst &I, unsigned Reg) const {
    for (const MCOperand &Op : I)
      if (Op.isReg() && Op.getReg() == Reg)
        return true;
    return false;
  }

  // pc as the destination of a data-processing instruction or load, or in
  // the register list of a load-multiple (where every listed register is
  // written). pc as a base or source operand (literal loads, adr) is not.
  bool writesPC(const MCInst &I) const {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    if (D.mayStore())
      return false;
    if (LoadMultiples.contains(I.getOpcode()))
      return mentions(I, PC);
    return D.getNumDefs() > 0 && I.getNumOperands() > 0 &&
           I.getOperand(0).isReg() && I.getOperand(0).getReg() == PC;
  }

  // The predicate operand, where the instruction has one, is a condition
  // code other than "always".
  bool isConditional(const MCInst &I) const {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    for (unsigned Op = 0; Op < D.getNumOperands() && Op < I.getNumOperands();
         ++Op)
      if (D.operands()[Op].isPredicate() && I.getOperand(Op).isImm())
        return I.getOperand(Op).getImm() != Always;
    return false;
  }

  const MCInstrInfo &MII;
  DenseSet<unsigned> SystemCalls, Returns, RegisterBranches, LoadMultiples,
      DirectBranches, Stops;
  unsigned IfThen = ~0u, ThumbPop = ~0u;
  unsigned PC = ~0u, LR = ~0u, SP = ~0u;
};

} // namespace

std::unique_ptr<GadgetTarget> createARMGadgetTarget(const MCInstrInfo &MII,
                                                    const MCRegisterInfo &MRI) {
  return std::make_unique<ARMGadgetTarget>(MII, MRI);
}

} // namespace divcc
