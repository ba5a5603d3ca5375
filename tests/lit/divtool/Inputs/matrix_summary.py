"""From `divtool audit --matrix --json GOLDEN INSTALL INSTALL`: the survival
of what an attacker studied in the golden master (row 0) or in one install
(rows 1 and 2) in the other binaries, each "under N%" for the given bound,
the binaries named by their file names."""

import json
import sys

bound = float(sys.argv[1])
m = json.load(sys.stdin)["matrix"]
names = [b.rsplit("/", 1)[-1] for b in m["binaries"]]
for a, b in ((0, 1), (0, 2), (1, 2), (2, 1)):
    for kind in ("survival", "relative_survival"):
        share = 100.0 * m[kind][a][b]
        verdict = f"under {bound:g}%" if share < bound else f"{share:.2f}%"
        print(f"{names[a]} -> {names[b]}: {kind} {verdict}")
