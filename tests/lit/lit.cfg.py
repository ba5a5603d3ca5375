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

# Before %divcc, which is a prefix of it.
config.substitutions.append(("%divcc-llc", os.path.join(config.divcc_build_dir, "bin", "divcc-llc")))
config.substitutions.append(("%divcc", os.path.join(config.divcc_build_dir, "divcc")))
config.substitutions.append(("%divxx", os.path.join(config.divcc_build_dir, "div++")))
config.substitutions.append(("%divtool", os.path.join(config.divcc_build_dir, "divtool")))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
# A seed in the environment would change every test's output.
config.environment.pop("DIVCC_SEED_FILE", None)
# Python scripts of the tests import the helpers of tests/divtest.
config.environment["PYTHONPATH"] = os.path.dirname(config.test_source_root)

# AArch64: tests that only compile need nothing beyond LLVM; tests that link
# and run AArch64 programs need the Debian cross libraries and qemu-user,
# and are UNSUPPORTED without them (REQUIRES: aarch64-run).
aarch64_sysroot = "/usr/aarch64-linux-gnu"
qemu_aarch64 = shutil.which("qemu-aarch64")
if qemu_aarch64 and os.path.exists(os.path.join(aarch64_sysroot, "lib", "libc.so.6")):
    config.available_features.add("aarch64-run")
config.substitutions.append(
    ("%qemu-aarch64", "%s -L %s" % (qemu_aarch64 or "qemu-aarch64", aarch64_sysroot)))

# Compiler caches that run divcc (tests/lit/driver/ccache.test).
for cache in ("ccache", "sccache"):
    if shutil.which(cache):
        config.available_features.add(cache)
