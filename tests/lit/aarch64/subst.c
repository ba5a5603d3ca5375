// Instruction substitution on AArch64 (targets/aarch64/AArch64Substitutions.cpp):
// register copies, zeroings, commutative operations and conditional selects
// take one of their equivalent forms, and so do constants that are
// bitmask immediates. Each form is drawn at least once,
// another seed draws others, the same seed the same; with every form written
// back as clang's (../transforms/Inputs/undo_subst.py) the object is clang-19's,
// instruction for instruction, at -O2 and -O0, under the machine verifier;
// -g changes no code; and the program prints what clang-19's prints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/one.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=subst -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t/two.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=subst -frandom-seed=one %s -o %t/again.o
// RUN: %clang --target=aarch64-linux-gnu -c -O2 %s -o %t/clang.o
// RUN: llvm-objdump -d --no-show-raw-insn %t/one.o | %FileCheck %s
// RUN: llvm-objcopy -O binary --only-section=.text %t/one.o %t/one.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/two.o %t/two.text
// RUN: %not cmp -s %t/one.text %t/two.text
// RUN: cmp %t/one.o %t/again.o
// RUN: python3 %S/../transforms/Inputs/undo_subst.py %t/one.o %t/clang.o | %FileCheck --check-prefix=UNDONE %s
// RUN: python3 %S/../transforms/Inputs/undo_subst.py %t/two.o %t/clang.o | %FileCheck --check-prefix=UNDONE %s
// UNDONE: instructions, {{[1-9][0-9]+}} substituted, the rest as clang's
//
// At -O0, where copies and zeroings abound.
// RUN: %divcc --target=aarch64-linux-gnu -c -O0 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/o0.o
// RUN: %clang --target=aarch64-linux-gnu -c -O0 %s -o %t/clang-o0.o
// RUN: python3 %S/../transforms/Inputs/undo_subst.py %t/o0.o %t/clang-o0.o | %FileCheck --check-prefix=UNDONE %s
//
// -g draws the same forms.
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -g -fdiversify=subst -frandom-seed=one %s -o %t/g.o
// RUN: llvm-objcopy -O binary --only-section=.text %t/g.o %t/g.text
// RUN: cmp %t/one.text %t/g.text
//
// Under qemu: two seeds and the default set print what clang-19's build does.
// RUN: %if aarch64-run %{ %clang --target=aarch64-linux-gnu -fuse-ld=lld -O2 %s -o %t/clang %}
// RUN: %if aarch64-run %{ %qemu-aarch64 %t/clang > %t/clang.out %}
// RUN: %if aarch64-run %{ %divcc --target=aarch64-linux-gnu -O2 -fdiversify=subst -frandom-seed=one %s -o %t/one %}
// RUN: %if aarch64-run %{ %divcc --target=aarch64-linux-gnu -O2 -fdiversify=subst -frandom-seed=two %s -o %t/two %}
// RUN: %if aarch64-run %{ %divcc --target=aarch64-linux-gnu -O2 -fdiversify -frandom-seed=three %s -o %t/default %}
// RUN: %if aarch64-run %{ %qemu-aarch64 %t/one | diff %t/clang.out - %}
// RUN: %if aarch64-run %{ %qemu-aarch64 %t/two | diff %t/clang.out - %}
// RUN: %if aarch64-run %{ %qemu-aarch64 %t/default | diff %t/clang.out - %}

// With 40 copies of each function, every form is drawn at least once (a
// miss has odds below 1e-2 for the eleven forms of a copy, far less for
// the others).
//
// Copies, 32 and 64 bits: mov wd, wm is orr wd, wzr, wm.
// CHECK-DAG: mov w0, w1
// CHECK-DAG: orr w0, w1, wzr
// CHECK-DAG: orr w0, w1, w1
// CHECK-DAG: and w0, w1, w1
// CHECK-DAG: add w0, wzr, w1
// CHECK-DAG: add w0, w1, wzr
// CHECK-DAG: sub w0, w1, wzr
// CHECK-DAG: eor w0, wzr, w1
// CHECK-DAG: eor w0, w1, wzr
// CHECK-DAG: add w0, w1, #0x0
// CHECK-DAG: sub w0, w1, #0x0
// CHECK-DAG: mov x0, x1
// CHECK-DAG: add x0, x1, #0x0
// CHECK-DAG: eor x0, xzr, x1
// Zeroing (mov x0, xzr; neg x0, xzr is sub x0, xzr, xzr).
// CHECK-DAG: mov x0, xzr
// CHECK-DAG: mov x0, #0x0
// CHECK-DAG: and x0, xzr, xzr
// CHECK-DAG: eor x0, xzr, xzr
// CHECK-DAG: add x0, xzr, xzr
// CHECK-DAG: neg x0, xzr
// Constants that are bitmask immediates too (0x3 in tst_N below).
// CHECK-DAG: mov w8, #0x3
// CHECK-DAG: orr w8, wzr, #0x3
// CHECK-DAG: mov w0, #0xff0000
// CHECK-DAG: orr w0, wzr, #0xff0000
// Commutative operations, and the flags of tst.
// CHECK-DAG: add x0, x1, x2
// CHECK-DAG: add x0, x2, x1
// CHECK-DAG: mul w0, w1, w2
// CHECK-DAG: mul w0, w2, w1
// CHECK-DAG: tst x0, x1
// CHECK-DAG: tst x1, x0
// A select with its sources swapped and its condition inverted.
// CHECK-DAG: csel w0, w9, w8, eq
// CHECK-DAG: csel w0, w8, w9, ne

#include <stdio.h>

#include "../transforms/Inputs/repeat.h"

#define COPY32(n)                                                              \
  int copy32_##n(int a, int b) { return b; }
#define COPY64(n)                                                              \
  long copy64_##n(long a, long b) { return b; }
#define ZERO(n)                                                                \
  long zero_##n(long *p, long a) {                                             \
    *p = a;                                                                    \
    return 0;                                                                  \
  }
#define ADD(n)                                                                 \
  long add_##n(long a, long b, long c) { return b + c; }
#define MUL(n)                                                                 \
  int mul_##n(int a, int b, int c) { return b * c; }
#define TST(n)                                                                 \
  int tst_##n(long a, long b) { return (a & b) ? 3 : 5; }
#define CONSTANT(n)                                                            \
  long constant_##n(long a) { return 0xff0000; }

REP40(COPY32)
REP40(COPY64)
REP40(ZERO)
REP40(ADD)
REP40(MUL)
REP40(TST)
REP40(CONSTANT)

#define P_COPY32(n) copy32_##n,
#define P_COPY64(n) copy64_##n,
#define P_ZERO(n) zero_##n,
#define P_ADD(n) add_##n,
#define P_MUL(n) mul_##n,
#define P_TST(n) tst_##n,
#define P_CONSTANT(n) constant_##n,

static int (*const Copy32[])(int, int) = {REP40(P_COPY32)};
static long (*const Copy64[])(long, long) = {REP40(P_COPY64)};
static long (*const Zero[])(long *, long) = {REP40(P_ZERO)};
static long (*const Add[])(long, long, long) = {REP40(P_ADD)};
static int (*const Mul[])(int, int, int) = {REP40(P_MUL)};
static int (*const Tst[])(long, long) = {REP40(P_TST)};
static long (*const Constant[])(long) = {REP40(P_CONSTANT)};

int main(void) {
  unsigned long sum = 0;
  long cell = 0;
  for (unsigned i = 0; i < 40; ++i) {
    long v = (long)i * 0x9e3779b97f4a7c15L;
    sum = sum * 31 + (unsigned)Copy32[i](7, (int)v);
    sum = sum * 31 + (unsigned long)Copy64[i](7, v);
    sum = sum * 31 + (unsigned long)Zero[i](&cell, v) + (unsigned long)cell;
    sum = sum * 31 + (unsigned long)Add[i](1, v, -3 * v + 5);
    sum = sum * 31 + (unsigned)Mul[i](1, (int)v, (int)i - 7);
    sum = sum * 31 + (unsigned)Tst[i](v, 1L << (i % 8));
    sum = sum * 31 + (unsigned long)Constant[i](v);
  }
  printf("sum %lx\n", sum);
  return 0;
}
