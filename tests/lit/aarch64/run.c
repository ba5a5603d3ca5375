// AArch64 programs built with every transformation run under qemu-user and
// print what clang-19's build prints; two seeds give two different
// binaries. Needs the Debian cross libraries and qemu-user.
// REQUIRES: aarch64-run
// RUN: %clang --target=aarch64-linux-gnu -fuse-ld=lld -O2 %s -o %t.clang
// RUN: %qemu-aarch64 %t.clang > %t.clang.out
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fdiversify=all -frandom-seed=one %s -o %t.one
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fdiversify=all -frandom-seed=two %s -o %t.two
// RUN: %qemu-aarch64 %t.one > %t.one.out
// RUN: %qemu-aarch64 %t.two > %t.two.out
// RUN: diff %t.clang.out %t.one.out
// RUN: diff %t.clang.out %t.two.out
// RUN: %not cmp -s %t.one %t.two
// RUN: %FileCheck %s < %t.one.out
//
// At -O0 too, and with branch protection (BTI landing pads, return
// address signing).
// RUN: %divcc --target=aarch64-linux-gnu -O0 -fdiversify=all -frandom-seed=one %s -o %t.o0
// RUN: %qemu-aarch64 %t.o0 | diff %t.clang.out -
// RUN: %divcc --target=aarch64-linux-gnu -O2 -mbranch-protection=standard -fdiversify=all -frandom-seed=one %s -o %t.bti
// RUN: %qemu-aarch64 %t.bti | diff %t.clang.out -

// CHECK: sum 63000
// CHECK: sorted 1 2 3 5 8 13 21 34
// CHECK: indirect 42

#include <stdio.h>
#include <stdlib.h>

int table[64];

static int mix(int a, int b) { return (a * 31) ^ (b >> 3); }

static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

static int answer(void) { return 42; }
int (*volatile indirect)(void) = answer;

int main(void) {
  long s = 0;
  for (int i = 0; i < 64; ++i)
    table[i] = i * 7;
  for (int i = 0; i < 2000; ++i)
    s += mix(table[i & 63], i) & 0x3f;
  printf("sum %ld\n", s);
  int v[] = {21, 3, 34, 1, 13, 2, 8, 5};
  qsort(v, 8, sizeof v[0], cmp);
  printf("sorted");
  for (int i = 0; i < 8; ++i)
    printf(" %d", v[i]);
  printf("\nindirect %d\n", indirect());
  return 0;
}
