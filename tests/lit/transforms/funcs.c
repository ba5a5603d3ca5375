// Function shuffling permutes the order of functions in the object file.
// RUN: %divcc -S -O1 -fdiversify=funcs -frandom-seed=one %s -o %t.one.s
// RUN: %divcc -S -O1 -fdiversify=funcs -frandom-seed=two %s -o %t.two.s
// RUN: grep -E '^f[0-9]+:' %t.one.s > %t.one.order
// RUN: grep -E '^f[0-9]+:' %t.two.s > %t.two.order
// RUN: %not diff -q %t.one.order %t.two.order
//
// Every function is still there, exactly once.
// RUN: sort %t.one.order | %FileCheck --check-prefix=ALL %s
// RUN: sort %t.two.order | %FileCheck --check-prefix=ALL %s
//
// Without funcs, the order is the source order (as clang's); funcs alone
// inserts no NOPs and changes no instruction, only the order.
// RUN: %divcc -S -O1 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: grep -E '^f[0-9]+:' %t.off.s | %FileCheck --check-prefix=SOURCE %s
// RUN: %clang -S -O1 %s -o %t.clang.s
// RUN: grep -E '^f[0-9]+:' %t.clang.s | %FileCheck --check-prefix=SOURCE %s
// RUN: %not grep -E '^	(movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$' %t.one.s

// ALL: f0:
// ALL-NEXT: f1:
// ALL-NEXT: f2:
// ALL-NEXT: f3:
// ALL-NEXT: f4:
// ALL-NEXT: f5:
// ALL-NEXT: f6:
// ALL-NEXT: f7:
// ALL-NEXT: f8:
// ALL-NEXT: f9:

// SOURCE: f0:
// SOURCE-NEXT: f1:
// SOURCE-NEXT: f2:
// SOURCE-NEXT: f3:
// SOURCE-NEXT: f4:
// SOURCE-NEXT: f5:
// SOURCE-NEXT: f6:
// SOURCE-NEXT: f7:
// SOURCE-NEXT: f8:
// SOURCE-NEXT: f9:

int f0(int x) { return x + 0; }
int f1(int x) { return x * 1 + 1; }
int f2(int x) { return x ^ 2; }
int f3(int x) { return x - 3; }
int f4(int x) { return x << 4; }
int f5(int x) { return x >> 5; }
int f6(int x) { return x | 6; }
int f7(int x) { return x & 7; }
int f8(int x) { return x * 8 + 8; }
int f9(int x) { return x % 9; }
