"""Prints whether the functions of the two source files (main_*, lib_*) of
an executable are laid out one file after the other or interleaved."""
import subprocess
import sys

out = subprocess.run(["nm", "-n", "--defined-only", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
files = [name.split("_")[0] for name in (line.split()[-1] for line in out.splitlines())
         if name.startswith(("main_", "lib_"))]
changes = sum(1 for a, b in zip(files, files[1:]) if a != b)
print(f"{len(files)} functions, {'interleaved' if changes > 1 else 'file by file'}")
