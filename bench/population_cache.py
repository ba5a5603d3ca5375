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

The configurations take turns, the order rotating every repetition; each
one's time is the median wall time (the variants build -j at a time) of
its repetitions. Prints one table: the ratios, a configuration's time over
cold's (0.400: 60% saved), are the result, the seconds only context; the
goal is warm/cold at most 0.5.

  PYTHONPATH=tests python3 bench/population_cache.py
  PYTHONPATH=tests python3 bench/population_cache.py --count 4 --header-lines 10000"""

import argparse
import os
import shutil

from divtest import bench as bt
from divtest import sample_project, tools


def run_population(work, name, count, env_cache, jobs, prime=False):
    """The wall seconds of one `divtool population --count COUNT` in a
    fresh directory (after one untimed variant, with prime)."""
    out = work / name
    shutil.rmtree(out, ignore_errors=True)
    env = tools.environment()
    if env_cache is not None:
        env["DIVCC_CACHE_DIR"] = env_cache

    def populate(n):
        return bt.run([tools.divtool_path(), "population", "--count", n, "-j", jobs,
                      "--out", out, "--seed-file", work / "key", "--source", work / "proj",
                      "--no-progress", "--", "make", "-s", "CC=divcc"], env=env).wall
    if prime:
        populate(1)
    elapsed = populate(count)
    shutil.rmtree(out, ignore_errors=True)
    return elapsed


CONFIGS = {
    "cold": dict(env_cache=""),
    "shared": dict(env_cache=None),
    "warm": dict(env_cache=None, prime=True),
}


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
    tools.require_build("population_cache", ("divcc", "divtool"))

    with bt.work_folder("bench-population") as work:
        sample_project.write_project(work / "proj", args.functions, args.header_lines)
        (work / "key").write_bytes(os.urandom(32))
        times = bt.interleaved(
            list(CONFIGS), args.repeat,
            lambda name: run_population(work, name, args.count, jobs=args.jobs,
                                        **CONFIGS[name]),
            lambda r, latest: bt.log(f"repetition {r + 1}/{args.repeat}: " + ", ".join(
                f"{name} {t:.1f} s" for name, t in latest.items())))

    median = {name: bt.median(ts) for name, ts in times.items()}
    print(f"divtool population --count {args.count} -j {args.jobs}: 5 files, "
          f"{args.functions} functions each, a {args.header_lines}-line header; "
          f"median of {args.repeat}.\n")
    print(bt.markdown_table(
        ["front-end cache", "seconds", "per variant", "ratio to cold"],
        [[name, f"{m:.2f}", f"{m / args.count:.2f}", bt.ratio(m / median["cold"])]
         for name, m in median.items()]))
    print(f"\nwarm/cold = {median['warm'] / median['cold']:.3f} (goal: at most 0.5)")


if __name__ == "__main__":
    main()
