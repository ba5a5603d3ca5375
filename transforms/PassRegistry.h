//===- PassRegistry.h - divcc's passes by name, for -run-pass -------------===//
//
// One row per transformation of Transformations.def that runs inside the
// code generator: the name a test tool accepts in -run-pass=NAME
// (tools/divcc-llc), "divcc-" and the transformation's name; the level it
// works at; and the row's CREATE expression, which builds it from a
// DiversityOptions and a StreamSource exactly as the pipeline does. This is
// what lets each pass be run alone on a small .ll or .mir file, as LLVM
// tests its own passes.
//
// sched is a scheduler strategy, not a pass: LLVM's machine scheduler picks
// it through the -misched registry while a RandomSchedulerScope lives. Its
// row ("divcc-sched") builds LLVM's machine-scheduler pass together with the
// scope; the scope must outlive the pass manager's run, and only one may
// exist at a time.
//
// link and offset act on the link, outside the code generator, and have no
// row.
//
// Invariants: every pass is built only through its create function in
// Passes.h, with the options struct and the streams it would get from the
// code generator, so a pass run by name decides exactly what it decides in
// divcc's pipeline for the same key and module.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TRANSFORMS_PASSREGISTRY_H
#define DIVCC_TRANSFORMS_PASSREGISTRY_H

#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class Pass;
}

namespace divcc {

/// What a registered pass works on.
enum class PassLevel {
  IR,     // LLVM IR, before instruction selection
  Machine // machine functions (MIR)
};

struct RegisteredPass {
  std::string Name; // -run-pass=NAME, e.g. "divcc-nops"
  Transformation Kind;
  PassLevel Level;
  const char *Summary; // where it runs, for --help and docs
};

/// The rows, in the order the passes run in divcc's pipeline.
llvm::ArrayRef<RegisteredPass> registeredPasses();

/// The row named \p Name, or null.
const RegisteredPass *findRegisteredPass(llvm::StringRef Name);

/// The registered names, joined by ", " (for messages).
std::string registeredPassNames();

/// What one -run-pass=NAME of a divcc pass adds to a pass manager.
struct PassInstance {
  /// The pass; the pass manager owns it once added.
  llvm::Pass *P = nullptr;
  /// sched only: makes LLVM's machine scheduler (P) run divcc's strategy.
  /// Must stay alive until the pass manager has run.
  std::unique_ptr<RandomSchedulerScope> Scheduler;
};

/// Builds \p Entry's pass. The pass keeps references into \p Options,
/// which must outlive it. For sched, no other RandomSchedulerScope may be
/// alive.
PassInstance createRegisteredPass(const RegisteredPass &Entry,
                                  const DiversityOptions &Options,
                                  StreamSource Streams);

/// The pass of the transformation \p T (a row of Transformations.def with
/// a CREATE expression), as the pipeline adds it.
llvm::Pass *createTransformationPass(Transformation T,
                                     const DiversityOptions &Options,
                                     StreamSource Streams);

} // namespace divcc

#endif
