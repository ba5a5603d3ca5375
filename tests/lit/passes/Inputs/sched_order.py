"""For tests/lit/passes/sched-*: whether a schedule is a topological order
of the dependences of the code before scheduling.

Usage: sched_order.py BEFORE.mir AFTER.mir

Both files are MIR printed by divcc-llc, of the same functions, one block
each (scheduling regions end at calls and terminators; these inputs have
none in between). For each function, prints whether the instructions are
the same (as a multiset), whether each register an instruction reads is
still defined by the same instruction (data dependences; an anti or output
dependence broken shows up as a read of another definition, or as another
definition reaching the end), whether every store keeps its place relative
to every other memory access, and how many instructions are not where they
were:

    NAME: same instructions: yes, reads the same definitions: yes,
          memory order kept: yes, moved: N
"""
import re
import sys

REG = re.compile(r"(%\d+|\$(?!noreg\b)[a-z][a-z0-9_]*)")


def bodies(path):
    """{function: [instruction text]} in layout order."""
    out, name, body = {}, None, None
    for line in open(path).read().split("\n"):
        if line.startswith("name:"):
            name, body = line.split()[1], None
        elif line.startswith("body:") and name:
            body = out.setdefault(name, [])
        elif body is not None and line.startswith("    ") and line.strip() \
                and not line.strip().startswith(("successors:", "liveins:")):
            body.append(line.strip())
        elif body is not None and line and not line.startswith(" "):
            body = None
    return out


def defs_and_uses(text):
    """The registers \\p text defines and reads (subregister writes count as
    definitions; implicit operands are included)."""
    text = text.split(" :: ")[0]
    defs, uses = [], []
    lhs, sep, rhs = text.partition(" = ")
    if not sep:
        lhs, rhs = "", text
    defs += [r for r in REG.findall(lhs)]
    for token in re.finditer(r"(implicit-def|implicit|def)?\s*(?:dead |killed |"
                             r"undef |renamable |internal |early-clobber )*"
                             r"(%\d+|\$(?!noreg\b)[a-z][a-z0-9_]*)", rhs):
        (defs if token.group(1) in ("implicit-def", "def") else uses).append(
            token.group(2))
    return defs, uses


def analyse(body):
    """For each instruction (text, occurrence), the instruction (text,
    occurrence) that defines each register it reads, or None for a live-in;
    and the definitions that reach the end."""
    seen, last_def, reads = {}, {}, {}
    keys = []
    for text in body:
        seen[text] = seen.get(text, 0) + 1
        key = (text, seen[text])
        keys.append(key)
        defs, uses = defs_and_uses(text)
        reads[key] = sorted((r, last_def.get(r)) for r in set(uses))
        for r in defs:
            last_def[r] = key
    return keys, reads, sorted(last_def.items())


def memory_order(keys):
    """Pairs (a, b), a before b, of memory accesses at least one of which
    is a store."""
    accesses = [k for k in keys if " :: (" in k[0]]
    stores = {k for k in accesses if re.search(r":: .*\(store", k[0])}
    return {(a, b) for i, a in enumerate(accesses) for b in accesses[i + 1:]
            if a in stores or b in stores}


if len(sys.argv) != 3:
    sys.exit(__doc__)
before, after = bodies(sys.argv[1]), bodies(sys.argv[2])
for name, body in before.items():
    other = after.get(name, [])
    keys, reads, ends = analyse(body)
    okeys, oreads, oends = analyse(other)
    same = sorted(body) == sorted(other)
    data = same and reads == oreads and ends == oends
    memory = memory_order(keys) == memory_order(okeys)
    moved = sum(1 for a, b in zip(body, other) if a != b)
    yes = {True: "yes", False: "no"}
    print(f"{name}: same instructions: {yes[same]}, reads the same "
          f"definitions: {yes[data]}, memory order kept: {yes[memory]}, "
          f"moved: {moved}")
