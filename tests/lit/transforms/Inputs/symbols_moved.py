"""For tests/lit/transforms/offset*.test: whether each named symbol has another
address in the second binary of each pair.

Usage: symbols_moved.py SYMBOL... -- A1 B1 [A2 B2 ...]"""
import subprocess
import sys


def addresses(binary):
    """{name: address} of binary's defined symbols (llvm-nm's output)."""
    out = subprocess.run(["llvm-nm-19", "--defined-only", binary],
                         capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        value, _, name = line.split(maxsplit=2)
        found[name] = int(value, 16)
    return found


split = sys.argv.index("--")
names, binaries = sys.argv[1:split], sys.argv[split + 1:]
if not names or len(binaries) < 2 or len(binaries) % 2:
    sys.exit(__doc__)
pairs = [(addresses(a), addresses(b))
         for a, b in zip(binaries[::2], binaries[1::2])]
for name in names:
    moved = []
    for a, b in pairs:
        if name not in a or name not in b:
            sys.exit(f"symbols_moved.py: no symbol {name}")
        moved.append("yes" if a[name] != b[name] else "no")
    print(f"{name} moved:", " ".join(moved))
