//===- ARMSubstitutions.cpp - Equivalent ARM-state instructions -----------===//
//
// The ARM-state table of the instruction-substitution pass. Every ARM
// instruction is four bytes, so a substitution moves nothing; it changes
// the bytes of the gadgets the instruction is part of, such as the
// `mov r0, r6 ; add sp, sp, #8 ; pop {r4-r11, pc}` that ends a function
// and otherwise keeps its bytes wherever two variants place it alike.
// Thumb code is left alone: its copies are two-byte `mov`s whose
// equivalents are wider or set the flags. Four families, none of which
// writes or reads the flags differently from the original:
//
// 1. Register copies. `mov rd, rm` gives the same value as seven other
//    data-processing instructions, each with other bytes:
//        orr rd, rm, rm      and rd, rm, rm
//        add rd, rm, #0      sub rd, rm, #0      orr rd, rm, #0
//        eor rd, rm, #0      bic rd, rm, #0
//    none of them with the S bit, so the flags stay as they were; never
//    with SP or PC, whose rules differ from one form to another.
//
// 2. Constants. `mov rd, #c` (an 8-bit value rotated) and `movw rd, #c`
//    (16 bits, ARMv6T2 and later) write the same value wherever c fits
//    both: 0 to 255, and 16-bit rotations such as 0x3f00. (`mvn rd, #~c`
//    never joins them: ~c has 16 ones or more where c fits either, and a
//    rotated immediate has 8 at most.)
//
// 3. Commutative operations. `add`, `adc`, `and`, `orr`, `eor` and `mul`
//    of two registers with no shift compute the same with their sources
//    swapped, the flags too when they set them (addition and the bitwise
//    operations commute bit for bit, and a register operand without a
//    shift leaves the carry of the logical ones untouched).
//
// 4. Flag-only comparisons that commute: `tst` and `cmn` of two registers.
//
// Predicated instructions keep their condition: the form is predicated
// alike, and the implicit use of the destination that if-conversion adds
// is carried over.
//
// Cost: none in instructions; each form is a one-cycle ALU operation like
// the `mov` it replaces (`mul` is `mul` either way).
//
//===----------------------------------------------------------------------===//

#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/arm/ARM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/bit.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "arm";

/// The form kinds of this table (0, "as it is", is shared by all targets).
enum FormKind : unsigned {
  AsItIs = 0,
  SameTwice, // op rd, rm, rm
  PlusZero,  // op rd, rm, #0
  Constant,  // mov or movw of Imm
  Commute,   // swap the two source registers
};

/// What an opcode of the table is.
enum class Shape {
  Copy,       // mov rd, rm
  Constant,   // mov or movw of an immediate
  Commutable, // op rd, rn, rm
  Compare     // op rn, rm (flags only)
};

/// Whether \p Value is an ARM modified immediate: 8 bits rotated right by
/// an even amount.
bool isModifiedImmediate(uint32_t Value) {
  for (unsigned Rotation = 0; Rotation < 32; Rotation += 2)
    if (llvm::rotl(Value, Rotation) <= 0xff)
      return true;
  return false;
}

class ARMSubstitutions final : public SubstitutionTarget {
public:
  explicit ARMSubstitutions(const TargetSubtargetInfo &STI);

  void equivalentForms(const MachineInstr &MI,
                       function_ref<bool()> FlagsDeadAfter,
                       SmallVectorImpl<SubstitutionForm> &Forms) const override;
  void rewrite(MachineInstr &MI, const SubstitutionForm &Form) const override;
  MCRegister flagsRegister() const override { return CPSR; }

private:
  OpcodeNames Opcodes; // Opcodes("NAME"): its number
  DenseMap<unsigned, Shape> Table;
  unsigned Mov, Movw;
  SmallVector<unsigned, 2> SameTwiceOpcodes; // orr, and
  SmallVector<unsigned, 5> PlusZeroOpcodes;  // add, sub, orr, eor, bic
  MCRegister CPSR, SP, PC;
  bool HasMovw;
};

ARMSubstitutions::ARMSubstitutions(const TargetSubtargetInfo &STI)
    : Opcodes(*STI.getInstrInfo(), Name), Mov(Opcodes("MOVi")),
      Movw(Opcodes("MOVi16")) {
  const TargetRegisterInfo &TRI = *STI.getRegisterInfo();
  CPSR = registerNamed(TRI, Name, "cpsr");
  SP = registerNamed(TRI, Name, "sp");
  PC = registerNamed(TRI, Name, "pc");
  HasMovw = STI.getFeatureBits()[featureNamed(STI, Name, "v6t2")];
  for (StringRef Op : {"ORRrr", "ANDrr"})
    SameTwiceOpcodes.push_back(Opcodes(Op));
  for (StringRef Op : {"ADDri", "SUBri", "ORRri", "EORri", "BICri"})
    PlusZeroOpcodes.push_back(Opcodes(Op));
  Table[Opcodes("MOVr")] = Shape::Copy;
  for (unsigned Opc : {Mov, Movw})
    Table[Opc] = Shape::Constant;
  for (StringRef Op : {"ADDrr", "ADCrr", "ANDrr", "ORRrr", "EORrr", "MUL"})
    Table[Opcodes(Op)] = Shape::Commutable;
  for (StringRef Op : {"TSTrr", "CMNzrr"})
    Table[Opcodes(Op)] = Shape::Compare;
}

void ARMSubstitutions::equivalentForms(
    const MachineInstr &MI, function_ref<bool()>,
    SmallVectorImpl<SubstitutionForm> &Forms) const {
  auto It = Table.find(MI.getOpcode());
  if (It == Table.end())
    return;
  for (const MachineOperand &MO : MI.explicit_operands())
    if (MO.isReg() && MO.getReg() &&
        (!MO.getReg().isPhysical() || MO.getReg() == SP || MO.getReg() == PC))
      return;
  switch (It->second) {
  case Shape::Copy:
    // Operands: rd, rm, condition, its register, the optional S.
    if (MI.getOperand(4).getReg())
      return;
    Forms.push_back({AsItIs});
    for (unsigned Opc : SameTwiceOpcodes)
      Forms.push_back({SameTwice, Opc});
    for (unsigned Opc : PlusZeroOpcodes)
      Forms.push_back({PlusZero, Opc});
    return;
  case Shape::Constant: {
    // Operands: rd, the immediate, the condition, its register, and for
    // mov the optional S.
    if (!MI.getOperand(1).isImm() ||
        (MI.getOpcode() == Mov && MI.getOperand(4).getReg()))
      return;
    uint32_t Value = MI.getOperand(1).getImm();
    if (!HasMovw || Value > 0xffff || !isModifiedImmediate(Value))
      return;
    Forms.push_back({AsItIs});
    Forms.push_back({Constant, MI.getOpcode() == Mov ? Movw : Mov, Value});
    return;
  }
  case Shape::Commutable:
  case Shape::Compare: {
    unsigned First = It->second == Shape::Compare ? 0 : 1;
    const MachineOperand &N = MI.getOperand(First),
                         &M = MI.getOperand(First + 1);
    if (N.getReg() == M.getReg() || N.isTied() || M.isTied())
      return;
    Forms.push_back({AsItIs});
    Forms.push_back({Commute});
    return;
  }
  }
}

void ARMSubstitutions::rewrite(MachineInstr &MI,
                               const SubstitutionForm &Form) const {
  if (Form.Kind == AsItIs)
    return;
  if (Form.Kind == Commute) {
    unsigned First = Table.lookup(MI.getOpcode()) == Shape::Compare ? 0 : 1;
    commuteRegisterUses(MI, First, First + 1);
    return;
  }
  const MachineOperand &Def = MI.getOperand(0);
  int Pred = MI.findFirstPredOperandIdx();
  MachineOperand Condition = MI.getOperand(Pred),
                 ConditionReg = MI.getOperand(Pred + 1);
  MachineOperand NoFlags = MachineOperand::CreateReg(0, /*isDef=*/false);
  if (Form.Kind == Constant) {
    MachineOperand Imm = MachineOperand::CreateImm(Form.Imm);
    if (Form.Opcode == Movw)
      replaceInstruction(MI, Form.Opcode, {Def, Imm, Condition, ConditionReg});
    else
      replaceInstruction(MI, Form.Opcode,
                         {Def, Imm, Condition, ConditionReg, NoFlags});
    return;
  }
  // A copy. Kill flags are dropped, since a form may read its source
  // twice, and missing kills are always correct.
  MachineOperand Src = MachineOperand::CreateReg(
      MI.getOperand(1).getReg(), /*isDef=*/false, /*isImp=*/false,
      /*isKill=*/false, /*isDead=*/false, MI.getOperand(1).isUndef());
  MachineOperand Second =
      Form.Kind == SameTwice ? Src : MachineOperand::CreateImm(0);
  if (Form.Kind != SameTwice && Form.Kind != PlusZero)
    llvm_unreachable("no such ARM substitution form");
  replaceInstruction(MI, Form.Opcode,
                     {Def, Src, Second, Condition, ConditionReg, NoFlags});
}

} // namespace

std::unique_ptr<SubstitutionTarget>
createARMSubstitutionTarget(const TargetSubtargetInfo &STI) {
  return std::make_unique<ARMSubstitutions>(STI);
}

} // namespace divcc
