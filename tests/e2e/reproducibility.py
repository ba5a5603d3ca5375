#!/usr/bin/env python3
"""Reproducibility and secrecy:
  - the same seed gives byte-identical objects and executables, also when
    built in another directory and with another -j;
  - different seeds give different code;
  - -g changes no instruction;
  - the seed string appears in no artifact."""

import shutil

from divtest import checks, corpus, elf, tools

SEED = "Zq8CorpusSecretXv3"
OTHER_SEED = "another-seed"


def build_tree(root, prog, seed, extra=()):
    """Copies prog's sources into root and builds there with relative paths,
    as a build system would. Returns (objects, executable)."""
    root.mkdir(parents=True, exist_ok=True)
    cc = tools.divcc(prog.is_cxx)
    flags = ["-O2", "-fdiversify", "-frandom-seed=" + seed] + list(extra)
    objs = []
    for src in prog.sources:
        shutil.copy(src, root / src.name)
        tools.check([cc] + prog.std_flags() + flags + ["-c", src.name, "-o", src.stem + ".o"],
                    cwd=root)
        objs.append(root / (src.stem + ".o"))
    tools.check([cc] + flags + [o.name for o in objs] + corpus.LINK_LIBS + ["-o", "prog"],
                cwd=root)
    return objs, root / "prog"


def clang_g_invariant(prog, root):
    """Whether clang-19 -O2 generates the same code with and without -g."""
    cc = tools.clang(prog.is_cxx)
    texts = []
    for flags in ([], ["-g"]):
        out = root / ("g" if flags else "plain")
        objs = corpus.compile_objects(cc, prog, ["-O2"] + flags, out)
        texts.append(elf.code_bytes(corpus.link(cc, objs, flags, out / "prog")))
    return texts[0] == texts[1]


def main():
    work = checks.work_dir("repro")
    progs = corpus.programs()

    def one(prog):
        fails = []
        try:
            objs_a, exe_a = build_tree(work / "a" / prog.name, prog, SEED)
            objs_b, exe_b = build_tree(work / "elsewhere" / "b" / prog.name, prog, SEED)
            objs_c, exe_c = build_tree(work / "c" / prog.name, prog, OTHER_SEED)
            objs_g, exe_g = build_tree(work / "g" / prog.name, prog, SEED, ["-g"])
        except RuntimeError as e:
            return [f"{prog.name}: build failed: {e}"]
        for a, b in zip(objs_a + [exe_a], objs_b + [exe_b]):
            if a.read_bytes() != b.read_bytes():
                fails.append(f"{prog.name}: {a.name} differs between two directories with the same seed")
        if elf.code_bytes(exe_a) == elf.code_bytes(exe_c):
            fails.append(f"{prog.name}: two seeds gave the same code")
        if elf.code_bytes(exe_a) != elf.code_bytes(exe_g):
            # clang-19 itself is not -g-invariant on every input; divcc
            # (byte-identical to clang with -fno-diversify) cannot be either.
            plain = work / "clang-g" / prog.name
            if clang_g_invariant(prog, plain):
                fails.append(f"{prog.name}: -g changed the code (clang-19's does not change)")
            else:
                print(f"note: {prog.name}: clang-19 itself changes code with -g; not checked")
        for artifact in objs_a + [exe_a] + objs_g + [exe_g]:
            if SEED.encode() in artifact.read_bytes():
                fails.append(f"{prog.name}: the seed appears in {artifact.name}")
        return fails

    results = corpus.parallel(one, progs)
    failures = [f for fs in results for f in fs]
    count = len(progs) * 4

    # Another -j: a multi-file program through make -j1 and make -j4.
    multi = [p for p in progs if len(p.sources) > 1]
    for prog in multi:
        exes = []
        for jobs in ("1", "4"):
            root = work / f"make-j{jobs}" / prog.name
            root.mkdir(parents=True)
            for src in prog.sources:
                shutil.copy(src, root / src.name)
            objs = " ".join(s.stem + ".o" for s in prog.sources)
            std = " ".join(prog.std_flags())
            rules = "".join(f"{s.stem}.o: {s.name}\n\t$(CC) $(FLAGS) {std} -c {s.name} -o $@\n"
                            for s in prog.sources)
            (root / "Makefile").write_text(
                f"FLAGS = -O2 -fdiversify -frandom-seed={SEED}\n"
                f"prog: {objs}\n\t$(CC) $(FLAGS) {objs} -lm -lpthread -o $@\n" + rules)
            tools.check(["make", "-s", "-j" + jobs, "CC=" + tools.divcc(prog.is_cxx)], cwd=root)
            exes.append(root / "prog")
        count += 1
        if exes[0].read_bytes() != exes[1].read_bytes():
            failures.append(f"{prog.name}: make -j1 and make -j4 built different executables")

    checks.report("reproducibility", failures, count)


if __name__ == "__main__":
    main()
