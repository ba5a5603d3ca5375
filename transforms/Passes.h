//===- Passes.h - Constructors of divcc's transformation passes -----------===//

#ifndef DIVCC_TRANSFORMS_PASSES_H
#define DIVCC_TRANSFORMS_PASSES_H

#include "transforms/DiversityOptions.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Function;
class Module;
class ModulePass;
class FunctionPass;
} // namespace llvm

namespace divcc {

/// The name under which a module's random streams are derived. It must be
/// the same wherever and however the module is built (other directory, other
/// -j, with or without -g) and differ between modules: the base name of the
/// source file and a digest of the names of the module's definitions, in
/// their original order. Computed before any transformation reorders them.
std::string moduleStreamName(const llvm::Module &M);

/// Whether \p F must be emitted exactly as LLVM generates it: naked
/// functions, and functions whose bytes are patched at run time
/// (patchable-function-entry, fentry calls, XRay, hot-patching).
bool mustKeepExactCode(const llvm::Function &F);

/// IR pass: shuffles the order of function definitions in the module.
llvm::ModulePass *createFunctionShufflePass(StreamSource Streams);

/// IR pass: shuffles the order of global variables (and pads them).
llvm::ModulePass *createGlobalShufflePass(const GlobalOptions &Options,
                                          StreamSource Streams);

/// IR pass: shuffles each function's stack slots and pads its frame.
llvm::FunctionPass *createFrameRandomizationPass(const FrameOptions &Options,
                                                 StreamSource Streams);

/// Machine pass right before register allocation: random allocation hints.
llvm::FunctionPass *createRegisterHintPass(const RegisterHintOptions &Options,
                                           StreamSource Streams);

/// Machine pass right after block placement: shuffles basic blocks.
llvm::FunctionPass *createBlockShufflePass(BlockShuffleMode Mode,
                                           StreamSource Streams);

/// Late machine pass (before NOP insertion): equivalent instructions.
llvm::FunctionPass *createInstructionSubstitutionPass(StreamSource Streams);

/// Last machine pass, after NOP insertion: trap padding after the blocks
/// control cannot fall out of.
llvm::FunctionPass *createTrapGapPass(const GapOptions &Options,
                                      StreamSource Streams);

/// Late machine pass (after substitution, before NOP insertion): prefixes
/// that change nothing but an instruction's length.
llvm::FunctionPass *createRedundantPrefixPass(const PrefixOptions &Options,
                                              StreamSource Streams);

/// Machine pass right before prologue and epilogue insertion: the order in
/// which callee-saved registers are saved and restored.
llvm::FunctionPass *createCalleeSaveShufflePass(StreamSource Streams);

/// Late machine pass (after NOP insertion, before the gaps): no-ops before
/// the first return a function's entry falls into.
llvm::FunctionPass *createReturnShiftPass(const ShiftOptions &Options,
                                          StreamSource Streams);

/// Late machine pass (after `shift`, before the gaps): a jump at each
/// function's entry over what becomes its first gap.
llvm::FunctionPass *createEntryJumpPass(StreamSource Streams);

/// Machine pass right after block placement: takes away the alignment
/// padding before loops, which would absorb the moves before them.
llvm::FunctionPass *createLoopUnalignPass(StreamSource Streams);

/// Late machine pass: inserts no-op instructions.
llvm::FunctionPass *createNopInsertionPass(const NopOptions &Options,
                                           StreamSource Streams);

/// While alive, LLVM's machine scheduler runs divcc's randomized strategy
/// in mode \p Mode for the module whose streams \p Streams gives (LLVM
/// picks schedulers through a global registry, so this is a scope rather
/// than a pass).
class RandomSchedulerScope {
public:
  RandomSchedulerScope(ScheduleMode Mode, StreamSource Streams);
  ~RandomSchedulerScope();
  RandomSchedulerScope(const RandomSchedulerScope &) = delete;
  RandomSchedulerScope &operator=(const RandomSchedulerScope &) = delete;
};

} // namespace divcc

#endif
