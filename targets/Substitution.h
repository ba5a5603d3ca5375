//===- Substitution.h - Which instructions have equivalents ---------------===//
//
// The instruction-substitution pass (transforms/InstructionSubstitution.cpp)
// asks a target for the forms equivalent to an instruction, draws one, and
// asks the target to rewrite the instruction into it. What "equivalent"
// means is entirely the target's knowledge, so it lives here, one table per
// target, made by DiversityTarget::createSubstitutions()
// (targets/x86/X86Substitutions.cpp); the pass never names an opcode.
//
// Equivalent means: the same registers and memory are written with the same
// values, the same registers are read, and the condition flags either come
// out identical or are provably read by nothing before their next write (the
// pass answers that question; the target only asks it when a form would
// change them).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_SUBSTITUTION_H
#define DIVCC_TARGETS_SUBSTITUTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <memory>

namespace llvm {
class TargetSubtargetInfo;
}

namespace divcc {

/// One way of writing an instruction. Its fields mean what the target that
/// produced it says; the pass only copies forms back into rewrite().
struct SubstitutionForm {
  unsigned Kind = 0;   // target-defined; 0 always means "as it is"
  unsigned Opcode = 0; // the opcode of the rewritten instruction
  int64_t Imm = 0;     // an immediate of the rewritten instruction, if any
  /// The form writes the condition flags differently from the original (or
  /// writes them where the original did not): only offered when they are dead.
  bool ChangesFlags = false;
};

class SubstitutionTarget {
public:
  virtual ~SubstitutionTarget() = default;

  /// Appends to \p Forms the forms that compute exactly what \p MI computes.
  /// If \p MI has any, the first one appended is \p MI itself (Kind 0), so
  /// a uniform draw among them may keep it. \p FlagsDeadAfter tells whether
  /// the condition flags are read by nothing after \p MI before they are
  /// written again; it is called (at most once) only for instructions where
  /// the answer matters. Forms are appended in an order that depends only
  /// on \p MI, never on addresses.
  virtual void
  equivalentForms(const llvm::MachineInstr &MI,
                  llvm::function_ref<bool()> FlagsDeadAfter,
                  llvm::SmallVectorImpl<SubstitutionForm> &Forms) const = 0;

  /// Rewrites \p MI into \p Form, one that equivalentForms() gave for it.
  /// \p MI may be replaced by a new instruction in the same place (debug
  /// instruction numbers carried over).
  virtual void rewrite(llvm::MachineInstr &MI,
                       const SubstitutionForm &Form) const = 0;

  /// The register that holds the condition flags.
  virtual llvm::MCRegister flagsRegister() const = 0;
};

/// Builds an instruction of opcode \p Opc before \p MI with the explicit
/// operands \p Explicit, carries over what belongs to the instruction rather
/// than to its opcode (implicit operands its opcode does not imply, flags,
/// debug instruction number), deletes \p MI and returns the new one.
llvm::MachineInstr &replaceInstruction(llvm::MachineInstr &MI, unsigned Opc,
                                       llvm::ArrayRef<llvm::MachineOperand>
                                           Explicit);

/// Swaps the registers of \p MI's untied uses \p A and \p B, each with its
/// kill, undef and renamable flags: the rewrite of a commutative operation.
void commuteRegisterUses(llvm::MachineInstr &MI, unsigned A, unsigned B);

} // namespace divcc

#endif
