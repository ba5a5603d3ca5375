"""The order in which each function of x86-64 binaries pushes registers in
its prologue, and whether every epilogue pops them in reverse.

    push_orders.py PLAIN VARIANT...

PLAIN is the program without `saves`; for each VARIANT, prints whether
every function pushes the same registers as in PLAIN (as a set), whether
each of its epilogues pops them in the reverse order, and in how many
functions the order differs from PLAIN's.
"""

import re
import subprocess
import sys


def functions(path):
    """{name: [instruction text, ...]} from objdump."""
    out = subprocess.run(["llvm-objdump-19", "-d", "--no-show-raw-insn",
                          "--no-leading-addr", path],
                         capture_output=True, text=True, check=True).stdout
    funcs, current = {}, None
    for line in out.splitlines():
        head = re.match(r"^<(.+)>:$", line.strip())
        if head:
            current = funcs.setdefault(head.group(1), [])
        elif current is not None and line.startswith((" ", "\t")):
            current.append(" ".join(line.split()))
    return funcs


# The SysV x86-64 callee-saved registers: other pushes and pops (of %rax,
# %rcx...) only move the stack pointer by 8.
CALLEE_SAVED = {"rbx", "rbp", "r12", "r13", "r14", "r15"}


def pushes(body):
    """The callee-saved registers of the function's first run of pushes
    (the prologue's, wherever shrink-wrapping put it), in order."""
    regs, started = [], False
    for insn in body:
        m = re.match(r"^pushq %(\w+)$", insn)
        if m:
            started = True
            if m.group(1) in CALLEE_SAVED:
                regs.append(m.group(1))
        elif started and insn != "movq %rsp, %rbp":
            break
    return regs


def pop_runs(body):
    """Each run of pops that ends in a return or a tail jump."""
    runs, run = [], []
    for insn in body:
        m = re.match(r"^popq %(\w+)$", insn)
        if m:
            if m.group(1) in CALLEE_SAVED:
                run.append(m.group(1))
            continue
        if run and (insn.startswith("retq") or insn.startswith("jmp")):
            runs.append(run)
        run = []
    return runs


def main():
    plain = functions(sys.argv[1])
    for path in sys.argv[2:]:
        variant = functions(path)
        same_set, mirrored, reordered, saving = True, True, 0, 0
        for name, body in variant.items():
            if name not in plain or name.endswith("@plt"):
                continue
            order, before = pushes(body), pushes(plain[name])
            if sorted(order) != sorted(before):
                same_set = False
                print(f"{name}: pushes {order}, plain {before}")
            if len(order) >= 2:
                saving += 1
                reordered += order != before
            for run in pop_runs(body):
                if run != list(reversed(order)):
                    mirrored = False
                    print(f"{name}: pops {run} after pushes {order}")
        print(f"same registers: {'yes' if same_set else 'no'}")
        print(f"pops mirror pushes: {'yes' if mirrored else 'no'}")
        print(f"functions saving two or more: {saving}, "
              f"in another order: {reordered}")


if __name__ == "__main__":
    main()
