//===- RISCVGadgetTarget.cpp - RISC-V gadget endings for divtool audit ----===//
//
// Gadget endings on RISC-V 64:
//
//   ret     jalr x0, 0(ra) (ret) and c.jr ra: a jump through the return
//           address register
//   jop     every other jalr, c.jr and c.jalr: a jump or call through a
//           register
//   sys     ecall
//
// With the C extension instructions start at every two-byte boundary, so
// gadgets are searched from every even offset (ROPgadget does the same).
//
// Inside a gadget no instruction may transfer control for sure or stop the
// program: jal, c.j, c.jal, the endings above, ebreak, c.ebreak, and the
// unimplemented instructions (unimp, c.unimp). Conditional branches may be
// inside: their fall-through path runs on to the ending.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/riscv/RISCV.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"

using namespace llvm;

namespace divcc {
namespace {

class RISCVGadgetTarget final : public GadgetTarget {
public:
  RISCVGadgetTarget(const MCInstrInfo &MII, const MCRegisterInfo &MRI) {
    for (unsigned Reg = 1, E = MRI.getNumRegs(); Reg != E; ++Reg) {
      StringRef Name = MRI.getName(Reg);
      if (Name == "X0")
        ZeroRegister = Reg;
      else if (Name == "X1")
        ReturnAddress = Reg;
    }
    for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc) {
      StringRef Name = MII.getName(Opc);
      if (Name == "ECALL")
        SystemCall = Opc;
      else if (Name == "JALR")
        Jalr = Opc;
      else if (Name == "C_JR")
        CompressedJr = Opc;
      else if (Name == "C_JALR")
        CompressedJalr = Opc;
      else if (Name == "EBREAK" || Name == "C_EBREAK" || Name == "UNIMP" ||
               Name == "C_UNIMP" || Name == "JAL" || Name == "C_J" ||
               Name == "C_JAL")
        Stops.insert(Opc);
    }
  }

  unsigned printerVariant() const override { return 0; }
  unsigned instructionAlignment(unsigned) const override { return 2; }
  // RV64GC and the extensions a Debian riscv64 binary may use.
  const char *disassemblerFeatures(unsigned) const override {
    return "+64bit,+m,+a,+f,+d,+c,+zicsr,+zifencei,+zba,+zbb,+zbs,+v";
  }

  std::optional<GadgetKind> endingKind(const MCInst &I) const override {
    unsigned Opc = I.getOpcode();
    if (Opc == SystemCall)
      return GadgetKind::Sys;
    if (Opc == Jalr)
      // jalr rd, offset(rs1): a return when it jumps to ra and links nowhere.
      return isReg(I, 0, ZeroRegister) && isReg(I, 1, ReturnAddress)
                 ? GadgetKind::Ret
                 : GadgetKind::Jop;
    if (Opc == CompressedJr)
      return isReg(I, 0, ReturnAddress) ? GadgetKind::Ret : GadgetKind::Jop;
    if (Opc == CompressedJalr)
      return GadgetKind::Jop;
    return std::nullopt;
  }

  bool breaksGadget(const MCInst &I) const override {
    unsigned Opc = I.getOpcode();
    return Opc == SystemCall || Opc == Jalr || Opc == CompressedJr ||
           Opc == CompressedJalr || Stops.contains(Opc);
  }

private:
  static bool isReg(const MCInst &I, unsigned Op, unsigned Reg) {
    return Op < I.getNumOperands() && I.getOperand(Op).isReg() &&
           I.getOperand(Op).getReg() == Reg;
  }

  DenseSet<unsigned> Stops;
  unsigned SystemCall = ~0u, Jalr = ~0u, CompressedJr = ~0u,
           CompressedJalr = ~0u;
  unsigned ZeroRegister = ~0u, ReturnAddress = ~0u;
};

} // namespace

std::unique_ptr<GadgetTarget>
createRISCVGadgetTarget(const MCInstrInfo &MII, const MCRegisterInfo &MRI) {
  return std::make_unique<RISCVGadgetTarget>(MII, MRI);
}

} // namespace divcc
