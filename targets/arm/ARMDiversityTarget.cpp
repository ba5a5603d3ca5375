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
// Where the NOPs go in the pipeline. The late passes run right after the
// generic patchable-function pass (lateMachinePassAnchor):
//
//   ... if-conversion, IT blocks (Thumb2ITBlockPass: each IT instruction and
//   the instructions it predicates become one bundle), post-RA scheduling,
//   block placement, patchable-function, [divcc: subst, prefixes, nops,
//   gaps], Thumb-2 size reduction, unbundling, constant islands, ...
//
// So no NOP goes inside an IT block (the NOP pass never inserts inside a
// bundle), and constant islands, which place literal pools within reach of
// their loads and relax branches that cannot reach, measure every inserted
// byte: a NOP never pushes a literal load or a branch out of range.
//
// Traps: udf #222 (dede) in Thumb, udf #0 (e7f000f0) in ARM state. The fill
// byte of padding between sections is 0xde: dede is udf #222 at every
// two-byte offset in Thumb, and dededede an undefined coprocessor
// instruction (cdp p14) in ARM state.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/TargetNames.h"
#include "targets/arm/ARM.h"

#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
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
        ThumbMode(featureNamed(STI, Name, "thumb-mode")) {}

  bool isThumb(const TargetSubtargetInfo &STI) const {
    return STI.getFeatureBits()[ThumbMode];
  }

  const TargetInstrInfo &TII;
  unsigned ThumbHint, ThumbWideHint, ThumbMove, ThumbTrap, Hint, Move, Trap;
  MCRegister R0, R8;
  unsigned ThumbMode;
};

class ARMDiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override { return 3; }

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

  // No landing pads on ARMv7-A (BTI is M-profile and AArch64).
  bool mustStayFirst(const MachineInstr &) const override { return false; }

  // Constant islands measure code size: the late passes run before them.
  AnalysisID lateMachinePassAnchor() const override {
    return &PatchableFunctionID;
  }

  TrapPadding trapPadding() const override {
    // No GNU program property marks 32-bit ARM objects.
    return {0xde, 0, 0};
  }

  unsigned trapSize(const TargetSubtargetInfo &STI) const override {
    return Nops.get(STI).isThumb(STI) ? 2 : 4;
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
};

} // namespace

std::unique_ptr<DiversityTarget> createARMDiversityTarget() {
  return std::make_unique<ARMDiversityTarget>();
}

} // namespace divcc
