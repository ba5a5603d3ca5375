//===- RegisterHints.cpp - Random register allocation hints ---------------===//
//
// Right before the register allocator, give every virtual register a random
// allocation hint: a physical register drawn uniformly from its class's
// allocation order (reserved registers removed, callee-saved ones removed too
// under -fno-diversify-regs-callee-saved). The greedy allocator tries a
// register's hints before its default order, so the same program ends up
// with other registers in other variants, and every gadget that names a
// register changes with them.
//
//     before (clang):              after (one draw):
//       movl  4(%rdi), %ecx          movl  4(%rdi), %r10d
//       movl  12(%rdi), %edx         movl  12(%rdi), %ecx
//       imull (%rdi), %ecx           imull (%rdi), %r10d
//       addl  8(%rdi), %edx          addl  8(%rdi), %ecx
//
// Existing hints are kept (no draw): at this point of the pipeline they can
// only be a target's own typed hints, which encode constraints such as
// register pairs. Copy hints do not exist yet: the greedy allocator computes
// them when it starts (spill-weight calculation) and then *replaces* the
// simple hint of every register that takes part in a copy by the copy's
// other side, so overriding copy hints is not even possible from here. We
// accept that trade: a register that follows its copy partner costs no move,
// its partner is often randomly hinted (randomness propagates along copy
// chains and through the registers the others leave free), and registers
// tied by the ABI to argument, return or call registers could only move at
// the price of an extra copy. Registers in no copy keep the random hint.
// On the corpus at -O2 this makes ~90% of the functions longer than four
// instructions differ between two seeds, for ~4% more text (~2% with
// -fno-diversify-regs-callee-saved, which avoids new saves and restores).
//
// Invariants:
//   - Only hints change. No instruction, operand, register class or live
//     range is touched, so all analyses are preserved (the allocator needs
//     LiveIntervals, SlotIndexes, the scheduler's results, ...). A hint is
//     advice: the allocator still checks interference, so correctness never
//     depends on it.
//   - A hint is always legal for its register's class: it is taken from the
//     same RegisterClassInfo allocation order the allocator uses, which
//     excludes reserved registers (%rsp, %rip, %rbp when it is the frame
//     pointer, ...) and the registers the target removes from the order
//     (e.g. %ah..%bh, which cannot be encoded next to a REX prefix).
//   - Virtual registers are visited in index order; a register with no
//     non-debug use or definition consumes no draw, so -g changes nothing.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/RegisterClassInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-regs"
STATISTIC(NumHinted, "Virtual registers given a random hint");
STATISTIC(NumKept, "Virtual registers whose existing hint was kept");

namespace divcc {
namespace {

class RegisterHints : public MachineFunctionPass {
public:
  static char ID;
  RegisterHints(const RegisterHintOptions &Options, StreamSource Streams)
      : MachineFunctionPass(ID), Options(Options), Streams(std::move(Streams)) {
  }

  StringRef getPassName() const override {
    return "divcc random register hints";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    // Hints are not part of any analysis: LiveIntervals, SlotIndexes,
    // LiveStacks, the loop and frequency info all stay valid.
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  /// The physical registers that alias a callee-saved register of \p MF.
  BitVector calleeSavedAliases(const MachineFunction &MF) const;

  const RegisterHintOptions &Options;
  StreamSource Streams;
  RegisterClassInfo RegClassInfo;
};

char RegisterHints::ID = 0;

BitVector RegisterHints::calleeSavedAliases(const MachineFunction &MF) const {
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  BitVector Aliases(TRI.getNumRegs());
  // MRI's list honours attributes that change the convention of this
  // function (preserve_most, no_callee_saved_registers, ...).
  if (const MCPhysReg *CSR = MF.getRegInfo().getCalleeSavedRegs())
    for (; *CSR; ++CSR)
      for (MCRegAliasIterator AI(*CSR, &TRI, /*IncludeSelf=*/true);
           AI.isValid(); ++AI)
        Aliases.set(*AI);
  return Aliases;
}

bool RegisterHints::runOnMachineFunction(MachineFunction &MF) {
  MachineRegisterInfo &MRI = MF.getRegInfo();
  if (MRI.getNumVirtRegs() == 0)
    return false;
  std::unique_ptr<RandomStream> Random =
      Streams.forFunction(Transformation::Regs, MF.getName());
  if (!Random)
    return false;
  RegClassInfo.runOnMachineFunction(MF);
  BitVector CalleeSaved;
  if (!Options.CalleeSaved)
    CalleeSaved = calleeSavedAliases(MF);

  SmallVector<MCPhysReg, 32> Candidates;
  bool Changed = false;
  for (unsigned I = 0, E = MRI.getNumVirtRegs(); I != E; ++I) {
    Register Reg = Register::index2VirtReg(I);
    if (MRI.reg_nodbg_empty(Reg))
      continue; // dead or debug-only: -g must not shift the draws
    const TargetRegisterClass *RC = MRI.getRegClassOrNull(Reg);
    if (!RC || !RC->isAllocatable())
      continue;
    std::pair<unsigned, Register> Existing = MRI.getRegAllocationHint(Reg);
    if (Existing.first != 0 || Existing.second.isValid()) {
      ++NumKept;
      continue;
    }

    ArrayRef<MCPhysReg> Order = RegClassInfo.getOrder(RC);
    if (!Options.CalleeSaved) {
      Candidates.clear();
      for (MCPhysReg PhysReg : Order)
        if (!CalleeSaved.test(PhysReg))
          Candidates.push_back(PhysReg);
      Order = Candidates;
    }
    if (Order.empty())
      continue;
    MRI.setSimpleHint(Reg, Order[Random->below(Order.size())]);
    ++NumHinted;
    Changed = true;
  }
  return Changed;
}

} // namespace

FunctionPass *createRegisterHintPass(const RegisterHintOptions &Options,
                                     StreamSource Streams) {
  return new RegisterHints(Options, std::move(Streams));
}

} // namespace divcc
