//===- DiversityMachinePass.h - What divcc's machine passes start with ----===//
//
// Every machine pass that rewrites a function's final code opens the same
// way, as BOLT's passes ask shouldOptimize() first: a function that must
// keep its exact code is left alone, the target's knowledge is built once
// per pass (from the first function's triple: one module, one triple), and
// the function's stream comes from the StreamSource, which says no when
// -fdiversify-skip/-only turn the transformation off for it.
//
// Invariants: prepare() draws nothing; a pass that gets no Prepared leaves
// the function exactly as it is.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_DIVERSITYMACHINEPASS_H
#define DIVCC_TRANSFORMS_DIVERSITYMACHINEPASS_H

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityOptions.h"

#include "llvm/CodeGen/MachineFunctionPass.h"

#include <memory>
#include <optional>

namespace divcc {

/// Whether \p MI is a place the runtime patches (stack maps, patch points,
/// XRay sleds, fentry calls): no instruction may go right before it.
bool isRuntimePatchPoint(const llvm::MachineInstr &MI);

class DiversityMachinePass : public llvm::MachineFunctionPass {
protected:
  DiversityMachinePass(char &ID, Transformation Kind, StreamSource Streams)
      : MachineFunctionPass(ID), Kind(Kind), Streams(std::move(Streams)) {}

  /// What a pass acts on a function with.
  struct Prepared {
    DiversityTarget &Target;
    std::unique_ptr<RandomStream> Random;
  };

  /// The target and \p MF's stream, or nothing when \p MF must be left as
  /// it is: it must keep its exact code, the target is not one divcc
  /// knows, or the function filter turns this transformation off for it.
  std::optional<Prepared> prepare(llvm::MachineFunction &MF);

  /// Passes on final code run after register allocation.
  llvm::MachineFunctionProperties getRequiredProperties() const override {
    return llvm::MachineFunctionProperties().set(
        llvm::MachineFunctionProperties::Property::NoVRegs);
  }

private:
  Transformation Kind;
  StreamSource Streams;
  std::unique_ptr<DiversityTarget> Target;
};

} // namespace divcc

#endif
