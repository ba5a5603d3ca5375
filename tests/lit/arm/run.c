// 32-bit ARM (armhf) programs built with every transformation, and with
// the default set, in Thumb and in ARM state, at -O2 and -O0, run under
// qemu-user and print what clang-19's build prints; two seeds give two
// different binaries. Needs the Debian cross libraries and qemu-user. The
// host's ld cannot link for ARM: divcc uses ld.lld.
// REQUIRES: armhf-run
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -fuse-ld=lld -O2 %s -o %t.clang
// RUN: %qemu-armhf %t.clang > %t.clang.out
// RUN: %FileCheck %s < %t.clang.out
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify=all -frandom-seed=one %s -o %t.one
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify=all -frandom-seed=two %s -o %t.two
// RUN: %qemu-armhf %t.one | diff %t.clang.out -
// RUN: %qemu-armhf %t.two | diff %t.clang.out -
// RUN: %not cmp -s %t.one %t.two
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O2 -frandom-seed=one %s -o %t.default
// RUN: %qemu-armhf %t.default | diff %t.clang.out -
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O0 -fdiversify=all -frandom-seed=one %s -o %t.o0
// RUN: %qemu-armhf %t.o0 | diff %t.clang.out -
// RUN: %divcc --target=arm-linux-gnueabihf -marm -O2 -fdiversify=all -frandom-seed=one %s -o %t.arm
// RUN: %qemu-armhf %t.arm | diff %t.clang.out -
// RUN: %divcc --target=arm-linux-gnueabihf -marm -O0 -fdiversify=all -frandom-seed=one %s -o %t.arm-o0
// RUN: %qemu-armhf %t.arm-o0 | diff %t.clang.out -
//
// Far branches: with a NOP before every instruction, the 16-bit
// conditional branch over far()'s body no longer reaches, and constant
// islands, which run after the NOPs, make it the 32-bit form.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O1 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.far
// RUN: %qemu-armhf %t.far | diff %t.clang.out -
// RUN: llvm-objdump-19 -d --disassemble-symbols=far %t.far | %FileCheck --check-prefix=RELAXED %s
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -fuse-ld=lld -O1 %s -o %t.clang-o1
// RUN: llvm-objdump-19 -d --disassemble-symbols=far %t.clang-o1 | %FileCheck --check-prefix=IN-RANGE %s
//
// Literal pools: pool()'s constants fit one pool after the function in
// clang's build; with the NOPs the first loads no longer reach it, and
// constant islands put a second pool within their reach.
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -O1 -c %s -o %t.clang-o1.o
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -O1 -c -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.far.o
// RUN: python3 %S/Inputs/pools.py %t.clang-o1.o pool | %FileCheck --check-prefix=ONE-POOL %s
// RUN: python3 %S/Inputs/pools.py %t.far.o pool | %FileCheck --check-prefix=TWO-POOLS %s

// RELAXED-LABEL: <far>:
// RELAXED: {{	b(gt|le)\.w	}}
// IN-RANGE-LABEL: <far>:
// IN-RANGE: {{: [0-9a-f]{4}[[:space:]]+b(gt|le)[[:space:]]}}
// ONE-POOL: {{^1$}}
// TWO-POOLS: {{^[2-9]$}}

// CHECK: sum 62112
// CHECK: sorted 1 2 3 5 8 13 21 34
// CHECK: indirect 42
// CHECK: clamp 0 5 9
// CHECK: far 1
// CHECK: pool 132

#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

typedef int (*Op)(int);
static int add1(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
Op ops[] = {add1, twice};

// Conditional moves: IT blocks in Thumb.
__attribute__((noinline)) int clamp(int x, int lo, int hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

// About 180 bytes of Thumb code that a conditional branch jumps over: in
// the 16-bit branch's 256-byte range in clang's build, beyond it once a NOP
// precedes each instruction.
__attribute__((noinline)) int far(volatile int *v, int k) {
  if (k <= 100) {
#define S4(i) v[(i) & 15] += v[((i) + 1) & 15] * (i);
#define S16(i) S4(i) S4(i + 1) S4(i + 2) S4(i + 3)
    S16(0) S16(16) S16(32) S16(48)
  }
  return v[3] + 1;
}

// Double constants loaded from a literal pool, from both ends of a long
// body (vldr reaches 1020 bytes).
int Gs[64] = {[5] = 7};
__attribute__((noinline)) double pool(volatile double *v, int k) {
  double r = v[0] * 3.141592653589793 + k;
#define T4(i) v[(i) & 7] = v[((i) + 3) & 7] * 1.0000001 + v[((i) + 5) & 7] * (i);
#define T16(i) T4(i) T4(i + 1) T4(i + 2) T4(i + 3)
  T16(0) T16(16) T16(32) T16(48) T16(64) T16(80)
  return r + v[k & 7] * 2.718281828459045 + Gs[k & 63];
}

int main(int argc, char **argv) {
  (void)argv;
  long sum = 0;
  for (int i = 0; i < 1000; ++i)
    sum += i % 127;
  printf("sum %ld\n", sum);
  int a[] = {21, 3, 8, 1, 34, 13, 2, 5};
  qsort(a, 8, sizeof(int), cmp);
  printf("sorted");
  for (int i = 0; i < 8; ++i)
    printf(" %d", a[i]);
  printf("\n");
  printf("indirect %d\n", ops[argc](20) + ops[0](1));
  printf("clamp %d %d %d\n", clamp(-3, 0, 9), clamp(5, 0, 9), clamp(12, 0, 9));
  volatile int v[16] = {0};
  printf("far %d\n", far(v, argc));
  volatile double d[8] = {0};
  printf("pool %.0f\n", pool(d, argc + 4) * 11);
  return 0;
}
