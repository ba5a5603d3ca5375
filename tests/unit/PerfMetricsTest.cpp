//===- PerfMetricsTest.cpp - divtool perf's metrics and cachegrind counts -===//
//
// The metrics' names and the choice among --metric, --instructions and
// --misses; the counts read from hand-written cachegrind output files in
// the format of valgrind 3.19 (an "events:" line, then a "summary:" line
// with a total per event), summed over the files of a run's processes.
//
//===----------------------------------------------------------------------===//

#include "divtool/perf/Perf.h"

#include "TempDir.h"

#include <gtest/gtest.h>

using namespace divcc;
using namespace llvm;

namespace {

// As cachegrind --cache-sim=yes --branch-sim=yes writes them (trimmed):
// the events line ends in a space, the per-line counts are left out.
const char *Parent =
    "desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
    "cmd: ./app\n"
    "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm "
    "Bi Bim \n"
    "fl=app.c\n"
    "fn=main\n"
    "3 10 1 1 4 1 1 2 0 0 1 1\n"
    "summary: 7119700 1314 1291 1830213 1159 1007 811034 "
    "377 353 1023212 9788 100303 165\n";
const char *Child = "cmd: /bin/sh -c true\n"
                    "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm "
                    "Bi Bim\n"
                    "summary: 230555 1515 1495 57261 1823 1510 20663 504 471 "
                    "41116 4432 1195 238\n";

/// \p E's message, or "" for success.
std::string messageOf(Error E) { return E ? toString(std::move(E)) : ""; }
template <typename T> std::string messageOf(Expected<T> X) {
  return messageOf(X.takeError());
}

std::vector<Metric> allCounts() {
  return measuredWith(Metric::Instructions, /*Misses=*/true);
}

TEST(PerfMetricsTest, Names) {
  for (Metric M : allMetrics())
    EXPECT_EQ(parseMetric(info(M).Name), M) << info(M).Name;
  EXPECT_EQ(parseMetric("d1-misses"), Metric::D1Misses);
  EXPECT_EQ(parseMetric("mispredicts"), Metric::Mispredicts);
  EXPECT_FALSE(parseMetric("D1-misses"));
  EXPECT_FALSE(parseMetric(""));
  EXPECT_FALSE(isCount(Metric::Wall));
  EXPECT_TRUE(isCount(Metric::Instructions));
  EXPECT_FALSE(isSimulated(Metric::Instructions));
  EXPECT_TRUE(isSimulated(Metric::LLMisses));
  EXPECT_EQ(unitFor(Metric::D1Misses, 2500).Name, "K misses");
  EXPECT_EQ(unitFor(Metric::Mispredicts, 12).Name, "mispredicts");
  EXPECT_EQ(unitFor(Metric::Instructions, 3e9).Name, "G instructions");
}

TEST(PerfMetricsTest, Measured) {
  using V = std::vector<Metric>;
  EXPECT_EQ(measuredWith(Metric::Cpu), (V{Metric::Cpu, Metric::Wall}));
  EXPECT_EQ(measuredWith(Metric::Wall), (V{Metric::Cpu, Metric::Wall}));
  EXPECT_EQ(measuredWith(Metric::Instructions), V{Metric::Instructions});
  V All = {Metric::Instructions, Metric::I1Misses, Metric::D1Misses,
           Metric::LLMisses, Metric::Mispredicts};
  EXPECT_EQ(measuredWith(Metric::Instructions, /*Misses=*/true), All);
  // A miss metric brings the simulators, hence every count.
  EXPECT_EQ(measuredWith(Metric::D1Misses), All);
}

Expected<Metric> choose(StringRef Name, bool Instructions, bool Misses) {
  PerfOptions C;
  C.MetricName = Name.str();
  C.Instructions = Instructions;
  C.Misses = Misses;
  return chooseMetric(C);
}

/// The metric chosen, or none for an error.
std::optional<Metric> chosen(StringRef Name, bool Instructions, bool Misses) {
  Expected<Metric> M = choose(Name, Instructions, Misses);
  if (!M) {
    consumeError(M.takeError());
    return std::nullopt;
  }
  return *M;
}

TEST(PerfMetricsTest, Choice) {
  EXPECT_EQ(chosen("", false, false), Metric::Cpu);
  EXPECT_EQ(chosen("wall", false, false), Metric::Wall);
  EXPECT_EQ(chosen("", true, false), Metric::Instructions);
  EXPECT_EQ(chosen("instructions", true, true), Metric::Instructions);
  EXPECT_EQ(chosen("", true, true), Metric::Instructions);
  EXPECT_EQ(chosen("d1-misses", false, false), Metric::D1Misses);
  EXPECT_EQ(chosen("ll-misses", false, true), Metric::LLMisses);
  EXPECT_EQ(messageOf(choose("cpu", true, false)),
            "--instructions is short for --metric instructions: "
            "leave out --metric cpu");
  EXPECT_EQ(messageOf(choose("d1-misses", true, false)),
            "--instructions is short for --metric instructions: "
            "leave out --metric d1-misses");
  EXPECT_EQ(messageOf(choose("", false, true)),
            "--misses adds cache misses and mispredicts to the "
            "instruction count: give --instructions too");
  EXPECT_EQ(messageOf(choose("wall", false, true)),
            "--misses adds cache misses and mispredicts to the "
            "instruction count: give --instructions instead "
            "of --metric wall");
  EXPECT_EQ(messageOf(choose("speed", false, false)),
            "unknown --metric 'speed'");
}

TEST(PerfMetricsTest, OneFile) {
  StringMap<uint64_t> Totals;
  ASSERT_EQ(messageOf(addCachegrindTotals(Parent, "out.1", Totals)), "");
  EXPECT_EQ(Totals.size(), 13u);
  EXPECT_EQ(Totals.lookup("Ir"), 7119700u);
  EXPECT_EQ(Totals.lookup("D1mw"), 377u);
  EXPECT_EQ(Totals.lookup("Bim"), 165u);
  // Added to what is there.
  ASSERT_EQ(messageOf(addCachegrindTotals(Child, "out.2", Totals)), "");
  EXPECT_EQ(Totals.lookup("Ir"), 7119700u + 230555u);
  EXPECT_EQ(Totals.lookup("Bim"), 165u + 238u);
}

TEST(PerfMetricsTest, WithoutSimulation) {
  // --cache-sim=no --branch-sim=no: instructions only.
  StringMap<uint64_t> Totals;
  ASSERT_EQ(
      messageOf(addCachegrindTotals(
          "events: Ir\nfl=a.c\n1 5\nsummary: 7119700\n", "out.1", Totals)),
      "");
  EXPECT_EQ(Totals.size(), 1u);
  EXPECT_EQ(Totals.lookup("Ir"), 7119700u);
}

TEST(PerfMetricsTest, BadFiles) {
  StringMap<uint64_t> Totals;
  EXPECT_EQ(messageOf(addCachegrindTotals("events: Ir\n", "out.1", Totals)),
            "valgrind's output 'out.1' has no summary line");
  EXPECT_EQ(messageOf(addCachegrindTotals("summary: 12\n", "out.1", Totals)),
            "valgrind's output 'out.1' has no events line");
  EXPECT_EQ(messageOf(addCachegrindTotals("events: Ir\nsummary: 12 3\n",
                                          "out.1", Totals)),
            "valgrind's output 'out.1' has more counts in its summary line "
            "than events in its events line");
  EXPECT_EQ(messageOf(addCachegrindTotals("events: Ir Dr\nsummary: 12 x\n",
                                          "out.1", Totals)),
            "valgrind's output 'out.1' has a bad summary count: x");
}

TEST(PerfMetricsTest, SummedOverProcesses) {
  TempDir Dir;
  Dir.write("out.100", Parent);
  Dir.write("out.101", Child);
  Expected<MetricValues> V = readCachegrindCounts(Dir.Path, allCounts(), "log");
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_EQ((*V)[size_t(Metric::Instructions)], 7119700 + 230555);
  EXPECT_EQ((*V)[size_t(Metric::I1Misses)], 1314 + 1515);
  // D1mr + D1mw.
  EXPECT_EQ((*V)[size_t(Metric::D1Misses)], 1159 + 377 + 1823 + 504);
  // ILmr + DLmr + DLmw.
  EXPECT_EQ((*V)[size_t(Metric::LLMisses)],
            1291 + 1007 + 353 + 1495 + 1510 + 471);
  // Bcm + Bim.
  EXPECT_EQ((*V)[size_t(Metric::Mispredicts)], 9788 + 165 + 4432 + 238);
  EXPECT_EQ((*V)[size_t(Metric::Cpu)], 0);
}

TEST(PerfMetricsTest, CountsMissingFromTheFiles) {
  TempDir Dir;
  Dir.write("out.100", "events: Ir\nsummary: 7119700\n");
  Expected<MetricValues> V =
      readCachegrindCounts(Dir.Path, {Metric::Instructions}, "log");
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_EQ((*V)[size_t(Metric::Instructions)], 7119700);
  // Instructions alone were counted: no simulation to read misses from.
  EXPECT_EQ(messageOf(readCachegrindCounts(Dir.Path, allCounts(), "log")),
            "valgrind's output in '" + Dir.Path +
                "' has no I1mr count, which i1-misses needs; see log");
  TempDir Empty;
  EXPECT_EQ(
      messageOf(readCachegrindCounts(Empty.Path, allCounts(), "bench.log")),
      "valgrind wrote no instruction counts in '" + Empty.Path +
          "'; see bench.log");
}

} // namespace
