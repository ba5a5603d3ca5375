#!/usr/bin/env python3
"""divcc's own Debian package (debian/): built from a clean checkout with
dpkg-buildpackage -b, installed with apt-get, and tested installed.

  build      `git archive HEAD` (a clean checkout: nothing of the working
             tree's build or changes) built by `dpkg-buildpackage -b -uc
             -us` gives divcc_VERSION_ARCH.deb
  contents   /usr/bin/divcc, div++ (a link), divtool, the LTO plugins in
             /usr/lib/divcc/, the manual pages, the docs; Depends names
             clang-19, lld-19, binutils (GNU ld, which LTO links use by
             default) and the libraries divcc links (libllvm19,
             libclang-cpp19, libsqlite3-0: from dh_shlibdeps), Recommends
             bolt-19
  install    `apt-get install ./divcc_*.deb` installs it (and what it
             depends on) and `man -w divcc` finds its page (without
             man-db: the page is in /usr/share/man/man1)
  tests      a selection of the lit tests run against the installed
             programs (DIVCC_INSTALL_PREFIX=/usr): driver modes, LTO (parity
             with clang-19 + lld), golden masters, NOPs, function shuffling,
             divtool's errors
  purge      the package is purged again

Needs root (apt-get) and a configured build directory for lit
($DIVCC_BUILD_DIR, else build/). --keep keeps the work folder.

CI mode (the default) builds without debug information
(DEB_CXXFLAGS_APPEND=-g0, DEB_BUILD_OPTIONS=noddebs), which halves the
build; --full builds the package exactly as dpkg-buildpackage does, with
its -dbgsym package.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from divtest import checks
from divtest.tools import ROOT

LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"
# The lit tests run against the installed divcc: each uses only divcc,
# div++, divtool and LLVM's tools.
LIT_SELECTION = ["driver/modes.test", "driver/lto.test", "driver/lto-gnu-ld.test",
                 "driver/golden.test",
                 "transforms/nops.c", "transforms/funcs.c",
                 "divtool/audit-errors.test"]


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True,
                          text=True, **kw)


def build(work, check, full):
    """The package, from `git archive HEAD`; its path, or None."""
    src = work / "divcc"
    src.mkdir()
    archive = subprocess.run(["git", "-C", ROOT, "archive", "HEAD"],
                             capture_output=True)
    if not check(archive.returncode == 0, "git archive HEAD: a clean checkout",
                 archive.stderr.decode(errors="replace")):
        return None
    subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
    env = dict(os.environ, DEB_BUILD_OPTIONS=f"parallel={os.cpu_count()}")
    if not full:
        env["DEB_BUILD_OPTIONS"] += " noddebs"
        env["DEB_CXXFLAGS_APPEND"] = "-g0"
    p = run(["dpkg-buildpackage", "-b", "-uc", "-us"], cwd=src, env=env)
    debs = sorted(work.glob("divcc_*.deb"))
    (work / "build.log").write_text(p.stdout + p.stderr)
    check(p.returncode == 0 and len(debs) == 1,
          "dpkg-buildpackage -b builds divcc_VERSION_ARCH.deb",
          "\n".join((p.stdout + p.stderr).splitlines()[-30:]))
    return debs[0] if debs else None


def inspect(deb, check):
    files = run(["dpkg-deb", "-c", deb]).stdout
    wanted = ["./usr/bin/divcc", "./usr/bin/div++", "./usr/bin/divtool",
              "./usr/lib/divcc/divcc-lto-plugin.so",
              "./usr/lib/divcc/divcc-ld-plugin.so",
              "./usr/share/man/man1/divcc.1.gz", "./usr/share/man/man1/div++.1.gz",
              "./usr/share/man/man1/divtool.1.gz",
              "./usr/share/man/man1/divtool-rerandomize.1.gz",
              "./usr/share/doc/divcc/manual.md.gz"]
    missing = [w for w in wanted if not re.search(
        r"\s" + re.escape(w) + r"($|\s)", files)]
    check(not missing, "the package holds the programs, the plugins, the "
          "manual pages and the docs", f"missing: {missing}\n{files}")
    depends = run(["dpkg-deb", "-f", deb, "Depends"]).stdout
    recommends = run(["dpkg-deb", "-f", deb, "Recommends"]).stdout
    needed = ["clang-19", "lld-19", "binutils", "libllvm19", "libclang-cpp19",
              "libsqlite3-0"]
    check(all(re.search(r"(^|[ ,])" + re.escape(n) + r"\b", depends) for n in needed)
          and "bolt-19" in recommends,
          "Depends: clang-19, lld-19, binutils, libllvm19, libclang-cpp19, "
          "libsqlite3-0; "
          "Recommends: bolt-19", f"Depends: {depends}Recommends: {recommends}")


def install_and_test(deb, check):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    p = run(["apt-get", "install", "-y", "-q", deb], env=env)
    if not check(p.returncode == 0 and Path("/usr/bin/divcc").exists(),
                 "apt-get install ./divcc_*.deb", p.stdout[-2000:] + p.stderr):
        return
    try:
        if shutil.which("man"):
            p = run(["man", "-w", "divcc"])
            check(p.returncode == 0 and "divcc.1" in p.stdout,
                  "man finds divcc(1)", p.stdout + p.stderr)
        else:  # a machine without man-db: the page is where man looks
            check(Path("/usr/share/man/man1/divcc.1.gz").is_file(),
                  "divcc(1) is installed in /usr/share/man/man1")
        build = Path(os.environ.get("DIVCC_BUILD_DIR", ROOT / "build"))
        lit_env = dict(os.environ, DIVCC_INSTALL_PREFIX="/usr")
        p = run([sys.executable, LIT, "-v", build / "tests" / "lit",
                 "--filter", "|".join(re.escape(t) for t in LIT_SELECTION)],
                env=lit_env)
        passed = len(re.findall(r"^PASS: ", p.stdout, re.MULTILINE))
        check(p.returncode == 0 and passed == len(LIT_SELECTION),
              f"the installed divcc passes {len(LIT_SELECTION)} lit tests "
              f"({', '.join(LIT_SELECTION)})",
              "\n".join(p.stdout.splitlines()[-40:]))
    finally:
        p = run(["apt-get", "purge", "-y", "-q", "divcc"], env=env)
        check(p.returncode == 0 and not Path("/usr/bin/divcc").exists(),
              "apt-get purge divcc", p.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--full", action="store_true",
                    help="build with debug information and -dbgsym, as "
                    "dpkg-buildpackage does by default")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("package: needs root (apt-get install)")
    if shutil.which("dpkg-buildpackage") is None:
        sys.exit("package: dpkg-buildpackage is missing: run scripts/install-deps.sh")
    check = checks.Checks()
    work = Path(tempfile.mkdtemp(prefix="divcc-package-"))
    try:
        deb = build(work, check, args.full)
        if deb:
            inspect(deb, check)
            install_and_test(deb, check)
    finally:
        if args.keep or check.failures:
            print(f"package: work folder kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    check.report("package")


if __name__ == "__main__":
    main()
