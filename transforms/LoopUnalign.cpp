//===- LoopUnalign.cpp - No alignment padding before loops ----------------===//
//
// LLVM's block placement aligns the first block of each loop to the
// target's preferred loop alignment: 16 bytes on x86-64 (and on AArch64 or
// ARM under some -mcpu= tunings; generic AArch64, ARM and RISC-V align no
// loop). The padding absorbs every move before it. What `prefixes`,
// `shift` and `gaps` add before a loop changes how long the padding is, not
// where the loop starts, so from a function's first loop on its code sits
// at the same offset from the function's start in most variants: the
// gadgets there survive for an attacker who leaked one pointer to the
// function. So, after block placement, this pass takes that alignment away:
// a loop starts where the code before it ends, and every move before it
// carries into it and past it.
//
//     before (every variant):        after (two variants):
//       prefixes, shift, gaps          prefixes, shift, gaps
//       .p2align 4  <- absorbs them    .LBB0_3: (at 0x2b, or at 0x2e)
//     .LBB0_3: (at 0x30)                 ...
//       ...
//
// Cost: no instruction; a loop entered by falling into it no longer runs
// through the padding's no-ops. What alignment buys on a real core (a
// loop's first instructions in one fetch block, one line of the decoded
// instruction cache) is measured in docs/performance.md.
//
// Invariants:
//   - only block alignments change, never an instruction, so the code is
//     clang-19's but for the padding;
//   - only the alignment block placement gives a loop for the target's
//     preference: a loop whose alignment the source asks for
//     ([[clang::code_align(N)]], llvm.loop.align) keeps it, every loop keeps
//     it when the command line sets it (-falign-loops=N), and so does any
//     other block with an alignment of its own;
//   - nothing is drawn: where the loop lands depends on the draws of the
//     transformations before it, so -g changes nothing here either.
//
//===----------------------------------------------------------------------===//

#include "transforms/DiversityMachinePass.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/TargetLowering.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-loops"
STATISTIC(NumUnaligned, "Loop blocks left unaligned");

namespace divcc {
namespace {

class LoopUnalign : public DiversityMachinePass {
public:
  static char ID;
  explicit LoopUnalign(StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Loops, std::move(Streams)) {}

  StringRef getPassName() const override {
    return "divcc no alignment padding before loops";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;
};

char LoopUnalign::ID = 0;

/// Whether the source asks for \p L's alignment (llvm.loop.align).
bool hasRequestedAlignment(const MachineLoop &L) {
  MDNode *LoopID = L.getLoopID();
  return LoopID && findOptionMDForLoopID(LoopID, "llvm.loop.align");
}

bool LoopUnalign::runOnMachineFunction(MachineFunction &MF) {
  // -falign-loops=N sets every loop's alignment.
  if (MF.getTarget().Options.LoopAlignment != 0 || !prepare(MF))
    return false;
  const TargetLowering &TLI = *MF.getSubtarget().getTargetLowering();
  const MachineLoopInfo &MLI = getAnalysis<MachineLoopInfoWrapperPass>().getLI();
  bool Changed = false;
  for (MachineBasicBlock &MBB : drop_begin(MF)) {
    MachineLoop *L = MLI.getLoopFor(&MBB);
    if (!L || MBB.getAlignment() == Align(1) ||
        MBB.getAlignment() != TLI.getPrefLoopAlignment(L) ||
        hasRequestedAlignment(*L))
      continue;
    MBB.setAlignment(Align(1), /*MaxBytes=*/0);
    ++NumUnaligned;
    Changed = true;
  }
  return Changed;
}

} // namespace

FunctionPass *createLoopUnalignPass(StreamSource Streams) {
  return new LoopUnalign(std::move(Streams));
}

} // namespace divcc
