//===- CalleeSaveShuffle.cpp - Callee-saved registers: order and set ------===//
//
// A function saves the callee-saved registers it uses in its prologue and
// restores them in its epilogues, in the order of the calling convention's
// callee-saved list. The restores right before a return are the classic
// code-reuse gadget ("pop %rbx; pop %r14; ret", "ldp x20, x19, [sp, #16];
// ldp x29, x30, [sp], #32; ret"), and they sit at the same place in every
// variant whose layout happens to coincide. This machine pass, right before
// prologue and epilogue insertion, gives each function the callee-saved list
// in a random order (MachineRegisterInfo's per-function copy), so that the
// prologue saves and the epilogues restore in that order:
//
//     before (clang):          after (one draw):
//       push %r14                push %rbx
//       push %rbx                push %r14
//       ...                      ...
//       pop  %rbx                pop  %r14
//       pop  %r14                pop  %rbx
//       ret                      ret
//
// Which orders the frame lowering takes as well as clang's is target
// knowledge (DiversityTarget::calleeSavedOrders): the target cuts the list
// into runs, each shuffled or kept, with at most one unit of registers that
// stay together, put among a run's shuffled registers at positions the
// target allows; this pass only draws. x86-64 pushes one register at a
// time: the whole list is one shuffled run, and a function saving N
// registers gets one of N! orders; the pushes and pops are the same
// instructions in another order, and no instruction is added to any
// execution. AArch64 stores neighbours of the list in stp/ldp pairs and
// needs the frame record's LR right before FP: the general-purpose
// registers are shuffled among themselves, the D registers among
// themselves, and LR,FP goes in as a unit with an even number of saved
// registers after it (anywhere without a frame record, where LR and FP
// pair like the others), so that as many pairs form as in clang's order
// and the frame pointer points at the record wherever it lands. The saves
// and restores are as many instructions as clang's; a frame record that
// moves gives the locals addressed from FP other offsets, which can change
// how LLVM pairs the function's own loads and stores (rarely: 1 to 3 of
// 633 functions of the test corpus at -O2).
//
// 32-bit ARM saves and restores with one push and one pop whose register
// list the encoding orders: no order to draw, but registers to add. Where
// the target says a set of registers the function does not modify costs
// nothing to save (DiversityTarget::freeCalleeSaveChoices: in the same
// push and pop, with encodings as long, and no instruction more to keep
// the stack aligned), the pass draws one of the sets, and a register mask
// that clobbers them makes the frame lowering save them as if the function
// did:
//
//     before (clang):          after (one draw):
//       push {r7, lr}            push {r5, lr}
//       ...                      ...
//       pop  {r7, pc}            pop  {r5, pc}
//
// Invariants:
//   - the order changes, and on ARM the set may grow, by registers the
//     function does not touch: the frame lowering decides from the set
//     (determineCalleeSaves; on AArch64 the one extra register a large
//     frame saves as a scavenging scratch is the last unused one of the
//     list, and the target keeps clang's choice the last) and saves and
//     restores each one, with its CFI;
//   - a target that gives no orders (RISC-V, ARM), or orders that are not
//     a permutation of the list, leaves the list as it is, and nothing is
//     drawn for it; one that gives fewer than two sets to save draws
//     nothing for them;
//   - runs after register allocation, which read the list already: the
//     registers each instruction uses are clang's;
//   - one stream per function; the draws depend on the calling convention
//     and (on AArch64 and ARM) on which registers the function modifies and
//     whether it keeps a frame pointer (on ARM, on its stack objects too),
//     never on debug instructions: -g changes no draw;
//   - not at -O0 (no shrink-wrapping pass to run after);
//   - functions that must keep their exact code (mustKeepExactCode) and
//     functions that -fdiversify-skip/-only turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-saves"
STATISTIC(NumShuffled, "Functions whose callee-saved list was shuffled");
STATISTIC(NumExtraSaved, "Callee-saved registers saved for free beyond need");

namespace divcc {
namespace {

class CalleeSaveShuffle : public DiversityMachinePass {
public:
  static char ID;
  explicit CalleeSaveShuffle(StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Saves, std::move(Streams)) {}

  StringRef getPassName() const override {
    return "divcc callee-saved register order";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &MF) override;
};

char CalleeSaveShuffle::ID = 0;

/// Whether \p Orders reorders \p List: every register once, no other.
bool isOrderOf(const CalleeSavedOrders &Orders, ArrayRef<MCPhysReg> List) {
  SmallVector<MCPhysReg, 32> Given, Expected(List.begin(), List.end());
  for (const CalleeSavedOrders::Run &R : Orders.Runs) {
    if (!R.Unit.empty() &&
        (R.UnitStep == 0 || R.UnitFirst > R.Registers.size()))
      return false;
    Given.append(R.Registers.begin(), R.Registers.end());
    Given.append(R.Unit.begin(), R.Unit.end());
  }
  llvm::sort(Given);
  llvm::sort(Expected);
  return Given == Expected;
}

/// Gives \p MF's callee-saved list one of the target's orders, drawn.
bool shuffleOrder(MachineFunction &MF, const DiversityTarget &Target,
                  RandomStream &Random) {
  MachineRegisterInfo &MRI = MF.getRegInfo();
  SmallVector<MCPhysReg, 32> List;
  for (const MCPhysReg *Reg = MRI.getCalleeSavedRegs(); Reg && *Reg; ++Reg)
    List.push_back(*Reg);
  if (List.size() < 2)
    return false;
  std::optional<CalleeSavedOrders> Orders = Target.calleeSavedOrders(MF, List);
  if (!Orders || !isOrderOf(*Orders, List))
    return false;
  SmallVector<MCPhysReg, 32> Order;
  for (CalleeSavedOrders::Run &R : Orders->Runs) {
    if (R.Shuffle)
      Random.shuffle(MutableArrayRef<MCPhysReg>(R.Registers));
    size_t At = R.Registers.size();
    if (!R.Unit.empty()) {
      uint64_t Places = (R.Registers.size() - R.UnitFirst) / R.UnitStep + 1;
      At = R.UnitFirst + (Places > 1 ? R.UnitStep * Random.below(Places) : 0);
    }
    Order.append(R.Registers.begin(), R.Registers.begin() + At);
    Order.append(R.Unit.begin(), R.Unit.end());
    Order.append(R.Registers.begin() + At, R.Registers.end());
  }
  MRI.setCalleeSavedRegs(Order);
  ++NumShuffled;
  return true;
}

/// Makes \p MF save one of the sets of registers the target lets it save
/// for free, drawn.
bool saveMore(MachineFunction &MF, const DiversityTarget &Target,
              RandomStream &Random) {
  SmallVector<SmallVector<MCPhysReg, 2>, 8> Choices =
      Target.freeCalleeSaveChoices(MF);
  if (Choices.size() < 2)
    return false;
  ArrayRef<MCPhysReg> Chosen = Choices[Random.below(Choices.size())];
  if (Chosen.empty())
    return false;
  // The frame lowering saves what the function modifies; a register mask
  // that clobbers the chosen ones says it does, with no instruction.
  const TargetRegisterInfo &TRI = *MF.getSubtarget().getRegisterInfo();
  SmallVector<uint32_t, 16> Mask(
      MachineOperand::getRegMaskSize(TRI.getNumRegs()), ~0u);
  for (MCPhysReg Reg : Chosen)
    Mask[Reg / 32] &= ~(1u << Reg % 32);
  MF.getRegInfo().addPhysRegsUsedFromRegMask(Mask.data());
  NumExtraSaved += Chosen.size();
  return true;
}

bool CalleeSaveShuffle::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  bool Changed = shuffleOrder(MF, P->Target, *P->Random);
  return saveMore(MF, P->Target, *P->Random) || Changed;
}

} // namespace

FunctionPass *createCalleeSaveShufflePass(StreamSource Streams) {
  return new CalleeSaveShuffle(std::move(Streams));
}

} // namespace divcc
