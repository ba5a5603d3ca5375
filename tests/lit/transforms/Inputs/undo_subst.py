"""Undoes divcc's substitutions in the disassembly of an object and compares
it with another object's (clang-19's): prints the first line that differs
and exits 1, or prints how many instructions were undone.

    undo_subst.py [--arch aarch64|arm] DIVCC.o CLANG.o

Each equivalent form is written back as the one clang emits. AArch64
(the default): a copy as `mov d, m`, a zeroing as `mov d, zr`, a constant
as `mov d, #c`, the sources of a commutative operation in ascending order,
a csel with its sources ascending (and its condition inverted if they were
swapped). ARM state: a copy as `mov d, m` and a `movw` as `mov`, each with
its condition (and every constant in decimal), the sources of a
commutative operation or comparison in ascending order. What remains must
be clang's code, instruction for instruction, or the pass changed more
than the form of an instruction."""

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


def sources_sorted(mnemonic, before, a, b, after=""):
    """An instruction whose two sources a and b commute, written with them
    in ascending order after the operands before."""
    return f"{mnemonic} {', '.join([*before, *sorted((a, b))])}{after}"


def canonical_aarch64(text):
    """The form clang emits of the AArch64 instruction written as text."""
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
        return sources_sorted(m[1], [m[2]], m[3], m[4], m[5] or "")
    m = COMPARE.match(text)
    if m:
        return sources_sorted(m[1], [], m[2], m[3])
    m = SELECT.match(text)
    if m and m[2] > m[3] and m[4] in INVERSE:
        return f"csel {m[1]}, {m[3]}, {m[2]}, {INVERSE[m[4]]}"
    return text


# ARM state: an optional condition after the mnemonic.
COND = r"(?:eq|ne|hs|cs|lo|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?"
ARM_COPY = re.compile(rf"(?:orr|and|add|sub|eor|bic)({COND}) (\w+), (\w+), (?:\3|#0)$")
ARM_CONSTANT = re.compile(rf"movw?({COND}) (\w+), #(0x[0-9a-f]+|\d+)$")
ARM_COMMUTATIVE = re.compile(rf"((?:add|adc|and|orr|eor|mul)s?{COND}) (\w+), (\w+), (\w+)$")
ARM_COMPARE = re.compile(rf"((?:tst|cmn){COND}) (\w+), (\w+)$")


def canonical_arm(text):
    """The form clang emits of the ARM-state instruction written as text."""
    m = ARM_COPY.match(text)
    if m:
        return f"mov{m[1]} {m[2]}, {m[3]}"
    m = ARM_CONSTANT.match(text)
    if m:
        return f"mov{m[1]} {m[2]}, #{int(m[3], 0)}"
    m = ARM_COMMUTATIVE.match(text)
    if m:
        return sources_sorted(m[1], [m[2]], m[3], m[4])
    m = ARM_COMPARE.match(text)
    if m:
        return sources_sorted(m[1], [], m[2], m[3])
    return text


CANONICAL = {"aarch64": canonical_aarch64, "arm": canonical_arm}


def instructions(obj):
    """[(function, instruction text)] of obj's code, as llvm-objdump prints it."""
    out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn", "--no-leading-addr",
                          obj], capture_output=True, text=True, check=True).stdout
    function, result = None, []
    for line in out.splitlines():
        if line.endswith(">:"):
            function = line[1:-2]
        elif line.startswith("\t") or line.startswith(" "):
            text = re.sub(r"\s+(?://|@)\s.*", "", line.strip()).replace("\t", " ")
            if text:
                result.append((function, text))
    return result


def main():
    args = sys.argv[1:]
    arch = "aarch64"
    if args[0] == "--arch":
        arch, args = args[1], args[2:]
    canonical = CANONICAL[arch]
    ours, theirs = instructions(args[0]), instructions(args[1])
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
