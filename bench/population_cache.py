#!/usr/bin/env python3
"""What divcc's front-end cache saves a population: the time of
`divtool population --count 10` on a project whose translation units are
front-end heavy, with a cold cache and with a warm one, measured side by side
in one run, as the ratio warm/cold.

The project is the divtool population tests' sample (tests/divtest/
sample_project.py: 5 .c files, make CC=divcc),
with a generated header of --header-lines lines of static inline functions
included by every file: work for clang's front end (parsing and semantic
analysis) that the cache skips, while the code generator and the link still
run for each variant.

  cold    DIVCC_CACHE_DIR set to the empty string: no cache, every variant
          runs clang's front end and optimizer
  shared  a fresh population directory: the variants share DIR/cache, the
          first fills it (what a first `divtool population` run costs)
  warm    the same, with the cache filled beforehand by one variant (not
          timed): every variant hits

Repetitions alternate the order; the median is reported. Prints one table;
the ratios are the result, the seconds only context."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from divtest import sample_project, tools


def run_population(work, name, count, env_cache, jobs, prime=False):
    """Times one `divtool population --count COUNT` in a fresh directory."""
    out = work / name
    shutil.rmtree(out, ignore_errors=True)
    env = tools.environment()
    if env_cache is not None:
        env["DIVCC_CACHE_DIR"] = env_cache

    def populate(n):
        subprocess.run([tools.divtool_path(), "population", "--count", str(n), "-j", str(jobs),
                        "--out", str(out), "--seed-file", str(work / "key"),
                        "--source", str(work / "proj"), "--no-progress",
                        "--", "make", "-s", "CC=divcc"],
                       env=env, check=True, stderr=subprocess.DEVNULL)
    if prime:
        populate(1)
    start = time.perf_counter()
    populate(count)
    elapsed = time.perf_counter() - start
    shutil.rmtree(out, ignore_errors=True)
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=10, help="variants (default 10)")
    ap.add_argument("--repeat", type=int, default=2, help="repetitions (default 2)")
    ap.add_argument("--header-lines", type=int, default=40000,
                    help="lines of the generated header (default %(default)s)")
    ap.add_argument("--functions", type=int, default=20,
                    help="generated functions per file (default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="variants built at a time (default 1)")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="divcc-bench-population-"))
    try:
        sample_project.write_project(work / "proj", args.functions, args.header_lines)
        (work / "key").write_bytes(os.urandom(32))
        configs = {
            "cold": dict(env_cache=""),
            "shared": dict(env_cache=None),
            "warm": dict(env_cache=None, prime=True),
        }
        times = {name: [] for name in configs}
        for rep in range(args.repeat):
            order = list(configs) if rep % 2 == 0 else list(reversed(configs))
            for name in order:
                elapsed = run_population(work, name, args.count, jobs=args.jobs,
                                            **configs[name])
                times[name].append(elapsed)
                print(f"repetition {rep + 1}/{args.repeat}: {name} {elapsed:.1f} s",
                      file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    cold = statistics.median(times["cold"])
    print(f"divtool population --count {args.count} -j {args.jobs}: 5 files, "
          f"{args.functions} functions each, a {args.header_lines}-line header; "
          f"median of {args.repeat}:")
    print(f"{'front-end cache':<16} {'seconds':>8} {'per variant':>12} {'ratio to cold':>14}")
    for name in configs:
        m = statistics.median(times[name])
        print(f"{name:<16} {m:8.2f} {m / args.count:12.2f} {m / cold:14.3f}")
    warm = statistics.median(times["warm"])
    print(f"warm/cold = {warm / cold:.3f} (goal: at most 0.5)")


if __name__ == "__main__":
    main()
