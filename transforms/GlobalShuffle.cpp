//===- GlobalShuffle.cpp - Shuffle and pad the global variables -----------===//
//
// The assembly printer emits global variables in the order of the module's
// global list, each into its section (.data, .bss, .rodata, .tdata,
// .tbss...), so permuting the list permutes the variables within every
// section of the object file. With -fdiversify-global-pad=N (N > 0), each
// variable that can be padded gets a private padding variable of a random
// size in [1, N] bytes right before it, in the same section:
//
//     before:                 after (one draw):
//       @a = global i32 1       @c = global i64 3
//       @b = global i32 0       @divcc.gpad = private global [5 x i8] ...
//       @c = global i64 3       @a = global i32 1
//                               @divcc.gpad.1 = private global [2 x i8] ...
//                               @b = global i32 0
//
// The pad goes before every padded variable rather than only between two of
// them: the first variable of a section then moves too, relative to the
// section (and to the other objects' contributions to it). A pad only pads
// its own section, so it is built to land where its variable does: the
// same section kind (zero-initialized and writable for .bss, initialized
// writable for .data, initialized constant for .rodata, thread-local for
// .tbss/.tdata), the same large-data placement (medium/large code models put
// big variables in .ldata/.lbss/.lrodata), and it is checked with LLVM's own
// classification (TargetLoweringObjectFile::getKindForGlobal) before it is
// kept. Pads are listed in llvm.compiler.used so that nothing drops them
// before emission; they are private, so they add no symbol.
//
// Not padded (but shuffled): variables whose section cannot be matched
// without cost: .data.rel.ro (a pad there would need a dynamic relocation),
// mergeable constants and strings (the linker merges them; the order and
// any pad there are not kept), common symbols (the linker allocates them),
// and variables that get a section of their own (all of them under
// -fdata-sections; comdat members; llvm.used ones, which are SHF_GNU_RETAIN):
// a pad would be another section, which --gc-sections discards.
//
// Left alone entirely (neither moved nor padded):
//   - declarations and available_externally variables (not emitted);
//   - llvm.* variables (llvm.used, llvm.global_ctors...: not data);
//   - variables with an explicit section, or a section chosen by
//     #pragma clang section: the program may rely on their order there
//     (linker sets read between __start_/__stop_ symbols);
//   - variables with !associated metadata (their section is tied to another
//     one's with SHF_LINK_ORDER, e.g. sanitizer metadata) or in a partition.
// Comdat members are shuffled (but not padded) even when their comdat has
// other members (sanitizer metadata, or a variable and its guard): on ELF
// every comdat member gets a section of its own in the group, so moving one
// reorders whole sections, and the group is still kept or dropped as one.
//
// AddressSanitizer puts each instrumented global, with its redzone, in a
// comdat with its metadata, so no pad lands between a global and its
// redzone; pads elsewhere are not registered with ASan, so never poisoned.
//
// The draws: the shuffle, then (with padding) one size per movable variable
// in the new order, drawn even where no pad fits. Debug info adds no global
// variable, so -g changes nothing.
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "transforms/DiversityOptions.h"
#include "transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/SectionKind.h"
#include "llvm/Pass.h"
#include "llvm/Target/TargetLoweringObjectFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

#define DEBUG_TYPE "divcc-globals"
STATISTIC(NumShuffled, "Global variables whose position was drawn at random");
STATISTIC(NumPads, "Padding variables added");
STATISTIC(NumPadBytes, "Bytes of global padding added");

namespace divcc {
namespace {

/// The sections a pad can share with its variable.
enum class PadSection { None, Data, BSS, ReadOnly, ThreadData, ThreadBSS };

PadSection padSectionOf(SectionKind Kind) {
  if (Kind.isBSS())
    return PadSection::BSS;
  if (Kind.isData())
    return PadSection::Data;
  if (Kind.isReadOnly() && !Kind.isMergeableCString() &&
      !Kind.isMergeableConst())
    return PadSection::ReadOnly;
  if (Kind.isThreadBSS())
    return PadSection::ThreadBSS;
  if (Kind.isThreadData())
    return PadSection::ThreadData;
  return PadSection::None; // common, .data.rel.ro, mergeable, excluded
}

class GlobalShuffle : public ModulePass {
public:
  static char ID;
  GlobalShuffle(const GlobalOptions &Options, StreamSource Streams)
      : ModulePass(ID), Options(Options), Streams(std::move(Streams)) {}

  StringRef getPassName() const override { return "divcc global shuffle"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<TargetPassConfig>();
    AU.setPreservesAll();
  }

  bool runOnModule(Module &M) override;

private:
  /// Whether \p GV may move.
  static bool isMovable(const GlobalVariable &GV);
  /// A pad of \p Bytes bytes that lands in \p GV's section, or null.
  GlobalVariable *makePad(GlobalVariable &GV, uint64_t Bytes) const;
  /// Where \p GV goes, if a pad can go there too.
  PadSection paddableSection(const GlobalVariable &GV) const;

  const GlobalOptions &Options;
  StreamSource Streams;
  const TargetMachine *TM = nullptr;
  SmallPtrSet<const GlobalValue *, 8> Retained; // in llvm.used: SHF_GNU_RETAIN
};

char GlobalShuffle::ID = 0;

bool GlobalShuffle::isMovable(const GlobalVariable &GV) {
  return !GV.isDeclarationForLinker() && !GV.getName().starts_with("llvm.") &&
         !GV.hasSection() && !GV.hasImplicitSection() && !GV.hasPartition() &&
         !GV.hasMetadata(LLVMContext::MD_associated);
}

PadSection GlobalShuffle::paddableSection(const GlobalVariable &GV) const {
  // Each of these gets a section of its own.
  if (GV.hasComdat() || TM->getDataSections() || Retained.contains(&GV) ||
      GV.hasMetadata(LLVMContext::MD_exclude))
    return PadSection::None;
  return padSectionOf(TargetLoweringObjectFile::getKindForGlobal(&GV, *TM));
}

GlobalVariable *GlobalShuffle::makePad(GlobalVariable &GV,
                                       uint64_t Bytes) const {
  PadSection Where = paddableSection(GV);
  if (Where == PadSection::None)
    return nullptr;
  LLVMContext &Ctx = GV.getContext();
  auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), Bytes);
  bool Zero = Where == PadSection::BSS || Where == PadSection::ThreadBSS;
  // A non-zero initializer keeps .data and .tdata pads out of the BSS.
  SmallVector<uint8_t, 64> Fill(Bytes, 0xa5);
  Constant *Init = Zero ? Constant::getNullValue(Ty)
                        : ConstantDataArray::get(Ctx, ArrayRef(Fill));
  auto *Pad = new GlobalVariable(
      *GV.getParent(), Ty, /*isConstant=*/Where == PadSection::ReadOnly,
      GlobalValue::PrivateLinkage, Init, "divcc.gpad", /*InsertBefore=*/nullptr,
      GV.getThreadLocalMode(), GV.getAddressSpace());
  Pad->setAlignment(Align(1));
  bool Large = TM->isLargeGlobalValue(&GV);
  if (TM->isLargeGlobalValue(Pad) != Large)
    Pad->setCodeModel(Large ? CodeModel::Large : CodeModel::Small);

  // LLVM's own verdict: the pad must be classified like its variable.
  if (paddableSection(*Pad) != Where || TM->isLargeGlobalValue(Pad) != Large) {
    Pad->eraseFromParent();
    return nullptr;
  }
  return Pad;
}

bool GlobalShuffle::runOnModule(Module &M) {
  TM = &getAnalysis<TargetPassConfig>().getTM<TargetMachine>();
  SmallVector<GlobalValue *, 8> Used;
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/false);
  Retained.clear();
  Retained.insert(Used.begin(), Used.end());

  SmallVector<GlobalVariable *, 128> All;
  SmallVector<GlobalVariable *, 64> Movable;
  for (GlobalVariable &GV : M.globals()) {
    All.push_back(&GV);
    if (isMovable(GV))
      Movable.push_back(&GV);
  }
  if (Movable.empty())
    return false;

  RandomStream Random = Streams.forModule(Transformation::Globals);
  SmallVector<GlobalVariable *, 64> Shuffled(Movable);
  Random.shuffle(MutableArrayRef<GlobalVariable *>(Shuffled));
  NumShuffled += Shuffled.size();

  // The movable variables' places in the list, in order, take the shuffled
  // variables; everything else keeps its place.
  SmallVector<GlobalVariable *, 128> Order;
  SmallVector<GlobalValue *, 64> Pads;
  auto Next = Shuffled.begin();
  for (GlobalVariable *GV : All) {
    if (!isMovable(*GV)) {
      Order.push_back(GV);
      continue;
    }
    GlobalVariable *G = *Next++;
    // The size is drawn even where no pad fits, so that the sizes of later
    // pads do not depend on what LLVM makes of this variable.
    if (Options.MaxPad > 0)
      if (GlobalVariable *Pad =
              makePad(*G, Random.between(1, Options.MaxPad))) {
        Order.push_back(Pad);
        Pads.push_back(Pad);
        ++NumPads;
        NumPadBytes += Pad->getValueType()->getArrayNumElements();
      }
    Order.push_back(G);
  }
  for (GlobalVariable *GV : Order) {
    M.removeGlobalVariable(GV);
    M.insertGlobalVariable(GV);
  }
  if (!Pads.empty())
    appendToCompilerUsed(M, Pads);
  return true;
}

} // namespace

ModulePass *createGlobalShufflePass(const GlobalOptions &Options,
                                    StreamSource Streams) {
  return new GlobalShuffle(Options, std::move(Streams));
}

} // namespace divcc
