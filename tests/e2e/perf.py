#!/usr/bin/env python3
"""divtool perf end to end, on a small C benchmark written to a temporary
directory (two .c files, a header and a Makefile that uses $(CC)), built
with `make CC=divcc`:

  one build   5 variants, 2 runs each, --json and --html: the JSON parses;
              5 variants with 2 CPU and wall times each, all positive; each
              variant's time is the median of its runs; the mean is that of
              the variants' times, and the confidence interval is the
              Student-t interval around it (recomputed here) and contains
              it; the page is well-formed HTML (every element closed, in
              order), self-contained (no script, nothing fetched), with both
              plots and a point per run; no seed file is left behind
  --compare   the same build command as A and B over 5 variants: the table
              reports a confidence interval for each, Welch's t-test and "no
              significant difference", and notes that A and B built
              identical artifacts. A 5% test says "significant" for one
              comparison in 20 of identical builds by design, so a
              significant result is measured once more before it fails
  instructions  3 variants, 2 runs each, --metric instructions --json: the
              JSON says "instructions"; each variant's runs are positive
              integer counts, equal to each other (valgrind counts are
              deterministic) and to its median; the mean is that of the
              variants and lies between their min and max
  misses      2 variants, 2 runs each, --metric d1-misses --json --html:
              the JSON says "d1-misses" and has, per variant, the runs of
              all six counts (instructions, i1-misses, d1-misses,
              ll-misses, mispredicts, cycles): positive integers, the same at every
              run (the simulation is deterministic), with no more LL misses
              than I1 and D1 misses together (the last level is looked up
              only on a first-level miss); a variant's value is its D1
              misses; each count has its statistics; the page has a row
              per count and plots D1 misses
  cycles      2 variants, 2 runs each, --metric cycles --json: the JSON
              says "cycles", the server cache geometry and the formula;
              each variant's estimated cycles are positive, the same at
              both runs, its value, and equal to cachegrind's classic
              estimate Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x
              (ILmr + DLmr + DLmw) recomputed here from the totals of
              cachegrind's own output files (the "summary:" line of each
              process's file in the variant's cachegrind/ folder) and from
              the counts divtool reports; the files' "desc:" lines say the
              caches simulated were the server core's (32 KiB 8-way I1,
              48 KiB 12-way D1, 1.25 MiB 20-way LL)
  bad input   no benchmark command, no build command, --variants 1, an
              unknown --metric, --cache-geometry without a simulation or
              with a bad geometry: a clear error with exit 1 or 2; a
              missing seed file is refused before anything is built; a
              benchmark that fails is reported with its exit status and its
              log, exit 1
"""

import hashlib
import html.parser
import json
import math
import os
import re
from pathlib import Path

from divtest import checks, tools

VARIANTS = 5
RUNS = 2
# Rounds of the benchmark's loop: about 0.1 s of CPU time.
BENCH = ["./bench", "10"]

WORK_C = """#include "bench.h"
unsigned long step(unsigned long x, unsigned long i) {
  x ^= x << 13; x ^= x >> 7; x ^= x << 17;
  return x + i * 2654435761u;
}
unsigned long mix(const unsigned long *a, int n) {
  unsigned long s = 0;
  for (int i = 0; i < n; ++i)
    s = step(s ^ a[i], (unsigned long)i);
  return s;
}
"""

BENCH_C = """#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  static unsigned long a[4096];
  for (int i = 0; i < 4096; ++i)
    a[i] = (unsigned long)i * 40503u;
  unsigned long s = 0;
  for (int r = 0; r < rounds * 1000; ++r) {
    a[r & 4095] = s;
    s += mix(a, 4096);
  }
  printf("%lu\\n", s);
  return argc > 2 ? atoi(argv[2]) : 0;
}
"""


def write_benchmark(root):
    root.mkdir(parents=True, exist_ok=True)
    (root / "bench.h").write_text(
        "unsigned long step(unsigned long x, unsigned long i);\n"
        "unsigned long mix(const unsigned long *a, int n);\n")
    (root / "work.c").write_text(WORK_C)
    (root / "bench.c").write_text(BENCH_C)
    (root / "Makefile").write_text(
        "CFLAGS = -O2\n"
        "bench: bench.o work.o\n"
        "\t$(CC) $(CFLAGS) -o $@ bench.o work.o\n"
        "%.o: %.c bench.h\n"
        "\t$(CC) $(CFLAGS) -c $< -o $@\n"
        "clean:\n"
        "\trm -f bench *.o\n")


# divtool's private directories (seeds, the random master secret, the
# variants without --out) go here, so that the test sees what it leaves.
TMPDIR = None


def divtool(*args):
    return tools.divtool(*args, env=tools.environment(TMPDIR=str(TMPDIR)), timeout=600)


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def t_quantile_975(df):
    """Student's t 0.975 quantile, from a printed table (df 1..10)."""
    return {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706,
            6: 2.4469, 7: 2.3646, 8: 2.3060, 9: 2.2622, 10: 2.2281}[df]


class Page(html.parser.HTMLParser):
    """Checks that elements nest and close; collects svg ids and marks."""
    VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area",
            "base", "embed", "source", "track", "wbr"}
    # SVG elements written self-closed (<line .../>, <rect .../>).
    SELF_CLOSED_OK = {"line", "rect", "path", "circle"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.svgs = [], [], {}
        self.current_svg = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.current_svg = a.get("id")
            self.svgs[self.current_svg] = 0
        if self.current_svg and tag in ("circle", "rect", "line") and \
                "mark" in (a.get("class") or "").split():
            self.svgs[self.current_svg] += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        a = dict(attrs)
        if tag not in self.VOID and tag not in self.SELF_CLOSED_OK:
            self.errors.append(f"<{tag}/> self-closed")
        if self.current_svg and "mark" in (a.get("class") or "").split():
            self.svgs[self.current_svg] += 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()
        if tag == "svg":
            self.current_svg = None


def check_one_build(work, key, check):
    out = work / "single"
    page = work / "perf.html"
    code, stdout, err = divtool(
        "perf", "--variants", VARIANTS, "--runs", RUNS, "--seed-file", key,
        "--build", "make CC=divcc", "--source", work / "proj", "--out", out,
        "--json", "--html", page, "--", *BENCH)
    if not check(code == 0, "perf of one build: exit 0", err):
        return
    try:
        j = json.loads(stdout)
    except json.JSONDecodeError as e:
        check(False, "perf --json prints JSON", f"{e}\n{stdout[:2000]}")
        return
    check(True, "perf --json prints JSON")
    builds = j.get("builds", [])
    check(len(builds) == 1 and "comparison" not in j,
          "one build, no comparison")
    b = builds[0]
    variants = b["variants"]
    check([v["id"] for v in variants] ==
          [f"v{i:04d}" for i in range(1, VARIANTS + 1)],
          f"variants v0001..v{VARIANTS:04d}", str([v["id"] for v in variants]))
    check(all(len(v["cpu_seconds"]) == RUNS and len(v["wall_seconds"]) == RUNS
              and min(v["cpu_seconds"] + v["wall_seconds"]) > 0
              for v in variants),
          f"{RUNS} positive CPU and wall times per variant")
    medians = [sorted(v["cpu_seconds"])[RUNS // 2] if RUNS % 2 else
               sum(sorted(v["cpu_seconds"])[RUNS // 2 - 1:RUNS // 2 + 1]) / 2
               for v in variants]
    check(all(math.isclose(m, v["cpu_median"]) for m, v in zip(medians, variants)),
          "a variant's time is the median of its runs")
    s = b["cpu"]
    mean = sum(medians) / len(medians)
    sd = math.sqrt(sum((m - mean) ** 2 for m in medians) / (len(medians) - 1))
    half = t_quantile_975(len(medians) - 1) * sd / math.sqrt(len(medians))
    check(s["n"] == VARIANTS and math.isclose(s["mean"], mean, rel_tol=1e-9),
          "the mean is over the variants", f"{s}")
    check(s["ci_low"] is not None and s["ci_low"] <= s["mean"] <= s["ci_high"],
          "a confidence interval is reported and contains the mean", f"{s}")
    check(math.isclose(s["ci_high"] - s["mean"], half, rel_tol=1e-3, abs_tol=1e-9),
          "the interval is mean +- t(0.975, n-1) sd / sqrt(n)",
          f"half width {s['ci_high'] - s['mean']}, expected {half}")
    check(all(Path(v["tree"], "bench").is_file() for v in variants),
          "each variant's tree holds its build")
    check(len({sha256(Path(v["tree"], "bench")) for v in variants}) == VARIANTS,
          "every variant is a different binary")

    text = page.read_text() if page.exists() else ""
    parser = Page()
    parser.feed(text)
    parser.close()
    check(text.startswith("<!DOCTYPE html>") and not parser.errors and
          not parser.stack, "the HTML page is well-formed",
          "; ".join(parser.errors[:5]) + f" unclosed: {parser.stack}")
    check(not re.search(r"<script|<link|<img|\bsrc\s*=|url\(|@import", text, re.I),
          "the HTML page is self-contained")
    check(parser.svgs.get("plot-variants", 0) >= VARIANTS * RUNS and
          parser.svgs.get("plot-means", 0) >= VARIANTS,
          "the page has both plots, with a point per run", str(parser.svgs))
    check(not list(TMPDIR.iterdir()),
          "no seed file or private directory is left behind",
          str(list(TMPDIR.iterdir())))


def compare_once(work, attempt):
    return divtool(
        "perf", "--variants", VARIANTS, "--runs", RUNS,
        "--compare", "make CC=divcc", "make CC=divcc",
        "--source", work / "proj", "--out", work / f"compare-{attempt}",
        "--", *BENCH)


def check_compare(work, check):
    # No --seed-file: a fresh master secret for the run; both builds get the
    # same variant ids, hence the same seeds.
    code, out, err = compare_once(work, 1)
    if not check(code == 0, "perf --compare: exit 0", err):
        return
    if "no significant difference at 5%" not in out:
        print("note: the first comparison was significant; measuring again "
              "(a 5% test is wrong once in 20 by design)\n" + out)
        code, out, err = compare_once(work, 2)
    check(code == 0 and "no significant difference at 5%" in out,
          "--compare of a build against itself: no significant difference",
          out + err)
    check(len(re.findall(r"^[AB]: mean .* 95% CI \[", out, re.M)) == 2,
          "a confidence interval for A and for B", out)
    check(re.search(r"Welch's t-test: t = \S+, df = \S+, p = \S+", out) is not None,
          "Welch's t-test is reported", out)
    check("identical artifacts" in out,
          "identical builds are noted as such", out)
    check(not list(TMPDIR.iterdir()),
          "the random master secret and its directory are removed",
          str(list(TMPDIR.iterdir())))


def counted_perf(work, key, check, metric, variants, runs, *extra):
    """divtool perf --metric METRIC --json over the benchmark project: its
    JSON, or None (failed checks) if it failed or printed no JSON."""
    code, stdout, err = divtool(
        "perf", "--variants", variants, "--runs", runs, "--seed-file", key,
        "--metric", metric, "--build", "make CC=divcc",
        "--source", work / "proj", "--out", work / metric, "--json", *extra,
        "--", "./bench", "1")
    if not check(code == 0, f"perf --metric {metric}: exit 0", err):
        return None
    try:
        j = json.loads(stdout)
    except json.JSONDecodeError as e:
        check(False, f"perf --metric {metric} prints JSON",
              f"{e}\n{stdout[:2000]}")
        return None
    check(j.get("metric") == metric, f'the metric is "{metric}"',
          str(j.get("metric")))
    return j


def check_instructions(work, key, check):
    variants, runs = 3, 2
    j = counted_perf(work, key, check, "instructions", variants, runs)
    if j is None:
        return
    b = j["builds"][0]
    vs = b["variants"]
    check(len(vs) == variants and all(
        len(v["instructions"]) == runs and
        all(isinstance(n, int) and n > 0 for n in v["instructions"])
        for v in vs),
          f"{runs} positive instruction counts per variant", str(vs))
    check(all(len(set(v["instructions"])) == 1 and
              v["instructions_median"] == v["instructions"][0] == v["value"]
              for v in vs),
          "a variant measured twice gives the same count", str(vs))
    check("cpu_seconds" not in vs[0] and "cpu" not in b,
          "no times are reported for instructions", str(vs[0]))
    s = b["instructions"]
    counts = [v["instructions_median"] for v in vs]
    check(s["n"] == variants and
          math.isclose(s["mean"], sum(counts) / len(counts), rel_tol=1e-12) and
          s["min"] == min(counts) and s["max"] == max(counts) and
          s["min"] <= s["mean"] <= s["max"],
          "the mean is over the variants, between min and max", str(s))


# cachegrind's counts with --misses: the JSON's name of each, per variant.
COUNTS = {"instructions": "instructions", "i1-misses": "i1_misses",
          "d1-misses": "d1_misses", "ll-misses": "ll_misses",
          "mispredicts": "mispredicts", "cycles": "cycles"}


def check_misses(work, key, check):
    variants, runs = 2, 2
    page = work / "misses.html"
    j = counted_perf(work, key, check, "d1-misses", variants, runs,
                     "--html", page)
    if j is None:
        return
    b = j["builds"][0]
    vs = b["variants"]
    check(len(vs) == variants and all(
        len(v[key]) == runs and
        all(isinstance(n, int) and n > 0 for n in v[key])
        for v in vs for key in COUNTS.values()),
          f"{runs} positive counts of each of {len(COUNTS)} events per variant",
          str(vs))
    check(all(len(set(v[key])) == 1 and v[key + "_median"] == v[key][0]
              for v in vs for key in COUNTS.values()),
          "a variant measured twice gives the same counts", str(vs))
    check(all(v["value"] == v["d1_misses_median"] for v in vs),
          "a variant's value is its D1 misses", str(vs))
    check(all(ll <= i1 + d1 for v in vs for ll, i1, d1 in
              zip(v["ll_misses"], v["i1_misses"], v["d1_misses"])),
          "no more LL misses than I1 and D1 misses", str(vs))
    check(all(b[name]["n"] == variants and math.isclose(
        b[name]["mean"], sum(v[key + "_median"] for v in vs) / variants,
        rel_tol=1e-12) for name, key in COUNTS.items()),
          "each count has its statistics over the variants",
          str({name: b.get(name) for name in COUNTS}))
    check("cpu_seconds" not in vs[0] and "cpu" not in b,
          "no times are reported for counts", str(vs[0]))

    text = page.read_text() if page.exists() else ""
    parser = Page()
    parser.feed(text)
    parser.close()
    check(text.startswith("<!DOCTYPE html>") and not parser.errors and
          not parser.stack, "the HTML page of the counts is well-formed",
          "; ".join(parser.errors[:5]) + f" unclosed: {parser.stack}")
    rows = re.findall(r"<tr><td>([a-z0-9-]+)(?: \(\w*\))?</td><td>build</td>",
                      text)
    check(rows == list(COUNTS), "the page's summary has a row per count",
          str(rows))
    check("D1 misses per variant" in text, "the page plots D1 misses")


def cachegrind_files(tree):
    """{event: total} and the "desc:" lines of the cachegrind output files
    of a variant's last run (DIR/variants/ID/cachegrind/out.PID, one per
    process), read here rather than by divtool."""
    totals, desc = {}, set()
    files = sorted((Path(tree).parent / "cachegrind").glob("out.*"))
    for f in files:
        events = counts = None
        for line in f.read_text().splitlines():
            if line.startswith("desc:"):
                desc.add(" ".join(line.split()))
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                counts = [int(n) for n in line.split()[1:]]
        for i, event in enumerate(events or []):
            totals[event] = totals.get(event, 0) + (counts[i] if i < len(counts) else 0)
    return files, totals, desc


def classic_estimate(e):
    """cachegrind's classic cycle estimate from its events' totals."""
    return (e["Ir"] + 10 * (e["I1mr"] + e["D1mr"] + e["D1mw"] + e["Bcm"] + e["Bim"])
            + 100 * (e["ILmr"] + e["DLmr"] + e["DLmw"]))


def check_cycles(work, key, check):
    variants, runs = 2, 2
    j = counted_perf(work, key, check, "cycles", variants, runs)
    if j is None:
        return
    check(j.get("cache_geometry", {}).get("name") == "server" and
          j["cache_geometry"].get("valgrind_options") ==
          ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=1310720,20,64"],
          "the JSON names the server cache geometry", str(j.get("cache_geometry")))
    check(j.get("cycles_formula") ==
          "Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr + DLmw)",
          "the JSON states the formula", str(j.get("cycles_formula")))
    b = j["builds"][0]
    vs = b["variants"]
    check(len(vs) == variants and all(
        len(v["cycles"]) == runs and all(isinstance(n, int) and n > 0 for n in v["cycles"])
        for v in vs),
          f"{runs} positive estimated cycle counts per variant", str(vs))
    check(all(len(set(v["cycles"])) == 1 and
              v["cycles_median"] == v["cycles"][0] == v["value"] for v in vs),
          "a variant's estimated cycles are the same at every run, and its value",
          str(vs))
    check(all(v["cycles"][0] > v["instructions"][0] for v in vs),
          "more estimated cycles than instructions", str(vs))
    for v in vs:
        files, totals, desc = cachegrind_files(v["tree"])
        if not check(files and "DLmw" in totals,
                     f"{v['id']}: cachegrind's output files are kept", str(files)):
            continue
        check(v["cycles"][0] == classic_estimate(totals),
              f"{v['id']}: the estimate is the formula over cachegrind's own totals",
              f"divtool {v['cycles'][0]}, recomputed {classic_estimate(totals)} "
              f"from {totals}")
        check(v["cycles"][0] == v["instructions"][0] + 10 * (
            v["i1_misses"][0] + v["d1_misses"][0] + v["mispredicts"][0]) +
              100 * v["ll_misses"][0],
              f"{v['id']}: the estimate is the formula over the counts divtool reports",
              str(v))
        check({"desc: I1 cache: 32768 B, 64 B, 8-way associative",
               "desc: D1 cache: 49152 B, 64 B, 12-way associative",
               "desc: LL cache: 1310720 B, 64 B, 20-way associative"} <= desc,
              f"{v['id']}: cachegrind simulated the server core's caches", str(desc))
    s = b["cycles"]
    medians = [v["cycles_median"] for v in vs]
    check(s["n"] == variants and
          math.isclose(s["mean"], sum(medians) / variants, rel_tol=1e-12),
          "the estimated cycles have their statistics over the variants", str(s))


def check_bad_input(work, key, check):
    proj = work / "proj"
    code, _, err = divtool("perf", "--variants", 3, "--build", "make CC=divcc",
                           "--source", proj)
    check(code == 1 and "divtool: error: no benchmark command" in err,
          "no benchmark command: error, exit 1", err)
    code, _, err = divtool("perf", "--variants", 3, "--source", proj, "--", *BENCH)
    check(code == 1 and "divtool: error: no build command" in err,
          "no build command: error, exit 1", err)
    code, _, err = divtool("perf", "--variants", 1, "--build", "make", "--", *BENCH)
    check(code == 2 and "divtool: error:" in err, "--variants 1: usage error, exit 2", err)
    code, _, err = divtool("perf", "--variants", 3, "--metric", "speed",
                           "--build", "make", "--", *BENCH)
    check(code == 2 and "divtool: error:" in err, "unknown --metric: usage error, exit 2", err)
    code, _, err = divtool("perf", "--variants", 3, "--instructions", "--metric", "wall",
                           "--build", "make", "--", *BENCH)
    check(code == 1 and "--instructions is short for --metric instructions" in err,
          "--instructions with another --metric: error, exit 1", err)
    code, _, err = divtool("perf", "--variants", 3, "--instructions",
                           "--cache-geometry", "host", "--build", "make CC=divcc",
                           "--source", proj, "--out", work / "never", "--", *BENCH)
    check(code == 1 and "--cache-geometry sets the caches cachegrind simulates" in err
          and not (work / "never").exists(),
          "--cache-geometry without a simulation: error before building, exit 1", err)
    code, _, err = divtool("perf", "--variants", 3, "--metric", "cycles",
                           "--cache-geometry", "32768,8,64:49152,12,64:1310720,16,64",
                           "--build", "make CC=divcc", "--source", proj,
                           "--out", work / "never", "--", *BENCH)
    check(code == 1 and "LL has 1280 sets, not a power of two" in err
          and not (work / "never").exists(),
          "a cache geometry valgrind would refuse: error before building, exit 1", err)
    code, _, err = divtool("perf", "--variants", 3, "--seed-file", work / "missing.key",
                           "--build", "make CC=divcc", "--source", proj,
                           "--out", work / "never", "--", *BENCH)
    check(code == 1 and "missing.key" in err and not (work / "never").exists(),
          "a missing seed file: error before anything is built", err)
    code, _, err = divtool("perf", "--variants", 2, "--seed-file", key,
                           "--build", "make CC=divcc", "--source", proj,
                           "--out", work / "failing", "--", "./bench", "1", "3")
    check(code == 1 and "the benchmark failed" in err and "exit status 3" in err
          and "bench.log" in err,
          "a failing benchmark: its exit status and log, exit 1", err)


def run_checks(work, check):
    global TMPDIR
    TMPDIR = work / "tmp"
    TMPDIR.mkdir()
    write_benchmark(work / "proj")
    key = work / "master.key"
    key.write_bytes(os.urandom(32))
    check_one_build(work, key, check)
    check_compare(work, check)
    check_instructions(work, key, check)
    check_misses(work, key, check)
    check_cycles(work, key, check)
    check_bad_input(work, key, check)


def main():
    checks.scenario("perf", "perf", run_checks)

if __name__ == "__main__":
    main()
