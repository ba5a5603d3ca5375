//===- RISCVDiversityTarget.cpp - RISC-V 64 knowledge for divcc -----------===//
//
// No-op forms. RISC-V instructions are four bytes, or two with the C
// extension (RV64GC, Debian's riscv64), and start at any two-byte boundary
// then. Every form writes only x0, the zero register, and so changes no
// register, memory or state:
//
//   00000013    addi x0, x0, 0     nop (0001, c.nop, when C compresses it)
//   00007013    andi x0, x0, 0
//   00004013    xori x0, x0, 0
//
// Register-immediate operations with rd = x0 are HINTs the ISA reserves for
// future standard use and that cores execute as no-ops; the register forms
// are not used (add x0, x0, x2..x5 are the Zihintntl locality hints), nor
// ori (Zicbop's prefetches), nor slti/sltiu (reserved for custom use). The
// upper half of each four-byte form is 0000, c.unimp, so decoding from its
// middle finds a trap, not a gadget.
//
// Where the NOPs go in the pipeline. RISC-V's conditional branches reach
// +-4 KiB (+-256 B compressed), and LLVM's branch relaxation pass rewrites
// the ones that cannot reach, from sizes measured before emission; it runs
// in the target's pre-emit passes, right after the generic
// patchable-function pass (lateMachinePassAnchor), where divcc's late
// passes run:
//
//   ... block placement, fentry, xray, patchable-function, [divcc: subst,
//   nops], copy propagation, branch relaxation, make-compressible, ...,
//   pseudo expansion (call, tail, lla: auipc pairs), assembly printer
//
// So every inserted instruction is measured by branch relaxation, and the
// pseudos that become auipc pairs (calls, tail calls, address loads) are
// expanded after the NOPs, which therefore never come between an auipc and
// its pair. A NOP measured as four bytes may be emitted as c.nop: branch
// relaxation errs on the safe side.
//
// Full encodings (the `prefixes` hooks). With C, LLVM's assembly printer
// emits every instruction that has a two-byte form in that form (c.li,
// c.addi, c.ld, c.sd, c.add, ...); the four-byte form of the same
// instruction does the same thing, two bytes longer, so that everything
// after it in the function moves, as a redundant prefix does on x86-64.
// The printer compresses whatever it can, so the full form is written as
// the ISA's generic instruction of the same format and fields (the
// `.insn` directive's instructions InsnI, InsnR, InsnI_Mem, InsnS, InsnU),
// which it has no two-byte form for: same bytes as the uncompressed
// instruction, and four bytes to branch relaxation, which runs after. Only
// instructions LLVM would compress are accepted (getInstSizeInBytes is 2),
// from a table of their opcodes and fields, and never a copy (`mv`,
// `addi rd, rs, 0`): the copy propagation pass that runs after divcc's late
// passes sees copies by opcode, and must find clang's. The `.insn` forms
// claim side effects, so that nothing after them moves them.
//
// Traps: c.unimp (0000) twice, four bytes, where C is available; unimp
// (c0001073) otherwise. All-zero bytes are an illegal instruction at every
// two-byte offset, which is what trap padding between sections is made of.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/TargetNames.h"
#include "targets/riscv/RISCV.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "riscv64";

/// The opcodes and registers of the NOP forms and traps.
struct NopTable {
  explicit NopTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), Forms{opcodeNamed(TII, Name, "ADDI"),
                                        opcodeNamed(TII, Name, "ANDI"),
                                        opcodeNamed(TII, Name, "XORI")},
        CompressedTrap(opcodeNamed(TII, Name, "C_UNIMP")),
        Trap(opcodeNamed(TII, Name, "UNIMP")),
        X0(registerNamed(*STI.getRegisterInfo(), Name, "x0")),
        Compressed(featureNamed(STI, Name, "c")) {}

  const TargetInstrInfo &TII;
  std::array<unsigned, 3> Forms;
  unsigned CompressedTrap, Trap;
  MCRegister X0;
  unsigned Compressed;
};

/// How the full form of a compressible instruction is written: its format
/// (the `.insn` instruction to write it with) and fixed fields.
struct FullForm {
  enum Format { I, IArithmeticShift, R, Load, Store, U };
  Format Kind;
  unsigned Major;     // opcode, bits 6:0
  unsigned Funct3 = 0;
  unsigned Funct7 = 0; // R: bits 31:25
  // R: whether rs1 and rs2 may be swapped. c.add rd, rs stands for
  // add rd, rd, rs, and LLVM compresses add rd, rs, rd to it too: the full
  // form must then be written with the operands swapped, as the two-byte
  // one reads.
  bool Commutes = false;
};

/// The compressible instructions of RV64GC that divcc writes in full, and
/// the `.insn` instructions it writes them with.
struct FullFormTable {
  explicit FullFormTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), InsnI(opcodeNamed(TII, Name, "InsnI")),
        InsnR(opcodeNamed(TII, Name, "InsnR")),
        InsnLoad(opcodeNamed(TII, Name, "InsnI_Mem")),
        InsnStore(opcodeNamed(TII, Name, "InsnS")),
        InsnU(opcodeNamed(TII, Name, "InsnU")),
        Compressed(featureNamed(STI, Name, "c")) {
    const std::pair<StringRef, FullForm> Rows[] = {
        {"ADDI", {FullForm::I, 0x13, 0}},
        {"ADDIW", {FullForm::I, 0x1b, 0}},
        {"ANDI", {FullForm::I, 0x13, 7}},
        {"SLLI", {FullForm::I, 0x13, 1}},
        {"SRLI", {FullForm::I, 0x13, 5}},
        {"SRAI", {FullForm::IArithmeticShift, 0x13, 5}},
        {"ADD", {FullForm::R, 0x33, 0, 0x00, true}},
        {"SUB", {FullForm::R, 0x33, 0, 0x20}},
        {"XOR", {FullForm::R, 0x33, 4, 0x00, true}},
        {"OR", {FullForm::R, 0x33, 6, 0x00, true}},
        {"AND", {FullForm::R, 0x33, 7, 0x00, true}},
        {"ADDW", {FullForm::R, 0x3b, 0, 0x00, true}},
        {"SUBW", {FullForm::R, 0x3b, 0, 0x20}},
        {"LW", {FullForm::Load, 0x03, 2}},
        {"LD", {FullForm::Load, 0x03, 3}},
        {"FLD", {FullForm::Load, 0x07, 3}},
        {"SW", {FullForm::Store, 0x23, 2}},
        {"SD", {FullForm::Store, 0x23, 3}},
        {"FSD", {FullForm::Store, 0x27, 3}},
        {"LUI", {FullForm::U, 0x37}},
    };
    for (const auto &[Opcode, Form] : Rows)
      Forms.try_emplace(opcodeNamed(TII, Name, Opcode), Form);
  }

  const TargetInstrInfo &TII;
  unsigned InsnI, InsnR, InsnLoad, InsnStore, InsnU;
  unsigned Compressed;
  DenseMap<unsigned, FullForm> Forms;
};

class RISCVDiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override {
    return std::tuple_size_v<decltype(NopTable::Forms)>;
  }
  // Every form writes nothing but x0.
  unsigned idleNopFormCount(const TargetSubtargetInfo &) const override {
    return nopFormCount();
  }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    if (Form >= T.Forms.size())
      llvm_unreachable("no such RISC-V NOP form");
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    BuildMI(MBB, I, DL, T.TII.get(T.Forms[Form]), T.X0).addReg(T.X0).addImm(0);
  }

  // Full encodings of compressible instructions (see the top of the file).
  unsigned redundantPrefixCount() const override { return 1; }
  double defaultPrefixProbability() const override { return 0.1; }

  bool acceptsRedundantPrefix(const MachineInstr &MI) const override {
    const TargetSubtargetInfo &STI = MI.getMF()->getSubtarget();
    const FullFormTable &T = FullForms.get(STI);
    if (!STI.getFeatureBits()[T.Compressed] || MI.isBundled() ||
        !T.Forms.contains(MI.getOpcode()) || T.TII.isCopyInstr(MI))
      return false;
    for (const MachineOperand &MO : MI.explicit_operands())
      if (!MO.isReg() && !MO.isImm())
        return false;
    return T.TII.getInstSizeInBytes(MI) == 2;
  }

  void addRedundantPrefix(MachineInstr &MI, unsigned) const override {
    const FullFormTable &T = FullForms.get(MI.getMF()->getSubtarget());
    const FullForm &F = T.Forms.find(MI.getOpcode())->second;
    auto Op = [&](unsigned I) -> const MachineOperand & {
      return MI.getOperand(I);
    };
    MachineBasicBlock &MBB = *MI.getParent();
    MachineInstrBuilder B;
    switch (F.Kind) {
    case FullForm::I:
    case FullForm::IArithmeticShift: {
      int64_t Imm = Op(2).getImm();
      if (F.Kind == FullForm::IArithmeticShift)
        Imm |= 0x400; // funct6 0b010000 above the shift amount
      B = BuildMI(MBB, MI, MI.getDebugLoc(), T.TII.get(T.InsnI))
              .add(Op(0)).addImm(F.Major).addImm(F.Funct3).add(Op(1))
              .addImm(Imm);
      break;
    }
    case FullForm::R: {
      bool Swap = F.Commutes && Op(0).getReg() == Op(2).getReg() &&
                  Op(0).getReg() != Op(1).getReg();
      B = BuildMI(MBB, MI, MI.getDebugLoc(), T.TII.get(T.InsnR))
              .add(Op(0)).addImm(F.Major).addImm(F.Funct3).addImm(F.Funct7)
              .add(Op(Swap ? 2 : 1)).add(Op(Swap ? 1 : 2));
      break;
    }
    case FullForm::Load:
      B = BuildMI(MBB, MI, MI.getDebugLoc(), T.TII.get(T.InsnLoad))
              .add(Op(0)).addImm(F.Major).addImm(F.Funct3).add(Op(1))
              .add(Op(2));
      break;
    case FullForm::Store:
      B = BuildMI(MBB, MI, MI.getDebugLoc(), T.TII.get(T.InsnStore))
              .addImm(F.Major).addImm(F.Funct3).add(Op(0)).add(Op(1))
              .add(Op(2));
      break;
    case FullForm::U:
      B = BuildMI(MBB, MI, MI.getDebugLoc(), T.TII.get(T.InsnU))
              .add(Op(0)).addImm(F.Major).add(Op(1));
      break;
    }
    for (const MachineOperand &MO : MI.implicit_operands())
      B.add(MO);
    B.setMIFlags(MI.getFlags());
    B.cloneMemRefs(MI);
    MI.eraseFromParent();
  }

  // No landing pads in LLVM 19's RISC-V code (Zicfilp comes later).
  bool mustStayFirst(const MachineInstr &) const override { return false; }

  // Branch relaxation measures code size: the late passes run before it.
  AnalysisID lateMachinePassAnchor() const override {
    return &PatchableFunctionID;
  }

  // No GNU program property marks RISC-V objects in LLVM 19. Every PLT
  // stub ends in the same jalr t1, t3 (and a nop) at the same place in its
  // 16 bytes, so wherever two variants' PLTs overlap those gadgets line up:
  // the PLT moves over 64 KiB, not 4, to make an overlap rare.
  TrapPadding trapPadding() const override {
    return {0x00, 0, 0, 65536};
  }

  // With C, full encodings move code too, so a narrower first gap: 20
  // bytes, with `prefixes` at 0.1, keep 5.2% of the three projects'
  // gadgets at their offset for 1.056x clang-19's .text, 4.9% for 1.065x
  // with 28 bytes (docs/performance.md). Without C, the common 44.
  unsigned
  defaultFirstGapBytes(const TargetSubtargetInfo &STI) const override {
    const NopTable &T = Nops.get(STI);
    return STI.getFeatureBits()[T.Compressed]
               ? 20
               : DiversityTarget::defaultFirstGapBytes(STI);
  }

  // libgcc's t-softfp32 and t-softfp64 for the double-float ABI: quad
  // precision (long double) with 128-bit integers, and the divisions
  // -mno-fdiv calls. Comparisons return GCC's default, word_mode.
  LibgccSoftFloat libgccSoftFloat() const override {
    return quadSoftFpRoutines("riscv", "word", {"divsf3", "divdf3"});
  }

  unsigned trapSize(const TargetSubtargetInfo &) const override { return 4; }
  void appendTrap(MachineBasicBlock &MBB) const override {
    const TargetSubtargetInfo &STI = MBB.getParent()->getSubtarget();
    const NopTable &T = Nops.get(STI);
    if (STI.getFeatureBits()[T.Compressed]) {
      BuildMI(&MBB, DebugLoc(), T.TII.get(T.CompressedTrap)); // 0000
      BuildMI(&MBB, DebugLoc(), T.TII.get(T.CompressedTrap)); // 0000
    } else {
      BuildMI(&MBB, DebugLoc(), T.TII.get(T.Trap)); // c0001073
    }
  }

  std::unique_ptr<GadgetTarget>
  createGadgetTarget(const MCInstrInfo &MII,
                     const MCRegisterInfo &MRI) const override {
    return createRISCVGadgetTarget(MII, MRI);
  }

private:
  LazyTable<NopTable> Nops;
  LazyTable<FullFormTable> FullForms;
};

} // namespace

std::unique_ptr<DiversityTarget> createRISCVDiversityTarget() {
  return std::make_unique<RISCVDiversityTarget>();
}

} // namespace divcc
