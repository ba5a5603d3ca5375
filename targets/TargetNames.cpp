//===- TargetNames.cpp - Opcodes, registers and features by name ----------===//

#include "targets/TargetNames.h"

#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace divcc {

[[noreturn]] static void notFound(StringRef Target, StringRef What,
                                  StringRef Name) {
  report_fatal_error(Twine("divcc: ") + Target + " " + What +
                     " not found: " + Name);
}

unsigned opcodeNamed(const MCInstrInfo &MII, StringRef Target,
                     StringRef Name) {
  for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc)
    if (MII.getName(Opc) == Name)
      return Opc;
  notFound(Target, "opcode", Name);
}

OpcodeNames::OpcodeNames(const MCInstrInfo &MII, StringRef Target)
    : Target(Target) {
  for (unsigned Opc = 0, E = MII.getNumOpcodes(); Opc != E; ++Opc)
    ByName[MII.getName(Opc)] = Opc;
}

unsigned OpcodeNames::operator()(StringRef Name) const {
  auto It = ByName.find(Name);
  if (It == ByName.end())
    notFound(Target, "opcode", Name);
  return It->second;
}

MCRegister registerNamed(const TargetRegisterInfo &TRI, StringRef Target,
                         StringRef Name) {
  for (unsigned Reg = 1, E = TRI.getNumRegs(); Reg != E; ++Reg)
    if (Name.equals_insensitive(TRI.getName(Reg)))
      return Reg;
  notFound(Target, "register", Name);
}

const TargetRegisterClass &registerClassNamed(const TargetRegisterInfo &TRI,
                                              StringRef Target,
                                              StringRef Name) {
  for (const TargetRegisterClass *RC : TRI.regclasses())
    if (Name == TRI.getRegClassName(RC))
      return *RC;
  notFound(Target, "register class", Name);
}

unsigned featureNamed(const TargetSubtargetInfo &STI, StringRef Target,
                      StringRef Name) {
  for (const SubtargetFeatureKV &KV : STI.getAllProcessorFeatures())
    if (Name == KV.Key)
      return KV.Value;
  notFound(Target, "subtarget feature", Name);
}

} // namespace divcc
