//===- AArch64GadgetTarget.cpp - AArch64 gadget endings for divtool audit -===//
//
// Gadget endings, as ROPgadget and the literature count them on AArch64:
//
//   ret     ret, ret xN, and the authenticating retaa/retab
//   jop     br xN, blr xN, and the authenticating br/blr forms (braa,
//           blraaz, ...)
//   sys     svc #imm
//
// AArch64 instructions are four bytes and start only at multiples of four,
// so only aligned offsets decode: a gadget cannot start inside another
// instruction, which is why every AArch64 no-op form is gadget-free.
//
// Inside a gadget no instruction may transfer control for sure or stop the
// program: unconditional branches and calls (b, bl, and the endings above),
// exception-generating instructions (brk, hlt, udf, hvc, smc, svc) and
// eret. Conditional branches (b.cond, cbz/cbnz, tbz/tbnz) may be inside:
// their fall-through path runs on to the ending.
//
// Opcodes are looked up by name once: their numbers are generated into
// headers that the installed LLVM does not ship.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/aarch64/AArch64.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"

using namespace llvm;

namespace divcc {
namespace {

class AArch64GadgetTarget final : public GadgetTarget {
public:
  explicit AArch64GadgetTarget(const MCInstrInfo &MII) : MII(MII) {
    for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc) {
      StringRef Name = MII.getName(Opc);
      if (Name == "SVC")
        SystemCall = Opc;
      else if (Name == "BRK" || Name == "HLT" || Name == "UDF" ||
               Name == "HVC" || Name == "SMC" || Name == "DCPS1" ||
               Name == "DCPS2" || Name == "DCPS3" || Name.starts_with("ERET"))
        Stops.insert(Opc);
      else if (Name == "HINT")
        Hint = Opc;
    }
  }

  // NOP is HINT #0.
  bool isNop(const MCInst &I) const override {
    return I.getOpcode() == Hint && I.getNumOperands() == 1 &&
           I.getOperand(0).isImm() && I.getOperand(0).getImm() == 0;
  }

  unsigned printerVariant() const override { return 0; } // generic syntax
  unsigned instructionAlignment(unsigned) const override { return 4; }
  // Every extension: binaries built for newer cores (or with
  // -mbranch-protection on v8.3+, which uses retaa and braa) decode fully.
  const char *disassemblerFeatures(unsigned) const override { return "+all"; }

  std::optional<GadgetKind> endingKind(const MCInst &I) const override {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    if (D.isReturn())
      return GadgetKind::Ret;
    if (I.getOpcode() == SystemCall)
      return GadgetKind::Sys;
    // Direct branches and calls (b, bl) take a pc-relative immediate;
    // br, blr and their authenticating forms take a register.
    if (D.isIndirectBranch() || (D.isCall() && !takesImmediate(I)))
      return GadgetKind::Jop;
    return std::nullopt;
  }

  bool breaksGadget(const MCInst &I) const override {
    const MCInstrDesc &D = MII.get(I.getOpcode());
    return (D.isBranch() && !D.isConditionalBranch()) || D.isCall() ||
           D.isReturn() || D.isTrap() || D.isIndirectBranch() ||
           I.getOpcode() == SystemCall || Stops.contains(I.getOpcode());
  }

private:
  static bool takesImmediate(const MCInst &I) {
    return I.getNumOperands() >= 1 && I.getOperand(0).isImm();
  }

  const MCInstrInfo &MII;
  DenseSet<unsigned> Stops;
  unsigned SystemCall = ~0u;
  unsigned Hint = ~0u;
};

} // namespace

std::unique_ptr<GadgetTarget> createAArch64GadgetTarget(const MCInstrInfo &MII) {
  return std::make_unique<AArch64GadgetTarget>(MII);
}

} // namespace divcc
