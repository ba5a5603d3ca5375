"""The instruction-counting QEMU plugin of bench/overhead.py --target NAME
--instructions (bench/qemu/insn_count.c), built on first use.

A QEMU plugin must be built against the plugin header of the QEMU that
loads it, and Debian ships neither the header nor the example plugins. So
the source package of the installed qemu-user (`apt-get source
--download-only qemu=VERSION`, through tests/debian/rebuild.py's private APT
configuration with deb-src lines) gives include/qemu/qemu-plugin.h, and
the host compiler builds insn_count.c against it. The result is cached in
the real-world cache (tests/real-world/cache/qemu-plugin/VERSION/, or
$DIVCC_REALWORLD_CACHE), one per QEMU version."""

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

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
