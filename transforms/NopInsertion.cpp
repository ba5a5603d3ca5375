//===- NopInsertion.cpp - Insert no-ops between machine instructions ------===//
//
// Before each eligible instruction, with probability P
// (-fdiversify-nop-probability), insert between 1 and N
// (-fdiversify-nop-max) no-ops, each form drawn uniformly from the target's
// list. Every later instruction moves by a random amount, so gadgets found in
// one variant are at other addresses in the next.
//
//     before:              after (one draw):
//       push %rbp            push %rbp
//       mov  %rsp,%rbp       lea  (%rsi),%rsi
//       call f               mov  %rsp,%rbp
//                            nop
//                            call f
//
// This runs as the last machine pass, right before the assembly printer:
// register-writing forms must not be seen by passes that reason about copies,
// and nothing after this pass may reorder or delete them.
//
// Never touched:
//   - functions that are naked, or whose first bytes are patched at run time
//     (patchable-function-entry, fentry calls, XRay, hot-patching);
//   - the place before a debug, CFI, label or other meta instruction (a NOP
//     between an instruction and its CFI would make the unwind tables wrong
//     for that NOP), before an instruction inside a bundle, before inline
//     assembly, before an instruction that must stay first (ENDBR64),
//     between a prefix and the instruction it belongs to (the segment
//     override `prefixes` gives an lea on x86: a NOP there would take it),
//     between two terminators, and between a compare and the conditional
//     branch the processor fuses with it (x86 macro fusion: a NOP there
//     would cost a cycle on every execution of the branch).
// Debug instructions never consume random draws, so -g changes no code.
//
// Innermost loops. NOPs in hot code cost time, NOPs in cold code only bytes;
// at one probability everywhere they land in hot loops as often as anywhere
// else, and cost about 4% more instructions executed where everything else
// costs 0.1% (docs/performance.md). Unless the counts of a profile decide
// (profile-guided mode with -fprofile-instr-use, below), no NOPs go in the
// blocks of innermost loops (-fdiversify-nops-in-loops puts them back). At
// one probability a profile's counts are not read, so a profile alone does
// not bring them back:
//
//     for (i...)            outer loop: its own blocks get NOPs
//       for (j...)          innermost loop: its blocks get none
//
// Those blocks are simply not places: they consume no draws, so the draws
// of the other places still depend only on the function's code (and -g
// changes nothing: loops depend on the CFG alone). Innermost rather than
// any loop: that is where nearly all the executions are, and a function
// whose body sits in one loop around smaller ones (a dispatch loop, an
// event loop) keeps NOPs everywhere but in the smaller ones. Irreducible
// cycles are not loops to MachineLoopInfo and keep theirs.
//
// Profile-guided mode (-fdiversify-nop-probability-min/max): each block gets
// its own probability, from pmin in the hottest code to pmax in the coldest.
//
// With a profile (-fprofile-instr-use), f is the block's execution count:
//
//     p = pmin + (pmax - pmin) * min(1, c / f),   c = total / 2^20
//
// where total is the sum of all counts of the program (the profile
// summary's). Blocks run at most c times get pmax; above, p falls as 1/f,
// so that no instruction position adds more than pmax * c expected NOP
// executions: a program of 2^16 positions at most pmax / 16 of its block
// executions, and in practice far less, since most code runs less than c
// times. A rule on counts relative to the hottest block cannot give that
// bound: unrolled and warm loops would keep a large p.
//
// Without a profile, f is LLVM's static estimate of the block's frequency
// relative to the function's entry, fmax the largest such estimate in the
// function (loops count as hot), and, outside innermost loops,
//
//     p = pmax - (pmax - pmin) * log(1 + f) / log(1 + fmax)
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/Target/TargetMachine.h"

#include <cmath>

using namespace llvm;

#define DEBUG_TYPE "divcc-nops"
STATISTIC(NumNops, "No-ops inserted");
STATISTIC(NumPlaces, "Places where no-ops could be inserted");
STATISTIC(NumLoopBlocks, "Blocks of innermost loops left without no-ops");

namespace divcc {
namespace {

/// The sum of all counts of the program's profile, or 0 when F has no real
/// counts (built without a profile, or F itself has none).
uint64_t profileTotalCount(const Function &F) {
  Metadata *MD = F.getParent()->getProfileSummary(/*IsCS=*/false);
  if (!MD || !F.getEntryCount())
    return 0;
  std::unique_ptr<ProfileSummary> PS(ProfileSummary::getFromMD(MD));
  return PS ? PS->getTotalCount() : 0;
}

/// Whether MBB belongs to a loop that contains no other loop.
bool inInnermostLoop(const MachineLoopInfo &Loops,
                     const MachineBasicBlock &MBB) {
  const MachineLoop *L = Loops.getLoopFor(&MBB);
  return L && L->isInnermost();
}

class NopInsertion : public DiversityMachinePass {
public:
  static char ID;
  NopInsertion(const NopOptions &Options, StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Nops, std::move(Streams)),
        Options(Options) {}

  StringRef getPassName() const override { return "divcc NOP insertion"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    if (Options.ProfileGuided)
      AU.addRequired<MachineBlockFrequencyInfoWrapperPass>();
    // Computed from the final CFG, however late this pass runs; CFG-only, so
    // it stays valid (this pass inserts instructions, never blocks).
    if (!Options.InLoops)
      AU.addRequired<MachineLoopInfoWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// The instructions before which no-ops may go, in layout order; none in
  /// the innermost loops of SkipLoops, when given.
  SmallVector<MachineInstr *, 256>
  eligiblePlaces(MachineFunction &MF, const DiversityTarget &Target,
                 const MachineLoopInfo *SkipLoops) const;
  /// The probability of NOPs in each block (profile-guided mode); TotalCount
  /// as profileTotalCount's.
  DenseMap<const MachineBasicBlock *, Probability>
  blockProbabilities(MachineFunction &MF, uint64_t TotalCount);

  const NopOptions &Options;
};

char NopInsertion::ID = 0;

SmallVector<MachineInstr *, 256>
NopInsertion::eligiblePlaces(MachineFunction &MF, const DiversityTarget &Target,
                             const MachineLoopInfo *SkipLoops) const {
  SmallVector<MachineInstr *, 256> Places;
  for (MachineBasicBlock &MBB : MF) {
    if (SkipLoops && inInnermostLoop(*SkipLoops, MBB)) {
      ++NumLoopBlocks;
      continue;
    }
    const MachineInstr *Prev = nullptr; // previous real instruction
    for (MachineInstr &MI : MBB.instrs()) {
      if (MI.isDebugOrPseudoInstr() || MI.isMetaInstruction())
        continue;
      bool BetweenTerminators =
          MI.isTerminator() && Prev && Prev->isTerminator();
      bool SplitsFusedPair = Prev && Target.isMacroFusedPair(*Prev, MI);
      bool SplitsPrefix = Prev && Target.isPrefixOfNext(*Prev);
      if (!BetweenTerminators && !SplitsFusedPair && !SplitsPrefix &&
          !MI.isInsideBundle() && !MI.isInlineAsm() &&
          !isRuntimePatchPoint(MI) && !Target.mustStayFirst(MI))
        Places.push_back(&MI);
      Prev = &MI;
    }
  }
  return Places;
}

bool NopInsertion::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> Ready = prepare(MF);
  if (!Ready)
    return false;
  DiversityTarget &Target = Ready->Target;
  RandomStream &Random = *Ready->Random;

  const Function &F = MF.getFunction();
  uint64_t TotalCount = profileTotalCount(F);
  DenseMap<const MachineBasicBlock *, Probability> BlockP;
  if (Options.ProfileGuided)
    BlockP = blockProbabilities(MF, TotalCount);
  // Only real counts may put NOPs in innermost loops (see the top).
  bool CountsDecide = Options.ProfileGuided && TotalCount > 0;
  const MachineLoopInfo *SkipLoops =
      Options.InLoops || CountsDecide
          ? nullptr
          : &getAnalysis<MachineLoopInfoWrapperPass>().getLI();

  bool Changed = false;
  for (MachineInstr *MI : eligiblePlaces(MF, Target, SkipLoops)) {
    ++NumPlaces;
    Probability P = Options.ProfileGuided ? BlockP.lookup(MI->getParent())
                                          : Options.Uniform;
    if (!Random.chance(P))
      continue;
    uint64_t Count = Random.between(1, Options.MaxRun);
    for (uint64_t I = 0; I < Count; ++I)
      Target.insertNop(*MI->getParent(), MI->getIterator(),
                       Random.below(Target.nopFormCount()));
    NumNops += Count;
    Changed = true;
  }
  return Changed;
}

DenseMap<const MachineBasicBlock *, Probability>
NopInsertion::blockProbabilities(MachineFunction &MF, uint64_t TotalCount) {
  auto &MBFI = getAnalysis<MachineBlockFrequencyInfoWrapperPass>().getMBFI();
  // Real counts when the program was built with a profile.
  bool Profiled = TotalCount > 0;
  double PMax = double(Options.Coldest.threshold()) / Probability::One;
  double PMin = double(Options.Hottest.threshold()) / Probability::One;

  DenseMap<const MachineBasicBlock *, double> Share; // of pmax - pmin
  if (Profiled) {
    double ColdCount = double(TotalCount) / double(1 << 20);
    for (const MachineBasicBlock &MBB : MF) {
      double F = double(MBFI.getBlockProfileCount(&MBB).value_or(0));
      Share[&MBB] = F <= ColdCount ? 1.0 : ColdCount / F;
    }
  } else {
    DenseMap<const MachineBasicBlock *, double> Freq;
    double FMax = 0;
    for (const MachineBasicBlock &MBB : MF) {
      double F = MBFI.getEntryFreq() != BlockFrequency(0)
                     ? MBFI.getBlockFreqRelativeToEntryBlock(&MBB)
                     : 0.0;
      Freq[&MBB] = F;
      FMax = std::max(FMax, F);
    }
    for (const MachineBasicBlock &MBB : MF)
      Share[&MBB] = FMax > 0 ? 1.0 - std::log1p(std::min(Freq[&MBB], FMax)) /
                                         std::log1p(FMax)
                             : 1.0;
  }

  DenseMap<const MachineBasicBlock *, Probability> Result;
  for (const MachineBasicBlock &MBB : MF) {
    // Rounded to 2^-24 so that the last bits of the logarithm, which may
    // differ between maths libraries, cannot change a decision.
    double P = PMin + (PMax - PMin) * Share[&MBB];
    Result[&MBB] = Probability::fromFraction(std::round(P * 0x1p24) / 0x1p24);
  }
  return Result;
}

} // namespace

FunctionPass *createNopInsertionPass(const NopOptions &Options,
                                     StreamSource Streams) {
  return new NopInsertion(Options, std::move(Streams));
}

} // namespace divcc
