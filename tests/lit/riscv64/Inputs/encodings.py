"""For the RISC-V full-encoding tests: which instructions take two bytes.

Usage: encodings.py OBJECT [CLANG_OBJECT]

Disassembles OBJECT's code with llvm-objdump (which prints a two-byte
instruction as the instruction it stands for: c.li a0, 5 as li a0, 5) and
prints how many instructions it has in two bytes and in four, and which
kinds of two-byte ones (the mnemonic) are left. With CLANG_OBJECT, also
whether both have the same instructions once branch targets are taken out,
and how many are four bytes in OBJECT where they are two in CLANG_OBJECT
(and the other way round, which must never happen)."""
import collections
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+([0-9a-f]{4}(?:[0-9a-f]{4})?)\s+(\S+)\s*(.*?)\s*$")
TARGET = re.compile(r"(0x)?[0-9a-f]+ <[^>]*>$")


def instructions(path):
    out = subprocess.run(["llvm-objdump-19", "-d", path], capture_output=True,
                         text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        text = (m.group(2) + " " + TARGET.sub("", m.group(3))).strip()
        result.append((len(m.group(1)) // 2, text))
    return result


if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
code = instructions(sys.argv[1])
short = [text for size, text in code if size == 2]
print("two bytes:", len(short))
print("four bytes:", len(code) - len(short))
kinds = collections.Counter(text.split()[0] for text in short)
print("two-byte kinds:", " ".join(sorted(kinds)))
if len(sys.argv) == 3:
    clang = instructions(sys.argv[2])
    same = [t for _, t in code] == [t for _, t in clang]
    print("same instructions as clang:", "yes" if same else "no")
    if same:
        print("full where clang's is compressed:",
              sum(a == 4 and b == 2 for (a, _), (b, _) in zip(code, clang)))
        print("compressed where clang's is full:",
              sum(a == 2 and b == 4 for (a, _), (b, _) in zip(code, clang)))
