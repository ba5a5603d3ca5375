"""Prints whether the functions of a shared library's three source files
are laid out contiguously (one object after another, as a linker places
them) or interleaved (shuffled across objects at link time)."""
import subprocess
import sys

out = subprocess.run(["nm", "-n", "--defined-only", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
files = [name.split("_")[0] for _, kind, name in
         (line.split() for line in out.splitlines() if len(line.split()) == 3)
         if kind in "Tt" and name.split("_")[0] in ("circle", "square", "triangle")]
changes = sum(1 for a, b in zip(files, files[1:]) if a != b)
print(f"{len(files)} functions, {'interleaved' if changes > 4 else 'contiguous'}")
