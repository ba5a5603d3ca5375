#!/usr/bin/env python3
"""The interestingness test csmith_diff.py gives cvise (or creduce) when it
reduces a mismatching program: exit 0 if the program in the current
directory still makes clang-19 and divcc disagree and is still a valid
program, else 1.

Usage: interesting.py CONFIG.json  (written by csmith_diff.py: the compilers,
divcc's flags, the file name, the run timeout, and the kind of mismatch,
"output" or "build").

Valid: clang-19 builds it (at the run's -O level, -O2 by default) with the
warnings of divtest.fuzz.CLANG_ERRORS as errors (uninitialized use, missing
return value, implicit declarations, ...), its clang build neither times
out nor crashes, and (for an output mismatch) gcc
warns of nothing in divtest.fuzz.GCC_ERRORS and ASan+UBSan, MSan and gcc -O0
builds behave like the clang build. The cheap checks come first: most
candidates fail to compile or lose the mismatch."""

import json
import sys
import tempfile
from pathlib import Path

from divtest import fuzz


def main():
    config = json.loads(Path(sys.argv[1]).read_text())
    src = Path(config["file"]).resolve()
    timeout = config["timeout"]
    with tempfile.TemporaryDirectory(prefix="interesting-", dir=src.parent) as tmp:
        tmp = Path(tmp)
        ok, msg = fuzz.compile_exe(config["clang"], [config["opt"]] + fuzz.CLANG_ERRORS,
                                      src, tmp / "clang.exe")
        if not ok:
            return "clang-19 rejects it: " + fuzz.first_error(msg)
        ref = fuzz.run_exe(tmp / "clang.exe", timeout)
        if ref.timed_out or ref.status < 0:
            return "clang-19's build: " + ref.describe()
        ok, msg = fuzz.compile_exe(config["divcc"], [config["opt"], "-w"] + config["divcc_flags"],
                                      src, tmp / "divcc.exe")
        if config["mode"] == "build":
            return None if not ok else "divcc builds it"
        if not ok:
            return "divcc does not build it (the mismatch was in output)"
        got = fuzz.run_exe(tmp / "divcc.exe", fuzz.divcc_timeout(ref, timeout))
        if got == ref:
            return "clang-19 and divcc agree: " + ref.describe()
        return fuzz.undefined_behaviour(src, tmp, ref, timeout)


if __name__ == "__main__":
    why = main()
    if why:
        print("not interesting: " + why)
    sys.exit(1 if why else 0)
