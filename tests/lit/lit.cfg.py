# lit configuration for divcc's compiler tests: one feature per file, RUN
# lines that call divcc and clang-19, FileCheck for the output.
import os
import lit.formats
import shutil

config.name = "divcc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".ll", ".s", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.divcc_build_dir, "tests", "lit")

# The programs under test: the build's, or with DIVCC_INSTALL_PREFIX an
# installed divcc's (PREFIX/bin; divcc-llc, which is not installed, stays
# the build's). tests/debian/package.py runs tests against the package.
programs = config.divcc_build_dir
if os.environ.get("DIVCC_INSTALL_PREFIX"):
    programs = os.path.join(os.environ["DIVCC_INSTALL_PREFIX"], "bin")
# Before %divcc, which is a prefix of them.
plugins = os.path.join(os.environ["DIVCC_INSTALL_PREFIX"], "lib", "divcc") \
    if os.environ.get("DIVCC_INSTALL_PREFIX") else config.divcc_build_dir
config.substitutions.append(("%divcc_ld_plugin", os.path.join(plugins, "divcc-ld-plugin.so")))
config.substitutions.append(("%divcc-llc", os.path.join(config.divcc_build_dir, "bin", "divcc-llc")))
config.substitutions.append(("%divcc", os.path.join(programs, "divcc")))
config.substitutions.append(("%divxx", os.path.join(programs, "div++")))
config.substitutions.append(("%divtool", os.path.join(programs, "divtool")))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
# A seed in the environment would change every test's output.
config.environment.pop("DIVCC_SEED_FILE", None)
# Python scripts of the tests import the helpers of tests/divtest. lit 19
# runs its builtin diff and cat out of process with PYTHONPATH set to its
# own folder, for the rest of the test: a script that imports divtest runs
# before the test's first diff or cat.
config.environment["PYTHONPATH"] = os.path.dirname(config.test_source_root)

# AArch64, RISC-V 64 and 32-bit ARM (armhf): tests that only compile need
# nothing beyond LLVM; tests that link and run their programs need the
# Debian cross libraries and qemu-user, and are UNSUPPORTED without them
# (REQUIRES: aarch64-run, riscv64-run, armhf-run).
for name, triple, qemu_name in (
        ("aarch64", "aarch64-linux-gnu", "qemu-aarch64"),
        ("riscv64", "riscv64-linux-gnu", "qemu-riscv64"),
        ("armhf", "arm-linux-gnueabihf", "qemu-arm")):
    sysroot = "/usr/" + triple
    qemu = shutil.which(qemu_name)
    if qemu and os.path.exists(os.path.join(sysroot, "lib", "libc.so.6")):
        config.available_features.add(name + "-run")
    config.substitutions.append(
        ("%qemu-" + name, "%s -L %s" % (qemu or qemu_name, sysroot)))
# Without binutils for AArch64, clang links for it with the host's ld,
# which cannot (tests/lit/aarch64/cross-link.c). With binutils for every
# cross target, GNU ld links for each (tests/lit/transforms/offset-gnu-ld.test).
if not shutil.which("aarch64-linux-gnu-ld"):
    config.available_features.add("no-aarch64-binutils")
if all(shutil.which(t + "-ld.bfd") for t in
       ("aarch64-linux-gnu", "riscv64-linux-gnu", "arm-linux-gnueabihf")):
    config.available_features.add("cross-binutils")

# Compiler caches that run divcc (tests/lit/driver/ccache.test).
for cache in ("ccache", "sccache"):
    if shutil.which(cache):
        config.available_features.add(cache)
