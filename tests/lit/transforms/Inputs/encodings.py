"""For the tests of longer encodings (`prefixes` on RISC-V with C and in
Thumb): which instructions take two bytes and which four.

Usage: encodings.py OBJECT [CLANG_OBJECT]

Disassembles OBJECT's code with llvm-objdump and prints how many
instructions it has in two bytes and in four, and which kinds of two-byte
ones (the mnemonic) are left. With CLANG_OBJECT, also whether both have the
same instructions, read as the same operation on the same operands, and how
many are four bytes in OBJECT where they are two in CLANG_OBJECT (and the
other way round, which must never happen).

llvm-objdump prints a RISC-V two-byte instruction as the instruction it
stands for (c.li a0, 5 as li a0, 5). For Thumb, where it prints both forms
as written, the `.w` suffix is dropped, the two-operand forms of data
processing (`adds r0, #1`, `ands r0, r1`: the first register is also the
first source) are written with three, and immediates are read as numbers.
What moving code changes is left out: branch targets, PC-relative offsets,
the data of jump tables and literal pools, and the NOPs that align
functions."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+((?:[0-9a-f]{4} ?){1,2}|(?:[0-9a-f]{2} ?){1,4})\s+(\S+)\s*(.*?)\s*$")
TARGET = re.compile(r"(0x)?[0-9a-f]+ <[^>]*>$")
IMMEDIATE = re.compile(r"#(-?(?:0x[0-9a-f]+|\d+))")
THUMB_TWO_OPERAND = {"add", "adds", "sub", "subs", "adcs", "sbcs", "ands",
                     "orrs", "eors", "bics", "lsls", "lsrs", "asrs", "rors"}


def normalize(mnemonic, operands):
    operands = TARGET.sub("", operands.split("@")[0].strip()).strip()
    operands = IMMEDIATE.sub(lambda m: "#%d" % int(m.group(1), 0), operands)
    operands = re.sub(r"\[pc, #-?\d+\]", "[pc]", operands)
    if mnemonic.startswith("adr"):
        operands = operands.split(",")[0]
    mnemonic = mnemonic.removesuffix(".w")
    parts = [p.strip() for p in operands.split(",")] if operands else []
    if mnemonic in THUMB_TWO_OPERAND and len(parts) == 2:
        parts.insert(0, parts[0])
    return (mnemonic + " " + ", ".join(parts)).strip()


def instructions(path):
    out = subprocess.run(["llvm-objdump-19", "-d", path], capture_output=True,
                         text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        mnemonic = m.group(2)
        if mnemonic.startswith(".") or mnemonic.removesuffix(".w") == "nop":
            continue  # jump tables, literal pools, alignment
        size = len(m.group(1).replace(" ", "")) // 2
        result.append((size, normalize(mnemonic, m.group(3))))
    return result


if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
code = instructions(sys.argv[1])
short = [text for size, text in code if size == 2]
print("two bytes:", len(short))
print("four bytes:", len(code) - len(short))
print("two-byte kinds:", " ".join(sorted({t.split()[0] for t in short})))
if len(sys.argv) == 3:
    clang = instructions(sys.argv[2])
    same = [t for _, t in code] == [t for _, t in clang]
    print("same instructions as clang:", "yes" if same else "no")
    if same:
        print("four bytes where clang's has two:",
              sum(a == 4 and b == 2 for (a, _), (b, _) in zip(code, clang)))
        print("two bytes where clang's has four:",
              sum(a == 2 and b == 4 for (a, _), (b, _) in zip(code, clang)))
