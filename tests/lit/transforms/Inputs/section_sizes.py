"""Compares the .init size and .plt address of a clang build (first binary)
with divcc builds (the others), for tests/lit/transforms/offset.test and
offset-gnu-ld.test. A section the clang build lacks (RISC-V's .init) counts as
empty."""
import sys

from divtest import elf


def sections(path):
    """{name: (address, size)} of path's sections."""
    return {name: (s.addr, s.size) for name, s in elf.sections(path).items()}


def yes(flag):
    return "yes" if flag else "no"


init, plt, base, *variants = sys.argv[1:]
b = sections(base)
vs = [sections(v) for v in variants]
growth = [v[init][1] - b.get(init, (0, 0))[1] for v in vs]
print(f"{init} grew by multiple of 16:",
      " ".join(yes(g > 0 and g % 16 == 0) for g in growth))
print(f"{init} same for both seeds:", yes(len(set(growth)) == 1))
print(f"{plt} moved:", " ".join(yes(v[plt][0] != b[plt][0]) for v in vs))
