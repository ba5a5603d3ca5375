//===- DiversityTarget.h - What divcc must know about one target ----------===//
//
// Everything target-specific that the transformations need sits behind this
// interface, one implementation per target: the no-op instruction forms that
// are safe to insert and the instructions that must stay where they are. The
// transformations themselves never name an opcode or a register.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_DIVERSITYTARGET_H
#define DIVCC_TARGETS_DIVERSITYTARGET_H

#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

namespace llvm {
class TargetSubtargetInfo;
}

namespace divcc {

class DiversityTarget {
public:
  virtual ~DiversityTarget() = default;

  /// How many distinct no-op forms insertNop() can emit.
  virtual unsigned nopFormCount() const = 0;
  /// Inserts no-op form \p Form (< nopFormCount()) before \p Before.
  virtual void insertNop(llvm::MachineBasicBlock &MBB,
                         llvm::MachineBasicBlock::instr_iterator Before,
                         unsigned Form) const = 0;
  /// Instructions that must be the first of their block or function (the
  /// landing marks of indirect-branch tracking): nothing may precede them.
  virtual bool mustStayFirst(const llvm::MachineInstr &MI) const = 0;
};

/// Whether divcc can diversify code for \p T.
bool isSupportedTarget(const llvm::Triple &T);

/// The target knowledge for \p T, built from the tables of \p STI, or null
/// if divcc does not support \p T. The result serves every function of the
/// module.
std::unique_ptr<DiversityTarget>
createDiversityTarget(const llvm::Triple &T,
                      const llvm::TargetSubtargetInfo &STI);

} // namespace divcc

#endif
