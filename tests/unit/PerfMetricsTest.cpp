//===- PerfMetricsTest.cpp - divtool perf's metrics and cachegrind counts -===//
//
// The metrics' names and the choice among --metric, --instructions and
// --misses; the counts read from hand-written cachegrind output files in
// the format of valgrind 3.19 (an "events:" line, then a "summary:" line
// with a total per event), summed over the files of a run's processes;
// the estimated cycles computed from them; --cache-geometry.
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
  EXPECT_EQ(parseMetric("cycles"), Metric::Cycles);
  EXPECT_TRUE(isCount(Metric::Cycles));
  EXPECT_TRUE(isSimulated(Metric::Cycles));
  EXPECT_EQ(unitFor(Metric::Cycles, 4.5e6).Name, "M cycles");
}

TEST(PerfMetricsTest, Measured) {
  using V = std::vector<Metric>;
  EXPECT_EQ(measuredWith(Metric::Cpu), (V{Metric::Cpu, Metric::Wall}));
  EXPECT_EQ(measuredWith(Metric::Wall), (V{Metric::Cpu, Metric::Wall}));
  EXPECT_EQ(measuredWith(Metric::Instructions), V{Metric::Instructions});
  V All = {Metric::Instructions, Metric::I1Misses,    Metric::D1Misses,
           Metric::LLMisses,     Metric::Mispredicts, Metric::Cycles};
  EXPECT_EQ(measuredWith(Metric::Instructions, /*Misses=*/true), All);
  // A miss metric brings the simulators, hence every count.
  EXPECT_EQ(measuredWith(Metric::D1Misses), All);
  EXPECT_EQ(measuredWith(Metric::Cycles), All);
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
  EXPECT_EQ(chosen("cycles", false, false), Metric::Cycles);
  EXPECT_EQ(chosen("cycles", false, true), Metric::Cycles);
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
  // Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr +
  // DLmw), of the sums.
  EXPECT_EQ((*V)[size_t(Metric::Cycles)],
            (7119700 + 230555) +
                10 * ((1314 + 1515) + (1159 + 377 + 1823 + 504) +
                      (9788 + 165 + 4432 + 238)) +
                100 * (1291 + 1007 + 353 + 1495 + 1510 + 471));
  EXPECT_EQ((*V)[size_t(Metric::Cycles)],
            (*V)[size_t(Metric::Instructions)] +
                10 * ((*V)[size_t(Metric::I1Misses)] +
                      (*V)[size_t(Metric::D1Misses)] +
                      (*V)[size_t(Metric::Mispredicts)]) +
                100 * (*V)[size_t(Metric::LLMisses)]);
  EXPECT_EQ((*V)[size_t(Metric::Cpu)], 0);
}

TEST(PerfMetricsTest, CyclesFormula) {
  EXPECT_EQ(cyclesFormula(), "Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + "
                             "100 x (ILmr + DLmr + DLmw)");
}

TEST(PerfMetricsTest, CacheGeometry) {
  Expected<CacheGeometry> Server = parseCacheGeometry("server");
  ASSERT_TRUE(bool(Server)) << toString(Server.takeError());
  EXPECT_EQ(Server->Name, "server");
  EXPECT_EQ(Server->valgrindOptions(),
            (std::vector<std::string>{"--I1=32768,8,64", "--D1=49152,12,64",
                                      "--LL=1310720,20,64"}));
  EXPECT_EQ(Server->describe(), "I1 32 KiB 8-way, D1 48 KiB 12-way, LL 1.25 "
                                "MiB 20-way, 64-byte lines");
  Expected<CacheGeometry> Host = parseCacheGeometry("host");
  ASSERT_TRUE(bool(Host));
  EXPECT_TRUE(Host->isHost());
  EXPECT_TRUE(Host->valgrindOptions().empty());
  Expected<CacheGeometry> Custom =
      parseCacheGeometry("65536,2,64:32768,8,64:8388608,16,128");
  ASSERT_TRUE(bool(Custom)) << toString(Custom.takeError());
  EXPECT_EQ(Custom->Name, "custom");
  EXPECT_EQ(Custom->valgrindOptions(),
            (std::vector<std::string>{"--I1=65536,2,64", "--D1=32768,8,64",
                                      "--LL=8388608,16,128"}));
  EXPECT_EQ(Custom->describe(), "I1 64 KiB 2-way, D1 32 KiB 8-way, LL 8 MiB "
                                "16-way; lines 64 B, 64 B, 128 B");
  std::string Usage = "; give server, host, or I1:D1:LL, each SIZE,ASSOC,LINE "
                      "in bytes (e.g. 32768,8,64:49152,12,64:1310720,20,64)";
  EXPECT_EQ(messageOf(parseCacheGeometry("laptop")),
            "--cache-geometry 'laptop': not three caches" + Usage);
  EXPECT_EQ(messageOf(parseCacheGeometry("32768,8:49152,12,64:1310720,20,64")),
            "--cache-geometry '32768,8:49152,12,64:1310720,20,64': I1 is not "
            "SIZE,ASSOC,LINE" +
                Usage);
  EXPECT_EQ(
      messageOf(parseCacheGeometry("32768,8,64:49152,x,64:1310720,20,64")),
      "--cache-geometry '32768,8,64:49152,x,64:1310720,20,64': D1 has a "
      "bad number 'x'" +
          Usage);
  EXPECT_EQ(
      messageOf(parseCacheGeometry("32768,8,48:49152,12,64:1310720,20,64")),
      "--cache-geometry '32768,8,48:49152,12,64:1310720,20,64': I1's "
      "line size is not a power of two of at least 16 bytes" +
          Usage);
  // 1.5 MiB 20-way: 1228.8 sets.
  EXPECT_EQ(
      messageOf(parseCacheGeometry("32768,8,64:49152,12,64:1572864,20,64")),
      "--cache-geometry '32768,8,64:49152,12,64:1572864,20,64': LL's "
      "size is not a multiple of ASSOC x LINE" +
          Usage);
  // 40 KiB 10-way: 64 sets; 1.25 MiB 16-way: 1280 sets.
  EXPECT_TRUE(bool(parseCacheGeometry("32768,8,64:40960,10,64:1310720,20,64")));
  EXPECT_EQ(
      messageOf(parseCacheGeometry("32768,8,64:49152,12,64:1310720,16,64")),
      "--cache-geometry '32768,8,64:49152,12,64:1310720,16,64': LL has "
      "1280 sets, not a power of two" +
          Usage);
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
