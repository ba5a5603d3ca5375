#!/usr/bin/env python3
"""Shows that two divcc builds generate the same code: every corpus source
compiled by both, with -fno-diversify, with each transformation alone and
with every transformation at once (with and without -g), under several
seeds, must give byte-identical objects; each single-file program linked
with every transformation (link and offset act at link time), and linked
with full and thin LTO (the code generated in the link), byte-identical
executables.

A redesign that must not change divcc's output (a refactoring of the layers,
the passes or the targets) is checked by building the revision before it
and running

    PYTHONPATH=tests bench/object_parity.py --reference OLD_BUILD/divcc [--candidate build/divcc]

It prints one line a configuration and exits 1 at the first difference,
naming the file, the flags and the first differing byte."""

import argparse
import concurrent.futures
import os
import re
import sys
import tempfile
from pathlib import Path

from divtest import bench as bt
from divtest import tools
from divtest.corpus import CORPUS
from divtest.tools import ROOT, TRANSFORMATIONS


def sources():
    found = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".c", ".cpp"))
    if len(found) < 30:
        sys.exit(f"object_parity: expected the corpus in {CORPUS}")
    return found


def configurations(seeds):
    """(label, divcc flags, whether to link) for every configuration."""
    yield "off", ["-fno-diversify"], False
    for t in TRANSFORMATIONS:
        for s in range(seeds):
            yield (f"{t} seed {s}",
                   [f"-fdiversify={t}", f"-frandom-seed=parity-{s}"], False)
    for s in range(seeds):
        yield (f"all seed {s}", ["-fdiversify=all", f"-frandom-seed=parity-{s}"],
               True)
        yield (f"all -g seed {s}",
               ["-fdiversify=all", f"-frandom-seed=parity-{s}", "-g"], False)
    # LTO: the code is generated in the link (driver/LtoLink.cpp), each
    # single-file program linked on its own.
    for lto in ("-flto=full", "-flto=thin"):
        yield f"{lto} off", [lto, "-fno-diversify"], True
        for s in range(seeds):
            yield (f"{lto} all seed {s}",
                   [lto, "-fdiversify=all", f"-frandom-seed=parity-{s}"], True)


def compile_one(compiler, source, flags, out, link):
    cxx = source.suffix == ".cpp"
    driver = compiler.with_name("div++") if cxx else compiler
    std = "-std=c++17" if cxx else "-std=c17"
    cmd = [str(driver), std, "-O2", *flags, str(source), "-o", str(out)]
    if not link or source.parent.name.startswith("multi-"):
        cmd.insert(1, "-c")
    else:
        cmd += ["-lm", "-lpthread"]
    p = bt.run(cmd, check=False)
    if p.returncode:
        return f"{' '.join(cmd)} failed:\n{p.stderr}"
    return None


def first_difference(a, b):
    x, y = a.read_bytes(), b.read_bytes()
    for i, (p, q) in enumerate(zip(x, y)):
        if p != q:
            return f"byte {i:#x}"
    return f"sizes {len(x)} and {len(y)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, type=Path,
                    help="divcc of the build to compare with")
    ap.add_argument("--candidate", type=Path, default=Path(tools.divcc()),
                    help="divcc of the build under test (default: $DIVCC_BUILD_DIR/divcc, "
                         "else build/divcc)")
    ap.add_argument("--seeds", type=int, default=3,
                    help="seeds of each diversified configuration (default 3)")
    ap.add_argument("--only", type=re.compile, default=re.compile(""),
                    metavar="REGEX",
                    help="only the configurations whose label (as printed, "
                    "e.g. 'blocks seed 1', '-flto=thin all seed 0') matches")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count(),
                    help="compiles at a time (default: the number of cores)")
    args = ap.parse_args()
    for c in (args.reference, args.candidate):
        if not os.access(c, os.X_OK):
            sys.exit(f"object_parity: '{c}' is not an executable divcc")

    files = sources()
    compared = 0
    with tempfile.TemporaryDirectory(prefix="divcc-parity-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for label, flags, link in configurations(args.seeds):
            if not args.only.search(label):
                continue
            jobs = []
            for n, src in enumerate(files):
                outs = [Path(tmp) / f"{side}-{n}" for side in ("ref", "new")]
                for compiler, out in zip((args.reference, args.candidate), outs):
                    jobs.append(pool.submit(compile_one, compiler, src, flags,
                                            out, link))
            for j in jobs:
                if err := j.result():
                    sys.exit(f"object_parity: {err}")
            for n, src in enumerate(files):
                ref, new = (Path(tmp) / f"{side}-{n}" for side in ("ref", "new"))
                if ref.read_bytes() != new.read_bytes():
                    print(f"DIFFERENT {label}: {src.relative_to(ROOT)} "
                          f"({' '.join(flags)}): {first_difference(ref, new)}")
                    return 1
                compared += 1
            print(f"same  {label:16} {len(files)} "
                  f"{'outputs' if link else 'objects'}", flush=True)
    print(f"object_parity: {compared} outputs byte-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
