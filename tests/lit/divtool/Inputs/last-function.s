# The last function of .text, followed by a trap and a NOP before the
# linker's own padding and the golden master's slack: padding that mixes
# traps and NOPs, which BOLT ignores a function for.
        .text
        .globl last
        .type last,@function
        .p2align 4
last:
        leal 2(%rdi), %eax
        ret
        .size last, .-last
        int3
        nop
