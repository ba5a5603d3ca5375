#!/usr/bin/env bash
# Installs what is needed, builds divcc and runs every test: unit tests,
# lit tests and the end-to-end checks (parity with clang-19, correctness of
# diversified programs, reproducibility, secrecy of the seed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIVCC_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j"$(nproc)" "$@"
