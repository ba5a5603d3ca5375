//===- Audit.cpp - divtool audit: gadget survival across variants ---------===//
//
// The base is read and its gadgets found once; then each variant is read in
// turn, its gadgets found (for "present anywhere") and every base gadget
// looked up at its own address and at its offset in the function of the
// same name (relative survival, Relative.h). Memory stays at about two
// binaries and their decode tables, whatever the number of variants.
//
//===----------------------------------------------------------------------===//

#include "divtool/audit/Audit.h"
#include "divtool/audit/Relative.h"

#include "support/Diagnostics.h"

#include "analysis/ElfImage.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace divcc {

static StringRef bytesAt(const ElfImage &Image, uint64_t Address,
                         uint64_t Size) {
  return toStringRef(Image.codeAt(Address, Size));
}

namespace {

/// Progress on stderr: one line per binary, redrawn in place.
class ProgressLine {
public:
  ProgressLine(bool Enabled, size_t Count) : Enabled(Enabled), Count(Count) {}
  ~ProgressLine() {
    if (Shown)
      errs() << "\n";
  }

  ProgressFn forBinary(size_t Index, StringRef Path) {
    if (!Enabled)
      return nullptr;
    return [this, Index, Path = Path.str()](uint64_t Done, uint64_t Total) {
      errs() << "\rdivtool audit: [" << Index << "/" << Count << "] " << Path
             << ": " << (Total ? Done * 100 / Total : 100) << "%\x1b[K";
      Shown = true;
    };
  }

private:
  bool Enabled;
  size_t Count;
  bool Shown = false;
};

/// One binary read and its gadgets found.
struct ScannedBinary {
  ElfImage Image;
  std::vector<Gadget> Gadgets;
  BinarySummary Summary;
  StringMap<GadgetKind> Unique; // distinct gadget byte sequences
};

class Auditor {
public:
  Auditor(const AuditOptions &Opts, size_t Binaries)
      : Opts(Opts), Progress(Opts.Progress, Binaries) {}

  Expected<AuditResult> run(const std::string &BasePath,
                            const std::vector<std::string> &VariantPaths);

private:
  Expected<ScannedBinary> scan(const std::string &Path, size_t Index);
  void compare(const ScannedBinary &Base, const ScannedBinary &Variant,
               VariantResult &Out, std::vector<uint32_t> &SurvivalCounts,
               AuditResult &R);
  void compareRelative(const ScannedBinary &Base,
                       const ScannedBinary &Variant, VariantResult &Out,
                       std::vector<uint32_t> &Counts);

  std::optional<RelativeIndex> Relative;

  const AuditOptions &Opts;
  ProgressLine Progress;
  std::unique_ptr<Disassembler> Dis;
  Triple::ArchType Arch = Triple::UnknownArch;
};

} // namespace

Expected<ScannedBinary> Auditor::scan(const std::string &Path, size_t Index) {
  Expected<ElfImage> Image = ElfImage::open(Path);
  if (!Image)
    return Image.takeError();
  if (!Dis) {
    auto Created = Disassembler::create(Image->arch());
    if (!Created)
      return Created.takeError();
    Dis = std::move(*Created);
    Arch = Image->arch();
  } else if (Image->arch() != Arch) {
    return makeError("'" + Path + "': architecture " +
                     Triple::getArchTypeName(Image->arch()) +
                     " differs from the base's " +
                     Triple::getArchTypeName(Arch));
  }
  ScannedBinary S{std::move(*Image), {}, {}, {}};
  S.Gadgets =
      findGadgets(S.Image, *Dis, Opts.Gadgets, Progress.forBinary(Index, Path));
  S.Summary.Path = Path;
  S.Summary.CodeBytes = S.Image.codeSize();
  S.Summary.Gadgets = S.Gadgets.size();
  for (const Gadget &G : S.Gadgets) {
    ++S.Summary.ByKind[unsigned(G.Kind)];
    S.Unique.try_emplace(bytesAt(S.Image, G.Address, G.Size), G.Kind);
  }
  S.Summary.UniqueGadgets = S.Unique.size();
  for (const auto &Entry : S.Unique)
    ++S.Summary.UniqueByKind[unsigned(Entry.getValue())];
  return S;
}

// Share of [Address, Address + Size) of the base whose bytes differ at the
// same address in the variant (all of it if the variant has no code there).
static double movedShare(const ElfImage &Base, const ElfImage &Variant,
                         uint64_t Address, uint64_t Size) {
  ArrayRef<uint8_t> Before = Base.codeAt(Address, Size);
  ArrayRef<uint8_t> After = Variant.codeAt(Address, Size);
  if (Before.empty() || After.size() != Before.size())
    return 1.0;
  uint64_t Differing = 0;
  for (size_t I = 0; I < Before.size(); ++I)
    Differing += Before[I] != After[I];
  return double(Differing) / double(Size);
}

/// Whether gadget \p G of \p From has the same bytes at its address in
/// \p To.
static bool survivesAt(const ElfImage &From, const ElfImage &To,
                       const Gadget &G) {
  return bytesAt(To, G.Address, G.Size) == bytesAt(From, G.Address, G.Size);
}

/// Reads \p Image's code, for RelativeIndex.
static auto codeReader(const ElfImage &Image) {
  return [&Image](uint64_t Address, uint64_t Size) {
    return Image.codeAt(Address, Size);
  };
}

void Auditor::compare(const ScannedBinary &Base, const ScannedBinary &Variant,
                      VariantResult &Out, std::vector<uint32_t> &SurvivalCounts,
                      AuditResult &R) {
  for (size_t I = 0; I < Base.Gadgets.size(); ++I) {
    const Gadget &G = Base.Gadgets[I];
    if (survivesAt(Base.Image, Variant.Image, G)) {
      ++Out.Surviving;
      ++Out.SurvivingByKind[unsigned(G.Kind)];
      ++SurvivalCounts[I];
    }
  }
  for (const auto &Entry : Base.Unique)
    Out.PresentAnywhere += Variant.Unique.contains(Entry.getKey());
  for (const ChainGadget &C : R.Chain)
    Out.ChainIntact +=
        bytesAt(Variant.Image, C.Address, C.Bytes.size()) ==
        toStringRef(ArrayRef<uint8_t>(C.Bytes));

  StringMap<uint64_t> VariantAddress;
  for (const FunctionSymbol &F : Variant.Image.functions())
    VariantAddress[F.Key] = F.Address;
  for (FunctionResult &F : R.Functions) {
    F.Moved += movedShare(Base.Image, Variant.Image, F.Address, F.Size);
    auto It = VariantAddress.find(F.Name);
    F.Shift.push_back(It == VariantAddress.end()
                          ? std::nullopt
                          : std::optional<int64_t>(It->second - F.Address));
  }
}

void Auditor::compareRelative(const ScannedBinary &Base,
                              const ScannedBinary &Variant,
                              VariantResult &Out,
                              std::vector<uint32_t> &Counts) {
  auto BaseCode = codeReader(Base.Image);
  auto VariantCode = codeReader(Variant.Image);
  Out.RelativeSurviving =
      Relative->compare(Base.Gadgets, BaseCode,
                        Variant.Image.namedFunctions(), VariantCode, &Counts);
}

/// Every ordered pair of \p Binaries (the base first): absolute and relative
/// survival of the first's gadgets in the second.
static SurvivalMatrix survivalMatrix(ArrayRef<const ScannedBinary *> Binaries) {
  SurvivalMatrix M;
  for (const ScannedBinary *A : Binaries) {
    M.Binaries.push_back(A->Summary.Path);
    RelativeIndex Index(A->Image.namedFunctions(), A->Gadgets);
    auto ACode = codeReader(A->Image);
    std::vector<MatrixCell> Row;
    for (const ScannedBinary *B : Binaries) {
      MatrixCell Cell;
      uint64_t Same = llvm::count_if(A->Gadgets, [&](const Gadget &G) {
        return survivesAt(A->Image, B->Image, G);
      });
      if (!A->Gadgets.empty())
        Cell.Absolute = double(Same) / double(A->Gadgets.size());
      if (Index.inFunctions())
        Cell.Relative =
            double(Index.compare(A->Gadgets, ACode, B->Image.namedFunctions(),
                                 codeReader(B->Image))) /
            double(Index.inFunctions());
      Row.push_back(Cell);
    }
    M.Cells.push_back(std::move(Row));
  }
  return M;
}

// The chain's gadgets with their bytes in the base: from each address up to
// and including the first gadget ending.
static Expected<std::vector<ChainGadget>>
chainBytes(std::vector<ChainGadget> Chain, const ElfImage &Base,
           const Disassembler &D) {
  for (ChainGadget &C : Chain) {
    uint64_t Address = C.Address;
    for (unsigned Count = 0; Count < 64; ++Count) {
      MCInst I;
      unsigned Size = D.decode(Base.codeFrom(Address), Address, I);
      if (!Size)
        break;
      Address += Size;
      if (D.target().endingKind(I)) {
        ArrayRef<uint8_t> Bytes = Base.codeAt(C.Address, Address - C.Address);
        C.Bytes.assign(Bytes.begin(), Bytes.end());
        break;
      }
    }
    if (C.Bytes.empty())
      return makeError(formatv("ROPgadget's chain names address {0:x}, "
                               "where the base has no gadget",
                               C.Address)
                           .str());
  }
  return Chain;
}

Expected<AuditResult>
Auditor::run(const std::string &BasePath,
             const std::vector<std::string> &VariantPaths) {
  AuditResult R;
  R.Gadgets = Opts.Gadgets;
  Expected<ScannedBinary> Base = scan(BasePath, 1);
  if (!Base)
    return Base.takeError();
  R.Base = Base->Summary;
  if (Opts.List)
    for (const Gadget &G : Base->Gadgets)
      R.List.push_back({G.Address, G.Kind,
                        Dis->print(Base->Image.codeAt(G.Address, G.Size),
                                   G.Address, G.InstructionSet)});
  if (Opts.Functions) {
    if (!Base->Image.hasSymbolTable())
      return makeError(
          "'" + BasePath +
          "': no symbol table (stripped); the per-function report needs "
          "one: audit an unstripped copy, or pass --no-functions");
    for (const FunctionSymbol &F : Base->Image.functions())
      R.Functions.push_back({F.Key, F.Address, F.Size, 0, 0, 0, {}});
  }
  if (!Opts.RopGadget.empty()) {
    R.ChainRequested = true;
    auto Chain = buildRopChain(Opts.RopGadget, BasePath);
    if (!Chain)
      return Chain.takeError();
    auto WithBytes = chainBytes(std::move(*Chain), Base->Image, *Dis);
    if (!WithBytes)
      return WithBytes.takeError();
    R.Chain = std::move(*WithBytes);
  }

  Relative.emplace(Base->Image.namedFunctions(), Base->Gadgets);
  R.Relative.Symbols = Base->Image.hasSymbolTable() ? "symtab"
                       : Base->Image.namedFunctions().empty() ? "none"
                                                              : "dynsym";
  R.Relative.InFunctions = Relative->inFunctions();
  R.Relative.OutsideFunctions = Relative->outsideFunctions();
  R.Relative.InAmbiguousFunctions = Relative->inAmbiguousFunctions();

  std::vector<uint32_t> SurvivalCounts(Base->Gadgets.size());
  std::vector<uint32_t> RelativeCounts(Base->Gadgets.size());
  // With the matrix, every binary stays in memory until the end.
  std::vector<ScannedBinary> Kept;
  for (size_t V = 0; V < VariantPaths.size(); ++V) {
    Expected<ScannedBinary> Variant = scan(VariantPaths[V], V + 2);
    if (!Variant)
      return Variant.takeError();
    R.Variants.emplace_back();
    R.Variants.back().Binary = Variant->Summary;
    compare(*Base, *Variant, R.Variants.back(), SurvivalCounts, R);
    compareRelative(*Base, *Variant, R.Variants.back(), RelativeCounts);
    if (Opts.Matrix)
      Kept.push_back(std::move(*Variant));
  }
  if (Opts.Matrix) {
    std::vector<const ScannedBinary *> All = {&*Base};
    for (const ScannedBinary &S : Kept)
      All.push_back(&S);
    R.Matrix = survivalMatrix(All);
  }

  R.SurvivalHistogram.assign(VariantPaths.size() + 1, 0);
  for (uint32_t Count : SurvivalCounts)
    ++R.SurvivalHistogram[Count];
  R.Relative.Histogram.assign(VariantPaths.size() + 1, 0);
  for (size_t I = 0; I < RelativeCounts.size(); ++I)
    if (Relative->counted(I))
      ++R.Relative.Histogram[RelativeCounts[I]];
  // Gadgets per function, by start address: both lists are sorted.
  if (Opts.Functions)
    R.SurvivingOutsideFunctions = R.survivingInAtLeast(1);
  auto G = Base->Gadgets.begin();
  for (size_t I = 0; I < R.Functions.size(); ++I) {
    FunctionResult &F = R.Functions[I];
    F.Moved /= double(VariantPaths.size());
    G = std::lower_bound(G, Base->Gadgets.end(), F.Address,
                         [](const Gadget &X, uint64_t A) {
                           return X.Address < A;
                         });
    for (auto It = G; It != Base->Gadgets.end() &&
                      It->Address < F.Address + F.Size;
         ++It) {
      ++F.Gadgets;
      F.SurvivingSomewhere += SurvivalCounts[It - Base->Gadgets.begin()] > 0;
    }
    R.SurvivingOutsideFunctions -= F.SurvivingSomewhere;
  }
  return R;
}

//===----------------------------------------------------------------------===//
// Relative survival (Relative.h): here rather than in a file of its own, so
// that divtool's source list stays as it is.
//===----------------------------------------------------------------------===//

std::vector<std::string>
symbolNames(const std::vector<FunctionSymbol> &Functions) {
  StringMap<bool> Keys;
  for (const FunctionSymbol &F : Functions)
    Keys[F.Key] = true;
  std::vector<std::string> Names;
  Names.reserve(Functions.size());
  for (const FunctionSymbol &F : Functions) {
    auto [Symbol, Suffix] = StringRef(F.Key).rsplit('#');
    bool Numbered = !Suffix.empty() && all_of(Suffix, isDigit) &&
                    Keys.contains(Symbol);
    Names.push_back(Numbered ? Symbol.str() : F.Key);
  }
  return Names;
}

RelativeIndex::RelativeIndex(const std::vector<FunctionSymbol> &Symbols,
                             const std::vector<Gadget> &Gadgets) {
  std::vector<std::string> Names = symbolNames(Symbols);
  StringMap<unsigned> Defined;
  for (const std::string &Name : Names)
    ++Defined[Name];
  // Per symbol: its index in Functions, or NoFunction if ambiguous.
  std::vector<uint32_t> Index(Symbols.size(), NoFunction);
  for (size_t I = 0; I < Symbols.size(); ++I)
    if (Defined[Names[I]] == 1) {
      Index[I] = Functions.size();
      Functions.push_back({Names[I], Symbols[I].Address});
    }

  // Both lists are sorted: the function covering a gadget, if any, is the
  // last one starting at or before it.
  FunctionOf.assign(Gadgets.size(), NoFunction);
  auto F = Symbols.begin();
  for (size_t I = 0; I < Gadgets.size(); ++I) {
    uint64_t A = Gadgets[I].Address;
    while (F != Symbols.end() && F->Address <= A)
      ++F;
    if (F == Symbols.begin() || A - F[-1].Address >= F[-1].Size) {
      ++Outside;
      continue;
    }
    uint32_t Function = Index[F - 1 - Symbols.begin()];
    FunctionOf[I] = Function;
    ++(Function == NoFunction ? Ambiguous : InFunctions);
  }
}

uint64_t RelativeIndex::compare(const std::vector<Gadget> &Gadgets,
                                CodeReader Base,
                                const std::vector<FunctionSymbol> &Symbols,
                                CodeReader Variant,
                                std::vector<uint32_t> *Counts) const {
  // The variant's functions by name; a name defined twice matches nothing.
  struct Place {
    uint64_t Address, Size;
    bool Ambiguous;
  };
  std::vector<std::string> Names = symbolNames(Symbols);
  StringMap<Place> ByName;
  for (size_t I = 0; I < Symbols.size(); ++I) {
    auto [It, New] = ByName.try_emplace(
        Names[I], Place{Symbols[I].Address, Symbols[I].Size, false});
    if (!New)
      It->second.Ambiguous = true;
  }
  // Where each base function is in the variant (Size 0: nowhere).
  std::vector<Place> Moved(Functions.size(), Place{0, 0, true});
  for (size_t F = 0; F < Functions.size(); ++F)
    if (auto It = ByName.find(Functions[F].Name);
        It != ByName.end() && !It->second.Ambiguous)
      Moved[F] = It->second;

  uint64_t Surviving = 0;
  for (size_t I = 0; I < Gadgets.size(); ++I) {
    uint32_t F = FunctionOf[I];
    if (F == NoFunction || Moved[F].Ambiguous)
      continue;
    const Gadget &G = Gadgets[I];
    uint64_t Offset = G.Address - Functions[F].Address;
    if (Offset >= Moved[F].Size)
      continue;
    ArrayRef<uint8_t> Before = Base(G.Address, G.Size);
    ArrayRef<uint8_t> After = Variant(Moved[F].Address + Offset, G.Size);
    if (Before.empty() || Before != After)
      continue;
    ++Surviving;
    if (Counts)
      ++(*Counts)[I];
  }
  return Surviving;
}

Expected<AuditResult> runAudit(const std::string &Base,
                               const std::vector<std::string> &Variants,
                               const AuditOptions &Opts) {
  if (Variants.empty())
    return makeError("no variants to compare with the base");
  Auditor A(Opts, Variants.size() + 1);
  return A.run(Base, Variants);
}

double AuditResult::survival(size_t V) const {
  return Base.Gadgets ? double(Variants[V].Surviving) / double(Base.Gadgets)
                      : 0.0;
}

uint64_t AuditResult::survivingInAtLeast(size_t K) const {
  uint64_t N = 0;
  for (size_t I = K; I < SurvivalHistogram.size(); ++I)
    N += SurvivalHistogram[I];
  return N;
}

double AuditResult::relativeSurvival(size_t V) const {
  return Relative.InFunctions ? double(Variants[V].RelativeSurviving) /
                                    double(Relative.InFunctions)
                              : 0.0;
}

double AuditResult::meanRelativeSurvival() const {
  double Sum = 0;
  for (size_t V = 0; V < Variants.size(); ++V)
    Sum += relativeSurvival(V);
  return Variants.empty() ? 0.0 : Sum / double(Variants.size());
}

uint64_t AuditResult::relativeSurvivingInAtLeast(size_t K) const {
  uint64_t N = 0;
  for (size_t I = K; I < Relative.Histogram.size(); ++I)
    N += Relative.Histogram[I];
  return N;
}

unsigned AuditResult::chainsSurviving() const {
  unsigned N = 0;
  for (const VariantResult &V : Variants)
    N += !Chain.empty() && V.ChainIntact == Chain.size();
  return N;
}

} // namespace divcc
