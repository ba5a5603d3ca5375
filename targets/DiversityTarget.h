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
#include "llvm/Pass.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
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

/// The targets isSupportedTarget() accepts, for messages: "x86_64 and ...".
const char *supportedTargetsText();

/// The pass of \p T's code-generation pipeline right after which divcc's
/// last machine passes (instruction substitution, NOP insertion) run, or
/// null to run them after all of LLVM's machine passes, right before the
/// assembly printer. A target whose later passes measure code size (branch
/// relaxation: x86's assembler relaxes branches itself, AArch64's does not)
/// names a pass before the first of them, so that every inserted
/// instruction is measured.
llvm::AnalysisID lateMachinePassAnchor(const llvm::Triple &T);

/// What padding that must never run needs to know about a target: the byte
/// whose repetition decodes to trapping instructions (no gadget), and the GNU
/// property that marks an object compatible with the target's control-flow
/// protection, so that linking the padding never turns that protection off.
struct TrapPadding {
  uint8_t FillByte;
  uint32_t FeatureProperty; // a GNU_PROPERTY_*_FEATURE_1_AND
  uint32_t FeatureBits;     // every feature bit that property can claim
};

/// The padding knowledge for \p T, which isSupportedTarget(T).
TrapPadding trapPadding(const llvm::Triple &T);

/// The target knowledge for \p T, built from the tables of \p STI, or null
/// if divcc does not support \p T. The result serves every function of the
/// module.
std::unique_ptr<DiversityTarget>
createDiversityTarget(const llvm::Triple &T,
                      const llvm::TargetSubtargetInfo &STI);

} // namespace divcc

#endif
