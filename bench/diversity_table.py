#!/usr/bin/env python3
"""Code size and diversity of each transformation on the test corpus.

Every corpus program is built (-O2, linked) by clang-19 and by divcc with one
transformation at a time (and with the default set and with all of them),
under several seeds. For each configuration it reports:

  size      .text bytes relative to clang-19's build (1.000 = same size)
  differ    share of .text byte offsets whose byte differs between two
            variants (mean over pairs of seeds)
  survive   share of a variant's 8-byte windows found at the same offset
            with the same bytes in another variant: a proxy for gadgets an
            attacker could still use blindly (lower is better; the
            gadget-level measurement is divtool audit's job). Windows of
            one repeated byte (padding) are not counted
  entropy   bits of randomness the transformations drew to build the
            corpus (DIVCC_ENTROPY_LOG: log2 of each uniform choice's range,
            H(p) of each yes/no draw), mean over seeds, in total and per
            KiB of clang-19's code. An upper bound on how many variants
            differ: two choices can give the same code

The size is a ratio (1.050: 5% more code than clang-19's); differ and
survive are shares over the corpus's code, in percent.

--target NAME (aarch64, riscv64, armhf, armhf-arm) builds the corpus for
that target instead of this machine (tests/divtest/projects.py's TARGETS:
armhf is Thumb-2, armhf-arm ARM state), without the programs that cannot
be built there (tests/divtest/corpus.py's X86_ONLY and, on armhf, LP64_ONLY). It needs
what the target's other tests need (projects.Target.missing()).

Usage: PYTHONPATH=tests python3 bench/diversity_table.py [--seeds N] [--target NAME] [--markdown FILE]
"""

import argparse
import itertools
import json
import os
from pathlib import Path

from divtest import bench as bt
from divtest import corpus, elf, projects, tools

WINDOW = 8


def differ(a, b):
    n = max(len(a), len(b))
    same = sum(1 for x, y in zip(a, b) if x == y)
    return 1 - same / n if n else 0.0


def survive(a, b):
    # Windows of one repeated byte are padding (trap fill, zeros), not
    # code: the linker and `offset` put the same fill everywhere.
    windows = [i for i in range(0, len(a) - WINDOW + 1)
               if a[i:i + WINDOW] != a[i:i + 1] * WINDOW]
    hits = sum(1 for i in windows if a[i:i + WINDOW] == b[i:i + WINDOW])
    return hits / max(len(windows), 1)


def build(prog, compiler, flags, out, env=None):
    objs = corpus.compile_objects(compiler, prog, ["-O2"] + flags, out, env)
    return corpus.link(compiler, objs, flags, out / "prog", env)


def drawn_bits(log):
    """The bits of every transformation in a DIVCC_ENTROPY_LOG file."""
    if not log.exists():
        return 0.0
    return sum(sum(json.loads(line).values())
               for line in log.read_text().splitlines() if line.strip())


def transformations():
    """The transformations divcc --help lists: the lines of its
    "Transformations" paragraph indented by two spaces (their options, by
    more)."""
    text = tools.check([tools.divcc(False), "--help"]).decode()
    paragraph = text.split("\nTransformations")[1].split("\n\n")[0]
    return [line.split()[0] for line in paragraph.splitlines()[1:]
            if line.startswith("  ") and not line.startswith("   ")]


def diversity_row(name, flags, progs, seeds, base, work):
    """(name, size, differ, survive, bits) of one configuration, its
    variants built under seeds seeds."""
    def variants(prog):
        texts, bits = [], 0.0
        for seed in range(seeds):
            out = work / name / prog.name / str(seed)
            out.mkdir(parents=True, exist_ok=True)
            log = out / "entropy.log"
            env = dict(os.environ, DIVCC_ENTROPY_LOG=str(log))
            exe = build(prog, tools.divcc(prog.is_cxx),
                        flags + [f"-frandom-seed=table-{seed}"], out, env)
            texts.append(elf.code_bytes(exe))
            bits += drawn_bits(log)
        return texts, bits / seeds

    results = corpus.parallel(variants, progs)
    per_prog = [texts for texts, _ in results]
    pairs = [(x, y) for texts in per_prog for x, y in itertools.combinations(texts, 2)]
    return (name, sum(len(t[0]) for t in per_prog) / base,
            sum(differ(x, y) for x, y in pairs) / len(pairs),
            sum(survive(x, y) for x, y in pairs) / len(pairs),
            sum(bits for _, bits in results))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=4, help="variants per configuration (default 4)")
    ap.add_argument("--target", default="x86_64", choices=sorted(projects.TARGETS),
                    help="the machine to build for (default x86_64, this one)")
    ap.add_argument("--markdown", help="also write the table to this Markdown file")
    args = ap.parse_args()
    tools.require_build("diversity_table")
    target = projects.get_target(args.target)
    why = target.missing()
    if why:
        ap.exit(1, f"diversity_table: error: {args.target}: {why}; "
                   "scripts/install-deps.sh installs it\n")

    target_flags = list(target.cc_flags)
    configs = [(n, target_flags + [f"-fdiversify={n}"]) for n in transformations()]
    configs += [("default", target_flags + ["-fdiversify"]),
                ("all", target_flags + ["-fdiversify=all"])]
    skipped = corpus.unbuildable(target)
    progs = [p for p in corpus.programs() if p.name not in skipped]
    with bt.work_folder("diversity") as work:
        def baseline(prog):
            return len(elf.code_bytes(build(prog, tools.clang(prog.is_cxx), target_flags,
                                            work / "clang" / prog.name)))

        base = sum(corpus.parallel(baseline, progs))
        rows = []
        for name, flags in configs:
            rows.append(diversity_row(name, flags, progs, args.seeds, base, work))
            bt.log(f"{name}: done")

    table = (f"Target: {args.target}. "
             f"Corpus: {len(progs)} programs, -O2, {args.seeds} seeds per configuration; "
             f"clang-19 .text total {base} bytes.\n\n" +
             bt.markdown_table(["transformations", "size vs clang-19", "bytes that differ",
                                "8-byte windows surviving", "entropy (bits)", "bits per KiB"],
                               [[n, f"{size:.3f}", f"{d:.1%}", f"{s:.1%}", f"{bits:,.0f}",
                                 f"{bits / (base / 1024):,.1f}"]
                                for n, size, d, s, bits in rows], align="lrrrrr") + "\n")
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(
            "# Code size and diversity per transformation\n\n"
            f"Generated by `bench/diversity_table.py --target {args.target} "
            f"--seeds {args.seeds}`; "
            "see the script's help for what each column measures (docs/diversity.md "
            "holds one such table per target).\n\n" + table)


if __name__ == "__main__":
    main()
