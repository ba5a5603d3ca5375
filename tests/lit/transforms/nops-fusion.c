// NOPs never split a compare and the conditional branch the processor fuses
// with it (x86 macro fusion), even at probability 1: such a NOP would cost a
// cycle on every execution of the branch. Pairs that do not fuse (here, on a
// CPU tuned without fusion) get NOPs like any other place.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nops-in-loops -frandom-seed=fusion %s -o %t.s
// RUN: %FileCheck --check-prefix=FUSED %s < %t.s
// RUN: %divcc -S -O2 -mtune=i686 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nops-in-loops -frandom-seed=fusion %s -o %t.nofusion.s
// RUN: %FileCheck --check-prefix=UNFUSED %s < %t.nofusion.s

int count_below(const int *a, int n, int limit) {
  int c = 0;
  for (int i = 0; i < n; ++i)
    if (a[i] < limit)
      ++c;
  return c;
}

// The loop's compare of i against n is directly followed by its branch.
// FUSED-LABEL: count_below:
// FUSED: {{cmpq|cmpl}} {{.*}}
// FUSED-NEXT: {{jne|jl|jb|jg|ja|je}} .LBB0_
// UNFUSED-LABEL: count_below:
// UNFUSED: {{cmpq|cmpl}} {{.*}}
// UNFUSED-NEXT: {{nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i}}
// UNFUSED-NEXT: {{jne|jl|jb|jg|ja|je}} .LBB0_
