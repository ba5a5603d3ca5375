#!/usr/bin/env python3
"""Independence: each transformation draws from its own random streams, so
turning other transformations on or off leaves its choices unchanged.

For each transformation T, an observable that only T decides is compared
between a build with T alone and a build with T plus transformations that
cannot affect that observable:

  funcs    the order of functions in each object file
  globals  the order of global variables in each object file
  nops     the instructions of each function, from -S output (with the
           others only reordering functions, globals or sections)
  link     the order of functions in the executable
"""

import re

from divtest import checks, corpus, elf, tools

SEED = "-frandom-seed=independence"

LOCAL_LABEL = re.compile(r"\.L([A-Za-z_]+?)\d+(_\d+)?\b")


def function_code(asm):
    """{function name: its instructions} from an assembly file, with local
    label numbers (which count functions in emission order) taken out."""
    result, name, body = {}, None, []
    for line in asm.read_text().splitlines():
        m = re.match(r"^([^\s.][^\s:]*):\s+# @", line)
        if m:
            name, body = m.group(1), []
        elif name and line.startswith(".Lfunc_end"):
            result[name] = body
            name = None
        elif name:
            code = line.split("#", 1)[0].rstrip()  # comments name blocks by number
            if code:
                body.append(LOCAL_LABEL.sub(r".L\1\2", code))
    return result


CHECKS = [
    # (name, transformation alone, with others, extra flags, observable)
    ("funcs", "funcs", "funcs,nops,globals,frames,subst,sched,regs,blocks", [],
     lambda objs, exe: [elf.symbols(o, "F") for o in objs]),
    ("globals", "globals", "globals,nops,funcs,frames,subst", [],
     lambda objs, exe: [elf.symbols(o, "O") for o in objs]),
    ("nops", "nops", "nops,funcs,globals", [],
     lambda objs, exe: [function_code(o.with_suffix(".s")) for o in objs]),
    ("link", "link", "link,nops", [],
     lambda objs, exe: elf.symbols(exe, "F")),
    ("offset", "offset", "offset,link,nops,funcs", [],
     lambda objs, exe: elf.section(exe, ".init").size),
]


def main():
    work = checks.work_dir("independence")
    progs = corpus.programs()
    jobs = [(p, c) for p in progs for c in CHECKS]

    def one(job):
        prog, (name, alone, together, extra, observe) = job
        seen = []
        for label, transforms in (("alone", alone), ("together", together)):
            out = work / prog.name / name / label
            cc = tools.divcc(prog.is_cxx)
            flags = ["-O2", f"-fdiversify={transforms}", SEED] + extra
            try:
                objs = corpus.compile_objects(cc, prog, flags, out)
                exe = corpus.link(cc, objs, flags, out / "prog")
                for src, obj in zip(prog.sources, objs):
                    tools.check([cc] + prog.std_flags() + flags +
                                ["-S", str(src), "-o", str(obj.with_suffix(".s"))])
            except RuntimeError as e:
                return f"{prog.name} {name}: build failed: {e}"
            seen.append(observe(objs, exe))
        if seen[0] != seen[1]:
            return (f"{prog.name}: what '{name}' decides changed when '{together}' "
                    f"was turned on")
        return None

    corpus.check_all("independence", one, jobs)


if __name__ == "__main__":
    main()
