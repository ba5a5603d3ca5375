//===- HtmlPlot.h - Self-contained HTML pages with inline SVG plots -------===//
//
// What divtool's HTML reports (audit, perf) share: text and numbers written
// for a page, a small SVG plot (SvgPlot: frame, axes, ticks, bars, points,
// segments, labels, legend), and the page itself with its style sheet.
//
// Invariants every page keeps: it is one file with no script and nothing to
// fetch (no font, image or style sheet), so that it can be mailed, attached
// to a ticket or archived and reads the same anywhere, offline, years later;
// numbers are written from integers, never through printf's %f, so that no
// locale changes a decimal point; every text that comes from outside
// (paths, symbol names, commands) goes through escape() where it is written.
// SvgPlot escapes the texts it is given (titles, labels, tips); raw HTML the
// caller writes itself is its own to escape.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_HTMLPLOT_H
#define DIVCC_DIVTOOL_HTMLPLOT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace divcc {

//===----------------------------------------------------------------------===//
// Text and numbers
//===----------------------------------------------------------------------===//

/// \p S with the characters that mean something in HTML replaced by
/// references, and control characters (not allowed in HTML text) by U+FFFD.
std::string escape(llvm::StringRef S);
/// The number of characters (UTF-8 code points) in \p S.
size_t characters(llvm::StringRef S);
/// \p S cut to at most \p Max characters, ending in an ellipsis if cut.
std::string shorten(llvm::StringRef S, size_t Max);
/// \p V rounded to \p Decimals digits after a '.', whatever the locale;
/// "n/a" for infinities and NaN.
std::string fixed(double V, unsigned Decimals);
/// \p V with its digits in groups of three, separated by U+202F NARROW
/// NO-BREAK SPACE (ISO 80000-1): 1 234 567.
std::string grouped(uint64_t V);
std::string groupedSigned(int64_t V);
/// 0.1234 as "12.34%".
std::string percent(double Share);
/// A tick label: short, exact for the round values ticks fall on (1.5k, 2M).
std::string compact(double V);
std::string hex(uint64_t V);

//===----------------------------------------------------------------------===//
// SVG plots
//===----------------------------------------------------------------------===//

/// One colour per series (Tableau 10), reused in turn beyond ten.
extern const char *const SeriesColours[10];
inline const char *seriesColour(size_t I) { return SeriesColours[I % 10]; }

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
  /// The smallest step between numeric ticks: 1 for counts, which are
  /// whole; smaller for measurements. Ticks below 1 are labelled with as
  /// many decimals as their step needs.
  double MinStep = 1;
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

/// One plot as an <svg> element: a frame with a title, legend, grid, ticks
/// and axis titles, then the data marks (bars, points, segments, labels)
/// the caller adds in data coordinates. Data marks carry class "mark" and a
/// <title> that the browser shows on hover.
class SvgPlot {
public:
  explicit SvgPlot(PlotSpec Spec);
  SvgPlot(const SvgPlot &) = delete;
  SvgPlot &operator=(const SvgPlot &) = delete;

  /// A rectangle over [X0, X1] x [Y0, Y1].
  void bar(double X0, double X1, double Y0, double Y1, llvm::StringRef Colour,
           llvm::StringRef Tip);
  void point(double X, double Y, llvm::StringRef Colour, llvm::StringRef Tip);
  /// A line from (X0, Y0) to (X1, Y1), \p Width pixels wide.
  void segment(double X0, double Y0, double X1, double Y1,
               llvm::StringRef Colour, double Width, llvm::StringRef Tip);
  /// \p Text at (X, Y), moved by (DX, DY) pixels; \p Anchor is SVG's
  /// text-anchor: start, middle or end.
  void label(double X, double Y, llvm::StringRef Text, double DX, double DY,
             llvm::StringRef Anchor);
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
  void line(double X1, double Y1, double X2, double Y2, llvm::StringRef Class);
  void text(double X, double Y, llvm::StringRef Text, llvm::StringRef Anchor,
            llvm::StringRef Class, llvm::StringRef Transform = "");

  PlotSpec S;
  std::vector<Tick> XTicks, YTicks;
  /// Where each legend entry goes, relative to the plotting area's left.
  std::vector<std::pair<double, unsigned>> LegendAt; // x, row
  unsigned LegendRows = 0;
  double Left = 0, Top = 0, PlotW = 0, PlotH = 0, Height = 0;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
};

//===----------------------------------------------------------------------===//
// The page
//===----------------------------------------------------------------------===//

/// A plot, or a note that says why there is none, or both.
struct Figure {
  std::string Svg;
  std::string Note;
};

inline Figure note(llvm::StringRef Text) { return {"", Text.str()}; }

/// \p F in a frame, with \p Caption (HTML) saying how to read the plot if
/// there is one.
void writeFigure(const Figure &F, llvm::StringRef Caption,
                 llvm::raw_ostream &OS);

/// The page up to its <main> element, titled \p Title (text), with the
/// style sheet every report shares.
void beginPage(llvm::StringRef Title, llvm::raw_ostream &OS);
/// The end of a page begun by beginPage.
void endPage(llvm::raw_ostream &OS);

} // namespace divcc

#endif
