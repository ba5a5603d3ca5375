"""Writes the 4 KiB page of FILE's executable segment that holds main to
OUT: a fragment of code as a crash dump or a memory image gives it."""

import subprocess
import sys


def main():
    binary, out = sys.argv[1], sys.argv[2]
    nm = subprocess.run(["nm", binary], capture_output=True, text=True,
                        check=True).stdout
    main_address = int(next(line.split()[0] for line in nm.splitlines()
                            if line.endswith(" main")), 16)
    headers = subprocess.run(["readelf", "-lW", binary], capture_output=True,
                             text=True, check=True).stdout
    for line in headers.splitlines():
        fields = line.split()
        if not fields or fields[0] != "LOAD" or "E" not in fields[6:-1]:
            continue
        offset, address, size = (int(fields[i], 16) for i in (1, 2, 4))
        if address <= main_address < address + size:
            start = offset + ((main_address - address) & ~0xfff)
            with open(binary, "rb") as f:
                f.seek(start)
                page = f.read(4096)
            with open(out, "wb") as f:
                f.write(page)
            print(len(page))
            return
    sys.exit("no executable segment holds main")


if __name__ == "__main__":
    main()
