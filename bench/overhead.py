#!/usr/bin/env python3
"""Runtime overhead of diversified builds against clang-19 -O2, on real
programs built by their own build systems (tests/divtest/projects.py).

For each benchmark, every configuration is built (divcc configurations as
--seeds variants); then the benchmark command runs REPEAT times per build,
the builds taking turns (the order rotates every round). A configuration's
time is the mean over its variants of their median times, divided by the
baseline's median. Timings are the CPU time (user + system) of the
benchmark process and its children: cycle counters (`perf stat`) are not
available on every machine, and CPU time is less disturbed by other load
than wall time. Geometric means over the benchmarks close each table.

Configurations:
  clang-19             the baseline: clang-19 -O2
  default              divcc -O2 -fdiversify (the default set)
  T                    divcc -O2 -fdiversify=T, for each transformation T
                       (with --each)
  clang-19+profile     the baseline with the training profile
                       (-fprofile-instr-use)
  profile-guided       divcc with the same profile and profile-guided NOPs
                       (-fdiversify-nop-probability-min=0, -max=0.5); its
                       ratio is to clang-19+profile
The profile comes from a training run of the same benchmark on the
clang-19 -fprofile-instr-generate build.

--lto MODE builds every configuration, the baseline included, with
-flto=MODE -fuse-ld=lld: divcc's overhead under LTO, against clang-19's LTO
build.

--target NAME (armhf, riscv64, aarch64) cross-builds every configuration
for that target (tests/divtest/projects.py's TARGETS: armhf is Thumb-2) and
times the programs under qemu-user, whose CPU time stands for the
program's: lz4, expat and secp256k1 (1 round of verifications, as
--instructions runs it). With --instructions the guest instructions each
build executes are counted instead, by a QEMU plugin (bench/qemu/: built
on first use against the installed QEMU's own plugin header, from its
Debian source package); cachegrind cannot run them, so no --misses; no
profile and no compile times either.

--instructions counts, instead of timing, what each build executes on the
benchmark under cachegrind (valgrind --tool=cachegrind
--trace-children=yes, one run per build, the input rounds once): exact and
repeatable whatever else the machine is doing. Three workloads are shorter
when counted, since counts need no long runs: xz compresses 1 MiB instead
of 6, leveldb's db_bench runs --num=50000 instead of 300000, and
secp256k1's bench_verify 1 round of 20000 verifications instead of 10.
The count is the "I refs"
line of cachegrind's summary on stderr, summed over the benchmark's
processes. Each configuration is reported relative to clang-19 as the mean
over its variants, its worst and its best variant, and the standard
deviation over its variants (with two or more); the closing row is the
geometric mean over the benchmarks of the means, of the worst and of the
best variants (no standard deviation). --seeds sets the number of
variants, up to 12 (more variants show the spread better; every variant is
one more build and one more run).

--misses (with --instructions) also runs cachegrind's cache and branch
simulators (--cache-sim=yes --branch-sim=yes; without --misses both are
off: lz4's run takes 2 s instead of 6) and adds a table of four counts,
relative to clang-19, mean and worst variant per configuration: I1 misses
(I1mr), D1 misses (D1mr + D1mw), last-level misses (LLi + LLd: the LL
cache cachegrind simulates is this machine's last-level cache, so on a
large one these are mostly first touches) and mispredicted branches
(Bcm + Bim), each summed over the benchmark's processes. The simulated
caches are modelled on this machine's: the counts compare builds with each
other, not machines.

--survival adds a "Security and size" table. For each divcc
configuration, `divtool audit --json` compares its variant 0 with its
other variants (with --seeds 2 or more) and the clang-19 build with all
its variants; the table gives per configuration and benchmark:
  survival between variants     mean and max over variants 1.. of the share
                                of variant 0's gadgets found at the same
                                address with the same bytes
  survival vs clang-19          the max over the variants of the share of
                                the clang-19 build's gadgets that survive
  relative survival             mean and max over variants 1.. of the share
                                of variant 0's gadgets in functions found
                                at the same offset in the function of the
                                same name (empty for stripped programs)
  .text / clang-19              the size of the program's .text section
                                (llvm-size -A), mean over the variants,
                                divided by the clang-19 build's
Survival is in percent; the closing row per configuration is the mean over
the benchmarks of the means, the max of the maxima and the geometric mean
of the size ratios.

Compile time: each project's build is timed for clang-19, divcc
-fno-diversify and divcc -fdiversify: CPU time of every process the build
runs (configure, make, the compilers), -j1, median of --compile-repeat
builds each, the compilers taking turns.

  export PYTHONPATH=$PWD/tests               # from the repository's root
  python3 bench/overhead.py                  # default set and profile
  python3 bench/overhead.py --each           # and each transformation alone
  python3 bench/overhead.py --compile-time-only
  python3 bench/overhead.py --markdown docs/performance.md
  # the trade-off of candidate sets: instructions, misses, survival, size
  python3 bench/overhead.py --instructions --misses --survival --seeds 5 \\
      --no-compile-time --config 'nonops=-fdiversify=funcs,sched,globals,offset,gaps'
"""

import argparse
import copy
import json
import math
import os
import random
import resource
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from divtest import projects, tools
from divtest.tools import TRANSFORMATIONS

PROFDATA = "/usr/lib/llvm-19/bin/llvm-profdata"
# Fixed variants, so that a run repeats; several, because code layout
# alone moves a program's speed by a few percent either way. (The first
# three were once all there were: results with --seeds 3 or fewer repeat.)
SEEDS = [f"-frandom-seed=overhead-{i}" for i in range(1, 13)]
# What the programs are built for (--target): this machine, or a cross
# target whose programs run under qemu (tests/divtest/projects.py).
TARGET = projects.get_target("x86_64")
LLVM_SIZE = Path(tools.CLANG).parent / "llvm-size"


def make_input(path, size, kind):
    """Deterministic input data: word-like text (compressible like real
    files) or XML built from it."""
    rng = random.Random(2026)
    words = ["".join(rng.choice("etaoinshrdlucmfwyp") for _ in range(rng.randint(2, 9)))
             for _ in range(4000)]
    out, total = [], 0
    while total < size:
        if kind == "xml":
            w = rng.sample(words, 4)
            line = f'<item id="{total}" name="{w[0]}"><t a="{w[1]}">{w[2]} {w[3]}</t></item>\n'
        else:
            line = " ".join(rng.choice(words) for _ in range(12)) + "\n"
        out.append(line)
        total += len(line)
    text = "".join(out)
    if kind == "xml":
        text = "<?xml version=\"1.0\"?>\n<root>\n" + text + "</root>\n"
    path.write_text(text)


class Benchmark:
    """A program of a project and the command that exercises it."""

    def __init__(self, name, project, program, args, inputs=(), stdin=None, rounds=1,
                 code=None, counted=None):
        self.name, self.project, self.program = name, project, program
        self.args, self.inputs, self.stdin = args, inputs, stdin
        # (args, inputs) of a shorter run of the same workload for
        # --instructions: counts are exact, so a smaller input gives the same
        # ratios in a fraction of cachegrind's time.
        self.counted = counted
        # Short commands run several times per measurement, so that one
        # measurement lasts long enough to be read reliably.
        self.rounds = rounds
        # Where the benchmarked code is, relative to the program, when it is
        # not the program itself (a shared library behind a libtool wrapper).
        self.code = code

    def for_counting(self):
        """This benchmark as --instructions runs it."""
        if not self.counted:
            return self
        shorter = copy.copy(self)
        shorter.args, shorter.inputs = self.counted
        return shorter

    def for_emulator(self):
        """This benchmark as --target runs it under qemu."""
        return self

    def code_object(self, program):
        """The ELF file holding the code the benchmark exercises: what
        --survival audits and measures."""
        return (Path(program).parent / self.code).resolve() if self.code else program

    def build(self, cc, cxx, flags, out):
        projects.build(self.project, cc, cxx, flags, out, jobs=1, target=TARGET.name)
        return projects.artifacts(self.project, out)[self.program]

    def command(self, program, data):
        cmd = TARGET.command([str(program)] + [a.format(data=data) for a in self.args])
        if TARGET.cross and Path(program).read_bytes()[:2] == b"#!":
            # A libtool wrapper script: libtool's execute mode hands the
            # emulator the real program, with its libraries' path.
            libtool = next(d / "libtool" for d in Path(program).parents
                           if (d / "libtool").exists())
            cmd = [str(libtool), "--mode=execute"] + cmd
        return cmd


class Secp256k1Bench(Benchmark):
    """bench_verify of libsecp256k1, built as the npm package builds the
    library (without the test-only VERIFY checks): 10 rounds of 20000
    verifications, or 1 round for --instructions."""

    rounds_of_verifications = 10

    def for_counting(self):
        shorter = copy.copy(self)
        shorter.rounds_of_verifications = 1
        return shorter

    for_emulator = for_counting

    def build(self, cc, cxx, flags, out):
        src = projects.fetch("secp256k1")
        recipe = projects.project("secp256k1")
        defines = [d for d in recipe.DEFINES if d != "VERIFY"]
        defines += recipe.WORD[TARGET.lp64] + recipe.ASM.get(TARGET.name, [])
        out = Path(out)
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        program = out / "bench_verify"
        main = src / "src" / "bench_verify.c"
        if self.rounds_of_verifications != 10:
            text = main.read_text()
            call = 'run_benchmark("ecdsa_verify", benchmark_verify, NULL, NULL, &data, 10, 20000);'
            if call not in text:
                raise RuntimeError(f"{main}: no {call} to shorten")
            main = out / "bench_verify.c"
            main.write_text(text.replace(call, call.replace(
                ", 10, 20000);", f", {self.rounds_of_verifications}, 20000);")))
        subprocess.run([cc] + list(TARGET.cc_flags) + flags + [f"-D{d}" for d in defines] +
                       [f"-I{src}", f"-I{src / 'src'}", f"-I{src / 'include'}",
                        str(src / "src" / "secp256k1.c"), str(main),
                        "-o", str(program)], check=True, capture_output=True)
        return program


BENCHMARKS = {
    "sqlite": Benchmark("sqlite", "sqlite", "sqlite3", [":memory:"],
                        stdin=projects.SQLITE_WORKLOAD),
    "lz4": Benchmark("lz4", "lz4", "lz4", ["-1", "-f", "-q", "{data}/text", "/dev/null"],
                     inputs=[("text", 96 << 20, "text")], rounds=6),
    "xz": Benchmark("xz", "xz", "xz", ["-6", "-T1", "-c", "-q", "{data}/text-small"],
                    inputs=[("text-small", 6 << 20, "text")],
                    counted=(["-6", "-T1", "-c", "-q", "{data}/text-1m"],
                             [("text-1m", 1 << 20, "text")])),
    "expat": Benchmark("expat", "expat", "xmlwf", ["{data}/doc.xml"],
                       inputs=[("doc.xml", 48 << 20, "xml")], rounds=6,
                       code="../.libs/libexpat.so"),
    "secp256k1": Secp256k1Bench("secp256k1", "secp256k1", "bench_verify", []),
    "leveldb": Benchmark("leveldb", "leveldb", "db_bench",
                         ["--benchmarks=fillseq,fillrandom,readrandom,readseq",
                          "--num=300000", "--db={data}/leveldb-db"],
                         counted=(["--benchmarks=fillseq,fillrandom,readrandom,readseq",
                                   "--num=50000", "--db={data}/leveldb-db"], [])),
}


def run_timed(cmd, stdin, cwd):
    """CPU seconds (user + system) of cmd and its children."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.Popen(cmd, cwd=cwd, stdin=fin, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
    finally:
        if stdin:
            fin.close()
    if p.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({p.returncode}): {err[-300:]}")
    return usage.ru_utime + usage.ru_stime


# The lines of cachegrind's summary on stderr ("==PID== I1  misses:  1,091"),
# one summary per process, and the counts they give (the first number of a
# line: D1 misses are D1mr + D1mw, Mispredicts Bcm + Bim).
CACHEGRIND_LINE = re.compile(
    r"^==\d+==\s+(I\s+refs|I1\s+misses|LLi\s+misses|D1\s+misses|LLd\s+misses|Mispredicts):"
    r"\s+([\d,]+)", re.M)
MISS_COUNTS = {"I1 misses": ["I1 misses"], "D1 misses": ["D1 misses"],
               "LL misses": ["LLi misses", "LLd misses"], "mispredicts": ["Mispredicts"]}


def run_cachegrind(cmd, stdin, cwd, misses=False):
    """What cmd executes under cachegrind, its children included:
    {"instructions": n}, and with misses the MISS_COUNTS too."""
    sim = "yes" if misses else "no"  # valgrind < 3.21 simulates caches by default
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run(["valgrind", "--tool=cachegrind", "--cachegrind-out-file=/dev/null",
                            "--trace-children=yes", f"--cache-sim={sim}", f"--branch-sim={sim}"]
                           + list(cmd), cwd=cwd, stdin=fin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    finally:
        if stdin:
            fin.close()
    err = p.stderr.decode(errors="replace")
    lines = {}
    for key, value in CACHEGRIND_LINE.findall(err):
        lines.setdefault(" ".join(key.split()), []).append(int(value.replace(",", "")))
    processes = len(lines.get("I refs", []))
    wanted = [k for ks in MISS_COUNTS.values() for k in ks] if misses else []
    if p.returncode != 0 or not processes or \
            any(len(lines.get(k, [])) != processes for k in wanted):
        raise RuntimeError(f"cachegrind {shlex.join(cmd)} failed ({p.returncode}): {err[-300:]}")
    counts = {"instructions": sum(lines["I refs"])}
    if misses:
        for name, keys in MISS_COUNTS.items():
            counts[name] = sum(sum(lines[k]) for k in keys)
    return counts


def text_size(program):
    """Bytes of the .text section of program."""
    size = str(LLVM_SIZE) if LLVM_SIZE.exists() else "llvm-size-19"
    out = subprocess.run([size, "-A", str(program)], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == ".text":
            return int(fields[1])
    raise RuntimeError(f"{program}: no .text section")


def audit(base, variants):
    """[(survival, relative survival or None)] of each of variants against
    base (fractions), from divtool audit --json; stripped programs are
    audited with --no-functions and have no relative survival."""
    cmd = [tools.divtool_path(), "audit", "--json", "--no-progress"]
    paths = [str(base)] + [str(v) for v in variants]
    p = subprocess.run(cmd + paths, capture_output=True, text=True)
    functions = True
    if p.returncode == 1 and "stripped" in p.stderr:
        functions = False
        p = subprocess.run(cmd + ["--no-functions"] + paths, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"divtool audit {shlex.join(paths)} failed ({p.returncode}): "
                           f"{p.stderr[-300:]}")
    reports = json.loads(p.stdout)["variants"]
    if [r["path"] for r in reports] != paths[1:]:
        raise RuntimeError(f"divtool audit {shlex.join(paths)}: unexpected variants in its report")
    return [(r["survival"],
             r.get("relative_survival") if functions and r.get("gadgets_in_functions") else None)
            for r in reports]


def configurations(each, extra, lto=None):
    divcc, divxx = tools.divcc(False), tools.divcc(True)
    clang, clangxx = tools.clang(False), tools.clang(True)
    configs = {"clang-19": (clang, clangxx, []),
               "default": (divcc, divxx, ["-fdiversify"])}
    if each:
        for t in TRANSFORMATIONS:
            configs[t] = (divcc, divxx, [f"-fdiversify={t}"])
    for name, flags in extra:
        configs[name] = (divcc, divxx, shlex.split(flags))
    if lto:
        for cc, cxx, flags in configs.values():
            flags += [f"-flto={lto}", "-fuse-ld=lld"]
    return configs


def profile_configurations(profile):
    divcc, divxx = tools.divcc(False), tools.divcc(True)
    clang, clangxx = tools.clang(False), tools.clang(True)
    use = [f"-fprofile-instr-use={profile}", "-Wno-profile-instr-unprofiled",
           "-Wno-profile-instr-out-of-date"]
    return {"clang-19+profile": (clang, clangxx, use),
            "profile-guided": (divcc, divxx, use + ["-fdiversify",
                                                    "-fdiversify-nop-probability-min=0",
                                                    "-fdiversify-nop-probability-max=0.5"])}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def build_all(bench, configs, seeds, work):
    """{(config, variant): program}: divcc configurations once per seed."""
    builds = {}
    for cname, (cc, cxx, flags) in configs.items():
        variants = seeds if cc in (tools.divcc(False), tools.divcc(True)) else [None]
        for i, seed in enumerate(variants):
            log(f"{bench.name}: building {cname}" + (f" ({seed})" if seed else ""))
            builds[(cname, i)] = bench.build(cc, cxx, ["-O2"] + flags + ([seed] if seed else []),
                                             work / f"{cname}-{i}")
    return builds


def per_config(medians):
    """Mean over a configuration's variants of their median times."""
    grouped = {}
    for (cname, _), t in medians.items():
        grouped.setdefault(cname, []).append(t)
    return {c: statistics.mean(ts) for c, ts in grouped.items()}


def measure(bench, builds, repeat, data, work):
    """{build: median CPU seconds}, builds taking turns."""
    names = list(builds)
    times = {n: [] for n in names}
    for r in range(repeat):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            total = 0.0
            for _ in range(bench.rounds):
                shutil.rmtree(data / "leveldb-db", ignore_errors=True)
                total += run_timed(bench.command(builds[n], data), bench.stdin, work)
            times[n].append(total)
    return {n: statistics.median(ts) for n, ts in times.items()}


def train_profile(bench, work, data):
    """A profile from one run of the benchmark on an instrumented build."""
    clang, clangxx = tools.clang(False), tools.clang(True)
    program = bench.build(clang, clangxx, ["-O2", "-fprofile-instr-generate"],
                          work / "instrumented")
    raw = work / "profile-%p.profraw"
    env = dict(os.environ, LLVM_PROFILE_FILE=str(raw))
    shutil.rmtree(data / "leveldb-db", ignore_errors=True)
    subprocess.run(bench.command(program, data), cwd=work, env=env, check=True,
                   stdin=open(bench.stdin, "rb") if bench.stdin else subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    profile = work / "bench.profdata"
    subprocess.run([PROFDATA, "merge", "-o", str(profile)] +
                   [str(p) for p in work.glob("profile-*.profraw")], check=True)
    return profile


def children_cpu_seconds():
    """CPU time (user + system) of all finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_times(bench, work, repeat):
    """Median CPU seconds of a build per compiler (every process the build
    ran), -j1; the compilers take turns, the order rotating every round."""
    divcc, divxx = tools.divcc(False), tools.divcc(True)
    clang, clangxx = tools.clang(False), tools.clang(True)
    configs = {"clang-19": (clang, clangxx, ["-O2"]),
               "divcc -fno-diversify": (divcc, divxx, ["-O2", "-fno-diversify"]),
               "divcc -fdiversify": (divcc, divxx, ["-O2", "-fdiversify", SEEDS[0]])}
    projects.fetch(bench.project)  # downloading is not compiling
    names = list(configs)
    times = {n: [] for n in names}
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            cc, cxx, flags = configs[name]
            before = children_cpu_seconds()
            bench.build(cc, cxx, flags, work / f"compile-{name.replace(' ', '_')}")
            times[name].append(children_cpu_seconds() - before)
    return {n: statistics.median(ts) for n, ts in times.items()}


def compile_row(t):
    return {"divcc -fno-diversify": t["divcc -fno-diversify"] / t["clang-19"],
            "divcc -fdiversify": t["divcc -fdiversify"] / t["clang-19"],
            "clang-19 seconds": t["clang-19"]}


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def table(rows, columns, fmt):
    head = "| benchmark | " + " | ".join(columns) + " |"
    lines = [head, "|" + " --- |" * (len(columns) + 1)]
    for name, values in rows.items():
        lines.append(f"| {name} | " + " | ".join(fmt(values.get(c)) for c in columns) + " |")
    lines.append("| geometric mean | " + " | ".join(
        fmt(geomean([v.get(c) for v in rows.values()])) for c in columns) + " |")
    return "\n".join(lines)


def ratio_fmt(x):
    return "" if x is None or x != x else f"{x:.3f}"


QEMU_COUNT = re.compile(r"^insns: (\d+)$", re.M)


def run_qemu_counting(cmd, stdin, cwd):
    """What cmd (a program under qemu-user, TARGET.command) executes:
    {"instructions": n}, counted by bench/qemu/insn_count.c."""
    from qemu_plugin import insn_count_plugin
    plugin = insn_count_plugin()
    with tempfile.NamedTemporaryFile(prefix="divcc-qemu-", suffix=".log") as qlog:
        at = cmd.index(TARGET.emulator[0]) + 1  # after libtool's execute mode
        cmd = cmd[:at] + ["-plugin", str(plugin), "-d", "plugin", "-D", qlog.name] + cmd[at:]
        fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
        try:
            p = subprocess.run(cmd, cwd=cwd, stdin=fin, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        finally:
            if stdin:
                fin.close()
        counts = [int(n) for n in QEMU_COUNT.findall(Path(qlog.name).read_text())]
    if p.returncode != 0 or not counts:
        raise RuntimeError(f"{shlex.join(cmd)} failed ({p.returncode}): "
                           f"{p.stderr.decode(errors='replace')[-300:]}")
    return {"instructions": sum(counts)}


def count_instructions(bench, builds, data, work, misses=False):
    """{build: the counts of one run of the benchmark}: run_cachegrind's,
    or under qemu (--target) run_qemu_counting's."""
    counts = {}
    for n, program in builds.items():
        shutil.rmtree(data / "leveldb-db", ignore_errors=True)
        started = time.time()
        cmd = bench.command(program, data)
        counts[n] = (run_qemu_counting(cmd, bench.stdin, work) if TARGET.cross else
                     run_cachegrind(cmd, bench.stdin, work, misses))
        log(f"{bench.name}: {n[0]} variant {n[1]}: {counts[n]['instructions']:,} instructions" +
            "".join(f", {counts[n][k]:,} {k}" for k in MISS_COUNTS if k in counts[n]) +
            f" ({time.time() - started:.0f} s)")
    return counts


def variant_ratios(counts, key):
    """{configuration: [count of each variant / clang-19's]} for one count
    (None where clang-19's is 0)."""
    base = counts[("clang-19", 0)][key]
    ratios = {}
    for (cname, _), c in counts.items():
        if cname != "clang-19":
            ratios.setdefault(cname, []).append(c[key] / base if base else None)
    return ratios


def instruction_rows(counts):
    """{configuration: {mean, worst, best, stdev}} of the instructions
    relative to clang-19 (stdev only with 2 variants or more)."""
    rows = {}
    for cname, ratios in variant_ratios(counts, "instructions").items():
        rows[cname] = {"mean": statistics.mean(ratios), "worst": max(ratios),
                       "best": min(ratios),
                       "stdev": statistics.stdev(ratios) if len(ratios) > 1 else None}
    return rows


def miss_rows(counts):
    """{configuration: {COUNT mean, COUNT worst}} relative to clang-19, for
    each of MISS_COUNTS."""
    rows = {}
    for name in MISS_COUNTS:
        for cname, ratios in variant_ratios(counts, name).items():
            known = [r for r in ratios if r is not None]
            rows.setdefault(cname, {}).update(
                {f"{name} mean": statistics.mean(known) if known else None,
                 f"{name} worst": max(known) if known else None})
    return rows


def security_rows(bench, builds):
    """{configuration: survival and size} of each divcc configuration
    (see the module's documentation), and the clang-19 build's .text bytes."""
    base = bench.code_object(builds[("clang-19", 0)])
    base_text = text_size(base)
    variants = {}
    for (cname, _), program in builds.items():
        if cname != "clang-19":
            variants.setdefault(cname, []).append(bench.code_object(program))
    rows = {}
    for cname, programs in variants.items():
        log(f"{bench.name}: auditing {cname} ({len(programs)} variant"
            f"{'s' if len(programs) > 1 else ''})")
        vs_clang = audit(base, programs)
        between = audit(programs[0], programs[1:]) if len(programs) > 1 else []
        surv = [s for s, _ in between]
        rel = [r for _, r in between if r is not None]
        rows[cname] = {
            "between mean": statistics.mean(surv) if surv else None,
            "between max": max(surv) if surv else None,
            "clang max": max(s for s, _ in vs_clang),
            "relative mean": statistics.mean(rel) if rel else None,
            "relative max": max(rel) if rel else None,
            "text": statistics.mean(text_size(p) / base_text for p in programs)}
        log(f"{bench.name}: {cname}: " + ", ".join(
            f"{k} {v:.4f}" for k, v in rows[cname].items() if v is not None))
    return rows, base_text


def measure_runtime(bench, args, seeds, extra, data, work):
    """One benchmark's results: {"runtime": its row of the timing table} or,
    with --instructions, {"instructions": {configuration: ...}, "baseline":
    clang-19's counts} and with --misses {"misses": ...}; with --survival
    also {"security": {configuration: ...}, "text": clang-19's .text bytes}."""
    builds = build_all(bench, configurations(args.each, extra, args.lto), seeds, work)
    result = {}
    if args.survival:
        result["security"], result["text"] = security_rows(bench, builds)
    if args.instructions:
        log(f"{bench.name}: counting instructions of {len(builds)} builds with "
        + ("a QEMU plugin" if TARGET.cross else "cachegrind") +
            (" (cache and branch simulation)" if args.misses else ""))
        counts = count_instructions(bench, builds, data, work, args.misses)
        result["baseline"] = counts[("clang-19", 0)]
        result["instructions"] = instruction_rows(counts)
        log(f"{bench.name}: instructions " + ", ".join(
            f"{c} mean {r['mean']:.4f} worst {r['worst']:.4f}"
            for c, r in result["instructions"].items()))
        if args.misses:
            result["misses"] = miss_rows(counts)
        return result
    log(f"{bench.name}: running {len(builds)} builds x {args.repeat}")
    medians = per_config(measure(bench, builds, args.repeat, data, work))
    row = {c: medians[c] / medians["clang-19"] for c in medians if c != "clang-19"}
    row["clang-19 seconds"] = medians["clang-19"]
    if not args.no_profile:
        log(f"{bench.name}: training a profile")
        profile = train_profile(bench, work, data)
        pbuilds = build_all(bench, profile_configurations(profile), seeds, work)
        pm = per_config(measure(bench, pbuilds, args.repeat, data, work))
        row["profile-guided"] = pm["profile-guided"] / pm["clang-19+profile"]
    log(f"{bench.name}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()))
    result["runtime"] = row
    return result


def known(xs):
    return [x for x in xs if x is not None]


def config_table(results, configs, columns, summary_label):
    """A table with a row per benchmark and configuration, then a summary
    row per configuration. results: {benchmark: {configuration: {key:
    value}}}; columns: [(title, key, format, summary over the benchmarks)]."""
    lines = ["| benchmark | configuration | " + " | ".join(c[0] for c in columns) + " |",
             "|" + " --- |" * (len(columns) + 2)]
    for bench, rows in results.items():
        for cname in configs:
            if cname in rows:
                lines.append(f"| {bench} | {cname} | " + " | ".join(
                    fmt(rows[cname].get(key)) for _, key, fmt, _ in columns) + " |")
    for cname in configs:
        values = [rows[cname] for rows in results.values() if cname in rows]
        if values:
            lines.append(f"| {summary_label} | {cname} | " + " | ".join(
                fmt(agg(known(v.get(key) for v in values)) if agg else None)
                for _, key, fmt, agg in columns) + " |")
    return "\n".join(lines)


def ratio4(x):
    return "" if x is None or x != x else f"{x:.4f}"


def percent(x):
    return "" if x is None or x != x else f"{100 * x:.2f}%"


def mean_or_none(xs):
    return statistics.mean(xs) if xs else None


def max_or_none(xs):
    return max(xs) if xs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmarks", default=",".join(BENCHMARKS),
                    help=f"comma-separated (default: {','.join(BENCHMARKS)})")
    ap.add_argument("--each", action="store_true", help="also each transformation alone")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=FLAGS",
                    help="also a divcc configuration with these flags (repeatable)")
    ap.add_argument("--no-profile", action="store_true", help="skip profile-guided NOPs")
    ap.add_argument("--no-compile-time", action="store_true", help="skip compile times")
    ap.add_argument("--compile-time-only", action="store_true",
                    help="measure compile times only")
    ap.add_argument("--compile-repeat", type=int, default=3,
                    help="builds per compiler for compile times (default 3)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per build (default 5)")
    ap.add_argument("--seeds", type=int, default=2, choices=range(1, len(SEEDS) + 1),
                    metavar="N",
                    help=f"variants per divcc configuration, 1 to {len(SEEDS)} (default 2; "
                         "-frandom-seed=overhead-1 .. -N)")
    ap.add_argument("--lto", choices=["thin", "full"],
                    help="build every configuration with -flto=MODE -fuse-ld=lld")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions with cachegrind instead of timing "
                         "(implies --no-profile)")
    ap.add_argument("--misses", action="store_true",
                    help="with --instructions: also simulate caches and branches and "
                         "report I1, D1, LL misses and mispredicted branches")
    ap.add_argument("--survival", action="store_true",
                    help="also audit the variants' gadget survival (divtool audit) and "
                         ".text size: the security and size table")
    ap.add_argument("--target", default="x86_64", choices=list(projects.TARGETS),
                    help="build for this target and time the programs under qemu "
                         "(cross targets: lz4, expat and secp256k1; no --instructions, "
                         "profile or compile times)")
    ap.add_argument("--markdown", help="also write the tables to this file")
    ap.add_argument("--keep", action="store_true", help="keep the build folder")
    args = ap.parse_args()
    global TARGET
    TARGET = projects.get_target(args.target)
    if TARGET.cross:
        if args.misses:
            sys.exit(f"overhead: --misses runs cachegrind, which cannot run "
                     f"{TARGET.name} programs")
        args.no_profile = args.no_compile_time = True
        if args.benchmarks == ",".join(BENCHMARKS):
            args.benchmarks = ",".join(n for n, b in BENCHMARKS.items()
                                       if TARGET.name in projects.project(b.project).targets)
    if args.instructions:
        args.no_profile = True
    if args.misses and not args.instructions:
        sys.exit("overhead: --misses needs --instructions")
    if args.compile_time_only and (args.survival or args.misses):
        sys.exit("overhead: --compile-time-only builds no variants to audit or simulate")
    if args.compile_time_only and args.no_compile_time:
        sys.exit("overhead: --compile-time-only and --no-compile-time exclude each other")

    extra = []
    for c in args.config:
        name, sep, flags = c.partition("=")
        if not sep or not name:
            sys.exit(f"overhead: --config wants NAME=FLAGS, not {c!r}")
        extra.append((name, flags))
    names = args.benchmarks.split(",")
    for n in names:
        if n not in BENCHMARKS:
            sys.exit(f"overhead: unknown benchmark {n!r} (known: {', '.join(BENCHMARKS)})")
        if TARGET.name not in projects.project(BENCHMARKS[n].project).targets:
            sys.exit(f"overhead: benchmark {n!r} has no recipe for {TARGET.name}")
    work_root = Path(tempfile.mkdtemp(prefix="divcc-overhead-"))
    data = work_root / "data"
    data.mkdir()
    runtime, compile_rows, results = {}, {}, {}
    started = time.time()
    try:
        for n in names:
            bench = BENCHMARKS[n]
            if args.instructions:
                bench = bench.for_counting()
            if TARGET.cross:
                bench = bench.for_emulator()
            work = work_root / n
            work.mkdir()
            if not args.compile_time_only:
                for fname, size, kind in bench.inputs:
                    if not (data / fname).exists():
                        make_input(data / fname, size, kind)
                results[n] = measure_runtime(bench, args, SEEDS[:args.seeds], extra, data,
                                             work)
                if "runtime" in results[n]:
                    runtime[n] = results[n]["runtime"]
            if not args.no_compile_time:
                log(f"{n}: timing builds")
                compile_rows[n] = compile_row(compile_times(bench, work, args.compile_repeat))
                log(f"{n}: compile time " + ", ".join(f"{k} {v:.3f}" for k, v in compile_rows[n].items()))
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        if args.keep:
            log(f"builds kept in {work_root}")
        else:
            shutil.rmtree(work_root, ignore_errors=True)

    columns = ["default"] + [name for name, _ in extra] + \
              (TRANSFORMATIONS if args.each else []) + \
              ([] if args.no_profile else ["profile-guided"])
    out = []
    lto = f" -flto={args.lto}" if args.lto else ""
    if TARGET.cross:
        lto += f", {TARGET.name} under {TARGET.emulator[0]}"
    configs = [c for c in columns if c != "profile-guided"]
    instructions = {n: r["instructions"] for n, r in results.items() if "instructions" in r}
    misses = {n: r["misses"] for n, r in results.items() if "misses" in r}
    security = {n: r["security"] for n, r in results.items() if "security" in r}
    variants = f"{args.seeds} variant" + ("s" if args.seeds > 1 else "")
    if instructions:
        counter = "a QEMU plugin" if TARGET.cross else "cachegrind"
        out += [f"## Runtime: instructions relative to clang-19 -O2{lto} ({counter}, one run "
                f"per build; over {variants} per configuration: their mean, the worst and "
                "the best variant, the standard deviation)", "",
                config_table(instructions, configs,
                             [("mean", "mean", ratio4, geomean),
                              ("worst", "worst", ratio4, geomean),
                              ("best", "best", ratio4, geomean),
                              ("std dev", "stdev", ratio4, None)], "geometric mean"), "",
                "Baseline instructions per run: " +
                ", ".join(f"{n} {r['baseline']['instructions']:,}" for n, r in results.items()
                          if "baseline" in r), ""]
    elif runtime:
        out += [f"## Runtime: CPU time relative to clang-19 -O2{lto} (median of "
                f"{args.repeat} runs; profile-guided relative to clang-19 with the same profile)",
                "", table(runtime, columns, ratio_fmt), "",
                "Baseline CPU seconds per run: " +
                ", ".join(f"{n} {r['clang-19 seconds']:.2f}" for n, r in runtime.items()), ""]
    if misses:
        mcols = [(f"{name} {stat}", f"{name} {stat}", ratio4, geomean)
                 for name in MISS_COUNTS for stat in ("mean", "worst")]
        out += [f"## Cache misses and mispredicted branches relative to clang-19 -O2{lto} "
                f"(cachegrind's simulation, one run per build; mean and worst of {variants}; "
                "LL: LLi + LLd)", "",
                config_table(misses, configs, mcols, "geometric mean"), "",
                "Baseline counts per run: " + "; ".join(
                    f"{n} " + ", ".join(f"{r['baseline'][k]:,} {k}" for k in MISS_COUNTS)
                    for n, r in results.items() if "misses" in r), ""]
    if security:
        out += [f"## Security and size (divtool audit: gadgets surviving at the same address "
                f"with the same bytes, {variants} per configuration; relative: at the same "
                "offset in the same function; .text size relative to clang-19 -O2"
                f"{lto}, mean over the variants)", "",
                config_table(security, configs,
                             [("survival between variants mean", "between mean", percent,
                               mean_or_none),
                              ("survival between variants max", "between max", percent,
                               max_or_none),
                              ("survival vs clang-19 max", "clang max", percent, max_or_none),
                              ("relative survival mean", "relative mean", percent,
                               mean_or_none),
                              ("relative survival max", "relative max", percent, max_or_none),
                              (".text / clang-19", "text", ratio_fmt, geomean)],
                             "all benchmarks"), "",
                "Between variants: variant 0 audited against the others (needs --seeds 2 or "
                "more). All benchmarks: the mean of the means, the max of the maxima, the "
                "geometric mean of the size ratios.", "",
                "Baseline .text bytes: " + ", ".join(
                    f"{n} {r['text']:,}" for n, r in results.items() if "text" in r), ""]
    if compile_rows:
        out += ["## Compile time relative to clang-19 (CPU time of the whole build, median of "
                f"{args.compile_repeat} builds each, -j1)", "",
                table(compile_rows, ["divcc -fno-diversify", "divcc -fdiversify"], ratio_fmt), "",
                "Baseline CPU seconds per build: " +
                ", ".join(f"{n} {r['clang-19 seconds']:.1f}" for n, r in compile_rows.items())]
    text = "\n".join(out) + "\n"
    print(text)
    log(f"done in {(time.time() - started) / 60:.1f} minutes")
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
