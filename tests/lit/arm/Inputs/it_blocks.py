"""For the 32-bit ARM tests: whether Thumb IT blocks are intact.

Usage: it_blocks.py OBJECT

Disassembles OBJECT with llvm-objdump and, after each IT instruction
(it, itt, ite, ...: one instruction for "it", one more for each further
t or e), checks that the instructions it predicates follow it directly,
each carrying a condition, and that none of them is one of divcc's NOP
forms (nop, nop.w, mov r8, r8). Prints the number of IT blocks, of NOPs
outside them, and every broken block."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+(?:[0-9a-f]{4}\s+){1,2}\s*(\S+)\s*(.*)$")
CONDITIONS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
              "hi", "ls", "ge", "lt", "gt", "le")

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = subprocess.run(["llvm-objdump-19", "-d", "--triple=thumbv7", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
code = [(m.group(1), m.group(2).strip()) for m in map(LINE.match, out.splitlines()) if m]


def is_nop(mnemonic, operands):
    return mnemonic in ("nop", "nop.w") or (mnemonic == "mov" and operands == "r8, r8")


blocks, nops, broken = 0, 0, []
i = 0
while i < len(code):
    mnemonic, operands = code[i]
    if re.fullmatch(r"it[te]{0,3}", mnemonic):
        blocks += 1
        body = code[i + 1:i + len(mnemonic) - 1]
        for m, o in body:
            base = m.split(".")[0]
            if is_nop(m, o) or not base.endswith(CONDITIONS):
                broken.append(f"{mnemonic} {operands}: {m} {o}")
        i += len(mnemonic) - 1
        continue
    nops += is_nop(mnemonic, operands)
    i += 1
print("it blocks:", blocks)
print("nops outside:", nops)
print("broken:", len(broken))
for b in broken:
    print("  ", b)
