"""Checks divcc's `entry` jumps, from the assembly of the same file built by
divcc (with -fdiversify=entry, and maybe gaps) and by clang-19:

    entry_sites.py ARCH DIVCC.s CLANG.s [LIST]

In each function, after what must stay first (endbr64, bti, paciasp),
either an unconditional jump to the label right after it (with only traps
between: the function's first gap) and then clang's code, or clang's code
as it is; labels compare by the order they appear in, since the new block
takes a number, and traps elsewhere (the other gaps) do not count. A
function gets the jump exactly when clang's code, from its entry, reaches
a return, an indirect jump or call or inline assembly (shift_sites.py's
endings) before an unconditional jump: only then does code before the
first gap end gadgets. Prints "functions 243, entered by a jump 200 (with
traps behind 180), left 43", writes each function's count of traps behind
its jump to LIST if given, and exits 1 on any other difference."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shift_sites import ENDINGS, JUMPS, functions, without_islands  # noqa: E402

STAY_FIRST = re.compile(r"^(?:endbr64|bti c|hint #(?:25|27|34)|pacia?sp|pacibsp)$")
TRAP = re.compile(r"^(?:int3|udf #\d+|(?:c\.)?unimp)$")


def numbered(code):
    """code with its block labels renamed L0, L1, ... in order of appearance."""
    names = {}

    def rename(m):
        return names.setdefault(m[0], f"L{len(names)}")
    return [re.sub(r"\.LBB\w+", rename, text) for text in code]


def without_traps(code):
    return [text for text in code if not TRAP.match(text)]


def ends_gadgets_before_jump(code, arch):
    """Whether clang's code of a function, from its entry, reaches a gadget
    ending or inline assembly before an unconditional jump."""
    ending = re.compile(rf"^(?:{ENDINGS[arch]})$")
    jump = re.compile(rf"^(?:{JUMPS[arch]})$")
    for text in code:
        if text == "APP" or ending.match(text):
            return True
        if jump.match(text):
            return False
    return False


def main():
    arch, ours_path, theirs_path = sys.argv[1:4]
    jump = re.compile(rf"^(?:{JUMPS[arch]})$")
    # ARM code's constant islands come out after the entry's jump, which a
    # branch over an island to the label after it would look like.
    ours, theirs = functions(ours_path, arch, False), functions(theirs_path, arch)
    if sorted(ours) != sorted(theirs):
        print(f"other functions: {sorted(set(ours) ^ set(theirs))}")
        return 1
    jumped = gapped = left = 0
    listing = []
    for name in sorted(ours):
        mine = ours[name]
        first = 0
        while first < len(mine) and (STAY_FIRST.match(mine[first]) or
                                     re.match(r"^\.L(?!BB)\w*:$", mine[first])):
            first += 1  # and -g's .Lfunc_begin label
        expected = ends_gadgets_before_jump(theirs[name], arch)
        m = jump.match(mine[first]) if expected and first < len(mine) else None
        if expected and not m:
            print(f"{name}: clang's code ends a gadget before its first jump, "
                  f"but no jump at the entry")
            return 1
        if m:
            label = mine[first].split()[-1]
            after = first + 1
            while after < len(mine) and TRAP.match(mine[after]):
                after += 1
            if after == len(mine) or mine[after] != label + ":":
                print(f"{name}: '{mine[first]}' is not a jump over traps to the next label")
                return 1
            jumped += 1
            gapped += after > first + 1
            listing.append(f"{name} {after - first - 1}\n")
            mine = mine[:first] + mine[after + 1:]
        else:
            left += 1
        if arch == "arm":
            mine = without_islands(mine)
        # The other gaps (with -fdiversify=...,gaps) are no code either.
        if numbered(without_traps(mine)) != numbered(without_traps(theirs[name])):
            print(f"{name}: not clang's code behind the entry's jump")
            return 1
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w") as out:
            out.writelines(listing)
    print(f"functions {len(ours)}, entered by a jump {jumped} (with traps behind {gapped}), left {left}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
