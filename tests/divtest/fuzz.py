"""What the differential fuzzer (tests/fuzz/csmith_diff.py), its
interestingness test (interesting.py) and the regression runner
(regressions.py) share: the compilers, how a program is built and run, and
how two runs are compared. Python 3 standard library only."""

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from divtest import tools

FUZZ = tools.TESTS / "fuzz"
REGRESSIONS = FUZZ / "regressions"

CSMITH = shutil.which("csmith") or "/usr/bin/csmith"
CSMITH_INCLUDE = "/usr/include/csmith"
GCC = shutil.which("gcc") or "/usr/bin/gcc"

TRANSFORMS = tools.TRANSFORMATIONS


def clang():
    return tools.clang(False)


def divcc():
    return tools.divcc(False)


def divcc_flags(transforms, seed):
    """divcc's own flags for one variant: -fdiversify=LIST and the seed."""
    return [f"-fdiversify={transforms}", f"-frandom-seed={seed}"]


class Result:
    """How a program run ended: its exit status (negative: killed by that
    signal) and output, or a timeout."""

    def __init__(self, status, stdout=b"", seconds=0.0, timed_out=False, stderr=b""):
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.timed_out = timed_out

    def key(self):
        return ("timeout",) if self.timed_out else (self.status, self.stdout)

    def __eq__(self, other):
        return self.key() == other.key()

    def describe(self):
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        out = self.stdout.decode(errors="replace").strip()
        if len(out) > 120:
            out = out[:120] + "..."
        how = (f"killed by signal {-self.status}" if self.status < 0
               else f"exit {self.status}")
        return f"{how}, output {out!r}"


def run_exe(exe, timeout, env=None):
    """Runs a built program with no input, in its own directory."""
    exe = Path(exe).resolve()
    start = time.monotonic()
    try:
        p = subprocess.run([str(exe)], cwd=str(exe.parent),
                           stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return Result(None, seconds=time.monotonic() - start, timed_out=True)
    return Result(p.returncode, p.stdout, time.monotonic() - start, stderr=p.stderr)


def compile_exe(compiler, flags, src, exe, timeout=600):
    """Compiles and links one C file; returns (ok, message)."""
    cmd = [compiler] + flags + [str(src), "-o", str(exe)]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s: {shlex.join(cmd)}"
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        tail = "\n".join(err[-15:])
        return False, f"exit {p.returncode}: {shlex.join(cmd)}\n{tail}"
    return True, ""


def first_error(msg):
    """The first error line of a compiler's message, else its last line."""
    lines = msg.strip().splitlines() or [""]
    errors = [l for l in lines if "error:" in l.lower()]
    return (errors[0] if errors else lines[-1]).strip()[:300]


def divcc_timeout(reference, base):
    """How long a diversified build may run: ten times the reference's time
    (a loaded machine, NOPs and broken fall-throughs cost time), and never
    less than twice the reference's own timeout."""
    return max(2 * base, 10 * reference.seconds + 2)


def require_tools(*tools):
    missing = [t for t in tools if not (shutil.which(t) or os.path.exists(t))]
    if missing:
        sys.exit(f"error: missing {', '.join(missing)}: run scripts/install-deps.sh "
                 f"(as root) to install csmith, libcsmith-dev and cvise")


# Warnings that mean a program is not valid C with defined behaviour (or
# has lost its meaning during reduction: a missing return value, a call to an
# undeclared function): they are errors when a reduced program is checked.
CLANG_ERRORS = ["-Werror=" + w for w in [
    "uninitialized", "sometimes-uninitialized", "implicit-function-declaration",
    "implicit-int", "return-type", "int-conversion", "incompatible-pointer-types",
    "array-bounds", "division-by-zero", "shift-count-overflow",
    "shift-count-negative", "null-dereference", "unsequenced", "main-return-type",
    "incompatible-library-redeclaration", "int-to-pointer-cast",
    "pointer-to-int-cast", "excess-initializers", "dangling", "return-stack-address"]]
GCC_ERRORS = ["-Werror=" + w for w in [
    "uninitialized", "return-type", "implicit-function-declaration",
    "implicit-int", "int-conversion", "incompatible-pointer-types",
    "sequence-point", "aggressive-loop-optimizations", "div-by-zero",
    "array-bounds", "return-local-addr", "shift-count-overflow",
    "shift-count-negative", "int-to-pointer-cast", "pointer-to-int-cast"]]


def undefined_behaviour(src, outdir, reference, timeout, extra=()):
    """Looks for undefined behaviour in a program whose clang-19 build (at
    -O2 or the level fuzzed) ran as `reference`: gcc's warnings above, AddressSanitizer with
    UndefinedBehaviorSanitizer, MemorySanitizer (uninitialized reads), and
    gcc -O0's output, which must equal the clang build's. Returns what was found,
    or None."""
    outdir = Path(outdir)
    extra = list(extra)
    ok, msg = compile_exe(GCC, ["-O1", "-w"] + GCC_ERRORS + ["-c"] + extra, src,
                          outdir / "gcc-warn.o")
    (outdir / "gcc-warn.o").unlink(missing_ok=True)
    if not ok:
        return "gcc warns: " + first_error(msg)
    builds = [
        # Not alignment: csmith's packed structs (#pragma pack(1)) make
        # misaligned int pointers, harmless on x86-64.
        ("asan+ubsan", clang(), ["-O1", "-w", "-fsanitize=address,undefined",
                                 "-fno-sanitize=alignment", "-fno-sanitize-recover=all"]),
        ("msan", clang(), ["-O1", "-w", "-fsanitize=memory"]),
        ("gcc -O0", GCC, ["-O0", "-w"]),
    ]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:detect_stack_use_after_return=1")
    slow_timeout = 10 * timeout
    for name, cc, flags in builds:
        exe = outdir / ("check-" + name.split()[0].replace("+", "-") + ".exe")
        ok, msg = compile_exe(cc, flags + extra, src, exe)
        if not ok:
            return f"{name} build failed: " + first_error(msg)
        got = run_exe(exe, slow_timeout, env)
        exe.unlink(missing_ok=True)
        if got.timed_out:
            return f"{name} build timed out"
        if got != reference:
            why = [l for l in got.stderr.decode(errors="replace").splitlines()
                   if "runtime error" in l or "ERROR:" in l or "WARNING:" in l]
            return (f"{name} build differs from clang's: {got.describe()}"
                    + (f" ({why[0].strip()[:200]})" if why else ""))
    return None


def self_contained(src, dest, include_dirs=(CSMITH_INCLUDE,)):
    """Writes src with its own headers (csmith's) expanded and its system
    headers left as #include lines, so that the result needs nothing but a
    C library and means the same to clang and gcc. Returns (ok, message)."""
    cmd = [clang(), "-E"] + [f"-I{d}" for d in include_dirs] + [str(src)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, p.stderr
    includes, body = [], []
    stack = []  # (file, is system header)
    for line in p.stdout.splitlines():
        if line.startswith("# ") and len(line.split()) >= 3 and line.split()[1].isdigit():
            parts = line.split()
            name = parts[2].strip('"')
            flags = parts[3:]
            system = "3" in flags
            if "1" in flags:  # entering a file
                if system and stack and not stack[-1][1]:
                    header = name.split("/include/", 1)[-1]
                    if header not in includes:
                        includes.append(header)
                stack.append((name, system))
            elif "2" in flags:  # back in an including file
                while stack and stack[-1][0] != name:
                    stack.pop()
                if not stack:
                    stack.append((name, system))
            elif not stack:
                stack.append((name, system))
            continue
        if stack and stack[-1][1]:
            continue
        if line.strip():
            body.append(line)
    Path(dest).write_text("".join(f"#include <{h}>\n" for h in includes)
                          + "\n".join(body) + "\n")
    return True, ""
