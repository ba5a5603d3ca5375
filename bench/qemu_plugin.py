"""The instruction-counting QEMU plugin of bench/overhead.py --target NAME
--instructions (bench/qemu/insn_count.c), built on first use, and
count_instructions(), which runs a program under qemu-user with it.

A QEMU plugin must be built against the plugin header of the QEMU that
loads it, and Debian ships neither the header nor the example plugins. So
the source package of the installed qemu-user (`apt-get source
--download-only qemu=VERSION`, through tests/debian/rebuild.py's private APT
configuration with deb-src lines) gives include/qemu/qemu-plugin.h, and
the host compiler builds insn_count.c against it. The result is cached in
the real-world cache (tests/real-world/cache/qemu-plugin/VERSION/, or
$DIVCC_REALWORLD_CACHE), one per QEMU version."""

import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from divtest import bench as bt
from divtest import projects

SOURCE = Path(__file__).resolve().parent / "qemu" / "insn_count.c"


def qemu_version():
    out = subprocess.run(["dpkg-query", "-W", "-f=${source:Version}", "qemu-user"],
                         capture_output=True, text=True)
    if out.returncode or not out.stdout:
        raise RuntimeError("qemu-user is not installed (scripts/install-deps.sh installs it)")
    return out.stdout


def insn_count_plugin(log=sys.stderr):
    """The path of the built plugin for the installed qemu-user."""
    version = qemu_version()
    with projects._cache_lock() as root:
        out_dir = root / "qemu-plugin" / version.replace(":", "_")
        plugin = out_dir / "insn_count.so"
        if plugin.exists() and plugin.stat().st_mtime >= SOURCE.stat().st_mtime:
            return plugin
        out_dir.mkdir(parents=True, exist_ok=True)
        header = out_dir / "qemu-plugin.h"
        if not header.exists():
            print(f"qemu plugin: fetching the qemu {version} source package for its "
                  "plugin header", file=log, flush=True)
            _fetch_header(version, header)
        cc = subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror",
                             f"-I{out_dir}", str(SOURCE), "-o", str(plugin)],
                            capture_output=True, text=True)
        if cc.returncode:
            raise RuntimeError(f"cannot build {SOURCE.name}: {cc.stderr}")
        return plugin


# The plugin's line in qemu's log, one per process.
QEMU_COUNT = re.compile(r"^insns: (\d+)$", re.M)


def count_instructions(cmd, emulator, cwd=None, stdin=None):
    """The guest instructions cmd (a program under qemu-user: emulator,
    e.g. qemu-arm, somewhere in it, maybe after libtool's execute mode)
    executes, summed over its processes."""
    plugin = insn_count_plugin()
    with tempfile.NamedTemporaryFile(prefix="divcc-qemu-", suffix=".log") as qlog:
        at = cmd.index(emulator) + 1
        bt.run(cmd[:at] + ["-plugin", plugin, "-d", "plugin", "-D", qlog.name] + cmd[at:],
              cwd=cwd, stdin=stdin)
        counts = [int(n) for n in QEMU_COUNT.findall(Path(qlog.name).read_text())]
    if not counts:
        raise bt.CommandFailed(f"the QEMU plugin counted nothing for {' '.join(map(str, cmd))}")
    return sum(counts)


def _fetch_header(version, header):
    sys.path.insert(0, str(projects.tools.TESTS / "debian"))
    import rebuild  # the private APT configuration with deb-src lines
    with tempfile.TemporaryDirectory(prefix="divcc-qemu-src-") as tmp:
        tmp = Path(tmp)
        apt = rebuild.Apt(tmp / "apt")
        apt.update(str(tmp / "apt.log"))
        rc, out = apt.run("apt-get", ["source", "--download-only", "-q",
                                      f"qemu={version}"], cwd=tmp)
        if rc:
            raise RuntimeError(f"apt-get source --download-only qemu={version} "
                               f"failed: {out[-500:]}")
        tarballs = list(tmp.glob("qemu_*.orig.tar.*"))
        if len(tarballs) != 1:
            raise RuntimeError(f"no single qemu orig tarball in {tmp}")
        with tarfile.open(tarballs[0]) as tar:
            member = next((m for m in tar.getmembers()
                           if m.name.endswith("/include/qemu/qemu-plugin.h")), None)
            if member is None:
                raise RuntimeError(f"{tarballs[0].name} has no include/qemu/qemu-plugin.h")
            header.write_bytes(tar.extractfile(member).read())
