//===- HtmlReport.cpp - `divtool perf`: the self-contained HTML report ----===//
//
// One page, no scripts: the plots are inline SVG (divtool/HtmlPlot.h) with
// their values in tooltips, so that the report can be mailed and archived.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/HtmlPlot.h"
#include "divtool/perf/Perf.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace divcc {
namespace {

/// The y axis of a plot of \p M, over the values \p Lo to \p Hi in \p U.
Axis valueAxis(double Lo, double Hi, const Unit &U, Metric M) {
  Axis A;
  std::string Name = info(M).Axis;
  // A count's unit would repeat its name: "instructions (M)", not
  // "instructions (M instructions)".
  if (!isCount(M))
    A.Title = Name + " (" + U.Name + ")";
  else
    A.Title = U.Short.empty() ? Name : Name + " (" + U.Short + ")";
  double Pad = std::max((Hi - Lo) * 0.08, std::fabs(Hi) * 1e-3);
  A.Lo = Lo - Pad;
  A.Hi = Hi + Pad;
  A.MinStep = 1e-6;
  return A;
}

/// Every run of every variant, by variant, a column of points per build.
Figure variantsPlot(const PerfResult &R, const Unit &U) {
  const BuildResult &First = R.Builds.front();
  size_t K = First.Variants.size(), NB = R.Builds.size();
  double Lo = INFINITY, Hi = -INFINITY;
  for (const BuildResult &B : R.Builds)
    for (const std::vector<double> &Runs : B.of(R.Chosen).Runs)
      for (double V : Runs) {
        Lo = std::min(Lo, V / U.Scale);
        Hi = std::max(Hi, V / U.Scale);
      }
  PlotSpec S;
  S.Id = "plot-variants";
  if (isCount(R.Chosen)) {
    S.Title = std::string(info(R.Chosen).Axis) + " per variant";
    S.Title[0] = toUpper(S.Title[0]);
  } else {
    S.Title = "Time per variant";
  }
  S.X.Title = NB == 1 ? "variant" : "variant (the same seed in every build)";
  S.X.Format = TickFormat::Category;
  for (const VariantRecord &V : First.Variants)
    S.X.Categories.push_back(V.Id);
  S.X.Lo = -0.5;
  S.X.Hi = double(K) - 0.5;
  S.Y = valueAxis(Lo, Hi, U, R.Chosen);
  for (size_t J = 0; J < NB; ++J)
    S.Legend.push_back(
        {seriesColour(J),
         (NB == 1 ? "run" : "build " + R.Builds[J].Name + " run")});
  SvgPlot P(std::move(S));
  double Band = 0.7 / double(NB);
  for (size_t J = 0; J < NB; ++J) {
    const BuildResult &B = R.Builds[J];
    const auto &Runs = B.of(R.Chosen).Runs;
    const auto &Medians = B.medians(R.Chosen);
    for (size_t I = 0; I < K; ++I) {
      double Centre = double(I) - 0.35 + Band * (double(J) + 0.5);
      std::string Who =
          B.Variants[I].Id + (NB == 1 ? "" : " of build " + B.Name);
      P.segment(Centre - Band * 0.4, Medians[I] / U.Scale,
                Centre + Band * 0.4, Medians[I] / U.Scale, "#333", 2,
                Who + ": median " + inUnit(Medians[I], U) + " " + U.Name);
      for (size_t Run = 0; Run < Runs[I].size(); ++Run)
        P.point(Centre, Runs[I][Run] / U.Scale, seriesColour(J),
                Who + ", run " + utostr(Run + 1) + ": " +
                    inUnit(Runs[I][Run], U) + " " + U.Name);
    }
  }
  return {P.finish(), ""};
}

/// Per build: the variants' medians, their mean and its confidence
/// interval.
Figure meansPlot(const PerfResult &R, const Unit &U) {
  size_t NB = R.Builds.size();
  double Lo = INFINITY, Hi = -INFINITY;
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(R.Chosen);
    for (double V : {S.Min, S.Max, S.CiLow, S.CiHigh})
      if (std::isfinite(V)) {
        Lo = std::min(Lo, V / U.Scale);
        Hi = std::max(Hi, V / U.Scale);
      }
  }
  std::string Level = levelPercent(R.Confidence);
  PlotSpec S;
  S.Id = "plot-means";
  S.Title = "Mean over variants and its " + Level + " confidence interval";
  S.X.Format = TickFormat::Category;
  for (const BuildResult &B : R.Builds)
    S.X.Categories.push_back(B.Name == "build" ? "build" : "build " + B.Name);
  S.X.Lo = -0.5;
  S.X.Hi = double(NB) - 0.5;
  S.Y = valueAxis(Lo, Hi, U, R.Chosen);
  S.Legend = {{"#333", "mean and " + Level + " confidence interval"}};
  for (size_t J = 0; J < NB; ++J)
    S.Legend.push_back({seriesColour(J), "a variant (median of its runs)"});
  if (NB == 2)
    S.Legend.pop_back();
  S.PlotHeight = 280;
  SvgPlot P(std::move(S));
  for (size_t J = 0; J < NB; ++J) {
    const BuildResult &B = R.Builds[J];
    const Summary &Sum = B.summary(R.Chosen);
    const auto &Medians = B.medians(R.Chosen);
    double X = double(J);
    // The variants to the left, spread evenly so that none hides another.
    for (size_t I = 0; I < Medians.size(); ++I) {
      double Offset = Medians.size() == 1
                          ? 0
                          : -0.3 + 0.2 * double(I) / double(Medians.size() - 1);
      P.point(X + Offset - 0.05, Medians[I] / U.Scale, seriesColour(J),
              B.Variants[I].Id + ": " + inUnit(Medians[I], U) + " " + U.Name);
    }
    std::string Tip = "mean " + inUnit(Sum.Mean, U) + " " + U.Name + ", " +
                      Level + " CI [" + inUnit(Sum.CiLow, U) + ", " +
                      inUnit(Sum.CiHigh, U) + "] " + U.Name;
    if (std::isfinite(Sum.CiLow)) {
      P.segment(X + 0.15, Sum.CiLow / U.Scale, X + 0.15,
                Sum.CiHigh / U.Scale, "#333", 2, Tip);
      for (double End : {Sum.CiLow, Sum.CiHigh})
        P.segment(X + 0.1, End / U.Scale, X + 0.2, End / U.Scale, "#333", 2,
                  Tip);
    }
    P.segment(X + 0.07, Sum.Mean / U.Scale, X + 0.23, Sum.Mean / U.Scale,
              "#333", 3, Tip);
    P.label(X + 0.25, Sum.Mean / U.Scale, inUnit(Sum.Mean, U) + " " + U.Name,
            4, 4, "start");
  }
  return {P.finish(), ""};
}

} // namespace

std::string perfHtml(const PerfResult &R) {
  const BuildResult &First = R.Builds.front();
  Unit U = unitFor(R.Chosen, First.summary(R.Chosen).Mean);
  std::string Level = levelPercent(R.Confidence);
  std::string Page;
  raw_string_ostream OS(Page);
  beginPage("divtool perf: " + shellJoin(R.Bench), OS);
  OS << "<header>\n<h1>divtool perf</h1>\n<p class=\"lead\">"
     << (R.Chosen == Metric::Instructions
             ? "How many instructions the benchmark executes over "
         : R.Chosen == Metric::Cycles
             ? "How many cycles the benchmark is estimated to take, from "
               "cachegrind's simulated caches and branch predictor, over "
         : isCount(R.Chosen)
             ? "How many " + std::string(info(R.Chosen).Axis) +
                   " the benchmark has in cachegrind's simulation over "
             : "How long the benchmark takes over ")
     << First.Variants.size()
     << " code layouts: each variant is the same program with another "
        "layout, so the mean over variants, and its confidence interval, "
        "do not depend on the luck of one layout.</p>\n<dl>\n"
        "<dt>Benchmark</dt><dd><code>"
     << escape(shellJoin(R.Bench)) << "</code></dd>\n";
  for (const BuildResult &B : R.Builds)
    OS << "<dt>" << (B.Name == "build" ? "Build" : "Build " + B.Name)
       << "</dt><dd><code>" << escape(shellJoin(B.Command))
       << "</code> in <span class=\"path\">" << escape(B.Source)
       << "</span></dd>\n";
  OS << "<dt>Measured</dt><dd>" << escape(R.metricName())
     << (R.Simulated ? " and the other cachegrind counts" : "") << "; "
     << R.Runs << " run" << (R.Runs == 1 ? "" : "s") << " per variant"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << ", a variant's " << (isCount(R.Chosen) ? "count" : "time")
     << " being the median of its runs</dd>\n";
  if (R.Simulated)
    OS << "<dt>Caches</dt><dd>" << escape(R.Caches.describe())
       << " (<code>--cache-geometry " << escape(R.Caches.Name)
       << "</code>), in cachegrind's simulation</dd>\n<dt>Estimated "
          "cycles</dt><dd>"
       << escape(cyclesFormula()) << "</dd>\n";
  if (R.Builds.size() == 2 && R.Welch) {
    const WelchResult &W = *R.Welch;
    OS << "<dt>B &minus; A</dt><dd>" << (W.Difference >= 0 ? "+" : "")
       << inUnit(W.Difference, U) << " " << U.Name << " ("
       << signedPercent(W.Difference / First.summary(R.Chosen).Mean) << "), "
       << Level << " CI [" << inUnit(W.CiLow, U) << ", " << inUnit(W.CiHigh, U)
       << "] " << U.Name
       << "</dd>\n<dt>Welch's t-test</dt><dd>t = " << significant(W.T, 3)
       << ", df = " << fixed(W.Df, 1) << ", p = " << significant(W.P, 3)
       << ": <b id=\"verdict\" class=\"" << (R.significant() ? "bad" : "good")
       << "\">" << escape(verdict(R)) << "</b></dd>\n";
  }
  OS << "</dl>\n</header>\n";

  // With the simulators, a row per metric and build, each in its unit.
  bool ByMetric = R.reported().size() > 1;
  OS << "<h2>Summary</h2>\n<table id=\"summary\">\n<thead><tr>"
     << (ByMetric ? "<th>Metric</th>" : "")
     << "<th>Build</th><th class=\"num\">Variants</th><th class=\"num\">Mean"
     << (ByMetric ? "" : " (" + U.Name + ")")
     << "</th><th class=\"num\">SD</th><th class=\"num\">" << Level
     << " CI</th><th class=\"num\">Median</th><th class=\"num\">"
     << "Min</th><th class=\"num\">Max</th></tr></thead>\n<tbody>\n";
  for (Metric M : R.reported()) {
    Unit MU = unitOf(R, M);
    for (const BuildResult &B : R.Builds) {
      const Summary &S = B.summary(M);
      OS << "<tr>";
      if (ByMetric)
        OS << "<td>" << escape(columnHeader(M, MU)) << "</td>";
      OS << "<td>" << escape(B.Name) << "</td><td class=\"num\">" << S.N
         << "</td><td class=\"num\">" << inUnit(S.Mean, MU)
         << "</td><td class=\"num\">" << inUnit(S.StdDev, MU) << " ("
         << fixed(S.StdDev / S.Mean * 100, 2) << "%)</td><td class=\"num\">"
         << inUnit(S.CiLow, MU) << " &ndash; " << inUnit(S.CiHigh, MU)
         << "</td><td class=\"num\">" << inUnit(S.Median, MU)
         << "</td><td class=\"num\">" << inUnit(S.Min, MU)
         << "</td><td class=\"num\">" << inUnit(S.Max, MU) << "</td></tr>\n";
    }
  }
  OS << "</tbody>\n</table>\n";
  if (R.IdenticalBuilds)
    OS << "<p class=\"note\">A and B built identical artifacts for every "
          "variant: the difference is measurement noise.</p>\n";

  OS << "<h2>Plots</h2>\n";
  writeFigure(meansPlot(R, U),
              "Each dot is a variant: the median of its runs. The bar is "
              "the " +
                  Level +
                  " confidence interval of the mean over variants (Student's "
                  "t), the thick mark the mean. Hover for values.",
              OS);
  writeFigure(variantsPlot(R, U),
              "Every run of every variant; the dark mark is the variant's "
              "median. Spread within a variant is noise of the machine; "
              "spread between variants is the effect of code layout.",
              OS);

  OS << "<h2>Variants</h2>\n<table id=\"variants\">\n<thead><tr>"
        "<th>Variant</th>";
  for (const BuildResult &B : R.Builds) {
    std::string Suffix = B.Name == "build" ? "" : " " + B.Name;
    for (Metric M : R.Measured)
      OS << "<th class=\"num\">"
         << escape(columnHeader(M, unitOf(R, M), Suffix)) << "</th>";
  }
  OS << "</tr></thead>\n<tbody>\n";
  for (size_t I = 0; I < First.Variants.size(); ++I) {
    OS << "<tr><td>" << escape(First.Variants[I].Id) << "</td>";
    for (const BuildResult &B : R.Builds)
      for (Metric M : R.Measured)
        OS << "<td class=\"num\">" << inUnit(B.medians(M)[I], unitOf(R, M))
           << "</td>";
    OS << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
  endPage(OS);
  return Page;
}

} // namespace divcc
