"""For tests/lit/passes/blocks-*: the control-flow graph of a MIR file, and
where its blocks fall through, read from the MIR that divcc-llc printed.

Usage: block_cfg.py FILE.mir                  the CFG
       block_cfg.py --fall-throughs FILE.mir  the fall-throughs

The CFG: one line a block, sorted, with the block's IR name (block numbers
change when blocks move), its successors by IR name with their
probabilities, and its instructions that name no block (branches are what
block shuffling may rewrite). Two layouts of one function print the same
CFG.

The fall-throughs: a block's successors that none of its instructions
names (as %bb.N, or through a jump table it uses) can only be reached by
falling through, so there may be one, and it must be the next block of the
layout. Prints, for each function, how many blocks fall into a successor,
how many fall elsewhere (naming them), and how many branch instructions
name a block. The machine verifier checks this
only for blocks whose branches the target can analyze: not after ARM's
conditional returns, for one."""
import re
import sys

BLOCK = re.compile(r"^  bb\.(\d+)(?:\.([^ :(]+))?(?: \(([^)]*)\))?:$")
SUCCESSOR = re.compile(r"%bb\.(\d+)(\([0-9a-fx]+\))?")


def functions(path):
    """[(name, jump tables {id: [block numbers]}, blocks in layout order as
    (number, IR name, successors [(number, probability)], instructions))]"""
    out, current, in_tables, table_id = [], None, False, None
    block = None
    for line in open(path).read().split("\n"):
        if line.startswith("name:"):
            current = (line.split()[1], {}, [])
            out.append(current)
            in_tables = False
            continue
        if current is None:
            continue
        if line.startswith("jumpTable:"):
            in_tables = True
            continue
        if line.startswith("body:"):
            in_tables = False
            continue
        if in_tables:
            m = re.search(r"- id:\s+(\d+)", line)
            if m:
                table_id = int(m.group(1))
                current[1][table_id] = []
            current[1].setdefault(table_id, []).extend(
                int(n) for n in re.findall(r"%bb\.(\d+)", line))
            continue
        m = BLOCK.match(line)
        if m:
            name = m.group(2) or ""
            if not name and m.group(3):
                ir = re.search(r"%ir-block\.([\w.]+)", m.group(3))
                name = ir.group(1) if ir else ""
            block = (int(m.group(1)), name or "?", [], [])
            current[2].append(block)
            continue
        if block is None or not line.startswith("    "):
            continue
        text = line.strip()
        if text.startswith("successors:"):
            block[2].extend((int(n), p) for n, p in
                            SUCCESSOR.findall(text[len("successors:"):]))
        elif text and not text.startswith(("liveins:", ";")):
            block[3].append(text)
    return out


def named_blocks(instructions, tables):
    """The blocks that the instructions name, directly or by jump table."""
    named = set()
    for text in instructions:
        named.update(int(n) for n in re.findall(r"%bb\.(\d+)", text))
        for t in re.findall(r"%jump-table\.(\d+)", text):
            named.update(tables.get(int(t), []))
    return named


def cfg(path):
    for fn, tables, blocks in functions(path):
        names = {number: name for number, name, _, _ in blocks}
        lines = []
        for number, name, successors, instructions in blocks:
            succ = ", ".join(sorted(names.get(n, "?") + p
                                    for n, p in successors))
            body = [i for i in instructions if "%bb." not in i]
            lines.append(f"{fn}: {name} -> [{succ}] " + " | ".join(body))
        print("\n".join(sorted(lines)))


def fall_throughs(path):
    for fn, tables, blocks in functions(path):
        into, elsewhere = 0, []
        for i, (number, name, successors, instructions) in enumerate(blocks):
            implicit = {n for n, _ in successors} - \
                named_blocks(instructions, tables)
            if not implicit:
                continue
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            if nxt and implicit == {nxt[0]}:
                into += 1
                continue
            lands = f"bb.{nxt[0]}.{nxt[1]}" if nxt else "the end"
            names = {n: m for n, m, _, _ in blocks}
            wants = ", ".join(f"bb.{n}.{names.get(n, '?')}"
                              for n in sorted(implicit))
            elsewhere.append(f"  bb.{number}.{name} falls into {lands}, "
                             f"not {wants}")
        branches = sum(1 for _, _, _, instructions in blocks
                       for i in instructions if "%bb." in i)
        print(f"{fn}: fall into a successor: {into}, "
              f"elsewhere: {len(elsewhere)}, branches: {branches}")
        for line in elsewhere:
            print(line)


if len(sys.argv) == 2:
    cfg(sys.argv[1])
elif len(sys.argv) == 3 and sys.argv[1] == "--fall-throughs":
    fall_throughs(sys.argv[2])
else:
    sys.exit(__doc__)
