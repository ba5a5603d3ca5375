#!/usr/bin/env python3
"""Runtime overhead of diversified builds against clang-19 -O2, on real
programs built by their own build systems (bench/workloads.py: sqlite, lz4,
xz, expat, secp256k1, leveldb, and two whose hot code does not fit in the
L1 instruction cache, over 1 MB of .text each: SQLite's speedtest1 and
Tcl's tclsh running Tcl's own test suite).

Every ratio printed is a divcc build's measurement divided by the clang-19
build's (the baseline, built with the same flags: -O2, and --lto's): 1.000
is no overhead, 1.050 is 5% more; a geometric mean over the benchmarks
closes each table. Configurations:
  clang-19             the baseline: clang-19 -O2
  default              divcc -O2 -fdiversify (the default set)
  T                    divcc -O2 -fdiversify=T, for each transformation T
                       (with --each)
  NAME                 divcc -O2 FLAGS, for each --config NAME=FLAGS
  profile-guided       divcc with a training profile and profile-guided NOPs
                       (-fprofile-instr-use, -fdiversify-nop-probability-min=0,
                       -max=0.5); its ratio is to clang-19 with the same
                       profile (clang-19+profile). The profile comes from a
                       training run of the benchmark on the clang-19
                       -fprofile-instr-generate build.
Each divcc configuration is built as --seeds variants (seeds overhead-1
.. -N, fixed, so that a run repeats; several, because code layout alone
moves a program's speed by a few percent either way). A variant's seed is
a seed file named in DIVCC_OPTIONS, which reaches every compile and link
of the build (libtool drops -frandom-seed= from a shared library's link).

Modes: CPU time; or, with --instructions, counts; or, with --cycles, both
(with the estimated cycles and the budgets); the others add tables.

CPU time (the default): the benchmark command runs --repeat times per
build, the builds taking turns (the order rotates every round); a
measurement is the CPU time (user + system) of the benchmark process and
its children, summed over the benchmark's rounds (short commands run
several times). A configuration's ratio is the mean over its variants of
their median times, divided by the baseline's median. One more build
takes its turns: "clang-19 copy", the baseline built a second time, whose
ratio to clang-19 is the noise of the timing in this very run. CPU time
rather than cycle counters (`perf stat` is not available on every
machine), and CPU time is less disturbed by other load than wall time.

--instructions counts, instead of timing, what each build executes on the
benchmark under cachegrind (valgrind --tool=cachegrind
--trace-children=yes, one run per build, the input rounds once; divtest/
bench.py reads its files): exact and repeatable whatever else the machine
is doing. Three workloads are shorter when counted, since counts need no
long runs: xz compresses 1 MiB instead of 6, leveldb's db_bench runs
--num=50000 instead of 300000, and secp256k1's bench_verify 1 round of
20000 verifications instead of 10. A configuration's row gives the ratio
to clang-19 of its variants' mean, its worst and its best variant, and the
standard deviation of the ratios over its variants (with two or more); the
closing row is the geometric mean over the benchmarks of the means, of the
worst and of the best variants.

--misses (with --instructions) also runs cachegrind's cache and branch
simulators (without --misses both are off: lz4's run takes 2 s instead of
6) and adds a table of four counts relative to clang-19, mean and worst
variant per configuration: I1 misses (I1mr), D1 misses (D1mr + D1mw),
last-level misses (ILmr + DLmr + DLmw) and mispredicted branches (Bcm +
Bim), each summed over the benchmark's processes; and a table of the
estimated cycles relative to clang-19 (mean, worst and best variant,
standard deviation), cachegrind's classic estimate from those counts:
    cycles = Ir + 10 x (I1mr + D1mr + D1mw + Bcm + Bim)
                + 100 x (ILmr + DLmr + DLmw)
Instructions alone do not see what layout does to the instruction cache
of a large program; the estimate does, at 10 cycles a first-level miss or
a mispredicted branch and 100 a last-level miss. The caches simulated
(--cache-geometry) are by default those of a current server core, given
to cachegrind explicitly so that the counts do not depend on the machine:
    server   I1 32 KiB 8-way, D1 48 KiB 12-way, LL 1.25 MiB 20-way, 64-byte
             lines (valgrind --I1=32768,8,64 --D1=49152,12,64
             --LL=1310720,20,64): an Intel Ice Lake server core, its L2 as
             the last level (cachegrind simulates two levels)
    host     valgrind's default: this machine's caches as valgrind reads
             them (on a large server, an LL of a hundred MiB or more, whose
             misses are mostly first touches)
    I1:D1:LL each SIZE,ASSOC,LINE in bytes, as valgrind's options
(tests/divtest/bench.py's CACHE_GEOMETRY; divtool perf --cache-geometry
takes the same). The counts compare builds with each other, not machines.

--cycles is the one run for the runtime budgets: it counts every build
under cachegrind with both simulators (as --instructions --misses: the
instructions, the misses and the estimated cycles, each over the variants:
mean, worst, best, standard deviation) and also times every build (CPU
time, as without --instructions: the builds take turns round by round,
--repeat rounds, on the full workload; secp256k1 times the program it
counts, 1 round of verifications), with one more build timed among them:
"clang-19 copy", a second clang-19 build of the same sources, whose ratio
to clang-19 is the noise of the timing in this very run. A last table sets
the default set against its budgets and says "met" or "over" for each
(nothing fails): estimated cycles and instructions at most 1% above
clang-19 -O2 (geometric mean over the benchmarks of the mean over
variants) and at most 2% in the worst variant of any benchmark; CPU time
within the noise (its geometric mean at most 1 + the largest distance of
clang-19 copy / clang-19 from 1 over the benchmarks). The budgets are
stated for at least 10 variants: --seeds 10. Implies --no-profile; not
for cross targets.

--survival adds a "Security and size" table. For each divcc
configuration, `divtool audit --json` compares its variant 0 with its
other variants (with --seeds 2 or more) and the clang-19 build with all
its variants; per configuration and benchmark:
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
Survival is in percent (lower is better); the closing row per
configuration is the mean over the benchmarks of the means, the max of the
maxima and the geometric mean of the size ratios.

Compile time (unless --no-compile-time; alone with --compile-time-only):
each project's whole build (configure, make, the compilers) is timed for
clang-19, divcc -fno-diversify and divcc -fdiversify: CPU time of every
process the build runs, -j1, median of --compile-repeat builds each, the
compilers taking turns; ratios to clang-19's.

--lto MODE builds every configuration, the baseline included, with
-flto=MODE -fuse-ld=lld: divcc's overhead under LTO, against clang-19's LTO
build.

--target NAME (armhf, armhf-arm, riscv64, aarch64) cross-builds every
configuration for that target (tests/divtest/projects.py's TARGETS: armhf
is Thumb-2, armhf-arm the same machine in ARM state) and
times the programs under qemu-user, whose CPU time stands for the
program's: lz4, expat and secp256k1 (1 round of verifications). With
--instructions the guest instructions each build executes are counted
instead, by a QEMU plugin (bench/qemu/: built on first use against the
installed QEMU's own plugin header, from its Debian source package);
cachegrind cannot run them, so no --misses; no profile and no compile
times either.

Why not `divtool perf`: it builds its own population of a source tree
(seeds from a master key, at least 2 variants, no clang-19 baseline), while
this script measures, audits and compares the builds above; it shares
divtool perf's way of reading cachegrind's counts instead (divtest/bench.py).

  export PYTHONPATH=$PWD/tests               # from the repository's root
  python3 bench/overhead.py                  # default set and profile
  python3 bench/overhead.py --each           # and each transformation alone
  python3 bench/overhead.py --compile-time-only
  # the runtime budgets: cycles, instructions, misses, CPU time and its noise
  python3 bench/overhead.py --cycles --seeds 10 --no-compile-time
  python3 bench/overhead.py --markdown docs/performance.md
  # the trade-off of candidate sets: instructions, misses, survival, size
  python3 bench/overhead.py --instructions --misses --survival --seeds 5 \\
      --no-compile-time --config 'nonops=-fdiversify=funcs,sched,globals,offset,gaps'
"""

import argparse
import os
import shlex
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Optional

from divtest import bench as bt
from divtest import projects, tools
from divtest.tools import TRANSFORMATIONS

import survival
from workloads import BENCHMARKS

PROFDATA = "/usr/lib/llvm-19/bin/llvm-profdata"
# Fixed variants, so that a run repeats. (The first three were once all
# there were: results with --seeds 3 or fewer repeat.)
SEEDS = [f"overhead-{i}" for i in range(1, 13)]
BASELINE = "clang-19"
# The baseline built a second time and timed as one more configuration
# wherever CPU time is measured: its ratio to the baseline is the noise of
# the timing.
NOISE = "clang-19 copy"
# The runtime budgets of the default set (--cycles): (what, its results'
# key, the most the geometric mean over the benchmarks of the mean over the
# variants may be, the most the worst variant of any benchmark may be),
# relative to clang-19 -O2.
BUDGETS = [("estimated cycles", "cycles", 1.01, 1.02),
           ("instructions", "instructions", 1.01, 1.02)]
BUDGET_VARIANTS = 10


class Compiler(NamedTuple):
    """A configuration: the compilers for C and C++ and the flags after
    -O2; divcc configurations are built once per seed."""
    cc: str
    cxx: str
    flags: list
    divcc: bool


def clang_19(flags):
    return Compiler(tools.clang(False), tools.clang(True), flags, False)


def divcc(flags):
    return Compiler(tools.divcc(False), tools.divcc(True), flags, True)


@dataclass(frozen=True)
class Setup:
    """What a run measures, from the command line; passed to every step
    that needs it (nothing global changes)."""
    target: projects.Target
    benchmarks: list
    configs: dict            # {name: Compiler}, the baseline first
    columns: list            # the configurations' columns, profile-guided last
    seeds: list              # the variants' seeds (SEEDS)
    repeat: int
    compile_repeat: int
    lto: Optional[str]
    runtime: bool            # False: --compile-time-only
    instructions: bool
    misses: bool
    cycles: bool             # counts (with the misses) and CPU time, noise, budgets
    cache_geometry: str      # bt.CACHE_GEOMETRY's name or I1:D1:LL
    survival: bool
    profile: bool
    compile_time: bool
    markdown: Optional[str]
    keep: bool

    def describe(self):
        """What the builds are, after "relative to clang-19 -O2"."""
        text = f" -flto={self.lto}" if self.lto else ""
        if self.target.cross:
            text += f", {self.target.name} under {self.target.emulator[0]}"
        return text

    def variants(self):
        return f"{len(self.seeds)} variant" + ("s" if len(self.seeds) > 1 else "")

    def counter(self):
        """What counts instructions, for the tables' titles."""
        return "a QEMU plugin" if self.target.cross else "cachegrind"

    def caches(self):
        """The caches simulated, for the tables' titles."""
        return f"{bt.describe_caches(self.cache_geometry)} (--cache-geometry " \
               f"{self.cache_geometry})"


# --------------------------------------------------------------------------
# The command line


def configurations(each, extra, lto):
    """{name: Compiler}: the baseline, the default set, each transformation
    (each), the --config ones (extra: [(name, flags)]), all with -flto=lto."""
    configs = {BASELINE: clang_19([]), "default": divcc(["-fdiversify"])}
    if each:
        for t in TRANSFORMATIONS:
            configs[t] = divcc([f"-fdiversify={t}"])
    for name, flags in extra:
        configs[name] = divcc(shlex.split(flags))
    if lto:
        configs = {n: c._replace(flags=c.flags + [f"-flto={lto}", "-fuse-ld=lld"])
                   for n, c in configs.items()}
    return configs


def profile_configurations(profile):
    use = [f"-fprofile-instr-use={profile}", "-Wno-profile-instr-unprofiled",
           "-Wno-profile-instr-out-of-date"]
    return {"clang-19+profile": clang_19(use),
            "profile-guided": divcc(use + ["-fdiversify", "-fdiversify-nop-probability-min=0",
                                           "-fdiversify-nop-probability-max=0.5"])}


def cache_geometry(text):
    """--cache-geometry's value, checked (bt.cache_levels)."""
    try:
        bt.cache_levels(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def parse_options(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--benchmarks", help=f"comma-separated (default: {','.join(BENCHMARKS)}, "
                    "those with a recipe for the target)")
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
                         "seeds overhead-1 .. -N)")
    ap.add_argument("--lto", choices=["thin", "full"],
                    help="build every configuration with -flto=MODE -fuse-ld=lld")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions with cachegrind instead of timing "
                         "(implies --no-profile)")
    ap.add_argument("--misses", action="store_true",
                    help="with --instructions: also simulate caches and branches and "
                         "report I1, D1, LL misses, mispredicted branches and the "
                         "estimated cycles (" + bt.CYCLES_FORMULA + ")")
    ap.add_argument("--cycles", action="store_true",
                    help="count as --instructions --misses (instructions, misses, "
                         "estimated cycles over the variants) and also time the builds "
                         "(CPU time, interleaved rounds, with clang-19 against a copy of "
                         "itself as the noise), then the budgets, met or over; use with "
                         f"--seeds {BUDGET_VARIANTS} (implies --no-profile)")
    ap.add_argument("--cache-geometry", type=cache_geometry, metavar="GEOMETRY",
                    help="the caches cachegrind simulates for --misses and --cycles: "
                         f"server (the default: {bt.describe_caches('server')}, an Intel "
                         "Ice Lake server core; valgrind " +
                         " ".join(bt.cache_options("server")) + "), host (valgrind's "
                         "default: this machine's caches), or I1:D1:LL, each "
                         "SIZE,ASSOC,LINE in bytes")
    ap.add_argument("--survival", action="store_true",
                    help="also audit the variants' gadget survival (divtool audit) and "
                         ".text size: the security and size table")
    ap.add_argument("--target", default="x86_64", choices=list(projects.TARGETS),
                    help="build for this target and time the programs under qemu "
                         "(cross targets: lz4, expat and secp256k1; no --misses, "
                         "profile or compile times)")
    ap.add_argument("--markdown", help="also write the tables to this file")
    ap.add_argument("--keep", action="store_true", help="keep the build folder")
    args = ap.parse_args(argv)

    target = projects.get_target(args.target)
    profile, compile_time = not args.no_profile, not args.no_compile_time
    if args.cycles:
        if target.cross:
            sys.exit(f"overhead: --cycles runs cachegrind, which cannot run "
                     f"{target.name} programs")
        args.instructions = args.misses = True
    if args.cache_geometry and not args.misses:
        sys.exit("overhead: --cache-geometry sets the caches cachegrind simulates: "
                 "give --instructions --misses or --cycles")
    if target.cross:
        if args.misses:
            sys.exit(f"overhead: --misses runs cachegrind, which cannot run "
                     f"{target.name} programs")
        profile = compile_time = False
    if args.instructions:
        profile = False
    if args.misses and not args.instructions:
        sys.exit("overhead: --misses needs --instructions")
    if args.instructions and not target.cross:
        bt.require_valgrind("overhead")
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
    if args.benchmarks is None:
        names = [n for n, bench in BENCHMARKS.items()
                 if projects.project(bench.project).builds_for(target)]
    else:
        names = args.benchmarks.split(",")
    for n in names:
        if n not in BENCHMARKS:
            sys.exit(f"overhead: unknown benchmark {n!r} (known: {', '.join(BENCHMARKS)})")
        if not projects.project(BENCHMARKS[n].project).builds_for(target):
            sys.exit(f"overhead: benchmark {n!r} has no recipe for {target.name}")
    return Setup(
        target=target, benchmarks=names,
        configs=configurations(args.each, extra, args.lto),
        columns=["default"] + [name for name, _ in extra] +
                (TRANSFORMATIONS if args.each else []) + (["profile-guided"] if profile else []),
        seeds=SEEDS[:args.seeds], repeat=args.repeat, compile_repeat=args.compile_repeat,
        lto=args.lto, runtime=not args.compile_time_only, instructions=args.instructions,
        misses=args.misses, cycles=args.cycles,
        cache_geometry=args.cache_geometry or bt.DEFAULT_CACHE_GEOMETRY,
        survival=args.survival, profile=profile,
        compile_time=compile_time, markdown=args.markdown, keep=args.keep)


# --------------------------------------------------------------------------
# Building


def build_all(bench, configs, setup, work):
    """{(configuration, variant): program}: divcc configurations once per
    seed, the others once."""
    builds = {}
    for cname, c in configs.items():
        for i, seed in enumerate(setup.seeds if c.divcc else [None]):
            bt.log(f"{bench.name}: building {cname}" + (f" ({seed})" if seed else ""))
            folder = work / f"{cname.replace(' ', '_')}-{i}"
            builds[(cname, i)] = bench.build(c.cc, c.cxx, ["-O2"] + c.flags, folder,
                                             setup.target, seed_option(seed, work))
    return builds


def seed_option(seed, work):
    """DIVCC_OPTIONS for a build from seed (one of SEEDS; "" for None): a
    seed file in work that holds it. The same bytes as -frandom-seed=SEED,
    so the same variant."""
    if seed is None:
        return ""
    folder = work / "seeds"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / seed
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(seed)
    return f"-fdiversify-seed-file={path}"


def train_profile(bench, setup, data, work):
    """A profile from one run of the benchmark on an instrumented build."""
    c = clang_19(["-O2", "-fprofile-instr-generate"])
    program = bench.build(c.cc, c.cxx, c.flags, work / "instrumented", setup.target)
    env = dict(os.environ, LLVM_PROFILE_FILE=str(work / "profile-%p.profraw"))
    bench.run(program, data, work, setup.target, rounds=1, env=env)
    profile = work / "bench.profdata"
    bt.run([PROFDATA, "merge", "-o", profile, *sorted(work.glob("profile-*.profraw"))])
    return profile


# --------------------------------------------------------------------------
# The measurements, one benchmark at a time


def time_builds(bench, builds, setup, data, work):
    """{configuration: the mean over its variants of their median CPU
    seconds}, the builds taking turns."""
    times = bt.interleaved(list(builds), setup.repeat,
                          lambda n: bench.run(builds[n], data, work, setup.target))
    per_config = {}
    for (cname, _), ts in times.items():
        per_config.setdefault(cname, []).append(bt.median(ts))
    return {c: statistics.mean(ms) for c, ms in per_config.items()}


def runtime_row(bench, builds, setup, data, work):
    """{configuration: CPU time / clang-19's, "clang-19 seconds": ...},
    with the profile-guided ratio unless setup.profile is off."""
    bt.log(f"{bench.name}: running {len(builds)} builds x {setup.repeat}")
    t = time_builds(bench, builds, setup, data, work)
    row = {c: t[c] / t[BASELINE] for c in t if c != BASELINE}
    row["clang-19 seconds"] = t[BASELINE]
    if setup.profile:
        bt.log(f"{bench.name}: training a profile")
        profile = train_profile(bench, setup, data, work)
        pbuilds = build_all(bench, profile_configurations(profile), setup, work)
        pt = time_builds(bench, pbuilds, setup, data, work)
        row["profile-guided"] = pt["profile-guided"] / pt["clang-19+profile"]
    bt.log(f"{bench.name}: " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()))
    return row


def count_builds(bench, builds, setup, data, work):
    """{build: the counts of one run of the benchmark} (Benchmark.count)."""
    bt.log(f"{bench.name}: counting instructions of {len(builds)} builds with " +
          setup.counter() +
          (f" (cache and branch simulation, {setup.caches()})" if setup.misses else ""))
    counts = {}
    for n, program in builds.items():
        with bt.Stopwatch() as w:
            counts[n] = bench.count(program, data, work, setup.target, setup.misses,
                                    setup.cache_geometry)
        bt.log(f"{bench.name}: {n[0]} variant {n[1]}: " +
              ", ".join(f"{v:,} {k}" for k, v in counts[n].items()) + f" ({w.wall:.0f} s)")
    return counts


def variant_ratios(counts, key):
    """{configuration: [count of each variant / clang-19's]} for one count
    (None where clang-19's is 0)."""
    base = counts[(BASELINE, 0)][key]
    ratios = {}
    for (cname, _), c in counts.items():
        if cname != BASELINE:
            ratios.setdefault(cname, []).append(c[key] / base if base else None)
    return ratios


def spread_rows(counts, key="instructions"):
    """{configuration: {mean, worst, best, stdev}} of one count (the
    instructions, the estimated cycles) relative to clang-19."""
    return {c: bt.over_variants(rs) for c, rs in variant_ratios(counts, key).items()}


def miss_rows(counts):
    """{configuration: {"COUNT mean": ..., "COUNT worst": ...}} relative to
    clang-19, for each of bt.MISS_COUNTS."""
    rows = {}
    for name in bt.MISS_COUNTS:
        for cname, ratios in variant_ratios(counts, name).items():
            spread = bt.over_variants(ratios)
            rows.setdefault(cname, {}).update({f"{name} mean": spread["mean"],
                                               f"{name} worst": spread["worst"]})
    return rows


def security_rows(bench, builds):
    """{configuration: survival and size} of each divcc configuration
    (see --help), and the clang-19 build's .text bytes."""
    base = bench.code_object(builds[(BASELINE, 0)])
    base_text = survival.text_size(base)
    variants = {}
    for (cname, _), program in builds.items():
        if cname != BASELINE:
            variants.setdefault(cname, []).append(bench.code_object(program))
    rows = {}
    for cname, programs in variants.items():
        bt.log(f"{bench.name}: auditing {cname} ({len(programs)} variant"
              f"{'s' if len(programs) > 1 else ''})")
        vs_clang = survival.audit(base, programs)
        between = survival.audit(programs[0], programs[1:]) if len(programs) > 1 else []
        surv = [s for s, _ in between]
        rel = [r for _, r in between]
        rows[cname] = {
            "between mean": bt.mean_or_none(surv), "between max": bt.max_or_none(surv),
            "clang max": max(s for s, _ in vs_clang),
            "relative mean": bt.mean_or_none(rel), "relative max": bt.max_or_none(rel),
            "text": statistics.mean(survival.text_size(p) / base_text for p in programs)}
        bt.log(f"{bench.name}: {cname}: " + ", ".join(
            f"{k} {v:.4f}" for k, v in rows[cname].items() if v is not None))
    return rows, base_text


def compile_row(bench, setup, work):
    """The project's whole build's CPU time (every process, -j1) with
    divcc -fno-diversify and -fdiversify relative to clang-19's, medians of
    setup.compile_repeat builds each, the compilers taking turns; and
    "clang-19 seconds"."""
    configs = {BASELINE: clang_19(["-O2"]),
               "divcc -fno-diversify": divcc(["-O2", "-fno-diversify"]),
               "divcc -fdiversify": divcc(["-O2", "-fdiversify"])}
    projects.fetch(bench.project)  # downloading is not compiling

    def build(name):
        c = configs[name]
        with bt.Stopwatch() as w:
            bench.build(c.cc, c.cxx, c.flags, work / f"compile-{name.replace(' ', '_')}",
                        setup.target, seed_option(SEEDS[0] if c.divcc else None, work))
        return w.cpu

    bt.log(f"{bench.name}: timing builds")
    t = {n: bt.median(ts) for n, ts in
         bt.interleaved(list(configs), setup.compile_repeat, build).items()}
    row = {n: t[n] / t[BASELINE] for n in configs if n != BASELINE}
    row["clang-19 seconds"] = t[BASELINE]
    bt.log(f"{bench.name}: compile time " + ", ".join(f"{k} {v:.3f}" for k, v in row.items()))
    return row


def noise_build(bench, builds, setup, work):
    """{(NOISE, 0): program}: the baseline built a second time, in a folder
    of its own; logs whether it is byte for byte the baseline's."""
    copy = build_all(bench, {NOISE: setup.configs[BASELINE]}, setup, work)
    same = (Path(bench.code_object(copy[(NOISE, 0)])).read_bytes() ==
            Path(bench.code_object(builds[(BASELINE, 0)])).read_bytes())
    bt.log(f"{bench.name}: {NOISE} is " + ("byte for byte" if same else "not byte for byte") +
           f" the {BASELINE} build")
    return copy


def measure(bench, setup, data, work):
    """One benchmark's results: "runtime" (its row of the CPU time table),
    or "instructions" and "baseline" (clang-19's counts) and, with the
    simulators, "misses" and "cycles", or (--cycles) all of them; with
    --survival also "security" and "text" (clang-19's .text bytes); and
    "compile" (its compile-time row)."""
    result = {}
    if setup.runtime:
        # The counts are of a shorter run of the same workload; --cycles
        # times the full one, on the same builds.
        counted = bench.for_counting() if setup.instructions else bench
        timed = setup.cycles or not setup.instructions
        counted.make_inputs(data)
        if timed:
            bench.make_inputs(data)
        builds = build_all(counted, setup.configs, setup, work)
        if setup.survival:
            result["security"], result["text"] = security_rows(counted, builds)
        if setup.instructions:
            counts = count_builds(counted, builds, setup, data, work)
            result["baseline"] = counts[(BASELINE, 0)]
            result["instructions"] = spread_rows(counts)
            bt.log(f"{bench.name}: instructions " + ", ".join(
                f"{c} mean {r['mean']:.4f} worst {r['worst']:.4f}"
                for c, r in result["instructions"].items()))
            if setup.misses:
                result["misses"] = miss_rows(counts)
                result["cycles"] = spread_rows(counts, "cycles")
                bt.log(f"{bench.name}: estimated cycles " + ", ".join(
                    f"{c} mean {r['mean']:.4f} worst {r['worst']:.4f}"
                    for c, r in result["cycles"].items()))
        if timed:
            builds = {**builds, **noise_build(counted, builds, setup, work)}
            result["runtime"] = runtime_row(bench, builds, setup, data, work)
    if setup.compile_time:
        result["compile"] = compile_row(bench, setup, work)
    return result


# --------------------------------------------------------------------------
# The report


def benchmark_table(rows, columns, fmt):
    """A row per benchmark (rows: {benchmark: {column: value}}), then their
    geometric mean."""
    return bt.markdown_table(
        ["benchmark"] + columns,
        [[name] + [fmt(values.get(c)) for c in columns] for name, values in rows.items()] +
        [["geometric mean"] + [fmt(bt.geomean([v.get(c) for v in rows.values()]))
                               for c in columns]])


def config_table(results, configs, columns, summary_label):
    """A row per benchmark and configuration, then a summary row per
    configuration. results: {benchmark: {configuration: {key: value}}};
    columns: [(title, key, format, summary over the benchmarks or None)]."""
    rows = [[bench, cname] + [fmt(per[cname].get(key)) for _, key, fmt, _ in columns]
            for bench, per in results.items() for cname in configs if cname in per]
    for cname in configs:
        values = [per[cname] for per in results.values() if cname in per]
        if values:
            rows.append([summary_label, cname] + [
                fmt(agg(bt.known(v.get(key) for v in values)) if agg else None)
                for _, key, fmt, agg in columns])
    return bt.markdown_table(["benchmark", "configuration"] + [c[0] for c in columns], rows)


def spread_table(rows, configs):
    """A config_table of the mean, worst and best variant and the standard
    deviation (rows: {benchmark: {configuration: bt.over_variants()}})."""
    return config_table(rows, configs,
                        [("mean", "mean", bt.ratio4, bt.geomean),
                         ("worst", "worst", bt.ratio4, bt.geomean),
                         ("best", "best", bt.ratio4, bt.geomean),
                         ("std dev", "stdev", bt.ratio4, None)], "geometric mean")


def spread_section(results, setup, configs, key, title):
    """The spread_table of one count (results' key: "instructions" or
    "cycles") and clang-19's count per run; title: what the count is."""
    rows = {n: r[key] for n, r in results.items() if key in r}
    if not rows:
        return []
    return [f"## Runtime: {title} relative to clang-19 -O2{setup.describe()} "
            f"({setup.counter()}, one run per build; over {setup.variants()} per "
            "configuration: their mean, the worst and the best variant, the standard "
            "deviation)", "",
            spread_table(rows, configs), "",
            f"Baseline {key} per run: " +
            ", ".join(f"{n} {r['baseline'][key]:,}" for n, r in results.items()
                      if key in r), ""]


def instructions_section(results, setup, configs):
    return spread_section(results, setup, configs, "instructions", "instructions")


def cycles_section(results, setup, configs):
    return spread_section(results, setup, configs, "cycles",
                          f"estimated cycles (cycles = {bt.CYCLES_FORMULA}; caches: "
                          f"{setup.caches()})")


def runtime_section(results, setup):
    runtime = {n: r["runtime"] for n, r in results.items() if "runtime" in r}
    if not runtime:
        return []
    noise = any(NOISE in r for r in runtime.values())
    columns = setup.columns + ([NOISE] if noise else [])
    return [f"## Runtime: CPU time relative to clang-19 -O2{setup.describe()} (median of "
            f"{setup.repeat} runs, the builds taking turns round by round; a configuration's "
            f"time is the mean over its {setup.variants()}"
            + ("; profile-guided relative to clang-19 with the same profile" if setup.profile
               else "")
            + (f"; {NOISE}: a second clang-19 build, timed in the same rounds: the noise"
               if noise else "") + ")",
            "", benchmark_table(runtime, columns, bt.ratio), "",
            "Baseline CPU seconds per run: " +
            ", ".join(f"{n} {r['clang-19 seconds']:.2f}" for n, r in runtime.items()), ""]


def budget_section(results, setup):
    """The default set against the runtime budgets, "met" or "over": the
    counts of BUDGETS and, with the noise measured, the CPU time."""
    def verdict(ok):
        return "met" if ok else "**over**"

    rows = []
    for what, key, mean_budget, worst_budget in BUDGETS:
        per = {n: r[key]["default"] for n, r in results.items()
               if key in r and "default" in r[key]}
        if not per:
            continue
        mean = bt.geomean([v["mean"] for v in per.values()])
        worst_bench, worst = max(((n, v["worst"]) for n, v in per.items()
                                  if v["worst"] is not None), key=lambda item: item[1])
        rows.append([f"{what} ≤ {(mean_budget - 1) * 100:.0f}% above clang-19 -O2 (geometric "
                     "mean over the benchmarks of the mean over the variants)",
                     bt.ratio4(mean), verdict(mean <= mean_budget)])
        rows.append([f"{what} of the worst variant ≤ {(worst_budget - 1) * 100:.0f}% above "
                     "clang-19 -O2 (any benchmark)",
                     f"{bt.ratio4(worst)} ({worst_bench})", verdict(worst <= worst_budget)])
    timed = {n: r["runtime"] for n, r in results.items()
             if "runtime" in r and NOISE in r["runtime"] and "default" in r["runtime"]}
    if timed:
        mean = bt.geomean([r["default"] for r in timed.values()])
        noise_bench, noise = max(((n, abs(r[NOISE] - 1)) for n, r in timed.items()),
                                 key=lambda item: item[1])
        # No "|x|" for the absolute value: a Markdown table's cells end at "|".
        rows.append([f"CPU time within the noise (geometric mean over the benchmarks): at "
                     f"most 1 + the noise, the largest distance of {NOISE} / {BASELINE} "
                     "from 1 of the benchmarks",
                     f"{bt.ratio(mean)} (noise ±{100 * noise:.1f}%, {noise_bench})",
                     verdict(mean <= 1 + noise)])
    if not rows:
        return []
    few = len(setup.seeds) < BUDGET_VARIANTS
    return [f"## Budgets: the default set (no profile) against clang-19 -O2{setup.describe()}, "
            f"{setup.variants()} per benchmark", "",
            bt.markdown_table(["budget", "measured", "verdict"], rows), ""] + \
        ([f"The budgets are stated over at least {BUDGET_VARIANTS} variants; this run has "
          f"{len(setup.seeds)} (--seeds {BUDGET_VARIANTS}).", ""] if few else [])


def misses_section(results, setup, configs):
    misses = {n: r["misses"] for n, r in results.items() if "misses" in r}
    if not misses:
        return []
    columns = [(f"{name} {stat}", f"{name} {stat}", bt.ratio4, bt.geomean)
               for name in bt.MISS_COUNTS for stat in ("mean", "worst")]
    return [f"## Cache misses and mispredicted branches relative to clang-19 -O2"
            f"{setup.describe()} (cachegrind's simulation, one run per build; mean and worst "
            f"of {setup.variants()}; LL: LLi + LLd; caches: {setup.caches()})", "",
            config_table(misses, configs, columns, "geometric mean"), "",
            "Baseline counts per run: " + "; ".join(
                f"{n} " + ", ".join(f"{r['baseline'][k]:,} {k}" for k in bt.MISS_COUNTS)
                for n, r in results.items() if "misses" in r), ""]


def security_section(results, setup, configs):
    security = {n: r["security"] for n, r in results.items() if "security" in r}
    if not security:
        return []
    return [f"## Security and size (divtool audit: gadgets surviving at the same address "
            f"with the same bytes, {setup.variants()} per configuration; relative: at the same "
            "offset in the same function; .text size relative to clang-19 -O2"
            f"{setup.describe()}, mean over the variants)", "",
            config_table(security, configs,
                         [("survival between variants mean", "between mean", bt.percent,
                           bt.mean_or_none),
                          ("survival between variants max", "between max", bt.percent,
                           bt.max_or_none),
                          ("survival vs clang-19 max", "clang max", bt.percent, bt.max_or_none),
                          ("relative survival mean", "relative mean", bt.percent,
                           bt.mean_or_none),
                          ("relative survival max", "relative max", bt.percent, bt.max_or_none),
                          (".text / clang-19", "text", bt.ratio, bt.geomean)],
                         "all benchmarks"), "",
            "Between variants: variant 0 audited against the others (needs --seeds 2 or "
            "more). All benchmarks: the mean of the means, the max of the maxima, the "
            "geometric mean of the size ratios.", "",
            "Baseline .text bytes: " + ", ".join(
                f"{n} {r['text']:,}" for n, r in results.items() if "text" in r), ""]


# The attribution table's columns: (title, the result it comes from, the
# key in that result's configuration row or None for the row itself).
ATTRIBUTION = [("instructions", "instructions", "mean"),
               ("I1 misses", "misses", "I1 misses mean"),
               ("estimated cycles", "cycles", "mean"),
               ("CPU time", "runtime", None),
               (".text", "security", "text"),
               ("survival between variants", "security", "between mean"),
               ("relative survival", "security", "relative mean")]


def attribution_section(results, setup, configs):
    """What each configuration costs and buys, one row per benchmark and
    configuration (with --each: each transformation alone): the means over
    the variants relative to clang-19 of the counts, the CPU time and the
    .text size, and the survival. Needs --cycles and --survival."""
    def value(result, cname, key):
        row = result.get(cname)
        return row if key is None or row is None else row.get(key)

    rows = {}
    for n, r in results.items():
        if not all(source in r for _, source, _ in ATTRIBUTION):
            continue
        rows[n] = {c: {title: value(r[source], c, key) for title, source, key in ATTRIBUTION}
                   for c in configs if c in r["instructions"]}
    if not rows:
        return []
    columns = [(title, title, bt.percent if "survival" in title else bt.ratio4,
                bt.mean_or_none if "survival" in title else bt.geomean)
               for title, _, _ in ATTRIBUTION]
    return [f"## Attribution: what each configuration costs and buys{setup.describe()} "
            f"(means over {setup.variants()}; counts and CPU time relative to clang-19 -O2 "
            "as in the tables above; survival as in the security table)", "",
            config_table(rows, configs, columns, "all benchmarks"), ""]


def compile_section(results, setup):
    rows = {n: r["compile"] for n, r in results.items() if "compile" in r}
    if not rows:
        return []
    return ["## Compile time relative to clang-19 (CPU time of the whole build, median of "
            f"{setup.compile_repeat} builds each, -j1)", "",
            benchmark_table(rows, ["divcc -fno-diversify", "divcc -fdiversify"], bt.ratio), "",
            "Baseline CPU seconds per build: " +
            ", ".join(f"{n} {r['clang-19 seconds']:.1f}" for n, r in rows.items())]


def report(results, setup):
    """The tables, as Markdown: instructions, estimated cycles, CPU time,
    misses, the budgets, security and size, the attribution table, compile
    time (those measured)."""
    configs = [c for c in setup.columns if c != "profile-guided"]
    out = (instructions_section(results, setup, configs) +
           cycles_section(results, setup, configs) + runtime_section(results, setup) +
           misses_section(results, setup, configs) + budget_section(results, setup) +
           security_section(results, setup, configs) +
           attribution_section(results, setup, configs) + compile_section(results, setup))
    return "\n".join(out) + "\n"


def main():
    setup = parse_options()
    results = {}
    with bt.work_folder("overhead", setup.keep) as work_root:
        data = work_root / "data"
        data.mkdir()
        for n in setup.benchmarks:
            bench = BENCHMARKS[n]
            if setup.target.cross:
                bench = bench.for_emulator()
            work = work_root / n
            work.mkdir()
            results[n] = measure(bench, setup, data, work)
            if not setup.keep:
                shutil.rmtree(work, ignore_errors=True)
    text = report(results, setup)
    print(text)
    bt.log(f"done in {bt.elapsed_minutes():.1f} minutes")
    if setup.markdown:
        Path(setup.markdown).write_text(text)


if __name__ == "__main__":
    main()
