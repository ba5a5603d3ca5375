#!/usr/bin/env python3
"""Differential fuzzing of divcc with Csmith.

Generates random C programs with csmith, builds each with clang-19 -O2 (the
reference) and with divcc -O2 -fdiversify=all under several seeds
(-frandom-seed=csmith-K), runs every build with a timeout and requires that
each divcc build prints the same checksum and exits with the same status as
clang's. Programs whose clang build does not build, times out, crashes or
prints no checksum are skipped (counted, not failures). See
tests/fuzz/README.md.

A run is reproducible: program i is generated with csmith --seed derived
from --run-seed and i. On a mismatch the script prints the csmith seed, the
divcc seed, the transformations, a one-line reproduction, which
transformations reproduce it alone, then (unless --no-reduce) reduces the
program with cvise and saves it as tests/fuzz/regressions/NAME.c, which
tests/fuzz/regressions.py checks from then on."""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from divtest import fuzz, tools

# Csmith's options: its defaults. Measured on 2 cores (50 programs, run seed
# 0, 2 divcc seeds): csmith's defaults (median 1,700 lines, at most 4,300)
# take 95 s; "--max-funcs 6 --max-block-depth 3 --max-expr-complexity 8
# --max-array-dim 2" (median 700 lines) takes 55 s. Both are well under the
# 5 minutes CI allows, and larger functions put more pressure on register
# allocation, spills and frames, where divcc's transformations act.
CSMITH_OPTIONS = []

# How long the clang build of a program may run. A csmith program either
# ends at once (of 1,000 programs, the 891 whose clang builds ended took at
# most 0.06 s, bench/csmith/README.md) or loops for minutes: those are
# skipped. A divcc build gets fuzz.divcc_timeout().
RUN_TIMEOUT = 2.0


def csmith_seed(run_seed, index):
    """Csmith's --seed for program `index` of the run seeded `run_seed`."""
    digest = hashlib.sha256(f"divcc-csmith:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


def csmith_version():
    try:
        out = subprocess.run([fuzz.CSMITH, "--version"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.splitlines()[0].strip() if out else "unknown"


class Mismatch:
    def __init__(self, program, divcc_seed, kind, expected, got, detail=""):
        self.program = program        # the Program
        self.divcc_seed = divcc_seed  # e.g. "csmith-1"
        self.kind = kind              # "output" or "build"
        self.expected = expected      # clang's Result
        self.got = got                # divcc's Result (None for "build")
        self.detail = detail          # divcc's error for "build"
        self.alone = None             # transformations reproducing it alone
        self.ub = None                # undefined behaviour found in the program
        self.reduced = None           # path of the saved regression

    def reproduction(self, args):
        p = self.program
        inc = ["-I", fuzz.CSMITH_INCLUDE]
        gen = shlex.join([fuzz.CSMITH, "--seed", str(p.seed)] + args.csmith_options
                         + ["-o", "p.c"])
        ref = shlex.join([fuzz.clang()] + clang_flags(args) + inc + ["p.c", "-o", "ref"])
        div = shlex.join([fuzz.divcc()] + variant_flags(args, args.transforms, self.divcc_seed)
                         + inc + ["p.c", "-o", "div"])
        return (f"{gen} && {ref} && {div} && "
                f"{{ ./ref; echo \"exit $?\"; ./div; echo \"exit $?\"; }}")

    def describe(self, short=False):
        if self.kind == "build":
            return "divcc build failed: " + (self.detail.splitlines()[0] if short
                                             else self.detail)
        return f"clang-19: {self.expected.describe()}; divcc: {self.got.describe()}"


class Program:
    def __init__(self, index, seed, workdir):
        self.index = index
        self.seed = seed
        self.dir = workdir / f"{index:05d}-{seed}"
        self.src = self.dir / "prog.c"
        self.status = None            # "ok", "skip", "mismatch"
        self.reason = ""
        self.mismatches = []
        self.lines = 0
        self.seconds = 0.0
        self.run_seconds = None      # how long clang's build ran


def clang_flags(args):
    """The reference build's flags: the optimization level, no warnings."""
    return [args.opt, "-w"]


def variant_flags(args, transforms, seed):
    """A divcc build's flags: the reference's, the transformations and seed,
    and --extra-flags."""
    return clang_flags(args) + fuzz.divcc_flags(transforms, seed) + args.extra


def build_and_run(compiler, flags, prog, name, timeout):
    """Builds prog with compiler and flags as DIR/NAME and runs it; returns
    (Result or None, build error)."""
    exe = prog.dir / name
    ok, msg = fuzz.compile_exe(compiler, flags + ["-I", fuzz.CSMITH_INCLUDE],
                                  prog.src, exe)
    if not ok:
        return None, msg
    return fuzz.run_exe(exe, timeout), ""


def check_program(prog, args):
    """Generates, builds and compares one program; sets prog.status."""
    start = time.monotonic()
    prog.dir.mkdir(parents=True, exist_ok=True)
    try:
        p = subprocess.run([fuzz.CSMITH, "--seed", str(prog.seed)] + args.csmith_options
                           + ["-o", str(prog.src)], capture_output=True, timeout=120,
                           cwd=str(prog.dir))
        generated = p.returncode == 0 and prog.src.exists()
    except subprocess.TimeoutExpired:
        generated = False
    if not generated:
        prog.status, prog.reason = "skip", "csmith failed"
        return prog
    prog.lines = prog.src.read_text(errors="replace").count("\n")

    ref, err = build_and_run(fuzz.clang(), clang_flags(args), prog, "clang.exe",
                             args.timeout)
    if ref is None:
        prog.status, prog.reason = "skip", "clang build failed"
    elif ref.timed_out:
        prog.status, prog.reason = "skip", "clang build timed out"
    elif ref.status < 0:
        prog.status, prog.reason = "skip", f"clang build crashed (signal {-ref.status})"
    elif ref.status != 0 or (b"checksum = " not in ref.stdout
                             and "--no-checksum" not in args.csmith_options):
        # A csmith program's main prints the checksum and returns 0. Without
        # them, clang's build went astray: e.g. a loop that never ends and
        # does nothing, which C11 lets the optimizer assume to end; clang -O2
        # then ends main with `unreachable`, and the build runs into whatever
        # code follows main, which differs in every divcc variant.
        prog.status, prog.reason = "skip", "clang build printed no checksum"
    if prog.status:
        prog.seconds = time.monotonic() - start
        return prog
    prog.run_seconds = ref.seconds

    timeout = fuzz.divcc_timeout(ref, args.timeout)
    for k in range(args.seeds):
        seed = f"csmith-{k}"
        got, err = build_and_run(fuzz.divcc(), variant_flags(args, args.transforms, seed),
                                 prog, f"divcc-{k}.exe", timeout)
        if got is None:
            prog.mismatches.append(Mismatch(prog, seed, "build", ref, None, err))
        elif got != ref:
            prog.mismatches.append(Mismatch(prog, seed, "output", ref, got))
    if prog.mismatches:
        prog.status = "mismatch"
        for m in prog.mismatches:
            analyse(m, args, timeout)
    else:
        prog.status = "ok"
    prog.seconds = time.monotonic() - start
    return prog


def check_safely(prog, args):
    """check_program, with an unexpected error (a full disk, a missing
    tool) reported as this program's failure rather than ending the run."""
    try:
        return check_program(prog, args)
    except Exception as e:  # noqa: BLE001
        prog.status, prog.reason = "error", f"{type(e).__name__}: {e}"
        return prog


def reproduces(m, args, transforms, timeout, tag):
    """Whether divcc with -fdiversify=TRANSFORMS and m's seed still
    disagrees with clang on m's program."""
    prog = m.program
    got, err = build_and_run(fuzz.divcc(), variant_flags(args, transforms, m.divcc_seed),
                             prog, f"alone-{tag}.exe", timeout)
    if m.kind == "build":
        return got is None
    return got is None or got != m.expected


def analyse(m, args, timeout):
    """Which transformations reproduce the mismatch alone, and whether the
    program has undefined behaviour after all."""
    m.alone = [t for t in fuzz.TRANSFORMS
               if reproduces(m, args, t, timeout, f"{t}-{m.divcc_seed}")]
    if m.kind == "output":
        m.ub = fuzz.undefined_behaviour(m.program.src, m.program.dir, m.expected,
                                           args.timeout, ["-I", fuzz.CSMITH_INCLUDE])


# ---------------------------------------------------------------------------
# Reduction


def reduce(m, args, log):
    """Reduces m's program with cvise (or creduce) to one that still makes
    clang-19 and divcc disagree and is still free of undefined behaviour;
    saves it under tests/fuzz/regressions/. Returns the saved path or None."""
    reducer = shutil.which("cvise") or shutil.which("creduce")
    if not reducer:
        log("  reduce: neither cvise nor creduce is installed (scripts/install-deps.sh)")
        return None
    prog = m.program
    # The transformations to reduce with: the first that reproduces the
    # mismatch alone, else all of them.
    transforms = m.alone[0] if m.alone else args.transforms
    rdir = prog.dir / f"reduce-{m.divcc_seed}"
    shutil.rmtree(rdir, ignore_errors=True)
    rdir.mkdir()
    # csmith's header expanded, so that the regression needs only libc.
    src = rdir / "reduced.c"
    ok, msg = fuzz.self_contained(prog.src, src)
    if not ok:
        log(f"  reduce: preprocessing failed: {msg}")
        return None
    config = {
        "clang": fuzz.clang(),
        "divcc": fuzz.divcc(),
        "opt": args.opt,
        "divcc_flags": fuzz.divcc_flags(transforms, m.divcc_seed) + args.extra,
        "mode": m.kind,
        "timeout": args.timeout,
        "file": src.name,
    }
    (rdir / "config.json").write_text(json.dumps(config, indent=1))
    test = rdir / "interesting.sh"
    test.write_text("#!/bin/sh\nexec " + shlex.join(
        ["env", f"PYTHONPATH={tools.TESTS}", sys.executable,
         str(fuzz.FUZZ / "interesting.py"), str(rdir / "config.json")])
        + "\n")
    test.chmod(0o755)
    check = subprocess.run([str(test)], cwd=str(rdir), capture_output=True, text=True)
    if check.returncode != 0:
        log(f"  reduce: the preprocessed program is not interesting: "
            f"{check.stdout.strip() or check.stderr.strip()}")
        return None
    cmd = [reducer, "--n", str(args.jobs), "--timeout", "120", str(test), src.name]
    if Path(reducer).name == "cvise":
        cmd[1:1] = ["--tidy"]
    log(f"  reduce: {shlex.join(cmd)} (at most {args.reduce_time} s)")
    start = time.monotonic()
    with open(rdir / "reducer.log", "w") as out:
        proc = subprocess.Popen(cmd, cwd=str(rdir), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=args.reduce_time)
        except subprocess.TimeoutExpired:
            log(f"  reduce: stopped after {args.reduce_time} s; keeping the smallest so far")
            os.killpg(proc.pid, 15)
            proc.wait()
        else:
            if proc.returncode != 0:
                tail = (rdir / "reducer.log").read_text(errors="replace").strip().splitlines()
                log(f"  reduce: {Path(reducer).name} failed (exit {proc.returncode}): "
                    + (tail[-1] if tail else "") + f"; see {rdir / 'reducer.log'}")
                return None
    # The reducer keeps the file interesting at every step; make sure.
    check = subprocess.run([str(test)], cwd=str(rdir), capture_output=True, text=True)
    if check.returncode != 0:
        log("  reduce: the reduced program is no longer interesting; not saved")
        return None
    lines = src.read_text().count("\n")
    log(f"  reduce: {lines} lines after {time.monotonic() - start:.0f} s")
    args.reducer_version = reducer_version(reducer)
    return save_regression(m, transforms, src.read_text(), args)


def reducer_version(reducer):
    try:
        out = subprocess.run([reducer, "--version"], capture_output=True, text=True,
                             timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    return out.splitlines()[0] if out else Path(reducer).name


def save_regression(m, transforms, text, args):
    prog = m.program
    name = f"csmith-{prog.seed}-{m.divcc_seed}-{transforms.replace(',', '_')}"
    fuzz.REGRESSIONS.mkdir(exist_ok=True)
    path = fuzz.REGRESSIONS / f"{name}.c"
    alone = ", ".join(m.alone) if m.alone else "none (only together)"
    origin = (f"given with --csmith-seed" if args.csmith_seed else
              f"program {prog.index} of run seed {args.run_seed}")
    header = f"""/* Found by tests/fuzz/csmith_diff.py on {datetime.date.today().isoformat()}
   from the program of {args.csmith_version}
   {' '.join(['--seed', str(prog.seed)] + args.csmith_options)} ({origin}):
   clang-19 {args.opt} and divcc {args.opt} {shlex.join(variant_flags(args, args.transforms, m.divcc_seed)[2:])}
   disagree: {m.describe(short=True)}
   Transformations that reproduce it alone: {alone}.
   Reproduce the original:
   {m.reproduction(args)}
   Then csmith's header was expanded and the program reduced with
   {args.reducer_version} and tests/fuzz/interesting.py: clang-19 and divcc
   still disagree, clang-19 and gcc warn of no uninitialized use (and the rest
   of divtest.fuzz.CLANG_ERRORS/GCC_ERRORS), and ASan+UBSan, MSan and gcc -O0
   builds print what clang-19's prints.
   tests/fuzz/regressions.py builds this file with clang-19 and with divcc
   under the flags below, under other seeds, and compares.
   divcc-flags: {shlex.join([args.opt] + fuzz.divcc_flags(transforms, m.divcc_seed) + args.extra)}
   status: open
*/
"""
    path.write_text(header + text)
    return path


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=50, metavar="N",
                    help="number of programs (default %(default)s)")
    ap.add_argument("--seeds", type=int, default=2, metavar="K",
                    help="divcc seeds per program: csmith-0 .. csmith-K-1 (default %(default)s)")
    ap.add_argument("--run-seed", default="0", metavar="S",
                    help="derives every program's csmith seed (default %(default)s)")
    ap.add_argument("--csmith-seed", type=int, action="append", metavar="SEED",
                    help="check the program csmith generates with this --seed instead "
                         "(repeatable; -n and --run-seed are then ignored)")
    ap.add_argument("--first", type=int, default=0, metavar="I",
                    help="start at program I of the run (default 0): programs I .. I+N-1")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2,
                    help="programs checked at once (default: the number of cores, %(default)s)")
    ap.add_argument("--transforms", default="all",
                    help="the -fdiversify=LIST of divcc's builds (default %(default)s)")
    ap.add_argument("-O", dest="opt", default="2", choices=["0", "1", "2", "3", "s", "z"],
                    help="optimization level of both builds (default 2: -O2)")
    ap.add_argument("--extra-flags", default="",
                    help="more divcc flags for every divcc build, split like a shell, e.g. "
                         "--extra-flags='-fdiversify-sched=random -fdiversify-frame-pad=512'")
    ap.add_argument("--csmith-options", type=shlex.split, default=CSMITH_OPTIONS,
                    help="csmith's options, split like a shell (default: csmith's own "
                         "defaults)")
    ap.add_argument("--timeout", type=float, default=RUN_TIMEOUT,
                    help="seconds clang's build of a program may run (default %(default)s)")
    ap.add_argument("--keep", action="store_true",
                    help="keep every program and binary (else only mismatching ones)")
    ap.add_argument("--work-dir", type=Path,
                    help="where programs are built (default: a new temporary directory)")
    ap.add_argument("--reduce", action=argparse.BooleanOptionalAction, default=True,
                    help="reduce each mismatching program with cvise and save it under "
                         "tests/fuzz/regressions/ (default: on)")
    ap.add_argument("--reduce-time", type=int, default=1800, metavar="SECONDS",
                    help="longest time one reduction may take (default %(default)s)")
    ap.add_argument("--max-reductions", type=int, default=3, metavar="M",
                    help="reduce at most M mismatching programs (default %(default)s)")
    ap.add_argument("--log", type=Path,
                    help="append one JSON line per program to this file")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="print only mismatches, skips and the summary")
    args = ap.parse_args()
    args.opt = "-O" + args.opt
    args.extra = shlex.split(args.extra_flags)

    fuzz.require_tools(fuzz.CSMITH, fuzz.clang(), fuzz.divcc())
    if not Path(fuzz.CSMITH_INCLUDE, "csmith.h").exists():
        sys.exit(f"error: {fuzz.CSMITH_INCLUDE}/csmith.h is missing: install "
                 f"libcsmith-dev (scripts/install-deps.sh)")
    args.csmith_version = csmith_version()
    work = (args.work_dir or Path(tempfile.mkdtemp(prefix="divcc-csmith-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)

    if args.csmith_seed:
        progs = [Program(i, s, work) for i, s in enumerate(args.csmith_seed)]
    else:
        progs = [Program(i, csmith_seed(args.run_seed, i), work)
                 for i in range(args.first, args.first + args.n)]
    print(f"csmith_diff: {len(progs)} programs ({args.csmith_version}, "
          f"{options_text(args.csmith_options)}), run seed {args.run_seed}, "
          f"clang-19 {args.opt}, divcc {args.opt} "
          f"{shlex.join(variant_flags(args, args.transforms, 'csmith-K')[2:])} "
          f"for K in 0..{args.seeds - 1}, "
          f"{args.jobs} jobs, work directory {work}", flush=True)

    lock = threading.Lock()

    def log(line):
        with lock:
            print(line, flush=True)

    start = time.monotonic()
    done = 0
    logfile = open(args.log, "a") if args.log else None
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(check_safely, p, args) for p in progs]
        for fut in concurrent.futures.as_completed(futures):
            prog = fut.result()
            done += 1
            tag = (f"[{done}/{len(progs)}] program {prog.index} (csmith --seed {prog.seed}, "
                   f"{prog.lines} lines, {prog.seconds:.1f} s)")
            if prog.status == "ok":
                if not args.quiet:
                    log(f"{tag}: ok")
                if not args.keep:
                    shutil.rmtree(prog.dir, ignore_errors=True)
            elif prog.status == "error":
                log(f"{tag}: ERROR: {prog.reason}")
            elif prog.status == "skip":
                log(f"{tag}: skipped: {prog.reason}")
                if not args.keep:
                    shutil.rmtree(prog.dir, ignore_errors=True)
            else:
                report_lines = [f"{tag}: MISMATCH"]
                for m in prog.mismatches:
                    report_lines += mismatch_report(m, args)
                log("\n".join(report_lines))
            if logfile:
                logfile.write(json.dumps({
                    "run_seed": args.run_seed, "index": prog.index, "csmith_seed": prog.seed,
                    "status": prog.status, "reason": prog.reason, "lines": prog.lines,
                    "seconds": round(prog.seconds, 2),
                    "clang_run_seconds": prog.run_seconds and round(prog.run_seconds, 3),
                    "mismatches": [{"divcc_seed": m.divcc_seed, "kind": m.kind,
                                    "what": m.describe(short=True), "alone": m.alone, "ub": m.ub}
                                   for m in prog.mismatches]}) + "\n")
                logfile.flush()
    if logfile:
        logfile.close()
    elapsed = time.monotonic() - start

    mismatching = [p for p in progs if p.status == "mismatch"]
    errors = [p for p in progs if p.status == "error"]
    if mismatching and args.reduce:
        reductions = 0
        for prog in sorted(mismatching, key=lambda p: p.index):
            for m in prog.mismatches:
                if m.ub:
                    log(f"program {prog.index} ({m.divcc_seed}): not reduced: "
                        f"undefined behaviour ({m.ub})")
                    continue
                if reductions >= args.max_reductions:
                    log(f"program {prog.index} ({m.divcc_seed}): not reduced "
                        f"(--max-reductions {args.max_reductions})")
                    continue
                reductions += 1
                log(f"program {prog.index} (csmith --seed {prog.seed}, {m.divcc_seed}): reducing")
                m.reduced = reduce(m, args, log)
                if m.reduced:
                    log(f"  saved {m.reduced}")
                break  # one reduction per program: its seeds show the same bug

    skipped = [p for p in progs if p.status == "skip"]
    compared = [p for p in progs if p.status in ("ok", "mismatch")]
    reasons = {}
    for p in skipped:
        reasons[p.reason] = reasons.get(p.reason, 0) + 1
    print(f"csmith_diff: {len(progs)} programs in {elapsed:.0f} s: {len(compared)} compared "
          f"({len(compared) * args.seeds} divcc builds), {len(skipped)} skipped"
          + (f" ({', '.join(f'{n} {r}' for r, n in sorted(reasons.items()))})" if reasons else "")
          + f", {len(mismatching)} mismatching")
    for p in mismatching:
        for m in p.mismatches:
            print(f"FAIL: csmith --seed {p.seed}, divcc -frandom-seed={m.divcc_seed}: "
                  f"{m.describe(short=True)}" + (f" -> {m.reduced}" if m.reduced else ""))
    for p in errors:
        print(f"FAIL: csmith --seed {p.seed}: {p.reason}")
    if mismatching or errors:
        print(f"mismatching programs kept in {work}")
    elif not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"programs kept in {work}")
    failed = len(mismatching) + len(errors)
    print(f"csmith: {len(compared) - len(mismatching)} passed, {failed} failed, "
          f"{len(skipped)} skipped")
    sys.exit(1 if failed else 0)


def options_text(options):
    return f"options {shlex.join(options)}" if options else "csmith's default options"


def mismatch_report(m, args):
    p = m.program
    lines = [
        f"  csmith seed: {p.seed} (program {p.index} of run seed {args.run_seed}; "
        f"{options_text(args.csmith_options)})",
        f"  divcc seed: -frandom-seed={m.divcc_seed}",
        f"  transformations: -fdiversify={args.transforms}"
        + (f" ({','.join(fuzz.TRANSFORMS)})" if args.transforms == "all" else ""),
        f"  what: {m.describe()}",
        "  reproduces alone with: " + (", ".join(m.alone) if m.alone else "none of "
                                      + ",".join(fuzz.TRANSFORMS)),
    ]
    if m.kind == "output":
        lines.append("  undefined behaviour: " + (m.ub or "none found (gcc warnings, "
                                                   "ASan+UBSan, MSan, gcc -O0)"))
    lines.append(f"  program: {p.src}")
    lines.append(f"  reproduce: {m.reproduction(args)}")
    return lines


if __name__ == "__main__":
    main()
