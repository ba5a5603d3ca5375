//===- InstructionSubstitution.cpp - Equivalent machine instructions ------===//
//
// Replaces machine instructions by others that compute exactly the same
// thing but are encoded differently, so that the bytes (and often the
// lengths) of the code differ between variants even where no instruction
// moves. For each eligible instruction the target's table lists its
// equivalent forms, the instruction itself first; one is drawn uniformly
// from the function's "subst" stream and the instruction rewritten into it.
// On x86-64 (targets/x86/X86Substitutions.cpp):
//
//     before:                  after (one draw):
//       89 f0  mov %esi,%eax     8d 06     lea (%rsi),%eax
//       31 c9  xor %ecx,%ecx     29 c9     sub %ecx,%ecx   (flags dead)
//       01 d0  add %edx,%eax     03 c2     add %edx,%eax
//       83 c7 01 add $1,%edi     ff c7     inc %edi        (flags dead)
//
// The pass runs after every LLVM machine pass, right before NOP insertion:
// no later pass may fold, re-select or copy-propagate what it wrote.
//
// Invariants:
//   - the machine state after each rewritten instruction is the same as
//     before, except condition flags that are read by nothing before their
//     next write; the pass proves that by a forward scan to the next write
//     (or a successor's live-in list at the end of the block, and only when
//     the function still tracks liveness; otherwise flags count as live);
//   - no instruction is added, removed or reordered;
//   - never touched: naked functions and functions patched at run time;
//     debug, meta and CFI instructions; instructions inside bundles, inline
//     assembly, calls, terminators, anything that loads, stores, has
//     unmodelled side effects or memory operands; frame-setup and
//     frame-destroy instructions (the CFI describes them); instructions
//     carrying pre/post-instruction symbols, heap-allocation markers, PC
//     sections, CFI types or MMRA metadata;
//   - debug instructions consume no draws and do not change any decision,
//     so -g changes no code.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "targets/Substitution.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-subst"
STATISTIC(NumEligible, "Instructions with equivalent forms");
STATISTIC(NumSubstituted, "Instructions replaced by an equivalent form");

namespace divcc {
namespace {

/// Whether the pass may rewrite \p MI at all, whatever the target says.
bool isEligible(const MachineInstr &MI) {
  return !MI.isDebugOrPseudoInstr() && !MI.isMetaInstruction() &&
         !MI.isBundled() && !MI.isInlineAsm() && !MI.isCall() &&
         !MI.isTerminator() && !MI.mayLoadOrStore() &&
         !MI.hasUnmodeledSideEffects() && MI.memoperands_empty() &&
         !MI.getFlag(MachineInstr::FrameSetup) &&
         !MI.getFlag(MachineInstr::FrameDestroy) &&
         !MI.getPreInstrSymbol() && !MI.getPostInstrSymbol() &&
         !MI.getHeapAllocMarker() && !MI.getPCSections() &&
         !MI.getCFIType() && !MI.getMMRAMetadata();
}

/// Whether \p Flags, as left by \p MI, are read by nothing before they are
/// written again. Conservative: any doubt means live.
bool flagsDeadAfter(const MachineInstr &MI, MCRegister Flags,
                    const TargetRegisterInfo &TRI) {
  const MachineBasicBlock &MBB = *MI.getParent();
  for (auto I = std::next(MI.getIterator()), E = MBB.instr_end(); I != E;
       ++I) {
    if (I->isDebugInstr())
      continue;
    if (I->isInlineAsm())
      return false;
    bool Overwritten = false;
    for (const MachineOperand &MO : I->operands()) {
      if (MO.isRegMask()) {
        Overwritten |= MO.clobbersPhysReg(Flags);
        continue;
      }
      if (!MO.isReg() || !MO.getReg() || !TRI.regsOverlap(MO.getReg(), Flags))
        continue;
      if (MO.isUse()) // undef uses too: better safe
        return false;
      // Only a write of the whole register ends the flags' life.
      Overwritten |= TRI.isSuperRegisterEq(Flags, MO.getReg());
    }
    if (Overwritten)
      return true;
  }
  if (!MBB.getParent()->getRegInfo().tracksLiveness())
    return false;
  for (const MachineBasicBlock *Succ : MBB.successors())
    for (const MachineBasicBlock::RegisterMaskPair &LiveIn : Succ->liveins())
      if (TRI.regsOverlap(LiveIn.PhysReg, Flags))
        return false;
  return true;
}

class InstructionSubstitution : public DiversityMachinePass {
public:
  static char ID;
  explicit InstructionSubstitution(StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Subst, std::move(Streams)) {}

  StringRef getPassName() const override {
    return "divcc instruction substitution";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// The target's substitutions, made for the first function's subtarget.
  std::unique_ptr<SubstitutionTarget> Target;
};

char InstructionSubstitution::ID = 0;

bool InstructionSubstitution::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  if (!Target)
    Target = P->Target.createSubstitutions(MF.getSubtarget());
  if (!Target)
    return false;
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  MCRegister Flags = Target->flagsRegister();

  // Collected first: a rewrite may replace the instruction it rewrites.
  SmallVector<MachineInstr *, 256> Candidates;
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : MBB.instrs())
      if (isEligible(MI))
        Candidates.push_back(&MI);

  RandomStream &Random = *P->Random;
  SmallVector<SubstitutionForm, 8> Forms;
  bool Changed = false;
  for (MachineInstr *MI : Candidates) {
    Forms.clear();
    // Rewrites so far only touched instructions before MI, and the scan
    // looks after it. A later rewrite may stop writing the flags (add ->
    // lea) only where nothing reads them, so MI's answer stays true.
    Target->equivalentForms(
        *MI, [&] { return flagsDeadAfter(*MI, Flags, TRI); }, Forms);
    if (Forms.size() < 2)
      continue;
    ++NumEligible;
    uint64_t Pick = Random.below(Forms.size());
    if (Pick == 0)
      continue;
    Target->rewrite(*MI, Forms[Pick]);
    ++NumSubstituted;
    Changed = true;
  }
  return Changed;
}

} // namespace

FunctionPass *createInstructionSubstitutionPass(StreamSource Streams) {
  return new InstructionSubstitution(std::move(Streams));
}

} // namespace divcc
