"""Undoes divcc's AArch64 substitutions in the disassembly of an object and
compares it with another object's (clang-19's): prints the first line that
differs and exits 1, or prints how many instructions were undone.

    undo_subst.py DIVCC.o CLANG.o

Each equivalent form is written back as the one clang emits: a copy as
`mov d, m`, a zeroing as `mov d, zr`, a constant as `mov d, #c`, the sources of a commutative
operation in ascending order, a csel with its sources ascending (and its
condition inverted if they were swapped). What remains must be clang's
code, instruction for instruction, or the pass changed more than the form
of an instruction."""

import re
import subprocess
import sys

INVERSE = {"eq": "ne", "hs": "lo", "mi": "pl", "vs": "vc", "hi": "ls", "ge": "lt",
           "gt": "le"}
INVERSE.update({v: k for k, v in INVERSE.items()})
ZR = r"(?:xzr|wzr)"
COPY = [re.compile(p) for p in (
    rf"(?:orr|add|eor) (\w+), {ZR}, (\w+)$",
    rf"(?:orr|add|eor|sub) (\w+), (\w+), {ZR}$",
    r"(?:orr|and) (\w+), (\w+), \2$",
    r"(?:add|sub) (\w+), (\w+), #0x0$",
)]
ZERO = [re.compile(p) for p in (
    rf"(?:orr|and|eor|add|sub) (\w+), {ZR}, {ZR}$",
    rf"neg (\w+), {ZR}$",
    r"mov (\w+), #0x0$",
    rf"mov (\w+), {ZR}$",
)]
CONSTANT = re.compile(rf"(?:mov (\w+)|orr (\w+), {ZR}), #(-?0x[0-9a-f]+)$")
COMMUTATIVE = re.compile(r"(add|adds|and|ands|orr|eor|mul|madd) (\w+), (\w+), (\w+)(, \w+)?$")
COMPARE = re.compile(r"(tst|cmn) (\w+), (\w+)$")
SELECT = re.compile(r"csel (\w+), (\w+), (\w+), (\w+)$")


def canonical(text):
    """The form clang emits of the instruction written as text."""
    for p in COPY:
        m = p.match(text)
        if m:
            return f"mov {m[1]}, {m[2]}"
    for p in ZERO:
        m = p.match(text)
        if m:
            return f"mov {m[1]}, {'x' if m[1][0] == 'x' else 'w'}zr"
    m = CONSTANT.match(text)
    if m:
        # objdump prints a movz of a negative 32- or 64-bit value signed.
        reg = m[1] or m[2]
        bits = 64 if reg[0] == "x" else 32
        return f"mov {reg}, #{int(m[3], 16) % (1 << bits):#x}"
    m = COMMUTATIVE.match(text)
    if m and "zr" not in m[3] + m[4]:
        a, b = sorted((m[3], m[4]))
        return f"{m[1]} {m[2]}, {a}, {b}{m[5] or ''}"
    m = COMPARE.match(text)
    if m:
        a, b = sorted((m[2], m[3]))
        return f"{m[1]} {a}, {b}"
    m = SELECT.match(text)
    if m and m[2] > m[3] and m[4] in INVERSE:
        return f"csel {m[1]}, {m[3]}, {m[2]}, {INVERSE[m[4]]}"
    return text


def instructions(obj):
    """[(function, instruction text)] of obj's code, as llvm-objdump prints it."""
    out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn", "--no-leading-addr",
                          obj], capture_output=True, text=True, check=True).stdout
    function, result = None, []
    for line in out.splitlines():
        if line.endswith(">:"):
            function = line[1:-2]
        elif line.startswith("\t") or line.startswith(" "):
            text = re.sub(r"\s*//.*", "", line.strip()).replace("\t", " ")
            if text:
                result.append((function, text))
    return result


def main():
    ours, theirs = instructions(sys.argv[1]), instructions(sys.argv[2])
    undone = 0
    for i, ((f, a), (g, b)) in enumerate(zip(ours, theirs)):
        if f != g or canonical(a) != canonical(b):
            print(f"instruction {i}: {f}: '{a}' against {g}: '{b}'")
            return 1
        undone += a != b
    if len(ours) != len(theirs):
        print(f"{len(ours)} instructions against {len(theirs)}")
        return 1
    print(f"{len(ours)} instructions, {undone} substituted, the rest as clang's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
