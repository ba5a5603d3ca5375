"""For the 32-bit ARM tests: how many literal pools a function has.

Usage: pools.py OBJECT FUNCTION

Counts the data mapping symbols ($d: a literal pool starts there) of
OBJECT's .symtab from FUNCTION's address up to the next function's (or the
end of its section): the pool after the function and the islands the
constant-islands pass put inside it."""
import re
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
out = subprocess.run(["llvm-readelf-19", "-s", sys.argv[1]], capture_output=True,
                     text=True, check=True).stdout
# Num: Value Size Type Bind Vis Ndx Name
symbols = [l.split() for l in out.splitlines() if re.match(r"\s*\d+:", l)]
symbols = [s for s in symbols if len(s) == 8]
start = next(s for s in symbols if s[7] == sys.argv[2] and s[3] == "FUNC")
begin, section = int(start[1], 16) & ~1, start[6]
ends = [int(s[1], 16) & ~1 for s in symbols
        if s[3] == "FUNC" and s[6] == section and (int(s[1], 16) & ~1) > begin]
end = min(ends, default=1 << 64)
print(sum(1 for s in symbols if s[7] == "$d" and s[6] == section
          and begin <= int(s[1], 16) < end))
