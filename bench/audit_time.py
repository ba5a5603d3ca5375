#!/usr/bin/env python3
"""How long divtool audit takes on a 5 MB binary, next to ROPgadget's gadget
search on the same binary, measured side by side in one run.

The default binary is Debian's libcrypto.so.3 (4.7 MB, 2.6 MB of code; any
ELF file can be given with --binary). It is audited against copies of itself
(survival 100%: every gadget is looked up), with 1 and with 5 variants, so
the table shows the cost of the base and of each further variant. The
commands take turns, the order rotating every round; each one's time is the
median wall time of --repeat runs. The result is the ratio to ROPgadget
(0.10: a tenth of ROPgadget's time); seconds depend on the machine.

  PYTHONPATH=tests python3 bench/audit_time.py
  PYTHONPATH=tests python3 bench/audit_time.py --binary build/divcc --repeat 1"""

import argparse
import shutil
from pathlib import Path

from divtest import bench as bt
from divtest import tools

DEFAULT_BINARY = "/usr/lib/x86_64-linux-gnu/libcrypto.so.3"
REFERENCE = "ROPgadget --binary (gadget search)"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=DEFAULT_BINARY, help=f"ELF file (default {DEFAULT_BINARY})")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    args = ap.parse_args()
    tools.require_build("audit_time", ("divtool",))
    divtool = tools.divtool_path()
    with bt.work_folder("bench-audit") as tmp:
        copies = []
        for i in range(6):
            copies.append(tmp / f"copy-{i}")
            shutil.copy(args.binary, copies[-1])
        audit = [divtool, "audit", "--no-progress", "--no-functions", copies[0]]
        commands = {
            "divtool audit, 1 variant": audit + [copies[1]],
            "divtool audit, 5 variants": audit + copies[1:],
            REFERENCE: ["ROPgadget", "--binary", copies[0]],
        }
        times = bt.interleaved(list(commands), args.repeat,
                              lambda name: bt.run(commands[name]).wall)
    size = Path(args.binary).stat().st_size
    median = {name: bt.median(ts) for name, ts in times.items()}
    print(f"binary: {args.binary} ({size / 1e6:.1f} MB); median of {args.repeat} runs\n")
    print(bt.markdown_table(["command", "seconds", "vs ROPgadget"],
                           [[name, f"{m:.2f}", f"{m / median[REFERENCE]:.2f}x"]
                            for name, m in median.items()]))


if __name__ == "__main__":
    main()
