"""A private APT configuration: Debian 12's source packages (deb-src)
without touching the system's /etc/apt. Shared by tests/debian/rebuild.py
(a package campaign) and by the real-world recipes built from Debian
sources (projects.py).

    apt = Apt(root)          # its own source list, lists and cache in root
    apt.update(log)          # raises AptError
    version, folder = apt.fetch(name, dest, log, version=None)
    apt.build_dep(folder, log)
"""

import functools
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

DEBIAN_MIRROR = "http://deb.debian.org/debian"
SECURITY_MIRROR = "http://deb.debian.org/debian-security"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
RELEASE = "bookworm"


class AptError(Exception):
    pass


def tail(path, n=25):
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return "(no log)"
    return "\n".join("    " + line for line in lines[-n:])


def system_sources():
    """(kind-less) (uri, suite, components, signed_by) of the system's Debian
    sources: /etc/apt/sources.list.d/*.sources (deb822) and the one-line
    lists. Only Debian's archives for this release; deb.debian.org if none."""
    found = []
    etc = Path("/etc/apt")
    for f in sorted(etc.glob("sources.list.d/*.sources")):
        try:
            text = f.read_text()
        except OSError:
            continue
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for line in stanza.splitlines():
                if line.startswith("#") or ":" not in line or line[:1].isspace():
                    continue
                k, v = line.split(":", 1)
                fields[k.strip().lower()] = v.strip()
            if fields.get("enabled", "yes").lower() == "no":
                continue
            if "deb" not in fields.get("types", "").split():
                continue
            for uri in fields.get("uris", "").split():
                for suite in fields.get("suites", "").split():
                    found.append((uri, suite, fields.get("components", "main").split(),
                                  fields.get("signed-by", KEYRING)))
    for f in [etc / "sources.list"] + sorted(etc.glob("sources.list.d/*.list")):
        try:
            lines = f.read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.+)", line)
            if m:
                opts = m.group(1) or ""
                sb = re.search(r"signed-by=(\S+?)\s*\]?$", opts.strip(" []"))
                found.append((m.group(2), m.group(3), m.group(4).split(),
                              sb.group(1) if sb else KEYRING))
    ours = [s for s in found if s[1].split("-")[0] == RELEASE and "main" in s[2]]
    if not ours:
        ours = [(DEBIAN_MIRROR, RELEASE, ["main"], KEYRING),
                (DEBIAN_MIRROR, f"{RELEASE}-updates", ["main"], KEYRING),
                (SECURITY_MIRROR, f"{RELEASE}-security", ["main"], KEYRING)]
    out = []
    for s in ours:
        if s not in out:
            out.append(s)
    return out


class Apt:
    """apt-get and apt-cache with their own source list, lists and cache."""

    def __init__(self, root):
        self.root = root
        for d in ("sources.list.d", "lists/partial", "cache/archives/partial"):
            (root / d).mkdir(parents=True, exist_ok=True)
        lines = ["# divcc tests/debian/rebuild.py: the system's Debian sources, "
                 "with their deb-src twins"]
        for uri, suite, comps, signed_by in system_sources():
            opt = f"[signed-by={signed_by}] " if signed_by and not signed_by.startswith("-") else ""
            for kind in ("deb", "deb-src"):
                lines.append(f"{kind} {opt}{uri} {suite} {' '.join(comps)}")
        (root / "sources.list").write_text("\n".join(lines) + "\n")
        self.options = [
            "-o", f"Dir::Etc::SourceList={root / 'sources.list'}",
            "-o", f"Dir::Etc::SourceParts={root / 'sources.list.d'}",
            "-o", f"Dir::State::Lists={root / 'lists'}",
            "-o", f"Dir::Cache={root / 'cache'}",
        ]

    def suites(self):
        return [line for line in (self.root / "sources.list").read_text().splitlines()
                if line.startswith("deb")]

    def run(self, tool, args, cwd=None, log=None, timeout=1800):
        cmd = [tool] + self.options + args
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        if log:
            with open(log, "a") as out:
                out.write(f"$ {shlex.join(cmd)}\n")
                out.flush()
                p = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                   env=env, timeout=timeout)
            return p.returncode, ""
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env,
                           timeout=timeout)
        return p.returncode, p.stdout + p.stderr

    def update(self, log):
        rc, _ = self.run("apt-get", ["update"], log=log)
        if rc:
            raise AptError(f"apt-get update with the private configuration failed "
                           f"(log {log}):\n{tail(log)}")

    def source_versions(self, name):
        """The versions of a source package, newest first, and for each the
        suites that list it."""
        rc, out = self.run("apt-cache", ["madison", name])
        versions = []
        for line in out.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[0] == name and parts[2].endswith("Sources"):
                versions.append((parts[1], parts[2]))
        return versions

    def fetch(self, name, dest, log, version=None):
        """apt-get source NAME into dest; where the newest version's files are
        missing (the security archive lists sources it does not serve), each
        older version in turn, pinned NAME=VERSION; only VERSION if given.
        Returns (version, dir)."""
        dest.mkdir(parents=True, exist_ok=True)
        versions = self.source_versions(name)
        if not versions:
            raise RuntimeError(f"no source package '{name}' in {RELEASE}'s deb-src lists")
        where = {}
        for listed, suite in versions:
            where.setdefault(listed, suite)
        order = sorted(where, key=functools.cmp_to_key(compare_versions), reverse=True)
        if version is not None:
            if version not in where:
                raise RuntimeError(f"no version {version} of source package '{name}' in "
                                   f"{RELEASE}'s deb-src lists (they have {', '.join(order)})")
            order = [version]
        # apt-get's own choice (the newest) first, then each older one pinned.
        tried = []
        for k, candidate in enumerate(order):
            spec = name if k == 0 and version is None else f"{name}={candidate}"
            rc, _ = self.run("apt-get", ["source", "-q", spec], cwd=dest, log=log, timeout=900)
            if rc == 0:
                dirs = [d for d in dest.iterdir() if d.is_dir()]
                if len(dirs) != 1:
                    raise RuntimeError(f"apt-get source {spec} left {len(dirs)} folders in {dest}")
                dsc = list(dest.glob("*.dsc"))
                got = candidate
                if dsc:
                    m = re.search(r"^Version:\s*(\S+)", dsc[0].read_text(), re.M)
                    got = m.group(1) if m else candidate
                return got, dirs[0]
            tried.append(f"{spec} ({candidate}, {where[candidate]})")
            for f in dest.iterdir():  # partial downloads of that version
                if f.is_dir():
                    shutil.rmtree(f)
                else:
                    f.unlink()
        raise RuntimeError(f"apt-get source failed for {', '.join(tried)} (log {log})")

    def build_dep(self, srcdir, log):
        rc, _ = self.run("apt-get", ["build-dep", "--arch-only", "-y", "-q",
                                     "--no-install-recommends", f"./{srcdir.name}"],
                         cwd=srcdir.parent, log=log)
        return rc == 0


def compare_versions(a, b):
    """Debian version order, by dpkg."""
    if a == b:
        return 0
    lt = subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0
    return -1 if lt else 1
