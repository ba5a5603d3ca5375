//===- PassRegistry.cpp - divcc's passes by name, for -run-pass -----------===//
//
// The table of PassRegistry.h. Each row's pass is built here, from the
// create functions of Passes.h, so that no pass file needs to know that it
// can be run by name: they stay free of LLVM's INITIALIZE_PASS machinery
// (which wants a default constructor, and divcc's passes have none: each
// needs its options and its streams).
//
//===----------------------------------------------------------------------===//

#include "transforms/PassRegistry.h"

#include "llvm/CodeGen/Passes.h"
#include "llvm/InitializePasses.h"
#include "llvm/Pass.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace divcc {

static const RegisteredPass Table[] = {
    {"divcc-funcs", Transformation::Funcs, PassLevel::IR,
     "IR module pass before instruction selection: shuffles functions"},
    {"divcc-globals", Transformation::Globals, PassLevel::IR,
     "IR module pass before instruction selection: shuffles (and pads) "
     "global variables"},
    {"divcc-frames", Transformation::Frames, PassLevel::IR,
     "IR function pass before instruction selection: shuffles static "
     "allocas and pads frames"},
    {"divcc-sched", Transformation::Sched, PassLevel::Machine,
     "LLVM's machine-scheduler pass running divcc's strategy (pre-RA MIR)"},
    {"divcc-regs", Transformation::Regs, PassLevel::Machine,
     "machine pass right before register allocation: random hints"},
    {"divcc-blocks", Transformation::Blocks, PassLevel::Machine,
     "machine pass after block placement: shuffles basic blocks"},
    {"divcc-subst", Transformation::Subst, PassLevel::Machine,
     "late machine pass: equivalent instructions"},
    {"divcc-nops", Transformation::Nops, PassLevel::Machine,
     "late machine pass: inserts no-ops"},
    {"divcc-gaps", Transformation::Gaps, PassLevel::Machine,
     "last machine pass: trap padding where control never falls through"},
    {"divcc-saves", Transformation::Saves, PassLevel::Machine,
     "machine pass right before prologue/epilogue insertion: the order of "
     "callee-saved saves and restores"},
    {"divcc-prefixes", Transformation::Prefixes, PassLevel::Machine,
     "late machine pass: redundant prefixes on memory accesses"},
};

ArrayRef<RegisteredPass> registeredPasses() { return Table; }

const RegisteredPass *findRegisteredPass(StringRef Name) {
  for (const RegisteredPass &Entry : Table)
    if (Name == Entry.Name)
      return &Entry;
  return nullptr;
}

std::string registeredPassNames() {
  std::string Names;
  for (const RegisteredPass &Entry : Table)
    Names += std::string(Names.empty() ? "" : ", ") + Entry.Name;
  return Names;
}

/// LLVM's machine-scheduler pass, whose ID is exported but whose class is
/// not.
static Pass *createMachineSchedulerPass() {
  PassRegistry &Registry = *PassRegistry::getPassRegistry();
  initializeMachineSchedulerPass(Registry); // once; later calls do nothing
  const PassInfo *PI = Registry.getPassInfo(&MachineSchedulerID);
  if (!PI)
    report_fatal_error("divcc: LLVM's machine scheduler is not registered");
  return PI->createPass();
}

PassInstance createRegisteredPass(const RegisteredPass &Entry,
                                  const DiversityOptions &Options,
                                  StreamSource Streams) {
  PassInstance Result;
  switch (Entry.Kind) {
  case Transformation::Funcs:
    Result.P = createFunctionShufflePass(std::move(Streams));
    break;
  case Transformation::Globals:
    Result.P = createGlobalShufflePass(Options.Globals, std::move(Streams));
    break;
  case Transformation::Frames:
    Result.P = createFrameRandomizationPass(Options.Frames, std::move(Streams));
    break;
  case Transformation::Sched:
    // The scope first: the scheduler reads -misched when it runs, and the
    // scope has pointed it at divcc's strategy by then.
    Result.Scheduler =
        std::make_unique<RandomSchedulerScope>(Options.Sched, std::move(Streams));
    Result.P = createMachineSchedulerPass();
    break;
  case Transformation::Regs:
    Result.P = createRegisterHintPass(Options.Regs, std::move(Streams));
    break;
  case Transformation::Blocks:
    Result.P = createBlockShufflePass(Options.Blocks, std::move(Streams));
    break;
  case Transformation::Subst:
    Result.P = createInstructionSubstitutionPass(std::move(Streams));
    break;
  case Transformation::Nops:
    Result.P = createNopInsertionPass(Options.Nops, std::move(Streams));
    break;
  case Transformation::Gaps:
    Result.P = createTrapGapPass(Options.Gaps, std::move(Streams));
    break;
  case Transformation::Saves:
    Result.P = createCalleeSaveShufflePass(std::move(Streams));
    break;
  case Transformation::Prefixes:
    Result.P = createRedundantPrefixPass(std::move(Streams));
    break;
  case Transformation::Link:
  case Transformation::Offset:
  case Transformation::Count:
    llvm_unreachable("link and offset act on the link: no pass");
  }
  return Result;
}

} // namespace divcc
