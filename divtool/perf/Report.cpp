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
       "cpu_median"},
      {"wall", "wall-clock time", "wall time", "wall_seconds", "wall_median"},
      {"instructions", "instructions executed (valgrind)", "instructions",
       "instructions", "instructions_median"}};
  return Infos[size_t(M)];
}

std::optional<Metric> parseMetric(StringRef Name) {
  for (Metric M : {Metric::Cpu, Metric::Wall, Metric::Instructions})
    if (Name == info(M).Name)
      return M;
  return std::nullopt;
}

std::vector<Metric> measuredWith(Metric M) {
  if (M == Metric::Instructions)
    return {Metric::Instructions};
  return {Metric::Cpu, Metric::Wall};
}

Unit unitFor(Metric M, double Typical) {
  if (M == Metric::Instructions) {
    if (Typical >= 1e9)
      return {"G instructions", "G", 1e9};
    if (Typical >= 1e6)
      return {"M instructions", "M", 1e6};
    if (Typical >= 1e3)
      return {"K instructions", "K", 1e3};
    return {"instructions", "", 1};
  }
  if (Typical >= 1)
    return {"s", "s", 1};
  if (Typical >= 1e-3)
    return {"ms", "ms", 1e-3};
  return {"us", "us", 1e-6};
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
  return "significant at " + Alpha + " (B is " + (More ? "slower" : "faster") +
         ")";
}

void printTable(const PerfResult &R, raw_ostream &OS) {
  const BuildResult &First = R.Builds.front();
  Unit U = unitFor(R.Chosen, First.summary(R.Chosen).Mean);
  const std::string &Unit = U.Name;
  std::string Level = levelPercent(R.Confidence);
  OS << "benchmark: " << shellJoin(R.Bench) << "\n"
     << "measured:  " << R.metricName() << ", " << First.Variants.size()
     << " variants, " << R.Runs << " run" << (R.Runs == 1 ? "" : "s") << " each"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << "; a variant's " << (R.Chosen == Metric::Instructions ? "count" : "time")
     << " is the median of its runs\n";
  for (const BuildResult &B : R.Builds)
    OS << (B.Name == "build" ? "build:     " : "build " + B.Name + ":   ")
       << shellJoin(B.Command) << " (source " << B.Source << ")\n";
  OS << "\n";

  // One row per variant: each measured metric of each build.
  OS << left_justify("variant", 10);
  for (const BuildResult &B : R.Builds) {
    std::string Suffix = B.Name == "build" ? "" : " " + B.Name;
    for (Metric M : R.Measured)
      OS << right_justify(columnHeader(M, U, Suffix), 20);
  }
  OS << "\n";
  for (size_t I = 0; I < First.Variants.size(); ++I) {
    OS << left_justify(First.Variants[I].Id, 10);
    for (const BuildResult &B : R.Builds)
      for (Metric M : R.Measured)
        OS << right_justify(inUnit(B.medians(M)[I], U), 20);
    OS << "\n";
  }
  OS << "\n";
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(R.Chosen);
    std::string Who = B.Name == "build" ? "" : B.Name + ": ";
    OS << Who << "mean " << inUnit(S.Mean, U) << " " << Unit << ", sd "
       << inUnit(S.StdDev, U) << " " << Unit << " ("
       << fixed(S.StdDev / S.Mean * 100, 2) << "%), " << Level << " CI ["
       << inUnit(S.CiLow, U) << ", " << inUnit(S.CiHigh, U) << "] " << Unit
       << " (+-" << fixed((S.CiHigh - S.Mean) / S.Mean * 100, 2) << "%)\n"
       << std::string(Who.size(), ' ') << "median " << inUnit(S.Median, U)
       << " " << Unit << ", min " << inUnit(S.Min, U) << " " << Unit << ", max "
       << inUnit(S.Max, U) << " " << Unit << "\n";
  }
  if (R.Builds.size() == 2) {
    const Summary &A = R.Builds[0].summary(R.Chosen);
    if (!R.Welch) {
      OS << "B - A: no test (each build needs at least 2 variants)\n";
      return;
    }
    const WelchResult &W = *R.Welch;
    OS << "B - A: " << (W.Difference >= 0 ? "+" : "") << inUnit(W.Difference, U)
       << " " << Unit << " (" << signedPercent(W.Difference / A.Mean) << "), "
       << Level << " CI [" << inUnit(W.CiLow, U) << ", " << inUnit(W.CiHigh, U)
       << "] " << Unit << "\n"
       << "Welch's t-test: t = " << significant(W.T, 3)
       << ", df = " << fixed(W.Df, 1) << ", p = " << significant(W.P, 3) << ": "
       << verdict(R) << "\n";
    if (R.IdenticalBuilds)
      OS << "note: A and B built identical artifacts for every variant; "
            "the difference is measurement noise\n";
  }
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
        if (M == Metric::Instructions) {
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
