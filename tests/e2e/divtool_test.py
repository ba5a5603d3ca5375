#!/usr/bin/env python3
"""divtool test end to end, on a planted bug: a C program (a Makefile that
uses $(CC), built at -O0) whose read_config() reads an uninitialized local
variable. What it reads is whatever an earlier call left in that stack slot:
prepare() leaves 32 known words there (the stack arguments of a call), so
the program is deterministic, and its output depends on where read_config's
locals sit in its frame.

  reference   clang-19 and divcc -fno-diversify builds print the same line
              and exit 0
  detection   `divtool test --variants 8 --transforms all` with a fixed seed
              file reports the undiversified result, each variant as "same"
              or "differs", at least one differing variant (exit 3), and a
              reproduction line per differing variant; no seed (the seed
              file's bytes, or a variant seed derived here with HKDF-SHA256)
              appears in the output; the reproduction line, run as printed,
              reports the same variant differing
  bisect      `--bisect` names the transformation and the function: "vN
              fails: function 'read_config' breaks under 'frames'", with a
              reproduction line (--transforms frames --functions
              read_config) that fails again when run, and a work-around
              (-fdiversify-skip=frames:read_config) that, given through
              DIVCC_OPTIONS, makes the variant pass
  passing     transformations that cannot move stack slots at -O0 (nops,
              funcs) leave every variant passing: exit 0
  bad input   an unknown transformation, no test command, a non-empty
              --out, a test whose result varies by itself, a build that
              fails: a clear error and exit 1
"""

import re
import shlex
import subprocess

from divtest import checks, hkdf, tools
from divtest.tools import divtool, environment

VARIANTS = 8
SEED = b"divtool test: the planted-bug seed\n"

CONFIG_C = r"""#include <stdio.h>

/* Leaves 32 known words on the stack: the arguments of sink past the sixth
   go to prepare's outgoing-argument area (small constants, stored without
   a register). prepare has no locals of its own, so nothing in its frame
   moves. */
__attribute__((noinline)) long sink(long a1, long a2, long a3, long a4,
                                    long a5, long a6, ...) {
  return a1 + a6;
}

__attribute__((noinline)) long prepare(void) {
  return sink(1, 2, 3, 4, 5, 6,
              0x1001L, 0x1002L, 0x1003L, 0x1004L, 0x1005L, 0x1006L, 0x1007L,
              0x1008L, 0x1009L, 0x100aL, 0x100bL, 0x100cL, 0x100dL, 0x100eL,
              0x100fL, 0x1010L, 0x1011L, 0x1012L, 0x1013L, 0x1014L, 0x1015L,
              0x1016L, 0x1017L, 0x1018L, 0x1019L, 0x101aL, 0x101bL, 0x101cL,
              0x101dL, 0x101eL, 0x101fL, 0x1020L);
}

/* The bug: 'value' is read without having been set unless the name starts
   with 'v', so it holds the word prepare left in its stack slot. */
__attribute__((noinline)) long read_config(const char *name) {
  long value;
  char copy[16];
  int length = 0;
  while (name[length] && length < 15) {
    copy[length] = name[length];
    ++length;
  }
  copy[length] = 0;
  if (copy[0] == 'v')
    value = 1;
  return value + length;
}

int main(void) {
  prepare();
  printf("config value: %ld\n", read_config("quiet"));
  return 0;
}
"""

MAKEFILE = "app: config.c\n\t$(CC) -O0 -o app config.c\n"


def run_line(line, env=None):
    """Runs a reproduction line as printed (its divtool is ours)."""
    words = shlex.split(line)
    assert words[0] == "divtool", line
    return divtool(*words[1:], env=env)


def no_secret(text, check, what):
    secrets = [SEED.decode().strip()]
    for i in range(1, VARIANTS + 1):
        seed = hkdf.variant_seed(SEED, f"v{i:04d}")
        secrets += [seed.hex(), seed.hex().upper()]
    leaked = [s for s in secrets if s in text]
    check(not leaked, f"{what}: no seed in the output", str(leaked))


def check_reference(proj, work, check):
    outputs = []
    plain = tools.divcc(False) + " -fno-diversify"
    for compiler in (tools.clang(False), plain):
        exe = work / "reference-app"
        subprocess.run(shlex.split(compiler) + ["-O0", "-o", str(exe),
                                                str(proj / "config.c")],
                       check=True, env=environment())
        p = subprocess.run([str(exe)], capture_output=True, text=True)
        outputs.append((p.returncode, p.stdout))
    check(outputs[0] == outputs[1] and outputs[0][0] == 0,
          "clang-19 and divcc -fno-diversify builds behave alike and pass",
          str(outputs))
    return outputs[0][1]


def check_detection(proj, seed, check):
    code, out, err = divtool("test", "--variants", VARIANTS, "--seed-file",
                             seed, "--build", "make CC=divcc", "--source",
                             proj, "--transforms", "all", "--", "./app")
    check(code == 3, "divtool test exits 3 when a variant differs",
          f"exit {code}\n{out}\n{err}")
    check("undiversified: exit status 0, 1 line of output" in out,
          "the undiversified result is reported", out)
    verdicts = re.findall(r"^(v\d{4}): (same|differs)", out, re.M)
    check(len(verdicts) == VARIANTS,
          f"each of the {VARIANTS} variants has a verdict", out)
    failing = [v for v, verdict in verdicts if verdict == "differs"]
    check(len(failing) >= 1, "at least one variant breaks the planted bug",
          out)
    check(f"{len(failing)} of {VARIANTS} variants differ" in out,
          "the summary counts the differing variants", out)
    no_secret(out + err, check, "divtool test")
    lines = re.findall(r"^  reproduce: (.*)$", out, re.M)
    check(len(lines) == len(failing), "a reproduction line per failing variant",
          out)
    if not failing or not lines:
        return None
    code, out, err = run_line(lines[0])
    check(code == 3 and re.search(rf"^{failing[0]}: differs", out, re.M),
          f"the reproduction line reports {failing[0]} differing again",
          f"{lines[0]}\nexit {code}\n{out}\n{err}")
    return failing[0]


def check_bisect(proj, seed, variant, check):
    code, out, err = divtool("test", "--only", variant, "--bisect",
                             "--seed-file", seed, "--build", "make CC=divcc",
                             "--source", proj, "--transforms", "all", "--",
                             "./app")
    verdict = f"{variant} fails: function 'read_config' breaks under 'frames'"
    check(code == 3 and verdict in out,
          "--bisect names the transformation and the function",
          f"exit {code}\n{out}\n{err}")
    no_secret(out + err, check, "divtool test --bisect")
    repro = re.search(r"^  reproduce: (.*--transforms frames .*"
                      r"--functions read_config.*)$", out, re.M)
    check(repro is not None, "the bisection prints a narrowed reproduction",
          out)
    if repro:
        code, out2, err2 = run_line(repro.group(1))
        check(code == 3 and f"{variant}: differs" in out2,
              "the narrowed reproduction fails again",
              f"exit {code}\n{out2}\n{err2}")
    check("work around: build with -fdiversify-skip=frames:read_config" in out,
          "the bisection suggests the work-around", out)
    code, out, err = divtool(
        "test", "--only", variant, "--seed-file", seed, "--build",
        "make CC=divcc", "--source", proj, "--transforms", "all", "--",
        "./app",
        env=environment(DIVCC_OPTIONS="-fdiversify-skip=frames:read_config"))
    check(code == 0 and f"{variant}: same" in out,
          "with the work-around in DIVCC_OPTIONS the variant passes",
          f"exit {code}\n{out}\n{err}")


def check_passing(proj, seed, check):
    code, out, err = divtool("test", "--variants", 3, "--seed-file", seed,
                             "--build", "make CC=divcc", "--source", proj,
                             "--transforms", "nops,funcs", "--", "./app")
    check(code == 0 and "0 of 3 variants differ" in out,
          "variants that cannot move the slot all pass: exit 0",
          f"exit {code}\n{out}\n{err}")


def check_bad_input(proj, seed, work, check):
    base = ["--seed-file", seed, "--source", proj, "--build", "make CC=divcc"]
    code, _, err = divtool("test", "--variants", 1, *base, "--transforms",
                           "regs,bogus", "--", "./app")
    check(code == 1 and "unknown transformation 'bogus'" in err,
          "an unknown transformation: error, exit 1", err)
    code, _, err = divtool("test", "--variants", 1, *base)
    check(code == 1 and "no test command" in err,
          "no test command: error, exit 1", err)
    busy = work / "busy"
    busy.mkdir()
    (busy / "file").write_text("x")
    code, _, err = divtool("test", "--variants", 1, *base, "--out", busy,
                           "--", "./app")
    check(code == 1 and "is not empty" in err,
          "a non-empty --out: error, exit 1", err)
    code, _, err = divtool("test", "--variants", 1, *base, "--", "sh", "-c",
                           "date +%N")
    check(code == 1 and "different results on the same undiversified build"
          in err, "a test that varies by itself: error, exit 1", err)
    code, _, err = divtool("test", "--variants", 1, "--seed-file", seed,
                           "--source", proj, "--build", "false", "--",
                           "./app")
    check(code == 1 and
          "the build of the project without diversity failed" in err,
          "an undiversified build that fails: error, exit 1", err)


def run_checks(work, check):
    proj = work / "proj"
    proj.mkdir()
    (proj / "config.c").write_text(CONFIG_C)
    (proj / "Makefile").write_text(MAKEFILE)
    seed = work / "master.key"
    seed.write_bytes(SEED)
    check_reference(proj, work, check)
    variant = check_detection(proj, seed, check)
    if variant:
        check_bisect(proj, seed, variant, check)
    check_passing(proj, seed, check)
    check_bad_input(proj, seed, work, check)


def main():
    checks.scenario("divtool test", "divtool-test", run_checks)

if __name__ == "__main__":
    main()
