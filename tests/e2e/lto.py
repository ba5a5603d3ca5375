#!/usr/bin/env python3
"""LTO: every corpus program compiled with -flto=thin and with -flto (full)
and linked by divcc, through lld (divcc's three steps) or, with --linker
bfd or gold, through GNU ld with divcc's linker plugin.

Parity: with diversification off, the executable's code is byte-identical
to clang-19's LTO link of clang-19's bitcode with the same flags and the
same linker.
Correctness: diversified (the default set, and every transformation for
one seed) under several seeds, it prints what clang-19's LTO build prints
and exits alike; two seeds give different code.

By default 2 seeds per mode; --full runs 5."""

import argparse

from divtest import checks, corpus, elf, tools

MODES = ["thin", "full"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--full", action="store_true",
                    help="5 seeds per mode instead of 2")
    ap.add_argument("--linker", choices=["lld", "bfd", "gold"], default="lld",
                    help="the linker of every link, divcc's and clang-19's "
                         "(default: lld)")
    args = ap.parse_args()
    seeds = 5 if args.full else 2
    link_flags = [f"-fuse-ld={args.linker}"]
    name = "lto" if args.linker == "lld" else f"lto-{args.linker}"
    work = checks.work_dir(name)
    progs = corpus.programs()

    def reference(job):
        prog, mode = job
        cc = tools.clang(prog.is_cxx)
        return corpus.build(cc, prog, ["-O2", f"-flto={mode}"],
                            work / prog.name / mode / "clang", link_flags)

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
                               work / prog.name / mode / "plain", link_flags)
        except RuntimeError as e:
            return f"{tag}: build failed: {e}"
        if elf.code_bytes(exe) != elf.code_bytes(refs[(prog.name, mode)]):
            return f"{tag}: code differs from clang-19 + {args.linker}'s LTO link ({exe})"
        return None

    def correctness(job):
        prog, mode, seed, transforms = job
        flags = ["-O2", f"-flto={mode}", f"-fdiversify={transforms}",
                 f"-frandom-seed=lto-{seed}"]
        tag = f"{prog.name} {' '.join(flags)}"
        out = work / prog.name / mode / f"{'every' if ',' in transforms else transforms}.{seed}"
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, flags, out, tag,
                                    expected[(prog.name, mode)], link_flags)

    failures = corpus.failed(parity, ref_jobs)
    jobs = [(p, m, s, "default") for p in progs for m in MODES for s in range(seeds)]
    # Every transformation; `link`'s whole-program shuffle needs lld.
    every = "all" if args.linker == "lld" else \
        ",".join(t for t in tools.TRANSFORMATIONS if t != "link")
    jobs += [(p, m, 0, every) for p in progs for m in MODES]
    failures += corpus.failed(correctness, jobs)

    # Two seeds give two variants: whole-program code differs.
    for prog in progs:
        for mode in MODES:
            a, b = (work / prog.name / mode / f"default.{s}" / "prog" for s in (0, 1))
            if a.exists() and b.exists() and elf.code_bytes(a) == elf.code_bytes(b):
                failures.append(f"{prog.name} -flto={mode}: seeds 0 and 1 give the same code")

    checks.report(name, failures, len(ref_jobs) + len(jobs) + len(progs) * len(MODES))


if __name__ == "__main__":
    main()
