"""Where the loops of one function start, in several builds of it.

usage: loop_offsets.py FUNCTION OBJECT...

A loop starts at the target of a backward branch. Prints, for each
object, the offsets of FUNCTION's loops from the function's start; then
how many objects put a loop at an offset that is not a multiple of 16,
and how many distinct layouts of loops the objects hold."""

import re
import subprocess
import sys
from pathlib import Path

OBJDUMP = "llvm-objdump"  # LLVM 19's, first on lit's PATH


def loop_offsets(obj, function):
    """The offsets in function of the targets of its backward branches."""
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", obj], check=True,
                         capture_output=True, text=True).stdout
    offsets, inside = set(), False
    for line in out.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if head:
            inside = head.group(1) == function
            start = None
            continue
        insn = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s.*<" + re.escape(function) +
                        r"\+0x([0-9a-f]+)>", line)
        at = re.match(r"^\s*([0-9a-f]+):", line)
        if inside and at and start is None:
            start = int(at.group(1), 16)
        if inside and insn and insn.group(2).startswith(("j", "b")):
            here, target = int(insn.group(1), 16) - start, int(insn.group(3), 16)
            if target <= here:
                offsets.add(target)
    return sorted(offsets)


def main():
    function, objects = sys.argv[1], sys.argv[2:]
    layouts = []
    for obj in objects:
        offsets = loop_offsets(obj, function)
        if not offsets:
            sys.exit(f"{obj}: {function} has no loop")
        layouts.append(tuple(offsets))
        print(f"{Path(obj).name}: loops at " + " ".join(f"+{o:#x}" for o in offsets))
    unaligned = sum(1 for offs in layouts if any(o % 16 for o in offs))
    print(f"unaligned: {unaligned} of {len(layouts)}")
    print(f"layouts: {len(set(layouts))}")


if __name__ == "__main__":
    main()
