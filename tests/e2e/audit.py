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
  relative      for the same baseline and variants, relative survival (same
                bytes at the same offset in the function of the same name) is
                reported per variant and for the population, counts the
                baseline's gadgets inside functions, and is at least the
                absolute survival; it agrees with an independent computation
                from ROPgadget's gadget list (--all --dump --nojop: every
                address, with its bytes) and `nm -S --defined-only` of the
                baseline and each variant within 2.5 points (see TOLERANCE);
  32-bit ARM    the same program built by clang-19 for armhf, in Thumb
                (-mthumb, Debian's default) and in ARM state: every gadget
                ROPgadget finds (ROPgadget --thumb / ARM mode, --depth 10)
                that ends in bx or blx through a register or in pop/ldm into
                pc and has no branch inside, divtool finds too (at least
                90% of them; divtool --reach 18 in Thumb, 36 in ARM state:
                ROPgadget's depth counts instructions of 2 or 4 bytes
                there). Counts are printed, not compared: ROPgadget 7.2
                decodes a binary in one instruction set (ignoring the
                mapping symbols; Debian's start files are Thumb), keeps
                branches inside ARM gadgets, and in Thumb looks only for
                the 16-bit endings;
  cross survival  for armhf (Thumb), armhf-arm (ARM state), riscv64 and
                aarch64, linked by lld and by GNU ld, the sample program
                and a 10-line C program
                (TEN_LINES): a clang-19 baseline and 5 variants of the
                default set. Under 2% of the baseline's gadgets survive in
                each variant; between the variants, under 0.5% survive at
                the same address on average over the pairs (under 1% in
                any pair: lone `ret`s meet by chance, see BETWEEN_LIMIT),
                and none outside the functions (the PLT,
                the C runtime's start files and, under GNU ld, the headers
                before them, which divcc does not compile: AArch64 and
                RISC-V PLT stubs all end in the same instruction and line
                up whenever two variants' PLTs overlap). Relative survival
                between the sample's variants (the mean over the pairs) is
                under its budget, 2% on x86-64 and 5% on AArch64,
                RISC-V and in Thumb (RELATIVE_BUDGET); in ARM state (5%),
                over its budget, it is printed. The 10-line program's
                few functions are the C runtime's and main: its relative
                share is not checked;
  exploit       ROPgadget builds an execve ROP chain for one statically linked
                variant; the chain is broken in each of 4 others. Static
                binaries carry library code that divcc did not compile, so the
                variants add link-time shuffling (-fdiversify=default,link),
                which moves that code as well.
"""

import bisect
import json
import re
import sys
import tempfile
from pathlib import Path

from divtest import corpus, projects, tools

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
    check_relative_budget("x86_64", variants, failures)
    return base, variants, report


# What an attacker keeps of a default variant in another after leaking one
# pointer per function (relative survival, the mean over the ordered pairs
# of variants), at most: docs/performance.md's budgets. None where divcc is
# over its budget and the share is printed only (docs/performance.md): ARM
# state keeps 6.7%, most of it in code after a function's first gap, which
# moves as one by the gap's 0 to 11 traps. (Thumb keeps 4.8%: 5.0% before
# `shift`'s no-ops could write dead registers. x86-64 keeps 1.48%: 3.0%
# before `loops` took away the alignment of loops, which absorbed every
# shift before them.)
RELATIVE_BUDGET = {"x86_64": 0.02, "aarch64": 0.05, "riscv64": 0.05,
                   "armhf": 0.05, "armhf-arm": None}


def check_relative_budget(name, variants, failures, label=None):
    """Relative survival between VARIANTS, of the sample program built for
    target NAME, against its budget."""
    label = label or name
    matrix = audit("--matrix", *variants)["matrix"]["relative_survival"]
    shares = [matrix[i][j] for i in range(len(variants))
              for j in range(len(variants)) if i != j]
    mean = sum(shares) / len(shares)
    budget = RELATIVE_BUDGET[name]
    print(f"{label}: relative survival between default variants {mean:.2%} "
          f"mean, {max(shares):.2%} in the worst pair (budget: "
          f"{f'{budget:.0%}' if budget else 'none met yet'})")
    if budget is not None and mean >= budget:
        failures.append(f"{label}: relative survival between default variants "
                        f"{mean:.2%} on average (budget {budget:.0%})")


# --- Relative survival, computed independently --------------------------------

def ropgadget_gadgets(binary):
    """{address: bytes} of every return and system-call gadget ROPgadget
    finds in binary (--all: each address, not one per distinct text;
    --dump: with its bytes)."""
    out = tools.check(["ROPgadget", "--binary", str(binary), "--all",
                       "--dump", "--nojop"]).decode(errors="replace")
    gadgets = {}
    for line in out.splitlines():
        m = re.match(r"(0x[0-9a-f]+) : .* // ([0-9a-f]+)$", line)
        if m:
            gadgets[int(m.group(1), 16)] = bytes.fromhex(m.group(2))
    return gadgets


def nm_functions(binary):
    """Sized code symbols as (start, size, name), sorted, one per address
    (the smallest name of aliases), from nm -S --defined-only."""
    out = tools.check(["nm", "-S", "--defined-only", str(binary)]).decode()
    by_address = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 4 or fields[2] not in "TtWwi":
            continue
        start, size = int(fields[0], 16), int(fields[1], 16)
        if size and (start not in by_address or fields[3] < by_address[start][1]):
            by_address[start] = (size, fields[3])
    return sorted((a, s, n) for a, (s, n) in by_address.items())


def relative_share(base_gadgets, base_functions, variant_gadgets,
                   variant_functions):
    """(surviving, counted): base gadgets in functions whose name the base
    defines once, and those of them with the same bytes at the same offset
    in the variant's only function of that name."""
    names = {}
    for _, _, name in base_functions:
        names[name] = names.get(name, 0) + 1
    where = {}
    for start, size, name in variant_functions:
        where[name] = None if name in where else (start, size)
    starts = [f[0] for f in base_functions]
    surviving = counted = 0
    for address, code in base_gadgets.items():
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or address >= starts[i] + base_functions[i][1]:
            continue
        start, _, name = base_functions[i]
        if names[name] != 1:
            continue
        counted += 1
        offset = address - start
        moved = where.get(name)
        if moved and offset < moved[1] and \
                variant_gadgets.get(moved[0] + offset) == code:
            surviving += 1
    return surviving, counted


# The two tools' gadgets differ: ROPgadget's JOP search also ends gadgets at
# direct jumps and keeps conditional branches, whose bytes hold a
# displacement that changes whenever code between them moves, so with JOP
# its share comes out 2 to 5 points below divtool's (15.0-15.8% against
# 16.7-19.8% for these seeds). With --nojop (returns and system calls,
# up to 10 bytes) it measured 0.3-1.3 points below divtool's default (all
# kinds, up to 5 instructions); the rest is the length limits and divtool's
# indirect jumps and calls. TOLERANCE, in shares, is about twice the largest
# difference seen, room for other seeds and divcc's changes without hiding
# a real error (a wrong offset or name matching moves the share by far
# more: the unit and lit tests show 0% against 100%).
TOLERANCE = 0.025


def check_relative(base, variants, report, failures):
    """Relative survival as divtool reports it, against ROPgadget + nm."""
    rel = report.get("relative")
    if rel is None or rel.get("symbols") != "symtab":
        failures.append("divtool reports no relative survival from .symtab")
        return
    print(f"relative: {rel['gadgets_in_functions']} of "
          f"{report['base']['gadgets']} baseline gadgets in functions "
          f"({rel['gadgets_outside_functions']} outside, "
          f"{rel['gadgets_in_ambiguous_functions']} in names defined twice); "
          f"population mean {rel['relative_survival']:.2%}")
    if not rel["gadgets_in_functions"] > report["base"]["gadgets"] // 2:
        failures.append("fewer than half the baseline's gadgets are found in "
                        "functions")
    base_gadgets = ropgadget_gadgets(base)
    base_functions = nm_functions(base)
    shares = []
    for path, v in zip(variants, report["variants"]):
        theirs, counted = relative_share(base_gadgets, base_functions,
                                         ropgadget_gadgets(path),
                                         nm_functions(path))
        if counted < 1000:
            failures.append(f"ROPgadget + nm: only {counted} baseline gadgets "
                            "in functions")
            continue
        independent = theirs / counted
        ours = v["relative_survival"]
        shares.append(ours)
        print(f"  {path.name}: relative {ours:.2%} ({v['relative_surviving']} "
              f"of {v['gadgets_in_functions']}), absolute {v['survival']:.2%}; "
              f"ROPgadget + nm: {independent:.2%} ({theirs} of {counted})")
        if v["gadgets_in_functions"] != rel["gadgets_in_functions"]:
            failures.append(f"{path}: gadgets_in_functions differs from the "
                            "population's")
        if ours < v["survival"]:
            failures.append(f"{path}: relative survival {ours:.2%} is below "
                            f"the absolute {v['survival']:.2%}")
        if abs(ours - independent) > TOLERANCE:
            failures.append(f"{path}: divtool's relative survival {ours:.2%} "
                            f"and ROPgadget + nm's {independent:.2%} differ by "
                            f"more than {TOLERANCE:.0%}")
    mean = sum(shares) / len(shares)
    if abs(rel["relative_survival"] - mean) > 1e-9:
        failures.append(f"population relative_survival "
                        f"{rel['relative_survival']} is not the variants' mean "
                        f"{mean}")
    at_least = rel["surviving_in_at_least"]
    if at_least[0] != rel["gadgets_in_functions"] or \
            sum(rel["survival_histogram"]) != rel["gadgets_in_functions"]:
        failures.append("relative survival histogram does not add up to the "
                        "gadgets in functions")
    # The check can fail: against an identical copy everything survives.
    same = audit(base, base)
    if same["variants"][0]["relative_survival"] != 1.0:
        failures.append("relative survival of an identical copy is not 100%")


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


# --- 32-bit ARM ------------------------------------------------------------

ARM_TARGET = ["--target=arm-linux-gnueabihf", "-fuse-ld=lld"]
# An ending both tools look for (bx/blx through a register, pop or ldm into
# pc), as ROPgadget and divtool print it.
ARM_ENDING = re.compile(r"^(bx|blx) (r\d+|lr|ip|sl|fp|sb)$|^(pop|ldm\w*)(\.w)? .*\{.*pc\}$")
# A direct branch or call, conditional or not (ROPgadget keeps them inside
# gadgets, divtool stops at the unconditional ones; conditional ones may be
# inside an IT block, which divtool decodes as a jump would find them).
ARM_BRANCH = re.compile(r"^(b|bl|blx)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?"
                        r"(\.w|\.n)? |^cbn?z ")


def common_ground(gadgets):
    """The addresses of gadgets ({address: [instructions]}) both tools
    define alike: ending in ARM_ENDING, no branch or udf before it."""
    return {a for a, ins in gadgets.items()
            if ARM_ENDING.match(ins[-1])
            and not any(ARM_BRANCH.match(i) or i.startswith("udf") for i in ins[:-1])}


def check_arm(work, failures):
    for state, flag, rop_flags, reach in (("Thumb", "-mthumb", ["--thumb"], 18),
                                          ("ARM state", "-marm", [], 36)):
        binary = work / f"clang-armhf{flag}"
        tools.check([tools.clang(True), *FLAGS, *ARM_TARGET, flag, str(SAMPLE),
                     "-o", str(binary)])
        out = tools.check(["ROPgadget", "--binary", str(binary), *rop_flags,
                           "--depth", "10", "--all"]).decode(errors="replace")
        theirs = {}
        for line in out.splitlines():
            m = re.match(r"0x([0-9a-f]+) : (.*)$", line.strip())
            if m:
                theirs[int(m.group(1), 16)] = [i.strip() for i in m.group(2).split(";")]
        listed = audit("--list", "--depth", 64, "--reach", reach, "--no-functions",
                       binary, binary)["gadget_list"]
        ours = {g["address"]: [i.strip() for i in g["instructions"].split(";")]
                for g in listed}
        t, o = common_ground(theirs), common_ground(ours)
        found = len(t & o) / len(t) if t else 0
        print(f"armhf {state}: ROPgadget {len(theirs)} gadgets, divtool {len(ours)}; "
              f"both definitions: ROPgadget {len(t)}, divtool {len(o)}, "
              f"{found:.1%} of ROPgadget's found by divtool")
        if found < 0.90:
            failures.append(f"armhf {state}: divtool finds {found:.1%} of the "
                            "gadgets ROPgadget finds with the same definition "
                            "(at least 90% expected)")


# The smallest program a distributor ships: most of its code is the C
# runtime's and the PLT, which divcc does not compile.
TEN_LINES = r"""#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += strtol(argv[i], NULL, 10);
  printf("%ld\n", sum);
  return sum > 100;
}
"""
# Default variants share less than this share of gadgets at the same
# address, on average over the pairs, and less than BETWEEN_WORST in any
# pair. Fixed-width code has a lone `ret` every few dozen instructions, and
# two variants' rets meet by chance whatever moves: about N * N * 4 / L of
# them for N rets in L bytes of code, 2 of AArch64 cpp_containers' 546
# gadgets (0.37%) in a pair.
BETWEEN_LIMIT = 0.005
BETWEEN_WORST = 0.01


def check_cross_survival(work, failures, name, linker, program):
    """A clang-19 baseline and 5 default variants of PROGRAM (C++ or C by its
    suffix) built for the cross target NAME (tests/divtest/projects.py) and
    linked by LINKER (lld, or bfd: GNU ld): under 2% of the baseline's
    gadgets survive in each variant; between the variants, under 0.5% at
    the same address, none of them outside the functions."""
    cxx = program.suffix == ".cpp"
    target_flags = [f for f in projects.get_target(name).cc_flags
                    if not f.startswith("-fuse-ld=")]
    flags = [*(FLAGS if cxx else ["-O2"]), *target_flags, f"-fuse-ld={linker}",
             str(program)]
    label = f"{name} {program.stem} {linker}"
    stem = f"{name}-{program.stem}-{linker}"
    base = work / f"{stem}-baseline"
    tools.check([tools.clang(cxx), *flags, "-o", str(base)])
    variants = []
    for i, seed in enumerate(SEEDS, 1):
        variants.append(work / f"{stem}-variant-{i}")
        tools.check([tools.divcc(cxx), *flags, seed, "-o", str(variants[-1])])
    report = audit(base, *variants)
    worst = max(v["survival"] for v in report["variants"])
    print(f"{label}: {report['base']['gadgets']} gadgets in the clang-19 "
          f"build, at most {worst:.2%} survive in a default variant")
    if worst >= 0.02:
        failures.append(f"{label}: {worst:.2%} of the baseline's gadgets "
                        "survive in a default variant (limit 2%)")
    matrix = audit("--matrix", *variants)["matrix"]
    pairs = [(i, j) for i in range(len(variants))
             for j in range(len(variants)) if i != j]
    between = [matrix["survival"][i][j] for i, j in pairs]
    outside = sum(audit(v, *(w for w in variants if w != v))
                  ["surviving_outside_functions"] for v in variants)
    mean_between = sum(between) / len(between)
    print(f"{label}: {mean_between:.2%} of a default variant's gadgets "
          f"survive in another on average, {max(between):.2%} in the worst "
          f"pair; outside functions {outside}")
    if cxx:
        check_relative_budget(name, variants, failures, label)
    if mean_between >= BETWEEN_LIMIT or max(between) >= BETWEEN_WORST:
        failures.append(f"{label}: {mean_between:.2%} of a default variant's "
                        f"gadgets survive in another on average, "
                        f"{max(between):.2%} in the worst pair (limits "
                        f"{BETWEEN_LIMIT:.1%}, {BETWEEN_WORST:.0%})")
    if outside:
        failures.append(f"{label}: {outside} gadgets outside functions (PLT, "
                        "start files, headers) survive from one default "
                        "variant to another")


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="divcc-audit-") as tmp:
        work = Path(tmp)
        check_gadget_count(work, failures)
        base, variants, report = check_survival(work, failures)
        check_relative(base, variants, report, failures)
        check_chain(work, failures)
        check_arm(work, failures)
        ten_lines = work / "ten_lines.c"
        ten_lines.write_text(TEN_LINES)
        for name in ("armhf", "armhf-arm", "riscv64", "aarch64"):
            for linker in ("lld", "bfd"):
                for program in (SAMPLE, ten_lines):
                    check_cross_survival(work, failures, name, linker, program)
    for f in failures:
        print(f"FAIL: {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
