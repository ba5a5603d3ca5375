#!/usr/bin/env python3
"""What an install-time layout costs, next to a compile-time variant, side
by side in one run: divtool rerandomize on golden masters of the npm
benchmarks (bench/overhead.py's programs and workloads).

For each benchmark:
  1. its golden master: divcc -O2 -fdiversify-golden (default set, one seed);
  2. a compile-time variant of the same program, built with a warm
     front-end cache (DIVCC_CACHE_DIR: the cheapest compile-time variant
     there is), timed: the whole build, wall clock;
  3. --installs layouts of the golden master by divtool rerandomize, each
     timed (wall clock; the median is reported) and run on the workload;
  4. with --instructions, cachegrind's counts of the workload (overhead.py's
     shorter counted run) for the golden master and each install:
     instructions, and estimated cycles from its cache and branch
     simulation, cachegrind's classic estimate (tests/divtest/bench.py)
         cycles = Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim)
                     + 100 x (ILmr + DLmr + DLmw)
     (the caches of a current server core, tests/divtest/bench.py's
     CACHE_GEOMETRY); their ratios are the run-time cost of the new layout, free of
     machine noise;
  5. with --survival, divtool audit --matrix over the golden master and
     the installs: absolute and relative survival golden -> install and
     install -> install (mean and worst pair).
--blocks lays out each function's blocks anew too (rerandomize --blocks).
The table gives, per benchmark:
  size               the compile-time variant's file, in bytes
  golden, install    the golden master's file and an install's (mean)
                     relative to the compile-time variant's
  install/golden     the largest install's file over the golden master's
  rerandomize        the median seconds of one divtool rerandomize
  compile            the seconds of the cached compile-time build
  cheaper            compile / rerandomize: how many times cheaper an
                     install is than a compile-time variant
  instructions, cycles (--instructions)
                     an install's count over the golden master's, mean
                     and worst install: 1.0000 is no run-time cost
  survival (--survival)
                     percent of the first binary's gadgets surviving in
                     the second, mean and worst pair

  PYTHONPATH=tests python3 bench/install_layout.py --installs 5 --instructions
  PYTHONPATH=tests python3 bench/install_layout.py --blocks --survival --instructions
"""

import argparse
import contextlib
import os
import shutil
import statistics
import sys

from divtest import bench as bt
from divtest import tools

import survival
from workloads import BENCHMARKS

SINGLE_PROGRAM = ["sqlite", "lz4", "xz", "secp256k1", "leveldb"]


@contextlib.contextmanager
def environment(extra):
    """os.environ with extra added, for the project builds' environment."""
    saved = dict(os.environ)
    os.environ.update(extra)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def build(bench, flags, out, env=None):
    """(the program built by divcc with flags, the build's wall seconds)."""
    with environment(env or {}), bt.Stopwatch() as w:
        program = bench.build(tools.divcc(False), tools.divcc(True), flags, out)
    return program, w.wall


def rerandomize(key, install, golden, out, blocks):
    """(wall seconds, divtool rerandomize's summary line)."""
    r = bt.run([tools.divtool_path(), "rerandomize", "--seed-file", key, "--install", install,
               golden, "-o", out] + (["--blocks"] if blocks else []))
    return r.wall, r.stderr.strip()


def instruction_ratios(bench, golden, installs, data, work):
    """{"instructions mean", "instructions worst", "cycles mean", "cycles
    worst"}: each install's count over the golden master's."""
    counts = []
    for label, program in [("golden", golden)] + [(p.name, p) for p in installs]:
        counts.append(bench.count(program, data, work, simulate=True))
        bt.log(f"{bench.name}: {label}: " + ", ".join(f"{v:,} {k}" for k, v in counts[-1].items()))
    row = {}
    for what, measure in (("instructions", lambda c: c["instructions"]),
                          ("cycles", bt.estimated_cycles)):
        base = measure(counts[0])
        ratios = [measure(c) / base for c in counts[1:]]
        row[f"{what} mean"] = statistics.mean(ratios)
        row[f"{what} worst"] = max(ratios)
    return row


def measure(bench, args, key, data, work):
    """The benchmark's row of the table."""
    bench.make_inputs(data)
    bt.log(f"{bench.name}: building the golden master")
    golden, _ = build(bench, ["-O2", "-fdiversify-golden", "-frandom-seed=golden"],
                      work / "golden")
    cache = {"DIVCC_CACHE_DIR": str(work / "cache")}
    bt.log(f"{bench.name}: building two compile-time variants, the second from a warm cache")
    build(bench, ["-O2", "-frandom-seed=variant-a"], work / "variant-a", cache)
    variant, compile_seconds = build(bench, ["-O2", "-frandom-seed=variant-b"],
                                     work / "variant-b", cache)
    installs, seconds = [], []
    for i in range(1, args.installs + 1):
        out = work / f"install-{i}"
        s, summary = rerandomize(key, f"install-{i}", golden, out, args.blocks)
        seconds.append(s)
        installs.append(out)
        bt.log(f"{bench.name}: install-{i}: {s:.2f} s; {summary}")
    for program in installs:
        bench.run(program, data, work, rounds=1)  # each install runs the workload
    size = variant.stat().st_size
    row = {"benchmark": bench.name, "size": size,
           "golden": golden.stat().st_size / size,
           "install": statistics.mean(p.stat().st_size for p in installs) / size,
           "install/golden": max(p.stat().st_size for p in installs) / golden.stat().st_size,
           "rerandomize": statistics.median(seconds),
           "compile": compile_seconds}
    row["cheaper"] = row["compile"] / row["rerandomize"]
    if args.instructions:
        row.update(instruction_ratios(bench, golden, installs, data, work))
    if args.survival:
        row.update(survival.matrix_survival(golden, installs))
    return row


def cell(column, value):
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    if column == "cheaper":
        return f"{value:.1f}x"
    if column in ("rerandomize", "compile") or "->" in column:
        return f"{value:.2f}"
    return f"{value:.4f}"


def report(rows, args):
    columns = ["benchmark", "size", "golden", "install", "install/golden", "rerandomize",
               "compile", "cheaper"]
    if args.instructions:
        columns += ["instructions mean", "instructions worst", "cycles mean", "cycles worst"]
    if args.survival:
        columns += [f"{pair} {kind} {stat}" for pair in ("golden->install", "install->install")
                    for kind in ("absolute", "relative") for stat in ("mean", "worst")]
    return (f"\n{args.installs} installs per golden master"
            f"{' with --blocks' if args.blocks else ''}; sizes relative to the "
            "compile-time variant's file (install/golden: the largest install's); "
            "times in seconds (wall clock); instructions and estimated cycles of "
            "each install over the golden master's; survival in % of the "
            "attacker's binary's gadgets\n\n" +
            bt.markdown_table(columns, [[cell(c, r[c]) for c in columns] for r in rows]))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmarks", default=",".join(SINGLE_PROGRAM),
                    help="comma-separated (default: %(default)s)")
    ap.add_argument("--installs", type=int, default=5, help="installs per golden master")
    ap.add_argument("--instructions", action="store_true",
                    help="count the workload's instructions, install against golden")
    ap.add_argument("--blocks", action="store_true",
                    help="lay out each function's blocks anew too (rerandomize --blocks)")
    ap.add_argument("--survival", action="store_true",
                    help="audit --matrix: survival golden -> install, install -> install")
    args = ap.parse_args()
    names = args.benchmarks.split(",")
    for n in names:
        if n not in SINGLE_PROGRAM:
            sys.exit(f"install_layout: {n!r} is not one of {', '.join(SINGLE_PROGRAM)}")
    tools.require_build("install_layout")
    if args.instructions:
        bt.require_valgrind("install_layout")
    rows = []
    with bt.work_folder("install-bench") as root:
        key = root / "key"
        key.write_bytes(os.urandom(32))
        key.chmod(0o600)
        data = root / "data"
        data.mkdir()
        for n in names:
            bench = BENCHMARKS[n].for_counting() if args.instructions else BENCHMARKS[n]
            work = root / n
            work.mkdir()
            rows.append(measure(bench, args, key, data, work))
            shutil.rmtree(work, ignore_errors=True)
    print(report(rows, args))


if __name__ == "__main__":
    main()
