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
// Traps: c.unimp (0000) twice, four bytes, where C is available; unimp
// (c0001073) otherwise. All-zero bytes are an illegal instruction at every
// two-byte offset, which is what trap padding between sections is made of.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/TargetNames.h"
#include "targets/riscv/RISCV.h"

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

class RISCVDiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override {
    return std::tuple_size_v<decltype(NopTable::Forms)>;
  }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    if (Form >= T.Forms.size())
      llvm_unreachable("no such RISC-V NOP form");
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    BuildMI(MBB, I, DL, T.TII.get(T.Forms[Form]), T.X0).addReg(T.X0).addImm(0);
  }

  // No landing pads in LLVM 19's RISC-V code (Zicfilp comes later).
  bool mustStayFirst(const MachineInstr &) const override { return false; }

  // Branch relaxation measures code size: the late passes run before it.
  AnalysisID lateMachinePassAnchor() const override {
    return &PatchableFunctionID;
  }

  TrapPadding trapPadding() const override {
    // No GNU program property marks RISC-V objects in LLVM 19.
    return {0x00, 0, 0};
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
};

} // namespace

std::unique_ptr<DiversityTarget> createRISCVDiversityTarget() {
  return std::make_unique<RISCVDiversityTarget>();
}

} // namespace divcc
