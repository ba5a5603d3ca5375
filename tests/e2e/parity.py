#!/usr/bin/env python3
"""Parity: with diversification off, divcc's objects are byte-identical to
clang-19's, for every corpus program under every flag set below."""

from divtest import checks, corpus, elf, tools

FLAG_SETS = [
    ["-O0"], ["-O1"], ["-O2"], ["-O3"], ["-Os"], ["-Oz"],
    ["-O2", "-g"], ["-O0", "-g"],
    ["-O2", "-fPIC"], ["-O2", "-fPIE"], ["-O2", "-fno-pic"],
    ["-O2", "-ffunction-sections", "-fdata-sections"],
    ["-O2", "-march=x86-64-v3"],
    ["-O2", "-fno-omit-frame-pointer"],
    ["-O2", "-fcf-protection"],
    ["-O2", "-fstack-protector-strong"],
    ["-O2", "-fno-plt"],
    ["-O2", "-mcmodel=medium"],
    ["-O1", "-fsanitize=address"],
]


def main():
    work = checks.work_dir("parity")
    jobs = [(p, i) for p in corpus.programs() for i in range(len(FLAG_SETS))]

    def one(job):
        prog, i = job
        flags = FLAG_SETS[i]
        base = work / f"{prog.name}.{i}"
        try:
            ref = corpus.compile_objects(tools.clang(prog.is_cxx), prog, flags, base / "clang")
            got = corpus.compile_objects(tools.divcc(prog.is_cxx), prog,
                                         flags + ["-fno-diversify"], base / "divcc")
        except RuntimeError as e:
            return f"{prog.name} {' '.join(flags)}: {e}"
        for r, g in zip(ref, got):
            if r.read_bytes() != g.read_bytes():
                same_code = elf.code_bytes(r) == elf.code_bytes(g)
                return (f"{prog.name} {' '.join(flags)}: {g.name} differs from clang-19's"
                        f" ({'code equal, other sections differ' if same_code else 'code differs'})")
        return None

    corpus.check_all("parity", one, jobs)


if __name__ == "__main__":
    main()
