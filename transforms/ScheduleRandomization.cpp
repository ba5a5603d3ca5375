//===- ScheduleRandomization.cpp - Randomized machine scheduling ----------===//
//
// LLVM's machine scheduler reorders the instructions of each scheduling
// region (a run of a basic block between calls and terminators) before
// register allocation, in any order that respects the region's dependence
// DAG. The order it picks also steers register allocation, so a random order
// moves instructions and changes which registers they use.
//
//     int dot(const int *p, const int *q) { return p[0] * q[0] + p[1] * q[1]; }
//
//     before (clang):            after (jitter, one seed):
//       movl  (%rsi), %ecx         movl  (%rsi), %ecx
//       movl  4(%rsi), %eax        imull (%rdi), %ecx
//       imull (%rdi), %ecx         movl  4(%rsi), %eax
//       imull 4(%rdi), %eax        imull 4(%rdi), %eax
//       addl  %ecx, %eax           addl  %ecx, %eax
//
// Two strategies, -fdiversify-sched=:
//   - jitter (default): LLVM's GenericScheduler with every heuristic intact
//     (register pressure, latency, resources, clustering, physical-register
//     copies). Only where all of them tie, and LLVM would fall back to the
//     original instruction order, a random order decides instead: each
//     region's nodes are ranked by a uniform random permutation drawn when
//     the region is entered. With the identity permutation this is exactly
//     clang's scheduler (the same DAG, the same picks). Three limits keep
//     it free at run time (measured on SQLite's speedtest1 and tclsh,
//     docs/performance.md): where LLVM tracks register pressure, the random
//     order decides a tie only when neither candidate raises a pressure
//     set, or, in a region whose pressure is over a set's limit, changes
//     one; where it does not (regions of a few instructions), only outside
//     loops; and a function of more than JitterMaxFunctionSize
//     instructions keeps clang's schedule.
//   - random: bottom-up list scheduling that picks uniformly among the
//     instructions whose successors are all scheduled. Three constraints
//     come first, in this order: the pending half of a cluster (a
//     macro-fused cmp+jcc) is taken as soon as it is ready, so fused pairs
//     stay adjacent; copies to and from physical registers keep LLVM's bias
//     (scheduled next to their physical-register user or definition, so no
//     physical register lives longer than in clang's code); and nodes whose
//     weak edges are satisfied go before those whose are not. It ignores
//     latency and register pressure, so expect more spills and slower code
//     than jitter.
//
// The scheduling DAG is the one clang's scheduler builds for the target:
// the copy constraints of createGenericSchedLive, the subtarget's TableGen
// fusions, LLVM's load and store clustering where the target's scheduler
// adds them (AArch64's does; x86's does not, and X86InstrInfo does not
// implement the hook they call), and the target's macro fusion
// (targets/MacroFusion.h).
//
// The hook: LLVM creates each function's scheduler through the -misched
// option's function pointer (MachineSchedRegistry). RandomSchedulerScope
// registers divcc's constructor, points the option at it for the module and
// restores the previous value afterwards, so a later translation unit in the
// same process gets clang's scheduler. The constructor finds the options and
// module name through a file-local pointer that the scope sets and clears.
//
// Invariants:
//   - Any order chosen is a topological order of LLVM's dependence DAG:
//     every data, memory, physical-register and artificial edge holds, so
//     the program's behaviour is unchanged. Nothing outside LLVM's
//     scheduling regions moves (calls, terminators, labels, stack-pointer
//     updates stay where they are).
//   - One stream per machine function, RandomStream(key, {"sched", module,
//     function}), created with the function's scheduler and shared by its
//     regions in LLVM's fixed region order, so the draws are reproducible.
//   - Debug instructions are not scheduling nodes: they neither consume
//     draws nor change a decision, so -g changes nothing that divcc decides.
//     A region with fewer than two nodes draws nothing (with -g, LLVM also
//     enters regions of one node plus debug instructions).
//   - Where LLVM tracks pressure, jitter never lets the random order choose
//     a candidate that raises a pressure set, nor, in a region over a set's
//     limit (LLVM's critical sets), one that changes any; where it does
//     not, it leaves the regions inside loops alone; it never reorders a
//     function larger than JitterMaxFunctionSize (debug instructions not
//     counted). Those ties, regions and functions are scheduled as clang
//     does. Loops depend on the CFG alone, so -g changes none of this.
//   - Without sched in -fdiversify= there is no scope and clang's scheduler
//     runs. At -O0 LLVM runs no machine scheduler, so sched has no effect.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachinePassRegistry.h"
#include "llvm/CodeGen/MachineScheduler.h"
#include "llvm/CodeGen/MacroFusion.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/TargetMachine.h"

#include <numeric>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "divcc-sched"
STATISTIC(NumRegions, "Scheduling regions with a random order");
STATISTIC(NumTies, "Heuristic ties decided by the random order (jitter)");
STATISTIC(NumChoices, "Random picks among several ready nodes (random)");
STATISTIC(NumKeptForPressure,
          "Ties left to LLVM's order because a candidate raises pressure");
STATISTIC(NumKeptInLoops,
          "Ties left to LLVM's order in small regions inside loops");
STATISTIC(NumLargeFunctions, "Functions too large to reorder (jitter)");

/// jitter leaves a function of more instructions than this to clang's
/// scheduler. In a function this large (an interpreter's dispatch loop:
/// sqlite3VdbeExec, 11,000 instructions; Tcl's TEBCresume) the register
/// allocator's spill choices swing with any change of order: on SQLite's
/// speedtest1 the random ties cost 2.5-6.8% more instructions in
/// sqlite3VdbeExec alone, 0.5-1.1% of the whole program, while every other
/// function together cost nothing (docs/performance.md).
static constexpr unsigned JitterMaxFunctionSize = 5000;

namespace divcc {
namespace {

/// The module being compiled inside a RandomSchedulerScope.
struct ActiveModule {
  ScheduleMode Mode;
  StreamSource Streams;
};
ActiveModule *Active = nullptr;
std::optional<MachineSchedRegistry> Registration;
MachineSchedRegistry::ScheduleDAGCtor SavedScheduler = nullptr;

/// LLVM's -misched option (MachineScheduler.cpp declares it with exactly
/// this type).
using MachineSchedOption = cl::opt<MachineSchedRegistry::ScheduleDAGCtor, false,
                                   RegisterPassParser<MachineSchedRegistry>>;

MachineSchedOption &machineSchedOption() {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("misched");
  if (It == Options.end())
    report_fatal_error("divcc: LLVM's -misched option is missing");
  return *static_cast<MachineSchedOption *>(It->second);
}

/// jitter: GenericScheduler, with a random order in place of the original
/// one where its heuristics tie.
class JitterScheduler final : public GenericScheduler {
public:
  JitterScheduler(const MachineSchedContext *C,
                  std::unique_ptr<RandomStream> Random)
      : GenericScheduler(C), Random(std::move(Random)) {}

  void initialize(ScheduleDAGMI *DAG) override {
    GenericScheduler::initialize(DAG);
    InLoop = DAG->begin() != DAG->end() &&
             Context->MLI->getLoopFor(DAG->begin()->getParent());
    Rank.resize(DAG->SUnits.size());
    std::iota(Rank.begin(), Rank.end(), 0u);
    if (Rank.size() > 1) {
      Random->shuffle(MutableArrayRef<unsigned>(Rank));
      ++NumRegions;
    }
  }

protected:
  bool tryCandidate(SchedCandidate &Cand, SchedCandidate &TryCand,
                    SchedBoundary *Zone) const override;

private:
  bool changesPressure(const SUnit &SU, const SchedBoundary &Zone,
                       bool AnyChange) const;
  bool keepsLLVMOrder(const SUnit &A, const SUnit &B,
                      const SchedBoundary &Zone) const;

  std::unique_ptr<RandomStream> Random;
  /// Whether the region's block is inside a loop.
  bool InLoop = false;
  /// A random rank for each node of the region, by NodeNum.
  SmallVector<unsigned, 64> Rank;
};

/// Whether scheduling \p SU next in \p Zone raises some pressure set, or,
/// with \p AnyChange, changes one at all. LLVM's pressure differences are
/// bottom-up (a use makes its value live, a definition ends it); top-down,
/// the signs are reversed.
bool JitterScheduler::changesPressure(const SUnit &SU,
                                      const SchedBoundary &Zone,
                                      bool AnyChange) const {
  int Direction = Zone.isTop() ? -1 : 1;
  for (const PressureChange &Change : DAG->getPressureDiff(&SU)) {
    if (!Change.isValid())
      break;
    int Raise = Direction * Change.getUnitInc();
    if (Raise > 0 || (AnyChange && Raise != 0))
      return true;
  }
  return false;
}

/// Whether a tie between \p A and \p B must go LLVM's way. Random picks
/// only between candidates that keep register pressure as LLVM's order
/// would: a pick that makes a value live earlier, or that delays ending a
/// live range where pressure is over the limit, lengthens live ranges, and
/// the allocator pays in reloads and callee-saved registers. Where LLVM
/// does not track pressure (regions of a few instructions), nothing says
/// what a pick costs; inside a loop, where it would cost on every
/// iteration, LLVM's order stays.
bool JitterScheduler::keepsLLVMOrder(const SUnit &A, const SUnit &B,
                                     const SchedBoundary &Zone) const {
  if (!DAG->isTrackingPressure()) {
    if (InLoop)
      ++NumKeptInLoops;
    return InLoop;
  }
  bool OverLimit = !DAG->getRegionCriticalPSets().empty();
  if (changesPressure(A, Zone, OverLimit) ||
      changesPressure(B, Zone, OverLimit)) {
    ++NumKeptForPressure;
    return true;
  }
  return false;
}

bool JitterScheduler::tryCandidate(SchedCandidate &Cand,
                                   SchedCandidate &TryCand,
                                   SchedBoundary *Zone) const {
  // Between the two zones LLVM has no order tie-break; keep its choice.
  if (!Zone || !Cand.isValid())
    return GenericScheduler::tryCandidate(Cand, TryCand, Zone);

  // Run the heuristics on copies to see whether they tie. Every heuristic
  // that prefers Cand lowers Cand.Reason to its own reason, all of which
  // rank before NodeOrder; only the final order comparison leaves a
  // NodeOrder reason on the winner.
  SchedCandidate CandProbe = Cand;
  SchedCandidate TryProbe = TryCand;
  CandProbe.Reason = NodeOrder;
  bool TryWins = GenericScheduler::tryCandidate(CandProbe, TryProbe, Zone);
  bool Tie =
      TryWins ? TryProbe.Reason == NodeOrder : CandProbe.Reason == NodeOrder;
  if (!Tie)
    return GenericScheduler::tryCandidate(Cand, TryCand, Zone);

  if (keepsLLVMOrder(*Cand.SU, *TryCand.SU, *Zone))
    return GenericScheduler::tryCandidate(Cand, TryCand, Zone);

  ++NumTies;
  // As LLVM does with the original order: the top zone takes the earlier
  // node, the bottom zone the later one.
  bool TryEarlier = Rank[TryCand.SU->NodeNum] < Rank[Cand.SU->NodeNum];
  if (TryEarlier != Zone->isTop())
    return false;
  TryCand = TryProbe;
  TryCand.Reason = NodeOrder;
  return true;
}

/// random: bottom-up, uniform among the ready nodes that the constraints
/// allow.
class RandomOrderScheduler final : public MachineSchedStrategy {
public:
  explicit RandomOrderScheduler(std::unique_ptr<RandomStream> Random)
      : Random(std::move(Random)) {}

  bool shouldTrackPressure() const override { return false; }

  void initialize(ScheduleDAGMI *D) override {
    DAG = D;
    Ready.clear();
    if (DAG->SUnits.size() > 1)
      ++NumRegions;
  }

  SUnit *pickNode(bool &IsTopNode) override;
  void schedNode(SUnit *SU, bool IsTopNode) override {}
  // Only bottom-up: nodes released at the top are not candidates.
  void releaseTopNode(SUnit *SU) override {}
  void releaseBottomNode(SUnit *SU) override { Ready.push_back(SU); }

private:
  ScheduleDAGMI *DAG = nullptr;
  std::unique_ptr<RandomStream> Random;
  /// Nodes whose successors are all scheduled.
  std::vector<SUnit *> Ready;
};

SUnit *RandomOrderScheduler::pickNode(bool &IsTopNode) {
  IsTopNode = false;
  if (DAG->top() == DAG->bottom())
    return nullptr;
  erase_if(Ready, [](const SUnit *SU) { return SU->isScheduled; });
  if (Ready.empty())
    return nullptr;

  auto Take = [&](SUnit *SU) {
    Ready.erase(find(Ready, SU));
    return SU;
  };

  // The other half of a cluster whose first half was just scheduled.
  const SUnit *Cluster = DAG->getNextClusterPred();
  for (SUnit *SU : Ready)
    if (SU == Cluster)
      return Take(SU);

  // Physical-register copies next to their user or definition, then nodes
  // with the fewest weak edges left.
  auto Key = [](const SUnit *SU) {
    return std::make_pair(-biasPhysReg(SU, /*isTop=*/false),
                          getWeakLeft(SU, /*isTop=*/false));
  };
  auto Best = Key(*min_element(
      Ready, [&](const SUnit *A, const SUnit *B) { return Key(A) < Key(B); }));
  SmallVector<SUnit *, 16> Choices;
  for (SUnit *SU : Ready)
    if (Key(SU) == Best)
      Choices.push_back(SU);
  // The ready list's order follows LLVM's release order; sort so that the
  // draw depends only on the DAG.
  sort(Choices,
       [](const SUnit *A, const SUnit *B) { return A->NodeNum < B->NodeNum; });
  if (Choices.size() > 1)
    ++NumChoices;
  return Take(Choices[Choices.size() > 1 ? Random->below(Choices.size()) : 0]);
}

/// The scheduler LLVM's MachineScheduler pass picks when -misched is not
/// set: the target's own, else the generic one. A function that sched
/// leaves alone (transforms/FunctionFilter.h) gets exactly this.
ScheduleDAGInstrs *createDefaultScheduler(MachineSchedContext *C) {
  if (ScheduleDAGInstrs *Default = C->PassConfig->createMachineScheduler(C))
    return Default;
  return createGenericSchedLive(C);
}

/// Whether \p MF has more than \p Limit instructions, debug instructions
/// not counted (so that -g changes nothing).
bool isLargerThan(const MachineFunction &MF, unsigned Limit) {
  unsigned Count = 0;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if (!MI.isDebugInstr() && ++Count > Limit)
        return true;
  return false;
}

/// The MachineSchedRegistry constructor: called once per machine function.
ScheduleDAGInstrs *createRandomScheduler(MachineSchedContext *C) {
  // Outside a scope (cannot happen: the scope restores the option).
  if (!Active)
    return createDefaultScheduler(C);

  MachineFunction &MF = *C->MF;
  std::unique_ptr<RandomStream> Random =
      Active->Streams.forFunction(Transformation::Sched, MF.getName());
  if (!Random)
    return createDefaultScheduler(C);
  std::unique_ptr<MachineSchedStrategy> Strategy;
  if (Active->Mode == ScheduleMode::Jitter &&
      isLargerThan(MF, JitterMaxFunctionSize)) {
    ++NumLargeFunctions;
    return createDefaultScheduler(C);
  }
  if (Active->Mode == ScheduleMode::Random)
    Strategy = std::make_unique<RandomOrderScheduler>(std::move(Random));
  else
    Strategy = std::make_unique<JitterScheduler>(C, std::move(Random));

  // The DAG of createGenericSchedLive plus the target's clustering and
  // macro fusion, as clang's scheduler for the target builds it.
  const Triple &TT = MF.getTarget().getTargetTriple();
  auto *DAG = new ScheduleDAGMILive(C, std::move(Strategy));
  DAG->addMutation(createCopyConstrainDAGMutation(DAG->TII, DAG->TRI));
  std::vector<MacroFusionPredTy> Fusions = MF.getSubtarget().getMacroFusions();
  if (!Fusions.empty())
    DAG->addMutation(createMacroFusionDAGMutation(Fusions));
  std::unique_ptr<DiversityTarget> Target = createDiversityTarget(TT);
  if (Target && Target->clustersMemoryOperations()) {
    DAG->addMutation(createLoadClusterDAGMutation(DAG->TII, DAG->TRI));
    DAG->addMutation(createStoreClusterDAGMutation(DAG->TII, DAG->TRI));
  }
  if (Target)
    DAG->addMutation(Target->createMacroFusionMutation());
  return DAG;
}

} // namespace

RandomSchedulerScope::RandomSchedulerScope(ScheduleMode Mode,
                                           StreamSource Streams) {
  if (Active)
    report_fatal_error("divcc: nested randomized-scheduler scopes");
  Active = new ActiveModule{Mode, std::move(Streams)};
  Registration.emplace("divcc-sched",
                       "divcc: randomized scheduling (-fdiversify=sched)",
                       createRandomScheduler);
  MachineSchedOption &Option = machineSchedOption();
  SavedScheduler = Option.getValue();
  Option.setValue(createRandomScheduler);
}

RandomSchedulerScope::~RandomSchedulerScope() {
  machineSchedOption().setValue(SavedScheduler);
  Registration.reset();
  delete Active;
  Active = nullptr;
}

} // namespace divcc
