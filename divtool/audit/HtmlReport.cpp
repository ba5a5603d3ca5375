//===- HtmlReport.cpp - divtool audit as a self-contained HTML page -------===//
//
// The page reports everything an audit found: the base (code size, gadgets
// by kind, the gadget options), one table row per variant (its gadgets, the
// share of the base's gadgets that survive at their address, the share
// present anywhere, the share that survives relatively (at the same offset
// in the function of the same name, Relative.h), whether the ROP chain is
// intact), the chain itself, and four plots:
//   - survival distribution: how many base gadgets survive in exactly k of
//     the n variants (k = 0 is what diversity is for, k = n is what an
//     attacker can use against every variant);
//   - gadgets per function: the 30 functions with the most gadgets, each bar
//     split into gadgets that survive in some variant and those that do not;
//   - address-shift map: how far each function moved in each variant, by its
//     address in the base;
//   - survival per variant: absolute and relative survival side by side
//     (last, so that the plots above keep their place on the page).
//
// The plots are SVG, inline, drawn by the helper divtool's reports share
// (divtool/HtmlPlot.h), which also writes the page around them: one file
// with no script and nothing to fetch. Text that comes from the binaries
// (paths, symbol names, ROPgadget's output) is HTML-escaped where it is
// written.
//
//===----------------------------------------------------------------------===//

#include "divtool/HtmlPlot.h"
#include "divtool/audit/Audit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace llvm;

namespace divcc {
namespace {

/// A symbol name as people read it: demangled, keeping the "#2" divtool
/// appends to local symbols that share a name.
std::string displayName(StringRef Key) {
  auto [Symbol, Suffix] = Key.rsplit('#');
  if (Suffix.empty() || !all_of(Suffix, isDigit))
    return demangle(Key);
  return demangle(Symbol) + "#" + Suffix.str();
}

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

/// Colours: what survives is what an attacker can use.
constexpr const char *ExposedColour = "#cc3311";
constexpr const char *SafeColour = "#4477aa";
/// Survival per variant: absolute and relative, apart from the two above.
constexpr const char *AbsoluteColour = "#ee7733";
constexpr const char *RelativeColour = "#aa3377";

//===----------------------------------------------------------------------===//
// The three plots
//===----------------------------------------------------------------------===//

/// The variant's file name, for legends.
std::string variantName(const AuditResult &R, size_t V) {
  return "v" + utostr(V + 1) + " " +
         shorten(sys::path::filename(R.Variants[V].Binary.Path), 28);
}

Figure survivalPlot(const AuditResult &R) {
  const std::vector<uint64_t> &Hist = R.SurvivalHistogram;
  uint64_t Max = 0, MinNonZero = UINT64_MAX;
  for (uint64_t N : Hist)
    if (N) {
      Max = std::max(Max, N);
      MinNonZero = std::min(MinNonZero, N);
    }
  if (!Max)
    return note("Survival distribution: the base has no gadgets.");
  size_t Variants = Hist.size() - 1;

  PlotSpec S;
  S.Id = "plot-survival";
  S.Title = "Survival distribution";
  S.X.Title = "variants a gadget survives in (k of " + utostr(Variants) + ")";
  S.X.Format = TickFormat::Category;
  for (size_t K = 0; K < Hist.size(); ++K)
    S.X.Categories.push_back(utostr(K));
  S.X.Lo = -0.5;
  S.X.Hi = double(Hist.size()) - 0.5;
  // A log scale when linear bars would hide the small counts; it starts
  // below the smallest count so that every bar has a visible height.
  S.Y.Log = Max >= 100 * MinNonZero;
  if (S.Y.Log) {
    S.Y.Title = "base gadgets (log scale)";
    S.Y.Lo = std::pow(10.0, std::floor(std::log10(double(MinNonZero)))) / 2;
    S.Y.Hi = std::pow(10.0, std::ceil(std::log10(double(Max) * 1.6)));
  } else {
    S.Y.Title = "base gadgets";
    S.Y.Hi = double(Max) * 1.12;
    S.Y.RoundUp = true;
  }
  S.Legend = {{SafeColour, "survives in no variant (k = 0)"},
              {ExposedColour, "survives at its address in k variants"}};
  double Floor = S.Y.Lo;

  SvgPlot P(std::move(S));
  bool RoomForValues = P.xPixels(1) >= 8 * CharWidth;
  for (size_t K = 0; K < Hist.size(); ++K) {
    if (Hist[K])
      P.bar(double(K) - 0.4, double(K) + 0.4, Floor, double(Hist[K]),
            K ? ExposedColour : SafeColour,
            grouped(Hist[K]) + " base gadgets survive in exactly " + utostr(K) +
                " of " + utostr(Variants) + " variants (" +
                percent(share(Hist[K], R.Base.Gadgets)) + ")");
    if (RoomForValues)
      P.label(double(K), std::max(double(Hist[K]), Floor), grouped(Hist[K]), 0,
              -5, "middle");
  }
  return {P.finish(), ""};
}

Figure functionsPlot(const AuditResult &R) {
  constexpr size_t Shown = 30;
  if (R.Functions.empty())
    return note("Gadgets per function: no per-function data, the audit "
                "ran with --no-functions.");
  std::vector<const FunctionResult *> Top;
  for (const FunctionResult &F : R.Functions)
    if (F.Gadgets)
      Top.push_back(&F);
  if (Top.empty())
    return note("Gadgets per function: no function of the base contains a "
                "gadget.");
  auto MoreGadgets = [](const FunctionResult *A, const FunctionResult *B) {
    return A->Gadgets != B->Gadgets ? A->Gadgets > B->Gadgets
                                    : A->Address < B->Address;
  };
  size_t N = std::min(Shown, Top.size());
  std::partial_sort(Top.begin(), Top.begin() + N, Top.end(), MoreGadgets);
  Top.resize(N);

  // Category I is drawn at height I: the first function goes last, on top.
  PlotSpec S;
  S.Id = "plot-functions";
  S.Title = "Gadgets per function (top " + utostr(N) + " of " +
            utostr(R.Functions.size()) + " functions)";
  S.X.Title = "base gadgets in the function";
  S.X.Hi = double(Top.front()->Gadgets);
  S.X.RoundUp = true;
  S.Y.Format = TickFormat::Category;
  S.Y.Lo = -0.5;
  S.Y.Hi = double(N) - 0.5;
  for (size_t I = N; I-- > 0;)
    S.Y.Categories.push_back(shorten(displayName(Top[I]->Name), 48));
  S.Legend = {{ExposedColour, "survive at their address in some variant"},
              {SafeColour, "survive in no variant"}};
  S.PlotHeight = double(N) * 20;
  S.RightPad = 16 + 14 * CharWidth;

  SvgPlot P(std::move(S));
  for (size_t I = 0; I < N; ++I) {
    const FunctionResult &F = *Top[I];
    double Row = double(N - 1 - I);
    std::string Name = displayName(F.Name);
    std::string Where = " (" + hex(F.Address) + ", " + grouped(F.Size) +
                        " bytes, " + percent(F.Moved) +
                        " of its bytes moved on average)";
    if (F.SurvivingSomewhere)
      P.bar(0, double(F.SurvivingSomewhere), Row - 0.35, Row + 0.35,
            ExposedColour,
            Name + ": " + grouped(F.SurvivingSomewhere) + " of " +
                grouped(F.Gadgets) +
                " gadgets survive at their address in some variant" + Where);
    if (F.SurvivingSomewhere < F.Gadgets)
      P.bar(double(F.SurvivingSomewhere), double(F.Gadgets), Row - 0.35,
            Row + 0.35, SafeColour,
            Name + ": " + grouped(F.Gadgets - F.SurvivingSomewhere) + " of " +
                grouped(F.Gadgets) + " gadgets survive in no variant" + Where);
    P.label(double(F.Gadgets), Row,
            grouped(F.SurvivingSomewhere) + " / " + grouped(F.Gadgets), 5, 4,
            "start");
  }
  return {P.finish(), ""};
}

Figure shiftPlot(const AuditResult &R) {
  // Beyond this many points the page grows large and slow to draw; a
  // regular sample of the functions shows the same picture.
  constexpr size_t MaxPoints = 20000;
  size_t Variants = R.Variants.size(), Points = 0;
  double MinAddress = INFINITY, MaxAddress = -INFINITY;
  double MinShift = 0, MaxShift = 0;
  for (const FunctionResult &F : R.Functions)
    for (size_t V = 0; V < std::min(Variants, F.Shift.size()); ++V)
      if (F.Shift[V]) {
        ++Points;
        MinAddress = std::min(MinAddress, double(F.Address));
        MaxAddress = std::max(MaxAddress, double(F.Address));
        MinShift = std::min(MinShift, double(*F.Shift[V]));
        MaxShift = std::max(MaxShift, double(*F.Shift[V]));
      }
  if (!Points)
    return note(R.Functions.empty()
                    ? "Address-shift map: no per-function data, the audit "
                      "ran with --no-functions."
                    : "Address-shift map: no function of the base is found "
                      "by name in any variant.");
  size_t Stride = (Points + MaxPoints - 1) / MaxPoints;

  PlotSpec S;
  S.Id = "plot-shift";
  S.Title = "Address-shift map";
  S.X.Title = "function address in the base";
  S.X.Format = TickFormat::Hex;
  double AddressPad = std::max((MaxAddress - MinAddress) * 0.02, 16.0);
  S.X.Lo = std::max(MinAddress - AddressPad, 0.0);
  S.X.Hi = MaxAddress + AddressPad;
  // The zero line is always shown, with room above and below the points.
  S.Y.Title = "shift in the variant (bytes)";
  double ShiftPad = std::max((MaxShift - MinShift) * 0.06, 1.0);
  S.Y.Lo = MinShift - ShiftPad;
  S.Y.Hi = MaxShift + ShiftPad;
  for (size_t V = 0; V < Variants; ++V)
    S.Legend.push_back({seriesColour(V), variantName(R, V)});
  S.PlotHeight = 360;

  SvgPlot P(std::move(S));
  P.rule(0);
  for (size_t V = 0; V < Variants; ++V)
    for (size_t I = 0; I < R.Functions.size(); I += Stride) {
      const FunctionResult &F = R.Functions[I];
      if (V < F.Shift.size() && F.Shift[V])
        P.point(double(F.Address), double(*F.Shift[V]), seriesColour(V),
                displayName(F.Name) + " (" + hex(F.Address) + ") moved " +
                    groupedSigned(*F.Shift[V]) + " bytes in " +
                    variantName(R, V));
    }
  Figure Out{P.finish(), ""};
  if (Stride > 1)
    Out.Note = "One function in " + utostr(Stride) + " is shown, of " +
               grouped(R.Functions.size()) + ".";
  return Out;
}

Figure variantSurvivalPlot(const AuditResult &R) {
  size_t N = R.Variants.size();
  double Max = 0;
  for (size_t V = 0; V < N; ++V)
    Max = std::max({Max, R.survival(V) * 100, R.relativeSurvival(V) * 100});
  PlotSpec S;
  S.Id = "plot-relative";
  S.Title = "Survival per variant: absolute and relative";
  S.X.Title = "variant";
  S.X.Format = TickFormat::Category;
  for (size_t V = 0; V < N; ++V)
    S.X.Categories.push_back("v" + utostr(V + 1));
  S.X.Lo = -0.5;
  S.X.Hi = double(N) - 0.5;
  S.Y.Title = "share of the base's gadgets (%)";
  S.Y.Hi = Max > 0 ? std::min(100.0, Max * 1.12) : 1.0;
  S.Y.RoundUp = true;
  S.Y.MinStep = 0.01;
  S.Legend = {{AbsoluteColour, "absolute: same bytes at the same address"},
              {RelativeColour, "relative: same bytes at the same offset in "
                               "the function of the same name"}};
  SvgPlot P(std::move(S));
  for (size_t V = 0; V < N; ++V) {
    double X = double(V);
    std::string Name = variantName(R, V);
    P.bar(X - 0.4, X, 0, R.survival(V) * 100, AbsoluteColour,
          Name + ": " + grouped(R.Variants[V].Surviving) + " of " +
              grouped(R.Base.Gadgets) + " base gadgets survive at their "
              "address (" + percent(R.survival(V)) + ")");
    P.bar(X, X + 0.4, 0, R.relativeSurvival(V) * 100, RelativeColour,
          Name + ": " + grouped(R.Variants[V].RelativeSurviving) + " of " +
              grouped(R.Relative.InFunctions) + " base gadgets in functions "
              "survive at their offset in the function (" +
              percent(R.relativeSurvival(V)) + ")");
  }
  return {P.finish(), ""};
}

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

void writeHeader(const AuditResult &R, raw_ostream &OS) {
  const BinarySummary &B = R.Base;
  OS << "<header>\n<h1>divtool audit</h1>\n<p class=\"lead\">Which of the "
        "base's code-reuse gadgets are still at the same address, with the "
        "same bytes, in each variant: those an attacker who studied the base "
        "can use blindly.</p>\n<dl>\n<dt>Base</dt><dd class=\"path\">"
     << escape(B.Path) << "</dd>\n<dt>Code</dt><dd>" << grouped(B.CodeBytes)
     << " bytes</dd>\n<dt>Gadgets</dt><dd>" << grouped(B.Gadgets)
     << " start addresses, " << grouped(B.UniqueGadgets)
     << " distinct byte sequences</dd>\n<dt>By kind</dt><dd>";
  for (unsigned K = 0; K < NumGadgetKinds; ++K)
    OS << (K ? " · " : "") << gadgetKindName(GadgetKind(K)) << " "
       << grouped(B.ByKind[K]);
  OS << "</dd>\n<dt>Gadget options</dt><dd>at most "
     << R.Gadgets.MaxInstructions << " instructions, the ending included; ";
  if (R.Gadgets.Reach)
    OS << "starts at most " << R.Gadgets.Reach << " bytes before the ending";
  else
    OS << "starts as far back as the instructions reach";
  OS << "</dd>\n<dt>Variants</dt><dd>" << R.Variants.size() << "</dd>\n";
  OS << "<dt>In functions</dt><dd>" << grouped(R.Relative.InFunctions)
     << " gadgets, counted for relative survival ("
     << (R.Relative.Symbols == "none" ? "no function symbols"
                                      : "functions from ." + R.Relative.Symbols)
     << "); not counted: " << grouped(R.Relative.OutsideFunctions)
     << " outside any function, " << grouped(R.Relative.InAmbiguousFunctions)
     << " in functions whose name is defined more than once</dd>\n";
  if (R.ChainRequested) {
    OS << "<dt>ROP chain</dt><dd>";
    if (R.Chain.empty())
      OS << "ROPgadget built no complete chain for the base";
    else
      OS << R.Chain.size() << " gadgets; intact in <span class=\""
         << (R.chainsSurviving() ? "bad" : "good") << "\">"
         << R.chainsSurviving() << " of " << R.Variants.size()
         << " variants</span>";
    OS << "</dd>\n";
  }
  OS << "</dl>\n</header>\n";
}

void writeVariantTable(const AuditResult &R, raw_ostream &OS) {
  bool Chain = R.ChainRequested && !R.Chain.empty();
  OS << "<h2>Variants</h2>\n<table id=\"variants\">\n<thead><tr>"
        "<th class=\"num\">#</th><th>Variant</th>"
        "<th class=\"num\">Gadgets</th><th class=\"num\">Surviving</th>"
        "<th class=\"num\">Survival</th><th class=\"num\">Relative "
        "survival</th><th class=\"num\">Present anywhere</th>";
  if (Chain)
    OS << "<th class=\"num\">Chain intact</th>";
  OS << "</tr></thead>\n<tbody>\n";
  for (size_t V = 0; V < R.Variants.size(); ++V) {
    const VariantResult &Var = R.Variants[V];
    OS << "<tr><td class=\"num\">" << V + 1 << "</td><td class=\"path\">"
       << escape(Var.Binary.Path) << "</td><td class=\"num\">"
       << grouped(Var.Binary.Gadgets) << "</td><td class=\"num\">"
       << grouped(Var.Surviving) << "</td><td class=\"num\">"
       << percent(R.survival(V)) << "</td><td class=\"num\">"
       << percent(R.relativeSurvival(V)) << "</td><td class=\"num\">"
       << percent(share(Var.PresentAnywhere, R.Base.UniqueGadgets)) << "</td>";
    if (Chain)
      OS << "<td class=\"num "
         << (Var.ChainIntact == R.Chain.size() ? "bad" : "good") << "\">"
         << Var.ChainIntact << "/" << R.Chain.size() << "</td>";
    OS << "</tr>\n";
  }
  size_t N = R.Variants.size();
  OS << "</tbody>\n</table>\n<p class=\"note\">Surviving: base gadgets with "
        "the same bytes at the same address in the variant; survival: their "
        "share of the base's "
     << grouped(R.Base.Gadgets)
     << ". Relative survival: the share of the base's "
     << grouped(R.Relative.InFunctions)
     << " gadgets in functions with the same bytes at the same offset from "
        "the start of the function of the same name, what an attacker keeps "
        "after leaking one code pointer per function. Present anywhere: the "
        "share of the base's distinct gadget byte "
        "sequences that are a gadget somewhere in the variant, usable only "
        "by an attacker who can read the variant's code first.";
  if (Chain)
    OS << " Chain intact: gadgets of the base's ROP chain still at their "
          "address.";
  OS << "</p>\n<p>Surviving in at least one variant: <b>"
     << grouped(R.survivingInAtLeast(1)) << "</b> ("
     << percent(share(R.survivingInAtLeast(1), R.Base.Gadgets)) << "); in all "
     << N << ": <b>" << grouped(R.survivingInAtLeast(N)) << "</b> ("
     << percent(share(R.survivingInAtLeast(N), R.Base.Gadgets))
     << ").</p>\n<p>Surviving relatively in at least one variant: <b>"
     << grouped(R.relativeSurvivingInAtLeast(1)) << "</b> ("
     << percent(share(R.relativeSurvivingInAtLeast(1), R.Relative.InFunctions))
     << "); in all " << N << ": <b>"
     << grouped(R.relativeSurvivingInAtLeast(N)) << "</b> ("
     << percent(share(R.relativeSurvivingInAtLeast(N), R.Relative.InFunctions))
     << ").</p>\n";
}

void writePlots(const AuditResult &R, raw_ostream &OS) {
  OS << "<h2>Plots</h2>\n";
  writeFigure(survivalPlot(R),
              "How many of the base's gadgets survive, same bytes at the "
              "same address, in exactly k of the variants. k = 0 is what "
              "diversity aims for; a gadget at k = n works against every "
              "variant. Hover over a bar for its share.",
              OS);
  writeFigure(functionsPlot(R),
              "The functions of the base with the most gadgets, each split "
              "into gadgets that survive at their address in at least one "
              "variant and those that survive in none. Hover for the full "
              "name, the address and the share of the function's bytes "
              "that moved.",
              OS);
  writeFigure(shiftPlot(R),
              "One point per function and variant: the function's address "
              "in the base, and how far it moved in the variant. On the "
              "dashed line a function kept its address; its gadgets survive "
              "where its bytes are also unchanged.",
              OS);
  writeFigure(variantSurvivalPlot(R),
              "Per variant, the share of the base's gadgets that survive at "
              "their address (absolute) and the share of those inside "
              "functions that survive at their offset in the function of the "
              "same name (relative). Shuffling functions lowers only the "
              "first; changes inside functions lower both.",
              OS);
}

/// The survival matrices as tables, each cell shaded by its share.
void writeMatrix(const SurvivalMatrix &M, raw_ostream &OS) {
  if (M.Binaries.empty())
    return;
  OS << "<h2>Survival matrix</h2>\n<p class=\"note\">Row: the binary an "
        "attacker studied; column: the binary attacked. Absolute: the row's "
        "gadgets at the same address with the same bytes in the column's "
        "binary; relative: the row's gadgets in functions at the same "
        "offset in the column's function of the same name.</p>\n";
  for (bool Relative : {false, true}) {
    OS << "<table class=\"compact matrix\" id=\""
       << (Relative ? "matrix-relative" : "matrix-absolute") << "\">\n<caption>"
       << (Relative ? "Relative" : "Absolute")
       << " survival</caption>\n<thead><tr><th></th>";
    for (size_t B = 0; B < M.Binaries.size(); ++B)
      OS << "<th class=\"num\" title=\"" << escape(M.Binaries[B]) << "\">#" << B
         << "</th>";
    OS << "</tr></thead>\n<tbody>\n";
    for (size_t A = 0; A < M.Binaries.size(); ++A) {
      OS << "<tr><th class=\"num\" title=\"" << escape(M.Binaries[A]) << "\">#"
         << A << "</th>";
      for (size_t B = 0; B < M.Binaries.size(); ++B) {
        double Share =
            Relative ? M.Cells[A][B].Relative : M.Cells[A][B].Absolute;
        if (A == B)
          OS << "<td class=\"num\">&ndash;</td>";
        else
          OS << "<td class=\"num\" style=\"background: rgba(220, 50, 47, "
             << format("%.2f", std::min(1.0, Share)) << ")\">" << percent(Share)
             << "</td>";
      }
      OS << "</tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  OS << "<ol start=\"0\" class=\"note\">\n";
  for (size_t B = 0; B < M.Binaries.size(); ++B)
    OS << "<li><code>" << escape(M.Binaries[B]) << "</code>"
       << (B ? "" : " (base)") << "</li>\n";
  OS << "</ol>\n";
}

void writeChain(const AuditResult &R, raw_ostream &OS) {
  if (!R.ChainRequested || R.Chain.empty())
    return;
  OS << "<h2>ROP chain</h2>\n<p class=\"note\">The gadgets ROPgadget chained "
        "for the base. A variant breaks the chain when any of these "
        "addresses holds other bytes.</p>\n<table id=\"chain\" "
        "class=\"compact\">\n<thead><tr><th>Address</th><th>Gadget</th></tr>"
        "</thead>\n<tbody>\n";
  for (const ChainGadget &G : R.Chain)
    OS << "<tr><td><code>" << hex(G.Address) << "</code></td><td><code>"
       << escape(G.Text) << "</code></td></tr>\n";
  OS << "</tbody>\n</table>\n";
}

} // namespace

std::string auditHtml(const AuditResult &R) {
  std::string Page;
  raw_string_ostream OS(Page);
  beginPage("divtool audit: " + sys::path::filename(R.Base.Path).str(), OS);
  writeHeader(R, OS);
  writeVariantTable(R, OS);
  writePlots(R, OS);
  writeMatrix(R.Matrix, OS);
  writeChain(R, OS);
  endPage(OS);
  return Page;
}

} // namespace divcc
