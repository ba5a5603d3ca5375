//===- HtmlReport.cpp - divtool audit as a self-contained HTML page -------===//
//
// The page reports everything an audit found: the base (code size, gadgets
// by kind, the gadget options), one table row per variant (its gadgets, the
// share of the base's gadgets that survive at their address, the share
// present anywhere, whether the ROP chain is intact), the chain itself, and
// three plots:
//   - survival distribution: how many base gadgets survive in exactly k of
//     the n variants (k = 0 is what diversity is for, k = n is what an
//     attacker can use against every variant);
//   - gadgets per function: the 30 functions with the most gadgets, each bar
//     split into gadgets that survive in some variant and those that do not;
//   - address-shift map: how far each function moved in each variant, by its
//     address in the base.
//
// The plots are SVG written here, inline, styled by the page's own CSS,
// with no script and no font, image or style sheet to fetch: the report is
// one file that can be mailed, attached to a ticket or archived and reads
// the same anywhere, offline, years later. All three plots are drawn by one
// small helper (SvgPlot: frame, axes, ticks, bars, points, legend).
//
// Numbers are written from integers, never through printf's %f, so that no
// locale changes a decimal point. Text that comes from the binaries (paths,
// symbol names, ROPgadget's output) is HTML-escaped where it is written.
//
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Text and numbers
//===----------------------------------------------------------------------===//

/// U+202F NARROW NO-BREAK SPACE, the digit-group separator of ISO 80000-1:
/// read alike in every language, never taken for a decimal point.
constexpr const char *GroupSeparator = "\xE2\x80\xAF";

/// \p S with the characters that mean something in HTML replaced by
/// references, and control characters (not allowed in HTML text) by U+FFFD.
std::string escape(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20 && C != '\t' && C != '\n')
        Out += "\xEF\xBF\xBD";
      else
        Out += C;
    }
  }
  return Out;
}

/// The number of characters (UTF-8 code points) in \p S.
size_t characters(StringRef S) {
  return count_if(S, [](char C) { return (C & 0xC0) != 0x80; });
}

/// \p S cut to at most \p Max characters, ending in an ellipsis if cut.
std::string shorten(StringRef S, size_t Max) {
  if (characters(S) <= Max)
    return S.str();
  size_t Kept = 0, End = 0;
  for (; End < S.size(); ++End)
    if ((S[End] & 0xC0) != 0x80 && Kept++ == Max - 1)
      break;
  return S.take_front(End).str() + "\xE2\x80\xA6";
}

/// A symbol name as people read it: demangled, keeping the "#2" divtool
/// appends to local symbols that share a name.
std::string displayName(StringRef Key) {
  auto [Symbol, Suffix] = Key.rsplit('#');
  if (Suffix.empty() || !all_of(Suffix, isDigit))
    return demangle(Key);
  return demangle(Symbol) + "#" + Suffix.str();
}

/// \p V rounded to \p Decimals digits after a '.', whatever the locale.
std::string fixed(double V, unsigned Decimals) {
  if (!std::isfinite(V))
    return "n/a";
  uint64_t Scale = 1;
  for (unsigned I = 0; I < Decimals; ++I)
    Scale *= 10;
  double Magnitude = std::min(std::round(std::fabs(V) * double(Scale)), 1.8e19);
  uint64_t N = uint64_t(Magnitude);
  std::string Out = V < 0 && N ? "-" : "";
  Out += utostr(N / Scale);
  if (Decimals) {
    std::string Fraction = utostr(N % Scale);
    Out += '.';
    Out.append(Decimals - Fraction.size(), '0');
    Out += Fraction;
  }
  return Out;
}

/// \p V with its digits in groups of three: 1 234 567.
std::string grouped(uint64_t V) {
  std::string Digits = utostr(V), Out;
  for (size_t I = 0; I < Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += GroupSeparator;
    Out += Digits[I];
  }
  return Out;
}

std::string groupedSigned(int64_t V) {
  return V < 0 ? "-" + grouped(uint64_t(0) - uint64_t(V))
               : grouped(uint64_t(V));
}

std::string percent(double Share) { return fixed(Share * 100, 2) + "%"; }

double share(uint64_t Part, uint64_t Whole) {
  return Whole ? double(Part) / double(Whole) : 0.0;
}

/// A tick label: short, exact for the round values ticks fall on (1.5k, 2M).
std::string compact(double V) {
  auto Trimmed = [](std::string S) {
    if (StringRef(S).ends_with(".0"))
      S.resize(S.size() - 2);
    return S;
  };
  double Magnitude = std::fabs(V);
  if (Magnitude >= 1e9)
    return Trimmed(fixed(V / 1e9, 1)) + "G";
  if (Magnitude >= 1e6)
    return Trimmed(fixed(V / 1e6, 1)) + "M";
  if (Magnitude >= 1e4)
    return Trimmed(fixed(V / 1e3, 1)) + "k";
  return Trimmed(fixed(V, 1));
}

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

//===----------------------------------------------------------------------===//
// SVG plots
//===----------------------------------------------------------------------===//

/// Colours: what survives is what an attacker can use.
constexpr const char *ExposedColour = "#cc3311";
constexpr const char *SafeColour = "#4477aa";
/// One per variant (Tableau 10), reused in turn beyond ten.
constexpr const char *VariantColours[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

/// Tick labels are set in an 11px monospace font; its advance, for layout.
constexpr double CharWidth = 6.7;

enum class TickFormat { Number, Hex, Category };

/// One axis of a plot: the range of data values it shows, mapped linearly
/// or logarithmically onto its length.
struct Axis {
  std::string Title; // may be empty
  double Lo = 0, Hi = 1;
  bool Log = false;
  TickFormat Format = TickFormat::Number;
  /// Raise Hi to the next tick, so that the axis ends on a labelled value.
  bool RoundUp = false;
  /// For TickFormat::Category: the label of the value I, placed at I.
  std::vector<std::string> Categories;
};

struct Tick {
  double Value;
  std::string Label;
};

struct LegendEntry {
  std::string Colour, Label;
};

struct PlotSpec {
  std::string Id, Title;
  Axis X, Y;
  std::vector<LegendEntry> Legend;
  /// The SVG's width and the height of the plotting area; the margins are
  /// fitted around it to the tick labels, axis titles and legend.
  double Width = 960, PlotHeight = 320;
  /// Room to the right of the plotting area, for labels past bars' ends.
  double RightPad = 16;
};

std::string tickLabel(const Axis &A, double V) {
  switch (A.Format) {
  case TickFormat::Number:
    return compact(V);
  case TickFormat::Hex:
    return hex(uint64_t(std::max(V, 0.0)));
  case TickFormat::Category:
    return A.Categories[size_t(V)];
  }
  return "";
}

/// The width of the widest label the axis can need, in pixels.
double widestLabel(const Axis &A) {
  size_t Widest = 0;
  if (A.Format == TickFormat::Category)
    for (const std::string &C : A.Categories)
      Widest = std::max(Widest, characters(C));
  else
    Widest = std::max(characters(tickLabel(A, A.Lo)),
                      characters(tickLabel(A, A.Hi)));
  return double(Widest) * CharWidth;
}

/// A round step near \p Span / \p Count: 1, 2 or 5 times a power of ten, or
/// a power of two for addresses; never below 1, as all data here are whole.
double niceStep(double Span, double Count, bool PowerOfTwo) {
  double Raw = std::max(Span / std::max(Count, 1.0), 1.0);
  if (PowerOfTwo)
    return std::exp2(std::ceil(std::log2(Raw)));
  double Magnitude = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0})
    if (M * Magnitude >= Raw * (1 - 1e-9))
      return M * Magnitude;
  return 10 * Magnitude;
}

/// Ticks along \p A, at least \p Spacing pixels apart on \p Length pixels.
std::vector<Tick> ticks(const Axis &A, double Length, double Spacing) {
  std::vector<Tick> Out;
  double Count = std::max(Length / Spacing, 1.0);
  if (A.Format == TickFormat::Category) {
    size_t N = A.Categories.size();
    size_t Step = std::max<size_t>(1, size_t(std::ceil(double(N) / Count)));
    for (size_t I = 0; I < N; I += Step)
      Out.push_back({double(I), A.Categories[I]});
    return Out;
  }
  if (A.Log) {
    int First = int(std::ceil(std::log10(A.Lo) - 1e-9));
    int Last = int(std::floor(std::log10(A.Hi) + 1e-9));
    int Step = std::max(1, int(std::ceil((Last - First + 1) / Count)));
    for (int P = First; P <= Last; P += Step)
      Out.push_back({std::pow(10.0, P), tickLabel(A, std::pow(10.0, P))});
    return Out;
  }
  double Step = niceStep(A.Hi - A.Lo, Count, A.Format == TickFormat::Hex);
  double First = std::ceil(A.Lo / Step - 1e-9) * Step;
  for (unsigned I = 0; First + I * Step <= A.Hi + Step * 1e-9; ++I)
    Out.push_back({First + I * Step, tickLabel(A, First + I * Step)});
  return Out;
}

/// One plot as an <svg> element: a frame with a title, legend, grid, ticks
/// and axis titles, then the data marks (bars, points, labels) the caller
/// adds in data coordinates. Data marks carry class "mark" and a <title>
/// that the browser shows on hover.
class SvgPlot {
public:
  explicit SvgPlot(PlotSpec Spec);
  SvgPlot(const SvgPlot &) = delete;
  SvgPlot &operator=(const SvgPlot &) = delete;

  /// A rectangle over [X0, X1] x [Y0, Y1].
  void bar(double X0, double X1, double Y0, double Y1, StringRef Colour,
           StringRef Tip);
  void point(double X, double Y, StringRef Colour, StringRef Tip);
  /// \p Text at (X, Y), moved by (DX, DY) pixels; \p Anchor is SVG's
  /// text-anchor: start, middle or end.
  void label(double X, double Y, StringRef Text, double DX, double DY,
             StringRef Anchor);
  /// A dashed horizontal line across the plot at \p Y.
  void rule(double Y);
  /// The pixels that \p Span data units take along the x axis.
  double xPixels(double Span) const {
    return std::fabs(x(S.X.Lo + Span) - x(S.X.Lo));
  }
  /// The whole <svg> element; the plot is done with.
  std::string finish();

private:
  /// The ticks of \p A, after raising its end if it rounds up.
  static std::vector<Tick> axisTicks(Axis &A, double Length, double Spacing);
  static double position(const Axis &A, double V, double From, double To);
  double x(double V) const { return position(S.X, V, Left, Left + PlotW); }
  double y(double V) const { return position(S.Y, V, Top + PlotH, Top); }
  void layoutLegend();
  void frame();
  /// A line and a text, in pixels.
  void line(double X1, double Y1, double X2, double Y2, StringRef Class);
  void text(double X, double Y, StringRef Text, StringRef Anchor,
            StringRef Class, StringRef Transform = "");

  PlotSpec S;
  std::vector<Tick> XTicks, YTicks;
  /// Where each legend entry goes, relative to the plotting area's left.
  std::vector<std::pair<double, unsigned>> LegendAt; // x, row
  unsigned LegendRows = 0;
  double Left = 0, Top = 0, PlotW = 0, PlotH = 0, Height = 0;
  std::string Out;
  raw_string_ostream OS{Out};
};

constexpr double TitleBand = 34, LegendRowHeight = 18, TickLength = 5;

SvgPlot::SvgPlot(PlotSpec Spec) : S(std::move(Spec)) {
  PlotH = S.PlotHeight;
  YTicks = axisTicks(S.Y, PlotH, S.Y.Format == TickFormat::Category ? 13 : 36);
  double YLabels = 0;
  for (const Tick &T : YTicks)
    YLabels = std::max(YLabels, double(characters(T.Label)) * CharWidth);
  Left = 12 + (S.Y.Title.empty() ? 0 : 22) + YLabels + TickLength + 6;
  PlotW = S.Width - Left - S.RightPad - 12;
  XTicks = axisTicks(S.X, PlotW, widestLabel(S.X) + 24);
  layoutLegend();
  Top = TitleBand + LegendRows * LegendRowHeight + 10;
  Height = Top + PlotH + TickLength + 18 + (S.X.Title.empty() ? 0 : 22) + 8;
  frame();
}

std::vector<Tick> SvgPlot::axisTicks(Axis &A, double Length, double Spacing) {
  std::vector<Tick> Ticks = ticks(A, Length, Spacing);
  if (A.RoundUp && !A.Log && Ticks.size() >= 2 && Ticks.back().Value < A.Hi) {
    A.Hi = Ticks.back().Value + (Ticks[1].Value - Ticks[0].Value);
    Ticks = ticks(A, Length, Spacing);
  }
  return Ticks;
}

double SvgPlot::position(const Axis &A, double V, double From, double To) {
  double T;
  if (A.Log) {
    double Lo = std::log10(A.Lo), Hi = std::log10(A.Hi);
    T = (std::log10(std::max(V, A.Lo)) - Lo) / (Hi - Lo);
  } else {
    T = (V - A.Lo) / (A.Hi - A.Lo);
  }
  return From + T * (To - From);
}

void SvgPlot::layoutLegend() {
  double At = 0;
  unsigned Row = 0;
  for (const LegendEntry &E : S.Legend) {
    double W = 18 + double(characters(E.Label)) * 7.2 + 18;
    if (At > 0 && Left + At + W > S.Width - 12) {
      At = 0;
      ++Row;
    }
    LegendAt.push_back({At, Row});
    At += W;
  }
  LegendRows = S.Legend.empty() ? 0 : Row + 1;
}

void SvgPlot::line(double X1, double Y1, double X2, double Y2,
                   StringRef Class) {
  OS << "<line";
  if (!Class.empty())
    OS << " class=\"" << Class << "\"";
  OS << " x1=\"" << fixed(X1, 1) << "\" y1=\"" << fixed(Y1, 1) << "\" x2=\""
     << fixed(X2, 1) << "\" y2=\"" << fixed(Y2, 1) << "\"/>\n";
}

void SvgPlot::text(double X, double Y, StringRef Text, StringRef Anchor,
                   StringRef Class, StringRef Transform) {
  OS << "<text class=\"" << Class << "\" text-anchor=\"" << Anchor << "\"";
  if (Transform.empty())
    OS << " x=\"" << fixed(X, 1) << "\" y=\"" << fixed(Y, 1) << "\"";
  else
    OS << " transform=\"translate(" << fixed(X, 1) << " " << fixed(Y, 1) << ") "
       << Transform << "\"";
  OS << ">" << escape(Text) << "</text>\n";
}

void SvgPlot::frame() {
  std::string W = fixed(S.Width, 0), H = fixed(Height, 0);
  OS << "<svg id=\"" << S.Id << "\" role=\"img\" aria-labelledby=\"" << S.Id
     << "-title\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
     << "\">\n<title id=\"" << S.Id << "-title\">" << escape(S.Title)
     << "</title>\n<rect class=\"bg\" width=\"" << W << "\" height=\"" << H
     << "\"/>\n";
  text(Left, 22, S.Title, "start", "plot-title");

  for (size_t I = 0; I < S.Legend.size(); ++I) {
    double LX = Left + LegendAt[I].first;
    double LY = TitleBand + LegendAt[I].second * LegendRowHeight;
    OS << "<rect class=\"swatch\" x=\"" << fixed(LX, 1) << "\" y=\""
       << fixed(LY, 1) << "\" width=\"12\" height=\"12\" fill=\""
       << S.Legend[I].Colour << "\"/>\n";
    text(LX + 18, LY + 10.5, S.Legend[I].Label, "start", "legend");
  }

  // Grid lines behind the data, at the numeric ticks.
  double Right = Left + PlotW, Bottom = Top + PlotH;
  if (S.X.Format != TickFormat::Category)
    for (const Tick &T : XTicks)
      line(x(T.Value), Top, x(T.Value), Bottom, "grid");
  if (S.Y.Format != TickFormat::Category)
    for (const Tick &T : YTicks)
      line(Left, y(T.Value), Right, y(T.Value), "grid");

  for (const Tick &T : XTicks) {
    line(x(T.Value), Bottom, x(T.Value), Bottom + TickLength, "tick");
    text(x(T.Value), Bottom + TickLength + 13, T.Label, "middle", "tick");
  }
  for (const Tick &T : YTicks) {
    line(Left - TickLength, y(T.Value), Left, y(T.Value), "tick");
    text(Left - TickLength - 3, y(T.Value) + 4, T.Label, "end", "tick");
  }

  if (!S.X.Title.empty())
    text(Left + PlotW / 2, Bottom + TickLength + 36, S.X.Title, "middle",
         "axis-title");
  if (!S.Y.Title.empty())
    text(18, Top + PlotH / 2, S.Y.Title, "middle", "axis-title", "rotate(-90)");
}

void SvgPlot::bar(double X0, double X1, double Y0, double Y1, StringRef Colour,
                  StringRef Tip) {
  double PX0 = x(X0), PX1 = x(X1), PY0 = y(Y0), PY1 = y(Y1);
  OS << "<rect class=\"mark\" x=\"" << fixed(std::min(PX0, PX1), 1) << "\" y=\""
     << fixed(std::min(PY0, PY1), 1) << "\" width=\""
     << fixed(std::fabs(PX1 - PX0), 1) << "\" height=\""
     << fixed(std::fabs(PY1 - PY0), 1) << "\" fill=\"" << Colour << "\"><title>"
     << escape(Tip) << "</title></rect>\n";
}

void SvgPlot::point(double X, double Y, StringRef Colour, StringRef Tip) {
  OS << "<circle class=\"mark\" cx=\"" << fixed(x(X), 1) << "\" cy=\""
     << fixed(y(Y), 1) << "\" r=\"3.5\" fill=\"" << Colour << "\"><title>"
     << escape(Tip) << "</title></circle>\n";
}

void SvgPlot::label(double X, double Y, StringRef Text, double DX, double DY,
                    StringRef Anchor) {
  text(x(X) + DX, y(Y) + DY, Text, Anchor, "value");
}

void SvgPlot::rule(double Y) { line(Left, y(Y), Left + PlotW, y(Y), "rule"); }

std::string SvgPlot::finish() {
  // The axis lines go over the data, so that bars do not hide them.
  OS << "<path class=\"axis\" d=\"M" << fixed(Left, 1) << " " << fixed(Top, 1)
     << "V" << fixed(Top + PlotH, 1) << "H" << fixed(Left + PlotW, 1)
     << "\"/>\n</svg>\n";
  return std::move(Out);
}

//===----------------------------------------------------------------------===//
// The three plots
//===----------------------------------------------------------------------===//

/// A plot, or a note that says why there is none, or both.
struct Figure {
  std::string Svg;
  std::string Note;
};

Figure note(StringRef Text) { return {"", Text.str()}; }

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
    S.Legend.push_back(
        {VariantColours[V % std::size(VariantColours)], variantName(R, V)});
  S.PlotHeight = 360;

  SvgPlot P(std::move(S));
  P.rule(0);
  for (size_t V = 0; V < Variants; ++V)
    for (size_t I = 0; I < R.Functions.size(); I += Stride) {
      const FunctionResult &F = R.Functions[I];
      if (V < F.Shift.size() && F.Shift[V])
        P.point(double(F.Address), double(*F.Shift[V]),
                VariantColours[V % std::size(VariantColours)],
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

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

constexpr const char *Css = R"(
body { margin: 0; background: #f5f6f8; color: #1d1f23;
  font: 14px/1.45 system-ui, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1000px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 17px; margin: 28px 0 8px; }
p { margin: 6px 0; }
.lead, .note, figcaption { color: #555b66; }
code, .path { font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  font-size: 12.5px; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 18px;
  margin: 14px 0; }
dt { color: #555b66; }
dd { margin: 0; }
table { border-collapse: collapse; width: 100%; background: #fff;
  border: 1px solid #dfe2e6; }
table.compact { width: auto; min-width: 50%; }
th, td { padding: 5px 8px; border-bottom: 1px solid #e8eaed;
  text-align: left; vertical-align: top; }
th { background: #eef0f3; font-weight: 600; }
.num { text-align: right; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.bad { color: #b3261e; font-weight: 600; }
.good { color: #1e7b34; }
figure { margin: 14px 0; padding: 8px; background: #fff;
  border: 1px solid #dfe2e6; border-radius: 6px; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { font-size: 13px; margin: 4px 8px 2px; }
figure .note { margin: 4px 8px; }
svg .bg { fill: #fff; }
svg text { font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  font-size: 11px; fill: #333; }
svg .plot-title { font: 600 15px system-ui, "DejaVu Sans", sans-serif; }
svg .legend, svg .axis-title { font: 12px system-ui, "DejaVu Sans",
  sans-serif; }
svg line.grid { stroke: #e6e8eb; }
svg line.tick, svg .axis { stroke: #555; fill: none; }
svg .rule { stroke: #888; stroke-dasharray: 4 3; }
svg circle.mark { fill-opacity: 0.8; stroke: #fff; stroke-width: 0.6; }
svg .mark:hover { stroke: #000; stroke-width: 1.5; }
)";

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
        "<th class=\"num\">Survival</th><th class=\"num\">Present "
        "anywhere</th>";
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
     << ". Present anywhere: the share of the base's distinct gadget byte "
        "sequences that are a gadget somewhere in the variant, usable only "
        "by an attacker who can read the variant's code first.";
  if (Chain)
    OS << " Chain intact: gadgets of the base's ROP chain still at their "
          "address.";
  OS << "</p>\n<p>Surviving in at least one variant: <b>"
     << grouped(R.survivingInAtLeast(1)) << "</b> ("
     << percent(share(R.survivingInAtLeast(1), R.Base.Gadgets)) << "); in all "
     << N << ": <b>" << grouped(R.survivingInAtLeast(N)) << "</b> ("
     << percent(share(R.survivingInAtLeast(N), R.Base.Gadgets)) << ").</p>\n";
}

/// \p F in a frame, with \p Caption saying how to read the plot if there
/// is one.
void writeFigure(const Figure &F, StringRef Caption, raw_ostream &OS) {
  OS << "<figure>\n" << F.Svg;
  if (!F.Note.empty())
    OS << "<p class=\"note\">" << escape(F.Note) << "</p>\n";
  if (!F.Svg.empty())
    OS << "<figcaption>" << Caption << "</figcaption>\n";
  OS << "</figure>\n";
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
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<title>divtool "
        "audit: "
     << escape(sys::path::filename(R.Base.Path)) << "</title>\n<style>" << Css
     << "</style>\n</head>\n<body>\n<main>\n";
  writeHeader(R, OS);
  writeVariantTable(R, OS);
  writePlots(R, OS);
  writeChain(R, OS);
  OS << "</main>\n</body>\n</html>\n";
  return Page;
}

} // namespace divcc
