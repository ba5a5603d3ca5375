//===- DiversityMachinePass.cpp - What divcc's machine passes start with --===//

#include "transforms/DiversityMachinePass.h"

#include "transforms/Passes.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/TargetOpcodes.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace divcc {

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

std::optional<DiversityMachinePass::Prepared>
DiversityMachinePass::prepare(MachineFunction &MF) {
  const Function &F = MF.getFunction();
  if (mustKeepExactCode(F))
    return std::nullopt;
  if (!Target)
    Target = createDiversityTarget(MF.getTarget().getTargetTriple());
  if (!Target)
    return std::nullopt;
  std::unique_ptr<RandomStream> Random = Streams.forFunction(Kind, F.getName());
  if (!Random)
    return std::nullopt;
  return Prepared{*Target, std::move(Random)};
}

} // namespace divcc
