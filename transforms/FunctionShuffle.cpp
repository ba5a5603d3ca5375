//===- FunctionShuffle.cpp - Shuffle the functions of a module ------------===//
//
// The code generator emits functions in the order of the module's function
// list, so permuting that list moves every function to a new offset in the
// object file (and, with -ffunction-sections, to a new position among the
// input sections the linker lays out in order).
//
// Invariants: only the order changes; no function, attribute or linkage is
// touched. Declarations keep no position in the output and are left where
// they are. The permutation is drawn from the module's "funcs" stream, so it
// depends only on the secret and the module's stream name.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-funcs"
STATISTIC(NumShuffled, "Functions whose position was drawn at random");

namespace divcc {
namespace {

class FunctionShuffle : public ModulePass {
public:
  static char ID;
  explicit FunctionShuffle(StreamSource Streams)
      : ModulePass(ID), Streams(std::move(Streams)) {}

  StringRef getPassName() const override { return "divcc function shuffle"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesAll();
  }

  bool runOnModule(Module &M) override {
    SmallVector<Function *, 64> Definitions;
    for (Function &F : M)
      if (!F.isDeclaration())
        Definitions.push_back(&F);
    if (Definitions.size() < 2)
      return false;

    RandomStream Random = Streams.forModule(Transformation::Funcs);
    Random.shuffle(MutableArrayRef<Function *>(Definitions));
    auto &List = M.getFunctionList();
    for (Function *F : Definitions)
      List.splice(List.end(), List, F->getIterator());
    NumShuffled += Definitions.size();
    return true;
  }

private:
  StreamSource Streams;
};

char FunctionShuffle::ID = 0;

} // namespace

ModulePass *createFunctionShufflePass(StreamSource Streams) {
  return new FunctionShuffle(std::move(Streams));
}

} // namespace divcc
