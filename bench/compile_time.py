#!/usr/bin/env python3
"""Compile time of divcc against clang-19 on the test corpus, as ratios
measured side by side in one run.

For each repetition the whole corpus is compiled (-c) by clang-19, by divcc
-fno-diversify and by divcc -fdiversify, in alternating order; the median
of the repetitions is reported. Prints one table; the ratios are the result,
the seconds only context."""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
import corpus  # noqa: E402


def compile_all(compiler_for, flags, outdir):
    start = time.perf_counter()
    for prog in corpus.programs():
        for src in prog.sources:
            subprocess.run([compiler_for(prog.is_cxx)] + prog.std_flags() + flags +
                           ["-c", str(src), "-o", str(outdir / (src.stem + ".o"))],
                           check=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--opt", default="-O2", help="optimization flag (default -O2)")
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="divcc-bench-"))
    configs = {
        "clang-19": (corpus.clang, []),
        "divcc -fno-diversify": (corpus.divcc, ["-fno-diversify"]),
        "divcc -fdiversify": (corpus.divcc, ["-fdiversify", "-frandom-seed=bench"]),
    }
    times = {name: [] for name in configs}
    for rep in range(args.repeat):
        order = list(configs) if rep % 2 == 0 else list(reversed(configs))
        for name in order:
            cc, flags = configs[name]
            times[name].append(compile_all(cc, [args.opt] + flags, out))
        print(f"repetition {rep + 1}/{args.repeat} done", file=sys.stderr)
    base = statistics.median(times["clang-19"])
    print(f"compile time of the corpus ({len(corpus.programs())} programs, {args.opt}), "
          f"median of {args.repeat}:")
    print(f"{'compiler':<24} {'seconds':>8} {'ratio to clang-19':>18}")
    for name in configs:
        m = statistics.median(times[name])
        print(f"{name:<24} {m:8.2f} {m / base:18.3f}")


if __name__ == "__main__":
    main()
