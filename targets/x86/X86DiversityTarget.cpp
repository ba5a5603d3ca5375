//===- X86DiversityTarget.cpp - x86-64 knowledge for divcc ----------------===//
//
// No-op forms. Each is chosen so that its bytes, decoded from any offset
// inside it, give no instruction useful to a code-reuse attack (no ret, no
// indirect branch, no syscall, no stack-pointer arithmetic that survives):
//
//   90          nop
//   48 89 ED    mov %rbp,%rbp
//   48 89 E4    mov %rsp,%rsp
//   48 8D 36    lea (%rsi),%rsi
//   48 8D 3F    lea (%rdi),%rdi
//
// The four two-operand forms write a register with its own value. They are
// inserted by the last machine pass, after every pass that reasons about
// register copies (machine copy propagation would otherwise treat them as
// real definitions), and their source operand is marked undef so that the
// machine verifier accepts them where the register holds no live value.
//
// Opcodes and registers are looked up by name once, from the first
// function the target sees: their numbers are generated into headers that
// the installed LLVM does not ship, and are the same for every subtarget.
//
//===----------------------------------------------------------------------===//

#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/x86/X86.h"

#include "targets/GadgetTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/ScheduleDAGMutation.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"

#include <array>
#include <optional>

using namespace llvm;

namespace divcc {
namespace {

unsigned opcodeNamed(const TargetInstrInfo &TII, StringRef Name) {
  return divcc::opcodeNamed(TII, "x86", Name);
}

MCRegister registerNamed(const TargetRegisterInfo &TRI, StringRef Name) {
  return divcc::registerNamed(TRI, "x86", Name);
}

/// The opcodes and registers of the NOP forms, landing pads and traps.
struct NopTable {
  explicit NopTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), Nop(opcodeNamed(TII, "NOOP")),
        Mov64rr(opcodeNamed(TII, "MOV64rr")),
        Lea64r(opcodeNamed(TII, "LEA64r")),
        Lea64_32r(opcodeNamed(TII, "LEA64_32r")),
        Lea32r(opcodeNamed(TII, "LEA32r")),
        Endbr64(opcodeNamed(TII, "ENDBR64")),
        Endbr32(opcodeNamed(TII, "ENDBR32")), Int3(opcodeNamed(TII, "INT3")),
        LongNop(opcodeNamed(TII, "NOOPL")),
        LongNop16(opcodeNamed(TII, "NOOPW")),
        OperandSizePrefix(opcodeNamed(TII, "DATA16_PREFIX")),
        SegmentPrefixes{opcodeNamed(TII, "ES_PREFIX"),
                        opcodeNamed(TII, "CS_PREFIX"),
                        opcodeNamed(TII, "SS_PREFIX"),
                        opcodeNamed(TII, "DS_PREFIX")},
        Push64r(opcodeNamed(TII, "PUSH64r")),
        Push64rmr(opcodeNamed(TII, "PUSH64rmr")) {
    const TargetRegisterInfo &TRI = *STI.getRegisterInfo();
    RAX = registerNamed(TRI, "rax");
    RBP = registerNamed(TRI, "rbp");
    RSP = registerNamed(TRI, "rsp");
    RSI = registerNamed(TRI, "rsi");
    RDI = registerNamed(TRI, "rdi");
    CS = registerNamed(TRI, "cs");
    Segments = {registerNamed(TRI, "es"), CS, registerNamed(TRI, "ss"),
                registerNamed(TRI, "ds")};
  }

  const TargetInstrInfo &TII;
  unsigned Nop, Mov64rr, Lea64r, Lea64_32r, Lea32r, Endbr64, Endbr32, Int3;
  /// The long no-ops, `nopl` and `nopw` of a memory operand (0f 1f /0),
  /// and the operand-size prefix (66) that makes `nop` two bytes.
  unsigned LongNop, LongNop16, OperandSizePrefix;
  MCRegister RAX, RBP, RSP, RSI, RDI, CS;
  std::array<MCRegister, 4> Segments;
  /// The same four overrides as instructions of their own, one byte each.
  std::array<unsigned, 4> SegmentPrefixes;
  /// push of a register (50+r) and its long form (ff /6), one byte longer.
  unsigned Push64r, Push64rmr;
};

/// The segment operand of \p MI's one memory reference (base, scale,
/// index, displacement, segment: five operands of memory type, the last a
/// register), or none if it has no such reference.
std::optional<unsigned> segmentOperand(const MachineInstr &MI) {
  const MCInstrDesc &Desc = MI.getDesc();
  std::optional<unsigned> Found;
  for (unsigned I = 0, E = Desc.getNumOperands(); I < E; ++I) {
    if (Desc.operands()[I].OperandType != MCOI::OPERAND_MEMORY)
      continue;
    if (Found || I + 5 > E || I + 5 > MI.getNumOperands())
      return std::nullopt; // more than one, or not the usual five
    for (unsigned J = I; J < I + 5; ++J)
      if (Desc.operands()[J].OperandType != MCOI::OPERAND_MEMORY)
        return std::nullopt;
    if (!MI.getOperand(I + 4).isReg())
      return std::nullopt;
    Found = I + 4;
    I += 4;
  }
  return Found;
}

/// The segment operand of \p MI's memory reference if \p MI is a load or
/// store with one: a prefix there is that operand.
std::optional<unsigned> accessSegmentOperand(const MachineInstr &MI) {
  return MI.mayLoadOrStore() ? segmentOperand(MI) : std::nullopt;
}

class X86DiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override { return 5; }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    const TargetInstrInfo &TII = T.TII;
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    switch (Form) {
    case 0:
      BuildMI(MBB, I, DL, TII.get(T.Nop));
      return;
    case 1:
    case 2: {
      MCRegister R = Form == 1 ? T.RBP : T.RSP;
      BuildMI(MBB, I, DL, TII.get(T.Mov64rr), R).addReg(R, RegState::Undef);
      return;
    }
    case 3:
    case 4: {
      // lea (%r),%r: base R, scale 1, no index, displacement 0, no segment.
      MCRegister R = Form == 3 ? T.RSI : T.RDI;
      BuildMI(MBB, I, DL, TII.get(T.Lea64r), R)
          .addReg(R, RegState::Undef)
          .addImm(1)
          .addReg(0)
          .addImm(0)
          .addReg(0);
      return;
    }
    }
    llvm_unreachable("no such x86 NOP form");
  }

  // The no-ops of Intel's optimization manual, one instruction each, with
  // displacements of 1 and 0x100 where it has 0 (LLVM's encoder writes a
  // zero displacement in no byte): no byte of them starts a gadget.
  //
  //   90 / 66 90 / 0f 1f 00           nop, 66 nop, nopl (%rax)
  //   0f 1f 40 01                     nopl 1(%rax)
  //   0f 1f 44 00 01                  nopl 1(%rax,%rax)
  //   66 0f 1f 44 00 01               nopw 1(%rax,%rax)
  //   0f 1f 80 00 01 00 00            nopl 0x100(%rax)
  //   0f 1f 84 00 00 01 00 00         nopl 0x100(%rax,%rax)
  //   66 0f 1f 84 00 00 01 00 00      nopw 0x100(%rax,%rax)
  //   2e 66 0f 1f 84 00 00 01 00 00   nopw %cs:0x100(%rax,%rax)
  //
  // The memory operand is not read: the processor decodes them as `nop`.
  // Ten bytes is the longest no-op LLVM's own padding uses for generic
  // x86-64 (X86AsmBackend::getMaximumNopSize): longer ones take more
  // prefixes, which some cores decode slowly.
  unsigned longestIdleNopBytes(const TargetSubtargetInfo &) const override {
    return 10;
  }
  unsigned defaultShiftNops() const override { return 1; }
  void insertIdleNop(MachineBasicBlock &MBB,
                     MachineBasicBlock::instr_iterator I,
                     unsigned Bytes) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    if (Bytes <= 2) {
      if (Bytes == 2)
        BuildMI(MBB, I, DL, T.TII.get(T.OperandSizePrefix));
      BuildMI(MBB, I, DL, T.TII.get(T.Nop));
      return;
    }
    // Base, scale, index, displacement, segment.
    bool Indexed = Bytes == 5 || Bytes == 6 || Bytes >= 8;
    bool Word = Bytes == 6 || Bytes >= 9;
    int64_t Displacement = Bytes == 3 ? 0 : Bytes < 7 ? 1 : 0x100;
    MCRegister Segment = Bytes == 10 ? T.CS : MCRegister();
    BuildMI(MBB, I, DL, T.TII.get(Word ? T.LongNop16 : T.LongNop))
        .addReg(T.RAX, RegState::Undef)
        .addImm(1)
        .addReg(Indexed ? MCRegister(T.RAX) : MCRegister(),
                Indexed ? RegState::Undef : 0)
        .addImm(Displacement)
        .addReg(Segment);
  }

  bool mustStayFirst(const MachineInstr &MI) const override {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    return MI.getOpcode() == T.Endbr64 || MI.getOpcode() == T.Endbr32;
  }

  bool isMacroFusedPair(const MachineInstr &First,
                        const MachineInstr &Second) const override {
    return isX86MacroFusedPair(First, Second);
  }
  std::unique_ptr<ScheduleDAGMutation>
  createMacroFusionMutation() const override {
    return createX86MacroFusionMutation();
  }

  std::unique_ptr<SubstitutionTarget>
  createSubstitutions(const TargetSubtargetInfo &STI) const override {
    return createX86SubstitutionTarget(STI);
  }

  // Segment overrides: in 64-bit mode the bases of ES, CS, SS and DS are
  // zero and nothing checks their limits, so naming one changes nothing an
  // access or an address computation does. Loads and stores name it in
  // their memory reference; an lea, whose reference the assembly printer
  // wants without one, gets the override as an instruction of its own
  // (CS_PREFIX) right before it, the same byte. Never on a branch, a call
  // or a return: there the same bytes are a hint, or "notrack".
  //
  // Only instructions with a memory reference, where LLVM's disassembler
  // keeps the override as an operand: LLVM BOLT re-encodes every
  // instruction from its disassembly when divtool rerandomize lays a golden
  // master out again, and would drop one on a push or a register copy
  // (which the processor ignores just the same), moving the insides of the
  // function. For the same .text on xz and lz4, overrides on any
  // instruction (at 0.15) would keep 5.4% and 3.6% of the gadgets at their
  // offset, loads, stores and lea (at 0.25) keep 7.4% and 4.4%, loads and
  // stores alone (at 0.35) kept 7.3% and 5.7% (docs/performance.md).
  //
  // push of a register has a long form (ff /6) that LLVM decodes and
  // encodes as such (PUSH64rmr): one byte longer, the same operation (and,
  // measured on an Intel Xeon core, the same time). A C++ corpus program
  // keeps 3.6% of its gadgets at their offset in their function with it,
  // 4.6% without, for 0.1% more .text. pop's long form (8f /0) would do
  // more, since a pop is what comes before a return, but valgrind 3.19
  // does not decode it with a register (SIGILL), and a diversified program
  // must run under the tools clang's build runs under.
  unsigned redundantPrefixCount() const override { return 4; }
  double defaultPrefixProbability() const override { return 0.25; }

  bool acceptsRedundantPrefix(const MachineInstr &MI) const override {
    if (MI.isBundled() || MI.isInlineAsm() || MI.isMetaInstruction() ||
        MI.isBranch() || MI.isCall() || MI.isReturn())
      return false;
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    if (MI.getOpcode() == T.Push64r)
      return true;
    if (std::optional<unsigned> Segment = accessSegmentOperand(MI))
      return MI.getOperand(*Segment).getReg() == 0;
    // An address computation: a prefix of its own, unless the linker
    // rewrites the instruction (TLS descriptors carry a target flag).
    return isLea(MI) && none_of(MI.operands(), [](const MachineOperand &MO) {
             return MO.getTargetFlags() != 0;
           });
  }

  void addRedundantPrefix(MachineInstr &MI, unsigned Form) const override {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    if (MI.getOpcode() == T.Push64r) {
      // The long form has the same operands; Form has no say.
      MI.setDesc(T.TII.get(T.Push64rmr));
      return;
    }
    if (std::optional<unsigned> Segment = accessSegmentOperand(MI)) {
      MI.getOperand(*Segment).setReg(T.Segments[Form]);
      return;
    }
    BuildMI(*MI.getParent(), MI.getIterator(), MI.getDebugLoc(),
            T.TII.get(T.SegmentPrefixes[Form]));
  }

  bool isPrefixOfNext(const MachineInstr &MI) const override {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    return is_contained(T.SegmentPrefixes, MI.getOpcode()) ||
           MI.getOpcode() == T.OperandSizePrefix;
  }

  // X86FrameLowering pushes the general-purpose registers of the list one
  // by one (the frame pointer always first, apart from the list) and pops
  // them in reverse; XMM registers (Win64, interrupt handlers) get slots of
  // their own. Any order of the whole list will do.
  std::optional<CalleeSavedOrders>
  calleeSavedOrders(MachineFunction &,
                    ArrayRef<MCPhysReg> List) const override {
    CalleeSavedOrders Orders;
    Orders.Runs.emplace_back();
    Orders.Runs.back().Registers.assign(List.begin(), List.end());
    Orders.Runs.back().Shuffle = true;
    return Orders;
  }

  // x86's assembler relaxes branches itself: the late passes run last.

  TrapPadding trapPadding() const override {
    return {0xcc, // int3
            ELF::GNU_PROPERTY_X86_FEATURE_1_AND,
            ELF::GNU_PROPERTY_X86_FEATURE_1_IBT |
                ELF::GNU_PROPERTY_X86_FEATURE_1_SHSTK};
  }

  unsigned trapSize(const TargetSubtargetInfo &) const override { return 1; }
  // Up to 2 bytes moves as much relative to a function's start as up to 4
  // (prefixes move code there too) for about half the size
  // (docs/performance.md).
  unsigned defaultGapBytes(const TargetSubtargetInfo &) const override {
    return 2;
  }
  // Prefixes move x86-64 code by single bytes, but a sum of many
  // one-byte moves is often the same in two variants; the first gap's
  // 0..12 bytes add to every sum after it. With loops unaligned (`loops`)
  // it pays: sqlite keeps 0.93% of its gadgets at their offset in their
  // function between variants with 12 bytes, 1.34% with 2, expat 1.50%
  // against 1.92%, for +0.9 and +1.4 points of .text (docs/performance.md;
  // with loops aligned, the alignment took most of it back).
  unsigned defaultFirstGapBytes(const TargetSubtargetInfo &) const override {
    return 12;
  }
  void appendTrap(MachineBasicBlock &MBB) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    BuildMI(&MBB, DebugLoc(), T.TII.get(T.Int3));
  }

  // LLVM BOLT rewrites x86-64 and AArch64 programs.
  bool canLayOutAgain() const override { return true; }
  std::optional<CodeAddressRelocations>
  codeAddressRelocations() const override {
    return CodeAddressRelocations{ELF::R_X86_64_RELATIVE,
                                  ELF::R_X86_64_IRELATIVE, ELF::R_X86_64_64,
                                  ELF::R_X86_64_GLOB_DAT,
                                  ELF::R_X86_64_JUMP_SLOT};
  }

  std::unique_ptr<GadgetTarget>
  createGadgetTarget(const MCInstrInfo &MII,
                     const MCRegisterInfo &MRI) const override {
    return createX86GadgetTarget(MII, MRI);
  }

private:
  bool isLea(const MachineInstr &MI) const {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    unsigned Opcode = MI.getOpcode();
    return Opcode == T.Lea64r || Opcode == T.Lea64_32r || Opcode == T.Lea32r;
  }

  LazyTable<NopTable> Nops;
};

} // namespace

std::unique_ptr<DiversityTarget> createX86DiversityTarget() {
  return std::make_unique<X86DiversityTarget>();
}

} // namespace divcc
