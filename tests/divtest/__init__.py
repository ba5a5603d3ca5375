"""divtest: what divcc's test and benchmark scripts share.

The scripts under tests/ and bench/ import it as a package, with tests/ on
Python's path: ctest sets PYTHONPATH (tests/CMakeLists.txt, the lit
configuration and tests/unit/CompareStreamReference.cmake); by hand, from
the repository's root:

    PYTHONPATH=tests python3 tests/e2e/correctness.py --transforms nops
    PYTHONPATH=tests python3 bench/compile_time.py

(`export PYTHONPATH=$PWD/tests` once serves a whole shell session.)

Modules, each to be imported as `from divtest import NAME`:

  tools           where divcc, div++, divtool and clang-19 are
                  (DIVCC_BUILD_DIR, DIVCC_TEST_CLANG), running commands,
                  divtool with a clean environment, the transformations
  corpus          the test corpus (tests/corpus/): its programs, building
                  and running them, checking them all in parallel
  checks          counting checks and the closing "N passed, M failed"
                  line of a test script; work folders
  hkdf            divcc's seed derivation (HKDF-SHA256, random/SecretSeed.cpp)
                  written again from the RFC, to check divcc against
  elf             what the checks read in ELF files: sections, code bytes,
                  build ids
  sample_project  the generated multi-file C project the divtool
                  population tests and benchmarks build
  projects        the real-world projects' recipes (tests/real-world/)
  fuzz            what the Csmith fuzzer, its interestingness test and the
                  regression runner share (tests/fuzz/)
  bench           what the benchmarks share (bench/): logging, timing,
                  cachegrind counts and estimated cycles, statistics over
                  variants, interleaved rounds, Markdown tables
  longrun         progress lines and the closing report of the long runs
                  (real-world projects, Debian packages)

Python 3 standard library only.
"""
