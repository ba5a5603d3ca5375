//===- GadgetTarget.h - What gadget finding must know about one target ----===//
//
// divtool audit looks for code-reuse gadgets: short instruction sequences
// that end in an instruction an attacker can chain through (a return, an
// indirect jump or call, a system call). Which instructions those are, and
// which instructions may not appear inside a gadget, is the only
// target-specific knowledge the gadget finder needs; it sits behind this
// interface, one implementation per target, made by that target's
// DiversityTarget::createGadgetTarget().
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_GADGETTARGET_H
#define DIVCC_TARGETS_GADGETTARGET_H

#include "llvm/TargetParser/Triple.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace llvm {
class MCInst;
class MCInstrInfo;
} // namespace llvm

namespace divcc {

/// How a gadget hands control on: what an attacker chains it with.
enum class GadgetKind : uint8_t {
  Ret, // a return: return-oriented programming
  Jop, // an indirect jump or call: jump-oriented programming
  Sys, // a system call
};
constexpr unsigned NumGadgetKinds = 3;
const char *gadgetKindName(GadgetKind K);

class GadgetTarget {
public:
  virtual ~GadgetTarget() = default;

  /// The MCInstPrinter syntax gadgets are shown in (ROPgadget's: Intel on
  /// x86).
  virtual unsigned printerVariant() const = 0;
  /// How many instruction sets code of this architecture may be in, each
  /// decoded on its own: one, or two on 32-bit ARM (Thumb, ARM state).
  /// Set 0 is what code is taken to be where no mapping symbol says.
  virtual unsigned instructionSetCount() const { return 1; }
  /// Instructions of set \p Set start only at multiples of this many bytes.
  virtual unsigned instructionAlignment(unsigned Set) const = 0;
  /// The subtarget features the disassembler decodes set \p Set with: every
  /// extension a binary may use, so that no instruction of it reads as
  /// invalid.
  virtual const char *disassemblerFeatures(unsigned Set) const { return ""; }
  /// What an ELF mapping symbol ("$t", "$a", "$d", perhaps with a suffix)
  /// whose name starts with '$' and \p Letter says of the bytes from its
  /// address on: the instruction set they are in, DataMapping for data in
  /// code, none if the target has no such mapping symbol.
  static constexpr int DataMapping = -1;
  virtual std::optional<int> mappingSymbol(char Letter) const {
    return std::nullopt;
  }
  /// Whether decoding \p I leaves state in LLVM's disassembler that would
  /// change how the next bytes decode (Thumb's IT instruction predicates
  /// the next ones). Gadgets start where a jump lands, with no such state.
  virtual bool leavesDecoderState(const llvm::MCInst &I) const { return false; }
  /// Takes out of \p I a prefix that changes nothing it does (x86-64's ES,
  /// CS, SS or DS segment override, which divcc's `prefixes` adds), so that
  /// LLVM evaluates its operands as the plain instruction's (it declines a
  /// memory operand that names a segment); false if \p I has none.
  virtual bool dropRedundantPrefix(llvm::MCInst &I) const { return false; }
  /// Whether \p I is a no-op (padding an assembler or linker may add or
  /// drop without changing what the code does).
  virtual bool isNop(const llvm::MCInst &I) const { return false; }
  /// If \p I can end a gadget, how.
  virtual std::optional<GadgetKind>
  endingKind(const llvm::MCInst &I) const = 0;
  /// Whether \p I may not appear before a gadget's last instruction: it
  /// transfers control elsewhere or stops the program, so the sequence would
  /// not run through to the end.
  virtual bool breaksGadget(const llvm::MCInst &I) const = 0;
};

} // namespace divcc

#endif
