"""Usage: softfp_code.py A B SYMBOL...

For each SYMBOL, the share of the instructions of A's function that B's
function of that name has at the same place (the same index, the same
text, branch targets read as SYMBOL+OFFSET): "SYMBOL: NN% in place".
Two links of the same code show 100%; diversified copies, little."""

import re
import sys

from divtest import elf


def instructions(binary):
    code = elf.disassembly(binary)
    # llvm-objdump writes a branch's target as "0x1234 <f+0x40>": only the
    # part in brackets says where in the code it goes.
    return {name: [re.sub(r"\b0x[0-9a-f]+ (<[^>]+>)", r"\1", i) for i in insns]
            for name, insns in code.items()}


a, b = instructions(sys.argv[1]), instructions(sys.argv[2])
for symbol in sys.argv[3:]:
    if symbol not in a or symbol not in b:
        sys.exit(f"softfp_code.py: no function {symbol} in both programs")
    same = sum(x == y for x, y in zip(a[symbol], b[symbol]))
    print(f"{symbol}: {100 * same // len(a[symbol])}% in place")
