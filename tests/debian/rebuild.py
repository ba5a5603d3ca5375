#!/usr/bin/env python3
"""Debian 12 source packages rebuilt by divcc pass their own build-time tests.

For each package: its source comes from Debian's archive (`apt-get source`
through a private APT configuration that adds deb-src lines; the system's
/etc/apt is never touched), its build dependencies are installed
(`apt-get build-dep --arch-only`, as root), and it is built with its own
build system, once per seed:

    CC=divcc CXX=div++ DIVCC_SEED_FILE=<a fresh secret, 0600, private dir>
    DIVCC_OPTIONS=-fdiversify=LIST DEB_BUILD_MAINT_OPTIONS=hardening=+all
    DEB_BUILD_OPTIONS=parallel=N dpkg-buildpackage -us -uc -B

dpkg-buildpackage runs the package's tests (dh_auto_test: no nocheck).
Each build must pass them, and must really be divcc's: the build log shows
divcc or div++ as the compiler and no compile by gcc, divcc diversified
(DIVCC_ENTROPY_LOG has a line per diversified compile), the shared
libraries in the built .debs have other code (.text) under each seed, and
the seed is in no log, no file of the build tree and no built package.

CI mode (the default): libyaml, 2 seeds (about a minute on 2 cores).
--full: libyaml, json-c, libpng1.6, libsodium and fmtlib (C++ with
exceptions), 2 seeds each (about 10 minutes).
zlib is known but in neither: its debian/rules hardcodes gcc.
--lto adds optimize=+lto (-flto=auto -ffat-lto-objects): it needs divcc's
LTO support; a divcc that refuses -flto is reported before any build.

--campaign: every package of the campaign (the list above and more, of
different shapes), each built twice with the same flags, LTO on: once with
CC=clang-19 CXX=clang++-19, the reference, then with divcc's default
transformations (no DIVCC_OPTIONS) under one secret seed; each build's wall
and CPU time (its processes' user+sys) measured. It ends with a Markdown
table: each package's shape, both results, the tests run, the CPU time
ratio divcc/clang-19, then each package that passes with clang-19 and fails
with divcc, with the failing step and the first error lines of its log.
It fails only for those: a package whose build fails with clang-19 is not
built with divcc, and one that fails a check with clang-19 is not divcc's
failure. Ctrl-C (or SIGTERM) stops it with the table of what finished.
"""

import argparse
import hashlib
import os
import re
import resource
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import statistics
import time
from pathlib import Path

from divtest import longrun, tools
from divtest.apt import Apt, AptError, tail
from divtest.longrun import fmt_time, say
from divtest.tools import build_dir


class Package:
    def __init__(self, name, lang, description, ci=False, full=False, campaign=True, note=None,
                 cflags=(), lld_ldflags=(), tests=None):
        self.name, self.lang, self.description = name, lang, description
        self.ci, self.full, self.campaign, self.note = ci, full, campaign, note
        # A regular expression that counts the tests (group 1, else one test
        # per match), for a test driver TEST_PATTERNS does not know.
        self.tests = re.compile(tests, re.M) if tests else None
        self.cflags = list(cflags)  # appended to CFLAGS and CXXFLAGS, with the reason
        self.lld_ldflags = list(lld_ldflags)  # appended to LDFLAGS when divcc links with lld


PACKAGES = [
    Package("libyaml", "C", "YAML parser (autotools): libyaml-0.so, make check", ci=True,
            full=True),
    # json-c builds with -Werror -Wstrict-prototypes; clang-19, unlike
    # gcc-12, also flags a definition `f()` that follows a prototype
    # (json_util.c:63), so plain clang-19 fails the same way. Its version
    # script json-c.sym names json_number_chars, which json-c 0.16 no longer
    # defines: GNU ld lets that pass, lld (which the `link` transformation
    # links with) refuses it unless --undefined-version.
    Package("json-c", "C", "JSON library (CMake): libjson-c.so, ctest", full=True,
            cflags=["-Wno-error=strict-prototypes"], lld_ldflags=["-Wl,--undefined-version"]),
    Package("libpng1.6", "C", "PNG library (autotools): libpng16.so, make check", full=True),
    Package("libsodium", "C", "crypto library (autotools, some assembly): libsodium.so, "
            "make check", full=True),
    Package("fmtlib", "C++", "formatting library, C++ with exceptions (CMake): libfmt.so, "
            "ctest over GoogleTest", full=True),
    Package("zlib", "C", "compression library; its debian/rules hardcodes "
            "$(DEB_HOST_GNU_TYPE)-gcc, so CC=divcc cannot win (the check says so)",
            campaign=False, note="debian/rules hardcodes gcc"),
    # The campaign's others (--campaign), from the fastest.
    Package("libmd", "C", "message digests (autotools): libmd.so with a version script and a "
            "symbols file, make check"),
    Package("libsigsegv", "C", "page-fault and stack-overflow handlers (autotools): "
            "libsigsegv.so, make check (SIGSEGV handled, stack overflow recovered)"),
    Package("cjson", "C", "JSON parser (CMake): libcjson.so and libcjson_utils.so, symbols "
            "file, ctest over Unity"),
    # libogg's make check runs its test programs itself (check-local).
    Package("libogg", "C", "Ogg bitstream (autotools): libogg.so, symbols file, make check "
            "(2 test programs)", tests=r"^\./test_\w+$"),
    # clang-19 (not only divcc), with LTO, does not export the vtable of
    # tinyxml2::XMLAttribute, which the symbols file (made with gcc) lists:
    # dpkg-gensymbols fails.
    Package("tinyxml2", "C++", "XML parser (CMake): libtinyxml2.so, symbols file of C++ "
            "symbols, ctest", campaign=False,
            note="clang-19 does not export a vtable its symbols file lists"),
    Package("jansson", "C", "JSON library (autotools): libjansson.so linked with "
            "-Wl,--default-symver (GNU ld only), symbols file, make check"),
    Package("popt", "C", "option parser (autotools): libpopt.so with a version script, "
            "symbols file, make check"),
    Package("libtasn1-6", "C", "ASN.1 library (autotools): libtasn1.so with a version "
            "script, symbols file, make check"),
    Package("libmaxminddb", "C", "GeoIP database reader (autotools): libmaxminddb.so, "
            "symbols file, make check over TAP"),
    Package("double-conversion", "C++", "number conversion (debian/rules' own Makefile): "
            "libdouble-conversion.so, symbols file of C++ symbols, its cctest runner",
            tests=r"^Ran (\d+) tests\.$"),
    # libassuan's and libgpg-error's debian/rules build in build/ but leave
    # dh_auto_test looking for a Makefile in the source folder: dh runs no
    # test (with clang-19 as with divcc).
    Package("libassuan", "C", "IPC library (autotools): libassuan.so with a version "
            "script, symbols file; runs no tests", campaign=False),
    Package("libidn2", "C", "IDNA library (autotools): libidn2.so with a version script, "
            "symbols file, make check"),
    Package("libgpg-error", "C", "error codes (autotools): libgpg-error.so with a version "
            "script, symbols file; runs no tests", campaign=False),
    # expat's debian/rules (without dh) builds its tests but runs none.
    Package("expat", "C", "XML parser (autotools): libexpat.so, symbols file; runs no tests",
            campaign=False),
    # With LTO, libbsd's nlist test fails with clang-19 as with divcc.
    Package("libbsd", "C", "BSD functions (autotools): libbsd.so with a version script and "
            ".symver aliases, symbols file, make check", campaign=False,
            note="with LTO, the nlist test fails with clang-19 too"),
    # gdbm's debian/rules also builds with `diet gcc` (dietlibc), which
    # fails on the LTO flags appended to CFLAGS (so does clang-19's build).
    Package("gdbm", "C", "key-value database (autotools): libgdbm.so and libgdbm_compat.so, "
            "symbols files, an Autotest suite", campaign=False,
            note="debian/rules builds a dietlibc variant with diet gcc"),
    Package("serd", "C", "RDF syntax library (Meson): libserd-0.so, meson test"),
    # libconfig's make check builds its tests (noinst_PROGRAMS) but runs none.
    Package("libconfig", "C and C++", "configuration files (autotools): libconfig.so and "
            "libconfig++.so, C++ exceptions thrown in the library; runs no tests",
            campaign=False),
    Package("snappy", "C++", "compression (CMake): libsnappy.so, ctest over GoogleTest"),
    # clang-19 (as divcc), with LTO, does not export C++ symbols that
    # pugixml's symbols file, made with gcc, lists (the complete-object
    # constructor pugi::xml_tree_walker::xml_tree_walker(), C1).
    Package("pugixml", "C++", "XML parser (CMake): libpugixml.so, symbols file of C++ "
            "symbols, ctest", campaign=False,
            note="clang-19 does not export symbols its symbols file lists"),
    Package("libjsoncpp", "C++", "JSON library (CMake): libjsoncpp.so, whose exceptions "
            "(Json::LogicError, Json::RuntimeError) reach its callers, ctest"),
    # libffi's debian/rules, like zlib's, sets CC = $(DEB_HOST_GNU_TYPE)-gcc.
    Package("libffi", "C", "foreign function calls (autotools), x86-64 assembly "
            "(unix64.S): libffi.so with a version script, symbols file, DejaGnu testsuite",
            campaign=False, note="debian/rules hardcodes gcc"),
    Package("nettle", "C", "crypto library (autoconf, its own Makefiles), x86-64 assembly: "
            "libnettle.so and libhogweed.so with version scripts, symbols files, its "
            "testsuite with dlopen-test (dlopen of libnettle.so)"),
    Package("libxcrypt", "C", "password hashing (autotools): libcrypt.so with symbol "
            "versions from .symver and a generated version script, symbols file, make check"),
    Package("xz-utils", "C", "LZMA compression (autotools): liblzma.so with a version "
            "script, symbols file, make check; built 3 times (shared, static, xzdec)"),
    Package("pcre2", "C", "regular expressions (autotools), JIT compiler: four libraries, "
            "symbols files, make check"),
    # lzo2's make check and make test run their programs themselves: one
    # test per program run.
    Package("lzo2", "C", "compression (autotools): liblzo2.so, symbols file, make check "
            "and make test (7 programs)",
            tests=r"^(?:\./(?:lzotest|tests|examples|minilzo)/|LZOTEST=)\S+"),
    Package("giflib", "C", "GIF library (plain make): libgif.so, symbols file, its "
            "regression tests (one per image rendered)",
            tests=r"^Testing RGB rendering of "),
    # cmocka's examples link with -Wl,--wrap=uptime, which GNU ld's LTO
    # plugin interface does not honour: "undefined reference to
    # `__wrap_uptime'" with clang-19 as with divcc.
    Package("cmocka", "C", "unit-test framework (CMake): libcmocka.so, symbols file, "
            "ctest", campaign=False, note="-Wl,--wrap with LTO fails with clang-19 too"),
    Package("opus", "C", "audio codec (autotools), SSE intrinsics chosen at run time: "
            "libopus.so, symbols file, make check"),
    # libzip's 4 encryption-nonrandom tests fail with clang-19 (LTO) too.
    Package("libzip", "C", "ZIP archives (CMake): libzip.so, symbols file, ctest over "
            "its regression tests", campaign=False,
            note="4 encryption-nonrandom tests fail with clang-19 too"),
    Package("libxkbcommon", "C", "keymap library (Meson): libxkbcommon.so and "
            "libxkbregistry.so with version scripts, symbols files, meson test"),
    Package("gmp", "C and C++", "multiple precision (autotools), x86-64 assembly (mpn): "
            "libgmp.so and libgmpxx.so, make check"),
]
BY_NAME = {p.name: p for p in PACKAGES}


def fail_early(msg):
    sys.exit(f"debian: error: {msg}")


# ---- checks on a build

ELF_MAGIC = b"\x7fELF"


def text_digest(path):
    """SHA-256 of the .text section of an ELF file, or None."""
    with tempfile.NamedTemporaryFile(suffix=".text") as out:
        p = subprocess.run(["objcopy", "-O", "binary", "--only-section=.text", str(path),
                            out.name], capture_output=True)
        if p.returncode:
            return None
        data = Path(out.name).read_bytes()
    return hashlib.sha256(data).hexdigest() if data else None


def shared_libraries(tree):
    """{relative path: .text digest} of every shared library (not debug
    files) in an extracted package tree."""
    libs = {}
    for p in sorted(tree.rglob("*.so*")):
        if p.is_symlink() or not p.is_file() or "/usr/lib/debug/" in str(p):
            continue
        with open(p, "rb") as f:
            if f.read(4) != ELF_MAGIC:
                continue
        d = text_digest(p)
        if d:
            libs[str(p.relative_to(tree))] = d
    return libs


def files_containing(roots, needle):
    """Files under roots whose bytes contain needle (symlinks not followed)."""
    hits = []
    for root in roots:
        paths = [root] if root.is_file() else root.rglob("*")
        for p in paths:
            if p.is_symlink() or not p.is_file():
                continue
            try:
                with open(p, "rb") as f:
                    prev = b""
                    while True:
                        chunk = f.read(1 << 20)
                        if not chunk:
                            break
                        if needle in prev + chunk:
                            hits.append(p)
                            break
                        prev = chunk[-len(needle):]
            except OSError:
                continue
    return hits


TEST_PATTERNS = [
    # automake's test driver
    (re.compile(r"^# TOTAL:\s+(\d+)", re.M), re.compile(r"^# (?:FAIL|ERROR):\s+([1-9]\d*)", re.M)),
    # ctest
    (re.compile(r"tests passed, \d+ tests failed out of (\d+)"),
     re.compile(r"tests passed, ([1-9]\d*) tests failed out of")),
    # meson test
    (re.compile(r"^(?:Ok|Expected Fail|Fail|Unexpected Pass|Timeout):\s+(\d+)\s*$", re.M),
     re.compile(r"^(?:Fail|Unexpected Pass|Timeout):\s+([1-9]\d*)\s*$", re.M)),
    # automake's serial test harness, and a few that imitate it
    (re.compile(r"^=*\s*All (\d+) tests passed", re.M),
     re.compile(r"^=*\s*([1-9]\d*) of \d+ tests failed", re.M)),
    # Autotest (./testsuite)
    (re.compile(r"^(?:All )?(\d+) tests (?:were successful|behaved as expected)", re.M),
     re.compile(r"^ERROR: .*?(\d+) failed unexpectedly", re.M)),
    # DejaGnu (runtest)
    (re.compile(r"^# of (?:expected|unexpected) (?:passes|failures)\s+(\d+)", re.M),
     re.compile(r"^# of unexpected (?:passes|failures)\s+([1-9]\d*)", re.M)),
]
GCC_COMPILE = re.compile(
    r"^(?:libtool: compile:\s+)?(?:\S*/)?(?:x86_64-linux-gnu-)?(?:gcc|g\+\+|cc|c\+\+)(?:-1\d)?"
    r"\s.*\s-c\s", re.M)


def runs_compiler(log_text, *compilers):
    """Whether the log shows one of compilers run: as a command word, not
    inside a path (the build folder NAME-clang-19)."""
    return any(re.search(r"(?:^|[\s'\"=/])" + re.escape(c) + r"\s", log_text, re.M)
               for c in compilers)


def tests_run(log_text, pkg=None):
    """How many tests the package ran, by its test drivers' summaries (and
    the package's own pattern)."""
    patterns = [count for count, _ in TEST_PATTERNS]
    if pkg is not None and pkg.tests:
        patterns.append(pkg.tests)
    # A match counts its group 1, or one test if the pattern has no group.
    return sum(int(m.group(1)) if count.groups else 1
               for count in patterns for m in count.finditer(log_text))


def first_errors(log_text, n=1):
    """The first n lines that report an error (the compiler's, the
    linker's, a test's)."""
    found = []
    for line in log_text.splitlines():
        if re.search(r"\berror:|^FAIL:|\(Failed\)", line) and not re.match(
                r"(make|gmake)(\[\d+\])?: |dh_\w+: error: |dpkg-\w+: error: ", line):
            line = line.strip()
            found.append(line if len(line) <= 200 else line[:197] + "...")
            if len(found) == n:
                break
    return found


def first_error(log_text):
    """The first line that reports an error, for the failure line."""
    found = first_errors(log_text)
    return found[0] if found else None


def lto_refused(tree):
    """Whether the package's debian/rules turns LTO off (optimize=-lto)."""
    try:
        return "optimize=-lto" in (tree / "debian" / "rules").read_text(errors="replace")
    except OSError:
        return False


def missing_symbols(log_text):
    """Symbols that dpkg-gensymbols found missing from a library, but for
    the version nodes' own symbols (NAME@NAME), which only GNU ld defines."""
    lost = []
    for m in re.finditer(r"^\+#MISSING: [^#]*# (\S+)", log_text, re.M):
        sym = m.group(1)
        name, _, node = sym.partition("@")
        if name != node:
            lost.append(sym)
    return lost


def failing_step(log_text):
    """The step of dpkg-buildpackage that failed and, for tests, which."""
    # The first tool that reports an error (dpkg-buildpackage's own report
    # comes last and names only debian/rules).
    m = re.search(r"^(dh_\w+|dpkg-(?!buildpackage)\w+): error: ", log_text, re.M)
    step = m.group(1) if m else None
    if step is None:
        m = None
        for m in re.finditer(r"^\s+(dh_\w+)\b", log_text, re.M):
            pass
        step = m.group(1) if m else "dpkg-buildpackage"
    failed = re.findall(r"^FAIL: (\S+)", log_text, re.M)
    failed += re.findall(r"^\s*\d+ - (\S+) \(Failed\)", log_text, re.M)
    if failed:
        step += f" ({', '.join(dict.fromkeys(failed))} failed)"
    return step


def compiler_identity():
    """What would tell that divcc was rebuilt: each file's inode, size and
    modification time."""
    ident = []
    for tool in ("divcc", "div++"):
        try:
            st = (build_dir() / tool).stat()
            ident.append((st.st_ino, st.st_size, st.st_mtime_ns))
        except OSError:
            ident.append(None)
    return ident


# ---- the run

def run_build(cmd, cwd, out, env, timeout):
    """Runs cmd in a process group of its own, its output to out; returns
    its exit status, or None if it timed out. On a timeout or an interrupt
    the whole group goes (make's jobs and the tests with it)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env,
                         start_new_session=True)
    try:
        return p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    finally:
        if p.returncode is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


class Toolchain:
    """What a package is built with: divcc (diversifying, under a secret
    seed) or clang-19, the campaign's reference."""

    def __init__(self, label, cc, cxx, diversifies):
        self.label, self.cc, self.cxx, self.diversifies = label, cc, cxx, diversifies


class Failure:
    def __init__(self, package, version, step, seed, transforms, detail, log=None,
                 compiler="divcc"):
        self.package, self.version, self.step, self.seed = package, version, step, seed
        self.transforms, self.detail, self.log = transforms, detail, log
        self.compiler = compiler

    def line(self):
        if self.compiler != "divcc":
            return (f"FAIL: {self.package} {self.version} step {self.step} "
                    f"{self.compiler}: {self.detail}")
        return (f"FAIL: {self.package} {self.version} step {self.step} seed {self.seed} "
                f"transforms {self.transforms}: {self.detail}")


class Runner:
    def __init__(self, args, work, private):
        self.args, self.work, self.private = args, work, private
        bdir = build_dir()
        self.divcc, self.divxx = str(bdir / "divcc"), str(bdir / "div++")
        self.diversifying = Toolchain("divcc", self.divcc, self.divxx, True)
        self.reference = Toolchain("clang-19", "clang-19", "clang++-19", False)
        self.passed, self.failures, self.results = 0, [], []
        self.reference_failures = []  # the campaign's clang-19 builds'
        self.unbuilt = {}  # package -> the step that stopped it before any build

    def fail(self, *a, **kw):
        f = Failure(*a, **kw)
        (self.failures if f.compiler == "divcc" else self.reference_failures).append(f)
        say(f.line())
        if f.log:
            say(f"last lines of {f.log}:\n{tail(f.log)}")

    def transforms(self):
        """The -fdiversify= list, or "default" (divcc's, no DIVCC_OPTIONS)."""
        return self.args.transforms or "default"

    def diversity(self):
        """The transformations, in words."""
        return (f"-fdiversify={self.args.transforms}" if self.args.transforms
                else "divcc's default transformations")

    def uses_lld(self, tc):
        """Whether tc links with lld: divcc with the `link` transformation."""
        return tc.diversifies and bool(
            {"all", "link"} & set(self.transforms().split(",")))

    def maint_options(self, lto=None):
        """DEB_BUILD_MAINT_OPTIONS, with LTO if lto (default: --lto)."""
        lto = self.args.lto if lto is None else lto
        return "hardening=+all" + (" optimize=+lto" if lto else "")

    def build_env(self, pkg, tc, lto, seed_file, entropy_log):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DEB_", "DIVCC_")) and k not in
               ("CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS")}
        # -gdwarf-4: Debian 12's dwz (dh_dwz) does not read the DWARF 5 that
        # clang-19 writes by default; the code does not change.
        extra = ["-gdwarf-4"] + pkg.cflags
        if lto:
            # What optimize=+lto adds, appended too: some debian/rules set
            # DEB_BUILD_MAINT_OPTIONS themselves (libyaml, json-c).
            extra += ["-flto=auto", "-ffat-lto-objects"]
        env.update({
            "CC": tc.cc, "CXX": tc.cxx,
            "DEB_BUILD_MAINT_OPTIONS": self.maint_options(lto),
            "DEB_BUILD_OPTIONS": f"parallel={self.args.jobs}",
            "DEB_CFLAGS_APPEND": " ".join(extra),
            "DEB_CXXFLAGS_APPEND": " ".join(extra),
            "DEBIAN_FRONTEND": "noninteractive",
            "LC_ALL": "C.UTF-8",
            # Some build systems put ccache before the compiler when they
            # find it (libjsoncpp's CMakeLists.txt), as Debian's build
            # daemons, which have no ccache, never do; divcc refuses to run
            # under a ccache that does not hash its seed, and a cache would
            # skew the campaign's times. ccache then runs the compiler
            # directly.
            "CCACHE_DISABLE": "1",
        })
        if tc.diversifies:
            env["DIVCC_SEED_FILE"] = str(seed_file)
            env["DIVCC_ENTROPY_LOG"] = str(entropy_log)
            if self.args.transforms:
                env["DIVCC_OPTIONS"] = f"-fdiversify={self.args.transforms}"
        ldflags = []
        if lto:
            ldflags += ["-flto=auto", "-ffat-lto-objects"]
        if self.uses_lld(tc):
            ldflags += pkg.lld_ldflags
            # lld does not define the absolute symbol GNU ld defines for
            # each version node (JSONC_0.14@JSONC_0.14), which symbols files
            # list: dpkg-gensymbols reports them but fails on nothing, and
            # missing_symbols() below fails the build on any other symbol.
            env["DPKG_GENSYMBOLS_CHECK_LEVEL"] = "0"
        if ldflags:
            env["DEB_LDFLAGS_APPEND"] = " ".join(ldflags)
        return env

    def package(self, pkg, apt):
        name = pkg.name
        t = time.monotonic()
        logs = self.work / "logs"
        logs.mkdir(exist_ok=True)
        fetch_log = logs / f"{name}-fetch.log"
        try:
            version, src = apt.fetch(name, self.work / "src" / name, fetch_log)
        except Exception as e:  # noqa: BLE001
            self.fail(name, "-", "apt-get source", "-", self.transforms(), str(e), fetch_log)
            self.unbuilt[name] = "apt-get source"
            return
        say(f"{name} {version}: sources ({fmt_time(time.monotonic() - t)})")
        if self.args.no_build_deps:
            say(f"{name}: build dependencies not installed (--no-build-deps)")
        else:
            t = time.monotonic()
            dep_log = logs / f"{name}-build-dep.log"
            if not apt.build_dep(src, dep_log):
                self.fail(name, version, "apt-get build-dep", "-", self.transforms(),
                          "installing the build dependencies failed", dep_log)
                self.unbuilt[name] = "apt-get build-dep"
                return
            say(f"{name}: build dependencies installed ({fmt_time(time.monotonic() - t)})")

        if self.args.campaign:
            ref = self.build(pkg, version, src, self.reference, None)
            if ref["rc"] != 0:
                say(f"{name}: dpkg-buildpackage fails with clang-19: not built with divcc")
                return
        digests = {}  # seed number -> {library: .text digest}
        for i in range(1, self.args.seeds + 1):
            digests[i] = self.build(pkg, version, src, self.diversifying, i).get("libs")
        self.compare(pkg, version, digests)
        if self.args.campaign and ref["ok"]:
            self.compare_reference(pkg, version, ref["libs"], digests[1])
        elif self.args.campaign:
            # It fails with clang-19 too: not divcc's failures.
            ours = [f for f in self.failures if f.package == name]
            self.failures = [f for f in self.failures if f.package != name]
            self.reference_failures += ours

    def build(self, pkg, version, src, tc, i):
        """One dpkg-buildpackage of pkg with tc (divcc under seed number i);
        returns its result (also in self.results): ok, rc, the .text
        digests of its shared libraries (libs), times, tests."""
        name, seed_id = pkg.name, f"{i}" if tc.diversifies else "-"
        tr = self.transforms()
        build_name = f"{name}-seed{i}" if tc.diversifies else f"{name}-{tc.label}"
        bdir = self.work / build_name
        shutil.rmtree(bdir, ignore_errors=True)
        bdir.mkdir()
        tree = bdir / src.name
        subprocess.run(["cp", "-a", str(src), str(tree)], check=True)
        seed_file = entropy_log = secret = None
        if tc.diversifies:
            # A fresh secret for this build, readable by this user alone, in
            # a folder outside the build tree; never printed.
            seed_file = self.private / f"seed-{name}-{i}"
            fd = os.open(seed_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
            secret = seed_file.read_bytes()
            entropy_log = self.private / f"entropy-{name}-{i}.jsonl"
        lto = self.args.lto and not lto_refused(tree)
        log = bdir / "build.log"
        cmd = ["dpkg-buildpackage", "-us", "-uc", "-B"]
        how = (f"CC=divcc CXX=div++ {self.diversity()}" if tc.diversifies
               else f"CC={tc.cc} CXX={tc.cxx}")
        say(f"{name} {'seed ' + seed_id if tc.diversifies else tc.label}: "
            f"dpkg-buildpackage -us -uc -B ({how}, {self.maint_options(lto)}"
            f"{'' if lto or not self.args.lto else ', LTO off by debian/rules'})")
        before = compiler_identity()
        t = time.monotonic()
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(log, "w") as out:
            out.write(f"$ {shlex.join(cmd)}\n")
            out.flush()
            rc = run_build(cmd, tree, out, self.build_env(pkg, tc, lto, seed_file, entropy_log),
                           self.args.timeout)
        secs = time.monotonic() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_secs = (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)
        replaced = ("; divcc's files changed during this build (rebuilt meanwhile?): run again"
                    if tc.diversifies and compiler_identity() != before else "")
        text = log.read_text(errors="replace")
        # The log outlives the build folder (the campaign's evidence).
        shutil.copyfile(log, self.work / "logs" / f"{build_name}.log")
        result = {"package": name, "version": version, "seed": i, "compiler": tc.label,
                  "seconds": secs, "cpu": cpu_secs, "lto": lto, "rc": rc, "ok": False,
                  "tests": tests_run(text, pkg), "log": log, "libs": None}
        self.results.append(result)

        def fail(step, detail):
            result["step"], result["detail"] = step, detail
            result["errors"] = first_errors(text, 8)
            self.fail(name, version, step, seed_id, tr, detail + replaced, log,
                      compiler=tc.label)

        libs = {}
        try:
            if rc is None:
                fail(failing_step(text), f"timed out after {self.args.timeout}s")
                return result
            if rc != 0:
                err = first_error(text)
                fail(failing_step(text),
                     f"dpkg-buildpackage exit status {rc}{': ' + err if err else ''}")
                return result
            problems = []
            n_tests = result["tests"]
            if n_tests == 0:
                problems.append("no test summary in the build log: the package's tests "
                                "did not run")
            compiler = tc.cxx if pkg.lang == "C++" else tc.cc
            if not runs_compiler(text, compiler, tc.cc):
                problems.append(f"the build log never names {compiler}")
            if self.uses_lld(tc):
                lost = missing_symbols(text)
                if lost:
                    problems.append(f"dpkg-gensymbols: {len(lost)} symbol(s) of the symbols "
                                    f"file missing: {', '.join(lost[:5])}")
            gcc = GCC_COMPILE.findall(text)
            if gcc:
                problems.append(f"the build log shows {len(gcc)} compiles by gcc, not "
                                f"{tc.label}: the package hardcodes its compiler")
            compiles = 0
            if tc.diversifies:
                try:
                    compiles = len(entropy_log.read_text().splitlines())
                except OSError:
                    pass
                result["compiles"] = compiles
                if compiles == 0:
                    problems.append("divcc diversified nothing (DIVCC_ENTROPY_LOG is empty)"
                                    + (f": {pkg.note}" if pkg.note else ""))
            debs = sorted(bdir.glob("*.deb"))
            if not debs:
                problems.append("no .deb was built")
            extracted = bdir / "debs"
            for deb in debs:
                (extracted / deb.stem).mkdir(parents=True)
                subprocess.run(["dpkg-deb", "-x", str(deb), str(extracted / deb.stem)],
                               check=True)
                libs.update({f"{deb.name.split('_')[0]}:{k}": v
                             for k, v in shared_libraries(extracted / deb.stem).items()})
            result["libraries"] = len(libs)
            leaks = files_containing([bdir], secret) if secret else []
            if leaks:
                problems.append(f"the seed is in {len(leaks)} file(s) of the build: "
                                + ", ".join(str(x.relative_to(bdir)) for x in leaks[:5]))
            if problems:
                for pr in problems:
                    fail("check" if not leaks else "seed secrecy", pr)
                return result
            result["ok"], result["libs"] = True, libs
            done = (f"{n_tests} tests passed, {compiles} diversified compiles"
                    if tc.diversifies else f"{n_tests} tests passed")
            say(f"{name} {'seed ' + seed_id if tc.diversifies else tc.label}: built and tested "
                f"({fmt_time(secs)}, CPU {fmt_time(cpu_secs)}): {done}, {len(libs)} shared "
                f"librar{'y' if len(libs) == 1 else 'ies'}"
                f"{', no seed in log, tree or .debs' if tc.diversifies else ''}")
            self.passed += 1
            return result
        finally:
            if seed_file:
                seed_file.unlink(missing_ok=True)
            if result["ok"] and not self.args.keep:
                shutil.rmtree(bdir, ignore_errors=True)

    def compare(self, pkg, version, digests):
        """Each shared library's .text differs between every two seeds."""
        ok = {i: d for i, d in digests.items() if d}
        if len(ok) < 2:
            return
        seeds = sorted(ok)
        libs = sorted(set.intersection(*(set(ok[i]) for i in seeds)))
        if not libs:
            self.fail(pkg.name, version, "compare", "-", self.transforms(),
                      "no shared library in the built packages to compare")
            return
        same = []
        for lib in libs:
            for a in seeds:
                for b in seeds:
                    if a < b and ok[a][lib] == ok[b][lib]:
                        same.append(f"{lib} (seeds {a} and {b})")
        if same:
            self.fail(pkg.name, version, "compare", "-", self.transforms(),
                      "same .text under two seeds: " + ", ".join(same))
            return
        self.passed += 1
        say(f"{pkg.name}: .text of {', '.join(lib.split(':', 1)[1].rsplit('/', 1)[-1] for lib in libs)} "
            f"differs between all {len(seeds)} seeds")

    def compare_reference(self, pkg, version, ref, div):
        """Each shared library's .text differs between clang-19's build and
        divcc's (if both built some)."""
        if not ref or not div:
            return
        same = sorted(lib for lib in set(ref) & set(div) if ref[lib] == div[lib])
        if same:
            self.fail(pkg.name, version, "compare", "1", self.transforms(),
                      "same .text as clang-19's: " + ", ".join(same))
            return
        say(f"{pkg.name}: divcc's libraries' .text differs from clang-19's")


def preflight(runner, args):
    """divcc accepts every flag dpkg-buildflags gives (and the two that
    Debian 13 adds), for C and C++, compiling and linking a shared library."""
    env = dict(os.environ, DEB_BUILD_MAINT_OPTIONS=runner.maint_options())
    for k in ("DEB_CFLAGS_APPEND", "DEB_CXXFLAGS_APPEND", "DEB_LDFLAGS_APPEND"):
        env.pop(k, None)
    flags = {}
    for var in ("CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS"):
        p = subprocess.run(["dpkg-buildflags", "--get", var], capture_output=True, text=True,
                           env=env)
        if p.returncode:
            fail_early(f"dpkg-buildflags --get {var} failed: {p.stderr.strip()}")
        flags[var] = p.stdout.split()
    more = ["-fstack-clash-protection", "-fcf-protection", "-gdwarf-4"]
    d = runner.private
    seed_file = d / "seed-preflight"
    fd = os.open(seed_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    try:
        for lang, cc, ext, var in (("C", runner.divcc, "c", "CFLAGS"),
                                   ("C++", runner.divxx, "cpp", "CXXFLAGS")):
            srcf = d / f"preflight.{ext}"
            srcf.write_text("#include <stdio.h>\nint f(int x) { printf(\"%d\\n\", x); "
                            "return x + 1; }\n")
            cmd = ([cc, "-shared", "-fPIC"] + flags[var] + flags["CPPFLAGS"] + more
                   + flags["LDFLAGS"] + [str(srcf), "-o", str(d / f"preflight-{ext}.so")])
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=d,
                               env=dict(os.environ, DIVCC_SEED_FILE=str(seed_file)))
            if p.returncode:
                hint = (" (--lto needs divcc's LTO support)" if args.lto and "lto" in p.stderr
                        else "")
                fail_early(f"{Path(cc).name} refuses dpkg-buildflags' flags{hint}: "
                           f"{shlex.join(cmd[1:])}:\n{p.stderr.strip()}")
        say(f"divcc and div++ accept dpkg-buildflags' flags ({runner.maint_options()}): "
            f"{' '.join(dict.fromkeys(flags['CFLAGS'] + flags['CPPFLAGS'] + flags['LDFLAGS']))}"
            f" and {' '.join(more)}")
    finally:
        seed_file.unlink(missing_ok=True)


def campaign_report(runner, packages):
    """The campaign's Markdown table, its summary and each package that
    passes with clang-19 and fails with divcc, with its first errors."""
    by = {}
    for r in runner.results:
        by.setdefault((r["package"], r["compiler"]), r)  # divcc: seed 1

    def cell(r):
        if r is None:
            return "not built"
        if r["ok"]:
            state = "passed"
        elif r["rc"] == 0:
            state = f"FAILED ({r['step']}: {r['detail']})"
        else:
            state = f"FAILED ({r['step']})"
        lto = "" if r["lto"] or not runner.args.lto else ", no LTO"
        return (f"{state}, {fmt_time(r['seconds'])}, CPU {fmt_time(r['cpu'])}{lto}"
                .replace("|", "\\|"))

    print("| package | shape | clang-19 | divcc | tests (clang-19 / divcc) | CPU divcc/clang-19 |")
    print("| --- | --- | --- | --- | --- | --- |")
    both, regressions, ref_failed, unfinished, unbuilt = 0, [], 0, 0, 0
    ratios, ratios_lto = [], []
    for pkg in packages:
        ref, div = by.get((pkg.name, "clang-19")), by.get((pkg.name, "divcc"))
        if pkg.name in runner.unbuilt:
            unbuilt += 1
            print(f"| {pkg.name} | {pkg.lang}: {pkg.description} | not built: "
                  f"{runner.unbuilt[pkg.name]} failed | not built | - | |")
            continue
        if ref is None and div is None:
            continue
        ratio = ""
        if ref and div and ref["ok"] and div["ok"]:
            both += 1
            ratio = div["cpu"] / ref["cpu"]
            ratios.append(ratio)
            if div["lto"]:
                ratios_lto.append(ratio)
            ratio = f"{ratio:.2f}"
        elif ref and ref["ok"] and div:
            regressions.append(div)
        elif ref and ref["ok"]:
            unfinished += 1  # interrupted
        else:
            ref_failed += 1
        tests = " / ".join(str(r["tests"]) if r else "-" for r in (ref, div))
        version = (ref or div)["version"]
        print(f"| {pkg.name} {version} | {pkg.lang}: {pkg.description} | {cell(ref)} | "
              f"{cell(div)} | {tests} | {ratio} |")
    n = both + len(regressions) + ref_failed + unfinished + unbuilt
    median = f"{statistics.median(ratios):.2f}" if ratios else "-"
    lto = (f" ({len(ratios_lto)} of them with LTO: {statistics.median(ratios_lto):.2f})"
           if ratios_lto and len(ratios_lto) < len(ratios) else "")
    print()
    print(f"{n} packages: {both} pass with both, {len(regressions)} pass with clang-19 and "
          f"fail with divcc, {ref_failed} fail with clang-19 (divcc not compared)"
          f"{f', {unfinished} not built with divcc (interrupted)' if unfinished else ''}"
          f"{f', {unbuilt} not built (sources or build dependencies)' if unbuilt else ''}"
          f"; median CPU "
          f"time ratio divcc/clang-19 over the {both} passing with both: {median}{lto}"
          f" ({runner.maint_options()}, {runner.diversity()})")
    for r in regressions:
        print()
        print(f"{r['package']} {r['version']}: passes with clang-19, fails with divcc at "
              f"{r['step']}: {r['detail']}")
        print(f"  log: {r['log']}")
        for line in r.get("errors") or []:
            print(f"    {line}")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--package", action="append", metavar="NAME",
                    help=f"a source package to rebuild (repeatable): "
                         f"{', '.join(p.name for p in PACKAGES)} (default: "
                         f"{', '.join(p.name for p in PACKAGES if p.ci)}; with --full, "
                         f"{', '.join(p.name for p in PACKAGES if p.full)}; with --campaign, "
                         f"all but {', '.join(p.name for p in PACKAGES if not p.campaign)})")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--full", action="store_true",
                      help="libyaml, json-c, libpng1.6, libsodium and fmtlib, 2 seeds each")
    mode.add_argument("--campaign", action="store_true",
                      help="each package built with clang-19 then with divcc's default "
                           "transformations (1 seed), LTO on, timed; a Markdown table")
    ap.add_argument("--seeds", type=int, metavar="N",
                    help="builds per package with divcc, each with a fresh secret seed "
                         "(default 2; 1 with --campaign)")
    ap.add_argument("--transforms", metavar="LIST",
                    help="the -fdiversify=LIST of every build, through DIVCC_OPTIONS "
                         "(default: all; with --campaign, divcc's default set)")
    ap.add_argument("--lto", action="store_true",
                    help="also optimize=+lto (-flto=auto -ffat-lto-objects); needs divcc's "
                         "LTO support")
    ap.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1), metavar="N",
                    help="DEB_BUILD_OPTIONS=parallel=N (default: %(default)s)")
    ap.add_argument("--timeout", type=int, default=3600, metavar="S",
                    help="seconds one dpkg-buildpackage may take (default: %(default)s)")
    ap.add_argument("--no-build-deps", action="store_true",
                    help="do not install build dependencies (they are there already; "
                         "lets a non-root user run)")
    ap.add_argument("--keep", action="store_true", help="keep every build folder")
    ap.add_argument("--work-dir", metavar="DIR",
                    help="where to fetch and build (default: a new folder in $TMPDIR, removed "
                         "unless something failed)")
    ap.add_argument("--list", action="store_true", help="list the packages and exit")
    args = ap.parse_args()
    if args.list:
        for p in PACKAGES:
            tags = [t for t, on in (("CI", p.ci), ("full", p.full),
                                    ("campaign", p.campaign)) if on]
            print(f"{p.name} ({p.lang}{', ' + ', '.join(tags) if tags else ''}): {p.description}")
        sys.exit(0)
    for n in args.package or []:
        if n not in BY_NAME:
            ap.error(f"unknown package '{n}' (known: {', '.join(BY_NAME)})")
    mode = "campaign" if args.campaign else "full" if args.full else "ci"
    names = args.package or [p.name for p in PACKAGES if getattr(p, mode)]
    args.packages = [BY_NAME[n] for n in dict.fromkeys(names)]
    if args.campaign:
        args.lto = True
    elif args.transforms is None:
        args.transforms = "all"
    if args.seeds is None:
        args.seeds = 1 if args.campaign else 2
    if args.seeds < 1:
        ap.error("--seeds must be at least 1")
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    if args.transforms is not None and not re.fullmatch(r"[a-z,]+", args.transforms):
        ap.error(f"--transforms: '{args.transforms}' is not a comma-separated list of names")
    return args


def main():
    args = parse_args()
    tools.require_build("debian: error")
    for tool in ("apt-get", "apt-cache", "dpkg-buildpackage", "dpkg-buildflags", "dpkg-deb",
                 "dpkg-source", "objcopy") + (("clang-19", "clang++-19") if args.campaign else ()):
        if shutil.which(tool) is None:
            fail_early(f"'{tool}' is not installed (scripts/install-deps.sh installs dpkg-dev "
                       f"and binutils)")
    if os.geteuid() != 0 and not args.no_build_deps:
        fail_early("installing build dependencies (apt-get build-dep) needs root; run as "
                   "root, or install them yourself and pass --no-build-deps")
    if "nocheck" in os.environ.get("DEB_BUILD_OPTIONS", ""):
        say("DEB_BUILD_OPTIONS has nocheck: ignored, the packages' tests always run")

    work = longrun.work_dir(args.work_dir, "divcc-debian-")
    # apt's download sandbox (user _apt) must reach the source folders.
    os.chmod(work, 0o755)
    private = Path(tempfile.mkdtemp(prefix="divcc-debian-seeds-"))  # 0700
    mode = "campaign" if args.campaign else "full" if args.full else "CI"
    runner = Runner(args, work, private)
    say(f"debian ({mode} mode): {', '.join(p.name for p in args.packages)}; "
        f"{'clang-19 then ' if args.campaign else ''}{args.seeds} seed(s) each; "
        f"{runner.diversity()}; {'LTO; ' if args.lto else ''}"
        f"parallel={args.jobs}; divcc {build_dir()}; in {work}")
    try:
        try:
            preflight(runner, args)
            apt = Apt(work / "apt")
            (work / "logs").mkdir(exist_ok=True)
            t = time.monotonic()
            try:
                apt.update(work / "logs" / "apt-update.log")
            except AptError as e:
                fail_early(str(e))
        except SystemExit:
            if not args.work_dir:  # nothing built yet: leave nothing behind
                shutil.rmtree(work, ignore_errors=True)
            raise
        say(f"private APT configuration {apt.root}: {len(apt.suites())} lines "
            f"(deb and deb-src), lists updated ({fmt_time(time.monotonic() - t)})")
        # Ctrl-C or SIGTERM stops the run; the report covers the builds done.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            for pkg in args.packages:
                runner.package(pkg, apt)
        except KeyboardInterrupt:
            runner.fail("-", "-", "interrupted", "-", runner.transforms(),
                        "the run was interrupted: the report covers the builds that finished")
    finally:
        shutil.rmtree(private, ignore_errors=True)

    print()
    for r in runner.results:
        state = "passed" if r["ok"] else "FAILED"
        extra = (f", {r['tests']} tests"
                 + (f", {r.get('compiles', 0)} compiles" if r["seed"] else "")
                 if r["ok"] else "")
        which = f"seed {r['seed']}" if r["seed"] else r["compiler"]
        print(f"  {r['package']} {r['version']} {which}: {state} "
              f"({fmt_time(r['seconds'])}, CPU {fmt_time(r['cpu'])}{extra})")
    if args.campaign:
        print()
        campaign_report(runner, args.packages)
        print()
        for f in runner.reference_failures:
            print(f"{f.line()} (not a divcc failure)")
    # The campaign keeps the build logs: its table's evidence.
    ours = ("src", "apt") if args.campaign else ("src", "logs", "apt")
    longrun.finish(
        "debian", f"{mode} mode", runner.passed, runner.failures, work, args.keep,
        args.work_dir,
        lambda d: d.name in ours or d.name.endswith(
            tuple(f"-seed{i}" for i in range(1, args.seeds + 1)) + ("-clang-19",)))


if __name__ == "__main__":
    main()
