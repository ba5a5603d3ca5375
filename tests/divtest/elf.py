"""What the checks read in ELF files (little-endian, 64-bit and, for the
section headers, 32-bit too): section headers, code bytes, symbols, the
build id."""

import re
import struct
import subprocess
from collections import namedtuple
from pathlib import Path

from divtest import tools

Section = namedtuple("Section", "addr offset size")


# Where the section headers are, and the layout of one, in ELFCLASS32 (1)
# and ELFCLASS64 (2) files: (e_shoff's format and offset, e_shentsize's
# offset, a header's name, type, flags, addr, offset and size).
_CLASS_LAYOUT = {1: ("<I", 0x20, 0x2E, "<IIIIII"), 2: ("<Q", 0x28, 0x3A, "<IIQQQQ")}


def sections(binary):
    """{name: Section(address, file offset, size)}, from the section headers."""
    data = Path(binary).read_bytes()
    shoff_format, shoff_at, shentsize_at, header_format = _CLASS_LAYOUT[data[4]]
    shoff, = struct.unpack_from(shoff_format, data, shoff_at)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, shentsize_at)

    def header(i):
        name, _type, _flags, addr, offset, size = struct.unpack_from(
            header_format, data, shoff + i * shentsize)
        return name, Section(addr, offset, size)
    _, strtab = header(shstrndx)
    found = {}
    for i in range(shnum):
        name, section = header(i)
        start = strtab.offset + name
        found[data[start:data.index(b"\0", start)].decode()] = section
    return found


def section(binary, name):
    """The Section called name; AssertionError if binary has none."""
    found = sections(binary).get(name)
    if found is None:
        raise AssertionError(f"{binary}: no section {name}")
    return found


def code_bytes(binary):
    """The bytes of every executable section, in order, as one blob (each
    preceded by its name), from objdump and LLVM's objcopy (the host's
    reads only x86 programs)."""
    out = tools.check(["objdump", "-h", "-w", str(binary)]).decode()
    names = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) > 7 and parts[0].isdigit() and "CODE" in line:
            names.append(parts[1])
    blob = b""
    for name in names:
        tmp = Path(str(binary) + ".section")
        tools.check([str(Path(tools.CLANG).parent / "llvm-objcopy"), "-O", "binary", "--only-section=" + name, str(binary),
                     str(tmp)])
        blob += name.encode() + b"\0" + tmp.read_bytes()
        tmp.unlink()
    return blob


def symbols(binary, kind):
    """Names of the defined function ("F") or data ("O") symbols, grouped by
    section and in address order within each (in an object file every
    section starts at 0, so a plain address sort would interleave them)."""
    out = tools.check(["objdump", "-t", "-w", str(binary)]).decode()
    found = []
    for line in out.splitlines():
        # "VALUE FLAGS(7 columns) SECTION\tSIZE [VISIBILITY] NAME"
        value, flags, rest = line[:16], line[17:24], line[25:].split()
        if len(rest) < 3 or not all(c in "0123456789abcdef" for c in value):
            continue
        section_name, name = rest[0], rest[-1]
        if kind in flags and section_name != "*UND*":
            found.append((section_name, int(value, 16), name))
    return [(section_name, name) for section_name, _, name in sorted(found)]


def disassembly(binary, comment=None):
    """{function: [instruction text]} of binary's code, from llvm-objdump
    without raw bytes or addresses: each instruction's whitespace collapsed,
    and its comment dropped where the target's comment marker is given (@
    for 32-bit ARM, whose immediates start with #)."""
    out = tools.check([str(Path(tools.CLANG).parent / "llvm-objdump"), "-d",
                       "--no-show-raw-insn", "--no-leading-addr",
                       str(binary)]).decode()
    code, current = {}, None
    for line in out.splitlines():
        head = re.match(r"^<(.+)>:$", line.strip())
        if head:
            current = code.setdefault(head.group(1), [])
            continue
        if comment:
            line = line.split(comment)[0]
        text = " ".join(line.split())
        if current is not None and text and line.startswith((" ", "\t")):
            current.append(text)
    return code


def build_id(binary):
    """The GNU build id as hex, from readelf -n; "" if there is none."""
    out = subprocess.run(["readelf", "-n", str(binary)], capture_output=True,
                         text=True).stdout
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return m.group(1) if m else ""
