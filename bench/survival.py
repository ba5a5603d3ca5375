"""What the benchmark scripts read of a program's security and size:
gadget survival by `divtool audit --json` and the size of .text."""

import json
import shlex
import statistics
from pathlib import Path

from divtest import bench as bt
from divtest import tools

LLVM_SIZE = Path(tools.CLANG).parent / "llvm-size"


def text_size(program):
    """Bytes of the .text section of program (llvm-size -A)."""
    size = str(LLVM_SIZE) if LLVM_SIZE.exists() else "llvm-size-19"
    for line in bt.run([size, "-A", program], stdout=True).stdout.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == ".text":
            return int(fields[1])
    raise RuntimeError(f"{program}: no .text section")


def audit(base, variants):
    """[(survival, relative survival or None)] of each of variants against
    base (fractions), from divtool audit --json; stripped programs are
    audited with --no-functions and have no relative survival."""
    cmd = [tools.divtool_path(), "audit", "--json", "--no-progress"]
    paths = [str(base)] + [str(v) for v in variants]
    p = bt.run(cmd + paths, stdout=True, check=False)
    functions = True
    if p.returncode == 1 and "stripped" in p.stderr:
        functions = False
        p = bt.run(cmd + ["--no-functions"] + paths, stdout=True, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"divtool audit {shlex.join(paths)} failed ({p.returncode}): "
                           f"{p.stderr[-300:]}")
    reports = json.loads(p.stdout)["variants"]
    if [r["path"] for r in reports] != paths[1:]:
        raise RuntimeError(f"divtool audit {shlex.join(paths)}: unexpected variants in its report")
    return [(r["survival"],
             r.get("relative_survival") if functions and r.get("gadgets_in_functions") else None)
            for r in reports]


def matrix_survival(golden, installs):
    """divtool audit --matrix over golden and installs: the mean and worst
    absolute and relative survival from the golden master to each install,
    and between every ordered pair of installs, in percent:
    {"golden->install absolute mean": ..., ...}."""
    p = bt.run([tools.divtool_path(), "audit", "--matrix", "--json", "--no-progress",
               golden, *installs], stdout=True)
    matrix = json.loads(p.stdout)["matrix"]
    n = len(installs) + 1
    pairs = {"golden->install": [(0, j) for j in range(1, n)],
             "install->install": [(i, j) for i in range(1, n) for j in range(1, n) if i != j]}
    row = {}
    for pair, cells in pairs.items():
        for kind, key in (("absolute", "survival"), ("relative", "relative_survival")):
            shares = [100.0 * matrix[key][i][j] for i, j in cells]
            row[f"{pair} {kind} mean"] = statistics.mean(shares)
            row[f"{pair} {kind} worst"] = max(shares)
    return row
