"""What the benchmark scripts (bench/) share: logging, running and timing
commands, counting what they execute under valgrind, the statistics over
variants, measuring configurations in turns, and Markdown tables.

Logging: log() writes one line to stderr with the clock time and the time
since the script started; the tables go to stdout. work_folder() gives a
script its temporary folder.

Running: run() runs a command to the end and never deadlocks on its pipes
(its output is read while it runs, by communicate()); it measures the
command's CPU time (user + system, the command and every child it waited
for) as the difference of this process's RUSAGE_CHILDREN before and after,
and its wall time. Stopwatch does the same around any code that runs
commands (a whole build). Both assume the script runs one command at a
time, as every benchmark here does: a second child finishing meanwhile
would be counted too.

Counting: cachegrind() and callgrind() run a command under valgrind,
children included (--trace-children=yes), one output file per process, and
read each file's "events:" and "summary:" (or "totals:") lines, as
`divtool perf --metric instructions` does (divtool/perf/Measure.cpp). A
process that execs another program is counted as the program it became:
valgrind writes no counts for the image that exec replaced. The counts
(COUNTS) and the cachegrind events each is the sum of:

    instructions   Ir
    I1 misses      I1mr               (first-level instruction cache)
    D1 misses      D1mr + D1mw        (first-level data cache, reads + writes)
    LL misses      ILmr + DLmr + DLmw (last-level cache, instructions + data)
    mispredicts    Bcm + Bim          (conditional + indirect branches)

The caches and the branch predictor are cachegrind's simulation, so the
misses compare builds with each other, not machines. The caches simulated
are those of a current server core unless a geometry is given
(CACHE_GEOMETRY, the same as divtool perf's --cache-geometry): "server",
the default,

    I1 32 KiB 8-way, D1 48 KiB 12-way, LL 1.25 MiB 20-way, 64-byte lines
    (valgrind --I1=32768,8,64 --D1=49152,12,64 --LL=1310720,20,64)

an Intel Ice Lake server core, its L2 standing for the last level
(cachegrind simulates two levels); "host", valgrind's default: the caches
of this machine as valgrind reads them (on a large server, an LL of a
hundred MiB or more, which hides the misses a core's own L2 would have);
or I1:D1:LL, each SIZE,ASSOC,LINE in bytes. estimated_cycles() is
cachegrind's classic estimate of the time they cost, and cachegrind() adds
it to the simulated counts as "cycles":

    cycles = Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim)
                + 100 x (ILmr + DLmr + DLmw)

Why not `divtool perf --json`: divtool perf measures a population it
builds itself (copies of a source tree, a seed per variant derived from a
master key, at least 2 variants) and compares two such builds; the
scripts here measure builds they made otherwise (a clang-19 baseline,
fixed -frandom-seed variants, cross-built programs under qemu, golden
masters and their installs) and audit the very builds they counted. So
they share this module's counting, which reads valgrind's files as divtool
perf does, instead.

Statistics: geomean(), median(), over_variants() (mean, worst, best and
standard deviation of ratios over variants), mean_or_none(),
max_or_none().

Turns: interleaved() measures several configurations round by round, the
order rotating every round, so that none is always first or last (caches,
turbo, other load).

Tables: markdown_table() and the cell formats ratio() and percent().

Python 3 standard library only.
"""

import contextlib
import math
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

STARTED = time.monotonic()

# --------------------------------------------------------------------------
# Logging


def log(msg):
    """One line on stderr: the clock time, the minutes and seconds since
    the script started, msg."""
    elapsed = int(time.monotonic() - STARTED)
    print(f"[{time.strftime('%H:%M:%S')} +{elapsed // 60}:{elapsed % 60:02d}] {msg}",
          file=sys.stderr, flush=True)


def elapsed_minutes():
    return (time.monotonic() - STARTED) / 60


@contextlib.contextmanager
def work_folder(name, keep=False):
    """`with work_folder(NAME) as work:` a fresh folder divcc-NAME-* for
    the builds, removed at the end whatever happened, or kept (and named
    on stderr) with keep."""
    path = Path(tempfile.mkdtemp(prefix=f"divcc-{name}-"))
    try:
        yield path
    finally:
        if keep:
            log(f"builds kept in {path}")
        else:
            shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------
# Running and timing


class CommandFailed(RuntimeError):
    """A command exited with a status other than 0, or timed out."""


def children_cpu_seconds():
    """CPU time (user + system) of all the child processes this process
    has waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Stopwatch:
    """`with Stopwatch() as w: ...`, then w.cpu: the CPU seconds of every
    child process the block waited for (a whole build), and w.wall: the
    block's wall seconds."""

    def __enter__(self):
        self._cpu, self._wall = children_cpu_seconds(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.cpu = children_cpu_seconds() - self._cpu
        self.wall = time.perf_counter() - self._wall
        return False


@dataclass
class Ran:
    """What run() returns: the exit status, the output (text, "" unless
    captured) and the CPU and wall seconds the command took."""
    returncode: int
    stdout: str
    stderr: str
    cpu: float
    wall: float


def run(cmd, *, cwd=None, env=None, stdin=None, stdout=False, timeout=None, check=True):
    """Runs cmd (a list) to its end and returns a Ran.

    stdin: None (/dev/null), a path to read, or bytes. stdout: False
    discards the command's output, True captures it; its stderr is always
    captured (the end of it goes into the error). Both are read while the
    command runs, so a command that writes much never blocks on a full
    pipe. With check, a non-zero status or a timeout raises CommandFailed."""
    cmd = [str(c) for c in cmd]
    if isinstance(stdin, bytes):
        feed, source = {"input": stdin}, contextlib.nullcontext()
    elif stdin is None:
        feed, source = {}, contextlib.nullcontext(subprocess.DEVNULL)
    else:
        feed, source = {}, open(stdin, "rb")
    with source as fin, Stopwatch() as w:
        if fin is not None:
            feed["stdin"] = fin
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, **feed,
                               stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise CommandFailed(f"{shlex.join(cmd)} timed out after {timeout} s"
                                + (f" (in {cwd})" if cwd else "")) from e
    ran = Ran(p.returncode, (p.stdout or b"").decode(errors="replace"),
              p.stderr.decode(errors="replace"), w.cpu, w.wall)
    if check and ran.returncode != 0:
        raise CommandFailed(shlex.join(cmd) + (f" (in {cwd})" if cwd else "") +
                            f" failed ({ran.returncode}): {ran.stderr[-400:]}")
    return ran


# --------------------------------------------------------------------------
# Counting under valgrind

# {count: the cachegrind events it is the sum of} (divtool/perf/Measure.cpp).
COUNTS = {"instructions": ("Ir",),
          "I1 misses": ("I1mr",),
          "D1 misses": ("D1mr", "D1mw"),
          "LL misses": ("ILmr", "DLmr", "DLmw"),
          "mispredicts": ("Bcm", "Bim")}
# The counts only cachegrind's cache and branch simulation gives.
MISS_COUNTS = [c for c in COUNTS if c != "instructions"]


# The caches cachegrind simulates by default (--cache-geometry server): I1,
# D1 and LL, each SIZE,ASSOC,LINE in bytes as valgrind's --I1, --D1 and
# --LL; divtool perf's ServerCacheGeometry (divtool/perf/Perf.h) is the
# same.
CACHE_GEOMETRY = {"server": "32768,8,64:49152,12,64:1310720,20,64",
                  "host": None}
DEFAULT_CACHE_GEOMETRY = "server"


def cache_levels(geometry):
    """[(size, assoc, line)] of I1, D1 and LL for geometry (a name of
    CACHE_GEOMETRY or I1:D1:LL, each SIZE,ASSOC,LINE), None for "host".
    ValueError for what valgrind would refuse: a line size that is not a
    power of two of at least 16 bytes, a set count that is not a power of
    two."""
    text = CACHE_GEOMETRY.get(geometry, geometry)
    if text is None:
        return None
    usage = (f"give {', '.join(CACHE_GEOMETRY)}, or I1:D1:LL, each SIZE,ASSOC,LINE "
             f"in bytes (e.g. {CACHE_GEOMETRY['server']})")
    parts = text.split(":")
    if len(parts) != 3:
        raise ValueError(f"cache geometry {geometry!r}: not three caches; {usage}")
    levels = []
    for name, part in zip(("I1", "D1", "LL"), parts):
        try:
            size, assoc, line = (int(n) for n in part.split(","))
        except ValueError:
            raise ValueError(f"cache geometry {geometry!r}: {name} is not SIZE,ASSOC,LINE; "
                             f"{usage}") from None
        if min(size, assoc, line) <= 0:
            raise ValueError(f"cache geometry {geometry!r}: {name} has a number below 1")
        if line < 16 or line & (line - 1):
            raise ValueError(f"cache geometry {geometry!r}: {name}'s line size is not a "
                             "power of two of at least 16 bytes")
        sets, rest = divmod(size, assoc * line)
        if rest:
            raise ValueError(f"cache geometry {geometry!r}: {name}'s size is not a "
                             "multiple of ASSOC x LINE")
        if sets & (sets - 1):
            raise ValueError(f"cache geometry {geometry!r}: {name} has {sets} sets, "
                             "not a power of two")
        levels.append((size, assoc, line))
    return levels


def cache_options(geometry=DEFAULT_CACHE_GEOMETRY):
    """valgrind's options for geometry: --I1=... --D1=... --LL=..., or none
    for "host"."""
    levels = cache_levels(geometry)
    return [f"--{name}={size},{assoc},{line}"
            for name, (size, assoc, line) in zip(("I1", "D1", "LL"), levels or [])]


def describe_caches(geometry=DEFAULT_CACHE_GEOMETRY):
    """"I1 32 KiB 8-way, D1 48 KiB 12-way, LL 1.25 MiB 20-way, 64-byte
    lines", or what "host" means."""
    levels = cache_levels(geometry)
    if levels is None:
        return "the host's caches, as valgrind reads them from the CPU"

    def size(n):
        for unit, name in ((1 << 20, "MiB"), (1 << 10, "KiB")):
            if n >= unit and n * 100 % unit == 0:
                return f"{n / unit:.2f}".rstrip("0").rstrip(".") + " " + name
        return f"{n} B"
    text = ", ".join(f"{name} {size(s)} {a}-way"
                     for name, (s, a, _) in zip(("I1", "D1", "LL"), levels))
    lines = {line for _, _, line in levels}
    if len(lines) == 1:
        return text + f", {lines.pop()}-byte lines"
    return text + "; lines " + ", ".join(f"{line} B" for _, _, line in levels)


def require_valgrind(who, what="--instructions"):
    """Exits with a message naming who if valgrind is not installed."""
    if shutil.which("valgrind") is None:
        sys.exit(f"{who}: {what} needs valgrind (scripts/install-deps.sh installs it)")


def read_valgrind_file(path):
    """(the program, {event: count}) of one cachegrind or callgrind output
    file: its "cmd:", "events:" and "summary:" (else "totals:") lines. A
    summary may leave out trailing zero counts."""
    program, events, counts = "?", None, None
    for line in Path(path).read_text(errors="replace").splitlines():
        if line.startswith("cmd:") and program == "?":
            words = line[4:].split()
            program = Path(words[0]).name if words else "?"
        elif line.startswith("events:") and events is None:
            events = line[7:].split()
        elif line.startswith("summary:") or (line.startswith("totals:") and counts is None):
            counts = [int(n) for n in line.split(":", 1)[1].split()]
    if events is None or counts is None or len(counts) > len(events):
        raise CommandFailed(f"valgrind's output {path} has no events and summary lines")
    return program, {e: (counts[i] if i < len(counts) else 0) for i, e in enumerate(events)}


def valgrind_processes(tool, cmd, *, cwd=None, env=None, stdin=None, options=(),
                       timeout=None):
    """[(pid, program, {event: count})] of cmd and every process it
    started, under valgrind's tool (cachegrind or callgrind), in the order
    they started."""
    with tempfile.TemporaryDirectory(prefix=f"divcc-{tool}-") as tmp:
        run(["valgrind", f"--tool={tool}", "--trace-children=yes", "-q",
             f"--{tool}-out-file={tmp}/out.%p", *options, *cmd],
            cwd=cwd, env=env, stdin=stdin, timeout=timeout)
        files = sorted(Path(tmp).glob("out.*"), key=lambda f: int(f.name.split(".")[1]))
        if not files:
            raise CommandFailed(f"{tool} wrote no counts for {shlex.join(map(str, cmd))}")
        return [(int(f.name.split(".")[1]), *read_valgrind_file(f)) for f in files]


def cachegrind(cmd, *, cwd=None, env=None, stdin=None, simulate=False,
               geometry=DEFAULT_CACHE_GEOMETRY, timeout=None):
    """What cmd executes under cachegrind, its children included:
    {"instructions": n} and, with simulate (cache and branch simulation,
    with the caches of geometry), every count of COUNTS, each summed over
    the processes, and "cycles" (estimated_cycles())."""
    # The simulators are set either way: before valgrind 3.21 the cache
    # simulator is on by default and triples the run's time.
    sim = "yes" if simulate else "no"
    options = [f"--cache-sim={sim}", f"--branch-sim={sim}"]
    if simulate:
        options += cache_options(geometry)
    processes = valgrind_processes("cachegrind", cmd, cwd=cwd, env=env, stdin=stdin,
                                   options=options, timeout=timeout)
    totals = {}
    for _, _, events in processes:
        for event, n in events.items():
            totals[event] = totals.get(event, 0) + n
    counts = {}
    for name in COUNTS if simulate else ["instructions"]:
        missing = [e for e in COUNTS[name] if e not in totals]
        if missing:
            raise CommandFailed(f"cachegrind gave no {', '.join(missing)} for "
                                f"{shlex.join(map(str, cmd))}")
        counts[name] = sum(totals[e] for e in COUNTS[name])
    if simulate:
        counts["cycles"] = estimated_cycles(counts)
    return counts


def callgrind(cmd, *, cwd=None, env=None, stdin=None, timeout=None):
    """[(program, instructions)] of cmd and every process it started, in
    the order they started, counted by callgrind. (A process forked
    without exec starts with its parent's counts, which are then counted
    twice.)"""
    return [(program, events.get("Ir", 0)) for _, program, events in
            valgrind_processes("callgrind", cmd, cwd=cwd, env=env, stdin=stdin,
                               timeout=timeout)]


# cachegrind's classic cycle estimate, as estimated_cycles() computes it
# (divtool perf's cyclesFormula() is the same).
CYCLES_FORMULA = "Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr + DLmw)"


def estimated_cycles(counts):
    """cachegrind's classic cycle estimate from cachegrind(simulate=True)'s
    counts: Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim) + 100 x (ILmr + DLmr
    + DLmw) (CYCLES_FORMULA)."""
    return (counts["instructions"]
            + 10 * (counts["I1 misses"] + counts["D1 misses"] + counts["mispredicts"])
            + 100 * counts["LL misses"])


# --------------------------------------------------------------------------
# Statistics


def known(xs):
    """xs without its Nones."""
    return [x for x in xs if x is not None]


def geomean(xs):
    """The geometric mean of xs, leaving out None and 0 (no measurement);
    NaN when nothing is left."""
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def median(xs):
    return statistics.median(xs)


def mean_or_none(xs):
    xs = known(xs)
    return statistics.mean(xs) if xs else None


def max_or_none(xs):
    xs = known(xs)
    return max(xs) if xs else None


def over_variants(ratios):
    """{mean, worst, best, stdev} of ratios over variants (a higher ratio
    is worse; stdev is None with fewer than 2); None ratios are left out."""
    rs = known(ratios)
    if not rs:
        return {"mean": None, "worst": None, "best": None, "stdev": None}
    return {"mean": statistics.mean(rs), "worst": max(rs), "best": min(rs),
            "stdev": statistics.stdev(rs) if len(rs) > 1 else None}


# --------------------------------------------------------------------------
# Taking turns


def rotation(names, round_):
    """names in the order of round round_: starting at names[round_ % n]."""
    names = list(names)
    k = round_ % len(names) if names else 0
    return names[k:] + names[:k]


def interleaved(names, rounds, measure, after_round=None):
    """{name: [measure(name) of each round]}: every round measures each of
    names once, the order rotating by one every round, so that none is
    always first or last. after_round(round, {name: its latest value}), if
    given, is called at the end of each round (a progress line)."""
    values = {n: [] for n in names}
    for r in range(rounds):
        for n in rotation(names, r):
            values[n].append(measure(n))
        if after_round:
            after_round(r, {n: v[-1] for n, v in values.items()})
    return values


# --------------------------------------------------------------------------
# Tables


def markdown_table(header, rows, align=None):
    """A Markdown table: header a list of column titles, rows lists of
    cells (strings, or anything str() formats; None is empty); align, if
    given, a letter per column: l (the default) or r (right-aligned)."""
    marks = {"l": " --- |", "r": " ---: |"}
    lines = ["| " + " | ".join(map(str, header)) + " |",
             "|" + "".join(marks[a] for a in (align or "l" * len(header)))]
    lines += ["| " + " | ".join("" if c is None else str(c) for c in row) + " |"
              for row in rows]
    return "\n".join(lines)


def ratio(x, digits=3):
    """x with digits decimals; empty for None or NaN."""
    return "" if x is None or x != x else f"{x:.{digits}f}"


def ratio4(x):
    return ratio(x, 4)


def percent(x):
    """A fraction as a percentage with 2 decimals; empty for None or NaN."""
    return "" if x is None or x != x else f"{100 * x:.2f}%"

