//===- PerfCommand.cpp - `divtool perf`: the command line -----------------===//
//
// Checks the options, resolves the builds to compare, chooses the master key
// (the seed file's, or a fresh one) and the variants' directory, and hands
// them to the measurement (Measure.cpp) and the reports (Report.cpp,
// HtmlReport.cpp). The method is described in Perf.h.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/perf/Perf.h"

#include "random/SeedFile.h"
#include "support/AtomicOutput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

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

int runPerfCommand(const PerfOptions &C, const DivccEnvironment &Env) {
  if (C.Bench.empty())
    return reportError(makeError("no benchmark command: give it after '--', "
                                 "e.g. divtool perf ... -- ./app input.txt"));
  if (!C.Compare.empty() && !C.CompareSource.empty())
    return reportError(
        makeError("--compare and --compare-source cannot be used together"));
  if (!C.Compare.empty() && !C.Build.empty())
    return reportError(makeError("--compare names both build commands: leave "
                                 "out --build"));
  if (C.Compare.empty() && C.Build.empty())
    return reportError(makeError("no build command: give --build 'COMMAND' "
                                 "(e.g. --build 'make CC=divcc'), or "
                                 "--compare A B"));
  if (!C.CompareSource.empty() && !C.Source.empty())
    return reportError(makeError(
        "--compare-source names both source trees: leave out --source"));

  Expected<Metric> Chosen = chooseMetric(C);
  if (!Chosen)
    return reportError(Chosen.takeError());

  PerfResult R;
  R.Bench = C.Bench;
  R.Runs = C.Runs;
  R.Warmup = C.Warmup;
  R.Chosen = *Chosen;
  R.Simulated = isCount(R.Chosen) && (C.Misses || isSimulated(R.Chosen));
  R.Measured = measuredWith(R.Chosen, R.Simulated);
  R.Confidence = C.Confidence;
  if (isCount(R.Chosen)) {
    ErrorOr<std::string> Valgrind = sys::findProgramByName("valgrind");
    if (!Valgrind)
      return reportError(makeError(
          "--metric " + Twine(info(R.Chosen).Name) + " counts " +
          info(R.Chosen).Axis +
          " with valgrind, which is not on PATH: install valgrind (e.g. "
          "apt-get install valgrind)"));
    R.Valgrind = *Valgrind;
  }
  if (!C.Geometry.empty() && !R.Simulated)
    return reportError(makeError(
        "--cache-geometry sets the caches cachegrind simulates: give it with "
        "--instructions --misses or a simulated --metric (cycles, i1-misses, "
        "d1-misses, ll-misses, mispredicts)"));
  if (R.Simulated) {
    Expected<CacheGeometry> Caches =
        parseCacheGeometry(C.Geometry.empty() ? "server" : C.Geometry);
    if (!Caches)
      return reportError(Caches.takeError());
    R.Caches = std::move(*Caches);
  }

  // The builds: two commands on one source tree, one command on two source
  // trees, or one of each.
  bool CompareCommands = !C.Compare.empty();
  std::vector<std::string> Sources = C.CompareSource.empty()
                                         ? std::vector<std::string>{C.Source}
                                         : C.CompareSource;
  size_t Builds = CompareCommands ? 2 : Sources.size();
  for (size_t I = 0; I < Builds; ++I) {
    Expected<std::vector<std::string>> Words =
        CompareCommands
            ? splitCommand(C.Compare[I], "--compare's build " + buildName(I))
            : splitCommand(C.Build, "--build");
    if (!Words)
      return reportError(Words.takeError());
    Expected<std::string> Source =
        resolveSourceTree(Sources[CompareCommands ? 0 : I]);
    if (!Source)
      return reportError(Source.takeError());
    R.Builds.push_back(
        makeBuild(Builds == 1 ? "build" : buildName(I), *Words, *Source));
  }

  // The master key: the seed file's, read before anything is built, or a
  // fresh one for this run only.
  Expected<MasterKey> Key =
      C.SeedFile.empty() ? MasterKey::fresh() : readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  Expected<PrivateDir> Private = PrivateDir::create("divtool-perf");
  if (!Private)
    return reportError(Private.takeError());

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
    if (Error E = buildVariants(C, B, *Key, Dir, Env))
      return reportError(std::move(E));
  }
  if (R.Builds.size() == 2)
    R.IdenticalBuilds = sameArtifacts(R.Builds[0], R.Builds[1], *Key);

  if (Error E = measure(C, R))
    return reportError(std::move(E));

  if (!C.Html.empty())
    if (Error E = writeFileAtomically(C.Html, perfHtml(R)))
      return reportError(makeError("cannot write the HTML report '" + C.Html +
                                   "': " + toString(std::move(E))));
  if (C.Json)
    outs() << perfJson(R);
  else
    printTable(R, outs());
  if (C.Keep && C.Out.empty())
    noteStream() << "the variants are kept in " << Out << "\n";
  return 0;
}

} // namespace

void addPerfSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<PerfOptions>();
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
  addSeedFileOption(*Perf, C->SeedFile,
                    "The master secret the variants' seeds derive from "
                    "(default: a fresh random one for this run)");
  addSourceOption(*Perf, C->Source);
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
  addJobsOption(*Perf, C->Jobs,
                "Build J variants at a time (benchmarks run one at a time)");
  std::vector<std::string> MetricNames;
  for (Metric M : allMetrics())
    MetricNames.push_back(info(M).Name);
  Perf->add_option("--metric", C->MetricName,
                   "What the statistics and the test are of: cpu (user + "
                   "system time of the benchmark and its children), wall, "
                   "or counts of valgrind's cachegrind (slow, but free of "
                   "noise): instructions (executed), i1-misses (L1 "
                   "instruction cache), d1-misses (L1 data cache, reads + "
                   "writes), ll-misses (last-level cache, instructions + "
                   "data), mispredicts (conditional + indirect branches), "
                   "cycles (cachegrind's classic estimate: " +
                       cyclesFormula() +
                       "); the caches and the predictor are cachegrind's "
                       "simulation, not the machine's (see "
                       "--cache-geometry)")
      ->default_str("cpu")
      ->check(CLI::IsMember(MetricNames));
  Perf->add_flag("--instructions", C->Instructions,
                 "Short for --metric instructions");
  Perf->add_flag("--misses", C->Misses,
                 "With --metric instructions: also simulate the caches and "
                 "the branch predictor and report every count, the "
                 "estimated cycles included (implied by i1-misses, "
                 "d1-misses, ll-misses, mispredicts and cycles)");
  CacheGeometry Server = cantFail(parseCacheGeometry("server"));
  Perf->add_option("--cache-geometry", C->Geometry,
                   "The caches cachegrind simulates for the miss and cycle "
                   "counts: server (the default: " +
                       Server.describe() +
                       ", as an Intel Ice Lake server core; valgrind " +
                       join(Server.valgrindOptions(), " ") +
                       "), host (valgrind's default: the caches of the "
                       "machine it runs on), or I1:D1:LL, each "
                       "SIZE,ASSOC,LINE in bytes as valgrind's --I1, --D1 "
                       "and --LL (e.g. " +
                       ServerCacheGeometry + ")")
      ->default_str("server");
  Perf->add_option("--confidence", C->Confidence,
                   "The confidence level of the intervals; the test is at "
                   "1 - LEVEL")
      ->default_val(0.95)
      ->check(CLI::Range(0.5, 0.999));
  Perf->add_flag("--json", C->Json, "Print JSON instead of the table");
  Perf->add_option("--html", C->Html,
                   "Also write a self-contained HTML report with plots");
  addKeepFlag(*Perf, C->Keep,
              "Keep the temporary directory of the variants (without --out)");
  addProgressFlag(*Perf, C->Progress,
                  "Show progress lines updated in place on stderr (default: "
                  "when it is a terminal)");
  addCommandArgument(*Perf, C->Bench,
                     "The benchmark command, after '--', run in each "
                     "variant's tree (e.g. ./app input.txt)");
  Perf->footer(
      "Each variant is built as by divtool population (a copy of the source "
      "tree, the build command, a seed per variant) and the benchmark runs "
      "in its tree, its output going to DIR/variants/ID/bench.log. A "
      "variant's time is the median of its runs; the statistics are over "
      "variants.\n\nExit status: 0 on success, 1 on bad input or when a "
      "build or the benchmark fails, 2 on a usage error.");
  runWhenChosen(*Perf, Run, C, runPerfCommand);
}

} // namespace divcc
