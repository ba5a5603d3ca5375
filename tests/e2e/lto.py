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

import corpus

MODES = ["thin", "full"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--full", action="store_true",
                    help="5 seeds per mode instead of 2")
    args = ap.parse_args()
    seeds = 5 if args.full else 2
    work = corpus.work_dir("lto")
    progs = corpus.programs()

    def build(compiler, prog, flags, out):
        objs = corpus.compile_objects(compiler, prog, flags, out)
        return corpus.link(compiler, objs, flags + ["-fuse-ld=lld"], out / "prog")

    def reference(job):
        prog, mode = job
        cc = corpus.clang(prog.is_cxx)
        exe = build(cc, prog, ["-O2", f"-flto={mode}"], work / prog.name / mode / "clang")
        return exe

    ref_jobs = [(p, m) for p in progs for m in MODES]
    refs = dict(zip(((p.name, m) for p, m in ref_jobs),
                    corpus.parallel(reference, ref_jobs)))
    expected = {key: corpus.run([str(exe)])[:2] for key, exe in refs.items()}

    def parity(job):
        prog, mode = job
        tag = f"{prog.name} -flto={mode} -fno-diversify"
        try:
            exe = build(corpus.divcc(prog.is_cxx), prog,
                        ["-O2", f"-flto={mode}", "-fno-diversify"],
                        work / prog.name / mode / "plain")
        except RuntimeError as e:
            return f"{tag}: build failed: {e}"
        if corpus.text_section(exe) != corpus.text_section(refs[(prog.name, mode)]):
            return f"{tag}: code differs from clang-19 + lld's LTO link ({exe})"
        return None

    def correctness(job):
        prog, mode, seed, transforms = job
        flags = ["-O2", f"-flto={mode}", f"-fdiversify={transforms}",
                 f"-frandom-seed=lto-{seed}"]
        tag = f"{prog.name} {' '.join(flags)}"
        out = work / prog.name / mode / f"{transforms}.{seed}"
        try:
            exe = build(corpus.divcc(prog.is_cxx), prog, flags, out)
        except RuntimeError as e:
            return f"{tag}: build failed: {e}"
        return corpus.output_mismatch(
            tag, exe, expected[(prog.name, mode)],
            f"{corpus.divcc(prog.is_cxx)} {' '.join(prog.std_flags() + flags)} "
            f"-fuse-ld=lld {' '.join(map(str, prog.sources))} -lm -lpthread")

    failures = [f for f in corpus.parallel(parity, ref_jobs) if f]
    jobs = [(p, m, s, "default") for p in progs for m in MODES for s in range(seeds)]
    jobs += [(p, m, 0, "all") for p in progs for m in MODES]
    failures += [f for f in corpus.parallel(correctness, jobs) if f]

    # Two seeds give two variants: whole-program code differs.
    for prog in progs:
        for mode in MODES:
            a, b = (work / prog.name / mode / f"default.{s}" / "prog" for s in (0, 1))
            if a.exists() and b.exists() and corpus.text_section(a) == corpus.text_section(b):
                failures.append(f"{prog.name} -flto={mode}: seeds 0 and 1 give the same code")

    corpus.report("lto", failures, len(ref_jobs) + len(jobs) + len(progs) * len(MODES))


if __name__ == "__main__":
    main()
