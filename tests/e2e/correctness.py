#!/usr/bin/env python3
"""Correctness: every corpus program, diversified under several seeds, prints
exactly what the clang-19 build prints and exits with the same code."""

import argparse
import shlex

from divtest import checks, corpus, tools

# (flags, number of seeds): the acceptance bar is 5 seeds at -O2; the other
# rows cover the other code-generation paths with fewer seeds.
CONFIGS = [
    (["-O2"], 5),
    (["-O0"], 2),
    (["-O3"], 2),
    (["-O2", "-g", "-fPIC"], 1),
    (["-O2", "-fcf-protection", "-fstack-protector-strong"], 1),
    (["-O2", "-mllvm", "-verify-machineinstrs"], 1),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--transforms", default="default",
                    help="the -fdiversify=LIST to test (default: %(default)s)")
    ap.add_argument("--extra-flags", default="",
                    help="more divcc flags for every build, split like a "
                         "shell, e.g. --extra-flags=-fdiversify-sched=random")
    ap.add_argument("--all-levels", action="store_true",
                    help="5 seeds at each of -O0, -O2 and -O3 (instead of "
                         "5 at -O2 and 2 at the others)")
    args = ap.parse_args()
    configs = CONFIGS
    if args.all_levels:
        configs = [(f, 5 if f in (["-O0"], ["-O2"], ["-O3"]) else n) for f, n in CONFIGS]

    work = checks.work_dir("correctness")
    progs = corpus.programs()

    def reference(prog):
        exe = work / prog.name / "clang.exe"
        cc = tools.clang(prog.is_cxx)
        objs = corpus.compile_objects(cc, prog, ["-O2"], exe.parent / "clang")
        corpus.link(cc, objs, [], exe)
        return tools.run([str(exe)])[:2]

    expected = dict(zip((p.name for p in progs), corpus.parallel(reference, progs)))

    jobs = [(p, flags, seed) for p in progs for flags, n in configs for seed in range(n)]

    def one(job):
        prog, flags, seed = job
        tag = f"{prog.name} {' '.join(flags)} seed#{seed}"
        out = work / prog.name / f"{'_'.join(flags)}.{seed}"
        div_flags = flags + [f"-fdiversify={args.transforms}",
                             f"-frandom-seed=correctness-{seed}"]
        div_flags += shlex.split(args.extra_flags)
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, div_flags, out, tag,
                                    expected[prog.name])

    corpus.check_all("correctness", one, jobs)


if __name__ == "__main__":
    main()
