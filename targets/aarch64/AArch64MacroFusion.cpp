//===- AArch64MacroFusion.cpp - Which AArch64 instruction pairs fuse ------===//
//
// AArch64 cores fuse some adjacent pairs into one operation. LLVM's AArch64
// scheduler keeps them together with a DAG mutation (AArch64MacroFusion.cpp
// in LLVM), which is not part of the installed libraries; divcc's scheduler
// (transforms/ScheduleRandomization.cpp) adds this one in its place, and NOP
// insertion never splits a pair it names. It knows the pairs of LLVM's
// generic AArch64 tuning, which is what clang uses for aarch64-linux-gnu
// without -mcpu/-mtune:
//
//   fuse-aes       aese  vD, vN  + aesmc  vD, vD     (encode round)
//                  aesd  vD, vN  + aesimc vD, vD     (decode round)
//   fuse-adrp-add  adrp  xD, sym + add    xD, xD, :lo12:sym
//
// Each pair is fused only on subtargets with its tuning feature, exactly as
// in LLVM. The pairs of other cores' tunings (literal generation, compare
// and branch or select, arithmetic-logic, ...) are not kept together by
// divcc's scheduler: a cycle lost on those cores where the random order
// splits them, never a change in behaviour.
//
// Opcodes and features are looked up by name once per process: their numbers
// are the same for every AArch64 subtarget of one libLLVM.
//
//===----------------------------------------------------------------------===//

#include "targets/aarch64/AArch64.h"

#include "targets/TargetNames.h"
#include "llvm/CodeGen/ScheduleDAGMutation.h"

#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MacroFusion.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "aarch64";

struct FusionTable {
  unsigned Aese, Aesmc, AesmcTied, Aesd, Aesimc, AesimcTied;
  unsigned Adrp, AddXri;
  unsigned FuseAES, FuseAdrpAdd; // feature bit indices

  FusionTable(const TargetInstrInfo &TII, const TargetSubtargetInfo &STI)
      : Aese(opcodeNamed(TII, Name, "AESErr")),
        Aesmc(opcodeNamed(TII, Name, "AESMCrr")),
        AesmcTied(opcodeNamed(TII, Name, "AESMCrrTied")),
        Aesd(opcodeNamed(TII, Name, "AESDrr")),
        Aesimc(opcodeNamed(TII, Name, "AESIMCrr")),
        AesimcTied(opcodeNamed(TII, Name, "AESIMCrrTied")),
        Adrp(opcodeNamed(TII, Name, "ADRP")),
        AddXri(opcodeNamed(TII, Name, "ADDXri")),
        FuseAES(featureNamed(STI, Name, "fuse-aes")),
        FuseAdrpAdd(featureNamed(STI, Name, "fuse-adrp-add")) {}
};

const FusionTable &fusionTable(const TargetInstrInfo &TII,
                               const TargetSubtargetInfo &STI) {
  static const FusionTable Table(TII, STI);
  return Table;
}

/// True unless the pair provably writes different physical registers (as
/// LLVM's AArch64 rule: before register allocation they are virtual).
bool mayWriteSameRegister(const MachineInstr &First,
                          const MachineInstr &Second) {
  Register A = First.getOperand(0).getReg(), B = Second.getOperand(0).getReg();
  return !A.isPhysical() || !B.isPhysical() || A == B;
}

/// aese + aesmc, aesd + aesimc.
bool isAESPair(const FusionTable &T, const MachineInstr *First,
               const MachineInstr &Second) {
  unsigned Opc = Second.getOpcode();
  unsigned Round;
  if (Opc == T.Aesmc || Opc == T.AesmcTied)
    Round = T.Aese;
  else if (Opc == T.Aesimc || Opc == T.AesimcTied)
    Round = T.Aesd;
  else
    return false;
  if (!First) // any pair ending in Second
    return true;
  if (First->getOpcode() != Round)
    return false;
  return Opc == T.AesmcTied || Opc == T.AesimcTied ||
         mayWriteSameRegister(*First, Second);
}

/// MacroFusionPredTy: whether FirstMI and SecondMI fuse; with no FirstMI,
/// whether SecondMI can end a fused pair at all.
bool shouldScheduleAdjacent(const TargetInstrInfo &TII,
                            const TargetSubtargetInfo &STI,
                            const MachineInstr *FirstMI,
                            const MachineInstr &SecondMI) {
  const FusionTable &T = fusionTable(TII, STI);
  if (STI.hasFeature(T.FuseAES) && isAESPair(T, FirstMI, SecondMI))
    return true;
  return STI.hasFeature(T.FuseAdrpAdd) && SecondMI.getOpcode() == T.AddXri &&
         (!FirstMI || FirstMI->getOpcode() == T.Adrp);
}

} // namespace

bool isAArch64MacroFusedPair(const MachineInstr &First,
                             const MachineInstr &Second) {
  const TargetSubtargetInfo &STI = First.getMF()->getSubtarget();
  return shouldScheduleAdjacent(*STI.getInstrInfo(), STI, &First, Second);
}

std::unique_ptr<ScheduleDAGMutation> createAArch64MacroFusionMutation() {
  return createMacroFusionDAGMutation(shouldScheduleAdjacent);
}

} // namespace divcc
