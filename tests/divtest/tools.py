"""The programs under test and how the scripts run them: divcc, div++ and
divtool from the build directory ($DIVCC_BUILD_DIR, else build/ in the
repository) or an install ($DIVCC_INSTALL_PREFIX/bin), and clang-19, the
reference ($DIVCC_TEST_CLANG)."""

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
CLANG = os.environ.get("DIVCC_TEST_CLANG", "/usr/lib/llvm-19/bin/clang")

# Every transformation -fdiversify=all turns on (docs/manual.md).
TRANSFORMATIONS = ["nops", "funcs", "sched", "regs", "frames", "globals",
                   "blocks", "subst", "link", "offset", "gaps", "saves",
                   "prefixes", "shift", "loops", "entry", "softfp"]


def build_dir():
    """Where divcc, div++ and divtool are: the build directory, or with
    DIVCC_INSTALL_PREFIX an installed divcc's PREFIX/bin."""
    if os.environ.get("DIVCC_INSTALL_PREFIX"):
        return Path(os.environ["DIVCC_INSTALL_PREFIX"]) / "bin"
    return Path(os.environ.get("DIVCC_BUILD_DIR", ROOT / "build"))


def divcc(cxx=False):
    """divcc's path as a string; div++'s for C++."""
    return str(build_dir() / ("div++" if cxx else "divcc"))


def clang(cxx=False):
    """clang-19's path as a string; clang++'s for C++."""
    return CLANG + ("++" if cxx else "")


def require_build(who, programs=("divcc", "div++")):
    """Exits with a message naming who if the build directory lacks one of
    programs."""
    for name in programs:
        if not (build_dir() / name).exists():
            sys.exit(f"{who}: {build_dir() / name} is missing: build divcc first "
                     f"(./scripts/build.sh) or set DIVCC_BUILD_DIR")


def divtool_path():
    return str(build_dir() / "divtool")


def run(cmd, cwd=None, timeout=120, env=None):
    """Runs a command; returns (exit code, stdout, stderr)."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def check(cmd, cwd=None, env=None):
    """Runs a command; returns its stdout, or raises RuntimeError with its
    stderr if it fails."""
    code, out, err = run(cmd, cwd, env=env)
    if code != 0:
        raise RuntimeError(f"command failed ({code}): {' '.join(map(str, cmd))}\n"
                           f"{err.decode(errors='replace')}")
    return out


def environment(**extra):
    """This process's environment without what would change divcc's
    output behind a test's back (a seed file, a cache folder, options),
    with the build directory first on PATH (make CC=divcc finds this
    build's divcc) and extra added."""
    env = dict(os.environ)
    for name in ("DIVCC_SEED_FILE", "DIVCC_CACHE_DIR", "DIVCC_OPTIONS"):
        env.pop(name, None)
    env["PATH"] = str(build_dir()) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def divtool(*args, stdin=None, cwd=None, env=None, timeout=1200):
    """Runs divtool with environment() (or env); returns (exit status,
    stdout, stderr) as text."""
    p = subprocess.run([divtool_path(), *map(str, args)], input=stdin,
                       capture_output=True, text=True, cwd=cwd,
                       env=env or environment(), timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
