#!/usr/bin/env python3
"""divtool population's kept debug information, end to end:

  kept        a population of 2 variants of the sample C project
              (divtest/sample_project.py, make CC=divcc), with debug
              information kept by default: the registry says so,
              ship/ID/app is stripped, and
              DIR/.build-id/XX/REST.debug holds the debug information of
              its build id; verify rebuilds a variant byte for byte (-g
              included); no seed is in a debug file
  symbolize   a crash address in the stripped shipped variant gives
              fail_hard at errors.c:LINE without rebuilding: from the
              variant's tree, and once the trees are removed, from the kept
              debug file; gdb, given only the population's directory as its
              debug-file-directory, reads the same line
  debuginfod  debuginfod, started on a loopback port over DIR/.build-id,
              serves a variant's debug file to debuginfod-find by build id,
              byte for byte the kept file
  -g changes  a population built with --no-keep-debug of a C++ program
              whose code clang-19's -g changes (tests/corpus/
              cpp_lambdas_function.cpp) plus the crashing C file: the crash
              address gives function, file and line ("regenerated"), and an
              address in the function -g changes gives the function only,
              said on stderr
"""

import os
import re
import shutil
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

from divtest import checks, corpus, elf, hkdf, sample_project
from divtest.tools import divtool, free_port


def crash_address(binary):
    """The address of fail_hard's call to report_site in a running variant."""
    return sample_project.crash(binary)[1]


def check_kept(work, key, check):
    pop = work / "pop"
    code, out, err = divtool("population", "--count", 2, "-j", 2, "--out", pop,
                             "--seed-file", key, "--source", work / "proj", "--",
                             "make", "CC=divcc")
    if not check(code == 0, "population (debug information kept by default) exits 0",
                 err):
        return None
    db = sqlite3.connect(f"file:{pop / 'registry.sqlite'}?mode=ro", uri=True)
    rows = db.execute("SELECT id, debug_info FROM variants ORDER BY number").fetchall()
    schema = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    db.close()
    check(rows == [("v0001", "kept"), ("v0002", "kept")] and schema == ("3",),
          "the registry records the kept debug information", f"{rows} {schema}")

    ship = pop / "ship" / "v0001" / "app"
    bid = elf.build_id(ship)
    debug = pop / ".build-id" / bid[:2] / (bid[2:] + ".debug")
    sections = list(elf.sections(ship)) if ship.exists() else []
    check(ship.exists() and ".debug_info" not in sections and ".symtab" not in sections,
          "the shipped binary is stripped", str(sections))
    dsections = list(elf.sections(debug)) if debug.exists() else []
    check(len(bid) == 40 and debug.exists() and ".debug_line" in dsections
          and elf.build_id(debug) == bid,
          f"DIR/.build-id/{bid[:2]}/{bid[2:8]}....debug holds its debug information",
          f"{bid} {dsections}")

    secret = key.read_bytes()
    secrets = [secret] + [hkdf.variant_seed(secret, v) for v, _ in rows]
    files = list(pop.glob(".build-id/*/*.debug"))
    leaked = [str(f) for f in files for s in secrets
              if s in f.read_bytes() or s.hex().encode() in f.read_bytes()]
    check(len(files) == 2 and not leaked, "no seed in the debug files",
          f"{files} {leaked}")

    code, out, err = divtool("verify", "-r", pop / "registry.sqlite", "-k", key, ship)
    check(code == 0 and "verified: v0001" in out,
          "verify: v0001 rebuilt with its -g is byte-identical", out + err)

    address = crash_address(ship)
    line = sample_project.crash_line()
    expected = re.compile(rf"^{address}\nfail_hard\nerrors\.c:{line}:\d+\n", re.M)

    def symbolize():
        return divtool("symbolize", "-r", pop / "registry.sqlite", "-k", key,
                       "--variant", "v0001", ship, address or "0")
    code, out, err = symbolize()
    check(address and code == 0 and expected.search(out) and "as built" in err
          and "rebuilding" not in err,
          f"symbolize: the stripped variant's crash address is fail_hard at "
          f"errors.c:{line}, from the tree as built", out + err)
    # The trees go; the kept debug information stays.
    shutil.rmtree(pop / "variants")
    code, out, err = symbolize()
    check(address and code == 0 and expected.search(out)
          and "kept debug information" in err and "rebuilding" not in err,
          f"symbolize: without the trees, the crash address is fail_hard at "
          f"errors.c:{line}, from the kept debug file", out + err)

    gdb = shutil.which("gdb")
    if gdb:
        p = subprocess.run([gdb, "-nx", "-batch", "-iex",
                            f"set debug-file-directory {pop}", "-ex",
                            f"info line *{address}", str(ship)],
                           capture_output=True, text=True, timeout=120)
        check(re.search(rf'Line {line} of "errors\.c"', p.stdout),
              "gdb finds the kept debug information by build id", p.stdout + p.stderr)
    return pop, bid, debug


def check_debuginfod(work, pop, bid, debug, check):
    port = free_port()
    log = open(work / "debuginfod.log", "w")
    server = subprocess.Popen(
        ["debuginfod", "-p", str(port), "-d", str(work / "debuginfod.sqlite"),
         "-t", "0", "-g", "0", "-F", str(pop / ".build-id")],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        env = dict(os.environ)
        env["DEBUGINFOD_URLS"] = f"http://127.0.0.1:{port}"
        env["DEBUGINFOD_CACHE_PATH"] = str(work / "debuginfod-cache")
        env["DEBUGINFOD_TIMEOUT"] = "10"
        fetched, answer = None, ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            # Until the first scan has indexed the files.
            try:
                with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
                    metrics = r.read().decode()
            except OSError:
                metrics = ""
            if re.search(r'thread_work_pending\{role="scan"\} 0', metrics) and \
                    re.search(r'scanned_files_total\{source="file"\} [1-9]', metrics):
                p = subprocess.run(["debuginfod-find", "debuginfo", bid],
                                   capture_output=True, text=True, env=env,
                                   timeout=60)
                answer = p.stdout + p.stderr
                if p.returncode == 0:
                    fetched = Path(p.stdout.strip())
                break
            time.sleep(0.3)
        check(fetched is not None and fetched.read_bytes() == debug.read_bytes(),
              "debuginfod serves the kept debug file, byte for byte, by build id",
              answer + (work / "debuginfod.log").read_text()[-2000:])
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def check_regenerated(work, key, check):
    """A project whose code clang-19's -g changes, built without -g."""
    proj = work / "lambdas"
    proj.mkdir()
    shutil.copy(corpus.CORPUS / "cpp_lambdas_function.cpp", proj / "lambdas.cpp")
    (proj / "crash.c").write_text(sample_project.ERRORS_C.replace(
        '#include "app.h"\n',
        "void report_site(void);\n") + """
#include <stdint.h>
extern char __ehdr_start;
__attribute__((noinline)) void report_site(void) {
  uintptr_t ret = (uintptr_t)__builtin_return_address(0);
  printf("crash-site 0x%lx\\n", (unsigned long)(ret - (uintptr_t)&__ehdr_start));
  fflush(stdout);
}
int crash_main(int argc) {
  if (argc > 1)
    fail_hard("asked to crash");
  return 0;
}
""")
    (proj / "Makefile").write_text(
        "app: lambdas.o crash.o\n"
        "\t$(CXX) -O2 -o $@ lambdas.o crash.o\n"
        "lambdas.o: lambdas.cpp\n"
        "\t$(CXX) -O2 -c -include entry.h -Dmain=lambdas_main lambdas.cpp\n"
        "crash.o: crash.c\n"
        "\t$(CC) -O2 -c crash.c\n")
    # The corpus program's main, renamed, runs unless asked to crash.
    (proj / "entry.h").write_text('extern "C" int lambdas_main();\n')
    (proj / "crash.c").write_text((proj / "crash.c").read_text() + """
int lambdas_main(void);
int main(int argc, char **argv) {
  (void)argv;
  crash_main(argc);
  return lambdas_main();
}
""")
    pop = work / "pop-g"
    code, out, err = divtool("population", "--count", 1, "--no-keep-debug", "--out",
                             pop, "-k", key, "--source", proj, "--", "make",
                             "CC=divcc", "CXX=div++")
    if not check(code == 0 and not (pop / ".build-id").exists(),
                 "population --no-keep-debug keeps no debug information", err):
        return
    app = pop / "variants" / "v0001" / "tree" / "app"
    stripped = work / "shipped-lambdas"
    shutil.copy(app, stripped)
    subprocess.run(["strip", str(stripped)], check=True)
    address = crash_address(stripped)
    nm = subprocess.run(["nm", str(app)], capture_output=True, text=True).stdout
    changed = re.search(r"^([0-9a-f]+) \w (_ZNSt8_Rb_tree\S*_M_emplace_hint_unique\S*)$",
                        nm, re.M)
    inside = hex(int(changed.group(1), 16) + 8) if changed else "0"
    line = sample_project.crash_line()
    code, out, err = divtool("symbolize", "-r", pop / "registry.sqlite", "-k", key,
                             "--variant", "v0001", stripped, address or "0", inside)
    check(address and code == 0
          and re.search(rf"^{address}\nfail_hard\ncrash\.c:{line}:\d+\n", out, re.M)
          and "rebuilding without it" in err,
          f"symbolize, regenerated where -g changes some code: the crash address "
          f"is fail_hard at crash.c:{line}", out + err)
    check(changed and re.search(rf"^{inside}\n.*_M_emplace_hint_unique.*\n\?\?:0:0\n",
                                out, re.M)
          and f"{inside}: regenerated, function only" in err,
          "symbolize: in the function -g changes, the function only, said on stderr",
          out + err)


def run_checks(work, check):
    sample_project.write_project(work / "proj", functions_per_file=8)
    key = work / "master.key"
    key.write_bytes(os.urandom(32))
    kept = check_kept(work, key, check)
    if kept:
        check_debuginfod(work, *kept, check)
    check_regenerated(work, key, check)


def main():
    checks.scenario("debuginfod", "debuginfod", run_checks)

if __name__ == "__main__":
    main()
