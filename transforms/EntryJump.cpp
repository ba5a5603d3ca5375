//===- EntryJump.cpp - A jump over a gap at each function's entry --------===//
//
// A leaked pointer to a function tells where its code starts, and the code
// from there to the function's first gap (TrapGaps.cpp) sits at the same
// offset in every variant but for `shift`'s few no-ops: every byte of it
// runs, so nothing free can move it. One instruction can: an unconditional
// jump at the entry, to the code that was there, makes the function's
// first gap the one right after it, so everything after the jump moves by
// what that gap draws (0 to 44 bytes on AArch64, 12 on x86-64, ...):
//
//     before:                      after (one draw):
//     f:                           f:
//       stp x29, x30, [sp, #-16]!    b .LBB0_1
//       mov x29, sp                  udf #0          # the first gap
//       ...                          udf #0
//                                  .LBB0_1:
//                                    stp x29, x30, [sp, #-16]!
//                                    mov x29, sp
//                                    ...
//
// Cost: the jump runs once per call, one taken branch. So a function gets
// it only where the code before its first gap ends gadgets: where its
// entry falls into a return, an indirect jump or call or inline assembly
// before an unconditional jump (EntryPath.h). Code that reaches a jump
// first ends none there, and moving it would buy nothing.
//
// Invariants:
//   - the entry block keeps what must stay first (BTI and PAC landing
//     marks, endbr64; DiversityTarget::mustStayFirst) and then holds only
//     the jump; the rest of it becomes a new block right after it, with
//     the entry's successors, and its live-ins recomputed;
//   - a function whose code ends no gadget before its first gap is left
//     alone;
//   - a function whose entry block has a predecessor (a loop back to the
//     entry) is left alone: the loop's branch would have to run the jump
//     on every iteration or be retargeted;
//   - it draws nothing: the gap pass, which runs after it, draws the gap;
//     `shift` runs before it, so its no-ops are in the block that moves;
//   - functions that must keep their exact code (mustKeepExactCode),
//     functions with basic-block sections (whose gap would need a section
//     of its own and move nothing) and functions that -fdiversify-skip/-only
//     turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/EntryPath.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/LivePhysRegs.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/TargetInstrInfo.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-entry"
STATISTIC(NumEntryJumps, "Functions entered through a jump over a gap");

namespace divcc {
namespace {

class EntryJump : public DiversityMachinePass {
public:
  static char ID;
  explicit EntryJump(StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Entry, std::move(Streams)) {}

  StringRef getPassName() const override {
    return "divcc jump over a gap at the entry";
  }

  bool runOnMachineFunction(MachineFunction &MF) override;
};

char EntryJump::ID = 0;

bool EntryJump::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  MachineBasicBlock &Entry = MF.front();
  if (!Entry.pred_empty() || Entry.isEHFuncletEntry() || MF.hasBBSections() ||
      !MF.getProperties().hasProperty(
          MachineFunctionProperties::Property::TracksLiveness))
    return false;
  // Code that ends no gadget before the first gap gains nothing by moving.
  if (!firstEndingFromEntry(MF))
    return false;
  // Past what must stay first, and the debug values that describe the
  // arguments from the first byte on; bundles whole.
  MachineBasicBlock::iterator Split = Entry.begin();
  while (Split != Entry.end() &&
         (Split->isDebugInstr() || P->Target.mustStayFirst(*Split)))
    ++Split;
  MachineBasicBlock *Body = MF.CreateMachineBasicBlock(Entry.getBasicBlock());
  MF.insert(std::next(Entry.getIterator()), Body);
  Body->splice(Body->end(), &Entry, Split, Entry.end());
  Body->transferSuccessorsAndUpdatePHIs(&Entry);
  Entry.addSuccessor(Body);
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  DebugLoc DL = Body->empty() ? DebugLoc() : Body->front().getDebugLoc();
  TII.insertBranch(Entry, Body, nullptr, {}, DL);
  LivePhysRegs Live;
  computeAndAddLiveIns(Live, *Body);
  ++NumEntryJumps;
  return true;
}

} // namespace

FunctionPass *createEntryJumpPass(StreamSource Streams) {
  return new EntryJump(std::move(Streams));
}

} // namespace divcc
