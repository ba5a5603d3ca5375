//===- DiversityTarget.h - What divcc must know about one architecture ----===//
//
// Everything architecture-specific that divcc's transformations, its link
// steps and divtool's audit need sits behind this one class, one subclass an
// architecture, in the manner of lld's TargetInfo: the no-op forms that are
// safe to insert and the instructions that must stay first, the pairs the
// cores fuse, the orders the frame lowering can save callee-saved registers
// in, the table of equivalent instructions, where the late passes go, the
// trap byte of padding, and the gadget decoder. The transformations never
// name an opcode, a register or an architecture.
//
// Adding an architecture is one folder under targets/ with a subclass (see
// targets/x86/X86DiversityTarget.cpp) and one row in the table of
// DiversityTarget.cpp; docs/design.md lists the tests to add.
//
// A target is made from a triple alone, so that the driver and divtool can
// ask it what they need without compiling anything. What depends on the
// function being compiled (opcode numbers, subtarget features) is read from
// the machine function or subtarget each method is given.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_DIVERSITYTARGET_H
#define DIVCC_TARGETS_DIVERSITYTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/CodeGen/MachineBasicBlock.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Pass.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MachineFunction;
class MCInstrInfo;
class MCRegisterInfo;
class ScheduleDAGMutation;
class TargetSubtargetInfo;
} // namespace llvm

namespace divcc {

class GadgetTarget;
class SubstitutionTarget;

/// A set of orders of a callee-saved list, for the `saves` pass to draw
/// one from: the runs in order, each one's registers shuffled (every order
/// equally likely) or kept as they are, and, inside a run, a unit of
/// registers that stay together in their order, put after UnitFirst, or
/// UnitFirst plus a multiple of UnitStep, of the run's registers.
struct CalleeSavedOrders {
  struct Run {
    llvm::SmallVector<llvm::MCPhysReg, 16> Registers;
    bool Shuffle = false;
    llvm::SmallVector<llvm::MCPhysReg, 2> Unit;
    unsigned UnitFirst = 0;
    unsigned UnitStep = 1;
  };
  llvm::SmallVector<Run, 4> Runs;
};

/// What padding that must never run needs to know about a target: the byte
/// whose repetition decodes to trapping instructions (no gadget), and the GNU
/// property that marks an object compatible with the target's control-flow
/// protection, so that linking the padding never turns that protection off.
/// The ELF relocation types by which a linked program's data holds a code
/// address (divtool rerandomize checks each after a rewrite).
struct CodeAddressRelocations {
  uint32_t Relative;   ///< base + addend (R_X86_64_RELATIVE...)
  uint32_t IRelative;  ///< an IFUNC's resolver: base + addend
  uint32_t Absolute64; ///< symbol + addend, 64 bits
  uint32_t GlobDat;    ///< a GOT slot: the symbol's address
  uint32_t JumpSlot;   ///< a PLT's GOT slot: the symbol's address
};

struct TrapPadding {
  uint8_t FillByte;
  uint32_t FeatureProperty; // a GNU_PROPERTY_*_FEATURE_1_AND, 0 for none
  uint32_t FeatureBits;     // every feature bit that property can claim
  /// The most trap padding, in bytes, that `offset` puts before _init:
  /// what moves .init and the code the linkers put after it, the PLT among
  /// it, from one variant to the next; under lld, as many zeros at most at
  /// the head of .rodata move the code segment. Fixed-width code, whose
  /// short gadgets line up wherever two variants' code moved alike, wants
  /// more than 4 KiB.
  uint64_t MaxInitPadding = 4096;
};

/// One of libgcc's routines, as `softfp` compiles it: its source file,
/// relative to GCC's source tree, and the symbol it defines.
struct LibgccRoutine {
  std::string Source;
  std::string Symbol;
};

/// libgcc's soft-float routines of a target: the floating-point operations
/// its hardware lacks (quad precision, long double on AArch64 and RISC-V),
/// written in C in GCC's soft-fp and compiled into libgcc.a as they are.
struct LibgccSoftFloat {
  /// libgcc/config/<ConfigDir>/, which holds the target's sfp-machine.h.
  std::string ConfigDir;
  /// The machine mode of a comparison's result (GCC's
  /// TARGET_LIBGCC_CMP_RETURN_MODE), which sfp-machine.h names as
  /// __libgcc_cmp_return__, a mode clang does not know: "SI" or "word".
  std::string CmpReturnMode;
  /// Every routine libgcc.a builds from soft-fp for the target.
  std::vector<LibgccRoutine> Routines;
};

class DiversityTarget {
public:
  virtual ~DiversityTarget() = default;

  /// Transformations, by name, that plain -fdiversify (and "default" in a
  /// list) turns on for this target besides the default set: those whose
  /// price is worth paying only where nothing cheaper moves the code.
  virtual llvm::ArrayRef<llvm::StringLiteral> defaultSetAdditions() const {
    return {};
  }

  //===--- NOP insertion
  //---------------------------------------------------===//

  /// How many distinct no-op forms insertNop() can emit.
  virtual unsigned nopFormCount() const = 0;
  /// How many of the first no-op forms write no register that any
  /// instruction reads (the architectural no-op, form 0, and forms that
  /// write only a zero register) in code for \p STI: `shift` puts only those
  /// where they run on every call, since a register written with its own
  /// value makes the next reader wait for it (x86's `mov %rsp,%rsp` before a
  /// return).
  virtual unsigned
  idleNopFormCount(const llvm::TargetSubtargetInfo &STI) const {
    return 1;
  }
  /// The registers a no-op of `shift` may write where they are dead (no
  /// instruction reads them before writing them again): where a target
  /// has few idle forms (ARM: one hint), writes of a dead register give
  /// `shift`'s no-ops other bytes at no cost beyond the hint's. Empty by
  /// default.
  virtual llvm::ArrayRef<llvm::MCPhysReg>
  scratchNopRegisters(const llvm::TargetSubtargetInfo &STI) const {
    return {};
  }
  /// How many forms insertScratchNop() has for each such register.
  virtual unsigned
  scratchNopFormCount(const llvm::TargetSubtargetInfo &STI) const {
    return 0;
  }
  /// Inserts before \p Before form \p Form (< scratchNopFormCount()) of a
  /// no-op that writes \p Dead, one of scratchNopRegisters() that is dead
  /// there, and nothing else: no flags, no memory, and that reads no
  /// register.
  virtual void insertScratchNop(llvm::MachineBasicBlock &MBB,
                                llvm::MachineBasicBlock::instr_iterator Before,
                                llvm::MCRegister Dead, unsigned Form) const {}
  /// The most bytes one no-op that writes no register can take, where the
  /// target has one of every length from 1 up to it (x86-64: `nop`,
  /// `66 nop`, and `nopl`/`nopw` with a memory operand, 1 to 10 bytes); 0
  /// where its no-ops have only the lengths of their forms. `shift` then
  /// moves a return by a number of bytes, in as few no-ops as it can.
  virtual unsigned
  longestIdleNopBytes(const llvm::TargetSubtargetInfo &STI) const {
    return 0;
  }
  /// Inserts one no-op of \p Bytes (1 to longestIdleNopBytes()) that
  /// writes no register before \p Before.
  virtual void insertIdleNop(llvm::MachineBasicBlock &MBB,
                             llvm::MachineBasicBlock::instr_iterator Before,
                             unsigned Bytes) const {}
  /// The most no-ops `shift` puts before a return unless
  /// -fdiversify-shift-max says otherwise.
  virtual unsigned defaultShiftNops() const { return 3; }
  /// Inserts no-op form \p Form (< nopFormCount()) before \p Before.
  virtual void insertNop(llvm::MachineBasicBlock &MBB,
                         llvm::MachineBasicBlock::instr_iterator Before,
                         unsigned Form) const = 0;
  /// Instructions that must be the first of their block or function (the
  /// landing marks of indirect-branch tracking): nothing may precede them.
  virtual bool mustStayFirst(const llvm::MachineInstr &MI) const = 0;
  /// Whether \p MI is a prefix byte of the instruction after it (x86's
  /// segment override on its own), which nothing may separate from it.
  virtual bool isPrefixOfNext(const llvm::MachineInstr &MI) const {
    return false;
  }

  //===--- Scheduling
  //------------------------------------------------------===//

  /// Whether \p First and \p Second, adjacent in that order, are decoded as
  /// one by the cores the function is tuned for (macro fusion): nothing may
  /// go between them without costing a cycle on every execution.
  virtual bool isMacroFusedPair(const llvm::MachineInstr &First,
                                const llvm::MachineInstr &Second) const {
    return false;
  }
  /// The scheduling-DAG mutation that keeps those pairs adjacent, as LLVM's
  /// own scheduler for the target adds it, or null if there are none.
  virtual std::unique_ptr<llvm::ScheduleDAGMutation>
  createMacroFusionMutation() const;
  /// The orders of \p MF's callee-saved list \p List (the order in which
  /// its frame lowering saves and restores them) that the frame lowering
  /// takes as well as clang's: the same registers saved, with as many
  /// instructions, and CFI to match. None to leave the list as it is.
  virtual std::optional<CalleeSavedOrders>
  calleeSavedOrders(llvm::MachineFunction &MF,
                    llvm::ArrayRef<llvm::MCPhysReg> List) const {
    return std::nullopt;
  }
  /// Sets of callee-saved registers that \p MF, which modifies none of
  /// them, may save and restore beside those it does, for free: in the
  /// instructions that save and restore the others (32-bit ARM's push and
  /// pop register lists), with encodings as long, and with no instruction
  /// more to keep the stack aligned. `saves` takes one set, drawn: the
  /// empty set, where listed, is clang's choice. Saving a register then
  /// costs a store and a load per call but no instruction and no byte, and
  /// changes the bytes of the restore that returns. Empty where \p MF saves
  /// nothing, or where another saved register is another instruction
  /// (x86-64, AArch64, RISC-V).
  virtual llvm::SmallVector<llvm::SmallVector<llvm::MCPhysReg, 2>, 8>
  freeCalleeSaveChoices(const llvm::MachineFunction &MF) const {
    return {};
  }
  /// Whether the target's pre-register-allocation scheduler clusters
  /// neighbouring loads and stores (LLVM's cluster mutations, which pair
  /// them up for ldp/stp).
  virtual bool clustersMemoryOperations() const { return false; }

  //===--- Instruction substitution
  //----------------------------------------===//

  /// The table of equivalent instructions for the subtarget \p STI, or null
  /// if divcc has none for this architecture.
  virtual std::unique_ptr<SubstitutionTarget>
  createSubstitutions(const llvm::TargetSubtargetInfo &STI) const;

  //===--- Redundant prefixes
  //-----------------------------------------------===//

  /// How many prefixes addRedundantPrefix() can give an instruction, 0 on
  /// architectures without prefixes that change nothing (fixed-length
  /// encodings). A prefix is what makes an instruction longer without
  /// changing what it does: on x86-64 a segment override, on RISC-V with C
  /// the four-byte form of an instruction that has a two-byte one.
  virtual unsigned redundantPrefixCount() const { return 0; }
  /// The chance of a prefix, from 0 to 1, unless
  /// -fdiversify-prefix-probability says otherwise.
  virtual double defaultPrefixProbability() const { return 0; }
  /// Whether \p MI can take a prefix that changes nothing it does (on
  /// RISC-V: be written in its full, four-byte encoding).
  virtual bool acceptsRedundantPrefix(const llvm::MachineInstr &MI) const {
    return false;
  }
  /// Gives \p MI, which acceptsRedundantPrefix(), prefix \p Form
  /// (< redundantPrefixCount()); the target may replace \p MI by another
  /// instruction in its place.
  virtual void addRedundantPrefix(llvm::MachineInstr &MI, unsigned Form) const {
  }

  //===--- Pipeline
  //--------------------------------------------------------===//

  /// The pass of the code-generation pipeline right after which divcc's
  /// last machine passes (instruction substitution, NOP insertion) run, or
  /// null to run them after all of LLVM's machine passes, right before the
  /// assembly printer. A target whose later passes measure code size (branch
  /// relaxation: x86's assembler relaxes branches itself, AArch64's does not)
  /// names a pass before the first of them, so that every inserted
  /// instruction is measured.
  virtual llvm::AnalysisID lateMachinePassAnchor() const { return nullptr; }
  /// The pass after which the target's encodings are final, right after
  /// which `prefixes` (which chooses longer encodings) runs: a pass of the
  /// target that picks the shortest encoding it can (Thumb-2 size
  /// reduction) would otherwise undo its choices. By default the late
  /// passes' anchor, in their order.
  virtual llvm::AnalysisID encodingPassAnchor() const {
    return lateMachinePassAnchor();
  }

  //===--- Trap padding
  //----------------------------------------------------===//

  /// The byte the linker fills gaps between sections with, and the program
  /// properties the padding object must claim.
  virtual TrapPadding trapPadding() const = 0;
  /// The size in bytes of the trap appendTrap() emits in code for \p STI
  /// (32-bit ARM: Thumb or ARM state): the unit of the padding of gaps
  /// inside and between functions.
  virtual unsigned trapSize(const llvm::TargetSubtargetInfo &STI) const = 0;
  /// The most bytes of trap padding after a block control never falls out
  /// of, in code for \p STI, unless -fdiversify-gap-max says otherwise; a
  /// function's first such gap is defaultFirstGapBytes(). None by default:
  /// the first gap's shift moves everything after it, and bytes spent there
  /// buy more than the same bytes spread over every later gap. On the
  /// three projects with gaps of 4 bytes after the first: AArch64 keeps
  /// 7.6% of its gadgets at their offset in their function for 1.057x
  /// clang-19's .text, and 7.2% for 1.051x with a first gap of 44 bytes
  /// and no other; RISC-V 5.2% for 1.092x against 5.2% for 1.056x; Thumb
  /// 10.7% for 1.091x against 10.1% for 1.070x (docs/performance.md).
  virtual unsigned defaultGapBytes(const llvm::TargetSubtargetInfo &) const {
    return 0;
  }
  /// The most bytes of a function's first gap in code for \p STI, which
  /// moves everything after it in the function. Where `prefixes` has
  /// nothing to lengthen (AArch64, ARM state, RISC-V without C), it is
  /// all that moves that code: 44 bytes, twelve places for four-byte
  /// traps.
  virtual unsigned
  defaultFirstGapBytes(const llvm::TargetSubtargetInfo &) const {
    return 44;
  }
  /// Appends one trap instruction to \p MBB, made of trapPadding()'s fill
  /// bytes: code that is never executed, and aborts if it ever is.
  virtual void appendTrap(llvm::MachineBasicBlock &MBB) const = 0;

  //===--- Runtime routines
  //------------------------------------------------===//

  /// libgcc's soft-float routines on this target, which `softfp` links in
  /// diversified copies of; none where libgcc's are assembly (32-bit ARM)
  /// or where programs rarely call them (x86-64, whose long double is the
  /// x87's).
  virtual LibgccSoftFloat libgccSoftFloat() const { return {}; }

  //===--- Golden masters
  //---------------------------------------------------===//

  /// Whether divtool rerandomize can lay out a program of this architecture
  /// again (LLVM BOLT rewrites it), so that -fdiversify-golden makes sense.
  virtual bool canLayOutAgain() const { return false; }
  /// The relocation types that put code addresses in a program's data;
  /// every target that canLayOutAgain() has them.
  virtual std::optional<CodeAddressRelocations>
  codeAddressRelocations() const {
    return std::nullopt;
  }

  //===--- Auditing
  //--------------------------------------------------------===//

  /// The gadget knowledge, with opcodes and registers looked up in \p MII
  /// and \p MRI (the MC layer's tables for gadgetTriple()), which must
  /// outlive the result.
  virtual std::unique_ptr<GadgetTarget>
  createGadgetTarget(const llvm::MCInstrInfo &MII,
                     const llvm::MCRegisterInfo &MRI) const = 0;

protected:
  /// libgcc's quad-precision routines (arithmetic, comparisons,
  /// conversions to and from 32-, 64- and 128-bit integers, single and
  /// double precision) and the soft-fp files \p Extra (NAME.c defines
  /// __NAME), for the target whose sfp-machine.h is in
  /// libgcc/config/\p ConfigDir and whose comparisons return
  /// \p CmpReturnMode.
  static LibgccSoftFloat
  quadSoftFpRoutines(llvm::StringRef ConfigDir, llvm::StringRef CmpReturnMode,
                     llvm::ArrayRef<llvm::StringRef> Extra);
};

/// The target knowledge for \p T, or null if divcc cannot diversify \p T.
std::unique_ptr<DiversityTarget> createDiversityTarget(const llvm::Triple &T);

/// Whether divcc can diversify code for \p T.
bool isSupportedTarget(const llvm::Triple &T);

/// The targets isSupportedTarget() accepts, for messages: "x86_64 and ...".
std::string supportedTargetsText();

/// The triple whose disassembler reads \p Arch code (Linux/ELF), or none if
/// divcc knows nothing of \p Arch.
std::optional<llvm::Triple> gadgetTriple(llvm::Triple::ArchType Arch);

} // namespace divcc

#endif
