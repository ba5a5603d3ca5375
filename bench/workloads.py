"""The real programs bench/overhead.py and bench/install_layout.py measure,
each built by its project's own recipe (tests/divtest/projects.py), and the
workload that exercises it: sqlite (a SQL script), lz4 and xz (compressing
generated text), expat (parsing generated XML), secp256k1 (signature
verifications) and leveldb (db_bench); and two programs whose code (over
1 MB) is more than an instruction cache holds: speedtest1 (SQLite's speed
test) and tcl (tclsh running test files of Tcl's own suite).

Every function that builds or runs a program takes the Target it is for
(projects.TARGETS): this machine (HOST), or a cross target whose programs
run under qemu-user."""

import copy
import os
import random
import shutil
from pathlib import Path

from divtest import bench as bt
from divtest import projects

import qemu_plugin

HOST = projects.get_target("x86_64")


def make_input(path, size, kind):
    """Deterministic input data of about size bytes: word-like text
    (compressible like real files), or XML built from it (kind "xml")."""
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
    """A program of a project and the command that exercises it.

    args: the program's arguments, "{data}" standing for the data folder;
    inputs: [(file name, bytes, "text" or "xml")] generated there;
    stdin: a file the program reads; rounds: how many times the command
    runs per timing (short commands, so that one measurement lasts long
    enough to be read reliably); code: where the benchmarked code is,
    relative to the program, when it is not the program itself (a shared
    library behind a libtool wrapper); counted: (args, inputs) of a
    shorter run of the same workload for counting (counts are exact, so a
    smaller input gives the same ratios in a fraction of cachegrind's
    time); scratch: folders in the data folder the program creates,
    removed before every run."""

    def __init__(self, name, project, program, args, inputs=(), stdin=None, rounds=1,
                 code=None, counted=None, scratch=()):
        self.name, self.project, self.program = name, project, program
        self.args, self.inputs, self.stdin = args, inputs, stdin
        self.counted, self.rounds, self.code = counted, rounds, code
        self.scratch = scratch

    def for_counting(self):
        """This benchmark as the counting modes run it."""
        if not self.counted:
            return self
        shorter = copy.copy(self)
        shorter.args, shorter.inputs = self.counted
        return shorter

    def for_emulator(self):
        """This benchmark as it runs under qemu (--target)."""
        return self

    def make_inputs(self, data):
        """Generates the inputs in the data folder (once)."""
        for fname, size, kind in self.inputs:
            if not (data / fname).exists():
                make_input(data / fname, size, kind)

    def code_object(self, program):
        """The ELF file holding the code the benchmark exercises: what is
        audited and measured."""
        return (Path(program).parent / self.code).resolve() if self.code else program

    def build(self, cc, cxx, flags, out, target=HOST, divcc_options=""):
        """The program, built by the project's recipe in out, -j1, with
        divcc_options in DIVCC_OPTIONS."""
        projects.build(self.project, cc, cxx, flags, out, jobs=1, target=target.name,
                       divcc_options=divcc_options)
        return projects.artifacts(self.project, out)[self.program]

    def command(self, program, data, target=HOST):
        """The benchmark's command line for program, as run here."""
        cmd = target.command([str(program)] + [a.format(data=data) for a in self.args])
        if target.cross and Path(program).read_bytes()[:2] == b"#!":
            # A libtool wrapper script: libtool's execute mode hands the
            # emulator the real program, with its libraries' path.
            libtool = next(d / "libtool" for d in Path(program).parents
                           if (d / "libtool").exists())
            cmd = [str(libtool), "--mode=execute"] + cmd
        return cmd

    def _reset(self, data):
        for folder in self.scratch:
            shutil.rmtree(data / folder, ignore_errors=True)

    def run(self, program, data, work, target=HOST, rounds=None, env=None):
        """Runs the workload on program (rounds times, default
        self.rounds) in work; returns the CPU seconds (user + system) of
        the program and its children, summed over the rounds."""
        total = 0.0
        for _ in range(self.rounds if rounds is None else rounds):
            self._reset(data)
            total += bt.run(self.command(program, data, target), cwd=work, env=env,
                           stdin=self.stdin).cpu
        return total

    def count(self, program, data, work, target=HOST, simulate=False,
              geometry=bt.DEFAULT_CACHE_GEOMETRY):
        """What one run of the workload executes: cachegrind's counts
        (bt.cachegrind; simulate: the misses and the estimated cycles too,
        with the caches of geometry), or for a cross target the guest
        instructions counted by the QEMU plugin."""
        self._reset(data)
        cmd = self.command(program, data, target)
        if target.cross:
            return {"instructions": qemu_plugin.count_instructions(
                cmd, target.emulator[0], cwd=work, stdin=self.stdin)}
        return bt.cachegrind(cmd, cwd=work, stdin=self.stdin, simulate=simulate,
                             geometry=geometry)


class Secp256k1Bench(Benchmark):
    """bench_verify of libsecp256k1, built as the npm package builds the
    library (without the test-only VERIFY checks): 10 rounds of 20000
    verifications, or 1 round when counted or under qemu."""

    rounds_of_verifications = 10

    def for_counting(self):
        shorter = copy.copy(self)
        shorter.rounds_of_verifications = 1
        return shorter

    for_emulator = for_counting

    def build(self, cc, cxx, flags, out, target=HOST, divcc_options=""):
        src = projects.fetch("secp256k1")
        recipe = projects.project("secp256k1")
        defines = [d for d in recipe.DEFINES if d != "VERIFY"]
        defines += recipe.WORD[target.lp64] + recipe.ASM.get(target.name, [])
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
        bt.run([cc] + list(target.cc_flags) + flags + [f"-D{d}" for d in defines] +
              [f"-I{src}", f"-I{src / 'src'}", f"-I{src / 'include'}",
               src / "src" / "secp256k1.c", main, "-o", program],
              env=divcc_env(divcc_options))
        return program


def divcc_env(divcc_options):
    """This environment with DIVCC_OPTIONS set to divcc_options only."""
    env = {k: v for k, v in os.environ.items() if k != "DIVCC_OPTIONS"}
    return env | ({"DIVCC_OPTIONS": divcc_options} if divcc_options else {})


class TclBench(Benchmark):
    """tclsh running test files of Tcl's own suite (projects.Tcl.command:
    tests/all.tcl next to tclsh's sources, in one process): files, the
    test files of the timed run, counted_files those of the counting runs
    (the same without the longest); "{data}/tcl-tmp" is tcltest's
    temporary folder."""

    def __init__(self, name, files, counted_files):
        super().__init__(name, "tcl", "tclsh", [], scratch=["tcl-tmp"])
        self.files, self.counted_files = files, counted_files

    def for_counting(self):
        shorter = copy.copy(self)
        shorter.files = self.counted_files
        return shorter

    def command(self, program, data, target=HOST):
        return target.command(projects.project("tcl").command(program, self.files,
                                                              Path(data) / "tcl-tmp"))


# speedtest1's test sets (projects.SQLiteSpeedtest.TESTSETS) in memory.
SPEEDTEST1 = ["--memdb", "--testset", projects.project("speedtest1").TESTSETS]
TCL_FILES = projects.project("tcl").TEST_FILES
# The counting runs leave out the four longest files: 5.1 billion
# instructions instead of 25 (clang-19 -O2).
TCL_COUNTED = [f for f in TCL_FILES
               if f not in ("clock.test", "expr.test", "dict.test", "encoding.test")]

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
                                   "--num=50000", "--db={data}/leveldb-db"], []),
                         scratch=["leveldb-db"]),
    # Programs whose code, over 1 MB, is more than an instruction cache
    # holds (docs/performance.md, "Large programs").
    "speedtest1": Benchmark("speedtest1", "speedtest1", "speedtest1",
                            SPEEDTEST1 + ["--size", "20"],
                            counted=(SPEEDTEST1 + ["--size", "5"], [])),
    "tcl": TclBench("tcl", TCL_FILES, TCL_COUNTED),
}
