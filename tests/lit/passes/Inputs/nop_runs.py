"""For tests/lit/passes/nops-*: how many NOPs a MIR file holds, and in runs
of how many.

Usage: nop_runs.py REGEX FILE.mir

REGEX matches a whole instruction line (leading spaces stripped) that is one
of the target's NOP forms. Prints the number of NOPs, the number of places
(runs of consecutive NOPs) and the longest run."""
import re
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
nop = re.compile(sys.argv[1])
count, runs, longest, run = 0, 0, 0, 0
for line in open(sys.argv[2]).read().split("\n"):
    if nop.fullmatch(line.strip()):
        count += 1
        run += 1
        runs += run == 1
        longest = max(longest, run)
    else:
        run = 0
print(f"nops: {count}, places: {runs}, longest run: {longest}")
