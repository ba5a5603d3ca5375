//===- AArch64Substitutions.cpp - Equivalent AArch64 instructions ---------===//
//
// The AArch64 table of the instruction-substitution pass. Every instruction
// is four bytes, so a substitution moves nothing; it changes the bytes of
// the gadgets the instruction is part of, which is what the short gadgets
// of fixed-width code (`mov x0, x19 ; ldp x29, x30, [sp], #16 ; ret`) keep
// from one variant to the next. Three families, none of which writes or
// reads the flags differently from the original:
//
// 1. Register copies. LLVM writes `mov xd, xm` as `orr xd, xzr, xm`. The
//    same value comes out of ten other data-processing instructions, each
//    with other bytes:
//        orr xd, xm, xzr     orr xd, xm, xm      and xd, xm, xm
//        add xd, xzr, xm     add xd, xm, xzr     sub xd, xm, xzr
//        eor xd, xzr, xm     eor xd, xm, xzr
//        add xd, xm, #0      sub xd, xm, #0
//    (in the shifted-register forms register 31 is the zero register; in
//    the immediate forms it would be the stack pointer, so neither xd nor
//    xm may be it there, and they never are: ORR's operands cannot name
//    SP). The same in 32 bits, where every form writes wd and zeroes the
//    upper half of xd, as the `mov wd, wm` does.
//
// 2. Zeroing and small constants. `mov xd, xzr` (orr xd, xzr, xzr) and
//    `mov xd, #0` (movz) are also `and`, `eor`, `add` and `sub` of the zero
//    register with itself, in 64 and 32 bits. A `movz` of a constant that
//    is also a bitmask immediate (a rotated run of ones, repeated: 1, 3,
//    0xff, 0x10000, ...) is also `orr wd, wzr, #constant`.
//
// 3. Commutative operations. `add`, `adds`, `and`, `ands`, `orr` and `eor`
//    of two registers with no shift, and `madd` (`mul`), compute the same
//    with their two source registers swapped; the flags of `adds` and
//    `ands` (`cmn`, `tst`) come out the same, since addition and
//    conjunction commute bit for bit. So does a conditional select with
//    its sources swapped and its condition inverted:
//        csel wd, wn, wm, eq   <->   csel wd, wm, wn, ne
//    (every condition but `al` and `nv` has an inverse: the code with its
//    lowest bit flipped).
//
// Cost: none in instructions. Cores that rename a `mov` away (move
// elimination) execute the other copy forms as one-cycle ALU operations.
//
// Every opcode is looked up by name once: their numbers are generated into
// headers the installed LLVM does not ship.
//
//===----------------------------------------------------------------------===//

#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/aarch64/AArch64.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <optional>

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "aarch64";

/// The form kinds of this table (0, "as it is", is shared by all targets).
enum FormKind : unsigned {
  AsItIs = 0,
  ZeroFirst,   // op d, zr, m (shifted register, no shift)
  ZeroSecond,  // op d, m, zr
  SameTwice,   // op d, m, m
  PlusZero,    // op d, m, #0 (immediate)
  ZeroTwice,   // op d, zr, zr
  MoveZero,    // movz d, #0
  OrrImm,      // orr d, zr, #bitmask (Imm: the encoded N:immr:imms)
  Commute,     // swap the two source registers
  CommuteInvert, // swap them and invert the condition (csel)
};

enum Width : unsigned { W32, W64, NumWidths };

/// The N:immr:imms encoding of \p Value as a bitmask immediate of a
/// \p RegSize-bit logical instruction, if it is one: an element of 2 to
/// \p RegSize bits, repeated, that is a rotated run of ones. (LLVM's own,
/// AArch64_AM::processLogicalImmediate, is in a header it does not
/// install.)
std::optional<uint64_t> encodeBitmaskImmediate(uint64_t Value,
                                               unsigned RegSize) {
  uint64_t RegMask = RegSize == 64 ? ~0ULL : (1ULL << RegSize) - 1;
  if (Value == 0 || Value == RegMask || (Value & ~RegMask))
    return std::nullopt;
  // The smallest element that repeats to Value.
  unsigned Size = RegSize;
  while (Size > 2) {
    unsigned Half = Size / 2;
    uint64_t Mask = (1ULL << Half) - 1;
    if ((Value & Mask) != ((Value >> Half) & Mask))
      break;
    Size = Half;
  }
  uint64_t Mask = Size == 64 ? ~0ULL : (1ULL << Size) - 1;
  uint64_t Element = Value & Mask;
  // The element as ones rotated right by Rotation from 0...01...1.
  unsigned Ones, Rotation;
  if (isShiftedMask_64(Element)) {
    unsigned Zeros = countr_zero(Element);
    Ones = countr_one(Element >> Zeros);
    Rotation = (Size - Zeros) & (Size - 1);
  } else {
    // The ones wrap around: the zeros form a run instead.
    uint64_t Inverted = ~Element & Mask;
    if (!isShiftedMask_64(Inverted))
      return std::nullopt;
    unsigned Zeros = countr_zero(Inverted);
    unsigned ZeroRun = countr_one(Inverted >> Zeros);
    Ones = Size - ZeroRun;
    Rotation = (Size - (Zeros + ZeroRun)) & (Size - 1);
  }
  // imms: the element size in its high bits (N for 64), the ones less one.
  uint64_t Imms = (~uint64_t(Size - 1) << 1 | (Ones - 1)) & 0x3f;
  uint64_t N = Size == 64 ? 1 : 0;
  return N << 12 | uint64_t(Rotation) << 6 | Imms;
}

/// The opcodes of one width.
struct WidthOpcodes {
  unsigned Orr, And, Eor, Add, Sub; // shifted register
  unsigned AddImm, SubImm;
  unsigned MovZ, OrrImm;
  MCRegister ZR;
};

/// What an opcode of the table is.
struct OpcodeInfo {
  enum Shape {
    Orr,       // orr d, n, m, shift: a copy or zeroing when n is zr
    MovZ,      // movz d, imm, shift: zeroing when both are 0
    Commutable, // op d, n, m[, shift or addend]: n and m may swap
    Select      // csel d, n, m, cond
  } Shape;
  Width W;
  bool Shifted = false; // operand 3 is a shift, which must be 0
};

class AArch64Substitutions final : public SubstitutionTarget {
public:
  explicit AArch64Substitutions(const TargetSubtargetInfo &STI);

  void equivalentForms(const MachineInstr &MI,
                       function_ref<bool()> FlagsDeadAfter,
                       SmallVectorImpl<SubstitutionForm> &Forms) const override;
  void rewrite(MachineInstr &MI, const SubstitutionForm &Form) const override;
  MCRegister flagsRegister() const override { return NZCV; }

private:
  const OpcodeInfo *info(const MachineInstr &MI) const {
    auto It = Table.find(MI.getOpcode());
    return It == Table.end() ? nullptr : &It->second;
  }

  OpcodeNames Opcodes; // Opcodes("NAME"): its number
  DenseMap<unsigned, OpcodeInfo> Table;
  std::array<WidthOpcodes, NumWidths> Ops;
  MCRegister NZCV;
};

AArch64Substitutions::AArch64Substitutions(const TargetSubtargetInfo &STI)
    : Opcodes(*STI.getInstrInfo(), Name) {
  const TargetRegisterInfo &TRI = *STI.getRegisterInfo();
  NZCV = registerNamed(TRI, Name, "nzcv");
  for (unsigned W = 0; W != NumWidths; ++W) {
    std::string R = W == W64 ? "X" : "W";
    Ops[W] = {Opcodes("ORR" + R + "rs"),  Opcodes("AND" + R + "rs"),
              Opcodes("EOR" + R + "rs"),  Opcodes("ADD" + R + "rs"),
              Opcodes("SUB" + R + "rs"),  Opcodes("ADD" + R + "ri"),
              Opcodes("SUB" + R + "ri"),  Opcodes("MOVZ" + R + "i"),
              Opcodes("ORR" + R + "ri"),
              registerNamed(TRI, Name, W == W64 ? "xzr" : "wzr")};
    Width Wd = Width(W);
    Table[Ops[W].Orr] = {OpcodeInfo::Orr, Wd, true};
    Table[Ops[W].MovZ] = {OpcodeInfo::MovZ, Wd};
    for (const char *Op : {"ADD", "ADDS", "AND", "ANDS", "EOR"})
      Table[Opcodes(Op + R + "rs")] = {OpcodeInfo::Commutable, Wd, true};
    Table[Opcodes("MADD" + R + "rrr")] = {OpcodeInfo::Commutable, Wd};
    Table[Opcodes("CSEL" + R + "r")] = {OpcodeInfo::Select, Wd};
  }
}

void AArch64Substitutions::equivalentForms(
    const MachineInstr &MI, function_ref<bool()>,
    SmallVectorImpl<SubstitutionForm> &Forms) const {
  const OpcodeInfo *I = info(MI);
  if (!I)
    return;
  for (const MachineOperand &MO : MI.explicit_operands())
    if (MO.isReg() && MO.getReg() && !MO.getReg().isPhysical())
      return;
  const WidthOpcodes &O = Ops[I->W];
  if (I->Shifted && MI.getOperand(3).getImm() != 0)
    return;
  Register D = MI.getOperand(0).getReg();
  if (D == O.ZR && I->Shape != OpcodeInfo::Commutable)
    return;
  if (I->Shape == OpcodeInfo::Select) {
    // Condition codes 14 and 15 (al, nv) have no inverse.
    if (MI.getOperand(3).getImm() >= 14)
      return;
    Forms.push_back({AsItIs});
    Forms.push_back({CommuteInvert});
    return;
  }

  bool Zeroing = I->Shape == OpcodeInfo::MovZ
                     ? MI.getOperand(1).getImm() == 0 &&
                           MI.getOperand(2).getImm() == 0
                     : I->Shape == OpcodeInfo::Orr &&
                           MI.getOperand(1).getReg() == O.ZR &&
                           MI.getOperand(2).getReg() == O.ZR;
  if (Zeroing) {
    Forms.push_back({AsItIs});
    for (unsigned Opc : {O.Orr, O.And, O.Eor, O.Add, O.Sub})
      if (Opc != MI.getOpcode())
        Forms.push_back({ZeroTwice, Opc});
    if (I->Shape != OpcodeInfo::MovZ)
      Forms.push_back({MoveZero, O.MovZ});
    return;
  }
  if (I->Shape == OpcodeInfo::MovZ) {
    uint64_t Value = uint64_t(MI.getOperand(1).getImm())
                     << MI.getOperand(2).getImm();
    if (std::optional<uint64_t> Encoded =
            encodeBitmaskImmediate(Value, I->W == W64 ? 64 : 32)) {
      Forms.push_back({AsItIs});
      Forms.push_back({OrrImm, O.OrrImm, int64_t(*Encoded)});
    }
    return;
  }

  Register N = MI.getOperand(1).getReg(), M = MI.getOperand(2).getReg();
  if (I->Shape == OpcodeInfo::Orr && N == O.ZR) {
    // A copy d <- m.
    Forms.push_back({AsItIs});
    Forms.push_back({ZeroSecond, O.Orr});
    Forms.push_back({SameTwice, O.Orr});
    Forms.push_back({SameTwice, O.And});
    Forms.push_back({ZeroFirst, O.Add});
    Forms.push_back({ZeroSecond, O.Add});
    Forms.push_back({ZeroSecond, O.Sub});
    Forms.push_back({ZeroFirst, O.Eor});
    Forms.push_back({ZeroSecond, O.Eor});
    Forms.push_back({PlusZero, O.AddImm});
    Forms.push_back({PlusZero, O.SubImm});
    return;
  }
  // op d, n, m with two distinct registers: they may swap.
  if (N == M || N == O.ZR || M == O.ZR)
    return;
  if (MI.getOperand(1).isTied() || MI.getOperand(2).isTied())
    return;
  Forms.push_back({AsItIs});
  Forms.push_back({Commute});
}

void AArch64Substitutions::rewrite(MachineInstr &MI,
                                   const SubstitutionForm &Form) const {
  if (Form.Kind == AsItIs)
    return;
  if (Form.Kind == Commute || Form.Kind == CommuteInvert) {
    commuteRegisterUses(MI, 1, 2);
    if (Form.Kind == CommuteInvert)
      MI.getOperand(3).setImm(MI.getOperand(3).getImm() ^ 1);
    return;
  }
  const WidthOpcodes &O = Ops[info(MI)->W];
  // The register copied (none when zeroing), with its undef flag; kill
  // flags are dropped, since a form may read it twice, and missing kills
  // are always correct.
  const MachineOperand &Def = MI.getOperand(0);
  MachineOperand Src = MachineOperand::CreateReg(O.ZR, /*isDef=*/false);
  if (Form.Kind != ZeroTwice && Form.Kind != MoveZero)
    Src = MachineOperand::CreateReg(MI.getOperand(2).getReg(),
                                    /*isDef=*/false, /*isImp=*/false,
                                    /*isKill=*/false, /*isDead=*/false,
                                    MI.getOperand(2).isUndef());
  MachineOperand Zero = MachineOperand::CreateReg(O.ZR, /*isDef=*/false);
  MachineOperand NoShift = MachineOperand::CreateImm(0);
  switch (FormKind(Form.Kind)) {
  case ZeroFirst:
  case ZeroTwice:
    replaceInstruction(MI, Form.Opcode, {Def, Zero, Src, NoShift});
    return;
  case ZeroSecond:
    replaceInstruction(MI, Form.Opcode, {Def, Src, Zero, NoShift});
    return;
  case SameTwice:
    replaceInstruction(MI, Form.Opcode, {Def, Src, Src, NoShift});
    return;
  case PlusZero:
    replaceInstruction(MI, Form.Opcode,
                       {Def, Src, MachineOperand::CreateImm(0), NoShift});
    return;
  case MoveZero:
    replaceInstruction(MI, Form.Opcode,
                       {Def, MachineOperand::CreateImm(0), NoShift});
    return;
  case OrrImm:
    replaceInstruction(MI, Form.Opcode,
                       {Def, Zero, MachineOperand::CreateImm(Form.Imm)});
    return;
  case AsItIs:
  case Commute:
  case CommuteInvert:
    break;
  }
  llvm_unreachable("no such AArch64 substitution form");
}

} // namespace

std::unique_ptr<SubstitutionTarget>
createAArch64SubstitutionTarget(const TargetSubtargetInfo &STI) {
  return std::make_unique<AArch64Substitutions>(STI);
}

} // namespace divcc
