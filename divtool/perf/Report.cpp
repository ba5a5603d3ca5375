//===- Report.cpp - `divtool perf`: the table and the JSON ----------------===//

#include "divtool/CommandLine.h"
#include "divtool/HtmlPlot.h"
#include "divtool/perf/Perf.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace divcc {

const MetricInfo &info(Metric M) {
  static const MetricInfo Infos[NumMetrics] = {
      {"cpu", "CPU time (user + system)", "CPU time", "cpu_seconds",
       "cpu_median", nullptr},
      {"wall", "wall-clock time", "wall time", "wall_seconds", "wall_median",
       nullptr},
      {"instructions", "instructions executed (valgrind)", "instructions",
       "instructions", "instructions_median", "instructions"},
      {"i1-misses", "I1 misses (cachegrind's simulated L1 instruction cache)",
       "I1 misses", "i1_misses", "i1_misses_median", "misses"},
      {"d1-misses",
       "D1 misses (cachegrind's simulated L1 data cache, reads + writes)",
       "D1 misses", "d1_misses", "d1_misses_median", "misses"},
      {"ll-misses",
       "LL misses (cachegrind's simulated last-level cache, "
       "instructions + data)",
       "LL misses", "ll_misses", "ll_misses_median", "misses"},
      {"mispredicts",
       "mispredicted branches (cachegrind's simulated predictor, "
       "conditional + indirect)",
       "mispredicts", "mispredicts", "mispredicts_median", "mispredicts"},
      {"cycles",
       "estimated cycles (cachegrind's classic estimate, from the simulated "
       "counts)",
       "estimated cycles", "cycles", "cycles_median", "cycles"}};
  return Infos[size_t(M)];
}

ArrayRef<Metric> allMetrics() {
  static const Metric All[NumMetrics] = {Metric::Cpu,          Metric::Wall,
                                         Metric::Instructions, Metric::I1Misses,
                                         Metric::D1Misses,     Metric::LLMisses,
                                         Metric::Mispredicts,  Metric::Cycles};
  return All;
}

std::optional<Metric> parseMetric(StringRef Name) {
  for (Metric M : allMetrics())
    if (Name == info(M).Name)
      return M;
  return std::nullopt;
}

Expected<Metric> chooseMetric(const PerfOptions &C) {
  Metric M = Metric::Cpu;
  if (!C.MetricName.empty()) {
    std::optional<Metric> Named = parseMetric(C.MetricName);
    if (!Named)
      return makeError("unknown --metric '" + C.MetricName + "'");
    M = *Named;
  }
  if (C.Instructions) {
    if (M != Metric::Instructions && !C.MetricName.empty())
      return makeError("--instructions is short for --metric instructions: "
                       "leave out --metric " +
                       C.MetricName);
    M = Metric::Instructions;
  }
  if (C.Misses && !isCount(M))
    return makeError(
        "--misses adds cache misses and mispredicts to the instruction "
        "count: " +
        (C.MetricName.empty()
             ? std::string("give --instructions too")
             : "give --instructions instead of --metric " + C.MetricName));
  return M;
}

std::vector<Metric> measuredWith(Metric M, bool Misses) {
  if (!isCount(M))
    return {Metric::Cpu, Metric::Wall};
  if (!Misses && !isSimulated(M))
    return {Metric::Instructions};
  // The simulators cost the same for one count as for all of them; the
  // cycles are estimated from the others.
  return {Metric::Instructions, Metric::I1Misses,    Metric::D1Misses,
          Metric::LLMisses,     Metric::Mispredicts, Metric::Cycles};
}

Unit unitFor(Metric M, double Typical) {
  if (isCount(M)) {
    std::string Counted = info(M).Counted;
    if (Typical >= 1e9)
      return {"G " + Counted, "G", 1e9};
    if (Typical >= 1e6)
      return {"M " + Counted, "M", 1e6};
    if (Typical >= 1e3)
      return {"K " + Counted, "K", 1e3};
    return {Counted, "", 1};
  }
  if (Typical >= 1)
    return {"s", "s", 1};
  if (Typical >= 1e-3)
    return {"ms", "ms", 1e-3};
  return {"us", "us", 1e-6};
}

Unit unitOf(const PerfResult &R, Metric M) {
  // Times share a unit so that cpu and wall compare at a glance; counts
  // differ by orders of magnitude.
  Metric By = isCount(M) ? M : R.Chosen;
  return unitFor(By, R.Builds.front().summary(By).Mean);
}

std::string columnHeader(Metric M, const Unit &U, StringRef Suffix) {
  return (info(M).Name + Suffix +
          (U.Short.empty() ? "" : " (" + U.Short + ")"))
      .str();
}

std::string significant(double V, int Digits) {
  if (!std::isfinite(V))
    return "n/a";
  if (V == 0)
    return "0";
  int Magnitude = int(std::floor(std::log10(std::fabs(V))));
  int Decimals = std::clamp(Digits - 1 - Magnitude, 0, 9);
  return fixed(V, unsigned(Decimals));
}

std::string inUnit(double V, const Unit &U) {
  return significant(V / U.Scale);
}

std::string signedPercent(double Share) {
  if (!std::isfinite(Share))
    return "n/a";
  return (Share >= 0 ? "+" : "") + fixed(Share * 100, 2) + "%";
}

std::string levelPercent(double Level) {
  std::string S = fixed(Level * 100, 1);
  if (StringRef(S).ends_with(".0"))
    S.resize(S.size() - 2);
  return S + "%";
}

std::string verdict(const PerfResult &R) {
  std::string Alpha = levelPercent(R.alpha());
  if (!R.significant())
    return "no significant difference at " + Alpha;
  bool More = R.Welch->Difference > 0;
  if (R.Chosen == Metric::Instructions)
    return "significant at " + Alpha + " (B executes " +
           (More ? "more" : "fewer") + " instructions)";
  if (R.Chosen == Metric::Cycles)
    return "significant at " + Alpha + " (B takes " +
           (More ? "more" : "fewer") + " estimated cycles)";
  if (isCount(R.Chosen))
    return "significant at " + Alpha + " (B has " + (More ? "more" : "fewer") +
           " " + info(R.Chosen).Axis + ")";
  return "significant at " + Alpha + " (B is " + (More ? "slower" : "faster") +
         ")";
}

/// \p Part as a percentage of \p Whole, "12.34%"; "n/a" for a whole of 0
/// (a count of 0 misses).
static std::string percentOf(double Part, double Whole) {
  double Share = Part / Whole * 100;
  return std::isfinite(Share) ? fixed(Share, 2) + "%" : "n/a";
}

/// \p M's statistics, each line after \p Indent: per build, the mean, its
/// interval, the median and the range; for two builds, B - A and, for the
/// chosen metric, the test. False when there is no test.
static bool printStatistics(const PerfResult &R, Metric M, StringRef Indent,
                            raw_ostream &OS) {
  Unit U = unitOf(R, M);
  const std::string &Unit = U.Name;
  std::string Level = levelPercent(R.Confidence);
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(M);
    std::string Who = B.Name == "build" ? "" : B.Name + ": ";
    OS << Indent << Who << "mean " << inUnit(S.Mean, U) << " " << Unit
       << ", sd " << inUnit(S.StdDev, U) << " " << Unit << " ("
       << percentOf(S.StdDev, S.Mean) << "), " << Level << " CI ["
       << inUnit(S.CiLow, U) << ", " << inUnit(S.CiHigh, U) << "] " << Unit
       << " (+-" << percentOf(S.CiHigh - S.Mean, S.Mean) << ")\n"
       << Indent << std::string(Who.size(), ' ') << "median "
       << inUnit(S.Median, U) << " " << Unit << ", min " << inUnit(S.Min, U)
       << " " << Unit << ", max " << inUnit(S.Max, U) << " " << Unit << "\n";
  }
  if (R.Builds.size() != 2)
    return true;
  const Summary &A = R.Builds[0].summary(M);
  // Every metric gets its difference and interval, but only the chosen one
  // a verdict: six verdicts would be six tries at 5%.
  std::optional<WelchResult> W =
      M == R.Chosen ? R.Welch
                    : welchTest(R.Builds[0].medians(M), R.Builds[1].medians(M),
                                R.Confidence);
  if (!W) {
    OS << Indent << "B - A: no test (each build needs at least 2 variants)\n";
    return false;
  }
  OS << Indent << "B - A: " << (W->Difference >= 0 ? "+" : "")
     << inUnit(W->Difference, U) << " " << Unit << " ("
     << signedPercent(W->Difference / A.Mean) << "), " << Level << " CI ["
     << inUnit(W->CiLow, U) << ", " << inUnit(W->CiHigh, U) << "] " << Unit
     << "\n";
  if (M == R.Chosen)
    OS << Indent << "Welch's t-test: t = " << significant(W->T, 3)
       << ", df = " << fixed(W->Df, 1) << ", p = " << significant(W->P, 3)
       << ": " << verdict(R) << "\n";
  return true;
}

void printTable(const PerfResult &R, raw_ostream &OS) {
  const BuildResult &First = R.Builds.front();
  OS << "benchmark: " << shellJoin(R.Bench) << "\n"
     << "measured:  " << R.metricName()
     << (R.Simulated ? " and the other cachegrind counts" : "") << ", "
     << First.Variants.size() << " variants, " << R.Runs << " run"
     << (R.Runs == 1 ? "" : "s") << " each"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << "; a variant's " << (isCount(R.Chosen) ? "count" : "time")
     << " is the median of its runs\n";
  if (R.Simulated)
    OS << "caches:    " << R.Caches.describe() << " (--cache-geometry "
       << R.Caches.Name << "), cachegrind's simulation\n"
       << "cycles:    estimated as " << cyclesFormula() << "\n";
  for (const BuildResult &B : R.Builds)
    OS << (B.Name == "build" ? "build:     " : "build " + B.Name + ":   ")
       << shellJoin(B.Command) << " (source " << B.Source << ")\n";
  OS << "\n";

  // One row per variant: each measured metric of each build. Five counts
  // per build make a wide table: their columns are only as wide as needed.
  std::vector<size_t> Widths;
  OS << left_justify("variant", 10);
  for (const BuildResult &B : R.Builds) {
    std::string Suffix = B.Name == "build" ? "" : " " + B.Name;
    for (Metric M : R.Measured) {
      std::string Header = columnHeader(M, unitOf(R, M), Suffix);
      size_t Width = R.Simulated ? std::max<size_t>(Header.size() + 3, 12) : 20;
      Widths.push_back(Width);
      OS << right_justify(Header, Width);
    }
  }
  OS << "\n";
  for (size_t I = 0; I < First.Variants.size(); ++I) {
    OS << left_justify(First.Variants[I].Id, 10);
    size_t Column = 0;
    for (const BuildResult &B : R.Builds)
      for (Metric M : R.Measured)
        OS << right_justify(inUnit(B.medians(M)[I], unitOf(R, M)),
                            Widths[Column++]);
    OS << "\n";
  }
  OS << "\n";
  std::vector<Metric> Reported = R.reported();
  for (Metric M : Reported) {
    if (Reported.size() > 1)
      OS << info(M).Description << ":\n";
    if (!printStatistics(R, M, Reported.size() > 1 ? "  " : "", OS))
      return;
  }
  if (R.Builds.size() == 2 && R.IdenticalBuilds)
    OS << "note: A and B built identical artifacts for every variant; "
          "the difference is measurement noise\n";
}

static nlohmann::json finite(double V) {
  return std::isfinite(V) ? nlohmann::json(V) : nlohmann::json();
}

static nlohmann::json summaryJson(const Summary &S) {
  return {{"n", S.N},
          {"mean", finite(S.Mean)},
          {"stddev", finite(S.StdDev)},
          {"median", finite(S.Median)},
          {"min", finite(S.Min)},
          {"max", finite(S.Max)},
          {"ci_low", finite(S.CiLow)},
          {"ci_high", finite(S.CiHigh)}};
}

std::string perfJson(const PerfResult &R) {
  nlohmann::json J;
  J["benchmark"] = R.Bench;
  J["runs"] = R.Runs;
  J["warmup"] = R.Warmup;
  J["metric"] = info(R.Chosen).Name;
  J["confidence"] = R.Confidence;
  if (R.Simulated) {
    J["cache_geometry"] = {{"name", R.Caches.Name},
                           {"description", R.Caches.describe()},
                           {"valgrind_options", R.Caches.valgrindOptions()}};
    J["cycles_formula"] = cyclesFormula();
  }
  J["builds"] = nlohmann::json::array();
  for (const BuildResult &B : R.Builds) {
    nlohmann::json BJ;
    BJ["name"] = B.Name;
    BJ["build_command"] = B.Command;
    BJ["source"] = B.Source;
    BJ["population"] = B.Out;
    BJ["registry"] = B.RegistryPath;
    BJ["variants"] = nlohmann::json::array();
    for (size_t I = 0; I < B.Variants.size(); ++I) {
      nlohmann::json VJ = {{"id", B.Variants[I].Id},
                           {"tree", B.Variants[I].Tree},
                           {"value", B.medians(R.Chosen)[I]}};
      for (Metric M : R.Measured) {
        if (isCount(M)) {
          // Counts are integers.
          std::vector<uint64_t> Runs;
          for (double V : B.of(M).Runs[I])
            Runs.push_back(uint64_t(V));
          VJ[info(M).RunsKey] = Runs;
        } else {
          VJ[info(M).RunsKey] = B.of(M).Runs[I];
        }
        VJ[info(M).MedianKey] = B.medians(M)[I];
      }
      BJ["variants"].push_back(std::move(VJ));
    }
    for (Metric M : R.Measured)
      BJ[info(M).Name] = summaryJson(B.summary(M));
    J["builds"].push_back(std::move(BJ));
  }
  if (R.Builds.size() == 2 && R.Welch) {
    const WelchResult &W = *R.Welch;
    J["comparison"] = {
        {"metric", info(R.Chosen).Name},
        {"difference", finite(W.Difference)},
        {"relative", finite(W.Difference / R.Builds[0].summary(R.Chosen).Mean)},
        {"ci_low", finite(W.CiLow)},
        {"ci_high", finite(W.CiHigh)},
        {"t", finite(W.T)},
        {"df", finite(W.Df)},
        {"p", finite(W.P)},
        {"alpha", R.alpha()},
        {"significant", R.significant()},
        {"identical_builds", R.IdenticalBuilds}};
  }
  return J.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace divcc
