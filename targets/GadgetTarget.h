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
  /// Instructions start only at multiples of this many bytes.
  virtual unsigned instructionAlignment() const = 0;
  /// The subtarget features the disassembler decodes with: every extension
  /// a binary may use, so that no instruction of it reads as invalid.
  virtual const char *disassemblerFeatures() const { return ""; }
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
