"""Whether an x86-64 object's code survives disassembly and re-encoding.

Usage: reencode.py OBJECT

Disassembles OBJECT's .text with LLVM's disassembler (llvm-mc
--disassemble, the decoder LLVM BOLT uses when divtool rerandomize lays a
golden master out again) and compares each instruction's encoding, as
LLVM would emit it again, with the bytes it was decoded from. A prefix the
decoder does not keep (a segment override on an instruction without a
memory reference) comes out one byte shorter. Fixup bytes (branch and call
targets, which the re-encoding leaves open) match anything; padding NOPs,
which LLVM decodes to other forms of the same length, are left out.

Prints how many instructions were compared and how many came out
differently, each of those with its bytes."""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*[0-9a-f]+:\s+((?:[0-9a-f]{2}[ \t]+)+)(\S.*)$")
ENCODING = re.compile(r"# encoding: \[(.*)\]")

if len(sys.argv) != 2:
    sys.exit(__doc__)
# Each instruction's bytes, as llvm-objdump decodes them.
dump = subprocess.run(["llvm-objdump-19", "-d", "--section=.text", sys.argv[1]],
                      capture_output=True, text=True, check=True).stdout
instructions = []
for line in dump.splitlines():
    m = LINE.match(line)
    # Padding: LLVM decodes its multi-byte NOPs to other forms.
    if m and not m.group(2).startswith(("nop", "data16", "xchgw\t%ax, %ax")):
        instructions.append(([int(b, 16) for b in m.group(1).split()],
                             " ".join(m.group(2).split())))
# Each one decoded alone ([...]: exactly one instruction) and encoded again.
listing = subprocess.run(
    ["llvm-mc-19", "--disassemble", "-triple=x86_64", "-show-encoding"],
    input="\n".join("[" + " ".join(f"0x{b:02x}" for b in code) + "]"
                    for code, _ in instructions),
    capture_output=True, text=True, check=True).stdout
encodings = [[e.strip() for e in m.group(1).split(",")]
             for m in map(ENCODING.search, listing.splitlines()) if m]
if len(encodings) != len(instructions):
    sys.exit(f"llvm-mc decoded {len(encodings)} of {len(instructions)} "
             "instructions")
different = [text for (code, text), encoded in zip(instructions, encodings)
             if len(code) != len(encoded) or any(
                 e.startswith("0x") and int(e, 16) != b
                 for e, b in zip(encoded, code))]
print("instructions:", len(instructions))
print("re-encoded differently:", len(different))
for text in different[:20]:
    print("  ", text)
