// divtool audit's relative survival, by hand (audit-relative.test): f and g
// hold 2 and 3 gadgets, a local h 2 more (a second local h is in
// audit-relative-b.s), and stub, no function symbol, 2.
// -DMOVED: 16 bytes of int3 before f, every function moved, insides kept.
// -DCHANGED_F, -DCHANGED_G: a nop at the start of f, of g.
        .text
#ifdef MOVED
        .fill 16, 1, 0xcc
#endif
        .globl f
        .type f,@function
f:
#ifdef CHANGED_F
        nop
#endif
        pop %rdi
        ret
        .size f, .-f

        .globl g
        .type g,@function
g:
#ifdef CHANGED_G
        nop
#endif
        pop %rsi
        pop %rdx
        ret
        .size g, .-g

stub:
        pop %rax
        ret

        .type h,@function
h:
        pop %rbx
        ret
        .size h, .-h
