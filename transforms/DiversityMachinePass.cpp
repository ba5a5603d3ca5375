//===- DiversityMachinePass.cpp - What divcc's machine passes start with --===//

#include "transforms/DiversityMachinePass.h"

#include "transforms/Passes.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace divcc {

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
