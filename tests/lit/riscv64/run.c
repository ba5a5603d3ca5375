// RISC-V 64 programs built with every transformation, and with the default
// set, run under qemu-user and print what clang-19's build prints; two
// seeds give two different binaries. At -O0 too, and without the C
// extension. Needs the Debian cross libraries and qemu-user. The host's ld
// cannot link for RISC-V: divcc uses ld.lld (tests/lit/aarch64/cross-link.c).
// REQUIRES: riscv64-run
// RUN: %clang --target=riscv64-linux-gnu -fuse-ld=lld -O2 %s -o %t.clang
// RUN: %qemu-riscv64 %t.clang > %t.clang.out
// RUN: %FileCheck %s < %t.clang.out
// RUN: %divcc --target=riscv64-linux-gnu -O2 -fdiversify=all -frandom-seed=one %s -o %t.one
// RUN: %divcc --target=riscv64-linux-gnu -O2 -fdiversify=all -frandom-seed=two %s -o %t.two
// RUN: %qemu-riscv64 %t.one | diff %t.clang.out -
// RUN: %qemu-riscv64 %t.two | diff %t.clang.out -
// RUN: %not cmp -s %t.one %t.two
// RUN: %divcc --target=riscv64-linux-gnu -O2 -frandom-seed=one %s -o %t.default
// RUN: %qemu-riscv64 %t.default | diff %t.clang.out -
// RUN: %divcc --target=riscv64-linux-gnu -O0 -fdiversify=all -frandom-seed=one %s -o %t.o0
// RUN: %qemu-riscv64 %t.o0 | diff %t.clang.out -
// RUN: %divcc --target=riscv64-linux-gnu -march=rv64g -O2 -fdiversify=all -frandom-seed=one %s -o %t.rv64g
// RUN: %qemu-riscv64 %t.rv64g | diff %t.clang.out -
//
// Far branches: with NOPs everywhere, a conditional branch over a large
// block no longer reaches, and branch relaxation, which runs after the
// NOPs, turns it into a branch over a jump.
// RUN: %divcc --target=riscv64-linux-gnu -O1 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.far
// RUN: %qemu-riscv64 %t.far | diff %t.clang.out -
// RUN: llvm-objdump-19 -d --disassemble-symbols=far %t.far | %FileCheck --check-prefix=RELAXED %s
// RUN: %clang --target=riscv64-linux-gnu -fuse-ld=lld -O1 %s -o %t.clang-o1
// RUN: llvm-objdump-19 -d --disassemble-symbols=far %t.clang-o1 | %FileCheck --check-prefix=IN-RANGE %s

// RELAXED-LABEL: <far>:
// RELAXED: {{	b(ge|lt)	}}
// RELAXED-NEXT: {{	j	}}
// IN-RANGE-LABEL: <far>:
// IN-RANGE: {{	b(ge|lt)	}}
// IN-RANGE-NOT: {{	j	}}
// IN-RANGE: {{	ret$}}

// CHECK: sum 62112
// CHECK: sorted 1 2 3 5 8 13 21 34
// CHECK: indirect 42
// CHECK: far 1

#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

typedef int (*Op)(int);
static int add1(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
Op ops[] = {add1, twice};

// About 3 KiB of code that a conditional branch jumps over: in its 4 KiB
// range in clang's build, beyond it once a NOP follows each instruction.
__attribute__((noinline)) int far(volatile int *v, int k) {
  if (k <= 100) {
#define S4(i) v[(i) & 15] += v[((i) + 1) & 15] * (i);
#define S16(i) S4(i) S4(i + 1) S4(i + 2) S4(i + 3)
#define S64(i) S16(i) S16(i + 4) S16(i + 8) S16(i + 12)
    S64(0) S64(16) S64(32) S64(48) S64(64) S64(80) S64(96) S64(112)
    S64(128) S64(144) S64(160) S64(176) S64(192)
  }
  return v[3] + 1;
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
  volatile int v[16] = {0};
  printf("far %d\n", far(v, argc));
  return 0;
}
