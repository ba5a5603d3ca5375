#!/usr/bin/env bash
# Installs everything divcc needs to build and test, from Debian 12's
# archive. Safe to run again: it installs only what is missing.
set -euo pipefail

packages=(
  # building divcc
  cmake ninja-build g++ pkg-config
  llvm-19-dev libclang-19-dev libclang-cpp19-dev libssl-dev
  # libgcc's soft-float sources, which `softfp` compiles diversified copies
  # of (runtime/CMakeLists.txt)
  gcc-12-source
  # the linker plugin interface's header (plugin-api.h) for divcc-ld-plugin
  binutils-dev
  # libraries LLVM's CMake package looks for
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev
  # divtool's command line and JSON output
  libcli11-dev nlohmann-json3-dev
  libboost-math-dev # divtool perf's Student's t (Boost.Math, header-only)
  # divtool population's registry of variants (SQLite's C API)
  libsqlite3-dev
  # what divcc runs: clang-19's front end, optimizer and linker driver, lld
  clang-19 lld-19
  # what divtool rerandomize runs: LLVM BOLT lays out a golden master again
  bolt-19
  # the manual pages, made from the programs' own --help (man/)
  help2man
  # tests: GoogleTest, lit and FileCheck, binutils for inspecting objects
  libgtest-dev llvm-19-tools python3 binutils make autoconf automake libtool
  # tests of divtool audit: an independent gadget finder and ROP chain
  # builder, and a browser to render the HTML report
  python3-ropgadget chromium
  # differential fuzzing (tests/fuzz/): csmith generates random C programs
  # (its runtime headers are in libcsmith-dev), cvise reduces mismatching ones,
  # clang's sanitizer runtimes check them for undefined behaviour
  csmith libcsmith-dev cvise libclang-rt-19-dev
  # compile farms (tests/e2e/distcc.py): distcc and its daemon
  distcc
  # compiler caches in front of divcc (tests/lit/driver/ccache.test,
  # sccache.test)
  ccache sccache
  # tests that count the processes divcc starts (tests/lit/driver/in-process.test)
  strace
  # bench/compile_time.py --instructions counts instructions with callgrind
  valgrind
  # bench/workloads.py's speedtest1: SQLite's build makes its amalgamation
  # with tclsh
  tcl
  # tests/debian/rebuild.py: dpkg-buildpackage, dpkg-source (apt-get source)
  # and dpkg-buildflags rebuild Debian source packages with divcc; fakeroot
  # for builds by a user other than root
  dpkg-dev fakeroot
  # divcc's own Debian package (debian/, tests/debian/package.py)
  debhelper
  # debug information kept by divtool population: eu-stack and
  # debuginfod-find read it, debuginfod serves it (tests/e2e/debuginfod.py)
  elfutils debuginfod
  # AArch64: Debian's cross C and C++ libraries to link against, and
  # qemu-user to run the results (tests/e2e/cross.py aarch64, tests/lit/aarch64/)
  libc6-dev-arm64-cross libgcc-12-dev-arm64-cross libstdc++-12-dev-arm64-cross
  qemu-user
  # RISC-V 64: the same (tests/e2e/cross.py riscv64, tests/lit/riscv64/)
  libc6-dev-riscv64-cross libgcc-12-dev-riscv64-cross libstdc++-12-dev-riscv64-cross
  # 32-bit ARM (armhf): the same (tests/e2e/cross.py armhf, tests/lit/arm/)
  libc6-dev-armhf-cross libgcc-12-dev-armhf-cross libstdc++-12-dev-armhf-cross
  # GNU ld for each of them, the linker Debian's cross toolchains use:
  # `offset` moves the start files and the PLT under it as under lld
  # (tests/lit/transforms/offset-gnu-ld.test, tests/e2e/audit.py)
  binutils-aarch64-linux-gnu binutils-riscv64-linux-gnu binutils-arm-linux-gnueabihf
)

# The real-world tests fetch their sources with npm pack; a machine without
# Node.js gets Debian's npm.
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "divcc: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "divcc: error: packages are missing and this is not root; run as root or install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
