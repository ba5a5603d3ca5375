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

TimeUnit unitFor(double Typical) {
  if (Typical >= 1)
    return {"s", 1};
  if (Typical >= 1e-3)
    return {"ms", 1e-3};
  return {"us", 1e-6};
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

std::string inUnit(double Seconds, TimeUnit U) {
  return significant(Seconds / U.Seconds);
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
  return "significant at " + Alpha + " (B is " +
         (R.Welch->Difference > 0 ? "slower" : "faster") + ")";
}

void printTable(const PerfResult &R, raw_ostream &OS) {
  const BuildResult &First = R.Builds.front();
  TimeUnit U = unitFor(First.summary(R.UseCpu).Mean);
  std::string Unit = U.Name;
  std::string Level = levelPercent(R.Confidence);
  OS << "benchmark: " << shellJoin(R.Bench) << "\n"
     << "measured:  " << R.metricName() << ", " << First.Variants.size()
     << " variants, " << R.Runs << " run" << (R.Runs == 1 ? "" : "s") << " each"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << "; a variant's time is the median of its runs\n";
  for (const BuildResult &B : R.Builds)
    OS << (B.Name == "build" ? "build:     " : "build " + B.Name + ":   ")
       << shellJoin(B.Command) << " (source " << B.Source << ")\n";
  OS << "\n";

  // One row per variant: CPU and wall time of each build.
  OS << left_justify("variant", 10);
  for (const BuildResult &B : R.Builds) {
    std::string Suffix = B.Name == "build" ? "" : " " + B.Name;
    OS << right_justify("cpu" + Suffix + " (" + Unit + ")", 14)
       << right_justify("wall" + Suffix + " (" + Unit + ")", 14);
  }
  OS << "\n";
  for (size_t I = 0; I < First.Variants.size(); ++I) {
    OS << left_justify(First.Variants[I].Id, 10);
    for (const BuildResult &B : R.Builds)
      OS << right_justify(inUnit(B.CpuMedian[I], U), 14)
         << right_justify(inUnit(B.WallMedian[I], U), 14);
    OS << "\n";
  }
  OS << "\n";
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(R.UseCpu);
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
    const Summary &A = R.Builds[0].summary(R.UseCpu);
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
  J["metric"] = R.UseCpu ? "cpu" : "wall";
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
    for (size_t I = 0; I < B.Variants.size(); ++I)
      BJ["variants"].push_back({{"id", B.Variants[I].Id},
                                {"tree", B.Variants[I].Tree},
                                {"cpu_seconds", B.Cpu[I]},
                                {"wall_seconds", B.Wall[I]},
                                {"cpu_median", B.CpuMedian[I]},
                                {"wall_median", B.WallMedian[I]}});
    BJ["cpu"] = summaryJson(B.CpuSummary);
    BJ["wall"] = summaryJson(B.WallSummary);
    J["builds"].push_back(std::move(BJ));
  }
  if (R.Builds.size() == 2 && R.Welch) {
    const WelchResult &W = *R.Welch;
    J["comparison"] = {
        {"metric", R.UseCpu ? "cpu" : "wall"},
        {"difference", finite(W.Difference)},
        {"relative", finite(W.Difference / R.Builds[0].summary(R.UseCpu).Mean)},
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
