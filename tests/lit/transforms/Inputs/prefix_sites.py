"""For the prefixes tests: where redundant segment prefixes are.

Usage: prefix_sites.py OBJECT [CLANG_OBJECT]

Disassembles OBJECT's code with llvm-objdump and counts the instructions
whose encoding starts with a segment override naming ES, CS, SS or DS
(bytes 26, 2e, 36, 3e; alignment NOPs aside), which of the four appear,
how many of them are not a load, a store or an lea (a branch, a call or
a return, where the same byte would be a hint or "notrack", an
instruction without a memory reference, whose prefix a disassembler
drops, or one of divcc's NOP forms, where a prefix lands that nops
separated from its instruction). It also counts the loads and stores
(those through %fs aside) and the lea instructions that have none. With
CLANG_OBJECT, it also says whether both have the same instructions once
the prefixes, the NOPs and the addresses branches print are taken out.
Last, it counts the pushes of a register in their long form (ff /6) and
in their short one, and the pops in their long form (8f /0)."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+((?:[0-9a-f]{2}[ \t]+)+)(\S+)\s*(.*?)\s*(#.*)?$")
SEGMENT = re.compile(r"%(es|cs|ss|ds):")
TARGET = re.compile(r"^(j\w+|call\w?)\s+(0x)?[0-9a-f]+( <.*>)?$")
NOP_LEAS = ("leaq (%rsi), %rsi", "leaq (%rdi), %rdi")
OVERRIDES = {"26": "es", "2e": "cs", "36": "ss", "3e": "ds"}
CONTROL = ("j", "call", "ret")


def instructions(path):
    """(bytes, text) of each instruction, alignment NOPs aside."""
    out = subprocess.run(["llvm-objdump-19", "-d", path], capture_output=True,
                         text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m or m.group(2).startswith("data16"):
            continue
        encoding = m.group(1).split()
        first = encoding[0]
        text = (m.group(2) + " " + m.group(3)).strip()
        padding = m.group(2).startswith("nop") and first not in OVERRIDES
        if padding or text == "xchgw %ax, %ax":
            continue
        if TARGET.match(text):
            text = text.split()[0]
        result.append((encoding, SEGMENT.sub("", text)))
    return result


if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
code = instructions(sys.argv[1])
prefixed = [(b[0], i) for b, i in code if b[0] in OVERRIDES]
plain = [i for b, i in code if b[0] not in OVERRIDES]


def is_access(i):
    return "(" in i and not i.startswith(CONTROL + ("lea", "nop"))


print("prefixed:", len(prefixed))
print("loads and stores without one:",
      sum(1 for i in plain if is_access(i) and "%fs:" not in i))
print("lea without one:", sum(1 for i in plain if i.startswith("lea")))
print("segments:", " ".join(s for s in ("es", "cs", "ss", "ds")
                            if any(OVERRIDES[b] == s for b, _ in prefixed)))
wrong = [i for _, i in prefixed if i in NOP_LEAS or
         (not is_access(i) and not i.startswith("lea"))]
print("not a load, store or lea:", len(wrong))
for i in wrong:
    print("  ", i)
if len(sys.argv) == 3:
    print("same instructions as clang:",
          "yes" if [i for _, i in code] ==
          [i for _, i in instructions(sys.argv[2])] else "no")


def opcode(encoding):
    """The opcode byte of an instruction without legacy prefixes: the one
    after its REX prefix (40-4f), if any."""
    return encoding[1] if re.match(r"^4[0-9a-f]$", encoding[0]) else encoding[0]


def stack_ops(kind):
    """The encodings of the pushes or pops of a register."""
    return [b for b, i in code if re.match(rf"^{kind}q %r\w+$", i)]


pushes = stack_ops("push")
print("pushes in long form:", sum(1 for b in pushes if opcode(b) == "ff"),
      "short:", sum(1 for b in pushes if opcode(b) != "ff"))
print("pops in long form:", sum(1 for b in stack_ops("pop") if opcode(b) == "8f"))
