"""For the gaps tests: what comes before each run of traps in a binary.

Usage: trap_runs.py BINARY

Disassembles BINARY's .text with llvm-objdump and, for every run of traps
(int3 on x86, udf #0 on AArch64) inside a function, classifies the
instruction before it: a jump, a return, a call (to a function that does
not return) or other. Prints the count of each class, and every "other"
with its address: trap padding must only follow places control cannot fall
through."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)(.*)$")
TRAPS = ("int3", "udf")
CLASSES = {"jmp": "jump", "jmpq": "jump", "b": "jump", "br": "jump",
           "ret": "return", "retq": "return",
           "call": "call", "callq": "call", "bl": "call", "blr": "call"}

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = subprocess.run(["llvm-objdump-19", "-d", "-z", "--no-show-raw-insn",
                      "--section=.text", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
counts = {"jump": 0, "return": 0, "call": 0, "other": 0}
previous, in_run = None, False
for line in out.splitlines():
    if line.endswith(">:"):          # a new function
        previous, in_run = None, False
        continue
    m = LINE.match(line)
    if not m:
        continue
    address, mnemonic = m.group(1), m.group(2)
    if mnemonic in TRAPS:
        if not in_run and previous is not None:
            kind = CLASSES.get(previous[1], "other")
            counts[kind] += 1
            if kind == "other":
                print(f"after {previous[1]} at {previous[0]}: traps")
        in_run = True
        continue
    in_run = False
    previous = (address, mnemonic)
print(" ".join(f"{k}: {v}" for k, v in counts.items()))
