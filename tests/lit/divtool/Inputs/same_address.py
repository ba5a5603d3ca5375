"""For rerandomize.test: how many of the golden master's functions (sized
code symbols of .symtab with one address) each install has at the same
address.

Usage: same_address.py GOLDEN INSTALL..."""
import subprocess
import sys


def functions(binary):
    """{name: address} of binary's sized code symbols with one address."""
    out = subprocess.run(["llvm-nm-19", "-S", "--defined-only", binary],
                         capture_output=True, text=True, check=True).stdout
    addresses = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW" and int(fields[1], 16):
            addresses.setdefault(fields[3], set()).add(int(fields[0], 16))
    return {name: a.pop() for name, a in addresses.items() if len(a) == 1}


if len(sys.argv) < 3:
    sys.exit(__doc__)
golden = functions(sys.argv[1])
for install in sys.argv[2:]:
    now = functions(install)
    same = [n for n, a in golden.items() if now.get(n) == a]
    print(f"{install}: {len(same)} of {len(golden)} functions at their "
          f"golden-master address", *same)
