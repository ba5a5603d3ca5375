"""Where AArch64 prologues save the callee-saved registers and where the
epilogues restore them from, read from MIR after prologue/epilogue
insertion (.mir) or from assembly (-S output, anything else).

    callee_saves_aarch64.py FILE

prints, for each function that saves registers, one line

    NAME: saves REG@SLOT... | stores N (pairs P)

with the registers in the order of the prologue's stores (a pair's two in
its order) and each one's slot as an offset from the CFA (the stack
pointer at entry); then, over those functions,

    functions: N
    cfi matches saves: yes|no      every .cfi_offset names a saved
                                   register and its slot, and every saved
                                   register has one
    restores match saves: yes|no   every epilogue loads each saved
                                   register from its slot, and no other
    frame record: yes|no           where FP and LR are saved, LR's slot is
                                   FP's plus 8 and FP points at FP's slot

with, after each "no", the lines that say why.

    callee_saves_aarch64.py PLAIN VARIANT...

prints those summary lines for PLAIN and each VARIANT (the same code
without and with `saves`), and for each VARIANT whether every function
saves the same registers as in PLAIN, with as many stores and pairs, and
in how many functions saving two or more the order or slots differ.
"""

import re
import sys

# Register names of MIR and of the assembly, as the x/d registers.
ALIASES = {"fp": "x29", "lr": "x30", "w29": "x29", "w30": "x30"}


def reg(name):
    name = name.strip().lstrip("$").lower()
    name = ALIASES.get(name, name)
    m = re.match(r"^[wb](\d+)$", name)  # CFI names: w19, b8
    if m:
        return ("x" if name[0] == "w" else "d") + m.group(1)
    return name


class Insn:
    """One line: kind is store, load, sp (an SP adjustment of delta
    bytes), fp (FP set to SP + delta), cfi (reg at offset from the CFA),
    stop (anything else that sets SP), end (a return or tail call),
    outlined (a call to code the machine outliner took out, at -Oz: the
    restores before it are not all there), label (a block starts), note (a
    directive, a comment) or other (any other instruction)."""

    def __init__(self, kind, regs=(), offset=0, delta=0, writeback=None):
        self.kind, self.regs, self.offset = kind, list(regs), offset
        self.delta, self.writeback = delta, writeback


# What AAPCS64 functions save: x19-x28, FP, LR, d8-d15.
AAPCS_SAVED = {f"x{n}" for n in range(19, 31)} | {f"d{n}" for n in range(8, 16)}

SCALE = {"X": 8, "D": 8, "Q": 16, "W": 4, "S": 4}


def parse_mir_line(line):
    line = line.split("::")[0].strip()
    m = re.search(r"CFI_INSTRUCTION offset (\$\w+), (-?\d+)", line)
    if m:
        return Insn("cfi", [reg(m.group(1))], int(m.group(2)))
    if not line or "CFI_INSTRUCTION" in line or line.startswith("liveins"):
        return Insn("note")
    m = re.search(r"frame-(?:setup|destroy) (ST|LD)(P|R)([XDQ])(i|ui|pre|post) "
                  r"(.*)$", line)
    if m:
        kind = "store" if m.group(1) == "ST" else "load"
        scale = SCALE[m.group(3)]
        mode = m.group(4)
        ops = [o.strip() for o in m.group(5).split(",")]
        imm = int(ops[-1])
        base = ops[-2]
        if base != "$sp":
            return Insn("other")
        if kind == "store":
            regs = [reg(o.split()[-1]) for o in ops[:-2]]
        else:
            lhs = line.split("=")[0].replace("early-clobber", "")
            regs = [reg(r) for r in lhs.split(",") if reg(r) != "sp"]
        if m.group(2) == "R" and mode in ("pre", "post"):
            scale = 1  # unscaled 9-bit immediate
        imm *= scale
        if mode == "pre":
            return Insn(kind, regs, 0, imm, "pre")
        if mode == "post":
            return Insn(kind, regs, 0, imm, "post")
        return Insn(kind, regs, imm)
    m = re.search(r"^\$sp = frame-(?:setup|destroy) (ADD|SUB)Xri \$sp, (\d+), "
                  r"(\d+)", line)
    if m:
        n = int(m.group(2)) << int(m.group(3))
        return Insn("sp", delta=n if m.group(1) == "ADD" else -n)
    m = re.search(r"^\$fp = frame-setup ADDXri \$sp, (\d+), (\d+)", line)
    if m:
        return Insn("fp", delta=int(m.group(1)) << int(m.group(2)))
    if re.search(r"^\$sp = ", line) or re.search(r"^\$sp = frame", line):
        return Insn("stop")
    if re.search(r"\b(RET|RET_ReallyLR|TCRETURN\w*)\b", line):
        return Insn("end")
    return Insn("other")


def parse_asm_line(line):
    line = line.split("//")[0].strip()
    m = re.match(r"^\.cfi_offset (\w+), (-?\d+)$", line)
    if m:
        return Insn("cfi", [reg(m.group(1))], int(m.group(2)))
    if not line or line.startswith("."):
        return Insn("note")
    m = re.match(r"^(stp|ldp|str|ldr)\s+([^\[]+),\s*\[sp(?:, #(-?\d+))?\](!)?"
                 r"(?:, #(-?\d+))?$", line)
    if m:
        kind = "store" if m.group(1).startswith("st") else "load"
        regs = [reg(r) for r in m.group(2).split(",")]
        off = int(m.group(3) or 0)
        if m.group(4):
            return Insn(kind, regs, 0, off, "pre")
        if m.group(5):
            return Insn(kind, regs, 0, int(m.group(5)), "post")
        return Insn(kind, regs, off)
    m = re.match(r"^(add|sub)\s+sp, sp, #(\d+)(?:, lsl #(\d+))?$", line)
    if m:
        n = int(m.group(2)) << int(m.group(3) or 0)
        return Insn("sp", delta=n if m.group(1) == "add" else -n)
    m = re.match(r"^add\s+x29, sp, #(\d+)(?:, lsl #(\d+))?$", line)
    if m:
        return Insn("fp", delta=int(m.group(1)) << int(m.group(2) or 0))
    if re.match(r"^mov\s+x29, sp$", line):
        return Insn("fp", delta=0)
    if re.match(r"^(mov|add|sub|and)\s+sp, ", line):
        return Insn("stop")
    if re.match(r"^bl?\s+OUTLINED_FUNCTION_", line):
        return Insn("outlined")
    if re.match(r"^(ret|retaa|retab)\b", line) or \
            re.match(r"^b\s+[^.]", line) or re.match(r"^br\s+x", line):
        return Insn("end")
    return Insn("other")


def functions(path):
    """{name: [Insn, ...]}"""
    funcs, current = {}, None
    mir = path.endswith(".mir")
    for line in open(path):
        if mir:
            m = re.match(r"^name:\s+(\S+)", line)
            if m:
                current = funcs.setdefault(m.group(1), [])
                continue
            if current is not None and re.match(r"^  bb\.", line):
                current.append(Insn("label"))
            elif current is not None and line.startswith("    "):
                current.append(parse_mir_line(line))
        else:
            m = re.match(r"^([\w.$]+):", line)
            if m and not m.group(1).startswith(".L"):
                current = funcs.setdefault(m.group(1), [])
                continue
            if current is not None and (m or line.startswith("// %bb.")):
                current.append(Insn("label"))
            elif current is not None and line.startswith("\t"):
                current.append(parse_asm_line(line))
    return funcs


def analyse(insns):
    """(saves [(reg, slot)], stores, pairs, cfi {reg: offset},
    epilogues [[(reg, slot)]], fp slot or None)"""
    cfi_at = [i for i, x in enumerate(insns) if x.kind == "cfi"]
    cfi = {x.regs[0]: x.offset for x in insns if x.kind == "cfi"}
    saves, stores, pairs, fp = [], 0, 0, None
    if cfi_at:
        # The prologue ends right before the first .cfi_offset; before it
        # (wherever shrink-wrapping put it) SP is the CFA.
        delta = 0
        for x in insns[:cfi_at[0]]:
            if x.kind == "sp":
                delta += x.delta
            elif x.kind == "fp":
                fp = delta + x.delta
            elif x.kind == "store":
                stores += 1
                pairs += len(x.regs) == 2
                if x.writeback == "pre":
                    delta += x.delta
                    base = delta
                else:
                    base = delta + x.offset
                size = 16 if x.regs[0].startswith("q") else 8
                for k, r in enumerate(x.regs):
                    saves.append((r, base + size * k))
        # LLVM's load/store optimizer may pair a save left alone at the
        # bottom of the area with a spill that follows in the same block
        # ("stp x30, x22, [sp, #32]" after the CFI): it counts as the one
        # store it was.
        saved = {r for r, _ in saves}
        for x in insns[cfi_at[-1]:]:
            if x.kind in ("label", "end", "stop", "sp", "outlined"):
                break
            if x.kind == "store" and not x.writeback:
                late = [(r, delta + x.offset + 8 * k)
                        for k, r in enumerate(x.regs)
                        if r in cfi and r not in saved and
                        cfi[r] == delta + x.offset + 8 * k]
                if late:
                    stores += 1
                    saves += late
                    saved |= {r for r, _ in late}
    saved = {r for r, _ in saves}
    epilogues = []
    for i, x in enumerate(insns):
        if x.kind != "end":
            continue
        # Back from the return (SP is the CFA there) to the start of its
        # block: the last load of each callee-saved register, which the
        # scheduler may have mixed with other instructions.
        loads, delta, j = {}, 0, i - 1
        while j >= 0 and insns[j].kind not in ("label", "end", "stop",
                                               "outlined"):
            y = insns[j]
            if y.kind == "sp":
                delta -= y.delta
            elif y.kind == "load":
                if y.writeback == "post":
                    delta -= y.delta
                    base = delta
                else:
                    base = delta + y.offset
                size = 16 if y.regs[0].startswith("q") else 8
                for k, r in enumerate(y.regs):
                    if r in AAPCS_SAVED | saved and r not in loads:
                        loads[r] = base + size * k
            j -= 1
        if loads and not (j >= 0 and insns[j].kind == "outlined"):
            epilogues.append(sorted(loads.items()))
    return saves, stores, pairs, cfi, epilogues, fp


def check(funcs, verbose):
    """Prints the consistency lines; returns {name: analysis} of the
    functions that save registers."""
    problems = {"cfi": [], "restores": [], "record": []}
    saving = {}
    for name, insns in funcs.items():
        saves, stores, pairs, cfi, epilogues, fp = analyse(insns)
        if not saves:
            continue
        saving[name] = (saves, stores, pairs)
        if verbose:
            print(f"{name}: saves " +
                  " ".join(f"{r}@{s}" for r, s in saves) +
                  f" | stores {stores} (pairs {pairs})")
        slots = dict(saves)
        if slots != cfi:
            problems["cfi"].append(f"{name}: saves {slots}, cfi {cfi}")
        for e in epilogues:
            if e != sorted(saves):
                problems["restores"].append(f"{name}: restores {e}")
        if "x29" in slots and "x30" in slots and fp is not None:
            if slots["x30"] != slots["x29"] + 8 or fp != slots["x29"]:
                problems["record"].append(
                    f"{name}: fp@{slots['x29']} lr@{slots['x30']} "
                    f"fp points at {fp}")
    print(f"functions: {len(saving)}")
    for key, text in (("cfi", "cfi matches saves"),
                      ("restores", "restores match saves"),
                      ("record", "frame record")):
        print(f"{text}: {'no' if problems[key] else 'yes'}")
        for p in problems[key]:
            print("  " + p)
    return saving


def main():
    if len(sys.argv) == 2:
        check(functions(sys.argv[1]), verbose=True)
        return
    plain = check(functions(sys.argv[1]), verbose=False)
    for path in sys.argv[2:]:
        variant = check(functions(path), verbose=False)
        same_set, same_count, reordered, several = True, True, 0, 0
        for name in sorted(set(plain) | set(variant)):
            saves, stores, pairs = variant.get(name, ([], 0, 0))
            before, stores0, pairs0 = plain.get(name, ([], 0, 0))
            if sorted(r for r, _ in saves) != sorted(r for r, _ in before):
                same_set = False
                print(f"  {name}: saves {saves}, plain {before}")
            if (stores, pairs) != (stores0, pairs0):
                same_count = False
                print(f"  {name}: {stores} stores ({pairs} pairs), "
                      f"plain {stores0} ({pairs0})")
            if len(saves) >= 2:
                several += 1
                reordered += saves != before
        print(f"same registers: {'yes' if same_set else 'no'}")
        print(f"same stores and pairs: {'yes' if same_count else 'no'}")
        print(f"functions saving two or more: {several}, "
              f"in another order: {reordered}")


if __name__ == "__main__":
    main()
