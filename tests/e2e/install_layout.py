#!/usr/bin/env python3
"""The Debian maintainer scripts of examples/golden-install/, run in a
temporary root (DIVCC_ROOT) as dpkg would run them:

  install    postinst configure lays out the package's golden master (built
             by divcc -fdiversify-golden) at /usr/bin/demo: it runs like the
             golden master, differs from it, and the machine's secret is 32
             bytes of mode 0600 in a directory of mode 0700, printed nowhere
  again      postinst again (an upgrade to the same golden master) gives the
             same bytes; another machine id, another layout
  boot       divcc-install-layout boot: another boot id, another layout;
             the same boot id, the same
  verify     the README's check (rerandomize --check) holds, and fails
             (exit 3) for another machine's id
  remove     postrm remove deletes /usr/bin/demo and leaves the golden
             master; purge removes the secret
  errors     no machine id, no golden master: a clear error, exit 1
"""

import os
import shutil
import stat
import subprocess

from divtest import checks
from divtest.tools import ROOT, divcc, divtool_path

EXAMPLE = ROOT / "examples" / "golden-install"

DEMO = r"""
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}
int main(void) {
  int v[16];
  for (int i = 0; i < 16; ++i)
    v[i] = (i * 37) % 17;
  qsort(v, 16, sizeof v[0], cmp);
  for (int i = 0; i < 16; ++i)
    printf("%d ", v[i]);
  printf("\n");
  return 0;
}
"""


def run_script(root, bin_dir, *args, boot_id=None):
    env = dict(os.environ, DIVCC_ROOT=str(root), DIVTOOL=divtool_path(),
               PATH=f"{bin_dir}:{os.environ['PATH']}")
    if boot_id:
        boot = root.parent / "boot_id"
        boot.write_text(boot_id + "\n")
        env["DIVCC_BOOT_ID_FILE"] = str(boot)
    return subprocess.run([str(a) for a in args], env=env, capture_output=True,
                          text=True)


def run_checks(work, check):
    src = work / "demo.c"
    src.write_text(DEMO)
    golden_build = work / "demo"
    p = subprocess.run([divcc(), "-O2", "-fdiversify-golden", "-frandom-seed=demo-build",
                        src, "-o", golden_build], capture_output=True, text=True)
    if not check(p.returncode == 0, "divcc -fdiversify-golden builds the golden master",
                 p.stderr):
        return
    expected = subprocess.run([golden_build], capture_output=True, text=True).stdout

    # The package's files, unpacked into a root; the script on PATH.
    root = work / "root"
    golden = root / "usr/lib/divcc/golden/demo/usr/bin/demo"
    golden.parent.mkdir(parents=True)
    shutil.copy2(golden_build, golden)
    (root / "etc").mkdir()
    (root / "etc/machine-id").write_text("0123456789abcdef0123456789abcdef\n")
    bin_dir = work / "sbin"
    bin_dir.mkdir()
    shutil.copy2(EXAMPLE / "divcc-install-layout", bin_dir)
    installed = root / "usr/bin/demo"
    key = root / "var/lib/divcc/install.key"

    # install
    p = run_script(root, bin_dir, EXAMPLE / "postinst", "configure")
    check(p.returncode == 0 and installed.is_file(),
          "postinst configure lays out /usr/bin/demo", p.stdout + p.stderr)
    if not installed.is_file():
        return
    out = subprocess.run([installed], capture_output=True, text=True).stdout
    check(out == expected, "the installed program prints what the golden master prints",
          out)
    first = installed.read_bytes()
    check(first != golden.read_bytes(), "it is not the golden master")
    check(key.is_file() and len(key.read_bytes()) == 32
          and stat.S_IMODE(key.stat().st_mode) == 0o600
          and stat.S_IMODE(key.parent.stat().st_mode) == 0o700,
          "the machine's secret: 32 bytes, mode 0600, in a directory of mode 0700")
    secret = key.read_bytes()
    check(secret.hex() not in p.stdout + p.stderr and secret not in first,
          "the secret is printed nowhere and is not in the program")

    # again
    p = run_script(root, bin_dir, EXAMPLE / "postinst", "configure")
    check(p.returncode == 0 and installed.read_bytes() == first and key.read_bytes() == secret,
          "postinst again: the same key, the same bytes", p.stderr)
    (root / "etc/machine-id").write_text("fedcba9876543210fedcba9876543210\n")
    p = run_script(root, bin_dir, EXAMPLE / "postinst", "configure")
    other_machine = installed.read_bytes()
    check(p.returncode == 0 and other_machine != first,
          "another machine id, another layout", p.stderr)

    # verify (README)
    p = subprocess.run([divtool_path(), "rerandomize", "--seed-file", key, "--install",
                        "fedcba9876543210fedcba9876543210", golden, "--check", installed],
                       capture_output=True, text=True)
    check(p.returncode == 0 and "byte for byte" in p.stderr,
          "the README's check (rerandomize --check) confirms the installed bytes", p.stderr)
    p = subprocess.run([divtool_path(), "rerandomize", "--seed-file", key, "--install",
                        "0123456789abcdef0123456789abcdef", golden, "--check", installed],
                       capture_output=True, text=True)
    check(p.returncode == 3, "and finds another machine's layout not to be it (exit 3)",
          p.stderr)

    # boot
    p = run_script(root, bin_dir, bin_dir / "divcc-install-layout", "boot", "demo",
                   boot_id="11111111-2222-3333-4444-555555555555")
    boot1 = installed.read_bytes()
    p2 = run_script(root, bin_dir, bin_dir / "divcc-install-layout", "boot", "demo",
                    boot_id="66666666-7777-8888-9999-000000000000")
    boot2 = installed.read_bytes()
    p3 = run_script(root, bin_dir, bin_dir / "divcc-install-layout", "boot", "demo",
                    boot_id="66666666-7777-8888-9999-000000000000")
    check(p.returncode == 0 and p2.returncode == 0 and p3.returncode == 0
          and len({boot1, boot2, other_machine}) == 3 and installed.read_bytes() == boot2,
          "boot mode: each boot id its layout, the same boot id the same bytes",
          p.stderr + p2.stderr + p3.stderr)
    out = subprocess.run([installed], capture_output=True, text=True).stdout
    check(out == expected, "the program laid out at boot prints what the golden master prints")

    # remove, purge
    p = run_script(root, bin_dir, EXAMPLE / "postrm", "remove")
    check(p.returncode == 0 and not installed.exists() and golden.is_file(),
          "postrm remove deletes /usr/bin/demo and leaves the golden master", p.stderr)
    p = run_script(root, bin_dir, bin_dir / "divcc-install-layout", "purge")
    check(p.returncode == 0 and not key.exists(), "purge removes the secret", p.stderr)

    # errors
    (root / "etc/machine-id").write_text("")
    p = run_script(root, bin_dir, EXAMPLE / "postinst", "configure")
    check(p.returncode != 0 and "no machine id" in p.stderr and not installed.exists(),
          "no machine id: a clear error, nothing installed", p.stderr)
    (root / "etc/machine-id").write_text("0123456789abcdef0123456789abcdef\n")
    p = run_script(root, bin_dir, bin_dir / "divcc-install-layout", "install", "nosuch")
    check(p.returncode == 1 and "no golden masters in" in p.stderr,
          "an unknown package: a clear error, exit 1", p.stderr)


def main():
    checks.scenario("install-layout", "install-layout", run_checks)


if __name__ == "__main__":
    main()
