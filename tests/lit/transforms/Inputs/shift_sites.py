"""Checks where divcc's `shift` put its no-ops, from the assembly of the same
file built by divcc (with -fdiversify=shift) and by clang-19:

    shift_sites.py ARCH MAX DIVCC.s CLANG.s [COUNTS]

For each function, its instructions must be clang's, label for label, with
one run of the target's no-op forms inserted; the run holds at most MAX,
right before the first return, indirect jump, indirect call or inline
assembly (the APP marker LLVM writes before it) that the function's entry
falls into (or before the conditional branch right before it, or before
the IT block it ends), and none where the entry reaches an unconditional
jump first. In ARM code a no-op may also write a constant into a register
that nothing reads from there to the ending (the ending included). Prints
how many functions have such an ending and how many no-ops each got:
"endings 160 of 240 (inline assembly 40); no-ops 0:41 1:39 2:40 3:40" (on x86-64, whose no-op
takes any length, also how many bytes: "; bytes 0:13 1:14 ..."), and
writes each function's count and no-ops to COUNTS if given. Exits 1 on any
difference."""

import collections
import re
import sys

# The no-op forms shift inserts: those that write no register.
NOPS = {
    "x86_64": r"data16|nop|nop[lw]\s+(?:%cs:)?(?:1|256)?\(%rax(?:,%rax)?\)",
    "aarch64": r"nop|(?:mov|orr|eor|and|add)\s+xzr, xzr(?:, xzr)?",
    "riscv64": r"nop|c\.nop|(?:andi|xori)\s+zero, zero, 0",
    "arm": r"nop(?:\.w)?|(?:movw?|movs|mvn)(?:\.w)? (?:r\d+|lr), #\d+",
}
# No-op forms that write a register: one that must be dead where it is
# written, so no instruction from there to the ending (that ending
# included) may name it, but in the list of registers a pop loads.
SCRATCH = {"arm": re.compile(r"^\S+ (r\d+|lr), #\d+$")}
# Where one no-op takes any length, its bytes: x86-64's `66 nop` is a
# data16 prefix and a nop, one instruction.
BYTES = {
    "x86_64": {"data16": 1, "nop": 1, "nopl (%rax)": 3, "nopl 1(%rax)": 4,
               "nopl 1(%rax,%rax)": 5, "nopw 1(%rax,%rax)": 6,
               "nopl 256(%rax)": 7, "nopl 256(%rax,%rax)": 8,
               "nopw 256(%rax,%rax)": 9, "nopw %cs:256(%rax,%rax)": 10},
}
ENDINGS = {
    "x86_64": r"retq?|jmpq?\s+\*.*|callq?\s+\*.*",
    "aarch64": r"ret|retaa|retab|br\s+.*|blr\s+.*",
    "riscv64": r"ret|jr\s+.*|jalr\s+.*",
    # Predicated ones too (bxlt lr): a return when its condition holds.
    "arm": r"bx(?:\w\w)?\s+.*|blx(?:\w\w)?\s+r.*|pop(?:\w\w)?(?:\.w)?\s+\{.*pc\}|ldr(?:\w\w)?\s+pc,.*",
}
JUMPS = {
    "x86_64": r"jmp\s+[^*].*",
    "aarch64": r"b\s+.*",
    "riscv64": r"(?:j|tail)\s+.*",
    "arm": r"b(?:\.w)?\s+.*",
}
CONDITIONAL = {
    "x86_64": r"j[a-z]+\s+.*",
    "aarch64": r"(?:b\.\w+|cbn?z|tbn?z)\s+.*",
    "riscv64": r"b[a-z]+\s+.*",
    "arm": r"(?:b[a-z]{2}(?:\.w)?|cbn?z)\s+.*",
}
# Thumb: what may stand between the no-ops and a predicated return, once
# Thumb-2's IT pass (which runs after divcc's) has grouped it with the
# predicated instructions before it: the IT and those instructions.
IT_BLOCK = re.compile(r"^(?:it[te]*\s+\w+|\w+?(?:eq|ne|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)(?:\.w)?\s.*)$")
COMMENT = {"x86_64": "#", "aarch64": "//", "riscv64": "#", "arm": "@"}


def functions(path, arch, islands_out=True):
    """{name: [instruction or label text]} of the assembly file (in ARM
    code without constant islands, unless islands_out is false)."""
    result, current, declared = {}, None, set()
    for raw in open(path):
        if raw.strip() == COMMENT[arch] + "APP" and current is not None:
            current.append("APP")  # inline assembly starts
            continue
        line = raw.split(COMMENT[arch])[0].rstrip()
        if not line:
            continue
        m = re.match(r"^\s*\.type\s+([\w.$]+),\s*[@%]function$", line)
        if m:
            declared.add(m[1])
        m = re.match(r"^([\w.$]+):$", line)
        if m:
            name = m[1]
            if name.startswith(".Lfunc_end") or (not name.startswith(".") and name not in declared):
                current = None
            elif not name.startswith("."):
                current = result.setdefault(name, [])
            elif current is not None and not name.startswith(".Ltmp"):
                current.append(name + ":")  # a block (-g's .Ltmp labels aside)
            continue
        text = " ".join(line.split())
        if current is not None and raw[:1].isspace() and not text.startswith("."):
            current.append(text)
    if arch == "arm" and islands_out:
        for name, code in result.items():
            result[name] = without_islands(code)
    return result


def without_islands(code):
    """ARM code without its constant islands' labels and the branches over
    them: where an island goes depends on the code's size, which the no-ops
    change (ARM's constant-island pass runs after divcc's)."""
    code = [t for t in code if not t.startswith(".LCPI")]

    def uses(label):
        return sum(t == label + ":" or t.endswith(" " + label) for t in code)

    result, i = [], 0
    while i < len(code):
        m = re.match(r"^b(?:\.w)? (\.LBB\w+)$", code[i])
        if m and i + 1 < len(code) and code[i + 1] == m[1] + ":" and uses(m[1]) == 2:
            i += 2  # a branch over an island to the label right after it
            continue
        result.append(code[i])
        i += 1
    return result


def main():
    arch, most, ours_path, theirs_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    listing = []
    is_nop = re.compile(rf"^(?:{NOPS[arch]})$")
    is_ending = re.compile(rf"^(?:{ENDINGS[arch]}|APP)$")
    is_jump = re.compile(rf"^(?:{JUMPS[arch]})$")
    is_conditional = re.compile(rf"^(?:{CONDITIONAL[arch]})$")
    ours, theirs = functions(ours_path, arch), functions(theirs_path, arch)
    if sorted(ours) != sorted(theirs):
        print(f"other functions: {sorted(set(ours) ^ set(theirs))}")
        return 1
    counts, distances, endings, assembly = collections.Counter(), collections.Counter(), 0, 0
    scratch = collections.Counter()
    for name in sorted(ours):
        mine, clang = ours[name], theirs[name]
        # The run: what stands between the longest common prefix and the
        # rest, which must be clang's.
        start = 0
        while start < len(clang) and mine[start] == clang[start]:
            start += 1
        nops = list(range(start, len(mine) - len(clang) + start))
        if len(mine) < len(clang) or mine[nops[-1] + 1 if nops else start:] != clang[start:] \
                or not all(is_nop.match(mine[i]) for i in nops):
            print(f"{name}: not clang's code with one run of no-ops put in")
            return 1
        ending = None
        for i, text in enumerate(clang):
            if is_ending.match(text):
                ending = i
                break
            if is_jump.match(text):
                break
        if ending is None:
            if nops:
                print(f"{name}: {len(nops)} no-ops, but its entry falls into no return")
                return 1
            continue
        endings += 1
        assembly += clang[ending] == "APP"
        instructions = sum(mine[i] != "data16" for i in nops)
        counts[instructions] += 1
        if arch in BYTES:
            distance = sum(BYTES[arch][mine[i]] for i in nops)
            distances[distance] += 1
            listing.append(f"{name} {instructions} {distance}")
        else:
            listing.append(f"{name} {instructions}")
        listing[-1] += "".join(f" ; {mine[i]}" for i in nops) + "\n"
        if not nops:
            continue
        first = nops[0]
        if nops != list(range(first, first + len(nops))) or instructions > most:
            print(f"{name}: no-ops at {nops}, not one run of at most {most}")
            return 1
        # Right before the ending, or before a conditional branch right before it.
        before = first
        between = clang[before:ending]
        if arch == "arm" and all(IT_BLOCK.match(t) for t in between):
            between = []
        if between and not (len(between) == 1 and is_conditional.match(between[0])):
            print(f"{name}: no-ops before '{clang[before]}', not before '{clang[ending]}'")
            return 1
        for i in nops:
            written = SCRATCH[arch].match(mine[i]) if arch in SCRATCH else None
            if not written:
                continue
            for text in clang[before:ending + 1]:
                if re.search(rf"\b{written[1]}\b", re.sub(r"^pop\w*(?:\.w)? \{.*\}$", "", text)):
                    print(f"{name}: '{mine[i]}' writes {written[1]}, which '{text}' reads")
                    return 1
            scratch[written[1]] += 1
    if len(sys.argv) > 5:
        with open(sys.argv[5], "w") as out:
            out.writelines(listing)
    histogram = " ".join(f"{k}:{counts[k]}" for k in sorted(counts))
    bytes_drawn = " ".join(f"{k}:{distances[k]}" for k in sorted(distances))
    print(f"endings {endings} of {len(ours)} (inline assembly {assembly}); no-ops {histogram}" +
          (f"; bytes {bytes_drawn}" if arch in BYTES else "") +
          (f"; registers written {len(scratch)}" if arch in SCRATCH else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
