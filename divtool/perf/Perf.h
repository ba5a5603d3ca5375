//===- Perf.h - `divtool perf`: timing that controls for layout -----------===//
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
//      wall-clock time of each run; or, with --metric instructions, the
//      dynamic instruction count of each run, from valgrind's cachegrind
//      (summed over the benchmark and every process it starts), a
//      noise-free measure of work, blind to caches and branch prediction;
//      or, with --misses or a simulated metric (d1-misses..., cycles), the
//      instructions and the misses of cachegrind's simulated caches and
//      branch predictor, equally free of noise, and the cycles they are
//      estimated to cost (cyclesFormula()); the caches simulated are those
//      of a current server core unless --cache-geometry says otherwise
//      (ServerCacheGeometry);
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
// Secrets: the master key goes only to buildPopulation (Population.h), which
// keeps it out of every command line, environment, file and log. Without
// --seed-file, a fresh master key is drawn (MasterKey::fresh) for this run
// only; it is never written or shown.
//
// The files: PerfCommand.cpp is the command line, Measure.cpp builds and
// times the variants, Report.cpp prints the table and the JSON,
// HtmlReport.cpp writes the HTML report.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_PERF_PERF_H
#define DIVCC_DIVTOOL_PERF_PERF_H

#include "divtool/perf/Statistics.h"
#include "random/SecretSeed.h"
#include "registry/Registry.h"
#include "support/Environment.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace divcc {

/// `divtool perf`'s options, one field per flag.
struct PerfOptions {
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
  /// Empty when --metric is not given (cpu, unless --instructions).
  std::string MetricName;
  bool Instructions = false;
  bool Misses = false;
  /// --cache-geometry; empty when not given (ServerCacheGeometry).
  std::string Geometry;
  double Confidence = 0.95;
  bool Json = false;
  std::string Html;
  bool Keep = false;
  std::optional<bool> Progress;
  std::vector<std::string> Bench;
};

/// What a run is measured by. Cpu and Wall are measured together (the
/// statistics are of the chosen one). The others are counted by valgrind's
/// cachegrind: Instructions alone, or, with the cache and branch simulators
/// on, all six together.
enum class Metric {
  Cpu,
  Wall,
  Instructions,
  I1Misses,    ///< I1mr: misses of the simulated L1 instruction cache.
  D1Misses,    ///< D1mr + D1mw: of the L1 data cache, reads and writes.
  LLMisses,    ///< ILmr + DLmr + DLmw: of the last-level cache.
  Mispredicts, ///< Bcm + Bim: conditional and indirect branches.
  Cycles,      ///< Estimated from all of the above: cyclesFormula().
};
constexpr size_t NumMetrics = 8;

/// How a metric is named and reported.
struct MetricInfo {
  const char *Name;        ///< --metric's value, JSON's "metric": "cpu".
  const char *Description; ///< "CPU time (user + system)".
  const char *Axis;        ///< A plot's axis title: "CPU time".
  const char *RunsKey;     ///< A variant's runs in the JSON: "cpu_seconds".
  const char *MedianKey;   ///< A variant's median in the JSON: "cpu_median".
  const char *Counted;     ///< What a count counts: "misses"; null for times.
};
const MetricInfo &info(Metric M);
std::optional<Metric> parseMetric(llvm::StringRef Name);
/// Every metric, in the order of the enum (and of the columns).
llvm::ArrayRef<Metric> allMetrics();
/// Whether \p M is counted under cachegrind rather than timed.
inline bool isCount(Metric M) { return info(M).Counted != nullptr; }
/// Whether \p M needs cachegrind's cache and branch simulators.
inline bool isSimulated(Metric M) { return M > Metric::Instructions; }
/// The metric the statistics are of, from --metric, --instructions and
/// --misses; an error when they contradict each other.
llvm::Expected<Metric> chooseMetric(const PerfOptions &C);
/// The metrics measured when the statistics are of \p M, with the cache
/// and branch simulators if \p Misses (implied by a simulated \p M).
std::vector<Metric> measuredWith(Metric M, bool Misses = false);

/// A value per metric; only the measured ones are meaningful.
using MetricValues = std::array<double, NumMetrics>;

/// What a miss is estimated to cost in cycles, in the classic estimate of
/// cachegrind's counts (KCachegrind's "cycle estimation", CEst = Ir + 10 Bm
/// + 10 L1m + 100 LLm): a first-level miss or a mispredicted branch 10, a
/// last-level miss 100, on top of one cycle per instruction.
constexpr uint64_t L1MissCycles = 10;
constexpr uint64_t LLMissCycles = 100;
/// The estimate, as text, from the table the counts are computed with:
/// "Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr +
/// DLmw)".
std::string cyclesFormula();

/// The caches cachegrind simulates: valgrind's --I1, --D1 and --LL, or
/// none of them (valgrind's default: the caches of the machine it runs on,
/// as it reads them from the CPU).
struct CacheGeometry {
  /// "server", "host", or "custom" (given as numbers).
  std::string Name;
  /// SIZE,ASSOC,LINE of I1, D1 and LL; empty for "host".
  std::vector<std::array<uint64_t, 3>> Levels;

  bool isHost() const { return Levels.empty(); }
  /// valgrind's options: --I1=32768,8,64 --D1=... --LL=...; none for host.
  std::vector<std::string> valgrindOptions() const;
  /// "I1 32 KiB 8-way, D1 48 KiB 12-way, LL 1.25 MiB 20-way, 64-byte
  /// lines", or what host means.
  std::string describe() const;
};
/// The default geometry, --cache-geometry server: a current server core,
/// as an Intel Ice Lake server core (Sunny Cove): 32 KiB 8-way L1i, 48 KiB
/// 12-way L1d and its 1.25 MiB 20-way L2 as the last level (cachegrind
/// simulates two levels; the L3 that all cores share is left out), 64-byte
/// lines. As I1:D1:LL, each SIZE,ASSOC,LINE.
constexpr const char *ServerCacheGeometry =
    "32768,8,64:49152,12,64:1310720,20,64";
/// --cache-geometry's value: "server", "host", or I1:D1:LL, each
/// SIZE,ASSOC,LINE in bytes (as valgrind's --I1, --D1, --LL); valgrind
/// needs a power of two of sets and of the line size, at least 16 bytes.
llvm::Expected<CacheGeometry> parseCacheGeometry(llvm::StringRef Text);

/// Adds the totals of one cachegrind output file, \p Text (its "events:"
/// line names the events, its "summary:" line gives their totals), to
/// \p Totals, by event name ("Ir", "D1mr"). \p File names it in errors.
llvm::Error addCachegrindTotals(llvm::StringRef Text, llvm::StringRef File,
                                llvm::StringMap<uint64_t> &Totals);
/// The counted metrics of \p Wanted, summed over the cachegrind output
/// files in \p Dir (one per process); \p Log is named when there are none.
llvm::Expected<MetricValues> readCachegrindCounts(llvm::StringRef Dir,
                                                  llvm::ArrayRef<Metric> Wanted,
                                                  llvm::StringRef Log);

/// What was measured of one metric in one build.
struct MetricData {
  /// Per variant, the value of each run (seconds or instructions).
  std::vector<std::vector<double>> Runs;
  /// Per variant, the median of its runs.
  std::vector<double> Medians;
  /// Over the variants' medians.
  Summary Sum;
};

/// A build configuration and what was measured of it.
struct BuildResult {
  std::string Name; ///< "A", "B", or "build" alone.
  std::vector<std::string> Command;
  std::string Source;
  std::string Out, RegistryPath;
  std::vector<VariantRecord> Variants;
  /// By metric; only the measured ones are filled in.
  std::array<MetricData, NumMetrics> Data;

  MetricData &of(Metric M) { return Data[size_t(M)]; }
  const MetricData &of(Metric M) const { return Data[size_t(M)]; }
  const std::vector<double> &medians(Metric M) const { return of(M).Medians; }
  const Summary &summary(Metric M) const { return of(M).Sum; }
};

struct PerfResult {
  std::vector<std::string> Bench;
  unsigned Runs = 0, Warmup = 0;
  /// The metric the statistics and the test are of.
  Metric Chosen = Metric::Cpu;
  /// The metrics measured: measuredWith(Chosen, Simulated).
  std::vector<Metric> Measured;
  /// Cachegrind simulated the caches and the branch predictor, with the
  /// geometry of Caches.
  bool Simulated = false;
  CacheGeometry Caches;
  /// valgrind's path, for the counted metrics.
  std::string Valgrind;
  double Confidence = 0.95;
  std::vector<BuildResult> Builds;
  std::optional<WelchResult> Welch;
  /// Every variant of B is byte for byte the same variant of A.
  bool IdenticalBuilds = false;

  /// 1 - Confidence, without the rounding error (0.05, not 0.05000...04).
  double alpha() const { return std::round((1 - Confidence) * 1e9) / 1e9; }
  bool significant() const { return Welch && Welch->P < alpha(); }
  std::string metricName() const { return info(Chosen).Description; }
  /// The metrics whose statistics are reported: the chosen one alone (wall
  /// time's are not shown for cpu), or, with the simulators, every count.
  std::vector<Metric> reported() const {
    return Simulated ? Measured : std::vector<Metric>{Chosen};
  }
};

/// Builds the K variants of \p B's configuration into \p Out, with seeds
/// derived from \p Key, and reads back what the registry recorded of them.
llvm::Error buildVariants(const PerfOptions &C, BuildResult &B,
                          const MasterKey &Key, llvm::StringRef Out,
                          const DivccEnvironment &Env);
/// Whether every variant of \p A has the same artifacts as that of \p B.
bool sameArtifacts(const BuildResult &A, const BuildResult &B,
                   const MasterKey &Key);
/// Runs the benchmark in every variant's tree, round by round, and fills in
/// the times, the medians, the summaries and the test.
llvm::Error measure(const PerfOptions &C, PerfResult &R);

/// A unit for values of a metric around \p Typical: for times "s", "ms" or
/// "us"; for counts "G instructions", "K misses" and so on.
struct Unit {
  std::string Name;  ///< After a value: "ms", "G instructions".
  std::string Short; ///< In a column's header: "ms", "G"; may be empty.
  double Scale;      ///< The unit's size: 1e-3 for ms, 1e9 for G.
};

Unit unitFor(Metric M, double Typical);
/// The unit \p M's values are shown in: times in that of the chosen time,
/// each count in its own, both from the first build's mean.
Unit unitOf(const PerfResult &R, Metric M);
/// "cpu (ms)", "instructions (G)": a column's header.
std::string columnHeader(Metric M, const Unit &U, llvm::StringRef Suffix = "");
/// \p V with \p Digits significant digits (at least one decimal below 10).
std::string significant(double V, int Digits = 4);
/// \p V in \p U, with four significant digits.
std::string inUnit(double V, const Unit &U);
/// "+1.25%" for 0.0125; "n/a" if not finite.
std::string signedPercent(double Share);
/// "95%" for 0.95, "99.5%" for 0.995.
std::string levelPercent(double Level);
/// "no significant difference at 5%" or "significant at 5% (B is slower)".
std::string verdict(const PerfResult &R);

/// The table divtool perf prints.
void printTable(const PerfResult &R, llvm::raw_ostream &OS);
/// The results as JSON (--json).
std::string perfJson(const PerfResult &R);
/// A self-contained HTML page with the results and plots (--html).
std::string perfHtml(const PerfResult &R);

} // namespace divcc

#endif
