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
     simulation, cachegrind's classic estimate
         cycles = Ir + 10 x (I1 + D1 misses + mispredicted branches)
                     + 100 x LL misses
     (valgrind's default geometry: the host's caches as cachegrind reads
     them); their ratios are the run-time cost of the new layout, free of
     machine noise;
  5. with --survival, divtool audit --matrix over the golden master and
     the installs: absolute and relative survival golden -> install and
     install -> install (mean and worst pair).
--blocks lays out each function's blocks anew too (rerandomize --blocks).
The table gives, per benchmark: the program's size, the golden master's
and an install's size relative to the compile-time variant, the median
rerandomize time, the cached build time and their ratio, and the
instruction ratios install/golden (mean and worst).

  PYTHONPATH=tests python3 bench/install_layout.py --installs 5 --instructions
  PYTHONPATH=tests python3 bench/install_layout.py --blocks --survival --instructions
"""

import json

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from overhead import BENCHMARKS, count_instructions, make_input  # noqa: E402

from divtest import tools  # noqa: E402

SINGLE_PROGRAM = ["sqlite", "lz4", "xz", "secp256k1", "leveldb"]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def build(bench, flags, out, env=None):
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        started = time.perf_counter()
        program = bench.build(tools.divcc(False), tools.divcc(True), flags, out)
        return program, time.perf_counter() - started
    finally:
        os.environ.clear()
        os.environ.update(saved)


def rerandomize(key, install, golden, out, blocks):
    started = time.perf_counter()
    p = subprocess.run([tools.divtool_path(), "rerandomize", "--seed-file", str(key),
                        "--install", install, str(golden), "-o", str(out)]
                       + (["--blocks"] if blocks else []),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"rerandomize {golden}: {p.stderr}")
    return time.perf_counter() - started, p.stderr.strip()


def estimated_cycles(c):
    """cachegrind's classic cycle estimate from run_cachegrind's counts."""
    return (c["instructions"] + 10 * (c["I1 misses"] + c["D1 misses"] + c["mispredicts"])
            + 100 * c["LL misses"])


def survival(golden, installs):
    """divtool audit --matrix over golden and installs: mean and worst
    absolute and relative survival from the golden master to each install,
    and between every ordered pair of installs, in percent."""
    p = subprocess.run([tools.divtool_path(), "audit", "--matrix", "--json", "--no-progress",
                        str(golden), *map(str, installs)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"audit --matrix: {p.stderr[-300:]}")
    matrix = json.loads(p.stdout)["matrix"]
    n = len(installs) + 1
    pairs = {"golden->install": [(0, b) for b in range(1, n)],
             "install->install": [(a, b) for a in range(1, n) for b in range(1, n) if a != b]}
    row = {}
    for pair, cells in pairs.items():
        for kind, key in (("absolute", "survival"), ("relative", "relative_survival")):
            shares = [100.0 * matrix[key][a][b] for a, b in cells]
            row[f"{pair} {kind} mean"] = statistics.mean(shares)
            row[f"{pair} {kind} worst"] = max(shares)
    return row


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
    root = Path(tempfile.mkdtemp(prefix="divcc-install-bench-"))
    key = root / "key"
    key.write_bytes(os.urandom(32))
    key.chmod(0o600)
    data = root / "data"
    data.mkdir()
    rows = []
    try:
        for n in names:
            bench = BENCHMARKS[n].for_counting() if args.instructions else BENCHMARKS[n]
            work = root / n
            work.mkdir()
            for fname, size, kind in bench.inputs:
                if not (data / fname).exists():
                    make_input(data / fname, size, kind)
            log(f"{n}: building the golden master")
            golden, _ = build(bench, ["-O2", "-fdiversify-golden", "-frandom-seed=golden"],
                              work / "golden")
            cache = {"DIVCC_CACHE_DIR": str(work / "cache")}
            log(f"{n}: building two compile-time variants, the second from a warm cache")
            build(bench, ["-O2", "-frandom-seed=variant-a"], work / "variant-a", cache)
            variant, compile_seconds = build(bench, ["-O2", "-frandom-seed=variant-b"],
                                             work / "variant-b", cache)
            installs, seconds = [], []
            for i in range(1, args.installs + 1):
                out = work / f"install-{i}"
                s, summary = rerandomize(key, f"install-{i}", golden, out, args.blocks)
                seconds.append(s)
                installs.append(out)
                log(f"{n}: install-{i}: {s:.2f} s; {summary}")
            for program in installs:
                cmd = bench.command(program, data)
                fin = open(bench.stdin, "rb") if bench.stdin else subprocess.DEVNULL
                shutil.rmtree(data / "leveldb-db", ignore_errors=True)
                p = subprocess.run(cmd, stdin=fin, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, cwd=work)
                if p.returncode != 0:
                    raise RuntimeError(f"{program} failed the workload: {p.stderr[-300:]}")
            row = {"benchmark": n, "size": variant.stat().st_size,
                   "golden": golden.stat().st_size / variant.stat().st_size,
                   "install": statistics.mean(p.stat().st_size for p in installs)
                   / variant.stat().st_size,
                   "install/golden": max(p.stat().st_size for p in installs)
                   / golden.stat().st_size,
                   "rerandomize": statistics.median(seconds),
                   "compile": compile_seconds}
            row["cheaper"] = row["compile"] / row["rerandomize"]
            if args.instructions:
                builds = {("golden", 0): golden}
                builds.update({("install", i): p for i, p in enumerate(installs)})
                counts = count_instructions(bench, builds, data, work, misses=True)
                for what, measure in (("instructions", lambda c: c["instructions"]),
                                      ("cycles", estimated_cycles)):
                    base = measure(counts[("golden", 0)])
                    ratios = [measure(counts[("install", i)]) / base
                              for i in range(len(installs))]
                    row[f"{what} mean"] = statistics.mean(ratios)
                    row[f"{what} worst"] = max(ratios)
            if args.survival:
                row.update(survival(golden, installs))
            rows.append(row)
            shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    columns = ["benchmark", "size", "golden", "install", "install/golden", "rerandomize",
               "compile", "cheaper"]
    if args.instructions:
        columns += ["instructions mean", "instructions worst", "cycles mean", "cycles worst"]
    if args.survival:
        columns += [f"{pair} {kind} {stat}" for pair in ("golden->install", "install->install")
                    for kind in ("absolute", "relative") for stat in ("mean", "worst")]
    print(f"\n{args.installs} installs per golden master"
          f"{' with --blocks' if args.blocks else ''}; sizes relative to the "
          "compile-time variant's file (install/golden: the largest install's); "
          "times in seconds (wall clock); instructions and estimated cycles of "
          "each install over the golden master's; survival in % of the "
          "attacker's binary's gadgets\n")
    print("| " + " | ".join(columns) + " |")
    print("| " + " | ".join("---" for _ in columns) + " |")
    for r in rows:
        cells = []
        for c in columns:
            v = r[c]
            cells.append(v if isinstance(v, str) else
                         f"{v:,}" if isinstance(v, int) else
                         f"{v:.1f}x" if c == "cheaper" else
                         f"{v:.2f}" if c in ("rerandomize", "compile") or "->" in c
                         else f"{v:.4f}")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
