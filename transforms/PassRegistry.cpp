//===- PassRegistry.cpp - divcc's passes by name, for -run-pass -----------===//
//
// The table of PassRegistry.h, expanded from Transformations.def. Each
// row's pass is built here, from its CREATE expression (the create
// functions of Passes.h), so that no pass file needs to know that it can
// be run by name: they stay free of LLVM's INITIALIZE_PASS machinery
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

/// Where a pass of \p Slot runs, for --help and docs.
static const char *slotSummary(PipelineSlot Slot) {
  switch (Slot) {
  case PipelineSlot::BeforeISel:
    return "IR pass before instruction selection";
  case PipelineSlot::SchedulerStrategy:
    return "LLVM's machine-scheduler pass running divcc's strategy (pre-RA "
           "MIR)";
  case PipelineSlot::AfterMachineScheduler:
    return "machine pass right before register allocation";
  case PipelineSlot::AfterBlockPlacement:
    return "machine pass right after block placement";
  case PipelineSlot::BeforePrologEpilog:
    return "machine pass right before prologue/epilogue insertion";
  case PipelineSlot::Late:
    return "late machine pass, on final code";
  case PipelineSlot::LinkTime:
    break;
  }
  llvm_unreachable("link-time transformations have no pass");
}

ArrayRef<RegisteredPass> registeredPasses() {
  static const std::vector<RegisteredPass> Table = [] {
    std::vector<RegisteredPass> Rows;
    for (const TransformationInfo *Info : transformationsInPipelineOrder())
      Rows.push_back({std::string("divcc-") + Info->Name, Info->Kind,
                      Info->Slot == PipelineSlot::BeforeISel
                          ? PassLevel::IR
                          : PassLevel::Machine,
                      slotSummary(Info->Slot)});
    return Rows;
  }();
  return Table;
}

const RegisteredPass *findRegisteredPass(StringRef Name) {
  for (const RegisteredPass &Entry : registeredPasses())
    if (Name == Entry.Name)
      return &Entry;
  return nullptr;
}

std::string registeredPassNames() {
  std::string Names;
  for (const RegisteredPass &Entry : registeredPasses())
    Names += (Names.empty() ? "" : ", ") + Entry.Name;
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

Pass *createTransformationPass(Transformation T,
                               const DiversityOptions &Options,
                               StreamSource Streams) {
  switch (T) {
#define DIVCC_TRANSFORMATION(KIND, NAME, DEFAULT, SCOPE, SLOT, ORDER,         \
                             SUMMARY, CREATE)                                  \
  case Transformation::KIND:                                                   \
    return CREATE;
#include "transforms/Transformations.def"
  case Transformation::Count:
    break;
  }
  llvm_unreachable("not a transformation");
}

PassInstance createRegisteredPass(const RegisteredPass &Entry,
                                  const DiversityOptions &Options,
                                  StreamSource Streams) {
  PassInstance Result;
  if (Entry.Kind == Transformation::Sched) {
    // The scope first: the scheduler reads -misched when it runs, and the
    // scope has pointed it at divcc's strategy by then.
    Result.Scheduler = std::make_unique<RandomSchedulerScope>(
        Options.Sched, std::move(Streams));
    Result.P = createMachineSchedulerPass();
    return Result;
  }
  Result.P = createTransformationPass(Entry.Kind, Options, std::move(Streams));
  assert(Result.P && "a registered transformation without a pass");
  return Result;
}

} // namespace divcc
