#!/usr/bin/env python3
"""How long divtool audit takes on a 5 MB binary, next to ROPgadget's gadget
search on the same binary, measured side by side in one run.

The default binary is Debian's libcrypto.so.3 (4.7 MB, 2.6 MB of code; any
ELF file can be given with --binary). It is audited against copies of itself
(survival 100%: every gadget is looked up), with 1 and with 5 variants, so
the table shows the cost of the base and of each further variant. Each
timing is the median of --repeat runs, alternating the tools. The ratio to
ROPgadget is the result; seconds depend on the machine."""

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from divtest import tools

DEFAULT_BINARY = "/usr/lib/x86_64-linux-gnu/libcrypto.so.3"


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=DEFAULT_BINARY, help=f"ELF file (default {DEFAULT_BINARY})")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    args = ap.parse_args()
    divtool = tools.divtool_path()
    with tempfile.TemporaryDirectory(prefix="divcc-bench-audit-") as tmp:
        copies = []
        for i in range(6):
            copies.append(Path(tmp) / f"copy-{i}")
            shutil.copy(args.binary, copies[-1])
        base = str(copies[0])
        commands = {
            "divtool audit, 1 variant": [divtool, "audit", "--no-progress", "--no-functions",
                                         base, str(copies[1])],
            "divtool audit, 5 variants": [divtool, "audit", "--no-progress", "--no-functions",
                                          base, *map(str, copies[1:])],
            "ROPgadget --binary (gadget search)": ["ROPgadget", "--binary", base],
        }
        times = {name: [] for name in commands}
        for _ in range(args.repeat):
            for name, cmd in commands.items():
                times[name].append(timed(cmd))
    size = Path(args.binary).stat().st_size
    print(f"binary: {args.binary} ({size / 1e6:.1f} MB); median of {args.repeat} runs")
    reference = statistics.median(times["ROPgadget --binary (gadget search)"])
    print(f"{'command':50} {'seconds':>8} {'vs ROPgadget':>13}")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"{name:50} {median:8.2f} {median / reference:12.2f}x")


if __name__ == "__main__":
    main()
