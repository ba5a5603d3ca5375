//===- CalleeSaveShuffle.cpp - Shuffle the order of callee-saved saves ----===//
//
// A function saves the callee-saved registers it uses in its prologue and
// restores them in its epilogues, in the order of the calling convention's
// callee-saved list. The restores right before a return are the classic
// code-reuse gadget ("pop %rbx; pop %r14; ret"), and they sit at the same
// place in every variant whose layout happens to coincide. This machine pass,
// right before prologue and epilogue insertion, gives each function the
// callee-saved list in a random order (MachineRegisterInfo's per-function
// copy), so that the prologue pushes and the epilogues pop in that order:
//
//     before (clang):          after (one draw):
//       push %r14                push %rbx
//       push %rbx                push %r14
//       ...                      ...
//       pop  %rbx                pop  %r14
//       pop  %r14                pop  %rbx
//       ret                      ret
//
// A function saving N registers gets one of N! orders. Pushes and pops are
// the same instructions in another order: no instruction is added to any
// execution.
//
// Invariants:
//   - only the order changes, never the set: which registers are saved is
//     decided from the set alone (determineCalleeSaves), and the frame
//     lowering saves and restores each one in matching order, with its CFI;
//   - only on targets whose frame lowering takes the list in any order
//     (DiversityTarget::savesCalleeSavedInAnyOrder: x86-64 pushes one
//     register at a time; AArch64 stores neighbours in pairs and keeps the
//     frame record in place, so it is left alone);
//   - runs after register allocation, which read the list already: the
//     registers each instruction uses are clang's;
//   - one stream per function, one shuffle of the whole list, whose length
//     depends on the calling convention alone: -g changes no draw;
//   - functions that must keep their exact code (mustKeepExactCode) and
//     functions that -fdiversify-skip/-only turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-saves"
STATISTIC(NumShuffled, "Functions whose callee-saved list was shuffled");

namespace divcc {
namespace {

class CalleeSaveShuffle : public DiversityMachinePass {
public:
  static char ID;
  explicit CalleeSaveShuffle(StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Saves, std::move(Streams)) {}

  StringRef getPassName() const override {
    return "divcc callee-saved register order";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;
};

char CalleeSaveShuffle::ID = 0;

bool CalleeSaveShuffle::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P || !P->Target.savesCalleeSavedInAnyOrder())
    return false;
  MachineRegisterInfo &MRI = MF.getRegInfo();
  SmallVector<MCPhysReg, 32> List;
  for (const MCPhysReg *Reg = MRI.getCalleeSavedRegs(); Reg && *Reg; ++Reg)
    List.push_back(*Reg);
  if (List.size() < 2)
    return false;
  P->Random->shuffle(MutableArrayRef<MCPhysReg>(List));
  MRI.setCalleeSavedRegs(List);
  ++NumShuffled;
  return true;
}

} // namespace

FunctionPass *createCalleeSaveShufflePass(StreamSource Streams) {
  return new CalleeSaveShuffle(std::move(Streams));
}

} // namespace divcc
