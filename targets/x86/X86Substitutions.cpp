//===- X86Substitutions.cpp - Equivalent x86-64 instructions --------------===//
//
// The x86-64 table of the instruction-substitution pass. Four families:
//
// 1. Alternate encodings. Every two-register ALU operation and move has two
//    opcodes: "op r/m, reg" and "op reg, r/m" (LLVM's rr and rr_REV). With
//    both operands registers they mean the same thing, flags included, and
//    only the opcode byte and the roles in the ModRM byte differ:
//        89 F0   mov %esi,%eax      <->  8B C6   mov %esi,%eax
//        01 C8   add %ecx,%eax      <->  03 C1   add %ecx,%eax
//    ADD ADC SUB SBB AND OR XOR CMP and MOV, 8/16/32/64 bits. TEST has one
//    opcode but is symmetric: test %eax,%ecx <-> test %ecx,%eax.
//
// 2. Register copies. mov %rsi,%rax <-> lea (%rsi),%rax; and
//    mov %esi,%eax <-> lea (%rsi),%eax (LEA64_32r: the 64-bit sum truncated
//    to 32 bits and zero-extended, exactly what a 32-bit mov leaves in
//    %rax). Neither touches the flags.
//
// 3. Zeroing idioms, only where the flags are dead: xor %eax,%eax <->
//    sub %eax,%eax. Both give 0 and the same CF/OF/SF/ZF/PF; AF differs
//    (undefined after xor), so dead flags are required all the same.
//
// 4. Adding a constant, only where the flags are dead (CF and AF differ,
//    inc/dec leave CF alone, lea writes no flags):
//        add $c,%r  <->  sub $-c,%r  <->  lea c(%r),%r  [<-> inc/dec %r]
//    The constant is taken modulo 2^width; 64-bit forms need it (or its
//    negation) to fit a signed 32-bit immediate.
//
// Never offered: anything that writes the stack pointer (left alone for the
// unwinder's sake), LEAs with an index, segment, symbol or RIP base. Every
// opcode is looked up by name once: their numbers are generated into
// headers the installed LLVM does not ship. Pairs that are retagged in place
// are checked to have identical operand descriptions.
//
//===----------------------------------------------------------------------===//

#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/x86/X86.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
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

/// The form kinds of this table (0, "as it is", is shared by all targets).
enum FormKind : unsigned {
  AsItIs = 0,
  Retag,   // same operands, other opcode
  Commute, // swap the two register operands of a symmetric comparison
  Rebuild, // other opcode with other operands: a new instruction
};

enum Width : unsigned { W8, W16, W32, W64, NumWidths };
constexpr unsigned Bits[NumWidths] = {8, 16, 32, 64};
constexpr const char *WidthName[NumWidths] = {"8", "16", "32", "64"};

enum Family : unsigned { Add, Adc, Sub, Sbb, And, Or, Xor, Cmp, NumFamilies };
constexpr const char *FamilyName[NumFamilies] = {"ADD", "ADC", "SUB", "SBB",
                                                 "AND", "OR",  "XOR", "CMP"};

/// What an opcode of the table is.
struct OpcodeInfo {
  enum Shape {
    AluRR, // op r, r (also CMP, which defines no register)
    MovRR,
    TestRR,
    AddRI, // add r, imm (also the ri8 forms)
    SubRI,
    Inc,
    Dec,
    Lea64,   // LEA64r
    Lea64_32 // LEA64_32r
  } Shape;
  Width W;
  Family F = Add; // AluRR only
  bool Rev = false;
};

/// A copy dst <- src, whichever instruction writes it.
struct CopyView {
  Width W;
  Register Dst, Src; // Src at width W
  bool SrcUndef;
};

/// dst <- dst + V (mod 2^width), whichever instruction writes it.
struct AddView {
  Width W;
  Register Dst;
  bool SrcUndef;
  uint64_t V;
};

uint64_t widthMask(Width W) { return maskTrailingOnes<uint64_t>(Bits[W]); }

class X86Substitutions final : public SubstitutionTarget {
public:
  explicit X86Substitutions(const TargetSubtargetInfo &STI);

  void equivalentForms(const MachineInstr &MI,
                       function_ref<bool()> FlagsDeadAfter,
                       SmallVectorImpl<SubstitutionForm> &Forms) const override;
  void rewrite(MachineInstr &MI, const SubstitutionForm &Form) const override;
  MCRegister flagsRegister() const override { return EFLAGS; }

private:
  MCRegister physReg(StringRef Name) const {
    return registerNamed(TRI, "x86", Name);
  }
  const TargetRegisterClass &regClass(StringRef Name) const;
  void add(unsigned Opc, OpcodeInfo Info) { Table[Opc] = Info; }
  /// Retagging \p From as \p To keeps every operand: check it is sound.
  void checkRetaggable(unsigned From, unsigned To) const;

  const OpcodeInfo *info(const MachineInstr &MI) const {
    auto It = Table.find(MI.getOpcode());
    return It == Table.end() ? nullptr : &It->second;
  }
  /// The 64-bit register whose low half is \p R32, if any.
  MCRegister super64(Register R32) const;
  /// The low 32 bits of \p R64, if it has them as a GR32.
  MCRegister sub32(Register R64) const;
  /// Whether a LEA is "lea disp(base),dst" with an immediate displacement.
  bool isPlainLea(const MachineInstr &MI) const;

  std::optional<CopyView> copyView(const MachineInstr &MI,
                                   const OpcodeInfo &I) const;
  std::optional<AddView> addView(const MachineInstr &MI,
                                 const OpcodeInfo &I) const;
  void copyForms(const MachineInstr &MI, const OpcodeInfo &I,
                 SmallVectorImpl<SubstitutionForm> &Forms) const;
  void addForms(const MachineInstr &MI, const OpcodeInfo &I,
                SmallVectorImpl<SubstitutionForm> &Forms) const;

  void rebuild(MachineInstr &MI, const SubstitutionForm &Form) const;
  /// replaceInstruction(), with the new instruction's flags marked dead if
  /// \p FlagsDead.
  void replace(MachineInstr &MI, unsigned Opc,
               ArrayRef<MachineOperand> Explicit, bool FlagsDead) const;

  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  OpcodeNames Opcodes; // Opcodes("NAME"): its number
  DenseMap<unsigned, OpcodeInfo> Table;

  std::array<unsigned, NumWidths> MovRR{}, MovRRRev{}, AddRI{}, SubRI{},
      IncR{}, DecR{};
  std::array<std::array<unsigned, NumWidths>, NumFamilies> AluRR{}, AluRRRev{};
  unsigned Lea64 = 0, Lea64_32 = 0;
  MCRegister EFLAGS, RSP, RIP;
  const TargetRegisterClass *GR32 = nullptr, *GR64 = nullptr;
};

X86Substitutions::X86Substitutions(const TargetSubtargetInfo &STI)
    : TII(*STI.getInstrInfo()), TRI(*STI.getRegisterInfo()),
      Opcodes(TII, "x86") {
  EFLAGS = physReg("eflags");
  RSP = physReg("rsp");
  RIP = physReg("rip");
  GR32 = &regClass("GR32");
  GR64 = &regClass("GR64");

  for (unsigned W = 0; W != NumWidths; ++W) {
    std::string N = WidthName[W];
    Width Wd = Width(W);
    for (unsigned F = 0; F != NumFamilies; ++F) {
      std::string Base = FamilyName[F] + N + "rr";
      AluRR[F][W] = Opcodes(Base);
      AluRRRev[F][W] = Opcodes(Base + "_REV");
      checkRetaggable(AluRR[F][W], AluRRRev[F][W]);
      add(AluRR[F][W], {OpcodeInfo::AluRR, Wd, Family(F), false});
      add(AluRRRev[F][W], {OpcodeInfo::AluRR, Wd, Family(F), true});
    }
    // The zeroing idiom retags across the two families.
    checkRetaggable(AluRR[Xor][W], AluRR[Sub][W]);

    MovRR[W] = Opcodes("MOV" + N + "rr");
    MovRRRev[W] = Opcodes("MOV" + N + "rr_REV");
    checkRetaggable(MovRR[W], MovRRRev[W]);
    add(MovRR[W], {OpcodeInfo::MovRR, Wd});
    add(MovRRRev[W], {OpcodeInfo::MovRR, Wd, Add, true});
    add(Opcodes("TEST" + N + "rr"), {OpcodeInfo::TestRR, Wd});

    // 64-bit immediates are sign-extended 32-bit ones ("ri32").
    std::string Imm = W == W64 ? "ri32" : "ri";
    AddRI[W] = Opcodes("ADD" + N + Imm);
    SubRI[W] = Opcodes("SUB" + N + Imm);
    add(AddRI[W], {OpcodeInfo::AddRI, Wd});
    add(SubRI[W], {OpcodeInfo::SubRI, Wd});
    // The short-immediate forms are only ever read, never produced: the
    // MC layer picks the shortest encoding by itself.
    add(Opcodes("ADD" + N + "ri8"), {OpcodeInfo::AddRI, Wd});
    add(Opcodes("SUB" + N + "ri8"), {OpcodeInfo::SubRI, Wd});
    IncR[W] = Opcodes("INC" + N + "r");
    DecR[W] = Opcodes("DEC" + N + "r");
    add(IncR[W], {OpcodeInfo::Inc, Wd});
    add(DecR[W], {OpcodeInfo::Dec, Wd});
  }
  Lea64 = Opcodes("LEA64r");
  Lea64_32 = Opcodes("LEA64_32r");
  add(Lea64, {OpcodeInfo::Lea64, W64});
  add(Lea64_32, {OpcodeInfo::Lea64_32, W32});
}

const TargetRegisterClass &X86Substitutions::regClass(StringRef Name) const {
  for (const TargetRegisterClass *RC : TRI.regclasses())
    if (TRI.getRegClassName(RC) == Name)
      return *RC;
  report_fatal_error(Twine("divcc: x86 register class not found: ") + Name);
}

void X86Substitutions::checkRetaggable(unsigned From, unsigned To) const {
  const MCInstrDesc &A = TII.get(From), &B = TII.get(To);
  bool Same = A.getNumOperands() == B.getNumOperands() &&
              A.getNumDefs() == B.getNumDefs() &&
              equal(A.implicit_defs(), B.implicit_defs()) &&
              equal(A.implicit_uses(), B.implicit_uses()) &&
              !A.mayLoad() && !A.mayStore() && !B.mayLoad() && !B.mayStore();
  for (unsigned I = 0; Same && I != A.getNumOperands(); ++I)
    Same = A.operands()[I].RegClass == B.operands()[I].RegClass &&
           A.operands()[I].OperandType == B.operands()[I].OperandType &&
           A.getOperandConstraint(I, MCOI::TIED_TO) ==
               B.getOperandConstraint(I, MCOI::TIED_TO);
  if (!Same)
    report_fatal_error(Twine("divcc: x86 opcodes differ in shape: ") +
                       TII.getName(From) + ", " + TII.getName(To));
}

MCRegister X86Substitutions::super64(Register R32) const {
  for (MCPhysReg Super : TRI.superregs(R32.asMCReg()))
    if (GR64->contains(Super) && Super != RIP)
      return Super;
  return MCRegister();
}

MCRegister X86Substitutions::sub32(Register R64) const {
  if (R64 == RIP)
    return MCRegister();
  for (MCPhysReg Sub : TRI.subregs(R64.asMCReg()))
    if (GR32->contains(Sub))
      return Sub;
  return MCRegister();
}

bool X86Substitutions::isPlainLea(const MachineInstr &MI) const {
  // Operands: dst, base, scale, index, displacement, segment.
  if (MI.getNumExplicitOperands() != 6)
    return false;
  const MachineOperand &Base = MI.getOperand(1), &Scale = MI.getOperand(2),
                       &Index = MI.getOperand(3), &Disp = MI.getOperand(4),
                       &Seg = MI.getOperand(5);
  return Base.isReg() && Base.getReg().isPhysical() && Base.getReg() != RIP &&
         GR64->contains(Base.getReg()) && Scale.isImm() &&
         Scale.getImm() == 1 && Index.isReg() && !Index.getReg() &&
         Disp.isImm() && isInt<32>(Disp.getImm()) && Seg.isReg() &&
         !Seg.getReg();
}

std::optional<CopyView>
X86Substitutions::copyView(const MachineInstr &MI, const OpcodeInfo &I) const {
  switch (I.Shape) {
  case OpcodeInfo::MovRR:
    return CopyView{I.W, MI.getOperand(0).getReg(), MI.getOperand(1).getReg(),
                    MI.getOperand(1).isUndef()};
  case OpcodeInfo::Lea64:
    if (!isPlainLea(MI) || MI.getOperand(4).getImm() != 0)
      return std::nullopt;
    return CopyView{W64, MI.getOperand(0).getReg(), MI.getOperand(1).getReg(),
                    MI.getOperand(1).isUndef()};
  case OpcodeInfo::Lea64_32: {
    if (!isPlainLea(MI) || MI.getOperand(4).getImm() != 0)
      return std::nullopt;
    MCRegister Src = sub32(MI.getOperand(1).getReg());
    if (!Src)
      return std::nullopt;
    return CopyView{W32, MI.getOperand(0).getReg(), Src,
                    MI.getOperand(1).isUndef()};
  }
  default:
    return std::nullopt;
  }
}

std::optional<AddView>
X86Substitutions::addView(const MachineInstr &MI, const OpcodeInfo &I) const {
  Register Dst = MI.getOperand(0).getReg();
  uint64_t Mask = widthMask(I.W);
  switch (I.Shape) {
  case OpcodeInfo::AddRI:
  case OpcodeInfo::SubRI: {
    const MachineOperand &Src = MI.getOperand(1), &Imm = MI.getOperand(2);
    if (Src.getReg() != Dst || !Imm.isImm())
      return std::nullopt;
    uint64_t C = uint64_t(Imm.getImm());
    if (I.Shape == OpcodeInfo::SubRI)
      C = -C;
    return AddView{I.W, Dst, Src.isUndef(), C & Mask};
  }
  case OpcodeInfo::Inc:
  case OpcodeInfo::Dec: {
    const MachineOperand &Src = MI.getOperand(1);
    if (Src.getReg() != Dst)
      return std::nullopt;
    return AddView{I.W, Dst, Src.isUndef(),
                   I.Shape == OpcodeInfo::Inc ? 1 : Mask};
  }
  case OpcodeInfo::Lea64:
  case OpcodeInfo::Lea64_32: {
    if (!isPlainLea(MI))
      return std::nullopt;
    Register Base = MI.getOperand(1).getReg();
    bool SameReg = I.Shape == OpcodeInfo::Lea64 ? Base == Dst
                                                 : Base == super64(Dst);
    if (!SameReg)
      return std::nullopt;
    return AddView{I.W, Dst, MI.getOperand(1).isUndef(),
                   uint64_t(MI.getOperand(4).getImm()) & Mask};
  }
  default:
    return std::nullopt;
  }
}

void X86Substitutions::copyForms(
    const MachineInstr &MI, const OpcodeInfo &I,
    SmallVectorImpl<SubstitutionForm> &Forms) const {
  std::optional<CopyView> C = copyView(MI, I);
  if (!C)
    return;
  Forms.push_back({AsItIs});
  if (I.Shape == OpcodeInfo::MovRR) {
    Forms.push_back({Retag, I.Rev ? MovRR[I.W] : MovRRRev[I.W]});
    if (I.W == W64)
      Forms.push_back({Rebuild, Lea64});
    else if (I.W == W32 && super64(C->Src))
      Forms.push_back({Rebuild, Lea64_32});
    return;
  }
  Forms.push_back({Rebuild, MovRR[C->W]});
  Forms.push_back({Rebuild, MovRRRev[C->W]});
}

void X86Substitutions::addForms(const MachineInstr &MI, const OpcodeInfo &I,
                                SmallVectorImpl<SubstitutionForm> &Forms) const {
  std::optional<AddView> A = addView(MI, I);
  if (!A || A->V == 0)
    return;
  uint64_t Mask = widthMask(A->W);
  int64_t Plus = SignExtend64(A->V, Bits[A->W]);
  int64_t Minus = SignExtend64(-A->V & Mask, Bits[A->W]);
  bool Wide = A->W == W64;
  SmallVector<SubstitutionForm, 5> Candidates;
  if (I.Shape != OpcodeInfo::AddRI && (!Wide || isInt<32>(Plus)))
    Candidates.push_back({Rebuild, AddRI[A->W], Plus, true});
  if (I.Shape != OpcodeInfo::SubRI && (!Wide || isInt<32>(Minus)))
    Candidates.push_back({Rebuild, SubRI[A->W], Minus, true});
  if (I.Shape != OpcodeInfo::Inc && A->V == 1)
    Candidates.push_back({Rebuild, IncR[A->W], 0, true});
  if (I.Shape != OpcodeInfo::Dec && A->V == Mask)
    Candidates.push_back({Rebuild, DecR[A->W], 0, true});
  if (A->W == W64 && I.Shape != OpcodeInfo::Lea64 && isInt<32>(Plus))
    Candidates.push_back({Rebuild, Lea64, Plus, true});
  if (A->W == W32 && I.Shape != OpcodeInfo::Lea64_32 && super64(A->Dst))
    Candidates.push_back({Rebuild, Lea64_32, Plus, true});
  if (Candidates.empty())
    return;
  Forms.push_back({AsItIs});
  Forms.append(Candidates.begin(), Candidates.end());
}

void X86Substitutions::equivalentForms(
    const MachineInstr &MI, function_ref<bool()> FlagsDeadAfter,
    SmallVectorImpl<SubstitutionForm> &Forms) const {
  const OpcodeInfo *I = info(MI);
  if (!I || MI.modifiesRegister(RSP, &TRI))
    return;
  for (const MachineOperand &MO : MI.explicit_operands())
    if (MO.isReg() && MO.getReg() && !MO.getReg().isPhysical())
      return;

  switch (I->Shape) {
  case OpcodeInfo::AluRR: {
    Forms.push_back({AsItIs});
    Forms.push_back(
        {Retag, I->Rev ? AluRR[I->F][I->W] : AluRRRev[I->F][I->W]});
    // Zeroing idiom: op r,r,r (the first two tied) in the xor/sub families.
    bool Zeroing = (I->F == Xor || I->F == Sub) &&
                   MI.getOperand(0).getReg() == MI.getOperand(1).getReg() &&
                   MI.getOperand(1).getReg() == MI.getOperand(2).getReg();
    if (Zeroing && FlagsDeadAfter()) {
      Family Other = I->F == Xor ? Sub : Xor;
      Forms.push_back({Retag, AluRR[Other][I->W], 0, true});
      Forms.push_back({Retag, AluRRRev[Other][I->W], 0, true});
    }
    return;
  }
  case OpcodeInfo::TestRR:
    if (MI.getOperand(0).getReg() != MI.getOperand(1).getReg()) {
      Forms.push_back({AsItIs});
      Forms.push_back({Commute});
    }
    return;
  case OpcodeInfo::MovRR:
    copyForms(MI, *I, Forms);
    return;
  case OpcodeInfo::Lea64:
  case OpcodeInfo::Lea64_32:
    if (copyView(MI, *I)) {
      copyForms(MI, *I, Forms);
      return;
    }
    // lea c(%r),%r adds a constant: an add only where the flags are dead.
    if (addView(MI, *I) && FlagsDeadAfter())
      addForms(MI, *I, Forms);
    return;
  case OpcodeInfo::AddRI:
  case OpcodeInfo::SubRI:
  case OpcodeInfo::Inc:
  case OpcodeInfo::Dec:
    if (addView(MI, *I) && FlagsDeadAfter())
      addForms(MI, *I, Forms);
    return;
  }
}

void X86Substitutions::rewrite(MachineInstr &MI,
                               const SubstitutionForm &Form) const {
  switch (FormKind(Form.Kind)) {
  case AsItIs:
    return;
  case Retag:
    MI.setDesc(TII.get(Form.Opcode));
    if (Form.ChangesFlags)
      for (MachineOperand &MO : MI.operands())
        if (MO.isReg() && MO.isDef() && MO.getReg() == EFLAGS)
          MO.setIsDead();
    return;
  case Commute:
    // Neither use is tied.
    commuteRegisterUses(MI, 0, 1);
    return;
  case Rebuild:
    rebuild(MI, Form);
    return;
  }
  llvm_unreachable("no such x86 substitution form");
}

void X86Substitutions::rebuild(MachineInstr &MI,
                               const SubstitutionForm &Form) const {
  const OpcodeInfo &I = *info(MI);
  // Kill flags are dropped: a widened or narrowed use would kill the wrong
  // register, and missing kills are always correct.
  auto Use = [](Register R, bool Undef) {
    return MachineOperand::CreateReg(R, /*isDef=*/false, /*isImp=*/false,
                                     /*isKill=*/false, /*isDead=*/false,
                                     Undef);
  };
  auto Imm = [](int64_t V) { return MachineOperand::CreateImm(V); };
  auto NoReg = [] { return MachineOperand::CreateReg(0, false); };
  const MachineOperand &Def = MI.getOperand(0);
  unsigned Opc = Form.Opcode;

  if (std::optional<CopyView> C = copyView(MI, I)) {
    if (Opc == Lea64 || Opc == Lea64_32) {
      Register Base = Opc == Lea64 ? C->Src : Register(super64(C->Src));
      replace(MI, Opc,
              {Def, Use(Base, C->SrcUndef), Imm(1), NoReg(), Imm(0), NoReg()},
              false);
    } else {
      replace(MI, Opc, {Def, Use(C->Src, C->SrcUndef)}, false);
    }
    return;
  }

  std::optional<AddView> A = addView(MI, I);
  if (!A)
    llvm_unreachable("rebuilding an x86 instruction without equivalents");
  if (Opc == Lea64 || Opc == Lea64_32) {
    Register Base = Opc == Lea64 ? A->Dst : Register(super64(A->Dst));
    replace(MI, Opc,
            {Def, Use(Base, A->SrcUndef), Imm(1), NoReg(), Imm(Form.Imm),
             NoReg()},
            true);
  } else if (Opc == IncR[A->W] || Opc == DecR[A->W]) {
    replace(MI, Opc, {Def, Use(A->Dst, A->SrcUndef)}, true);
  } else {
    replace(MI, Opc, {Def, Use(A->Dst, A->SrcUndef), Imm(Form.Imm)}, true);
  }
}

void X86Substitutions::replace(MachineInstr &MI, unsigned Opc,
                               ArrayRef<MachineOperand> Explicit,
                               bool FlagsDead) const {
  MachineInstr &New = replaceInstruction(MI, Opc, Explicit);
  if (FlagsDead)
    for (MachineOperand &MO : New.operands())
      if (MO.isReg() && MO.isDef() && MO.getReg() == EFLAGS)
        MO.setIsDead();
}

} // namespace

std::unique_ptr<SubstitutionTarget>
createX86SubstitutionTarget(const TargetSubtargetInfo &STI) {
  return std::make_unique<X86Substitutions>(STI);
}

} // namespace divcc
