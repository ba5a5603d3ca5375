//===- EntryPath.h - What a function's entry falls through to ----------===//
//
// The code a function runs from its entry up to its first gap sits at the
// same offset from the function's start in every variant but for what
// `shift` and `entry` add there. The gadgets that code holds end at its
// first return, indirect branch or indirect call, or in inline assembly
// (whose bytes may hold any gadget); what it runs before the first
// unconditional jump without such an ending holds none.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_ENTRYPATH_H
#define DIVCC_TRANSFORMS_ENTRYPATH_H

namespace llvm {
class MachineFunction;
class MachineInstr;
} // namespace llvm

namespace divcc {

/// Whether \p MI ends gadgets: a return, or a jump or call through a
/// register or memory (an indirect tail call is both).
bool isGadgetEnding(const llvm::MachineInstr &MI);

/// The first gadget ending or inline assembly on the path that falls
/// through from \p MF's entry, or null if that path leaves the
/// fall-through chain first (an unconditional branch, a direct tail call).
llvm::MachineInstr *firstEndingFromEntry(llvm::MachineFunction &MF);

} // namespace divcc

#endif
