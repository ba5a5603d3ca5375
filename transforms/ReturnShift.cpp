//===- ReturnShift.cpp - No-ops before a function's first return ----------===//
//
// Everything of a function up to its first gap (TrapGaps.cpp) sits at the
// same offset from the function's start in every variant: nothing that
// costs nothing can move it, since every byte of it runs. A function that
// falls from its entry into a return (or an indirect jump or call) before
// any gap keeps the gadgets that end there, and one leaked pointer to the
// function finds them all: most small functions are such. So, right before
// the first gadget ending the entry falls into, insert 0 to N no-ops
// (-fdiversify-shift-max, N = 3 by default, 1 on x86-64), which moves that
// ending and everything after it. Inline assembly counts as an ending: its
// bytes may hold any gadget (in libsecp256k1's field arithmetic, a `c3`
// in every few instructions), and nothing free moves it either when only
// register moves come before it:
//
//     before:                      after (one draw):
//       ldr w8, [x0]                 ldr w8, [x0]
//       add w0, w8, #1               add w0, w8, #1
//       ret                          nop
//                                    mov xzr, xzr
//                                    ret
//
// They run once per call that takes that way; at most N instructions per
// call, N/2 on average. So their forms, drawn, are those that write no
// register any instruction reads (DiversityTarget::idleNopFormCount): every
// form on AArch64 and RISC-V (they write the zero register), the hints in
// ARM code. With several forms, gadgets that run through the no-ops differ
// between variants with the same count. ARM code has one hint (two in
// Thumb), so there a no-op may also write a constant into a register that
// is dead where it goes (DiversityTarget::scratchNopRegisters; liveness
// from LivePhysRegs): 48 forms for each such register, and two variants
// that draw the same count rarely draw the same bytes. x86-64's other
// forms write a register with its own value (before a return,
// `mov %rsp,%rsp` would make the return wait for it), but its one no-op
// takes any length from 1 to 10 bytes (`nop`, `66 nop`,
// `nopl 1(%rax,%rax)`, ...;
// DiversityTarget::longestIdleNopBytes): there the pass draws a distance,
// 0 to 10N bytes, every one as likely, and puts it in as few no-ops as it
// takes, N = 1 by default: eleven places for at most one instruction.
//
// Invariants:
//   - only no-ops are inserted (instructions that write nothing any
//     instruction reads: no flags, no memory, no live register), only in
//     the chain of blocks that the entry falls through, and only before
//     its first return, indirect branch, indirect call or inline
//     assembly; a function whose entry chain
//     reaches a block that cannot fall through (an unconditional branch, a
//     direct tail call) before any of those gets nothing;
//   - the no-ops go right before the ending, or before the first of the
//     terminators that precede it in its block; never between a pair the
//     processor fuses, never right after inline assembly (two statements
//     may be meant as one sequence), never before a runtime patch point or
//     an instruction inside a bundle: such a function gets nothing;
//   - each function draws from its own stream: the count, then each form
//     (on x86-64, the distance); debug instructions are skipped, in the
//     liveness too, so -g changes no draw;
//   - functions that must keep their exact code (mustKeepExactCode) and
//     functions that -fdiversify-skip/-only turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/DiversityOptions.h"
#include "transforms/EntryPath.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/LivePhysRegs.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-shift"
STATISTIC(NumShifted, "Functions whose first return no-ops may move");
STATISTIC(NumShiftNops, "No-ops inserted before first returns");

namespace divcc {
namespace {

/// Where no-ops before \p Ending go: right before it, or before the first
/// of the terminators before it; null where nothing may go.
MachineInstr *placeBefore(MachineInstr &Ending, const DiversityTarget &Target) {
  MachineBasicBlock &MBB = *Ending.getParent();
  MachineInstr *At = &Ending;
  MachineInstr *Prev = nullptr;
  for (auto I = At->getReverseIterator(); ++I != MBB.instr_rend();) {
    if (I->isDebugOrPseudoInstr() || I->isMetaInstruction())
      continue;
    if (!I->isTerminator()) {
      Prev = &*I;
      break;
    }
    At = &*I;
  }
  if (At->isInsideBundle() || isRuntimePatchPoint(*At) ||
      Target.mustStayFirst(*At))
    return nullptr;
  if (Prev && (Target.isMacroFusedPair(*Prev, *At) ||
               Target.isPrefixOfNext(*Prev) || Prev->isInlineAsm()))
    return nullptr;
  return At;
}

/// Whether \p MI copies a register to itself: a no-op (the NOP pass's
/// `mov r8, r8`) that liveness would take for a write of a value it does
/// not read (its use is undef, so that the verifier accepts it where the
/// register holds nothing), making a live register look dead before it.
bool isMoveToItself(const MachineInstr &MI, const TargetInstrInfo &TII) {
  std::optional<DestSourcePair> Copy = TII.isCopyInstr(MI);
  return Copy && Copy->Destination->getReg() == Copy->Source->getReg();
}

/// The registers of \p Candidates that no instruction reads from \p At on
/// before writing them, nor any later block; none where liveness is not
/// tracked.
SmallVector<MCPhysReg, 16> deadBefore(const MachineInstr &At,
                                      ArrayRef<MCPhysReg> Candidates) {
  const MachineBasicBlock &MBB = *At.getParent();
  const MachineFunction &MF = *MBB.getParent();
  if (!MF.getProperties().hasProperty(
          MachineFunctionProperties::Property::TracksLiveness))
    return {};
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  LivePhysRegs Live(*MF.getSubtarget().getRegisterInfo());
  Live.addLiveOuts(MBB);
  // Bundles as one instruction; At heads its own (placeBefore).
  for (const MachineInstr &MI : reverse(MBB)) {
    if (!MI.isDebugInstr() && !isMoveToItself(MI, TII))
      Live.stepBackward(MI);
    if (&MI == &At)
      break;
  }
  SmallVector<MCPhysReg, 16> Dead;
  for (MCPhysReg R : Candidates)
    if (Live.available(MF.getRegInfo(), R))
      Dead.push_back(R);
  return Dead;
}

class ReturnShift : public DiversityMachinePass {
public:
  static char ID;
  ReturnShift(const ShiftOptions &Options, StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Shift, std::move(Streams)),
        Options(Options) {}

  StringRef getPassName() const override {
    return "divcc no-ops before the first return";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  const ShiftOptions &Options;
};

char ReturnShift::ID = 0;

bool ReturnShift::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  const DiversityTarget &Target = P->Target;
  unsigned MaxNops = Options.MaxNops.value_or(Target.defaultShiftNops());
  MachineInstr *Ending = firstEndingFromEntry(MF);
  MachineInstr *At = Ending ? placeBefore(*Ending, Target) : nullptr;
  if (MaxNops == 0 || !At)
    return false;
  ++NumShifted;
  RandomStream &Random = *P->Random;
  MachineBasicBlock &MBB = *At->getParent();
  const TargetSubtargetInfo &STI = MF.getSubtarget();
  if (unsigned Longest = Target.longestIdleNopBytes(STI)) {
    // A distance in bytes, every one equally likely, in as few no-ops as
    // it takes.
    uint64_t Bytes = Random.below(uint64_t(MaxNops) * Longest + 1);
    bool Changed = Bytes != 0;
    for (; Bytes != 0; ++NumShiftNops) {
      unsigned Length = std::min<uint64_t>(Bytes, Longest);
      Target.insertIdleNop(MBB, At->getIterator(), Length);
      Bytes -= Length;
    }
    return Changed;
  }
  uint64_t Count = Random.below(MaxNops + 1);
  if (Count == 0)
    return false;
  // Every idle form, and every scratch form of every register dead at At,
  // equally likely.
  unsigned Idle = Target.idleNopFormCount(STI);
  unsigned PerRegister = Target.scratchNopFormCount(STI);
  SmallVector<MCPhysReg, 16> Dead;
  if (PerRegister)
    Dead = deadBefore(*At, Target.scratchNopRegisters(STI));
  uint64_t Forms = Idle + uint64_t(Dead.size()) * PerRegister;
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t Form = Random.below(Forms);
    if (Form < Idle) {
      Target.insertNop(MBB, At->getIterator(), Form);
      continue;
    }
    Form -= Idle;
    Target.insertScratchNop(MBB, At->getIterator(), Dead[Form / PerRegister],
                            Form % PerRegister);
  }
  NumShiftNops += Count;
  return true;
}

} // namespace

FunctionPass *createReturnShiftPass(const ShiftOptions &Options,
                                    StreamSource Streams) {
  return new ReturnShift(Options, std::move(Streams));
}

} // namespace divcc
