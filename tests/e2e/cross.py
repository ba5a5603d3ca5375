#!/usr/bin/env python3
"""Another architecture (cross.py aarch64, cross.py riscv64): every corpus
program, built for ARCH-linux-gnu by divcc -fdiversify=all under 5 seeds
at -O2 and run under qemu-ARCH, prints exactly what the clang-19 build
prints and exits with the same code.

Needs Debian's cross libraries for ARCH (libc6-dev-arm64-cross or
libc6-dev-riscv64-cross, and the libgcc and libstdc++ ones) and qemu-user,
which scripts/install-deps.sh installs; without them the check fails.
Programs written for x86 only (inline x86 assembly, SSE2 intrinsics) are
listed in X86_ONLY and not built; any other program that clang-19 cannot
build for ARCH is a failure."""

import shutil
import sys
from pathlib import Path

from divtest import checks, corpus, tools

# Debian's name for each architecture's cross packages.
PACKAGE_ARCH = {"aarch64": "arm64", "riscv64": "riscv64"}
SEEDS = 5
# Programs that are x86 by construction, and why.
X86_ONLY = {
    "c_inline_asm": "x86 inline assembly",
    "c_vectors": "SSE2 intrinsics from <emmintrin.h>",
}


def missing_prerequisites(arch, qemu, sysroot):
    package = PACKAGE_ARCH[arch]
    if not qemu:
        return f"qemu-{arch} not found (Debian package qemu-user)"
    if not (sysroot / "lib" / "libc.so.6").exists():
        return f"no {arch} C library in {sysroot} (libc6-dev-{package}-cross)"
    if not list(Path(f"/usr/lib/gcc-cross/{arch}-linux-gnu").glob("*/libstdc++.so")):
        return f"no {arch} libstdc++ (libstdc++-12-dev-{package}-cross)"
    return None


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in PACKAGE_ARCH:
        sys.exit(f"usage: cross.py {{{'|'.join(PACKAGE_ARCH)}}}")
    arch = sys.argv[1]
    target = [f"--target={arch}-linux-gnu", "-fuse-ld=lld"]
    sysroot = Path(f"/usr/{arch}-linux-gnu")
    qemu = shutil.which(f"qemu-{arch}")
    why = missing_prerequisites(arch, qemu, sysroot)
    if why:
        sys.exit(f"{arch}: error: {why}; scripts/install-deps.sh installs it")

    def run(exe):
        # qemu is several times slower than the native programs.
        return tools.run([qemu, "-L", str(sysroot), str(exe)], timeout=600)[:2]

    work = checks.work_dir(arch)
    progs = [p for p in corpus.programs() if p.name not in X86_ONLY]
    for name, reason in X86_ONLY.items():
        print(f"not built: {name} ({reason})")

    def reference(prog):
        exe = work / prog.name / "clang.exe"
        cc = tools.clang(prog.is_cxx)
        flags = target + ["-O2"]
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
        flags = target + ["-O2", "-fdiversify=all", f"-frandom-seed={arch}-{seed}"]
        return corpus.check_variant(tools.divcc(prog.is_cxx), prog, flags, out, tag,
                                    expected[prog.name], runner=run,
                                    then=f"; {qemu} -L {sysroot} ./a.out")

    failures += corpus.failed(one, jobs)
    checks.report(arch, failures, len(jobs) + len(progs))


if __name__ == "__main__":
    sys.exit(main())
