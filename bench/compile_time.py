#!/usr/bin/env python3
"""Compile time of divcc against clang-19 on the test corpus, as ratios
measured side by side in one run.

For each repetition the whole corpus is compiled (-c) by clang-19, by divcc
-fno-diversify and by divcc -fdiversify, in alternating order; the median
of the repetitions is reported. Prints one table; the ratios are the result,
the seconds only context.

--instructions measures what every invocation costs, whatever the file:
the instructions executed (counted by valgrind's callgrind, so exact and
unaffected by other load) to compile, and to compile and link, a one-line
program. Configure scripts run thousands of such compiles."""

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from divtest import corpus, tools


def compile_all(compiler_for, flags, outdir):
    start = time.perf_counter()
    for prog in corpus.programs():
        for src in prog.sources:
            subprocess.run([compiler_for(prog.is_cxx)] + prog.std_flags() + flags +
                           ["-c", str(src), "-o", str(outdir / (src.stem + ".o"))],
                           check=True)
    return time.perf_counter() - start


CONFIGS = {
    "clang-19": (tools.clang, []),
    "divcc -fno-diversify": (tools.divcc, ["-fno-diversify"]),
    "divcc -fdiversify": (tools.divcc, ["-fdiversify", "-frandom-seed=bench"]),
}


def instructions(cmd, outdir):
    """Instructions executed by cmd and every process it starts."""
    log = outdir / "callgrind.%p"
    for old in outdir.glob("callgrind.*"):
        old.unlink()
    subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                    f"--callgrind-out-file={log}"] + cmd,
                   check=True, capture_output=True, cwd=outdir)
    total = 0
    for f in outdir.glob("callgrind.*"):
        m = re.search(r"^(?:summary|totals): (\d+)", f.read_text(errors="replace"), re.M)
        total += int(m.group(1)) if m else 0
    return total


def count_instructions(opt, outdir):
    if subprocess.run(["which", "valgrind"], capture_output=True).returncode:
        sys.exit("compile_time: --instructions needs valgrind (scripts/install-deps.sh installs it)")
    src = outdir / "one-line.c"
    src.write_text("int main(void) { return 0; }\n")
    print(f"instructions executed for a one-line C program ({opt}), "
          "including every process started:")
    print(f"{'compiler':<24} {'-c (millions)':>14} {'ratio':>6} {'link (millions)':>16} {'ratio':>6}")
    base = None
    for name, (cc, flags) in CONFIGS.items():
        compile_only = instructions([cc(False), opt] + flags + ["-c", str(src), "-o", "one.o"], outdir)
        link = instructions([cc(False), opt] + flags + [str(src), "-o", "one"], outdir)
        base = base or (compile_only, link)
        print(f"{name:<24} {compile_only / 1e6:14.1f} {compile_only / base[0]:6.3f} "
              f"{link / 1e6:16.1f} {link / base[1]:6.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--opt", default="-O2", help="optimization flag (default -O2)")
    ap.add_argument("--instructions", action="store_true",
                    help="count the instructions of a one-line compile instead (valgrind)")
    args = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="divcc-bench-"))
    try:
        if args.instructions:
            count_instructions(args.opt, out)
        else:
            time_corpus(args, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def time_corpus(args, out):
    configs = CONFIGS
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
