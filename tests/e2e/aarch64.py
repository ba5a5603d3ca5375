#!/usr/bin/env python3
"""AArch64: every corpus program, built for aarch64-linux-gnu by divcc
-fdiversify=all under 5 seeds at -O2 and run under qemu-aarch64, prints
exactly what the clang-19 build prints and exits with the same code.

Needs the Debian cross libraries (libc6-dev-arm64-cross,
libgcc-12-dev-arm64-cross, libstdc++-12-dev-arm64-cross) and qemu-user,
which scripts/install-deps.sh installs; without them the check fails. Programs written for x86 only (inline
x86 assembly, SSE2 intrinsics) are listed in X86_ONLY and not built; any
other program that clang-19 cannot build for AArch64 is a failure."""

import shutil
import sys
from pathlib import Path

from divtest import checks, corpus, tools

TARGET = ["--target=aarch64-linux-gnu", "-fuse-ld=lld"]
SYSROOT = Path("/usr/aarch64-linux-gnu")
QEMU = shutil.which("qemu-aarch64")
SEEDS = 5
# Programs that are x86 by construction, and why.
X86_ONLY = {
    "c_inline_asm": "x86 inline assembly",
    "c_vectors": "SSE2 intrinsics from <emmintrin.h>",
}


def missing_prerequisites():
    if not QEMU:
        return "qemu-aarch64 not found (Debian package qemu-user)"
    if not (SYSROOT / "lib" / "libc.so.6").exists():
        return f"no AArch64 C library in {SYSROOT} (libc6-dev-arm64-cross)"
    if not list(Path("/usr/lib/gcc-cross/aarch64-linux-gnu").glob("*/libstdc++.so")):
        return "no AArch64 libstdc++ (libstdc++-12-dev-arm64-cross)"
    return None


def run(exe):
    # qemu is several times slower than the native programs.
    return tools.run([QEMU, "-L", str(SYSROOT), str(exe)], timeout=600)[:2]


def main():
    why = missing_prerequisites()
    if why:
        sys.exit(f"aarch64: error: {why}; scripts/install-deps.sh installs it")
    work = checks.work_dir("aarch64")
    progs = [p for p in corpus.programs() if p.name not in X86_ONLY]
    for name, reason in X86_ONLY.items():
        print(f"not built: {name} ({reason})")

    def reference(prog):
        exe = work / prog.name / "clang.exe"
        cc = tools.clang(prog.is_cxx)
        flags = TARGET + ["-O2"]
        try:
            objs = corpus.compile_objects(cc, prog, flags, exe.parent / "clang")
            corpus.link(cc, objs, flags, exe)
        except RuntimeError as e:
            return f"clang-19 build failed: {e}"
        return run(exe)

    expected = dict(zip((p.name for p in progs), corpus.parallel(reference, progs)))
    failures = [f"{name}: {r}" for name, r in expected.items() if isinstance(r, str)]

    jobs = [(p, seed) for p in progs if not isinstance(expected[p.name], str)
            for seed in range(SEEDS)]

    def one(job):
        prog, seed = job
        tag = f"{prog.name} -O2 seed#{seed}"
        out = work / prog.name / f"divcc.{seed}"
        flags = TARGET + ["-O2", "-fdiversify=all",
                          f"-frandom-seed=aarch64-{seed}"]
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, flags, out, tag,
                                    expected[prog.name], runner=run,
                                    then=f"; {QEMU} -L {SYSROOT} ./a.out")

    failures += corpus.failed(one, jobs)
    checks.report("aarch64", failures, len(jobs) + len(progs))


if __name__ == "__main__":
    sys.exit(main())
