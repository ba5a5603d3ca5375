#!/usr/bin/env python3
"""Another architecture (cross.py aarch64, riscv64 or armhf): every corpus
program, built for the target (tests/divtest/projects.py's TARGETS) by
divcc -fdiversify=all under 5 seeds at -O2 and run under qemu, prints
exactly what the clang-19 build prints and exits with the same code. On
armhf the clang-19 build and the even seeds are Thumb-2 (Debian's
default), the odd seeds ARM state (-marm). Parity too: each program's
objects built by divcc -fno-diversify are byte-identical to clang-19's
(on armhf in both instruction sets).

Needs Debian's cross libraries for the target (libc6-dev-arm64-cross,
libc6-dev-riscv64-cross or libc6-dev-armhf-cross, and the libgcc and
libstdc++ ones) and qemu-user, which scripts/install-deps.sh installs;
without them the check fails. Programs written for x86 only (inline x86
assembly, SSE2 intrinsics) are listed in corpus.X86_ONLY and not built, nor
on armhf (ILP32) the programs that assume a 64-bit long (LP64_ONLY); any
other program that clang-19 cannot build for the target is a failure."""

import sys

from divtest import checks, corpus, projects, tools

SEEDS = 5
CROSS = [name for name, t in projects.TARGETS.items() if t.cross]


def seed_flags(target, seed):
    """The variant's flags beyond the target's: on armhf every other seed
    builds ARM-state code instead of Thumb."""
    return ["-marm"] if target.name == "armhf" and seed % 2 else []


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in CROSS:
        sys.exit(f"usage: cross.py {{{'|'.join(CROSS)}}}")
    target = projects.get_target(sys.argv[1])
    arch = target.name
    why = target.missing()
    if why:
        sys.exit(f"{arch}: error: {why}; scripts/install-deps.sh installs it")

    def run(exe):
        # qemu is several times slower than the native programs.
        return tools.run(target.command([str(exe)]), timeout=600)[:2]

    work = checks.work_dir(arch)
    skipped = corpus.unbuildable(target)
    progs = [p for p in corpus.programs() if p.name not in skipped]
    for name, reason in skipped.items():
        print(f"not built: {name} ({reason})")

    def reference(prog):
        exe = work / prog.name / "clang.exe"
        cc = tools.clang(prog.is_cxx)
        flags = list(target.cc_flags) + ["-O2"]
        try:
            objs = corpus.compile_objects(cc, prog, flags, exe.parent / "clang")
            corpus.link(cc, objs, flags, exe)
        except RuntimeError as e:
            return f"clang-19 build failed: {e}"
        return run(exe)

    expected = dict(zip((p.name for p in progs), corpus.parallel(reference, progs)))
    failures = [f"{name}: {r}" for name, r in expected.items() if isinstance(r, str)]

    states = [[], ["-marm"]] if target.name == "armhf" else [[]]
    parity_jobs = [(p, state) for p in progs for state in states]

    def parity(job):
        prog, state = job
        flags = list(target.cc_flags) + state + ["-O2"]
        where = work / prog.name / ("parity" + "".join(state))
        try:
            ours = corpus.compile_objects(tools.divcc(prog.is_cxx), prog,
                                          flags + ["-fno-diversify"], where / "divcc")
            theirs = corpus.compile_objects(tools.clang(prog.is_cxx), prog, flags,
                                            where / "clang")
        except RuntimeError as e:
            return f"{prog.name} {' '.join(state)}: parity build failed: {e}"
        differing = [o.name for o, t in zip(ours, theirs)
                     if o.read_bytes() != t.read_bytes()]
        if differing:
            return (f"{prog.name} {' '.join(state)}: divcc -fno-diversify objects differ "
                    f"from clang-19's: {', '.join(differing)}")
        return None

    failures += [f for f in corpus.parallel(parity, parity_jobs) if f]

    jobs = [(p, seed) for p in progs if not isinstance(expected[p.name], str)
            for seed in range(SEEDS)]

    def one(job):
        prog, seed = job
        tag = " ".join([prog.name, "-O2", *seed_flags(target, seed), f"seed#{seed}"])
        out = work / prog.name / f"divcc.{seed}"
        flags = (list(target.cc_flags) + seed_flags(target, seed)
                 + ["-O2", "-fdiversify=all", f"-frandom-seed={arch}-{seed}"])
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, flags, out, tag,
                                    expected[prog.name], runner=run,
                                    then=f"; {' '.join(target.emulator)} ./a.out")

    failures += corpus.failed(one, jobs)
    checks.report(arch, failures, len(jobs) + len(progs) + len(parity_jobs))


if __name__ == "__main__":
    sys.exit(main())
