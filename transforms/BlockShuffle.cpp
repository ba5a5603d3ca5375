//===- BlockShuffle.cpp - Shuffle the basic blocks of each function -------===//
//
// Right after LLVM's block placement, permute the order of each function's
// basic blocks, in one of two modes (-fdiversify-blocks=):
//
//   all     Every block after the entry moves to a random offset inside the
//           function, and the branches between blocks change with it: a
//           fall-through that the new order breaks becomes a jump, a jump to
//           what is now the next block becomes a fall-through.
//   chains  (the default) Only runs of blocks that no fall-through joins
//           move: each run ends in a block control cannot fall out of (a
//           jump, a return, a tail call), and no fall-through is broken, so
//           no jump is added. Code after the entry's run still moves, for
//           no instruction executed (a jump that now targets the next block
//           even disappears). Runs that LLVM's estimate calls cold (run
//           less than 1/16 as often as the entry: error paths, calls that
//           do not return) are shuffled among themselves after the others,
//           so that they do not come between the hot ones: mixed in, they
//           cost sqlite 30-40% more instruction-cache misses.
//
// Mode all:
//
//     before (clang):              after (one draw):
//     f:                           f:
//       movl  %edi, %eax             movl  %edi, %eax
//       testl %edi, %edi             testl %edi, %edi
//       jle   .LBB0_2                jg    .LBB0_2
//     # %bb.1:                      .LBB0_1:
//       pushq %rax                   incl  %eax
//       movl  %eax, %edi             retq
//       callq g@PLT                .LBB0_2:
//       addq  $8, %rsp               pushq %rax
//     .LBB0_2:                       movl  %eax, %edi
//       incl  %eax                   callq g@PLT
//       retq                         addq  $8, %rsp
//                                    jmp   .LBB0_1
//
// How: record each block's layout successor, cut the layout into chains,
// shuffle every chain but the entry's, splice the blocks into the new order,
// and let MachineBasicBlock::updateTerminator rewrite the branches of each
// block whose layout successor changed. In mode chains, a block that may
// fall through is glued to its layout successor. In mode all, a chain is a
// single block, except that a block whose branches the target cannot
// analyze (on x86, two conditional jumps to different blocks) and that may
// fall through stays glued to its layout successor: its fall-through cannot
// be replaced by a jump we could not reason about. (asm goto is no such
// block in LLVM 19: INLINEASM_BR is not a terminator, and its block falls
// through like any.)
//
// Cost: in mode all, block placement's fall-throughs become jumps (about
// 16% more text on the corpus at -O2) and hot loops may be split across the
// function. In mode chains, no instruction is added; the runs of a loop may
// still be placed apart.
//
// Invariants:
//   - The control-flow graph is unchanged (same successors, same
//     probabilities); only the layout and the branch instructions that
//     implement it change. Every fall-through still reaches the same block.
//   - The entry block stays first (the prologue, the function's symbol).
//   - Landing pads, blocks whose address is taken (computed goto, asm goto
//     targets) and jump-table targets may move: the unwinder, indirect
//     branches and jump tables reach them through labels.
//   - The CFI of epilogue blocks moved into the middle of a function is
//     repaired by LLVM's CFI instruction inserter, which x86 runs at the end
//     of the pipeline on the final layout.
//   - Never touched: functions with basic-block sections (their layout is
//     a section assignment) and functions with EH funclets (funclet layout
//     runs later and has its own rules).
//   - The number of draws depends only on the number of chains, which
//     depends on no debug instruction, so -g changes nothing.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-blocks"
STATISTIC(NumShuffled, "Blocks whose chain was placed at random");
STATISTIC(NumGlued, "Blocks glued to their layout successor");
STATISTIC(NumUpdated, "Blocks whose terminators were rewritten");

namespace divcc {
namespace {

/// A block in the layout before shuffling.
struct Block {
  MachineBasicBlock *MBB;
  MachineBasicBlock *OldNext; // layout successor before shuffling, or null
  bool Analyzable;            // the target understands its terminators
};

class BlockShuffle : public MachineFunctionPass {
public:
  static char ID;
  BlockShuffle(BlockShuffleMode Mode, StreamSource Streams)
      : MachineFunctionPass(ID), Mode(Mode), Streams(std::move(Streams)) {}

  StringRef getPassName() const override { return "divcc block shuffle"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    // Blocks are renumbered, and analyses of LLVM 19 may index by number:
    // nothing is claimed preserved (like block placement itself).
    if (Mode == BlockShuffleMode::Chains)
      AU.addRequired<MachineBlockFrequencyInfoWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  MachineFunctionProperties getRequiredProperties() const override {
    return MachineFunctionProperties().set(
        MachineFunctionProperties::Property::NoVRegs);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// Whether every block of \p Chain runs less than 1/16 as often as the
  /// entry, by LLVM's estimate (a profile's counts when there is one).
  bool isColdChain(ArrayRef<Block> Chain) const;

  BlockShuffleMode Mode;
  StreamSource Streams;
};

char BlockShuffle::ID = 0;

/// Whether \p MBB, whose terminators the target cannot analyze, may fall
/// into its layout successor: unless its last real instruction is a barrier
/// (an unconditional or indirect jump, a return) that is not predicated
/// (ARM's conditional return falls through when its condition fails), as
/// MachineBasicBlock::canFallThrough says of such blocks. Debug
/// instructions are skipped so that -g decides nothing.
bool mayFallThrough(MachineBasicBlock &MBB, const TargetInstrInfo &TII) {
  MachineBasicBlock::iterator Last = MBB.getLastNonDebugInstr();
  return Last == MBB.end() || !Last->isBarrier() || TII.isPredicated(*Last);
}

bool BlockShuffle::isColdChain(ArrayRef<Block> Chain) const {
  const MachineBlockFrequencyInfo &MBFI =
      getAnalysis<MachineBlockFrequencyInfoWrapperPass>().getMBFI();
  uint64_t Threshold = MBFI.getEntryFreq().getFrequency() / 16;
  return llvm::all_of(Chain, [&](const Block &B) {
    return MBFI.getBlockFreq(B.MBB).getFrequency() < Threshold;
  });
}

bool BlockShuffle::runOnMachineFunction(MachineFunction &MF) {
  if (MF.size() < 3 || MF.hasBBSections() || MF.hasEHFunclets())
    return false;
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();

  // The layout, and its cut into chains: [ChainStart[I], ChainStart[I+1]).
  SmallVector<Block, 32> Layout;
  SmallVector<unsigned, 32> ChainStart;
  bool GluedToPrevious = false;
  for (MachineBasicBlock &MBB : MF) {
    MachineBasicBlock *TBB = nullptr, *FBB = nullptr;
    SmallVector<MachineOperand, 4> Cond;
    bool Analyzable = !TII.analyzeBranch(MBB, TBB, FBB, Cond);
    MachineBasicBlock *Next = MBB.getNextNode();
    if (!GluedToPrevious)
      ChainStart.push_back(Layout.size());
    Layout.push_back({&MBB, Next, Analyzable});
    bool Glued = Mode == BlockShuffleMode::Chains
                     ? MBB.canFallThrough()
                     : !Analyzable && mayFallThrough(MBB, TII);
    GluedToPrevious = Next && Glued;
    if (GluedToPrevious)
      ++NumGlued;
  }
  unsigned NumChains = ChainStart.size();
  ChainStart.push_back(Layout.size());
  if (NumChains < 3)
    return false; // the entry's chain stays first: one order is possible

  // Chain 0 holds the entry block and stays first. In mode chains, the
  // cold chains follow the others (see the top).
  SmallVector<unsigned, 32> Order, Cold;
  for (unsigned I = 1; I < NumChains; ++I) {
    bool IsCold = Mode == BlockShuffleMode::Chains &&
                  isColdChain(ArrayRef(Layout).slice(
                      ChainStart[I], ChainStart[I + 1] - ChainStart[I]));
    (IsCold ? Cold : Order).push_back(I);
  }
  std::unique_ptr<RandomStream> Random =
      Streams.forFunction(Transformation::Blocks, MF.getName());
  if (!Random)
    return false;
  Random->shuffle(MutableArrayRef<unsigned>(Order));
  Random->shuffle(MutableArrayRef<unsigned>(Cold));
  Order.append(Cold);
  NumShuffled += Layout.size() - ChainStart[1];

  for (unsigned Chain : Order)
    for (unsigned I = ChainStart[Chain]; I != ChainStart[Chain + 1]; ++I)
      MF.splice(MF.end(), Layout[I].MBB);

  // Glued blocks kept their successor; analyzable blocks whose successor
  // changed get branches for the new layout. Unanalyzable blocks that are
  // not glued end in a barrier and need nothing.
  bool Changed = false;
  for (const Block &B : Layout) {
    if (B.MBB->getNextNode() == B.OldNext)
      continue;
    Changed = true;
    if (!B.Analyzable)
      continue;
    B.MBB->updateTerminator(B.OldNext);
    ++NumUpdated;
  }
  if (Changed)
    MF.RenumberBlocks();
  return Changed;
}

} // namespace

FunctionPass *createBlockShufflePass(BlockShuffleMode Mode,
                                     StreamSource Streams) {
  return new BlockShuffle(Mode, std::move(Streams));
}

} // namespace divcc
