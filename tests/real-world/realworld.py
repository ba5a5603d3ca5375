#!/usr/bin/env python3
"""Real-world projects built by divcc pass their own test suites.

Each selected project (tests/divtest/projects.py) is built from a fresh
copy of its sources, for each seed, with
    CC=divcc CXX=div++ CFLAGS=CXXFLAGS=-O2
    DIVCC_OPTIONS="-fdiversify=LIST -fdiversify-seed-file=SEEDFILE"
(SEEDFILE holds the seed's name; divcc's options go through the
environment, which libtool cannot drop from a shared library's link as it
drops unknown flags) and its own tests are run one at a time. With `link`
in LIST, Expat's libexpat.so must come out shuffled across its objects. The sqlite shell runs
sqlite-workload.sql, whose output must equal clang-19's build's byte for
byte. A failing test is run again on the same build, and on builds by
clang-19 and by divcc -fno-diversify, to tell divcc's faults from the
project's; each failure prints one line and a command that repeats it.

CI mode (the default): lz4, expat, secp256k1 and sqlite, 2 seeds.
--full: all seven projects (Lua too), 5 seeds, the longer test counts.

--lto thin|full adds -flto=MODE -fuse-ld=LINKER to every build, the clang-19
and -fno-diversify triage builds included: the projects' own build systems
compile bitcode and divcc generates the code when they link. --linker
(default lld) chooses bfd or gold: GNU ld with divcc's linker plugin (with
bfd or gold, --transforms all means every transformation but `link`, which
needs lld).

--installs N builds golden masters (divcc -fdiversify-golden) and, for each
of install-1 .. install-N, lays out every executable and shared library of
the build again with `divtool rerandomize` (from the golden copies, under
the seed's secret) and runs the tests on that install: a golden master a
distributor qualified once, re-randomized per install. Even-numbered
installs also get new block layouts (`rerandomize --blocks`). Each install
is recorded in a registry (--registry); `divtool identify` must name the
install of one of its binaries, and `divtool verify` lay it out again byte
for byte.

--target aarch64 (or riscv64) builds for aarch64-linux-gnu (divcc and
clang-19 with --target=aarch64-linux-gnu -fuse-ld=lld, Debian's cross
libraries in /usr/aarch64-linux-gnu, configure --host=aarch64-linux-gnu)
and runs every test program under qemu-aarch64 -L /usr/aarch64-linux-gnu;
binfmt_misc is not needed. --target armhf builds for arm-linux-gnueabihf
in Thumb-2 (-mthumb, Debian's default), --target armhf-arm the same in ARM
state (-marm), both run under qemu-arm. Only lz4, expat and secp256k1 have
cross recipes (the default projects there); the triage builds are cross
builds too.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

from divtest import elf, longrun, projects, tools
from divtest.longrun import fmt_time, say

# Rough cost of one build and test run under divcc, to start the longest
# first.
COST = {"leveldb": 6, "sqlite": 5, "secp256k1": 4, "xz": 3, "lua": 2, "expat": 2, "lz4": 1}

DEFAULT_TARGET = "x86_64"  # this machine


class Failure:
    def __init__(self, project, test, seed, transforms, detail, repro, log=None):
        self.project, self.test, self.seed, self.transforms = project, test, seed, transforms
        self.detail, self.repro, self.log = detail, repro, log
        self.triage = ""

    def line(self):
        t = f"; {self.triage}" if self.triage else ""
        return (f"FAIL: {self.project} test {self.test} seed {self.seed} transforms "
                f"{self.transforms}: {self.detail}{t}")


class Runner:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.divcc = tools.divcc(False)
        self.divxx = tools.divcc(True)
        self.clang = tools.clang(False)
        self.clangxx = tools.clang(True)
        self.jobs = args.jobs
        self.target = args.target
        self.passed = 0
        self.failures = []
        self.lock = threading.Lock()
        self.builds = {}  # (project, kind) -> Future of a build dir or an exception
        self.keep_dirs = []

    # ---- builds shared by several tasks: references and triage builds

    def lto_flags(self):
        return f" -flto={self.args.lto} -fuse-ld={self.args.linker}" if self.args.lto else ""

    def flags(self, seed):
        return "-O2" + self.lto_flags()

    def seed_file(self, seed):
        """The seed in a file of its own."""
        seed_file = self.work / "seeds" / seed
        seed_file.parent.mkdir(exist_ok=True)
        seed_file.write_text(seed)
        seed_file.chmod(0o600)
        return seed_file

    def divcc_options(self, seed):
        """divcc's options for this seed."""
        golden = " -fdiversify-golden" if self.args.installs else ""
        return (f"-fdiversify={self.args.transforms}{golden} "
                f"-fdiversify-seed-file={self.seed_file(seed)}")

    def install(self, tag, bdir, goldens, seed, install):
        """Lays out every golden master of bdir again for install, in
        place, from the copies in the folder goldens, recorded in the
        registry beside goldens; then identifies and verifies the first."""
        registry = goldens.with_name(goldens.name + ".sqlite")
        key = ["--seed-file", str(self.seed_file(seed))]
        rels = sorted(golden_masters(goldens))
        for rel in rels:
            cmd = [tools.divtool_path(), "rerandomize", *key, "--install", install,
                   "--registry", str(registry), str(goldens / rel), "-o", str(bdir / rel)]
            if int(install.rsplit("-", 1)[1]) % 2 == 0:
                cmd.append("--blocks")
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError(f"divtool rerandomize {rel}: {p.stderr.strip()}")
            check_left_in_place(rel, p.stderr, goldens / rel, bdir / rel)
            summary = [line for line in p.stderr.splitlines() if "functions in a new order" in line]
            say(f"{tag}: {rel}: {summary[0].removeprefix('divtool rerandomize: ') if summary else ''}")
        if not rels:
            return
        shipped = str(bdir / rels[0])
        for what, args, expect in (
                ("identify", [shipped], f"install '{install}' of golden master"),
                ("verify", [shipped], "verified: ")):
            p = subprocess.run([tools.divtool_path(), what, "-r", str(registry), *key, *args],
                               capture_output=True, text=True)
            if p.returncode != 0 or expect not in p.stdout:
                raise RuntimeError(f"divtool {what} {rels[0]}: {(p.stdout + p.stderr).strip()}")
            with self.lock:
                self.passed += 1
            say(f"{tag}: divtool {what} {rels[0]}: {p.stdout.strip().splitlines()[-1]}")

    def links_shuffled(self):
        names = self.args.transforms.split(",")
        return "all" in names or "link" in names

    def shared_build(self, name, kind):
        """A build of name by clang-19 ('clang') or divcc -fno-diversify
        ('nodiv'), made once per run, whichever task asks first."""
        with self.lock:
            fut = self.builds.get((name, kind))
            owner = fut is None
            if owner:
                fut = concurrent.futures.Future()
                self.builds[(name, kind)] = fut
        if not owner:
            return fut.result()
        label = {"clang": "clang-19 -O2", "nodiv": "divcc -O2 -fno-diversify"}[kind]
        cc, cxx, flags = ((self.clang, self.clangxx, "-O2") if kind == "clang"
                          else (self.divcc, self.divxx, "-O2 -fno-diversify"))
        flags += self.lto_flags()
        say(f"{name} {label}: building")
        t = time.monotonic()
        try:
            b = projects.build(name, cc, cxx, flags, self.work / f"{name}-{kind}", self.jobs,
                               self.target)
            say(f"{name} {label}: built ({fmt_time(time.monotonic() - t)})")
            if kind == "clang" and projects.project(name).needs_reference:
                # The reference output (sqlite's workload) comes from here.
                for r in projects.run_tests(name, b, self.args.full):
                    state = "passed" if r.passed else f"FAILED: {r.detail}"
                    say(f"{name} {label}: {r.name} {state} ({fmt_time(r.seconds)})")
                    if not r.passed:
                        raise projects.BuildError(
                            f"the clang-19 reference run of {r.name} failed: {r.detail} "
                            f"(log {r.log})", r.log)
            fut.set_result(b)
        except Exception as e:  # noqa: BLE001 - handed to every waiter
            say(f"{name} {label}: FAILED: {e}")
            fut.set_exception(e)
        return fut.result()

    def try_shared(self, name, kind):
        try:
            return self.shared_build(name, kind), None
        except Exception as e:  # noqa: BLE001
            return None, str(e)

    # ---- reproduction and triage

    def repro(self, name, seed, test=None):
        cmd = ["python3", "tests/real-world/realworld.py", "--project", name,
               "--seed", seed, "--transforms", self.args.transforms]
        if self.args.lto:
            cmd += ["--lto", self.args.lto, "--linker", self.args.linker]
        if self.target != DEFAULT_TARGET:
            cmd += ["--target", self.target]
        if self.args.full:
            cmd.append("--full")
        if self.args.installs:
            cmd += ["--installs", str(self.args.installs)]
        if test:
            cmd += ["--test", test]
        env = "PYTHONPATH=tests "
        if "DIVCC_BUILD_DIR" in os.environ:
            env += f"DIVCC_BUILD_DIR={shlex.quote(os.environ['DIVCC_BUILD_DIR'])} "
        return env + shlex.join(cmd)

    def triage_test(self, name, build, test, reference):
        """Why did test fail: the same build again, clang-19, -fno-diversify."""
        notes = []
        again = projects.run_test(name, build, test, self.args.full, reference)
        notes.append("passes when run again on the same build (flaky?)" if again.passed
                     else "fails again on the same build")
        verdicts = {}
        for kind, label in (("clang", "clang-19"), ("nodiv", "divcc -fno-diversify")):
            b, err = self.try_shared(name, kind)
            if b is None:
                verdicts[kind] = None
                notes.append(f"{label} build failed too ({err})")
                continue
            r = projects.run_test(name, b, test, self.args.full, reference)
            verdicts[kind] = r.passed
            notes.append(f"{label} build {'passes' if r.passed else 'fails: ' + r.detail}")
        verdict = ""
        if verdicts.get("clang") is False:
            verdict = "fails with plain clang-19 too: not divcc's fault"
        elif verdicts.get("nodiv") is False:
            verdict = ("fails with divcc -fno-diversify but not clang-19: a divcc bug "
                       "outside the transformations")
        elif verdicts.get("clang") and verdicts.get("nodiv"):
            verdict = ("passes with clang-19 and -fno-diversify: suspect the diversifying "
                       "transformations")
        return "; ".join(notes) + (f" => {verdict}" if verdict else "")

    def triage_build(self, name):
        notes, ok = [], {}
        for kind, label in (("clang", "clang-19"), ("nodiv", "divcc -fno-diversify")):
            b, err = self.try_shared(name, kind)
            ok[kind] = b is not None
            notes.append(f"{label} builds" if ok[kind] else f"{label} build fails too ({err})")
        if not ok["clang"]:
            verdict = "fails with plain clang-19 too: not divcc's fault"
        elif not ok["nodiv"]:
            verdict = ("fails with divcc -fno-diversify but not clang-19: a divcc bug "
                       "outside the transformations")
        else:
            verdict = "only the diversified build fails: suspect the transformations"
        return "; ".join(notes) + f" => {verdict}"

    def record(self, failure):
        with self.lock:
            self.failures.append(failure)

    # ---- one project, one seed

    def task(self, name, seed):
        tag = f"{name} {seed}"
        bdir = self.work / f"{name}-{seed}"
        options = self.divcc_options(seed)
        say(f"{tag}: building with divcc {self.flags(seed)}, DIVCC_OPTIONS={options}")
        t = time.monotonic()
        try:
            build = projects.build(name, self.divcc, self.divxx, self.flags(seed), bdir, self.jobs,
                                   self.target, divcc_options=options)
        except Exception as e:  # noqa: BLE001
            log = getattr(e, "log", None)
            say(f"{tag}: build FAILED ({fmt_time(time.monotonic() - t)}): {e}")
            if log:
                say(f"{tag}: last lines of {log}:\n{projects.tail(log)}")
            f = Failure(name, "build", seed, self.args.transforms, str(e), self.repro(name, seed), log)
            if not self.args.no_triage:
                f.triage = self.triage_build(name)
            self.record(f)
            self.keep_dirs.append(bdir)
            return
        say(f"{tag}: built ({fmt_time(time.monotonic() - t)})")

        shuffled = projects.project(name).shuffled_at_link(build) if self.links_shuffled() else None
        if shuffled is not None:
            ok, detail = shuffled
            if ok:
                with self.lock:
                    self.passed += 1
                say(f"{tag}: shared library shuffled at link time ({detail})")
            else:
                say(f"{tag}: shared library NOT shuffled at link time ({detail})")
                self.record(Failure(name, "link-shuffle", seed, self.args.transforms, detail,
                                    self.repro(name, seed)))

        installs = ([f"install-{i}" for i in range(1, self.args.installs + 1)]
                    if self.args.installs else [None])
        goldens = self.work / f"{name}-{seed}-golden"
        if self.args.installs:
            for rel in golden_masters(bdir):
                (goldens / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(bdir / rel, goldens / rel)
            if not goldens.is_dir():
                self.record(Failure(name, "golden", seed, self.args.transforms,
                                    "the build left no golden master", self.repro(name, seed)))
                return

        reference = None
        if projects.project(name).needs_reference:
            reference, err = self.try_shared(name, "clang")
            if reference is None:
                self.record(Failure(name, "reference", seed, self.args.transforms,
                                    f"no clang-19 reference: {err}", self.repro(name, seed)))
                return

        for install in installs:
            self.run_tests(name, seed, tag, bdir, build, goldens, install, reference)
        if not self.args.keep and bdir not in self.keep_dirs:
            shutil.rmtree(bdir, ignore_errors=True)
            shutil.rmtree(goldens, ignore_errors=True)
            goldens.with_name(goldens.name + ".sqlite").unlink(missing_ok=True)

    def run_tests(self, name, seed, tag, bdir, build, goldens, install, reference):
        """The project's tests on the build, or on install (re-randomized
        from the golden masters) if given."""
        if install:
            tag = f"{tag} {install}"
            try:
                self.install(tag, bdir, goldens, seed, install)
            except Exception as e:  # noqa: BLE001
                say(f"{tag}: FAILED: {e}")
                self.record(Failure(name, f"rerandomize {install}", seed, self.args.transforms,
                                    str(e), self.repro(name, seed)))
                self.keep_dirs.append(bdir)
                return

        def on_result(r):
            test = f"{r.name} ({install})" if install else r.name
            if r.passed:
                with self.lock:
                    self.passed += 1
                say(f"{tag}: {r.name} passed ({fmt_time(r.seconds)})")
                return
            say(f"{tag}: {r.name} FAILED ({fmt_time(r.seconds)}): {r.detail}")
            say(f"{tag}: last lines of {r.log}:\n{projects.tail(r.log)}")
            f = Failure(name, test, seed, self.args.transforms, r.detail,
                        self.repro(name, seed, r.name), r.log)
            if not self.args.no_triage and not install:
                f.triage = self.triage_test(name, build, r.name, reference)
                say(f"{tag}: {r.name}: {f.triage}")
            self.record(f)
            if bdir not in self.keep_dirs:
                self.keep_dirs.append(bdir)

        try:
            projects.run_tests(name, build, self.args.full, self.args.test or None,
                               reference, on_result)
        except KeyError as e:
            self.record(Failure(name, "tests", seed, self.args.transforms, str(e),
                                self.repro(name, seed)))


def check_left_in_place(rel, report, golden, install):
    """The functions divtool rerandomize's report says it left in place
    ("left in place: NAME: reason", NAME as BOLT names it, /N for a local
    one) must be those BOLT's output keeps in the golden master's code: the
    golden master's function symbols that are in its .bolt.org.* sections
    (BOLT adds symbols of its own there too)."""
    reported = sorted(re.sub(r"/\d+$", "", line.split(": ")[1])
                      for line in report.splitlines()
                      if line.startswith("divtool rerandomize: left in place: "))
    functions = {name for _, name in elf.symbols(golden, "F")}
    kept = sorted(name for section, name in elf.symbols(install, "F")
                  if section.startswith(".bolt.org.") and name in functions)
    if reported != kept:
        raise RuntimeError(f"divtool rerandomize {rel}: the report lists {reported or 'none'} "
                           f"left in place, BOLT's output keeps {kept or 'none'} in its old code")


def golden_masters(root):
    """The executables and shared libraries under root (relative paths)
    that keep their code's relocations: what -fdiversify-golden linked."""
    found = []
    if not root.is_dir():
        return found
    for path in root.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        with open(path, "rb") as f:
            head = f.read(18)
            if head[:4] != b"\x7fELF" or head[16] not in (2, 3):  # ET_EXEC, ET_DYN
                continue
            if b".rela.text\0" not in f.read():
                continue
        found.append(path.relative_to(root))
    return found


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--project", action="append", metavar="NAME",
                    help=f"a project to build (repeatable): {', '.join(projects.names())} "
                         f"(default: {', '.join(projects.ci_names())}; with --full, all)")
    seeds = ap.add_mutually_exclusive_group()
    seeds.add_argument("--seeds", type=int, metavar="N",
                       help="seeds realworld-1 to realworld-N (default 2; with --full, 5)")
    seeds.add_argument("--seed", action="append", metavar="S",
                       help="this seed (repeatable), e.g. --seed realworld-2")
    cross = [n for n in projects.names() if "aarch64" in projects.project(n).targets]
    ap.add_argument("--target", default=DEFAULT_TARGET, choices=list(projects.TARGETS),
                    help="the machine to build for (default: %(default)s, this one); "
                         "aarch64 and riscv64 cross-compile for ARCH-linux-gnu and run the "
                         "tests under qemu-ARCH -L /usr/ARCH-linux-gnu, for the projects "
                         f"with a cross recipe: {', '.join(cross)}")
    ap.add_argument("--transforms", default="all", metavar="LIST",
                    help="the -fdiversify=LIST of every build (default: %(default)s)")
    ap.add_argument("--lto", choices=["thin", "full"],
                    help="build every project with -flto=MODE -fuse-ld=LINKER")
    ap.add_argument("--linker", choices=["lld", "bfd", "gold"], default="lld",
                    help="the linker of --lto builds (default: %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, metavar="N",
                    help="builds at once, and make -jN in each (default: %(default)s)")
    ap.add_argument("--installs", type=int, default=0, metavar="N",
                    help="build golden masters and test N installs of each, laid out "
                         "again by divtool rerandomize (default: none)")
    ap.add_argument("--keep", action="store_true", help="keep every build folder")
    ap.add_argument("--full", action="store_true",
                    help="all projects, 5 seeds, the longer test counts")
    ap.add_argument("--test", action="append", metavar="NAME",
                    help="run only this test of the project (repeatable)")
    ap.add_argument("--no-triage", action="store_true",
                    help="do not rebuild with clang-19 and -fno-diversify after a failure")
    ap.add_argument("--work-dir", metavar="DIR",
                    help="where to build (default: a new folder in $TMPDIR)")
    ap.add_argument("--list", action="store_true", help="list the projects and exit")
    args = ap.parse_args()
    if args.lto and args.linker != "lld" and args.transforms == "all":
        # `link`'s whole-program shuffle is lld's.
        args.transforms = ",".join(t for t in tools.TRANSFORMATIONS if t != "link")
    if args.list:
        for n in projects.names():
            p = projects.project(n)
            tag = " (CI)" if p.ci_default else ""
            print(f"{n}{tag}: {p.description} [npm {p.package.spec}; targets "
                  f"{', '.join(p.targets)}]")
        sys.exit(0)
    try:
        names = [projects.project(n).name for n in (args.project or [])]
    except KeyError as e:
        ap.error(str(e.args[0]))
    on_target = [n for n in projects.names() if projects.project(n).builds_for(args.target)]
    if not names:
        names = [n for n in (projects.names() if args.full else projects.ci_names())
                 if n in on_target]
    elsewhere = [n for n in names if n not in on_target]
    if elsewhere:
        ap.error(f"no {args.target} recipe for {', '.join(elsewhere)} "
                 f"(--target {args.target} builds {', '.join(on_target)})")
    args.names = list(dict.fromkeys(names))
    if args.seed:
        args.seed_list = list(dict.fromkeys(args.seed))
    else:
        n = args.seeds if args.seeds is not None else (5 if args.full else 2)
        if n < 1:
            ap.error("--seeds must be at least 1")
        args.seed_list = [f"realworld-{i}" for i in range(1, n + 1)]
    if args.test and len(args.names) != 1:
        ap.error("--test needs exactly one --project")
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    return args


def main():
    args = parse_args()
    tools.require_build("real-world")
    for tool in ("make", "npm"):
        if shutil.which(tool) is None:
            sys.exit(f"real-world: '{tool}' is not installed")
    why = projects.get_target(args.target).missing()
    if why:
        sys.exit(f"real-world: cannot build for {args.target}: {why}; "
                 f"scripts/install-deps.sh installs it")

    prefix = "divcc-realworld-" + (f"{args.target}-" if args.target != DEFAULT_TARGET else "")
    work = longrun.work_dir(args.work_dir, prefix)
    mode = ("full" if args.full else "CI") + " mode"
    if args.target != DEFAULT_TARGET:
        mode += f", {args.target} under {projects.get_target(args.target).emulator[0]}"
    say(f"real-world ({mode}): {', '.join(args.names)}; seeds {', '.join(args.seed_list)}; "
        f"-fdiversify={args.transforms}{' -flto=' + args.lto if args.lto else ''}; -j{args.jobs}; divcc {tools.build_dir()}; in {work}")

    runner = Runner(args, work)
    fetch_failed = []
    for name in args.names:
        t = time.monotonic()
        try:
            src = projects.fetch(name)
            say(f"{name}: sources {src} ({fmt_time(time.monotonic() - t)})")
        except Exception as e:  # noqa: BLE001
            say(f"{name}: fetch FAILED: {e}")
            runner.record(Failure(name, "fetch", "-", args.transforms, str(e),
                                  runner.repro(name, args.seed_list[0])))
            fetch_failed.append(name)
    names = [n for n in args.names if n not in fetch_failed]

    tasks = [(n, s) for n in names for s in args.seed_list]
    tasks.sort(key=lambda t: -COST.get(t[0], 1))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = []
        # References first: every seed's sqlite run waits for its output.
        for n in names:
            if projects.project(n).needs_reference:
                futures.append(pool.submit(runner.try_shared, n, "clang"))
        futures += [pool.submit(runner.task, n, s) for n, s in tasks]
        for f in futures:
            f.result()

    print()
    longrun.finish(
        "real-world", mode, runner.passed, runner.failures, work, args.keep, args.work_dir,
        lambda d: d.name.startswith(tuple(f"{n}-" for n in names)))


if __name__ == "__main__":
    main()
