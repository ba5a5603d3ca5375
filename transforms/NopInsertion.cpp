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
//     assembly, before an instruction that must stay first (ENDBR64), and
//     between two terminators.
// Debug instructions never consume random draws, so -g changes no code.
//
//===----------------------------------------------------------------------===//

#include "driver/Config.h"
#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-nops"
STATISTIC(NumNops, "No-ops inserted");
STATISTIC(NumPlaces, "Places where no-ops could be inserted");

namespace divcc {
namespace {

bool mustNotBePatched(const Function &F) {
  return F.hasFnAttribute(Attribute::Naked) ||
         F.hasFnAttribute("patchable-function-entry") ||
         F.hasFnAttribute("patchable-function-prefix") ||
         F.hasFnAttribute("patchable-function") ||
         F.hasFnAttribute("fentry-call") ||
         F.hasFnAttribute("function-instrument") ||
         F.hasFnAttribute("xray-instruction-threshold");
}

bool isRuntimePatchPoint(const MachineInstr &MI) {
  switch (MI.getOpcode()) {
  case TargetOpcode::STACKMAP:
  case TargetOpcode::PATCHPOINT:
  case TargetOpcode::STATEPOINT:
  case TargetOpcode::FENTRY_CALL:
  case TargetOpcode::PATCHABLE_OP:
  case TargetOpcode::PATCHABLE_FUNCTION_ENTER:
  case TargetOpcode::PATCHABLE_RET:
  case TargetOpcode::PATCHABLE_FUNCTION_EXIT:
  case TargetOpcode::PATCHABLE_TAIL_CALL:
  case TargetOpcode::PATCHABLE_EVENT_CALL:
  case TargetOpcode::PATCHABLE_TYPED_EVENT_CALL:
    return true;
  default:
    return false;
  }
}

class NopInsertion : public MachineFunctionPass {
public:
  static char ID;
  NopInsertion(const Config &Cfg, std::string ModuleName)
      : MachineFunctionPass(ID), Cfg(Cfg), ModuleName(std::move(ModuleName)) {}

  StringRef getPassName() const override { return "divcc NOP insertion"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  MachineFunctionProperties getRequiredProperties() const override {
    return MachineFunctionProperties().set(
        MachineFunctionProperties::Property::NoVRegs);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// The instructions before which no-ops may go, in layout order.
  SmallVector<MachineInstr *, 256> eligiblePlaces(MachineFunction &MF) const;

  const Config &Cfg;
  std::string ModuleName;
  std::unique_ptr<DiversityTarget> Target;
};

char NopInsertion::ID = 0;

SmallVector<MachineInstr *, 256>
NopInsertion::eligiblePlaces(MachineFunction &MF) const {
  SmallVector<MachineInstr *, 256> Places;
  for (MachineBasicBlock &MBB : MF) {
    const MachineInstr *Prev = nullptr; // previous real instruction
    for (MachineInstr &MI : MBB.instrs()) {
      if (MI.isDebugOrPseudoInstr() || MI.isMetaInstruction())
        continue;
      bool BetweenTerminators =
          MI.isTerminator() && Prev && Prev->isTerminator();
      if (!BetweenTerminators && !MI.isInsideBundle() && !MI.isInlineAsm() &&
          !isRuntimePatchPoint(MI) && !Target->mustStayFirst(MI))
        Places.push_back(&MI);
      Prev = &MI;
    }
  }
  return Places;
}

bool NopInsertion::runOnMachineFunction(MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (mustNotBePatched(F))
    return false;
  if (!Target)
    Target = createDiversityTarget(MF.getTarget().getTargetTriple(),
                                   MF.getSubtarget());
  if (!Target)
    return false;

  RandomStream Random(*Cfg.Key, {transformationName(Transformation::Nops),
                                 ModuleName, F.getName()});
  bool Changed = false;
  for (MachineInstr *MI : eligiblePlaces(MF)) {
    ++NumPlaces;
    if (!Random.chance(Cfg.NopProbability))
      continue;
    uint64_t Count = Random.between(1, Cfg.NopMax);
    for (uint64_t I = 0; I < Count; ++I)
      Target->insertNop(*MI->getParent(), MI->getIterator(),
                        Random.below(Target->nopFormCount()));
    NumNops += Count;
    Changed = true;
  }
  return Changed;
}

} // namespace

FunctionPass *createNopInsertionPass(const Config &Cfg, std::string ModuleName) {
  return new NopInsertion(Cfg, std::move(ModuleName));
}

} // namespace divcc
