"""Undoes what divcc's `saves` does on 32-bit ARM in the disassembly of an
object and compares it with another object's (clang-19's): prints the
differences and exits 1, or prints how many functions save other
registers than clang's.

    undo_saves.py DIVCC.o CLANG.o

`saves` may add up to two callee-saved registers to a function's push and
pop register lists. That moves the function's frame by as many words, so
the immediates of instructions that address the frame (from sp, or from
the frame pointer r7 or r11) and of sp's own adjustments may differ, and
so may code addresses and offsets from pc, where the code grew; and
where clang saved an odd number of registers, padding with a `sub sp` of
one word or with a register it does not use, the added register may take
the place of either, so an adjustment may go. Nothing
else may change: every other instruction is clang's, in clang's order,
with clang's registers, and a function's lists hold clang's registers."""

import re
import sys

from divtest import elf

LIST = re.compile(r"^(push|pop|stmdb|ldm)(\w\w)?(\.w)?\s+(sp!, )?\{([^}]*)\}$")
FRAME_REGISTERS = ("sp", "pc", "r7", "r11")
IMMEDIATE = re.compile(r",? ?#-?(0x)?[0-9a-f]+")
CODE_ADDRESS = re.compile(r"0x[0-9a-f]+ <[^>]*>|^[0-9a-f]+: ([0-9a-f]{2} )+")
SP_COPY = re.compile(r"^(?:mov|add)(?:\.w)? (r\d+), sp(?:, #\S+)?$")
ADJUST = re.compile(r"^(sub|add)(\.w)?\s+sp, (sp, )?#")


def functions(path):
    """{name: [instruction text]} of the object's code, nops left out."""
    return {name: [t for t in code if not t.startswith(("nop", "udf"))]
            for name, code in elf.disassembly(path, comment="@").items()}


def registers(text):
    m = LIST.match(text)
    return m and (m[1] in ("push", "stmdb"),
                  [r.strip() for r in m[5].split(",")])


def normal(text):
    """The instruction without what the frame's size and the code's moves
    change: immediates where it addresses the frame or the literal pool
    (from sp, pc or a frame pointer), and code addresses."""
    text = CODE_ADDRESS.sub("", text).strip()
    if text.startswith(".word"):
        return ".word"  # a jump table's offsets, or a literal's
    text = SP_COPY.sub(r"add \1, sp", text)  # mov rN, sp is add rN, sp, #0
    operands = text.partition(" ")[2]
    if any(re.search(rf"\b{r}\b", operands) for r in FRAME_REGISTERS):
        return IMMEDIATE.sub("", text)
    return text


def used(register, code):
    """Whether an instruction of code other than a push or pop names
    register: if not, clang saved it only to keep the stack aligned."""
    return any(re.search(rf"\b{register}\b", text) and not registers(text)
               for text in code)


def compare(name, mine, theirs):
    """Whether a register list differs from clang's; raises ValueError at
    the first other difference."""
    lists_differ = False
    i = j = 0
    while i < len(mine) or j < len(theirs):
        a = mine[i] if i < len(mine) else ""
        b = theirs[j] if j < len(theirs) else ""
        la, lb = registers(a), registers(b)
        if la and lb and la[0] == lb[0]:
            dropped = set(lb[1]) - set(la[1])
            if (len(la[1]) < len(lb[1]) or len(la[1]) - len(lb[1]) > 2 or
                    len(dropped) > 1 or any(used(r, theirs) for r in dropped)):
                raise ValueError(f"{name}: {a!r} against clang's {b!r}")
            lists_differ |= la[1] != lb[1]
            i, j = i + 1, j + 1
        elif normal(a) == normal(b):
            i, j = i + 1, j + 1
        elif ADJUST.match(b):
            j += 1  # an alignment adjustment an added register replaced
        else:
            raise ValueError(f"{name}: instruction {i}: {a!r} against "
                             f"clang's {b!r}")
    return lists_differ


def main():
    mine, theirs = functions(sys.argv[1]), functions(sys.argv[2])
    if sorted(mine) != sorted(theirs):
        sys.exit(f"functions differ: {sorted(set(mine) ^ set(theirs))}")
    other, differ = 0, []
    for name in theirs:
        try:
            other += compare(name, mine[name], theirs[name])
        except ValueError as e:
            differ.append(str(e))
    for d in differ:
        print(d)
    print(f"{len(theirs)} functions, {other} saving other registers than "
          f"clang's, {len(differ)} otherwise changed")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
