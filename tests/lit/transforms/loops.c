// loops: no alignment padding before loops, so that what moves the code
// before a loop moves the loop too. On x86-64, where LLVM aligns loops to
// 16 bytes, the object is clang-19's with -falign-loops=1 byte for byte
// (also with -g), nothing else; a loop whose source asks for its alignment
// keeps it, and -falign-loops=N on the command line keeps every loop's.
// The verifier passes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc -O2 -c -fdiversify=loops -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/loops.o
// RUN: %clang -O2 -c -falign-loops=1 %s -o %t/clang-unaligned.o
// RUN: cmp %t/loops.o %t/clang-unaligned.o
// RUN: %divcc -O2 -g -c -fdiversify=loops -frandom-seed=1 %s -o %t/loops-g.o
// RUN: %clang -O2 -g -c -falign-loops=1 %s -o %t/clang-unaligned-g.o
// RUN: cmp %t/loops-g.o %t/clang-unaligned-g.o
// RUN: %divcc -O2 -c -fdiversify=loops -falign-loops=16 -frandom-seed=1 %s -o %t/loops-16.o
// RUN: %clang -O2 -c -falign-loops=16 %s -o %t/clang-16.o
// RUN: cmp %t/loops-16.o %t/clang-16.o
// RUN: %clang -O2 -c %s -o %t/clang.o
// RUN: %not cmp -s %t/loops.o %t/clang.o
// RUN: %divcc -O2 -S -fdiversify=loops -frandom-seed=1 %s -o - | %FileCheck %s
// CHECK-LABEL: requested:
// CHECK:       .p2align 5
// CHECK-NEXT:  # =>This Inner Loop Header
// CHECK-LABEL: walk:
// CHECK-NOT:   .p2align
// CHECK:       # =>This Inner Loop Header
// CHECK-NOT:   .p2align
// CHECK:       .size walk
//
// -fdiversify-skip turns it off for one function.
// RUN: %divcc -O2 -S -fdiversify=loops -fdiversify-skip=loops:walk -frandom-seed=1 %s -o - | %FileCheck %s --check-prefix=SKIP
// SKIP-LABEL: walk:
// SKIP:       .p2align 4
// SKIP-NEXT:  # =>This Inner Loop Header
// SKIP:       .size walk
//
// What it is for: with prefixes alone, the padding absorbs every prefix
// drawn before walk's loop, which starts at the same offset in all eight
// variants (a multiple of 16); with loops, the loop moves with them. So
// does it in the default set.
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=1 %s -o %t/p1.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=2 %s -o %t/p2.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=3 %s -o %t/p3.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=4 %s -o %t/p4.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=5 %s -o %t/p5.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=6 %s -o %t/p6.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=7 %s -o %t/p7.o
// RUN: %divcc -O2 -c -fdiversify=prefixes -frandom-seed=8 %s -o %t/p8.o
// RUN: python3 %S/Inputs/loop_offsets.py walk %t/p?.o | %FileCheck %s --check-prefix=ALIGNED
// ALIGNED: unaligned: 0 of 8
// ALIGNED: layouts: 1
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=1 %s -o %t/pl1.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=2 %s -o %t/pl2.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=3 %s -o %t/pl3.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=4 %s -o %t/pl4.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=5 %s -o %t/pl5.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=6 %s -o %t/pl6.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=7 %s -o %t/pl7.o
// RUN: %divcc -O2 -c -fdiversify=prefixes,loops -frandom-seed=8 %s -o %t/pl8.o
// RUN: python3 %S/Inputs/loop_offsets.py walk %t/pl?.o | %FileCheck %s --check-prefix=MOVED
// MOVED: unaligned: {{[1-8]}} of 8
// MOVED: layouts: {{[2-8]}}
// RUN: %divcc -O2 -c -fdiversify -frandom-seed=1 %s -o %t/d1.o
// RUN: %divcc -O2 -c -fdiversify -frandom-seed=2 %s -o %t/d2.o
// RUN: %divcc -O2 -c -fdiversify -frandom-seed=3 %s -o %t/d3.o
// RUN: %divcc -O2 -c -fdiversify -frandom-seed=4 %s -o %t/d4.o
// RUN: python3 %S/Inputs/loop_offsets.py walk %t/d?.o | %FileCheck %s --check-prefix=MOVED4
// MOVED4: layouts: {{[2-4]}}
//
// Without the padding, a program runs as clang-19's does.
// RUN: %clang -O2 %s -o %t/clang
// RUN: %divcc -O2 -fdiversify -frandom-seed=1 %s -o %t/default
// RUN: %t/clang > %t/clang.out
// RUN: %t/default | diff %t/clang.out -

#include <stdio.h>

// The loop's first block is aligned to 32 bytes, whatever moves before it.
int requested(const int *a, int n) {
  int s = 0;
  [[clang::code_align(32)]] for (int i = 0; i < n; i++) s ^= a[i] >> 1;
  return s;
}

// Memory accesses (prefixes may lengthen each) before a loop.
__attribute__((noinline)) int walk(const int *a, const int *b, int n,
                                   int *out) {
  out[0] = a[0] + b[0];
  out[1] = a[1] ^ b[2];
  out[2] = a[3] - b[4];
  out[3] = a[5] | b[6];
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i] + (s >> 3);
  return s;
}

int main(void) {
  int a[64], b[64], out[4];
  for (int i = 0; i < 64; i++) {
    a[i] = i * 7 - 100;
    b[i] = 3 - i;
  }
  printf("%d %d %d %d %d %d\n", walk(a, b, 64, out), requested(a, 64), out[0],
         out[1], out[2], out[3]);
  return 0;
}
