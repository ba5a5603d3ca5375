"""For the prefixes tests: where redundant segment prefixes are.

Usage: prefix_sites.py OBJECT [CLANG_OBJECT]

Disassembles OBJECT's code with llvm-objdump and prints how many
instructions name ES, CS, SS or DS (alignment NOPs aside: LLVM pads with
"nopw %cs:..."), which of the four appear, and how many of those
instructions are not plain loads or stores: a branch, a call, a return or
an lea, where a segment prefix would mean something else or nothing,
and how many loads and stores have none (those through %fs aside).
With CLANG_OBJECT, also whether both have the same instructions once the
prefixes, the NOPs and the addresses branches print are taken out."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+(\S+)\s*(.*?)\s*(#.*)?$")
SEGMENT = re.compile(r"%(es|cs|ss|ds):")
TARGET = re.compile(r"^(j\w+|call\w?)\s+(0x)?[0-9a-f]+( <.*>)?$")


def instructions(path):
    out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn",
                          path], capture_output=True, text=True,
                         check=True).stdout
    result = []
    for line in out.splitlines():
        m = LINE.match(line)
        if not m or m.group(1).startswith(("nop", "data16")):
            continue
        if m.group(1) == "xchgw" and m.group(2) == "%ax, %ax":
            continue
        text = (m.group(1) + " " + m.group(2)).strip()
        if TARGET.match(text):
            text = text.split()[0]
        result.append(text)
    return result


if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
code = instructions(sys.argv[1])
prefixed = [i for i in code if SEGMENT.search(i)]
wrong = [i for i in prefixed
         if i.startswith(("j", "call", "ret", "lea")) or "(" not in i]
unprefixed = [i for i in code
              if "(" in i and not SEGMENT.search(i) and "%fs:" not in i
              and not i.startswith(("j", "call", "ret", "lea"))]
print("prefixed:", len(prefixed))
print("loads and stores without one:", len(unprefixed))
print("segments:", " ".join(s for s in ("es", "cs", "ss", "ds")
                            if any("%" + s + ":" in i for i in prefixed)))
print("not a load or store:", len(wrong))
for i in wrong:
    print("  ", i)
if len(sys.argv) == 3:
    plain = [SEGMENT.sub("", i) for i in code]
    print("same instructions as clang:",
          "yes" if plain == instructions(sys.argv[2]) else "no")
