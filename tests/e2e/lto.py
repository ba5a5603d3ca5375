#!/usr/bin/env python3
"""LTO: every corpus program compiled with -flto=thin and with -flto (full)
and linked by divcc.

Parity: with diversification off, the executable's code is byte-identical
to clang-19 + lld's LTO link of clang-19's bitcode with the same flags.
Correctness: diversified (the default set, and every transformation for
one seed) under several seeds, it prints what clang-19's LTO build prints
and exits alike; two seeds give different code.

By default 2 seeds per mode; --full runs 5."""

import argparse

from divtest import checks, corpus, elf, tools

MODES = ["thin", "full"]
LINK_FLAGS = ["-fuse-ld=lld"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--full", action="store_true",
                    help="5 seeds per mode instead of 2")
    args = ap.parse_args()
    seeds = 5 if args.full else 2
    work = checks.work_dir("lto")
    progs = corpus.programs()

    def reference(job):
        prog, mode = job
        cc = tools.clang(prog.is_cxx)
        return corpus.build(cc, prog, ["-O2", f"-flto={mode}"],
                            work / prog.name / mode / "clang", LINK_FLAGS)

    ref_jobs = [(p, m) for p in progs for m in MODES]
    refs = dict(zip(((p.name, m) for p, m in ref_jobs),
                    corpus.parallel(reference, ref_jobs)))
    expected = {key: tools.run([str(exe)])[:2] for key, exe in refs.items()}

    def parity(job):
        prog, mode = job
        tag = f"{prog.name} -flto={mode} -fno-diversify"
        try:
            exe = corpus.build(tools.divcc(prog.is_cxx), prog,
                               ["-O2", f"-flto={mode}", "-fno-diversify"],
                               work / prog.name / mode / "plain", LINK_FLAGS)
        except RuntimeError as e:
            return f"{tag}: build failed: {e}"
        if elf.code_bytes(exe) != elf.code_bytes(refs[(prog.name, mode)]):
            return f"{tag}: code differs from clang-19 + lld's LTO link ({exe})"
        return None

    def correctness(job):
        prog, mode, seed, transforms = job
        flags = ["-O2", f"-flto={mode}", f"-fdiversify={transforms}",
                 f"-frandom-seed=lto-{seed}"]
        tag = f"{prog.name} {' '.join(flags)}"
        out = work / prog.name / mode / f"{transforms}.{seed}"
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, flags, out, tag,
                                    expected[(prog.name, mode)], LINK_FLAGS)

    failures = corpus.failed(parity, ref_jobs)
    jobs = [(p, m, s, "default") for p in progs for m in MODES for s in range(seeds)]
    jobs += [(p, m, 0, "all") for p in progs for m in MODES]
    failures += corpus.failed(correctness, jobs)

    # Two seeds give two variants: whole-program code differs.
    for prog in progs:
        for mode in MODES:
            a, b = (work / prog.name / mode / f"default.{s}" / "prog" for s in (0, 1))
            if a.exists() and b.exists() and elf.code_bytes(a) == elf.code_bytes(b):
                failures.append(f"{prog.name} -flto={mode}: seeds 0 and 1 give the same code")

    checks.report("lto", failures, len(ref_jobs) + len(jobs) + len(progs) * len(MODES))


if __name__ == "__main__":
    main()
