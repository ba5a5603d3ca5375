#!/usr/bin/env python3
"""LTO build time of divcc against clang-19 with the same linker (lld, or
with --linker bfd|gold GNU ld through divcc's linker plugin), as ratios
measured side by side in one run.

For each project (tests/divtest/projects.py, built by its own build
system, -j1) and each LTO mode, three configurations take turns, the order
rotating every round:

  clang-19              clang-19 -O2 -flto=MODE -fuse-ld=LINKER (lld)
  divcc -fno-diversify  divcc, the same flags, -fno-diversify
  divcc -fdiversify     divcc, the same flags, -fdiversify (the default set)
                        with a fixed seed (a seed file)

divcc's own options go in DIVCC_OPTIONS, not in CFLAGS: libtool drops
flags it does not know from the link of a shared library (expat's
libexpat.so), which would otherwise run with divcc's defaults.

build: the CPU time (user + system) of every process of the whole build
(configure, make, the compilers and the LTO links), median of --rounds.

link: the project's main LTO link alone, run again from the objects its
last build left (the command is taken from the build log), median of
--link-rounds; this is where LTO generates the code. CPU time, and the
wall time next to it: ThinLTO back ends run on every core (the linker's
threads, divcc's forked processes); through lld, divcc's two lld runs and
the work between them alone; through GNU ld, one run, its plugin
optimizing while divcc generates the code.

  lz4    programs/lz4 (every object bitcode: the whole program's code is
         generated at link time)
  expat  .libs/libexpat.so (the library; its objects are bitcode)

Each ratio is a configuration's median over clang-19's with the same LTO
mode (1.000: as long as clang-19; 1.100: 10% longer); the geometric mean
rows sum up per mode and over all. Budgets, stated next to the numbers,
not asserted: the build with -fdiversify at most 1.15x clang-19's with the
same LTO mode, with -fno-diversify at most 1.05x.

--instructions instead counts, with valgrind's callgrind, the instructions
each configuration's link executes, per process (for divcc: the driver,
which runs the code generator, and lld's two runs, symbol resolution and
the final link): exact, whatever the machine's load; the ratio is the
total over clang-19's. These links run with -flto-jobs=1, so that
divcc runs its back ends in its own process (a process forked from divcc
starts with its parent's counts, which callgrind would count twice).

  export PYTHONPATH=$PWD/tests                    # from the repository's root
  python3 bench/lto_time.py                       # 10 to 13 minutes on 2 cores
  python3 bench/lto_time.py --projects lz4 --modes thin --rounds 5
  python3 bench/lto_time.py --linker bfd          # through GNU ld
  python3 bench/lto_time.py --instructions --projects lz4 --modes thin
                                                  # 5 minutes; all: much longer
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from divtest import bench as bt
from divtest import projects, tools

MODES = ["thin", "full"]
SEED = b"lto-time"  # the fixed seed of -fdiversify
BUDGETS = {"divcc -fno-diversify": 1.05, "divcc -fdiversify": 1.15}


class Link:
    """A project's main LTO link, as its build log records it: the folder
    (inside the build directory) it runs in, and a pattern of its command."""

    def __init__(self, label, cwd, pattern):
        self.label, self.cwd, self.pattern = label, cwd, re.compile(pattern)

    def command(self, bdir, compilers):
        """The last command of the build log that matches, run by one of
        compilers (libtool's 'libtool: link: ' prefix removed)."""
        log = Path(bdir) / "logs" / "build.log"
        found = None
        for line in log.read_text(errors="replace").splitlines():
            line = line.removeprefix("libtool: link: ")
            if not self.pattern.search(line):
                continue
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            if words and words[0] in compilers:
                found = words
        if not found:
            raise SystemExit(f"lto_time: no link of {self.label} in {log} "
                             f"(pattern {self.pattern.pattern!r})")
        return found


LINKS = {
    "lz4": Link("programs/lz4", "src/programs", r" -o lz4$"),
    "expat": Link(".libs/libexpat.so", "src", r" -o \.libs/libexpat\.so"),
}

# A quick check that each build works (a round trip through lz4, a
# well-formed document through xmlwf).
SMOKE = {
    "lz4": "echo divcc-lto | ./src/programs/lz4 -q -c | ./src/programs/lz4 -q -d -c "
           "| grep -qx divcc-lto",
    "expat": "printf '<a><b/></a>' > good.xml && printf '<a><b></a>' > bad.xml && "
             "test -z \"$(./src/xmlwf/xmlwf good.xml)\" && "
             "./src/xmlwf/xmlwf bad.xml | grep -q 'mismatched tag'",
}


def configurations(mode, linker, work):
    """{name: (cc, cxx, flags, DIVCC_OPTIONS)}."""
    divcc, divxx = tools.divcc(False), tools.divcc(True)
    clang, clangxx = tools.clang(False), tools.clang(True)
    flags = ["-O2", f"-flto={mode}", f"-fuse-ld={linker}"]
    seed = work / "lto-time.seed"
    if not seed.exists():
        seed.write_bytes(SEED)
    return {"clang-19": (clang, clangxx, flags, ""),
            "divcc -fno-diversify": (divcc, divxx, flags, "-fno-diversify"),
            "divcc -fdiversify": (divcc, divxx, flags,
                                  f"-fdiversify -fdiversify-seed-file={seed}")}


def link_env(divcc_options):
    """The environment of a link run again by hand: tools.environment()
    with divcc_options in DIVCC_OPTIONS."""
    return tools.environment(**({"DIVCC_OPTIONS": divcc_options} if divcc_options else {}))


def build(name, cc, cxx, flags, divcc_options, bdir):
    """CPU seconds of one whole build (every process it ran), -j1."""
    try:
        with bt.Stopwatch() as w:
            projects.build(name, cc, cxx, flags, bdir, jobs=1, divcc_options=divcc_options)
    except projects.BuildError as e:
        opts = f" (DIVCC_OPTIONS={divcc_options})" if divcc_options else ""
        raise SystemExit(f"lto_time: {name} with {cc} {shlex.join(flags)}{opts} failed: {e}\n"
                         f"  log: {e.log}\n{projects.tail(e.log) if e.log else ''}")
    return w.cpu


def smoke(name, bdir, what):
    r = bt.run(["sh", "-c", SMOKE[name]], cwd=bdir, check=False)
    if r.returncode:
        raise SystemExit(f"lto_time: the {what} build of {name} does not work "
                         f"({SMOKE[name]!r} in {bdir} failed): {r.stderr[-300:]}")


def time_mode(name, mode, args, work):
    """{config: {"build": [cpu...], "link": [cpu...], "link wall": [...]}}:
    the whole builds, then the main link alone, the configurations taking
    turns."""
    configs = configurations(mode, args.linker, work)
    names = list(configs)
    dirs = {c: work / f"{name}-{mode}-{c.replace(' ', '_')}" for c in names}
    smoked = set()

    def build_once(c):
        cc, cxx, flags, opts = configs[c]
        cpu = build(name, cc, cxx, flags, opts, dirs[c])
        if c not in smoked:
            smoke(name, dirs[c], f"{c} -flto={mode}")
            smoked.add(c)
        return cpu

    builds = bt.interleaved(names, args.rounds, build_once, lambda r, latest: bt.log(
        f"{name} -flto={mode}: build round {r + 1}/{args.rounds}: " +
        ", ".join(f"{c} {t:.2f} s" for c, t in latest.items())))
    link = LINKS[name]
    commands = {c: link.command(dirs[c], configs[c][:2]) for c in names}

    def link_once(c):
        r = bt.run(commands[c], cwd=dirs[c] / link.cwd, env=link_env(configs[c][3]))
        return r.cpu, r.wall

    links = bt.interleaved(names, args.link_rounds, link_once)
    times = {c: {"build": builds[c], "link": [cpu for cpu, _ in links[c]],
                 "link wall": [wall for _, wall in links[c]]} for c in names}
    bt.log(f"{name} -flto={mode}: link of {link.label}: " +
          ", ".join(f"{c} {bt.median(times[c]['link']):.2f} s" for c in names))
    return times


def budget_note(config, ratio):
    if config not in BUDGETS:
        return ""
    limit = BUDGETS[config]
    return f"≤ {limit:.2f}: {'met' if ratio <= limit else 'over'}"


def report(results, args):
    """The table, as markdown."""
    rows, ratios = [], {}
    for (name, mode), times in results.items():
        med = {c: {k: bt.median(v) for k, v in t.items()} for c, t in times.items()}
        base = med["clang-19"]
        for c, m in med.items():
            rb, rl, rw = (m[k] / base[k] for k in ("build", "link", "link wall"))
            if c != "clang-19":
                ratios.setdefault((c, mode), []).append((rb, rl, rw))
                ratios.setdefault((c, "all"), []).append((rb, rl, rw))
            rows.append([name, mode, c, f"{m['build']:.2f}", f"{rb:.3f}", budget_note(c, rb),
                         f"{m['link']:.2f}", f"{rl:.3f}", f"{m['link wall']:.2f}", f"{rw:.3f}"])
    modes = sorted({mode for _, mode in results}, key=MODES.index)
    for group in modes + (["all"] if len(modes) > 1 else []):
        for c in BUDGETS:
            rs = ratios.get((c, group))
            if rs:
                g = [bt.geomean([r[i] for r in rs]) for i in range(3)]
                rows.append(["geometric mean", group, c, "", f"{g[0]:.3f}",
                             budget_note(c, g[0]), "", f"{g[1]:.3f}", "", f"{g[2]:.3f}"])
    return "\n".join([
        f"LTO build time (CPU seconds, user + system, -j1), median of {args.rounds} "
        f"builds; link: the main LTO link alone, median of {args.link_rounds}. "
        f"Ratios to clang-19 with the same LTO mode and linker ({args.linker}).", "",
        bt.markdown_table(["project", "mode", "configuration", "build s", "build ratio", "budget",
                          "link s", "link ratio", "link wall s", "link wall ratio"], rows), "",
        "Budgets (stated, not asserted): with -fdiversify the LTO build at most "
        "1.15x clang-19's with the same LTO mode, with -fno-diversify at most 1.05x."]) + "\n"


def count_instructions(args, work):
    """The table of the instructions each configuration's main link
    executes, per process, counted by callgrind."""
    bt.require_valgrind("lto_time")
    rows = []
    for name in args.projects:
        for mode in args.modes:
            base = None
            for c, (cc, cxx, flags, opts) in configurations(mode, args.linker,
                                                            work).items():
                bdir = work / f"{name}-{mode}-{c.replace(' ', '_')}"
                build(name, cc, cxx, flags, opts, bdir)
                link = LINKS[name]
                # One back end at a time: a process forked from divcc starts
                # with its parent's counts (callgrind's state is copied),
                # which would be counted twice.
                cmd = link.command(bdir, (cc, cxx)) + ["-flto-jobs=1"]
                try:
                    procs = bt.callgrind(cmd, cwd=bdir / link.cwd, env=link_env(opts))
                except bt.CommandFailed as e:
                    sys.exit(f"lto_time: under callgrind: {e}")
                total = sum(n for _, n in procs)
                base = base or total
                rows.append([name, mode, c, f"{total / 1e6:.1f}", f"{total / base:.3f}",
                             ", ".join(f"{exe} {n / 1e6:.1f}" for exe, n in procs)])
                bt.log(f"{name} -flto={mode} {c}: " + " | ".join(rows[-1][3:]))
    return ("Instructions executed by the main LTO link (millions), every process; "
            "for divcc through lld, lld runs twice (1: symbol resolution, 2: the "
            "final link) and the driver generates the code in between; through GNU "
            f"ld, the linker runs once; linker: {args.linker}; ratio: the total "
            "over clang-19's.\n\n" +
            bt.markdown_table(["project", "mode", "configuration", "total", "ratio",
                              "per process"], rows) + "\n")


def fingerprint(path):
    st = Path(path).stat()
    return st.st_size, st.st_mtime_ns


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--projects", default=",".join(LINKS),
                    help=f"comma-separated (default and known: {','.join(LINKS)})")
    ap.add_argument("--modes", default=",".join(MODES),
                    help="comma-separated LTO modes (default: thin,full)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="builds per configuration (default 3)")
    ap.add_argument("--link-rounds", type=int, default=5,
                    help="runs of the main link per configuration (default 5)")
    ap.add_argument("--linker", choices=["lld", "bfd", "gold"], default="lld",
                    help="every link's linker, divcc's and clang-19's (default: lld)")
    ap.add_argument("--instructions", action="store_true",
                    help="count the instructions of each main link instead (valgrind)")
    ap.add_argument("--markdown", help="also write the table to this file (with "
                    "--instructions too)")
    ap.add_argument("--keep", action="store_true", help="keep the build folder")
    args = ap.parse_args()
    args.projects = [p for p in args.projects.split(",") if p]
    args.modes = [m for m in args.modes.split(",") if m]
    for p in args.projects:
        if p not in LINKS:
            sys.exit(f"lto_time: unknown project {p!r} (known: {', '.join(LINKS)})")
    for m in args.modes:
        if m not in MODES:
            sys.exit(f"lto_time: unknown LTO mode {m!r} (known: {', '.join(MODES)})")
    if args.rounds < 1 or args.link_rounds < 1:
        sys.exit("lto_time: --rounds and --link-rounds must be at least 1")
    divcc = Path(tools.divcc(False))
    if not os.access(divcc, os.X_OK):
        sys.exit(f"lto_time: no divcc at {divcc}: run ./scripts/build.sh "
                 "(or set DIVCC_BUILD_DIR)")
    for tool in (tools.clang(False), tools.clang(True), Path(tools.clang(False)).parent / "ld.lld"):
        if not os.access(tool, os.X_OK):
            sys.exit(f"lto_time: {tool} is missing (scripts/install-deps.sh installs clang-19 and lld)")
    for p in args.projects:
        try:
            projects.fetch(p)  # downloading is not building
        except (projects.FetchError, OSError, subprocess.SubprocessError) as e:
            sys.exit(f"lto_time: cannot fetch {p}: {e}")

    divcc_before = fingerprint(divcc)
    with bt.work_folder("lto-time", args.keep) as work:
        if args.instructions:
            text = count_instructions(args, work)
        else:
            results = {(name, mode): time_mode(name, mode, args, work)
                       for name in args.projects for mode in args.modes}
            text = report(results, args)
        print(text)
        if args.markdown:
            Path(args.markdown).write_text(text)
    bt.log(f"done in {bt.elapsed_minutes():.1f} minutes")
    if fingerprint(divcc) != divcc_before:
        sys.exit(f"lto_time: {divcc} changed during the run: the numbers mix two "
                 "builds of divcc; run again")


if __name__ == "__main__":
    main()
