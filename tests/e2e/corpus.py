"""The test corpus and how to build and run it, shared by the end-to-end
checks. A program is one file tests/corpus/NAME.{c,cpp} or a folder
tests/corpus/multi-NAME/ of such files."""

import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
CLANG = os.environ.get("DIVCC_TEST_CLANG", "/usr/lib/llvm-19/bin/clang")
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


def build_dir():
    return Path(os.environ.get("DIVCC_BUILD_DIR", ROOT / "build"))


def divcc(cxx):
    return str(build_dir() / ("div++" if cxx else "divcc"))


def clang(cxx):
    return CLANG + ("++" if cxx else "")


def run(cmd, cwd=None, timeout=120, env=None):
    """Runs a command; returns (exit code, stdout, stderr)."""
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def check(cmd, cwd=None, env=None):
    code, out, err = run(cmd, cwd, env=env)
    if code != 0:
        raise RuntimeError(f"command failed ({code}): {' '.join(map(str, cmd))}\n"
                           f"{err.decode(errors='replace')}")
    return out


def compile_objects(compiler, prog, flags, outdir, env=None):
    """Compiles each source of prog to an object in outdir; returns paths."""
    outdir.mkdir(parents=True, exist_ok=True)
    objs = []
    for src in prog.sources:
        obj = outdir / (src.stem + ".o")
        check([compiler] + prog.std_flags() + flags + ["-c", str(src), "-o", str(obj)],
              env=env)
        objs.append(obj)
    return objs


def link(compiler, objs, flags, exe, env=None):
    check([compiler] + flags + [str(o) for o in objs] + LINK_LIBS + ["-o", str(exe)],
          env=env)
    return exe


def output_mismatch(tag, exe, want, reproduce):
    """Runs exe: None if its exit status and output are want's (a pair from
    run()), else the failure line, with the command that reproduces it."""
    got = run([str(exe)])[:2]
    if got == want:
        return None
    return (f"{tag}: exit {got[0]} and output {got[1][:200]!r} differ from clang-19's "
            f"exit {want[0]} and output {want[1][:200]!r} (reproduce: {reproduce})")


def text_section(binary):
    """The bytes of every executable section, in order, as one blob."""
    out = check(["objdump", "-h", "-w", str(binary)]).decode()
    names = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) > 7 and parts[0].isdigit() and "CODE" in line:
            names.append(parts[1])
    blob = b""
    for name in names:
        tmp = Path(str(binary) + ".section")
        check(["objcopy", "-O", "binary", "--only-section=" + name, str(binary), str(tmp)])
        blob += name.encode() + b"\0" + tmp.read_bytes()
        tmp.unlink()
    return blob


def parallel(fn, items):
    """Runs fn over items on all cores; returns the list of results."""
    workers = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


_work_dirs = []


def work_dir(name):
    """A fresh folder for a check's builds. report() removes it when every
    check passed, and names it when some failed, for a closer look."""
    path = Path(tempfile.mkdtemp(prefix=f"divcc-{name}-"))
    _work_dirs.append(path)
    return path


def report(name, failures, total):
    """Prints the closing line and exits non-zero if anything failed."""
    for f in failures:
        print(f"FAIL: {f}")
    for path in _work_dirs:
        if failures:
            print(f"{name}: builds kept in {path}")
        else:
            shutil.rmtree(path, ignore_errors=True)
    print(f"{name}: {total - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
