//===- TrapGaps.cpp - Trap padding where control never falls through ------===//
//
// After each block that control cannot fall out of (it ends with an
// unconditional branch, even to the next block, a return, a tail call or a
// call that does not return, or it is the function's last block), insert a
// gap of 0 to N bytes
// (-fdiversify-gap-max, else the target's default) of trap instructions,
// N rounded down to whole traps; the first such place of a function takes
// 0 to F bytes (-fdiversify-first-gap-max, ...). Everything after a gap
// moves, and since no path runs through it, it moves for free: no
// instruction is added to any execution. The first gap's shift is the one
// everything after it shares, and the bytes buy most there: by default F
// is wide (12 bytes on x86-64, 20 to 44 elsewhere) and N small (2 bytes on
// x86-64, 0 elsewhere; DiversityTarget::defaultGapBytes).
//
//     before:              after (one draw):
//       jmp .LBB0_3          jmp .LBB0_3
//     .LBB0_2:             # gap, 3 bytes
//       mov %eax,%ecx        int3; int3; int3
//       ...                .LBB0_2:
//                            mov %eax,%ecx
//
// The gap after a function's last block is the one before the next
// function: function alignment rounds it, function shuffling (funcs) moves
// whole functions anyway.
//
// Invariants:
//   - a gap is its own block, with no predecessor and no successor, holding
//     only traps (int3, udf #0): the blocks and instructions of the function
//     are unchanged, so are jump tables, landing pads, call sites and CFI;
//     a jump to a block lands on its label, after the gap, and a hot loop's
//     alignment applies after it too;
//   - a gap follows only a block that cannot fall through
//     (MachineBasicBlock::canFallThrough), so no path executes a trap; if
//     one ever does (a call that was declared noreturn returns), the
//     program stops rather than running whatever follows;
//   - NOPs go in first (this pass runs after NOP insertion) and never in a
//     gap; each function draws from its own stream, one draw per gap in
//     layout order, and -g changes no block, so no draw;
//   - functions that must keep their exact code (mustKeepExactCode),
//     functions with basic-block sections (the linker places each block)
//     and functions that -fdiversify-skip/-only turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-gaps"
STATISTIC(NumGaps, "Places where control never falls through");
STATISTIC(NumTrapBytes, "Bytes of trap padding inserted");

namespace divcc {
namespace {

/// Whether \p MBB ends in a jump to the next block, which `entry` puts at
/// a function's start for its first gap to follow: canFallThrough() says
/// yes to it. Only an unpredicated jump outside any bundle (in Thumb, a
/// predicated return in an IT block is a barrier too, and falls through).
bool endsInJumpToNext(const MachineBasicBlock &MBB) {
  MachineBasicBlock::const_iterator Last = MBB.getLastNonDebugInstr();
  if (Last == MBB.end() || Last->isBundle() || !Last->isUnconditionalBranch() ||
      MBB.getParent()->getSubtarget().getInstrInfo()->isPredicated(*Last))
    return false;
  auto Next = std::next(MBB.getIterator());
  return Next != MBB.getParent()->end() &&
         any_of(Last->operands(), [&](const MachineOperand &MO) {
           return MO.isMBB() && MO.getMBB() == &*Next;
         });
}

class TrapGaps : public DiversityMachinePass {
public:
  static char ID;
  TrapGaps(const GapOptions &Options, StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Gaps, std::move(Streams)),
        Options(Options) {}

  StringRef getPassName() const override { return "divcc trap gaps"; }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  const GapOptions &Options;
};

char TrapGaps::ID = 0;

bool TrapGaps::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  DiversityTarget &Target = P->Target;
  RandomStream &Random = *P->Random;
  const TargetSubtargetInfo &STI = MF.getSubtarget();
  unsigned TrapSize = Target.trapSize(STI);
  unsigned MaxTraps =
      Options.MaxBytes.value_or(Target.defaultGapBytes(STI)) / TrapSize;
  unsigned FirstMaxTraps =
      Options.FirstMaxBytes.value_or(
          Options.MaxBytes.value_or(Target.defaultFirstGapBytes(STI))) /
      TrapSize;
  // With basic-block sections each block is placed by the linker: a gap
  // block would need a section of its own, and would move nothing.
  if ((MaxTraps == 0 && FirstMaxTraps == 0) || MF.hasBBSections())
    return false;

  // Decided on the blocks as LLVM laid them out, before any gap is added.
  SmallVector<MachineBasicBlock *, 32> Places;
  for (MachineBasicBlock &MBB : MF)
    if (!MBB.canFallThrough() || endsInJumpToNext(MBB))
      Places.push_back(&MBB);

  bool Changed = false;
  for (MachineBasicBlock *MBB : Places) {
    ++NumGaps;
    bool First = MBB == Places.front();
    uint64_t Traps = Random.below((First ? FirstMaxTraps : MaxTraps) + 1);
    if (Traps == 0)
      continue;
    MachineBasicBlock *Gap = MF.CreateMachineBasicBlock();
    MF.insert(std::next(MBB->getIterator()), Gap);
    for (uint64_t I = 0; I < Traps; ++I)
      Target.appendTrap(*Gap);
    NumTrapBytes += Traps * TrapSize;
    Changed = true;
  }
  return Changed;
}

} // namespace

FunctionPass *createTrapGapPass(const GapOptions &Options,
                                StreamSource Streams) {
  return new TrapGaps(Options, std::move(Streams));
}

} // namespace divcc
