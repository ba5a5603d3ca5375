"""For tests/lit/passes/gaps-*.mir: where divcc-gaps put its trap blocks.

Usage: gap_blocks.py INPUT.mir OUTPUT.mir

A gap is a block holding nothing but trap instructions (x86-64 INT3,
AArch64 and ARM state UDF 0, Thumb tUDF 222, RISC-V C_UNIMP and UNIMP).
Prints, for each gap in layout order, the block before it and that block's
last opcode, the largest gap in trap instructions and in bytes, whether
OUTPUT without its gaps is INPUT (both printed by divcc-llc: the pass must
add blocks and change nothing else), and then the first gap's size and the
largest of the others (a function's first gap may be wider: with one
function in OUTPUT, the first gap is its first or, when that one drew
nothing, one of the others)."""
import re
import sys

TRAPS = {"INT3": 1, "UDF 0": 4, "tUDF 222": 2, "C_UNIMP": 2, "UNIMP": 4}
BLOCK = re.compile(r"^  bb\.(\d+)")


def blocks(path):
    """[(header, [lines])] of every block in the file, other lines as
    blocks with a None header."""
    out, current = [], (None, [])
    for line in open(path).read().split("\n"):
        if BLOCK.match(line):
            out.append(current)
            current = (line, [])
        elif current[0] is not None and not line.startswith("  "):
            out.append(current)
            current = (None, [line])
        else:
            current[1].append(line)
    out.append(current)
    return out


def normalized(block):
    """The block without the lines the MIR printer adds or leaves out
    depending on the next block: blank lines, an empty successor list."""
    header, lines = block
    return header, [l for l in lines
                    if l.strip() and l.strip() != "successors:"]


def instructions(lines):
    return [l.strip() for l in lines
            if l.startswith("    ") and l.strip()
            and not l.strip().startswith(("successors:", "liveins:", ";"))]


FLAGS = {"frame-setup", "frame-destroy", "nuw", "nsw", "exact", "disjoint",
         "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc",
         "nofpexcept", "nomerge", "unpredictable", "noconvergent"}


def opcode(instruction):
    """The opcode of a MIR instruction: [DEFS =] [FLAGS] OPCODE OPERANDS
    (ARM's and Thumb's opcodes may start in lower case: tBL, t2B)."""
    for token in instruction.split(" = ", 1)[-1].split():
        if token not in FLAGS:
            return token if re.match(r"^[A-Za-z][A-Za-z0-9_]*$", token) else "?"
    return "?"


if len(sys.argv) != 3:
    sys.exit(__doc__)
before, after = blocks(sys.argv[1]), blocks(sys.argv[2])
kept, gaps, previous = [], [], None
for header, lines in after:
    body = instructions(lines)
    if header is not None and body and all(i in TRAPS for i in body):
        name = BLOCK.match(previous[0]).group(0).strip() if previous else "?"
        last = instructions(previous[1])[-1] if previous else "?"
        print(f"gap after {name}: {opcode(last)}")
        gaps.append((len(body), sum(TRAPS[i] for i in body)))
        continue
    kept.append((header, lines))
    if header is not None:
        previous = (header, lines)


def largest(sizes):
    return (f"{max((t for t, _ in sizes), default=0)} traps, "
            f"{max((b for _, b in sizes), default=0)} bytes")


print(f"largest gap: {largest(gaps)}")
print("rest unchanged:", "yes" if list(map(normalized, kept)) ==
      list(map(normalized, before)) else "no")
print(f"first gap: {largest(gaps[:1])}")
print(f"largest other gap: {largest(gaps[1:])}")
