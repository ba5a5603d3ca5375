//===- RedundantPrefixes.cpp - Prefixes that change nothing but the length ===//
//
// Gives instructions, at random, a prefix that changes nothing they do:
// on x86-64, loads, stores and address computations a segment override
// naming ES, CS, SS or DS, whose base is zero in 64-bit mode (LLVM's
// assembler pads instructions the same way to align branches). The
// instruction gets one byte longer, so everything after it in the function
// moves by a byte, and its own bytes differ, yet no instruction is added
// to any execution.
//
//     before:                   after (one draw):
//       48 8b 07  mov (%rdi),%rax   2e 48 8b 07  mov %cs:(%rdi),%rax
//       5b        pop %rbx          5b           pop %rbx
//       c3        ret               c3           ret
//
// This is what moves the gadgets at the end of a function that has no jump
// (so no gap) before them, relative to the function's start: the share an
// attacker keeps after leaking one pointer into each function. On RISC-V
// with C the same pass writes instructions LLVM would compress in their
// four-byte form (RISCVDiversityTarget), two bytes longer.
//
// Invariants:
//   - only instructions the target accepts get a prefix (x86-64: loads,
//     stores and lea with one memory reference and no segment, never a
//     branch, a call or a return, where a segment prefix means a branch
//     hint or "notrack": only prefixes LLVM's disassembler keeps, so that
//     a re-encoding (LLVM BOLT, for divtool rerandomize) keeps them too; a
//     load or store names the segment in its memory reference, an lea gets
//     a prefix instruction right before it, which nothing later separates
//     from it (DiversityTarget::isPrefixOfNext); the opcode and every
//     other operand stay as they were.
//     RISC-V: compressible instructions other than copies, replaced by the
//     `.insn` instruction that encodes the same operation in full);
//   - no operation is added, removed or reordered;
//   - each function draws from its own stream, one chance per accepted
//     instruction in layout order (-fdiversify-prefix-probability, else
//     the target's default: 0.25 on x86-64, 0.1 on RISC-V and in Thumb)
//     and one form for each prefixed one; debug instructions are never
//     accepted, so -g changes no draw;
//   - functions that must keep their exact code (mustKeepExactCode) and
//     functions that -fdiversify-skip/-only turn off are left alone.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityMachinePass.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/IR/Function.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-prefixes"
STATISTIC(NumAccepted, "Instructions that can take a redundant prefix");
STATISTIC(NumPrefixed, "Redundant prefixes added");

namespace divcc {
namespace {

class RedundantPrefixes : public DiversityMachinePass {
public:
  static char ID;
  RedundantPrefixes(const PrefixOptions &Options, StreamSource Streams)
      : DiversityMachinePass(ID, Transformation::Prefixes, std::move(Streams)),
        Options(Options) {}

  StringRef getPassName() const override { return "divcc redundant prefixes"; }

  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  PrefixOptions Options;
};

char RedundantPrefixes::ID = 0;

bool RedundantPrefixes::runOnMachineFunction(MachineFunction &MF) {
  std::optional<Prepared> P = prepare(MF);
  if (!P)
    return false;
  DiversityTarget &Target = P->Target;
  RandomStream &Random = *P->Random;
  unsigned Forms = Target.redundantPrefixCount();
  if (Forms == 0)
    return false;

  // Each accepted instruction: a prefix with the options' chance, one of
  // the forms, uniformly. The target may replace the instruction.
  Probability Chance =
      Options.Chance.value_or(
          Probability::fromFraction(Target.defaultPrefixProbability()));
  bool Changed = false;
  for (MachineBasicBlock &MBB : MF)
    for (MachineInstr &MI : make_early_inc_range(MBB.instrs())) {
      if (!Target.acceptsRedundantPrefix(MI))
        continue;
      ++NumAccepted;
      if (!Random.chance(Chance))
        continue;
      Target.addRedundantPrefix(MI, unsigned(Random.below(Forms)));
      ++NumPrefixed;
      Changed = true;
    }
  return Changed;
}

} // namespace

FunctionPass *createRedundantPrefixPass(const PrefixOptions &Options,
                                       StreamSource Streams) {
  return new RedundantPrefixes(Options, std::move(Streams));
}

} // namespace divcc
