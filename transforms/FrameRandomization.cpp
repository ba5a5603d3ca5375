//===- FrameRandomization.cpp - Shuffle stack slots and pad frames --------===//
//
// The static allocas of a function's entry block become its stack objects,
// numbered in their order of appearance (FunctionLoweringInfo), and the
// frame is laid out from those numbers. This IR pass, right before
// instruction selection, permutes the static allocas with the function's
// "frames" stream and adds one padding alloca of a random size in
// [0, -fdiversify-frame-pad] bytes (none when 0) at a random position among
// them:
//
//     before:                     after (one draw):
//       %ret = alloca i32           %buf = alloca [64 x i8]
//       %buf = alloca [64 x i8]     %pad = alloca <{ i64, i8, i8 }>, align 1
//       %i   = alloca i32           %i   = alloca i32
//                                   %ret = alloca i32
//
// The padding is a packed struct of i64 and i8 fields, never an array: the
// stack protector (which runs after this pass) sorts allocas that contain
// arrays into the layout groups it keeps next to the guard, and an array
// pad there could sit between the guard and a buffer, hiding a 1-byte
// overflow. A pad with no arrays and no uses is never protected, so
// PrologEpilogInserter places it after every protected object, below them.
// It has no uses and no lifetime markers; LLVM 19 keeps such an alloca
// until frame layout at every level (CodeGenPrepare does not delete
// allocas, FunctionLoweringInfo gives every static alloca a stack object,
// StackColoring only merges slots that have lifetime markers, and no pass
// drops unreferenced objects), so it costs frame space and nothing else.
//
// What survives of the permutation in the final frame:
//   - at -O0 all of it: objects are laid out in their numbering order,
//     except that the stack protector's groups stay next to the guard
//     (within a group the order is still the permuted one);
//   - at -O1 and above, X86FrameLowering::orderFrameObjects stable-sorts
//     the unprotected objects by use density (uses per byte), then by
//     alignment, so only objects that tie keep the permuted order (e.g.
//     arrays of one size, or ints, each used the same number of times);
//     StackColoring merges slots with disjoint lifetimes, and which slots
//     share depends on the order too. The unused pad has the lowest
//     density: without a frame pointer it lands at the top of the
//     unprotected area and moves every unprotected object relative to the
//     return address; with one the sorted order is reversed and it lands
//     at the bottom, moving objects only relative to the stack pointer and
//     the frames of callees. Protected objects (-fstack-protector-strong:
//     arrays and address-taken locals) are not sorted and keep the
//     permutation.
// Measured on the corpus (DWARF locations of memory-resident locals, two
// seeds, default pad): at -O0, 2023 of 2101 functions with two or more such
// locals put them at other frame offsets, 1412 in another order; at -O2
// (few locals stay in memory) 12 of 20 functions moved them relative to the
// return address, 6 of 25 changed their order (13 of 25 with
// -fstack-protector-strong).
//
// The permuted allocas go to the top of the entry block, each followed by
// the debug records that followed it (see placeAtTop). Never touched:
// dynamic allocas (outside the entry block or of variable size), inalloca
// and swifterror allocas, and every other instruction. No function depends
// on the relative order of its static allocas: nothing in LLVM reads it but
// frame numbering, and programs cannot rely on the layout of distinct
// objects.
//
// Only allocas consume draws, so debug intrinsics and records (-g) change
// nothing. The draws: the shuffle, then the pad's size, then (if the size
// is not 0) its position.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-frames"
STATISTIC(NumShuffled, "Static allocas whose position was drawn at random");
STATISTIC(NumPads, "Padding allocas added");
STATISTIC(NumPadBytes, "Bytes of frame padding added");

namespace divcc {
namespace {

bool isShufflable(const AllocaInst &AI) {
  // isStaticAlloca: in the entry block, of constant size, not inalloca.
  return AI.isStaticAlloca() && !AI.isSwiftError() &&
         AI.getAllocatedType()->isSized() &&
         !AI.getAllocatedType()->isScalableTy();
}

/// A type of exactly \p Bytes bytes, alignment 1, that contains no array
/// (so that the stack protector never counts it as a buffer).
StructType *paddingType(LLVMContext &Ctx, uint64_t Bytes) {
  SmallVector<Type *, 16> Fields(Bytes / 8, Type::getInt64Ty(Ctx));
  Fields.append(Bytes % 8, Type::getInt8Ty(Ctx));
  return StructType::get(Ctx, Fields, /*isPacked=*/true);
}

/// Moves \p Slots, in this order, to the top of \p Entry (inserting those
/// not yet in a block). Each alloca takes along the debug records that
/// directly follow it: with assignment tracking (clang's default at -O1 and
/// above) that is the dbg_assign linked to the alloca's DIAssignID, and
/// separated from its alloca by other allocas it makes the variable lose its
/// location.
void placeAtTop(BasicBlock &Entry, ArrayRef<AllocaInst *> Slots) {
  Function &F = *Entry.getParent();
  bool WasNewFormat = F.IsNewDbgInfoFormat;
  if (!WasNewFormat)
    F.convertToNewDbgValues();

  SmallVector<SmallVector<DbgRecord *, 2>, 32> Trailing(Slots.size());
  for (size_t I = 0; I != Slots.size(); ++I) {
    Instruction *Next =
        Slots[I]->getParent() ? Slots[I]->getNextNode() : nullptr;
    if (!Next)
      continue;
    for (DbgRecord &DR : make_early_inc_range(Next->getDbgRecordRange())) {
      DR.removeFromParent();
      Trailing[I].push_back(&DR);
    }
  }
  for (AllocaInst *AI : reverse(Slots)) { // each ahead of any debug record
    if (AI->getParent())
      AI->moveBefore(Entry, Entry.begin());
    else
      AI->insertInto(&Entry, Entry.begin());
  }
  for (size_t I = 0; I != Slots.size(); ++I)
    for (DbgRecord *DR : Trailing[I])
      Entry.insertDbgRecordBefore(DR, std::next(Slots[I]->getIterator()));

  if (!WasNewFormat)
    F.convertFromNewDbgValues();
}

class FrameRandomization : public FunctionPass {
public:
  static char ID;
  FrameRandomization(const FrameOptions &Options, StreamSource Streams)
      : FunctionPass(ID), Options(Options), Streams(std::move(Streams)) {}

  StringRef getPassName() const override { return "divcc frame randomization"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
  }

  bool runOnFunction(Function &F) override;

private:
  const FrameOptions &Options;
  StreamSource Streams;
};

char FrameRandomization::ID = 0;

bool FrameRandomization::runOnFunction(Function &F) {
  if (F.isDeclaration())
    return false;
  SmallVector<AllocaInst *, 32> Slots;
  for (Instruction &I : F.getEntryBlock())
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isShufflable(*AI))
      Slots.push_back(AI);
  if (Slots.empty())
    return false;

  // Debug records never count: the draws depend only on the allocas.
  std::unique_ptr<RandomStream> Random =
      Streams.forFunction(Transformation::Frames, F.getName());
  if (!Random)
    return false;
  Random->shuffle(MutableArrayRef<AllocaInst *>(Slots));
  NumShuffled += Slots.size();

  if (uint64_t PadBytes = Random->between(0, Options.MaxPad)) {
    const DataLayout &DL = F.getDataLayout();
    auto *Pad = new AllocaInst(paddingType(F.getContext(), PadBytes),
                               DL.getAllocaAddrSpace(), /*ArraySize=*/nullptr,
                               Align(1), "divcc.frame.pad");
    Slots.insert(Slots.begin() + Random->below(Slots.size() + 1), Pad);
    ++NumPads;
    NumPadBytes += PadBytes;
  }

  placeAtTop(F.getEntryBlock(), Slots);
  return true;
}

} // namespace

FunctionPass *createFrameRandomizationPass(const FrameOptions &Options,
                                           StreamSource Streams) {
  return new FrameRandomization(Options, std::move(Streams));
}

} // namespace divcc
