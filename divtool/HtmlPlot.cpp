//===- HtmlPlot.cpp - Self-contained HTML pages with inline SVG plots -----===//
//
// See HtmlPlot.h. The layout of a plot: a title band, the legend in rows
// under it, then the plotting area, its margins fitted to the widest tick
// label and the axis titles. Ticks fall on round values (1, 2 or 5 times a
// power of ten, powers of two for addresses, powers of ten on a log scale).
//
//===----------------------------------------------------------------------===//

#include "divtool/HtmlPlot.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace divcc {

//===----------------------------------------------------------------------===//
// Text and numbers
//===----------------------------------------------------------------------===//

/// U+202F NARROW NO-BREAK SPACE, the digit-group separator of ISO 80000-1:
/// read alike in every language, never taken for a decimal point.
static constexpr const char *GroupSeparator = "\xE2\x80\xAF";

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

const char *const SeriesColours[10] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

namespace {

/// The decimals a tick label needs when ticks are \p Step apart.
unsigned decimalsFor(double Step) {
  if (Step >= 1)
    return 0;
  return unsigned(std::min(std::ceil(-std::log10(Step) - 1e-9), 9.0));
}

/// The label of the tick at \p V, ticks being \p Step apart.
std::string tickLabel(const Axis &A, double V, double Step) {
  switch (A.Format) {
  case TickFormat::Number:
    return Step < 1 ? fixed(V, decimalsFor(Step)) : compact(V);
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
    Widest = std::max(characters(tickLabel(A, A.Lo, A.MinStep)),
                      characters(tickLabel(A, A.Hi, A.MinStep)));
  return double(Widest) * CharWidth;
}

/// A round step near \p Span / \p Count: 1, 2 or 5 times a power of ten, or
/// a power of two for addresses; never below \p MinStep.
double niceStep(double Span, double Count, bool PowerOfTwo, double MinStep) {
  double Raw = std::max(Span / std::max(Count, 1.0), MinStep);
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
      Out.push_back({std::pow(10.0, P), tickLabel(A, std::pow(10.0, P), 1)});
    return Out;
  }
  double Step = niceStep(A.Hi - A.Lo, Count, A.Format == TickFormat::Hex,
                         std::max(A.MinStep, 1e-9));
  double First = std::ceil(A.Lo / Step - 1e-9) * Step;
  for (unsigned I = 0; First + I * Step <= A.Hi + Step * 1e-9; ++I)
    Out.push_back({First + I * Step, tickLabel(A, First + I * Step, Step)});
  return Out;
}

} // namespace

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

void SvgPlot::segment(double X0, double Y0, double X1, double Y1,
                      StringRef Colour, double Width, StringRef Tip) {
  OS << "<line class=\"mark\" x1=\"" << fixed(x(X0), 1) << "\" y1=\""
     << fixed(y(Y0), 1) << "\" x2=\"" << fixed(x(X1), 1) << "\" y2=\""
     << fixed(y(Y1), 1) << "\" stroke=\"" << Colour << "\" stroke-width=\""
     << fixed(Width, 1) << "\"><title>" << escape(Tip) << "</title></line>\n";
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
// The page
//===----------------------------------------------------------------------===//

namespace {

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
} // namespace

void writeFigure(const Figure &F, StringRef Caption, raw_ostream &OS) {
  OS << "<figure>\n" << F.Svg;
  if (!F.Note.empty())
    OS << "<p class=\"note\">" << escape(F.Note) << "</p>\n";
  if (!F.Svg.empty())
    OS << "<figcaption>" << Caption << "</figcaption>\n";
  OS << "</figure>\n";
}

void beginPage(StringRef Title, raw_ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<meta name=\"viewport\" "
        "content=\"width=device-width, initial-scale=1\">\n<title>"
     << escape(Title) << "</title>\n<style>" << Css
     << "</style>\n</head>\n<body>\n<main>\n";
}

void endPage(raw_ostream &OS) { OS << "</main>\n</body>\n</html>\n"; }

} // namespace divcc
