//===- X86MacroFusion.cpp - Which x86 instruction pairs fuse --------------===//
//
// x86 cores decode a flag-setting instruction and the conditional branch
// right after it as one micro-op:
//
//     cmpl $10, %edi          first:  cmp, test, and, add, sub, inc, dec
//     jl   .LBB0_2            second: jcc reading the first's flags
//
// Which pairs fuse depends on the subtarget's tuning:
//   - branchfusion (AMD): cmp or test with any jcc;
//   - macrofusion (Intel, and the generic x86-64 tuning):
//       test, and            with any jcc,
//       cmp, add, sub        with je/jne/jl/jge/jle/jg/jb/jae/jbe/ja,
//       inc, dec             with je/jne/jl/jge/jle/jg;
//   - neither: nothing fuses, and nothing is tied together.
// These are the rules of LLVM 19's own x86 scheduler (X86MacroFusion.cpp
// and X86BaseInfo.h in LLVM), so that divcc's scheduler builds the same
// scheduling DAG as clang's. The first instruction's forms are register,
// immediate and register-memory (and memory-register for cmp and test);
// memory-immediate forms do not fuse. The second encoding of each
// register-register form (LLVM's rr_REV, which only divcc's instruction
// substitution produces, after scheduling) fuses like the first: the cores
// fuse operations, not opcode bytes.
//
// Opcodes and the two tuning features are looked up by name, once per
// process: their numbers are generated into headers that the installed LLVM
// does not ship, and are the same for every x86 subtarget of one libLLVM.
// The condition codes of JCC_1 are the ISA's own 4-bit encodings (the low
// nibble of the Jcc opcode), not numbers LLVM generates.
//
//===----------------------------------------------------------------------===//

#include "targets/x86/X86.h"

#include "targets/TargetNames.h"
#include "llvm/CodeGen/ScheduleDAGMutation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MacroFusion.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/ErrorHandling.h"

#include <string>

using namespace llvm;

namespace divcc {
namespace {

enum class FirstKind { Test, And, Cmp, AddSub, IncDec };
enum class SecondKind { AB, ELG, SPO, Invalid };

/// The x86 condition codes (ISA encoding) as JCC_1 carries them.
enum CondCode : int64_t {
  CondO = 0,
  CondNO = 1,
  CondB = 2,
  CondAE = 3,
  CondE = 4,
  CondNE = 5,
  CondBE = 6,
  CondA = 7,
  CondS = 8,
  CondNS = 9,
  CondP = 10,
  CondNP = 11,
  CondL = 12,
  CondGE = 13,
  CondLE = 14,
  CondG = 15
};

SecondKind classifyCondition(int64_t CC) {
  switch (CC) {
  case CondE:
  case CondNE:
  case CondL:
  case CondGE:
  case CondLE:
  case CondG:
    return SecondKind::ELG;
  case CondB:
  case CondAE:
  case CondBE:
  case CondA:
    return SecondKind::AB;
  case CondS:
  case CondNS:
  case CondP:
  case CondNP:
  case CondO:
  case CondNO:
    return SecondKind::SPO;
  default:
    return SecondKind::Invalid;
  }
}

bool isMacroFused(FirstKind First, SecondKind Second) {
  switch (First) {
  case FirstKind::Test:
  case FirstKind::And:
    return true;
  case FirstKind::Cmp:
  case FirstKind::AddSub:
    return Second == SecondKind::AB || Second == SecondKind::ELG;
  case FirstKind::IncDec:
    return Second == SecondKind::ELG;
  }
  llvm_unreachable("unknown first macro-fusion kind");
}

/// The names of the instructions that can come first in a fused pair.
StringMap<FirstKind> firstInstructionNames() {
  StringMap<FirstKind> Names;
  auto Add = [&](FirstKind Kind, StringRef Mnemonic,
                 std::initializer_list<const char *> Forms) {
    for (const char *Form : Forms)
      Names[(Mnemonic + Form).str()] = Kind;
  };
  // Accumulator-immediate, register-immediate (ri8: sign-extended imm8),
  // register-memory and register-register forms.
  Add(FirstKind::Test, "TEST",
      {"8i8", "8mr", "8ri", "8rr", "16i16", "16mr", "16ri", "16rr", "32i32",
       "32mr", "32ri", "32rr", "64i32", "64mr", "64ri32", "64rr"});
  for (StringRef Mnemonic : {"AND", "ADD", "SUB"})
    Add(Mnemonic == "AND" ? FirstKind::And : FirstKind::AddSub, Mnemonic,
        {"8i8",      "8ri",      "8ri8",     "8rm",      "8rr",
         "8rr_REV",  "16i16",    "16ri",     "16ri8",    "16rm",
         "16rr",     "16rr_REV", "32i32",    "32ri",     "32ri8",
         "32rm",     "32rr",     "32rr_REV", "64i32",    "64ri32",
         "64ri8",    "64rm",     "64rr",     "64rr_REV"});
  Add(FirstKind::Cmp, "CMP",
      {"8i8",      "8mr",   "8ri",    "8ri8",     "8rm",   "8rr",
       "8rr_REV",  "16i16", "16mr",   "16ri",     "16ri8", "16rm",
       "16rr",     "16rr_REV", "32i32", "32mr",   "32ri",  "32ri8",
       "32rm",     "32rr",  "32rr_REV", "64i32",  "64mr",  "64ri32",
       "64ri8",    "64rm",  "64rr",   "64rr_REV"});
  for (StringRef Mnemonic : {"INC", "DEC"})
    Add(FirstKind::IncDec, Mnemonic,
        {"8r", "16r", "16r_alt", "32r", "32r_alt", "64r"});
  return Names;
}

unsigned featureNamed(const TargetSubtargetInfo &STI, StringRef Name) {
  return divcc::featureNamed(STI, "x86", Name);
}

/// Opcode numbers and feature bits, which are fixed for one libLLVM.
struct FusionTable {
  DenseMap<unsigned, FirstKind> First;
  unsigned Jcc = 0;
  unsigned MacroFusion = 0, BranchFusion = 0; // feature bit indices

  FusionTable(const TargetInstrInfo &TII, const TargetSubtargetInfo &STI)
      : MacroFusion(featureNamed(STI, "macrofusion")),
        BranchFusion(featureNamed(STI, "branchfusion")) {
    StringMap<FirstKind> Wanted = firstInstructionNames();
    StringSet<> Found;
    // A prefix test first: hashing each of x86's 16,000 opcode names costs
    // over half a millisecond, in every compile.
    static const char *const Mnemonics[] = {"TEST", "AND", "ADD", "SUB",
                                            "CMP",  "INC", "DEC", "JCC"};
    for (unsigned Opc = 0, E = TII.getNumOpcodes(); Opc != E; ++Opc) {
      StringRef Name = TII.getName(Opc);
      if (llvm::none_of(Mnemonics, [&](const char *M) { return Name.starts_with(M); }))
        continue;
      if (Name == "JCC_1") {
        Jcc = Opc;
        Found.insert(Name);
      }
      auto It = Wanted.find(Name);
      if (It != Wanted.end()) {
        First[Opc] = It->second;
        Found.insert(Name);
      }
    }
    if (!Found.contains("JCC_1"))
      report_fatal_error("divcc: x86 opcode not found: JCC_1");
    for (const auto &Entry : Wanted)
      if (!Found.contains(Entry.getKey()))
        report_fatal_error(Twine("divcc: x86 opcode not found: ") +
                           Entry.getKey());
  }
};

const FusionTable &fusionTable(const TargetInstrInfo &TII,
                               const TargetSubtargetInfo &STI) {
  static const FusionTable Table(TII, STI);
  return Table;
}

/// MacroFusionPredTy: whether FirstMI and the branch SecondMI fuse; with no
/// FirstMI, whether SecondMI can end a fused pair at all.
bool shouldScheduleAdjacent(const TargetInstrInfo &TII,
                            const TargetSubtargetInfo &STI,
                            const MachineInstr *FirstMI,
                            const MachineInstr &SecondMI) {
  const FusionTable &Table = fusionTable(TII, STI);
  bool BranchFusion = STI.hasFeature(Table.BranchFusion);
  if (!BranchFusion && !STI.hasFeature(Table.MacroFusion))
    return false;

  if (SecondMI.getOpcode() != Table.Jcc)
    return false;
  const MCInstrDesc &Desc = SecondMI.getDesc();
  SecondKind Second = classifyCondition(
      SecondMI.getOperand(Desc.getNumOperands() - 1).getImm());
  if (Second == SecondKind::Invalid)
    return false;
  if (!FirstMI)
    return true;

  auto It = Table.First.find(FirstMI->getOpcode());
  if (It == Table.First.end())
    return false;
  FirstKind First = It->second;
  if (BranchFusion)
    return First == FirstKind::Cmp || First == FirstKind::Test;
  return isMacroFused(First, Second);
}

} // namespace

bool isX86MacroFusedPair(const MachineInstr &First, const MachineInstr &Second) {
  const TargetSubtargetInfo &STI = First.getMF()->getSubtarget();
  return shouldScheduleAdjacent(*STI.getInstrInfo(), STI, &First, Second);
}

std::unique_ptr<ScheduleDAGMutation> createX86MacroFusionMutation() {
  return createMacroFusionDAGMutation(shouldScheduleAdjacent,
                                      /*BranchOnly=*/true);
}

} // namespace divcc
