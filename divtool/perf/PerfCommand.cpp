//===- PerfCommand.cpp - `divtool perf`: timing that controls for layout --===//
//
// A program's speed depends on its code layout: where functions, loops and
// branches fall relative to cache lines, pages and the branch predictor's
// tables. One build is one layout, so a before/after comparison of two
// builds mixes the change being measured with the accident of two layouts
// (Mytkowicz et al., "Producing wrong data without doing anything obviously
// wrong!", 2009). STABILIZER (Curtsinger and Berger, 2013) re-randomized
// layout at run time, so that layout became a random factor averaged over;
// divcc makes a new layout at every build, so divtool perf does the same at
// build time:
//
//   1. it builds K variants of the project with buildPopulation (the
//      machinery of `divtool population`: a copy of the source per variant,
//      the project's own build command, a seed per variant derived from the
//      master secret and the variant's id);
//   2. it runs the benchmark command in each variant's tree R times, after W
//      warm-up runs, and records the CPU time (user + system, of the
//      benchmark and the children it waited for: wait4's rusage) and the
//      wall-clock time of each run;
//   3. the unit of observation is the variant: its value is the median of
//      its runs; over the K variants it reports the mean, the standard
//      deviation and a confidence interval of the mean from Student's t;
//   4. with --compare (two build commands) or --compare-source (two source
//      trees), both builds get K variants with the same ids, hence the same
//      seeds, and Welch's t-test says whether their means differ.
//
// Runs are interleaved, round by round (run r of every variant of every
// build, then run r + 1), alternating which build goes first, so that a
// change in the machine's load over time spreads over all of them instead of
// biasing one build. Benchmarks run one at a time, whatever -j is.
//
// Secrets: the master secret goes only to buildPopulation (VariantBuild.h),
// which keeps it out of every command line, environment, file and log.
// Without --seed-file, a fresh random master secret is drawn, written to a
// file of mode 0600 in a private directory for buildPopulation to read, and
// removed when perf ends; it is never shown.
//
//===----------------------------------------------------------------------===//

#include "divtool/HtmlPlot.h"
#include "divtool/Subcommands.h"
#include "divtool/perf/Statistics.h"
#include "divtool/population/VariantBuild.h"

#include "support/AtomicOutput.h"
#include "support/Environment.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <sys/random.h>
#include <sys/resource.h>

using namespace llvm;

namespace divcc {
namespace {

struct PerfCommandLine {
  unsigned Variants = 0;
  std::string SeedFile;
  std::string Build;
  std::vector<std::string> Compare;
  std::vector<std::string> CompareSource;
  std::string Source;
  std::string Out;
  unsigned Runs = 1;
  unsigned Warmup = 0;
  unsigned Jobs = 1;
  std::string Metric = "cpu";
  double Confidence = 0.95;
  bool Json = false;
  std::string Html;
  bool Keep = false;
  std::optional<bool> Progress;
  std::vector<std::string> Bench;
};

Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// A build configuration and what was measured of it.
struct BuildResult {
  std::string Name; ///< "A", "B", or "build" alone.
  std::vector<std::string> Command;
  std::string Source;
  std::string Out, RegistryPath;
  std::vector<VariantRecord> Variants;
  /// Per variant, the seconds of each run.
  std::vector<std::vector<double>> Cpu, Wall;
  /// Per variant, the median of its runs.
  std::vector<double> CpuMedian, WallMedian;
  Summary CpuSummary, WallSummary;

  const std::vector<double> &medians(bool UseCpu) const {
    return UseCpu ? CpuMedian : WallMedian;
  }
  const Summary &summary(bool UseCpu) const {
    return UseCpu ? CpuSummary : WallSummary;
  }
};

BuildResult makeBuild(std::string Name, std::vector<std::string> Command,
                      std::string Source) {
  BuildResult B;
  B.Name = std::move(Name);
  B.Command = std::move(Command);
  B.Source = std::move(Source);
  return B;
}

/// "A" for the first build compared, "B" for the second.
std::string buildName(size_t I) { return std::string(1, char('A' + I)); }

struct PerfResult {
  std::vector<std::string> Bench;
  unsigned Runs = 0, Warmup = 0;
  bool UseCpu = true;
  double Confidence = 0.95;
  std::vector<BuildResult> Builds;
  std::optional<WelchResult> Welch;
  /// Every variant of B is byte for byte the same variant of A.
  bool IdenticalBuilds = false;

  /// 1 - Confidence, without the rounding error (0.05, not 0.05000...04).
  double alpha() const { return std::round((1 - Confidence) * 1e9) / 1e9; }
  bool significant() const { return Welch && Welch->P < alpha(); }
  std::string metricName() const {
    return UseCpu ? "CPU time (user + system)" : "wall-clock time";
  }
};

//===----------------------------------------------------------------------===//
// Numbers in text
//===----------------------------------------------------------------------===//

/// A unit for times around \p Typical seconds: its name and its size.
struct TimeUnit {
  const char *Name;
  double Seconds;
};

TimeUnit unitFor(double Typical) {
  if (Typical >= 1)
    return {"s", 1};
  if (Typical >= 1e-3)
    return {"ms", 1e-3};
  return {"us", 1e-6};
}

/// \p V with \p Digits significant digits (at least one decimal below 10).
std::string significant(double V, int Digits = 4) {
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

std::string joinCommand(ArrayRef<std::string> Words) {
  std::string Out;
  for (const std::string &W : Words) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !W.empty() && all_of(W, [](char C) {
      return isAlnum(C) || StringRef("-_=./:,+@%").contains(C);
    });
    if (Plain) {
      Out += W;
      continue;
    }
    Out += '\'';
    for (char C : W)
      Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Out += '\'';
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// Building and measuring
//===----------------------------------------------------------------------===//

/// Splits a build command given as one string into words, as a shell would
/// (quotes and backslashes), without expanding anything.
Expected<std::vector<std::string>> splitCommand(StringRef Text,
                                                StringRef Option) {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 16> Words;
  cl::TokenizeGNUCommandLine(Text, Saver, Words);
  std::vector<std::string> Out;
  for (const char *W : Words)
    if (W)
      Out.push_back(W);
  if (Out.empty())
    return fail(Option + " is empty: give the project's build command, e.g. "
                         "--build 'make CC=divcc'");
  return Out;
}

/// A fresh random master secret in a file of mode 0600 in \p Dir.
Expected<std::string> randomSeedFile(PrivateDir &Dir) {
  std::array<uint8_t, 32> Secret;
  auto Wipe =
      make_scope_exit([&] { OPENSSL_cleanse(Secret.data(), Secret.size()); });
  size_t Done = 0;
  while (Done < Secret.size()) {
    ssize_t N = ::getrandom(Secret.data() + Done, Secret.size() - Done, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return fail("cannot draw a random master secret: " +
                  std::error_code(errno, std::generic_category()).message());
    Done += size_t(N);
  }
  return Dir.writeSecret("master.key", Secret);
}

/// Builds the K variants of one configuration into \p Out and reads back
/// what the registry recorded of them.
Error buildVariants(const PerfCommandLine &C, BuildResult &B,
                    StringRef SeedFile, StringRef Out) {
  PopulationOptions O;
  O.Count = C.Variants;
  O.Out = Out.str();
  O.SeedFile = SeedFile.str();
  O.Jobs = C.Jobs;
  O.Source = B.Source;
  O.Progress = C.Progress;
  O.Command = B.Command;
  O.Tool = "divtool perf" + (B.Name == "build" ? "" : " [" + B.Name + "]");
  errs() << O.Tool << ": building " << C.Variants << " variants with '"
         << joinCommand(B.Command) << "'"
         << (B.Source.empty() ? "" : " from '" + B.Source + "'") << "\n";
  Expected<PopulationBuilt> Built = buildPopulation(O);
  if (!Built)
    return Built.takeError();
  if (Built->Failed)
    return fail(Twine(Built->Failed) + " of " + Twine(C.Variants) +
                " variants of " +
                (B.Name == "build" ? "the build" : "build " + B.Name) +
                " failed to build; their trees and logs are in " + Built->Out +
                "/variants");
  B.Out = Built->Out;
  B.RegistryPath = Built->RegistryPath;
  Expected<OpenPopulation> Pop = openPopulation(B.RegistryPath, SeedFile);
  if (!Pop)
    return Pop.takeError();
  for (const std::string &Id : Built->Ids) {
    Expected<VariantRecord> V = Pop->Reg.builtVariant(Id);
    if (!V)
      return V.takeError();
    B.Variants.push_back(std::move(*V));
  }
  B.Cpu.resize(B.Variants.size());
  B.Wall.resize(B.Variants.size());
  return Error::success();
}

/// Whether every variant of \p A has the same artifacts as that of \p B.
bool sameArtifacts(const BuildResult &A, const BuildResult &B,
                   StringRef SeedFile) {
  Expected<OpenPopulation> PA = openPopulation(A.RegistryPath, SeedFile);
  Expected<OpenPopulation> PB = openPopulation(B.RegistryPath, SeedFile);
  if (!PA || !PB) {
    consumeError(PA.takeError());
    consumeError(PB.takeError());
    return false;
  }
  for (size_t I = 0; I < A.Variants.size(); ++I) {
    auto FA = PA->Reg.artifacts(A.Variants[I].Id);
    auto FB = PB->Reg.artifacts(B.Variants[I].Id);
    if (!FA || !FB) {
      consumeError(FA.takeError());
      consumeError(FB.takeError());
      return false;
    }
    if (FA->size() != FB->size())
      return false;
    for (size_t J = 0; J < FA->size(); ++J)
      if ((*FA)[J].Path != (*FB)[J].Path || (*FA)[J].Sha256 != (*FB)[J].Sha256)
        return false;
  }
  return true;
}

double seconds(const struct timeval &T) {
  return double(T.tv_sec) + double(T.tv_usec) * 1e-6;
}

/// Runs the benchmark once in variant \p V's tree; returns its CPU and wall
/// times in seconds.
Expected<std::pair<double, double>> runOnce(const PerfCommandLine &C,
                                            const VariantRecord &V,
                                            ArrayRef<std::string> Env) {
  std::string Log = (sys::path::parent_path(V.Tree) + "/bench.log").str();
  auto Start = std::chrono::steady_clock::now();
  Expected<pid_t> Pid =
      startProcess(C.Bench, V.Tree, Env, Log, Log,
                   /*OwnProcessGroup=*/false, "the benchmark");
  if (!Pid)
    return Pid.takeError();
  struct rusage Usage = {};
  int Status = *waitBuild(*Pid, /*Block=*/true, &Usage);
  double Wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (Status != 0)
    return fail("the benchmark failed in " + V.Id + "'s tree '" + V.Tree +
                "' (" + describeWaitStatus(Status) + "); the last lines of " +
                Log + ":\n" + StringRef(lastLines(Log, 10)).rtrim('\n'));
  return std::make_pair(seconds(Usage.ru_utime) + seconds(Usage.ru_stime),
                        Wall);
}

Error measure(const PerfCommandLine &C, PerfResult &R) {
  std::vector<std::string> Env = environmentWith({"DIVCC_SEED_FILE"}, {});
  bool Terminal = C.Progress.value_or(sys::Process::StandardErrIsDisplayed());
  size_t K = R.Builds.front().Variants.size();
  unsigned Rounds = C.Warmup + C.Runs;
  size_t PerRound = K * R.Builds.size();
  auto Start = std::chrono::steady_clock::now();
  errs() << "divtool perf: running '" << joinCommand(C.Bench) << "' "
         << (C.Warmup ? Twine(C.Warmup) + " + " : Twine()) << C.Runs << " time"
         << (Rounds == 1 ? "" : "s") << " in each of " << PerRound
         << " variant trees" << (C.Warmup ? " (warm-up first)" : "") << "\n";
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    bool Warm = Round < C.Warmup;
    for (size_t I = 0; I < K; ++I)
      for (size_t J = 0; J < R.Builds.size(); ++J) {
        // Alternate which build goes first, variant by variant and round by
        // round.
        size_t Which = (I + Round) % 2 ? R.Builds.size() - 1 - J : J;
        BuildResult &B = R.Builds[Which];
        if (Terminal) {
          errs() << "\r\033[Kdivtool perf: round " << Round + 1 << "/" << Rounds
                 << (Warm ? " (warm-up)" : "") << ", " << B.Variants[I].Id
                 << (B.Name == "build" ? "" : " of " + B.Name);
          errs().flush();
        }
        Expected<std::pair<double, double>> Times =
            runOnce(C, B.Variants[I], Env);
        if (!Times) {
          if (Terminal)
            errs() << "\r\033[K";
          return Times.takeError();
        }
        if (Warm)
          continue;
        B.Cpu[I].push_back(Times->first);
        B.Wall[I].push_back(Times->second);
      }
    if (!Terminal && !Warm && Rounds > 1)
      errs() << "divtool perf: round " << Round + 1 << "/" << Rounds
             << " done, "
             << int(std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Start)
                        .count())
             << " s elapsed\n";
  }
  if (Terminal)
    errs() << "\r\033[K";
  for (BuildResult &B : R.Builds) {
    for (size_t I = 0; I < K; ++I) {
      B.CpuMedian.push_back(median(B.Cpu[I]));
      B.WallMedian.push_back(median(B.Wall[I]));
    }
    B.CpuSummary = summarize(B.CpuMedian, C.Confidence);
    B.WallSummary = summarize(B.WallMedian, C.Confidence);
  }
  if (R.Builds.size() == 2)
    R.Welch = welchTest(R.Builds[0].medians(R.UseCpu),
                        R.Builds[1].medians(R.UseCpu), C.Confidence);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

std::string levelPercent(double Level) {
  std::string S = fixed(Level * 100, 1);
  if (StringRef(S).ends_with(".0"))
    S.resize(S.size() - 2);
  return S + "%";
}

/// "no significant difference at 5%" or "significant at 5% (B is slower)".
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
  OS << "benchmark: " << joinCommand(R.Bench) << "\n"
     << "measured:  " << R.metricName() << ", " << First.Variants.size()
     << " variants, " << R.Runs << " run" << (R.Runs == 1 ? "" : "s") << " each"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << "; a variant's time is the median of its runs\n";
  for (const BuildResult &B : R.Builds)
    OS << (B.Name == "build" ? "build:     " : "build " + B.Name + ":   ")
       << joinCommand(B.Command) << " (source " << B.Source << ")\n";
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

nlohmann::json finite(double V) {
  return std::isfinite(V) ? nlohmann::json(V) : nlohmann::json();
}

nlohmann::json summaryJson(const Summary &S) {
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

/// The y axis of a time plot, over the values \p Lo to \p Hi in \p U.
Axis timeAxis(double Lo, double Hi, TimeUnit U, StringRef Metric) {
  Axis A;
  A.Title = (Metric + " (" + U.Name + ")").str();
  double Pad = std::max((Hi - Lo) * 0.08, std::fabs(Hi) * 1e-3);
  A.Lo = Lo - Pad;
  A.Hi = Hi + Pad;
  A.MinStep = 1e-6;
  return A;
}

/// Every run of every variant, by variant, a column of points per build.
Figure variantsPlot(const PerfResult &R, TimeUnit U) {
  const BuildResult &First = R.Builds.front();
  size_t K = First.Variants.size(), NB = R.Builds.size();
  double Lo = INFINITY, Hi = -INFINITY;
  for (const BuildResult &B : R.Builds)
    for (const std::vector<double> &Runs : R.UseCpu ? B.Cpu : B.Wall)
      for (double V : Runs) {
        Lo = std::min(Lo, V / U.Seconds);
        Hi = std::max(Hi, V / U.Seconds);
      }
  PlotSpec S;
  S.Id = "plot-variants";
  S.Title = "Time per variant";
  S.X.Title = NB == 1 ? "variant" : "variant (the same seed in every build)";
  S.X.Format = TickFormat::Category;
  for (const VariantRecord &V : First.Variants)
    S.X.Categories.push_back(V.Id);
  S.X.Lo = -0.5;
  S.X.Hi = double(K) - 0.5;
  S.Y = timeAxis(Lo, Hi, U, R.UseCpu ? "CPU time" : "wall time");
  for (size_t J = 0; J < NB; ++J)
    S.Legend.push_back(
        {seriesColour(J),
         (NB == 1 ? "run" : "build " + R.Builds[J].Name + " run")});
  SvgPlot P(std::move(S));
  double Band = 0.7 / double(NB);
  for (size_t J = 0; J < NB; ++J) {
    const BuildResult &B = R.Builds[J];
    const auto &Runs = R.UseCpu ? B.Cpu : B.Wall;
    const auto &Medians = B.medians(R.UseCpu);
    for (size_t I = 0; I < K; ++I) {
      double Centre = double(I) - 0.35 + Band * (double(J) + 0.5);
      std::string Who =
          B.Variants[I].Id + (NB == 1 ? "" : " of build " + B.Name);
      P.segment(Centre - Band * 0.4, Medians[I] / U.Seconds,
                Centre + Band * 0.4, Medians[I] / U.Seconds, "#333", 2,
                Who + ": median " + inUnit(Medians[I], U) + " " + U.Name);
      for (size_t Run = 0; Run < Runs[I].size(); ++Run)
        P.point(Centre, Runs[I][Run] / U.Seconds, seriesColour(J),
                Who + ", run " + utostr(Run + 1) + ": " +
                    inUnit(Runs[I][Run], U) + " " + U.Name);
    }
  }
  return {P.finish(), ""};
}

/// Per build: the variants' medians, their mean and its confidence
/// interval.
Figure meansPlot(const PerfResult &R, TimeUnit U) {
  size_t NB = R.Builds.size();
  double Lo = INFINITY, Hi = -INFINITY;
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(R.UseCpu);
    for (double V : {S.Min, S.Max, S.CiLow, S.CiHigh})
      if (std::isfinite(V)) {
        Lo = std::min(Lo, V / U.Seconds);
        Hi = std::max(Hi, V / U.Seconds);
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
  S.Y = timeAxis(Lo, Hi, U, R.UseCpu ? "CPU time" : "wall time");
  S.Legend = {{"#333", "mean and " + Level + " confidence interval"}};
  for (size_t J = 0; J < NB; ++J)
    S.Legend.push_back({seriesColour(J), "a variant (median of its runs)"});
  if (NB == 2)
    S.Legend.pop_back();
  S.PlotHeight = 280;
  SvgPlot P(std::move(S));
  for (size_t J = 0; J < NB; ++J) {
    const BuildResult &B = R.Builds[J];
    const Summary &Sum = B.summary(R.UseCpu);
    const auto &Medians = B.medians(R.UseCpu);
    double X = double(J);
    // The variants to the left, spread evenly so that none hides another.
    for (size_t I = 0; I < Medians.size(); ++I) {
      double Offset = Medians.size() == 1
                          ? 0
                          : -0.3 + 0.2 * double(I) / double(Medians.size() - 1);
      P.point(X + Offset - 0.05, Medians[I] / U.Seconds, seriesColour(J),
              B.Variants[I].Id + ": " + inUnit(Medians[I], U) + " " + U.Name);
    }
    std::string Tip = "mean " + inUnit(Sum.Mean, U) + " " + U.Name + ", " +
                      Level + " CI [" + inUnit(Sum.CiLow, U) + ", " +
                      inUnit(Sum.CiHigh, U) + "] " + U.Name;
    if (std::isfinite(Sum.CiLow)) {
      P.segment(X + 0.15, Sum.CiLow / U.Seconds, X + 0.15,
                Sum.CiHigh / U.Seconds, "#333", 2, Tip);
      for (double End : {Sum.CiLow, Sum.CiHigh})
        P.segment(X + 0.1, End / U.Seconds, X + 0.2, End / U.Seconds, "#333", 2,
                  Tip);
    }
    P.segment(X + 0.07, Sum.Mean / U.Seconds, X + 0.23, Sum.Mean / U.Seconds,
              "#333", 3, Tip);
    P.label(X + 0.25, Sum.Mean / U.Seconds, inUnit(Sum.Mean, U) + " " + U.Name,
            4, 4, "start");
  }
  return {P.finish(), ""};
}

std::string perfHtml(const PerfResult &R) {
  const BuildResult &First = R.Builds.front();
  TimeUnit U = unitFor(First.summary(R.UseCpu).Mean);
  std::string Level = levelPercent(R.Confidence);
  std::string Page;
  raw_string_ostream OS(Page);
  beginPage("divtool perf: " + joinCommand(R.Bench), OS);
  OS << "<header>\n<h1>divtool perf</h1>\n<p class=\"lead\">How long the "
        "benchmark takes over "
     << First.Variants.size()
     << " code layouts: each variant is the same program with another "
        "layout, so the mean over variants, and its confidence interval, "
        "do not depend on the luck of one layout.</p>\n<dl>\n"
        "<dt>Benchmark</dt><dd><code>"
     << escape(joinCommand(R.Bench)) << "</code></dd>\n";
  for (const BuildResult &B : R.Builds)
    OS << "<dt>" << (B.Name == "build" ? "Build" : "Build " + B.Name)
       << "</dt><dd><code>" << escape(joinCommand(B.Command))
       << "</code> in <span class=\"path\">" << escape(B.Source)
       << "</span></dd>\n";
  OS << "<dt>Measured</dt><dd>" << escape(R.metricName()) << "; " << R.Runs
     << " run" << (R.Runs == 1 ? "" : "s") << " per variant"
     << (R.Warmup ? " after " + utostr(R.Warmup) + " warm-up" : "")
     << ", a variant's time being the median of its runs</dd>\n";
  if (R.Builds.size() == 2 && R.Welch) {
    const WelchResult &W = *R.Welch;
    OS << "<dt>B &minus; A</dt><dd>" << (W.Difference >= 0 ? "+" : "")
       << inUnit(W.Difference, U) << " " << U.Name << " ("
       << signedPercent(W.Difference / First.summary(R.UseCpu).Mean) << "), "
       << Level << " CI [" << inUnit(W.CiLow, U) << ", " << inUnit(W.CiHigh, U)
       << "] " << U.Name
       << "</dd>\n<dt>Welch's t-test</dt><dd>t = " << significant(W.T, 3)
       << ", df = " << fixed(W.Df, 1) << ", p = " << significant(W.P, 3)
       << ": <b id=\"verdict\" class=\"" << (R.significant() ? "bad" : "good")
       << "\">" << escape(verdict(R)) << "</b></dd>\n";
  }
  OS << "</dl>\n</header>\n";

  OS << "<h2>Summary</h2>\n<table id=\"summary\">\n<thead><tr><th>Build</th>"
        "<th class=\"num\">Variants</th><th class=\"num\">Mean ("
     << U.Name << ")</th><th class=\"num\">SD</th><th class=\"num\">" << Level
     << " CI</th><th class=\"num\">Median</th><th class=\"num\">"
     << "Min</th><th class=\"num\">Max</th></tr></thead>\n<tbody>\n";
  for (const BuildResult &B : R.Builds) {
    const Summary &S = B.summary(R.UseCpu);
    OS << "<tr><td>" << escape(B.Name) << "</td><td class=\"num\">" << S.N
       << "</td><td class=\"num\">" << inUnit(S.Mean, U)
       << "</td><td class=\"num\">" << inUnit(S.StdDev, U) << " ("
       << fixed(S.StdDev / S.Mean * 100, 2) << "%)</td><td class=\"num\">"
       << inUnit(S.CiLow, U) << " &ndash; " << inUnit(S.CiHigh, U)
       << "</td><td class=\"num\">" << inUnit(S.Median, U)
       << "</td><td class=\"num\">" << inUnit(S.Min, U)
       << "</td><td class=\"num\">" << inUnit(S.Max, U) << "</td></tr>\n";
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
    OS << "<th class=\"num\">CPU" << escape(Suffix) << " (" << U.Name
       << ")</th><th class=\"num\">Wall" << escape(Suffix) << " (" << U.Name
       << ")</th>";
  }
  OS << "</tr></thead>\n<tbody>\n";
  for (size_t I = 0; I < First.Variants.size(); ++I) {
    OS << "<tr><td>" << escape(First.Variants[I].Id) << "</td>";
    for (const BuildResult &B : R.Builds)
      OS << "<td class=\"num\">" << inUnit(B.CpuMedian[I], U)
         << "</td><td class=\"num\">" << inUnit(B.WallMedian[I], U) << "</td>";
    OS << "</tr>\n";
  }
  OS << "</tbody>\n</table>\n";
  endPage(OS);
  return Page;
}

//===----------------------------------------------------------------------===//
// The command
//===----------------------------------------------------------------------===//

int runPerfCommand(const PerfCommandLine &C) {
  if (C.Bench.empty())
    return reportError(fail("no benchmark command: give it after '--', e.g. "
                            "divtool perf ... -- ./app input.txt"));
  if (!C.Compare.empty() && !C.CompareSource.empty())
    return reportError(
        fail("--compare and --compare-source cannot be used together"));
  if (!C.Compare.empty() && !C.Build.empty())
    return reportError(fail("--compare names both build commands: leave out "
                            "--build"));
  if (C.Compare.empty() && C.Build.empty())
    return reportError(fail("no build command: give --build 'COMMAND' (e.g. "
                            "--build 'make CC=divcc'), or --compare A B"));
  if (!C.CompareSource.empty() && !C.Source.empty())
    return reportError(
        fail("--compare-source names both source trees: leave out --source"));

  PerfResult R;
  R.Bench = C.Bench;
  R.Runs = C.Runs;
  R.Warmup = C.Warmup;
  R.UseCpu = C.Metric == "cpu";
  R.Confidence = C.Confidence;

  auto Resolve = [](StringRef Dir) -> Expected<std::string> {
    SmallString<256> Real;
    if (std::error_code EC = sys::fs::real_path(Dir.empty() ? "." : Dir, Real))
      return fail("source tree '" + Dir + "': " + EC.message());
    if (!sys::fs::is_directory(Real))
      return fail("source tree '" + Real + "' is not a directory");
    return std::string(Real);
  };
  if (!C.Compare.empty()) {
    for (size_t I = 0; I < 2; ++I) {
      Expected<std::vector<std::string>> Words =
          splitCommand(C.Compare[I], "--compare's build " + buildName(I));
      if (!Words)
        return reportError(Words.takeError());
      Expected<std::string> Source = Resolve(C.Source);
      if (!Source)
        return reportError(Source.takeError());
      R.Builds.push_back(makeBuild(buildName(I), *Words, *Source));
    }
  } else {
    Expected<std::vector<std::string>> Words = splitCommand(C.Build, "--build");
    if (!Words)
      return reportError(Words.takeError());
    if (C.CompareSource.empty()) {
      Expected<std::string> Source = Resolve(C.Source);
      if (!Source)
        return reportError(Source.takeError());
      R.Builds.push_back(makeBuild("build", *Words, *Source));
    } else {
      for (size_t I = 0; I < 2; ++I) {
        Expected<std::string> Source = Resolve(C.CompareSource[I]);
        if (!Source)
          return reportError(Source.takeError());
        R.Builds.push_back(makeBuild(buildName(I), *Words, *Source));
      }
    }
  }

  // The seed: the user's master secret, or a fresh one for this run only.
  Expected<PrivateDir> Private = PrivateDir::create("divtool-perf");
  if (!Private)
    return reportError(Private.takeError());
  std::string SeedFile = C.SeedFile;
  if (SeedFile.empty()) {
    Expected<std::string> Drawn = randomSeedFile(*Private);
    if (!Drawn)
      return reportError(Drawn.takeError());
    SeedFile = *Drawn;
  } else if (Expected<MasterKey> Key = readSeedFile(SeedFile); !Key) {
    return reportError(Key.takeError()); // Before anything is built.
  }

  // Where the variants go: --out, or the private directory (removed at the
  // end unless --keep).
  std::string Out = C.Out;
  if (Out.empty()) {
    Out = Private->path() + "/population";
    if (C.Keep)
      Private->keep();
  }
  for (BuildResult &B : R.Builds) {
    std::string Dir = R.Builds.size() == 1 ? Out : Out + "/" + B.Name;
    if (Error E = buildVariants(C, B, SeedFile, Dir))
      return reportError(std::move(E));
  }
  if (R.Builds.size() == 2)
    R.IdenticalBuilds = sameArtifacts(R.Builds[0], R.Builds[1], SeedFile);

  if (Error E = measure(C, R))
    return reportError(std::move(E));

  if (!C.Html.empty())
    if (Error E = writeFileAtomically(C.Html, perfHtml(R)))
      return reportError(fail("cannot write the HTML report '" + C.Html +
                              "': " + toString(std::move(E))));
  if (C.Json)
    outs() << perfJson(R);
  else
    printTable(R, outs());
  if (C.Keep && C.Out.empty())
    errs() << "divtool perf: the variants are kept in " << Out << "\n";
  return 0;
}

} // namespace

void addPerfSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<PerfCommandLine>();
  CLI::App *Perf = Divtool.add_subcommand(
      "perf", "Time a benchmark over K layout variants: mean, spread and a "
              "confidence interval; with --compare, a significance test "
              "between two builds");
  Perf->add_option("--variants,-n", C->Variants,
                   "How many variants (code layouts) to build and measure")
      ->required()
      ->check(CLI::Range(2u, 10000u));
  Perf->add_option("--build,-b", C->Build,
                   "The project's build command, one string split into words "
                   "like a shell (e.g. 'make CC=divcc')");
  Perf->add_option("--compare", C->Compare,
                   "Compare two builds: build commands A and B, each one "
                   "string")
      ->expected(2);
  Perf->add_option("--compare-source", C->CompareSource,
                   "Compare two source trees A and B, built with --build")
      ->expected(2);
  Perf->add_option("--seed-file,-k", C->SeedFile,
                   "The master secret the variants' seeds derive from "
                   "(default: a fresh random one for this run)");
  Perf->add_option("--source,-s", C->Source,
                   "The source tree to copy (default: the current directory)");
  Perf->add_option("--out,-o", C->Out,
                   "Where to build the variants, a population directory, or "
                   "DIR/A and DIR/B when comparing (default: a temporary "
                   "directory, removed at the end)");
  Perf->add_option("--runs,-r", C->Runs,
                   "Runs of the benchmark per variant; a variant's time is "
                   "their median")
      ->default_val(1)
      ->check(CLI::Range(1u, 1000u));
  Perf->add_option("--warmup", C->Warmup,
                   "Unmeasured runs per variant before the measured ones")
      ->default_val(0)
      ->check(CLI::Range(0u, 1000u));
  Perf->add_option("-j,--jobs", C->Jobs,
                   "Build J variants at a time (benchmarks run one at a time)")
      ->default_val(1)
      ->check(CLI::Range(1u, 256u));
  Perf->add_option("--metric", C->Metric,
                   "What the statistics are of: cpu (user + system time of "
                   "the benchmark and its children) or wall")
      ->default_val("cpu")
      ->check(CLI::IsMember({"cpu", "wall"}));
  Perf->add_option("--confidence", C->Confidence,
                   "The confidence level of the intervals; the test is at "
                   "1 - LEVEL")
      ->default_val(0.95)
      ->check(CLI::Range(0.5, 0.999));
  Perf->add_flag("--json", C->Json, "Print JSON instead of the table");
  Perf->add_option("--html", C->Html,
                   "Also write a self-contained HTML report with plots");
  Perf->add_flag("--keep", C->Keep,
                 "Keep the temporary directory of the variants (without "
                 "--out)");
  Perf->add_flag("--progress,!--no-progress", C->Progress,
                 "Show progress lines updated in place on stderr (default: "
                 "when it is a terminal)");
  Perf->add_option("command", C->Bench,
                   "The benchmark command, after '--', run in each variant's "
                   "tree (e.g. ./app input.txt)");
  Perf->footer(
      "Each variant is built as by divtool population (a copy of the source "
      "tree, the build command, a seed per variant) and the benchmark runs "
      "in its tree, its output going to DIR/variants/ID/bench.log. A "
      "variant's time is the median of its runs; the statistics are over "
      "variants.\n\nExit status: 0 on success, 1 on bad input or when a "
      "build or the benchmark fails, 2 on a usage error.");
  Perf->callback([&Run, C] { Run = [C] { return runPerfCommand(*C); }; });
}

} // namespace divcc
