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

--instructions counts, instead of timing, the instructions each build
executes on the benchmark (valgrind --tool=callgrind, one run per build,
the input rounds once): exact and repeatable whatever else the machine is
doing. Each configuration is reported as the mean over its variants and
its worst variant.

Compile time: each project's build is timed for clang-19, divcc
-fno-diversify and divcc -fdiversify: CPU time of every process the build
runs (configure, make, the compilers), -j1, median of --compile-repeat
builds each, the compilers taking turns.

  export PYTHONPATH=$PWD/tests               # from the repository's root
  python3 bench/overhead.py                  # default set and profile
  python3 bench/overhead.py --each           # and each transformation alone
  python3 bench/overhead.py --compile-time-only
  python3 bench/overhead.py --markdown docs/performance.md
"""

import argparse
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
# alone moves a program's speed by a few percent either way.
SEEDS = [f"-frandom-seed=overhead-{i}" for i in range(1, 4)]


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

    def __init__(self, name, project, program, args, inputs=(), stdin=None, rounds=1):
        self.name, self.project, self.program = name, project, program
        self.args, self.inputs, self.stdin = args, inputs, stdin
        # Short commands run several times per measurement, so that one
        # measurement lasts long enough to be read reliably.
        self.rounds = rounds

    def build(self, cc, cxx, flags, out):
        projects.build(self.project, cc, cxx, flags, out, jobs=1)
        return projects.artifacts(self.project, out)[self.program]

    def command(self, program, data):
        return [str(program)] + [a.format(data=data) for a in self.args]


class Secp256k1Bench(Benchmark):
    """bench_sign and bench_verify of libsecp256k1, built as the npm package
    builds the library (without the test-only VERIFY checks)."""

    def build(self, cc, cxx, flags, out):
        src = projects.fetch("secp256k1")
        defines = [d for d in projects.project("secp256k1").DEFINES if d != "VERIFY"]
        defines += projects.project("secp256k1").ASM
        out = Path(out)
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        program = out / "bench_verify"
        subprocess.run([cc] + flags + [f"-D{d}" for d in defines] +
                       [f"-I{src}", f"-I{src / 'src'}", f"-I{src / 'include'}",
                        str(src / "src" / "secp256k1.c"), str(src / "src" / "bench_verify.c"),
                        "-o", str(program)], check=True, capture_output=True)
        return program


BENCHMARKS = {
    "sqlite": Benchmark("sqlite", "sqlite", "sqlite3", [":memory:"],
                        stdin=projects.SQLITE_WORKLOAD),
    "lz4": Benchmark("lz4", "lz4", "lz4", ["-1", "-f", "-q", "{data}/text", "/dev/null"],
                     inputs=[("text", 96 << 20, "text")], rounds=6),
    "xz": Benchmark("xz", "xz", "xz", ["-6", "-T1", "-c", "-q", "{data}/text-small"],
                    inputs=[("text-small", 6 << 20, "text")]),
    "expat": Benchmark("expat", "expat", "xmlwf", ["{data}/doc.xml"],
                       inputs=[("doc.xml", 48 << 20, "xml")], rounds=6),
    "secp256k1": Secp256k1Bench("secp256k1", "secp256k1", "bench_verify", []),
    "leveldb": Benchmark("leveldb", "leveldb", "db_bench",
                         ["--benchmarks=fillseq,fillrandom,readrandom,readseq",
                          "--num=300000", "--db={data}/leveldb-db"]),
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


def run_counted(cmd, stdin, cwd):
    """Instructions cmd executes (callgrind's total; children included)."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                            "--callgrind-out-file=/dev/null"] + list(cmd),
                           cwd=cwd, stdin=fin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    finally:
        if stdin:
            fin.close()
    err = p.stderr.decode(errors="replace")
    counts = [int(m.replace(",", "")) for m in re.findall(r"Collected : ([\d,]+)", err)]
    if p.returncode != 0 or not counts:
        raise RuntimeError(f"callgrind {shlex.join(cmd)} failed ({p.returncode}): {err[-300:]}")
    return sum(counts)


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


def count_instructions(bench, builds, data, work):
    """{build: instructions of one run of the benchmark}."""
    counts = {}
    for n, program in builds.items():
        shutil.rmtree(data / "leveldb-db", ignore_errors=True)
        counts[n] = run_counted(bench.command(program, data), bench.stdin, work)
        log(f"{bench.name}: {n[0]} variant {n[1]}: {counts[n]:,} instructions")
    return counts


def instruction_row(counts):
    """Each configuration's mean and worst variant, relative to clang-19."""
    base = counts[("clang-19", 0)]
    row = {"clang-19 instructions": base}
    for cname in dict.fromkeys(c for c, _ in counts):
        if cname == "clang-19":
            continue
        ratios = [v / base for (c, _), v in counts.items() if c == cname]
        row[cname] = statistics.mean(ratios)
        row[cname + " worst"] = max(ratios)
    return row


def measure_runtime(bench, args, seeds, extra, data, work):
    """One benchmark's row of the runtime table."""
    builds = build_all(bench, configurations(args.each, extra, args.lto), seeds, work)
    if args.instructions:
        log(f"{bench.name}: counting instructions of {len(builds)} builds")
        row = instruction_row(count_instructions(bench, builds, data, work))
        log(f"{bench.name}: " + ", ".join(f"{k} {v:.4f}" for k, v in row.items()
                                          if k != "clang-19 instructions"))
        return row
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
    return row


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
                    help="variants per divcc configuration (default 2)")
    ap.add_argument("--lto", choices=["thin", "full"],
                    help="build every configuration with -flto=MODE -fuse-ld=lld")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions with callgrind instead of timing "
                         "(implies --no-profile)")
    ap.add_argument("--markdown", help="also write the tables to this file")
    ap.add_argument("--keep", action="store_true", help="keep the build folder")
    args = ap.parse_args()
    if args.instructions:
        args.no_profile = True
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
    work_root = Path(tempfile.mkdtemp(prefix="divcc-overhead-"))
    data = work_root / "data"
    data.mkdir()
    runtime, compile_rows = {}, {}
    started = time.time()
    try:
        for n in names:
            bench = BENCHMARKS[n]
            work = work_root / n
            work.mkdir()
            if not args.compile_time_only:
                for fname, size, kind in bench.inputs:
                    if not (data / fname).exists():
                        make_input(data / fname, size, kind)
                runtime[n] = measure_runtime(bench, args, SEEDS[:args.seeds], extra, data, work)
            if not args.no_compile_time:
                log(f"{n}: timing builds")
                compile_rows[n] = compile_row(compile_times(bench, work, args.compile_repeat))
                log(f"{n}: compile time " + ", ".join(f"{k} {v:.3f}" for k, v in compile_rows[n].items()))
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work_root, ignore_errors=True)

    columns = ["default"] + [name for name, _ in extra] + \
              (TRANSFORMATIONS if args.each else []) + \
              ([] if args.no_profile else ["profile-guided"])
    out = []
    lto = f" -flto={args.lto}" if args.lto else ""
    if runtime and args.instructions:
        icolumns = [c for name in columns for c in (name, name + " worst")]
        out += [f"## Runtime: instructions relative to clang-19 -O2{lto} (one run per "
                f"build; the mean over {args.seeds} variants and the worst variant)",
                "", table(runtime, icolumns, lambda x: "" if x is None else f"{x:.4f}"), "",
                "Baseline instructions per run: " +
                ", ".join(f"{n} {r['clang-19 instructions']:,}" for n, r in runtime.items()),
                ""]
    elif runtime:
        out += [f"## Runtime: CPU time relative to clang-19 -O2{lto} (median of "
                f"{args.repeat} runs; profile-guided relative to clang-19 with the same profile)",
                "", table(runtime, columns, ratio_fmt), "",
                "Baseline CPU seconds per run: " +
                ", ".join(f"{n} {r['clang-19 seconds']:.2f}" for n, r in runtime.items()), ""]
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
