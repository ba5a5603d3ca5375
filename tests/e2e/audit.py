#!/usr/bin/env python3
"""divtool audit end to end, on a sample program from the corpus
(tests/corpus/cpp_containers.cpp):

  gadget count  divtool's unique ret-gadgets of a clang-19 build agree with
                ROPgadget's (ROPgadget --depth 10 = divtool --reach 9) within
                10%;
  survival      a clang-19 baseline and 5 variants built with divcc's default
                transformations: under 2% of the baseline's gadgets survive in
                each variant (what survives is the C runtime's start code
                before .init's padding);
  exploit       ROPgadget builds an execve ROP chain for one statically linked
                variant; the chain is broken in each of 4 others. Static
                binaries carry library code that divcc did not compile, so the
                variants add link-time shuffling (-fdiversify=default,link),
                which moves that code as well.
"""

import json
import re
import sys
import tempfile
from pathlib import Path

from divtest import corpus, tools

SAMPLE = corpus.CORPUS / "cpp_containers.cpp"
FLAGS = ["-O2", "-std=c++17"]
SEEDS = [f"-frandom-seed=audit-{i}" for i in range(1, 6)]


def audit(*args):
    return json.loads(tools.check([tools.divtool_path(), "audit", "--json",
                                   *map(str, args)]))


def check_gadget_count(work, failures):
    binary = work / "clang-build"
    tools.check([tools.clang(True), *FLAGS, str(SAMPLE), "-o", str(binary)])
    out = tools.check(["ROPgadget", "--binary", str(binary), "--nojop", "--nosys",
                       "--depth", "10"]).decode()
    theirs = int(re.search(r"Unique gadgets found: (\d+)", out).group(1))
    ours = audit("--depth", 64, "--reach", 9, "--no-functions",
                 binary, binary)["base"]["unique_by_kind"]["ret"]
    deviation = abs(ours - theirs) / theirs
    print(f"unique ret-gadgets: divtool {ours}, ROPgadget {theirs} "
          f"({deviation:.1%} apart)")
    if deviation > 0.10:
        failures.append(f"divtool counts {ours} unique ret-gadgets, ROPgadget "
                        f"{theirs}: more than 10% apart")


def check_survival(work, failures):
    base = work / "baseline"
    tools.check([tools.clang(True), *FLAGS, str(SAMPLE), "-o", str(base)])
    variants = []
    for i, seed in enumerate(SEEDS, 1):
        variants.append(work / f"variant-{i}")
        tools.check([tools.divcc(True), *FLAGS, seed, str(SAMPLE),
                     "-o", str(variants[-1])])
    report = audit(base, *variants)
    print(f"baseline: {report['base']['gadgets']} gadgets")
    for v in report["variants"]:
        print(f"  {Path(v['path']).name}: {v['surviving']} surviving "
              f"({v['survival']:.2%})")
        if v["survival"] >= 0.02:
            failures.append(f"{v['path']}: {v['survival']:.2%} of the "
                            "baseline's gadgets survive (limit 2%)")


def check_chain(work, failures):
    variants = []
    for i, seed in enumerate(SEEDS, 1):
        variants.append(work / f"static-{i}")
        tools.check([tools.divcc(True), *FLAGS, "-static", "-fdiversify=default,link",
                     seed, str(SAMPLE), "-o", str(variants[-1])])
    report = audit("--chain", "--no-functions", *variants)
    chain = report["chain"]
    print(f"ROP chain for {variants[0].name}: {len(chain['gadgets'])} gadget "
          "addresses")
    if not chain["complete"] or len(chain["gadgets"]) < 5:
        failures.append("ROPgadget built no complete chain for the static sample")
        return
    for v in report["variants"]:
        print(f"  {Path(v['path']).name}: {v['chain_intact']} of "
              f"{len(chain['gadgets'])} chain gadgets intact")
        if v["chain_intact"] == len(chain["gadgets"]):
            failures.append(f"the chain built for {variants[0].name} works "
                            f"unchanged against {v['path']}")
    if chain["variants_with_chain_intact"] != 0:
        failures.append("divtool reports chains surviving")
    # The check can fail: against itself the chain is intact.
    same = audit("--chain", "--no-functions", variants[0], variants[0])
    if same["chain"]["variants_with_chain_intact"] != 1:
        failures.append("the chain is not intact in an identical copy")


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="divcc-audit-") as tmp:
        work = Path(tmp)
        check_gadget_count(work, failures)
        check_survival(work, failures)
        check_chain(work, failures)
    for f in failures:
        print(f"FAIL: {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
