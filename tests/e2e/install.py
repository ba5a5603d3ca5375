#!/usr/bin/env python3
"""divcc installed as a user or a distribution installs it: `cmake --install`
of the build into a temporary prefix, then the installed programs alone.

  files      bin/divcc, bin/div++ (a link), bin/divtool, lib/divcc/'s
             plugins (lld's pass plugin, GNU ld's linker plugin), a manual page for divcc, div++, divtool and each of
             divtool's subcommands (every subcommand `divtool --help` lists),
             the docs
  manual     divcc(1) holds every option `divcc --help` lists, and each
             divtool-SUB(1) the options of `divtool SUB --help`: made from
             them, they cannot drift
  lto        the installed divcc links -flto=thin and -flto programs, through
             lld and through GNU ld, with -fno-diversify byte-identical to
             clang-19 with the same linker, and diversified ones (two seeds)
             that run like clang-19's and differ
  plugin     with a plugin removed from the prefix, an LTO link that needs
             it is a clear error naming it, exit 1, no output (never a
             quiet link that generates other code)
"""

import re
import subprocess

from divtest import checks
from divtest.tools import CLANG, build_dir, environment

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
int table[64];
static int mix(int x) { return (x * 2654435761u) >> 7; }
__attribute__((noinline)) int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += table[i % 64] ^ mix(i);
  return s;
}
int main(int argc, char **argv) {
  for (int i = 0; i < 64; ++i)
    table[i] = mix(i + argc);
  printf("%d\n", sum(1000));
  return 0;
}
"""


def run(cmd, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          **kw)


def man_text(page):
    """A manual page's words, roff's font changes and escapes taken out."""
    text = re.sub(r"\\f[BIRP]", "", page.read_text())
    return text.replace("\\-", "-").replace("\\", "")


def options_of(help_text):
    """The long options (-fx, --x) a --help text lists at a line's start."""
    return set(re.findall(r"^\s+(?:-\w,)?(--?[a-z][\w-]*=?)", help_text,
                          re.MULTILINE))


def run_checks(work, check):
    prefix = work / "prefix"
    p = run(["cmake", "--install", build_dir(), "--prefix", prefix])
    if not check(p.returncode == 0, "cmake --install into a temporary prefix",
                 p.stdout + p.stderr):
        return
    divcc, divxx, divtool = (prefix / "bin" / n for n in ("divcc", "div++", "divtool"))
    plugin = prefix / "lib/divcc/divcc-lto-plugin.so"
    ld_plugin = prefix / "lib/divcc/divcc-ld-plugin.so"
    man = prefix / "share/man/man1"
    subcommands = re.findall(r"^  (\w+)\s{2,}", run([divtool, "--help"]).stdout,
                             re.MULTILINE)
    pages = ["divcc.1", "div++.1", "divtool.1"] + [f"divtool-{s}.1" for s in subcommands]
    missing = [str(f) for f in [divcc, divtool, plugin, ld_plugin,
                                prefix / "share/doc/divcc/README.md",
                                prefix / "share/doc/divcc/manual.md"]
               + [man / p for p in pages] if not f.exists()]
    check(divxx.is_symlink() and not missing and len(subcommands) >= 9,
          "the programs, the plugins, a manual page each (divtool: "
          f"{len(subcommands)} subcommands), the docs", f"missing: {missing}")

    # The pages are made from --help.
    lost = options_of(run([divcc, "--help"]).stdout) - set(
        re.findall(r"--?[a-z][\w-]*=?", man_text(man / "divcc.1")))
    check(not lost and "-fdiversify-nop-max=" in man_text(man / "divcc.1"),
          "divcc(1) holds every option of divcc --help", f"not in it: {lost}")
    for sub in subcommands:
        page = man / f"divtool-{sub}.1"
        if not page.exists():
            continue
        lost = options_of(run([divtool, sub, "--help"]).stdout) - set(
            re.findall(r"--?[a-z][\w-]*=?", man_text(page)))
        check(not lost, f"divtool-{sub}(1) holds every option of divtool {sub} --help",
              f"not in it: {lost}")

    # LTO from the installed divcc.
    src = work / "prog.c"
    src.write_text(PROGRAM)
    env = environment()
    env["PATH"] = f"{prefix / 'bin'}:{env['PATH']}"
    for linker in ("lld", "bfd"):
        for lto in ("-flto=thin", "-flto"):
            tag = f"{lto} -fuse-ld={linker}"
            flags = ["-O2", lto, f"-fuse-ld={linker}"]
            ref = work / f"clang{lto}.{linker}"
            plain = work / f"plain{lto}.{linker}"
            p1 = run([CLANG, *flags, src, "-o", ref])
            p2 = run([divcc, *flags, "-fno-diversify", src, "-o", plain], env=env)
            check(p1.returncode == 0 and p2.returncode == 0 and ref.exists()
                  and plain.exists() and ref.read_bytes() == plain.read_bytes(),
                  f"{tag} -fno-diversify from the installed divcc: byte-identical "
                  f"to clang-19 + {linker}", p1.stderr + p2.stderr)
            expected = run([ref]).stdout if ref.exists() else None
            variants = []
            for seed in ("install-a", "install-b"):
                out = work / f"{seed}{lto}.{linker}"
                p = run([divcc, *flags, f"-frandom-seed={seed}", src, "-o", out],
                        env=env)
                ran = run([out]).stdout if p.returncode == 0 else None
                check(p.returncode == 0 and ran == expected,
                      f"{tag} diversified ({seed}) by the installed divcc runs like "
                      "clang-19's build", p.stderr)
                variants.append(out.read_bytes() if out.exists() else b"")
            check(variants[0] != variants[1], f"{tag}: two seeds, two programs")

    # Without a plugin: the links that need it fail, naming it.
    for removed, linker in ((ld_plugin, "bfd"), (plugin, "lld")):
        removed.unlink()
        out = work / f"no-plugin.{linker}"
        p = run([divcc, "-O2", "-flto", f"-fuse-ld={linker}",
                 "-frandom-seed=install-a", src, "-o", out], env=env)
        check(p.returncode == 1
              and f"divcc: error: divcc's {removed.name} is missing" in p.stderr
              and str(removed) in p.stderr and not out.exists(),
              f"without {removed.name}, an LTO link through {linker} is a clear "
              "error naming it, exit 1, no output", p.stderr)


def main():
    checks.scenario("install", "install", run_checks)


if __name__ == "__main__":
    main()
