//===- AArch64DiversityTarget.cpp - AArch64 knowledge for divcc -----------===//
//
// No-op forms. AArch64 instructions are four bytes, four-byte aligned, and
// decode only from aligned offsets, so no form hides another instruction;
// each must only leave every register, the flags and memory as they were:
//
//   d503201f    nop                    (hint #0)
//   aa1f03ff    mov xzr, xzr           (orr xzr, xzr, xzr)
//   ca1f03ff    eor xzr, xzr, xzr
//   8a1f03ff    and xzr, xzr, xzr
//   8b1f03ff    add xzr, xzr, xzr
//
// The four ALU forms are the shifted-register encodings, where register 31
// is the zero register (in the immediate and extended-register forms of add
// it would be the stack pointer), and none of them sets the flags. They
// write only the zero register, so unlike a `mov wN, wN` (which clears the
// upper half of xN) or a `mov xN, xN` (which makes xN look live) they change
// nothing that any later instruction or pass can observe. Other HINT
// numbers are not used: the unallocated ones are reserved for future
// extensions, and the allocated ones (yield, wfe, bti, pac*, ...) are not
// no-ops.
//
// Where the NOPs go in the pipeline. AArch64's branches have short ranges
// (tbz/tbnz +-32 KiB, b.cond/cbz +-1 MiB) and LLVM's branch relaxation pass
// rewrites the branches that cannot reach, from instruction sizes measured
// before emission; the assembler does not relax them. So NOP insertion
// cannot be the last machine pass here: it runs right after LLVM's machine
// sanitizer-metadata pass (lateMachinePassAnchor), the last generic pass
// that every pipeline adds before AArch64's final passes:
//
//   ... live debug values, sanitizer binary metadata, [divcc: subst, nops],
//   machine outliner (-Oz, -moutline), sls hardening, pointer
//   authentication, branch targets (bti), branch relaxation, jump-table
//   compression, CFI fixup, ..., assembly printer
//
// AArch64's own passes cannot serve as the anchor: their IDs are not
// exported and they are registered only when first created. None of the
// passes after the NOPs reasons about register copies, and the forms write
// only the zero register, so the passes that follow cannot mistake them for
// real instructions.
//
// Instructions that must stay first: the BTI landing pads (hint #32, #34,
// #36, #38) and PACIASP/PACIBSP (and PAUTH_PROLOGUE, the pseudo that
// becomes them), which are implicit `bti c` landing pads at a function's
// entry. The branch-targets pass runs after the NOPs, and would add a BTI
// wherever a NOP came before a PACI[AB]SP; refusing those places keeps the
// prologue as clang emits it, and keeps landing pads first whatever order a
// future LLVM runs these passes in.
//
// The order of callee-saved saves (calleeSavedOrders, for `saves`).
// AArch64FrameLowering takes the saved registers in the order of the
// function's callee-saved list (X19..X28, LR, FP, D8..D15 for AAPCS) and
// stores neighbours of the same class together with one stp (ldp in the
// epilogues), filling the save area from the top; the CFI is emitted after
// the stores from each register's slot, and FP is set to wherever the frame
// record lands. With a frame record, pairing refuses any register before
// LR, and the record is only found as the pair LR,FP: LR must come right
// before FP, and they stay together as one unit. What may move, run by run
// of the list:
//
//   - general-purpose registers among themselves, with the LR,FP unit put
//     among the registers the function saves so that an even number of
//     them follow it (anywhere when there is no frame record to keep
//     whole): clang's order puts them all before it, so as many pair up,
//     and one left over is stored alone right above the record, as in
//     clang's. Those it does not save go first, then those whose saving
//     the frame lowering decides itself (the scratch below; a base pointer,
//     which is reserved), which come before the record as in clang's order,
//     whether they are saved or not;
//   - D registers among themselves (pairs form in any order);
//   - nothing else: Q and SVE registers stay where they are.
//
// The saved set is the generic one (TargetFrameLowering::
// determineCalleeSaves: the registers the function modifies) plus LR and FP
// when it keeps a frame pointer; the frame lowering adds, for a large frame,
// the last unused general-purpose register of the list as a scavenging
// scratch, so clang's choice stays the last such register. Left alone:
// Windows and Darwin, whose unwind formats want fixed pairs; the Win64
// convention (FP before LR, X18 saved); Swift's async context, which
// extends the frame record; functions that may switch SME's streaming mode,
// which save VG right before LR, where it pairs like one more
// general-purpose register; and minsize functions when
// -homogeneous-prolog-epilog is on, which pair by list position.
//
// Opcodes and registers are looked up by name once.
//
//===----------------------------------------------------------------------===//

#include "targets/GadgetTarget.h"
#include "targets/Substitution.h"
#include "targets/TargetNames.h"
#include "targets/aarch64/AArch64.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/ScheduleDAGMutation.h"
#include "llvm/CodeGen/TargetFrameLowering.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/TargetMachine.h"

#include <array>
#include <optional>

using namespace llvm;

namespace divcc {
namespace {

constexpr StringRef Name = "aarch64";

/// The HINT numbers of the BTI landing pads: bti, bti c, bti j, bti jc.
bool isBtiHint(int64_t Imm) {
  return Imm == 32 || Imm == 34 || Imm == 36 || Imm == 38;
}

/// The opcodes and registers of the NOP forms and landing pads.
struct NopTable {
  explicit NopTable(const TargetSubtargetInfo &STI)
      : TII(*STI.getInstrInfo()), Hint(opcodeNamed(TII, Name, "HINT")),
        Paciasp(opcodeNamed(TII, Name, "PACIASP")),
        Pacibsp(opcodeNamed(TII, Name, "PACIBSP")),
        PauthPrologue(opcodeNamed(TII, Name, "PAUTH_PROLOGUE")),
        Udf(opcodeNamed(TII, Name, "UDF")),
        ZeroRegisterForms{
            opcodeNamed(TII, Name, "ORRXrs"), opcodeNamed(TII, Name, "EORXrs"),
            opcodeNamed(TII, Name, "ANDXrs"), opcodeNamed(TII, Name, "ADDXrs")},
        XZR(registerNamed(*STI.getRegisterInfo(), Name, "xzr")) {}

  const TargetInstrInfo &TII;
  unsigned Hint, Paciasp, Pacibsp, PauthPrologue, Udf;
  std::array<unsigned, 4> ZeroRegisterForms;
  MCRegister XZR;
};

/// The registers and classes the callee-saved orders need.
struct SaveTable {
  explicit SaveTable(const TargetSubtargetInfo &STI)
      : LR(registerNamed(*STI.getRegisterInfo(), Name, "lr")),
        FP(registerNamed(*STI.getRegisterInfo(), Name, "fp")),
        GPR64(registerClassNamed(*STI.getRegisterInfo(), Name, "GPR64")),
        FPR64(registerClassNamed(*STI.getRegisterInfo(), Name, "FPR64")) {}

  MCPhysReg LR, FP;
  const TargetRegisterClass &GPR64, &FPR64;
};

/// Whether the function's frame record holds Swift's async context
/// (an argument marked swiftasync, or llvm.swift.async.context.addr).
bool hasSwiftAsyncContext(const Function &F) {
  if (F.getAttributes().hasAttrSomewhere(Attribute::SwiftAsync))
    return true;
  const Function *Addr = F.getParent()->getFunction(
      Intrinsic::getName(Intrinsic::swift_async_context_addr));
  if (!Addr)
    return false;
  for (const User *U : Addr->users())
    if (const auto *I = dyn_cast<Instruction>(U))
      if (I->getFunction() == &F)
        return true;
  return false;
}

/// Whether \p Attrs hold one of SME's streaming-mode attributes
/// (aarch64_pstate_sm_enabled, _body, _compatible).
bool hasStreamingAttribute(AttributeSet Attrs) {
  for (const Attribute &A : Attrs)
    if (A.isStringAttribute() &&
        A.getKindAsString().starts_with("aarch64_pstate_sm_"))
      return true;
  return false;
}

/// Whether \p F may switch streaming mode on entry or around a call, for
/// which AArch64FrameLowering saves VG next to LR, where it pairs like a
/// general-purpose register.
bool mayChangeStreamingMode(const Function &F) {
  if (hasStreamingAttribute(F.getAttributes().getFnAttrs()))
    return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        if (hasStreamingAttribute(Call->getAttributes().getFnAttrs()))
          return true;
        if (const Function *Callee = Call->getCalledFunction())
          if (hasStreamingAttribute(Callee->getAttributes().getFnAttrs()))
            return true;
      }
  return false;
}

/// Whether AArch64FrameLowering may save \p F's registers with its
/// homogeneous prologue and epilogue helpers (minsize, with the hidden
/// -homogeneous-prolog-epilog), which pair registers by list position.
bool mayUseHomogeneousPrologEpilog(const Function &F) {
  if (!F.hasMinSize())
    return false;
  StringMap<cl::Option *> &Options = cl::getRegisteredOptions();
  auto It = Options.find("homogeneous-prolog-epilog");
  if (It == Options.end())
    return true; // cannot tell
  return static_cast<cl::opt<bool> *>(It->second)->getValue();
}

class AArch64DiversityTarget final : public DiversityTarget {
public:
  unsigned nopFormCount() const override {
    return 1 + std::tuple_size_v<decltype(NopTable::ZeroRegisterForms)>;
  }

  // Every form writes nothing but the zero register.
  unsigned idleNopFormCount(const TargetSubtargetInfo &) const override {
    return nopFormCount();
  }

  void insertNop(MachineBasicBlock &MBB, MachineBasicBlock::instr_iterator I,
                 unsigned Form) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    const TargetInstrInfo &TII = T.TII;
    DebugLoc DL = I != MBB.instr_end() ? I->getDebugLoc() : DebugLoc();
    if (Form == 0) {
      BuildMI(MBB, I, DL, TII.get(T.Hint)).addImm(0);
      return;
    }
    if (Form > T.ZeroRegisterForms.size())
      llvm_unreachable("no such AArch64 NOP form");
    // op xzr, xzr, xzr, lsl #0
    BuildMI(MBB, I, DL, TII.get(T.ZeroRegisterForms[Form - 1]), T.XZR)
        .addReg(T.XZR)
        .addReg(T.XZR)
        .addImm(0);
  }

  bool mustStayFirst(const MachineInstr &MI) const override {
    const NopTable &T = Nops.get(MI.getMF()->getSubtarget());
    unsigned Opc = MI.getOpcode();
    if (Opc == T.Paciasp || Opc == T.Pacibsp || Opc == T.PauthPrologue)
      return true;
    return Opc == T.Hint && MI.getOperand(0).isImm() &&
           isBtiHint(MI.getOperand(0).getImm());
  }

  bool isMacroFusedPair(const MachineInstr &First,
                        const MachineInstr &Second) const override {
    return isAArch64MacroFusedPair(First, Second);
  }
  std::unique_ptr<ScheduleDAGMutation>
  createMacroFusionMutation() const override {
    return createAArch64MacroFusionMutation();
  }
  bool clustersMemoryOperations() const override { return true; }

  std::unique_ptr<SubstitutionTarget>
  createSubstitutions(const TargetSubtargetInfo &STI) const override {
    return createAArch64SubstitutionTarget(STI);
  }

  std::optional<CalleeSavedOrders>
  calleeSavedOrders(MachineFunction &MF,
                    ArrayRef<MCPhysReg> List) const override;

  // Branch relaxation measures code size: the late passes run before it.
  AnalysisID lateMachinePassAnchor() const override {
    return &MachineSanitizerBinaryMetadataID;
  }

  // Every PLT stub ends in the same instruction (br x17) at the same
  // place in its 16 bytes, so wherever two variants' PLTs overlap those
  // one-instruction gadgets line up: the PLT moves over 64 KiB, not 4, to
  // make an overlap rare (about twice the PLT's size in 64 KiB).
  TrapPadding trapPadding() const override {
    return {0x00, // 00000000 is udf #0
            ELF::GNU_PROPERTY_AARCH64_FEATURE_1_AND,
            ELF::GNU_PROPERTY_AARCH64_FEATURE_1_BTI |
                ELF::GNU_PROPERTY_AARCH64_FEATURE_1_PAC |
                ELF::GNU_PROPERTY_AARCH64_FEATURE_1_GCS,
            65536};
  }

  unsigned trapSize(const TargetSubtargetInfo &) const override { return 4; }
  void appendTrap(MachineBasicBlock &MBB) const override {
    const NopTable &T = Nops.get(MBB.getParent()->getSubtarget());
    BuildMI(&MBB, DebugLoc(), T.TII.get(T.Udf)).addImm(0); // 00000000
  }

  // What a function runs before its first gap moves by `shift`'s 0 to 3
  // no-ops only, and most of what survives between default variants is
  // there: `entry` (one taken jump per call of a function whose code ends
  // a gadget before its first gap) takes LZ4, Expat and libsecp256k1 from
  // 5.80% to 3.61% of gadgets at their offset in their function, for
  // +0.37% instructions (docs/performance.md, "`entry` by default on
  // AArch64").
  ArrayRef<StringLiteral> defaultSetAdditions() const override {
    static constexpr StringLiteral Additions[] = {"entry"};
    return Additions;
  }

  // libgcc's t-softfp for AArch64: quad precision (long double), with
  // half precision's conversions to and from it and 128-bit integers; its
  // routines raise exceptions through __sfp_handle_exceptions. GCC's
  // aarch64_libgcc_cmp_return_mode is SImode.
  LibgccSoftFloat libgccSoftFloat() const override {
    LibgccSoftFloat SoftFloat =
        quadSoftFpRoutines("aarch64", "SI",
                           {"extendhftf2", "trunctfhf2", "fixhfti",
                            "fixunshfti", "floattihf", "floatuntihf"});
    SoftFloat.Routines.push_back(
        {"libgcc/config/aarch64/sfp-exceptions.c", "__sfp_handle_exceptions"});
    return SoftFloat;
  }

  // LLVM BOLT rewrites x86-64 and AArch64 programs.
  bool canLayOutAgain() const override { return true; }
  std::optional<CodeAddressRelocations>
  codeAddressRelocations() const override {
    return CodeAddressRelocations{
        ELF::R_AARCH64_RELATIVE, ELF::R_AARCH64_IRELATIVE,
        ELF::R_AARCH64_ABS64, ELF::R_AARCH64_GLOB_DAT,
        ELF::R_AARCH64_JUMP_SLOT};
  }

  std::unique_ptr<GadgetTarget>
  createGadgetTarget(const MCInstrInfo &MII,
                     const MCRegisterInfo &) const override {
    return createAArch64GadgetTarget(MII);
  }

private:
  LazyTable<NopTable> Nops;
  LazyTable<SaveTable> Saves;
};

std::optional<CalleeSavedOrders>
AArch64DiversityTarget::calleeSavedOrders(MachineFunction &MF,
                                          ArrayRef<MCPhysReg> List) const {
  const Function &F = MF.getFunction();
  const Triple &TT = MF.getTarget().getTargetTriple();
  if (!TT.isOSBinFormatELF() || TT.isOSWindows() ||
      F.getCallingConv() == CallingConv::Win64 || hasSwiftAsyncContext(F) ||
      mayUseHomogeneousPrologEpilog(F) || mayChangeStreamingMode(F))
    return std::nullopt;
  const TargetSubtargetInfo &STI = MF.getSubtarget();
  const SaveTable &T = Saves.get(STI);
  const TargetRegisterInfo &TRI = *STI.getRegisterInfo();
  const TargetFrameLowering &TFI = *STI.getFrameLowering();

  // The registers the frame lowering will save, as it decides: the
  // generic set, then LR and FP for a frame record.
  BitVector Modified;
  TFI.TargetFrameLowering::determineCalleeSaves(MF, Modified, nullptr);
  BitVector Reserved = TRI.getReservedRegs(MF);
  bool FrameRecord = TFI.hasFP(MF);
  auto isSaved = [&](MCPhysReg Reg) {
    return Modified.test(Reg) || (FrameRecord && (Reg == T.LR || Reg == T.FP));
  };
  // The register a large frame saves as a scavenging scratch: the last
  // general-purpose one of the list that is neither modified nor reserved.
  MCPhysReg Scratch = 0;
  for (MCPhysReg Reg : List)
    if (T.GPR64.contains(Reg) && !Modified.test(Reg) && !Reserved.test(Reg))
      Scratch = Reg;

  CalleeSavedOrders Orders;
  auto keep = [&](ArrayRef<MCPhysReg> Regs) {
    if (Regs.empty())
      return;
    if (Orders.Runs.empty() || Orders.Runs.back().Shuffle ||
        !Orders.Runs.back().Unit.empty())
      Orders.Runs.emplace_back();
    Orders.Runs.back().Registers.append(Regs.begin(), Regs.end());
  };
  // The class of a register: general-purpose, D, or another (Q, SVE).
  auto classOf = [&](MCPhysReg Reg) -> const TargetRegisterClass * {
    return T.GPR64.contains(Reg)   ? &T.GPR64
           : T.FPR64.contains(Reg) ? &T.FPR64
                                   : nullptr;
  };
  for (size_t I = 0; I != List.size();) {
    // One run of the list: registers of one class.
    const TargetRegisterClass *Class = classOf(List[I]);
    size_t End = I + 1;
    while (End != List.size() && classOf(List[End]) == Class)
      ++End;
    ArrayRef<MCPhysReg> Run = List.slice(I, End - I);
    I = End;
    if (Class == &T.FPR64) {
      Orders.Runs.emplace_back();
      Orders.Runs.back().Registers.assign(Run.begin(), Run.end());
      Orders.Runs.back().Shuffle = true;
      continue;
    }
    if (!Class) {
      keep(Run);
      continue;
    }
    // General-purpose registers: first those the function does not save,
    // then those whose saving the frame lowering decides itself, then the
    // saved ones with the frame record.
    SmallVector<MCPhysReg, 16> Unsaved, Undecided, Saved, Unit;
    for (size_t J = 0; J != Run.size(); ++J) {
      MCPhysReg Reg = Run[J];
      if (Reg == T.LR || Reg == T.FP) {
        // LR right before FP, as AArch64FrameLowering pairs them.
        if (Reg != T.LR || J + 1 == Run.size() || Run[J + 1] != T.FP)
          return std::nullopt;
        Unit.push_back(T.LR);
        Unit.push_back(T.FP);
        ++J;
      } else if (Reserved.test(Reg)) {
        Undecided.push_back(Reg); // a base pointer is saved
      } else if (Reg == Scratch) {
        continue; // last of the candidates
      } else if (isSaved(Reg)) {
        Saved.push_back(Reg);
      } else {
        Unsaved.push_back(Reg);
      }
    }
    if (is_contained(Run, Scratch) && !is_contained(Unit, Scratch))
      Undecided.push_back(Scratch);
    keep(Unsaved);
    keep(Undecided);
    Orders.Runs.emplace_back();
    CalleeSavedOrders::Run &Shuffled = Orders.Runs.back();
    Shuffled.Registers = Saved;
    Shuffled.Shuffle = true;
    Shuffled.Unit.assign(Unit.begin(), Unit.end());
    // With a frame record, as many saved registers after it as make pairs:
    // the others, and the undecided ones if saved, come before it, where
    // clang's order puts them all, so the same number is left unpaired,
    // right above the record, as in clang's. Without one, LR and FP pair
    // like any other register.
    if (FrameRecord) {
      Shuffled.UnitStep = 2;
      Shuffled.UnitFirst = Saved.size() % 2;
    }
  }
  return Orders;
}

} // namespace

std::unique_ptr<DiversityTarget> createAArch64DiversityTarget() {
  return std::make_unique<AArch64DiversityTarget>();
}

} // namespace divcc
