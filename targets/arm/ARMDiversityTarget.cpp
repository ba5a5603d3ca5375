//===- ARMDiversityTarget.cpp - 32-bit ARM knowledge for divcc ------------===//
//
// ARMv7-A Linux (Debian armhf): code in ARM state (four-byte instructions,
// clang's default for arm-linux-gnueabihf) or Thumb state (-mthumb: Thumb-2,
// two- and four-byte instructions, Debian gcc's default), chosen per
// function by the "thumb-mode" subtarget feature.
//
// No-op forms, three in each state, none of which changes a register, a
// flag or memory:
//
//   Thumb:  bf00       nop         ARM:  e320f000  nop
//           f3af 8000  nop.w             e1a00000  mov r0, r0
//           46c0       mov r8, r8        e1a08008  mov r8, r8
//
// The hints write nothing; the moves write a register with its own value,
// which makes its next reader wait, so `shift`, whose no-ops run on every
// call, takes only the hints, and also `mov`, `mvn` or `movw` of a constant
// 0 to 15 into any of r0-r12 and lr that is dead where it goes (the
// scratch no-ops: nothing reads that register before writing it again).
//
// Where the NOPs go in the pipeline. The late passes run right after the
// generic patchable-function pass (lateMachinePassAnchor):
//
//   ... if-conversion, IT blocks (Thumb2ITBlockPass: each IT instruction and
//   the instructions it predicates become one bundle), post-RA scheduling,
//   block placement, patchable-function, [divcc: nops, gaps], Thumb-2 size
//   reduction, unbundling, ..., constant islands, ...
//
// So no NOP goes inside an IT block (the NOP pass never inserts inside a
// bundle), and constant islands, which place literal pools within reach of
// their loads and relax branches that cannot reach, measure every inserted
// byte: a NOP never pushes a literal load or a branch out of range.
//
// Wide encodings in Thumb (the `prefixes` hooks). Most Thumb-2
// instructions LLVM emits have a two-byte form and a four-byte one that does
// the same (`adds r0, #1` and `adds.w r0, r0, #1`, `push {r4, lr}` and
// `push.w {r4, lr}`); Thumb-2 size reduction picks the narrow one wherever
// it can, so the free choice left is to widen. It is made right after that
// pass (encodingPassAnchor, the sanitizer-metadata pass), before constant
// islands, which measure it:
//
//   ..., patchable-function, [divcc: nops, gaps], Thumb-2 size reduction,
//   unbundling, ..., sanitizer metadata, [divcc: prefixes], ..., constant
//   islands, ...
//
// A narrow instruction is widened only to the wide opcode of the same
// operation, with the same operands and the same effect on the flags: a
// narrow ALU operation that sets them (every one outside an IT block) gets
// the wide form's S bit, one that does not, none. Left narrow: predicated
// instructions (inside IT blocks, where wide forms are deprecated on
// ARMv8), `cmp rN, #0` (constant islands folds the narrow one and the
// branch after it into cbz/cbnz), frame setup other than `push` (the
// EHABI unwind-table printer knows only some wide opcodes),
// single-register `push`/`pop` (their wide LDM/STM forms are
// UNPREDICTABLE), size-optimized functions, and any operand the wide
// form's register class does not hold (SP or PC where the wide encoding
// forbids them): LLVM's own descriptors decide.
//
// Traps: udf #222 (dede) in Thumb, udf #0 (e7f000f0) in ARM state. The fill
// byte of padding between sections is 0xde: dede is udf #222 at every
// two-byte offset in Thumb, and dededede an undefined coprocessor
// instruction (cdp p14) in ARM state.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/arm/ARM.h"

#include "llvm/CodeGen/MachineFrameInfo.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetFrameLowering.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "arm";
constexpr int64_t Always = 14; // ARMCC::AL, the condition of unpredicated code

/// The opcodes and registers of the NOP forms and traps, both states.
struct NopTable {
  explicit NopTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), ThumbHint(opcodeNamed(TII, Name, "tHINT")),
        ThumbWideHint(opcodeNamed(TII, Name, "t2HINT")),
        ThumbMove(opcodeNamed(TII, Name, "tMOVr")),
        ThumbTrap(opcodeNamed(TII, Name, "tUDF")),
        Hint(opcodeNamed(TII, Name, "HINT")),
        Move(opcodeNamed(TII, Name, "MOVr")),
        Trap(opcodeNamed(TII, Name, "UDF")),
        R0(registerNamed(*STI.getRegisterInfo(), Name, "r0")),
        R8(registerNamed(*STI.getRegisterInfo(), Name, "r8")),
        ThumbMode(featureNamed(STI, Name, "thumb-mode")) {
    OpcodeNames Opcode(TII, Name);
    bool Thumb = isThumb(STI);
    for (StringRef Op : {"MOVi", "MVNi", "MOVi16"})
      ScratchOpcodes.push_back(Opcode((Thumb ? "t2" : "") + Op.str()));
    for (StringRef R : {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8",
                        "r9", "r10", "r11", "r12", "lr"})
      ScratchRegisters.push_back(
          registerNamed(*STI.getRegisterInfo(), Name, R));
  }

  bool isThumb(const TargetSubtargetInfo &STI) const {
    return STI.getFeatureBits()[ThumbMode];
  }

  const TargetInstrInfo &TII;
  unsigned ThumbHint, ThumbWideHint, ThumbMove, ThumbTrap, Hint, Move, Trap;
  MCRegister R0, R8;
  unsigned ThumbMode;
  /// mov, mvn and movw of an immediate, in this state: the scratch no-ops.
  SmallVector<unsigned, 3> ScratchOpcodes;
  SmallVector<MCPhysReg, 14> ScratchRegisters;
};

/// The immediates a scratch no-op draws from: any, each with its own bytes.
constexpr unsigned ScratchImmediates = 16;

/// The general-purpose callee-saved registers one push can save: r4-r7,
/// which 16-bit Thumb push and pop encode, and r8-r11, which need the wide
/// forms (and, where r7 is the frame pointer, a push of their own); and
/// the callee-saved D registers, which vpush saves below them.
struct SaveTable {
  explicit SaveTable(const TargetSubtargetInfo &STI)
      : LR(registerNamed(*STI.getRegisterInfo(), Name, "lr")) {
    const TargetRegisterInfo &TRI = *STI.getRegisterInfo();
    for (StringRef R : {"r4", "r5", "r6", "r7"})
      Low.push_back(registerNamed(TRI, Name, R));
    for (StringRef R : {"r8", "r9", "r10", "r11"})
      High.push_back(registerNamed(TRI, Name, R));
    for (StringRef R : {"d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"})
      Double.push_back(registerNamed(TRI, Name, R));
  }

  MCRegister LR;
  SmallVector<MCRegister, 4> Low, High;
  SmallVector<MCRegister, 8> Double;
};

/// How a narrow Thumb instruction is written wide.
struct WideForm {
  unsigned Opcode;
  /// The narrow form's immediate offset counts units of this many bytes
  /// (`ldr r0, [r1, #4]` holds 1), the wide form's counts bytes.
  unsigned Scale = 1;
  /// The wide form has an operand the narrow one implies, 0 in it: the
  /// shift of a register offset, the rotation of an extension, the #0 of
  /// `rsbs rd, rn, #0`.
  bool AddsZero = false;
  /// push and pop: the wide forms are stores and loads of several
  /// registers that name SP as their base and write it back.
  bool WritesBackSP = false;
};

/// The narrow Thumb instructions divcc widens, and their wide forms.
struct WideFormTable {
  explicit WideFormTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), TRI(*STI.getRegisterInfo()),
        SP(registerNamed(TRI, Name, "sp")),
        Push(opcodeNamed(TII, Name, "tPUSH")),
        CompareImmediate(opcodeNamed(TII, Name, "tCMPi8")) {
    OpcodeNames Opcode(TII, Name);
    const std::pair<StringRef, WideForm> Rows[] = {
        // Data processing; flags as the narrow form sets them.
        {"tADDi3", {Opcode("t2ADDri")}},
        {"tADDi8", {Opcode("t2ADDri")}},
        {"tADDrr", {Opcode("t2ADDrr")}},
        {"tADDhirr", {Opcode("t2ADDrr")}},
        {"tADDrSPi", {Opcode("t2ADDri"), 4}},
        {"tADDspi", {Opcode("t2ADDspImm"), 4}},
        {"tSUBspi", {Opcode("t2SUBspImm"), 4}},
        {"tSUBi3", {Opcode("t2SUBri")}},
        {"tSUBi8", {Opcode("t2SUBri")}},
        {"tSUBrr", {Opcode("t2SUBrr")}},
        {"tRSB", {Opcode("t2RSBri"), 1, true}},
        {"tADC", {Opcode("t2ADCrr")}},
        {"tSBC", {Opcode("t2SBCrr")}},
        {"tAND", {Opcode("t2ANDrr")}},
        {"tORR", {Opcode("t2ORRrr")}},
        {"tEOR", {Opcode("t2EORrr")}},
        {"tBIC", {Opcode("t2BICrr")}},
        {"tMVN", {Opcode("t2MVNr")}},
        {"tMOVi8", {Opcode("t2MOVi")}},
        {"tMOVr", {Opcode("t2MOVr")}},
        {"tLSLri", {Opcode("t2LSLri")}},
        {"tLSRri", {Opcode("t2LSRri")}},
        {"tASRri", {Opcode("t2ASRri")}},
        {"tLSLrr", {Opcode("t2LSLrr")}},
        {"tLSRrr", {Opcode("t2LSRrr")}},
        {"tASRrr", {Opcode("t2ASRrr")}},
        {"tROR", {Opcode("t2RORrr")}},
        {"tCMPi8", {Opcode("t2CMPri")}},
        {"tCMPr", {Opcode("t2CMPrr")}},
        {"tCMPhir", {Opcode("t2CMPrr")}},
        {"tCMNz", {Opcode("t2CMNzrr")}},
        {"tTST", {Opcode("t2TSTrr")}},
        {"tSXTB", {Opcode("t2SXTB"), 1, true}},
        {"tSXTH", {Opcode("t2SXTH"), 1, true}},
        {"tUXTB", {Opcode("t2UXTB"), 1, true}},
        {"tUXTH", {Opcode("t2UXTH"), 1, true}},
        {"tREV", {Opcode("t2REV")}},
        {"tREV16", {Opcode("t2REV16")}},
        // Loads and stores.
        {"tLDRi", {Opcode("t2LDRi12"), 4}},
        {"tLDRspi", {Opcode("t2LDRi12"), 4}},
        {"tLDRHi", {Opcode("t2LDRHi12"), 2}},
        {"tLDRBi", {Opcode("t2LDRBi12")}},
        {"tSTRi", {Opcode("t2STRi12"), 4}},
        {"tSTRspi", {Opcode("t2STRi12"), 4}},
        {"tSTRHi", {Opcode("t2STRHi12"), 2}},
        {"tSTRBi", {Opcode("t2STRBi12")}},
        {"tLDRr", {Opcode("t2LDRs"), 1, true}},
        {"tLDRHr", {Opcode("t2LDRHs"), 1, true}},
        {"tLDRBr", {Opcode("t2LDRBs"), 1, true}},
        {"tLDRSH", {Opcode("t2LDRSHs"), 1, true}},
        {"tLDRSB", {Opcode("t2LDRSBs"), 1, true}},
        {"tSTRr", {Opcode("t2STRs"), 1, true}},
        {"tSTRHr", {Opcode("t2STRHs"), 1, true}},
        {"tSTRBr", {Opcode("t2STRBs"), 1, true}},
        // push and pop.
        {"tPUSH", {Opcode("t2STMDB_UPD"), 1, false, true}},
        {"tPOP", {Opcode("t2LDMIA_UPD"), 1, false, true}},
        {"tPOP_RET", {Opcode("t2LDMIA_RET"), 1, false, true}},
    };
    for (const auto &[Narrow, Form] : Rows)
      Forms.try_emplace(Opcode(Narrow), Form);
  }

  /// The explicit operands of \p MI's wide form \p F, in the wide form's
  /// order: the narrow form's, without its optional flags definition, which
  /// becomes the wide form's last operand (or no register, if the narrow
  /// form has none).
  SmallVector<MachineOperand, 8> wideOperands(const MachineInstr &MI,
                                              const WideForm &F) const {
    SmallVector<MachineOperand, 8> Ops;
    if (F.WritesBackSP) {
      Ops.push_back(MachineOperand::CreateReg(SP, /*isDef=*/true));
      Ops.push_back(MachineOperand::CreateReg(SP, /*isDef=*/false));
    }
    const MCInstrDesc &Narrow = MI.getDesc();
    int Pred = MI.findFirstPredOperandIdx();
    std::optional<MachineOperand> Flags;
    for (unsigned I = 0, E = MI.getNumExplicitOperands(); I != E; ++I) {
      const MachineOperand &MO = MI.getOperand(I);
      if (int(I) == Pred && F.AddsZero)
        Ops.push_back(MachineOperand::CreateImm(0));
      if (I < Narrow.getNumOperands() && Narrow.operands()[I].isOptionalDef())
        Flags = MO;
      else if (int(I) == Pred - 1 && F.Scale != 1)
        Ops.push_back(MachineOperand::CreateImm(MO.getImm() * F.Scale));
      else
        Ops.push_back(MO);
    }
    if (TII.get(F.Opcode).hasOptionalDef())
      Ops.push_back(Flags ? *Flags : MachineOperand::CreateReg(0, false));
    return Ops;
  }

  const TargetInstrInfo &TII;
  const TargetRegisterInfo &TRI;
  MCRegister SP;
  unsigned Push, CompareImmediate;
  DenseMap<unsigned, WideForm> Forms;
};

class ARMDiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override { return 3; }
  // The hints: nop, and in Thumb nop.w (ARM state's second form writes r0).
  unsigned idleNopFormCount(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).isThumb(STI) ? 2 : 1;
  }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const TargetSubtargetInfo &STI = MBB.getParent()->getSubtarget();
    const NopTable &T = Nops.get(STI);
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    bool Thumb = T.isThumb(STI);
    // Every form is unpredicated: condition "always", no flags register.
    auto Hint = [&](unsigned Opc) {
      BuildMI(MBB, I, DL, T.TII.get(Opc)).addImm(0).addImm(Always).addReg(0);
    };
    auto MoveToItself = [&](MCRegister R) {
      auto MIB = BuildMI(MBB, I, DL, T.TII.get(Thumb ? T.ThumbMove : T.Move), R)
                     .addReg(R, RegState::Undef)
                     .addImm(Always)
                     .addReg(0);
      if (!Thumb)
        MIB.addReg(0); // ARM state's optional "s", off: flags untouched
    };
    switch (Form) {
    case 0:
      return Hint(Thumb ? T.ThumbHint : T.Hint);
    case 1:
      return Thumb ? Hint(T.ThumbWideHint) : MoveToItself(T.R0);
    case 2:
      return MoveToItself(T.R8);
    }
    llvm_unreachable("no such ARM NOP form");
  }

  // mov, mvn or movw of a small constant into a register dead there, as
  // costly as the hint (one instruction that no other waits for), with
  // 48 byte patterns for each such register where the hint has one. In
  // Thumb, size reduction narrows a `mov.w` of a low register to the
  // two-byte `movs` wherever the flags are dead too.
  ArrayRef<MCPhysReg>
  scratchNopRegisters(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).ScratchRegisters;
  }
  unsigned
  scratchNopFormCount(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).ScratchOpcodes.size() * ScratchImmediates;
  }
  void insertScratchNop(MachineBasicBlock &MBB,
                        MachineBasicBlock::instr_iterator I, MCRegister Dead,
                        unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    const MCInstrDesc &Desc =
        T.TII.get(T.ScratchOpcodes[Form / ScratchImmediates]);
    auto MIB = BuildMI(MBB, I, DL, Desc)
                   .addReg(Dead, RegState::Define | RegState::Dead)
                   .addImm(Form % ScratchImmediates)
                   .addImm(Always)
                   .addReg(0);
    if (Desc.hasOptionalDef())
      MIB.addReg(0); // the optional "s", off: flags untouched
  }

  // More registers in the push and pop the function has, at most two, as
  // long as no instruction comes with them. The frame lowering keeps the
  // stack 8-byte aligned by saving an even number of general-purpose
  // registers:
  // where the function saves an odd number, it adds one itself (in Thumb a
  // low one), and any such register is free; where an even number, a pair
  // is. In Thumb only low registers, unless the function saves a high one
  // already: a first high register needs the wide push and pop, two bytes
  // more each, which only pays where it replaces the `sub sp` that pads an
  // odd number when no low register is left (and no locals follow, whose
  // offset would change).
  SmallVector<SmallVector<MCPhysReg, 2>, 8>
  freeCalleeSaveChoices(const MachineFunction &MF) const override {
    const TargetSubtargetInfo &STI = MF.getSubtarget();
    const SaveTable &T = Saves.get(STI);
    const MachineRegisterInfo &MRI = MF.getRegInfo();
    bool HasFP = STI.getFrameLowering()->hasFP(MF);
    MCRegister FP = STI.getRegisterInfo()->getFrameRegister(MF);
    auto IsSaved = [&](MCRegister R) {
      return MRI.isPhysRegModified(R) || (HasFP && R == FP);
    };
    unsigned Saved = count_if(T.Low, IsSaved) + count_if(T.High, IsSaved);
    // LR goes with any other, so that the restore returns.
    Saved += Saved || HasFP || MRI.isPhysRegModified(T.LR);
    // Frames whose layout depends on more than the count: D registers
    // saved below the general-purpose ones (padded between), arguments
    // saved on entry (variadic or by value), or sp moved at run time.
    const Function &F = MF.getFunction();
    const MachineFrameInfo &MFI = MF.getFrameInfo();
    if (Saved == 0 || F.hasFnAttribute(Attribute::Naked) || F.isVarArg() ||
        any_of(F.args(), [](const Argument &A) { return A.hasByValAttr(); }) ||
        any_of(T.Double, IsSaved) || MFI.hasVarSizedObjects() ||
        STI.getRegisterInfo()->hasStackRealignment(MF))
      return {};
    SmallVector<MCPhysReg, 8> FreeLow, FreeHigh;
    for (const MCPhysReg *R = MRI.getCalleeSavedRegs(); R && *R; ++R) {
      if (MRI.isReserved(*R) || IsSaved(*R))
        continue;
      if (is_contained(T.Low, *R))
        FreeLow.push_back(*R);
      else if (is_contained(T.High, *R))
        FreeHigh.push_back(*R);
    }
    bool HasLocals = MFI.getMaxCallFrameSize() > 0;
    for (int I = 0, E = MFI.getObjectIndexEnd(); I != E && !HasLocals; ++I)
      HasLocals = !MFI.isDeadObjectIndex(I) && MFI.getObjectSize(I) > 0;
    bool Odd = Saved % 2 == 1;
    SmallVector<MCPhysReg, 8> Free = FreeLow;
    if (!Nops.get(STI).isThumb(STI) || any_of(T.High, IsSaved) ||
        (Odd && !HasLocals && FreeLow.empty()))
      Free.append(FreeHigh);
    SmallVector<SmallVector<MCPhysReg, 2>, 8> Choices;
    if (Odd) {
      for (MCPhysReg R : Free)
        Choices.push_back({R});
      return Choices;
    }
    Choices.emplace_back();
    for (size_t I = 0; I != Free.size(); ++I)
      for (size_t J = I + 1; J != Free.size(); ++J)
        Choices.push_back({Free[I], Free[J]});
    return Choices;
  }

  // ARM state only (ARMSubstitutions.cpp): Thumb opcodes are not in it.
  std::unique_ptr<SubstitutionTarget>
  createSubstitutions(const TargetSubtargetInfo &STI) const override {
    return createARMSubstitutionTarget(STI);
  }

  // No landing pads on ARMv7-A (BTI is M-profile and AArch64).
  bool mustStayFirst(const MachineInstr &) const override { return false; }

  // Constant islands measure code size: the late passes run before them.
  AnalysisID lateMachinePassAnchor() const override {
    return &PatchableFunctionID;
  }
  // Thumb-2 size reduction narrows what it can: wide forms are chosen after.
  AnalysisID encodingPassAnchor() const override {
    return &MachineSanitizerBinaryMetadataID;
  }

  // Wide encodings in Thumb (see the top of the file).
  unsigned redundantPrefixCount() const override { return 1; }
  double defaultPrefixProbability() const override { return 0.1; }

  bool acceptsRedundantPrefix(const MachineInstr &MI) const override {
    const MachineFunction &MF = *MI.getMF();
    const TargetSubtargetInfo &STI = MF.getSubtarget();
    const WideFormTable &T = WideForms.get(STI);
    auto Row = T.Forms.find(MI.getOpcode());
    if (Row == T.Forms.end() || !Nops.get(STI).isThumb(STI) ||
        MF.getFunction().hasMinSize() || MI.isBundled() ||
        T.TII.isPredicated(MI) ||
        (MI.getFlag(MachineInstr::FrameSetup) && MI.getOpcode() != T.Push))
      return false;
    // Constant islands folds `cmp rN, #0` and the branch after it into
    // cbz/cbnz, but only the narrow compare.
    if (MI.getOpcode() == T.CompareImmediate && MI.getOperand(1).getImm() == 0)
      return false;
    const WideForm &F = Row->second;
    const MCInstrDesc &Wide = T.TII.get(F.Opcode);
    SmallVector<MachineOperand, 8> Ops = T.wideOperands(MI, F);
    for (unsigned I = 0; I < Ops.size(); ++I) {
      if (!Ops[I].isReg() || !Ops[I].getReg())
        continue;
      if (I >= Wide.getNumOperands())
        continue; // a register of push's or pop's list
      const TargetRegisterClass *RC = T.TII.getRegClass(Wide, I, &T.TRI, MF);
      if (RC && !RC->contains(Ops[I].getReg()))
        return false;
    }
    // LDM and STM of one register are UNPREDICTABLE. The list starts at
    // the wide form's last fixed operand.
    return !F.WritesBackSP || Ops.size() + 1 - Wide.getNumOperands() >= 2;
  }

  void addRedundantPrefix(MachineInstr &MI, unsigned) const override {
    MachineFunction &MF = *MI.getMF();
    const WideFormTable &T = WideForms.get(MF.getSubtarget());
    const WideForm &F = T.Forms.find(MI.getOpcode())->second;
    MachineInstr *Wide = MF.CreateMachineInstr(T.TII.get(F.Opcode),
                                               MI.getDebugLoc(), true);
    MachineInstrBuilder B(MF, Wide);
    for (const MachineOperand &MO : T.wideOperands(MI, F))
      B.add(MO);
    for (const MachineOperand &MO : MI.implicit_operands())
      if (!F.WritesBackSP || MO.getReg() != T.SP) // explicit in the wide form
        B.add(MO);
    B.setMIFlags(MI.getFlags());
    B.cloneMemRefs(MI);
    MI.getParent()->insert(MI.getIterator(), Wide);
    MI.eraseFromParent();
  }

  // No GNU program property marks 32-bit ARM objects. The code's short
  // gadgets (`bx lr`, `pop {..., pc}`) meet at the same address in two
  // variants whose code moved by the same amount: it moves over 64 KiB,
  // not 4, to make that rare.
  TrapPadding trapPadding() const override {
    return {0xde, 0, 0, 65536};
  }

  unsigned trapSize(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).isThumb(STI) ? 2 : 4;
  }
  // In Thumb, wide encodings move code too, so a narrower first gap:
  // 24 bytes, with `prefixes` at 0.1, keep 10.1% of the three projects'
  // gadgets at their offset for 1.070x clang-19's .text, against 10.5%
  // for 1.077x with 16 bytes at 0.15 (docs/performance.md). ARM state
  // has the common 44.
  unsigned
  defaultFirstGapBytes(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).isThumb(STI)
               ? 24
               : DiversityTarget::defaultFirstGapBytes(STI);
  }
  void appendTrap(MachineBasicBlock &MBB) const override {
    const TargetSubtargetInfo &STI = MBB.getParent()->getSubtarget();
    const NopTable &T = Nops.get(STI);
    if (T.isThumb(STI))
      BuildMI(&MBB, DebugLoc(), T.TII.get(T.ThumbTrap)).addImm(0xde);
    else
      BuildMI(&MBB, DebugLoc(), T.TII.get(T.Trap)).addImm(0);
  }

  std::unique_ptr<GadgetTarget>
  createGadgetTarget(const MCInstrInfo &MII,
                     const MCRegisterInfo &MRI) const override {
    return createARMGadgetTarget(MII, MRI);
  }

private:
  LazyTable<NopTable> Nops;
  LazyTable<WideFormTable> WideForms;
  LazyTable<SaveTable> Saves;
};

} // namespace

std::unique_ptr<DiversityTarget> createARMDiversityTarget() {
  return std::make_unique<ARMDiversityTarget>();
}

} // namespace divcc
