"""Compares the .init size and .plt address of a clang build (first binary)
with divcc builds (the others), for tests/lit/transforms/offset.c."""
import subprocess
import sys


def sections(path):
    out = subprocess.run(["llvm-readelf", "-SW", path], check=True,
                         capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 6 and fields[1].startswith("."):
            result[fields[1]] = (int(fields[3], 16), int(fields[5], 16))
    return result


def yes(flag):
    return "yes" if flag else "no"


init, plt, base, *variants = sys.argv[1:]
b = sections(base)
vs = [sections(v) for v in variants]
growth = [v[init][1] - b[init][1] for v in vs]
print(f"{init} grew by multiple of 16:",
      " ".join(yes(g > 0 and g % 16 == 0) for g in growth))
print(f"{init} same for both seeds:", yes(len(set(growth)) == 1))
print(f"{plt} moved:", " ".join(yes(v[plt][0] != b[plt][0]) for v in vs))
