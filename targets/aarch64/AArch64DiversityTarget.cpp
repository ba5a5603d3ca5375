//===- AArch64DiversityTarget.cpp - AArch64 knowledge for divcc -----------===//
//
// No-op forms. AArch64 instructions are four bytes, four-byte aligned, and
// decode only from aligned offsets, so no form hides another instruction;
// each must only leave every register, the flags and memory as they were:
//
//   d503201f    nop                    (hint #0)
//   aa1f03ff    mov xzr, xzr           (orr xzr, xzr, xzr)
//   ca1f03ff    eor xzr, xzr, xzr
//   8a1f03ff    and xzr, xzr, xzr
//   8b1f03ff    add xzr, xzr, xzr
//
// The four ALU forms are the shifted-register encodings, where register 31
// is the zero register (in the immediate and extended-register forms of add
// it would be the stack pointer), and none of them sets the flags. They
// write only the zero register, so unlike a `mov wN, wN` (which clears the
// upper half of xN) or a `mov xN, xN` (which makes xN look live) they change
// nothing that any later instruction or pass can observe. Other HINT
// numbers are not used: the unallocated ones are reserved for future
// extensions, and the allocated ones (yield, wfe, bti, pac*, ...) are not
// no-ops.
//
// Where the NOPs go in the pipeline. AArch64's branches have short ranges
// (tbz/tbnz +-32 KiB, b.cond/cbz +-1 MiB) and LLVM's branch relaxation pass
// rewrites the branches that cannot reach, from instruction sizes measured
// before emission; the assembler does not relax them. So NOP insertion
// cannot be the last machine pass here: it runs right after LLVM's machine
// sanitizer-metadata pass (lateMachinePassAnchor), the last generic pass
// that every pipeline adds before AArch64's final passes:
//
//   ... live debug values, sanitizer binary metadata, [divcc: subst, nops],
//   machine outliner (-Oz, -moutline), sls hardening, pointer
//   authentication, branch targets (bti), branch relaxation, jump-table
//   compression, CFI fixup, ..., assembly printer
//
// AArch64's own passes cannot serve as the anchor: their IDs are not
// exported and they are registered only when first created. None of the
// passes after the NOPs reasons about register copies, and the forms write
// only the zero register, so the passes that follow cannot mistake them for
// real instructions.
//
// Instructions that must stay first: the BTI landing pads (hint #32, #34,
// #36, #38) and PACIASP/PACIBSP (and PAUTH_PROLOGUE, the pseudo that
// becomes them), which are implicit `bti c` landing pads at a function's
// entry. The branch-targets pass runs after the NOPs, and would add a BTI
// wherever a NOP came before a PACI[AB]SP; refusing those places keeps the
// prologue as clang emits it, and keeps landing pads first whatever order a
// future LLVM runs these passes in.
//
// Opcodes and registers are looked up by name once.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/TargetNames.h"
#include "targets/aarch64/AArch64.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/Passes.h"
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

constexpr StringRef Name = "aarch64";

/// The HINT numbers of the BTI landing pads: bti, bti c, bti j, bti jc.
bool isBtiHint(int64_t Imm) {
  return Imm == 32 || Imm == 34 || Imm == 36 || Imm == 38;
}

/// The opcodes and registers of the NOP forms and landing pads.
struct NopTable {
  explicit NopTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), Hint(opcodeNamed(TII, Name, "HINT")),
        Paciasp(opcodeNamed(TII, Name, "PACIASP")),
        Pacibsp(opcodeNamed(TII, Name, "PACIBSP")),
        PauthPrologue(opcodeNamed(TII, Name, "PAUTH_PROLOGUE")),
        Udf(opcodeNamed(TII, Name, "UDF")),
        ZeroRegisterForms{
            opcodeNamed(TII, Name, "ORRXrs"), opcodeNamed(TII, Name, "EORXrs"),
            opcodeNamed(TII, Name, "ANDXrs"), opcodeNamed(TII, Name, "ADDXrs")},
        XZR(registerNamed(*STI.getRegisterInfo(), Name, "xzr")) {}

  const TargetInstrInfo &TII;
  unsigned Hint, Paciasp, Pacibsp, PauthPrologue, Udf;
  std::array<unsigned, 4> ZeroRegisterForms;
  MCRegister XZR;
};

class AArch64DiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override {
    return 1 + std::tuple_size_v<decltype(NopTable::ZeroRegisterForms)>;
  }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    const TargetInstrInfo &TII = T.TII;
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    if (Form == 0) {
      BuildMI(MBB, I, DL, TII.get(T.Hint)).addImm(0);
      return;
    }
    if (Form > T.ZeroRegisterForms.size())
      llvm_unreachable("no such AArch64 NOP form");
    // op xzr, xzr, xzr, lsl #0
    BuildMI(MBB, I, DL, TII.get(T.ZeroRegisterForms[Form - 1]), T.XZR)
        .addReg(T.XZR)
        .addReg(T.XZR)
        .addImm(0);
  }

  bool mustStayFirst(const MachineInstr &MI) const override {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    unsigned Opc = MI.getOpcode();
    if (Opc == T.Paciasp || Opc == T.Pacibsp || Opc == T.PauthPrologue)
      return true;
    return Opc == T.Hint && MI.getOperand(0).isImm() &&
           isBtiHint(MI.getOperand(0).getImm());
  }

  bool isMacroFusedPair(const MachineInstr &First,
                        const MachineInstr &Second) const override {
    return isAArch64MacroFusedPair(First, Second);
  }
  std::unique_ptr<ScheduleDAGMutation>
  createMacroFusionMutation() const override {
    return createAArch64MacroFusionMutation();
  }
  bool clustersMemoryOperations() const override { return true; }

  // Branch relaxation measures code size: the late passes run before it.
  AnalysisID lateMachinePassAnchor() const override {
    return &MachineSanitizerBinaryMetadataID;
  }

  TrapPadding trapPadding() const override {
    return {0x00, // 00000000 is udf #0
            ELF::GNU_PROPERTY_AARCH64_FEATURE_1_AND,
            ELF::GNU_PROPERTY_AARCH64_FEATURE_1_BTI |
                ELF::GNU_PROPERTY_AARCH64_FEATURE_1_PAC |
                ELF::GNU_PROPERTY_AARCH64_FEATURE_1_GCS};
  }

  unsigned trapSize(const TargetSubtargetInfo &) const override { return 4; }
  void appendTrap(MachineBasicBlock &MBB) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    BuildMI(&MBB, DebugLoc(), T.TII.get(T.Udf)).addImm(0); // 00000000
  }

  // LLVM BOLT rewrites x86-64 and AArch64 programs.
  bool canLayOutAgain() const override { return true; }
  std::optional<CodeAddressRelocations>
  codeAddressRelocations() const override {
    return CodeAddressRelocations{
        ELF::R_AARCH64_RELATIVE, ELF::R_AARCH64_IRELATIVE,
        ELF::R_AARCH64_ABS64, ELF::R_AARCH64_GLOB_DAT,
        ELF::R_AARCH64_JUMP_SLOT};
  }

  std::unique_ptr<GadgetTarget>
  createGadgetTarget(const MCInstrInfo &MII,
                     const MCRegisterInfo &) const override {
    return createAArch64GadgetTarget(MII);
  }

private:
  LazyTable<NopTable> Nops;
};

} // namespace

std::unique_ptr<DiversityTarget> createAArch64DiversityTarget() {
  return std::make_unique<AArch64DiversityTarget>();
}

} // namespace divcc
