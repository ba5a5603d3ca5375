#!/usr/bin/env python3
"""Compile time of divcc against clang-19 on the test corpus, as ratios
measured side by side in one run.

Each round compiles the whole corpus (-c, one file at a time) with
clang-19, with divcc -fno-diversify and with divcc -fdiversify, the
compilers taking turns (the order rotates every round); each compiler's
time is the median over the rounds of the CPU time (user + system) of its
compiles, with the wall time next to it. Prints one table; the ratios, a
compiler's median over clang-19's (1.000: as long as clang-19; 1.200: 20%
longer), are the result, the seconds only context.

--instructions measures what every invocation costs, whatever the file:
the instructions executed (counted by valgrind's callgrind, every process
included, so exact and unaffected by other load) to compile, and to
compile and link, a one-line program; ratios to clang-19's. Configure
scripts run thousands of such compiles.

  PYTHONPATH=tests python3 bench/compile_time.py
  PYTHONPATH=tests python3 bench/compile_time.py --instructions"""

import argparse

from divtest import bench as bt
from divtest import corpus, tools

CONFIGS = {
    "clang-19": (tools.clang, []),
    "divcc -fno-diversify": (tools.divcc, ["-fno-diversify"]),
    "divcc -fdiversify": (tools.divcc, ["-fdiversify", "-frandom-seed=bench"]),
}


def compile_all(compiler_for, flags, outdir):
    """(CPU seconds, wall seconds) of compiling every corpus source."""
    with bt.Stopwatch() as w:
        for prog in corpus.programs():
            for src in prog.sources:
                bt.run([compiler_for(prog.is_cxx)] + prog.std_flags() + flags +
                      ["-c", src, "-o", outdir / (src.stem + ".o")])
    return w.cpu, w.wall


def time_corpus(args, out):
    def measure(name):
        cc, flags = CONFIGS[name]
        return compile_all(cc, [args.opt] + flags, out)

    times = bt.interleaved(list(CONFIGS), args.repeat, measure, lambda r, latest: bt.log(
        f"round {r + 1}/{args.repeat}: " +
        ", ".join(f"{n} {cpu:.2f} s" for n, (cpu, _) in latest.items())))
    cpu = {n: bt.median([c for c, _ in ts]) for n, ts in times.items()}
    wall = {n: bt.median([w for _, w in ts]) for n, ts in times.items()}
    print(f"Compile time of the corpus ({len(corpus.programs())} programs, {args.opt}), "
          f"median of {args.repeat} rounds; ratios to clang-19's.\n")
    print(bt.markdown_table(
        ["compiler", "CPU s", "ratio", "wall s", "wall ratio"],
        [[n, f"{cpu[n]:.2f}", bt.ratio(cpu[n] / cpu["clang-19"]), f"{wall[n]:.2f}",
          bt.ratio(wall[n] / wall["clang-19"])] for n in CONFIGS]))


def count_instructions(opt, outdir):
    bt.require_valgrind("compile_time")
    src = outdir / "one-line.c"
    src.write_text("int main(void) { return 0; }\n")
    rows, base = [], None
    for name, (cc, flags) in CONFIGS.items():
        counts = [sum(n for _, n in bt.callgrind([cc(False), opt] + flags + args, cwd=outdir))
                  for args in (["-c", str(src), "-o", "one.o"], [str(src), "-o", "one"])]
        base = base or counts
        rows.append([name] + [x for c, c0 in zip(counts, base)
                              for x in (f"{c / 1e6:.1f}", bt.ratio(c / c0))])
    print(f"Instructions executed for a one-line C program ({opt}), every process "
          "started included (callgrind); ratios to clang-19's.\n")
    print(bt.markdown_table(["compiler", "-c (millions)", "ratio", "link (millions)", "ratio"],
                           rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--opt", default="-O2", help="optimization flag (default -O2)")
    ap.add_argument("--instructions", action="store_true",
                    help="count the instructions of a one-line compile instead (valgrind)")
    args = ap.parse_args()
    tools.require_build("compile_time")
    with bt.work_folder("bench") as out:
        if args.instructions:
            count_instructions(args.opt, out)
        else:
            time_corpus(args, out)


if __name__ == "__main__":
    main()
