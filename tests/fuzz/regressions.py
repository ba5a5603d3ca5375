#!/usr/bin/env python3
"""Regression runner: builds every program saved under tests/fuzz/regressions/
(reduced by csmith_diff.py from a program on which divcc and clang-19
disagreed) with clang-19 -O2 and with divcc under several seeds, runs each
build and requires the same output and exit status as clang's.

Each file's header gives the divcc flags of the mismatch it was reduced from
(a line "divcc-flags: ..."); the file is built with those flags, with the same
transformations under other seeds, and with -fdiversify=all under the same
seeds. A header line "status: open" marks a mismatch not fixed yet: its
failure is reported as expected (XFAIL) and does not fail the run, and its
passing (XPASS) fails it, so that whoever fixes divcc removes the line and
the file guards the fix from then on. With no files, the run passes."""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from divtest import fuzz

TIMEOUT = 10.0


def header_flags(text):
    m = re.search(r"divcc-flags:(.*)", text)
    return shlex.split(m.group(1)) if m else ["-O2", "-fdiversify=all", "-frandom-seed=regression"]


def variants(flags, seeds):
    """The divcc flag sets one regression is built with."""
    base = [f for f in flags if not f.startswith("-frandom-seed=")]
    transforms = next((f for f in base if f.startswith("-fdiversify=")), "-fdiversify=all")
    others = [f for f in base if not f.startswith("-fdiversify=")]
    out = [flags]
    for k in range(seeds):
        out.append(base + [f"-frandom-seed=regression-{k}"])
        if transforms != "-fdiversify=all":
            out.append(others + ["-fdiversify=all", f"-frandom-seed=regression-{k}"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path,
                    help="regressions to check (default: every tests/fuzz/regressions/*.c)")
    ap.add_argument("--seeds", type=int, default=3,
                    help="other divcc seeds per regression (default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    files = args.files or sorted(fuzz.REGRESSIONS.glob("*.c"))
    if files:
        fuzz.require_tools(fuzz.clang(), fuzz.divcc())
    work = Path(tempfile.mkdtemp(prefix="divcc-regressions-"))

    def check(path):
        """Returns (path, open?, list of failures or a string for an invalid file)."""
        text = path.read_text(errors="replace")
        is_open = re.search(r"^\s*status:\s*open\b", text, re.M) is not None
        d = work / path.stem
        d.mkdir()
        recorded = header_flags(text)
        opt = next((f for f in recorded if re.fullmatch(r"-O[0-3sz]", f)), "-O2")
        ok, msg = fuzz.compile_exe(fuzz.clang(), [opt, "-w"], path, d / "clang.exe")
        if not ok:
            return path, is_open, f"clang-19 does not build it: {fuzz.first_error(msg)}"
        ref = fuzz.run_exe(d / "clang.exe", TIMEOUT)
        if ref.timed_out or ref.status < 0:
            return path, is_open, f"clang-19's build {ref.describe()}"
        failures = []
        for i, flags in enumerate(variants(recorded, args.seeds)):
            exe = d / f"divcc-{i}.exe"
            cmd = [opt, "-w"] + [f for f in flags if f != opt]
            ok, msg = fuzz.compile_exe(fuzz.divcc(), cmd, path, exe)
            if not ok:
                failures.append(f"divcc {' '.join(flags)}: build failed: {fuzz.first_error(msg)}")
                continue
            got = fuzz.run_exe(exe, fuzz.divcc_timeout(ref, TIMEOUT))
            if got != ref:
                failures.append(f"divcc {' '.join(flags)}: {got.describe()}; "
                                f"clang-19: {ref.describe()}")
        return path, is_open, failures

    passed, failed, xfail = 0, [], []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for path, is_open, result in pool.map(check, files):
            name = path.name
            if isinstance(result, str):
                failed.append(f"{name}: invalid regression: {result}")
            elif result and is_open:
                xfail.append(name)
                print(f"XFAIL: {name} (status: open): {result[0]}")
            elif result:
                failed += [f"{name}: {r}" for r in result]
            elif is_open:
                failed.append(f"{name}: XPASS: divcc now agrees with clang-19 under every "
                              f"seed; remove the 'status: open' line from its header")
            else:
                passed += 1
                print(f"PASS: {name}")
    for f in failed:
        print(f"FAIL: {f}")
    if xfail:
        print(f"{len(xfail)} expected failures (open mismatches, status: open)")
    nfailed = len({f.split(':')[0] for f in failed})
    print(f"csmith-regressions: {passed} passed, {nfailed} failed")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
