"""The test corpus and how to build and run it, shared by the end-to-end
checks. A program is one file tests/corpus/NAME.{c,cpp} or a folder
tests/corpus/multi-NAME/ of such files."""

import concurrent.futures
import os
import signal
import sys

from divtest import checks, tools

CORPUS = tools.TESTS / "corpus"
LINK_LIBS = ["-lm", "-lpthread"]


class Program:
    def __init__(self, name, sources):
        self.name = name
        self.sources = sources

    @property
    def is_cxx(self):
        return any(s.suffix == ".cpp" for s in self.sources)

    def std_flags(self):
        return ["-std=c++17"] if self.is_cxx else ["-std=c17"]


# Programs that are x86 by construction, and why.
X86_ONLY = {
    "c_inline_asm": "x86 inline assembly",
    "c_vectors": "SSE2 intrinsics from <emmintrin.h>",
}
# Programs that assume a 64-bit long or __int128, or a long double wider
# than double, and why: on ILP32 targets they do not build, or their
# output is undefined.
LP64_ONLY = {
    "c_int128": "__int128",
    "cpp_operators": "__int128",
    "multi-exceptions": "a long constant of 10^11",
    "c_varargs": "a 64-bit constant read by %ld",
    "c_long_double": "2^64-1 held exactly by a long double",
}


def unbuildable(target):
    """{program name: why} of the corpus programs that are not built for
    target (a projects.Target): none on x86-64."""
    if not target.cross:
        return {}
    return dict(X86_ONLY, **({} if target.lp64 else LP64_ONLY))


def programs():
    found = []
    for entry in sorted(CORPUS.iterdir()):
        if entry.is_dir() and entry.name.startswith("multi-"):
            srcs = sorted(p for p in entry.iterdir() if p.suffix in (".c", ".cpp"))
            found.append(Program(entry.name, srcs))
        elif entry.suffix in (".c", ".cpp"):
            found.append(Program(entry.stem, [entry]))
    if len(found) < 30:
        sys.exit(f"corpus: expected at least 30 programs in {CORPUS}, found {len(found)}")
    return found


def compile_objects(compiler, prog, flags, outdir, env=None):
    """Compiles each source of prog to an object in outdir; returns paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    objs = []
    for src in prog.sources:
        obj = outdir / (src.stem + ".o")
        tools.check([compiler] + prog.std_flags() + flags +
                    ["-c", str(src), "-o", str(obj)], env=env)
        objs.append(obj)
    return objs


def link(compiler, objs, flags, exe, env=None):
    tools.check([compiler] + flags + [str(o) for o in objs] + LINK_LIBS + ["-o", str(exe)],
                env=env)
    return exe


def build(compiler, prog, flags, out, link_flags=()):
    """Compiles prog's sources to objects in out and links them as
    out/prog, with flags and then link_flags; returns its path."""
    objs = compile_objects(compiler, prog, flags, out)
    return link(compiler, objs, flags + list(link_flags), out / "prog")


def check_variant(compiler, prog, flags, out, tag, want, link_flags=(), runner=None,
                  then=""):
    """Builds prog (build()) and runs it (output_mismatch()): None if it
    behaves as want, else the failure line, a failed build included. The
    reproduction is the one command that builds prog so, then `then`."""
    try:
        exe = build(compiler, prog, flags, out, link_flags)
    except RuntimeError as e:
        return f"{tag}: build failed: {e}"
    return output_mismatch(
        tag, exe, want,
        f"{compiler} {' '.join(prog.std_flags() + flags + list(link_flags))} "
        f"{' '.join(map(str, prog.sources))} {' '.join(LINK_LIBS)}{then}", runner)


def output_mismatch(tag, exe, want, reproduce, runner=None):
    """Runs exe (through runner(exe) if given, which returns (exit status,
    stdout)): None if its exit status and output are want's (a pair from
    tools.run()), else the failure line, with the command that reproduces
    it."""
    got = runner(exe) if runner else tools.run([str(exe)])[:2]
    if got == want:
        return None
    # Trap padding (gaps, offset) is int3 on x86 and udf on AArch64: a
    # variant stopped by SIGTRAP or SIGILL where clang's build was not ran
    # into padding that control must never reach.
    trap = got[0] in (-signal.SIGTRAP, -signal.SIGILL, 128 + signal.SIGTRAP,
                      128 + signal.SIGILL) and got[0] != want[0]
    return (f"{tag}: {'reached trap padding: ' if trap else ''}"
            f"exit {got[0]} and output {got[1][:200]!r} differ from clang-19's "
            f"exit {want[0]} and output {want[1][:200]!r} (reproduce: {reproduce})")


def parallel(fn, items):
    """Runs fn over items on all cores; returns the list of results."""
    workers = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def failed(fn, jobs):
    """Runs fn over jobs on all cores; returns what it returned that is not
    None (a failure line each)."""
    return [f for f in parallel(fn, jobs) if f]


def check_all(name, fn, jobs):
    """Runs fn over jobs on all cores, fn returning None or a failure line,
    and reports the result as NAME (checks.report: exits)."""
    checks.report(name, failed(fn, jobs), len(jobs))
