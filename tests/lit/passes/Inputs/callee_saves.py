"""What prologue/epilogue insertion made of a function's callee-saved
registers, read from the MIR it printed:

    pushes: REG...              in prologue order (the stack-adjusting
                                push of an undef register left out)
    pops: REG...                in epilogue order
    pops mirror pushes: yes|no
    cfi matches pushes: yes|no  each `offset $REG, N` has N = -16 - 8 * the
                                register's position among the pushes
"""

import re
import sys

text = open(sys.argv[1]).read()
pushes = re.findall(r"frame-setup PUSH64r killed \$(\w+)", text)
pops = [r for r in re.findall(r"\$(\w+) = frame-destroy POP64r", text)
        if r in pushes]
offsets = dict((r, int(n)) for r, n in
               re.findall(r"CFI_INSTRUCTION offset \$(\w+), (-?\d+)", text))
print("pushes:", " ".join(pushes))
print("pops:", " ".join(pops))
print("pops mirror pushes:", "yes" if pops == pushes[::-1] else "no")
cfi = offsets == {r: -16 - 8 * i for i, r in enumerate(pushes)}
print("cfi matches pushes:", "yes" if cfi else "no")
