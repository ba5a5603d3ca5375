// Instruction substitution in ARM state (targets/arm/ARMSubstitutions.cpp):
// register copies, constants that both `mov` and `movw` can write,
// commutative operations and the comparisons `tst` and `cmn` take one of
// their equivalent forms, predicated ones too. Each form is drawn at least
// once, another seed draws others, the same seed the same; with every form
// written back as clang's (../transforms/Inputs/undo_subst.py --arch arm)
// the object is clang-19's, instruction for instruction, at -O2 and -O0,
// under the machine verifier; -g changes no code; Thumb code is left as
// clang's; and the program prints what clang-19's prints under qemu-arm.
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{cc} = --target=arm-linux-gnueabihf -marm
// RUN: %divcc %{cc} -c -O2 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/one.o
// RUN: %divcc %{cc} -c -O2 -fdiversify=subst -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t/two.o
// RUN: %divcc %{cc} -c -O2 -fdiversify=subst -frandom-seed=one %s -o %t/again.o
// RUN: %clang %{cc} -c -O2 %s -o %t/clang.o
// RUN: llvm-objdump -d --no-show-raw-insn %t/one.o | %FileCheck %s
// RUN: llvm-objcopy -O binary --only-section=.text %t/one.o %t/one.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/two.o %t/two.text
// RUN: %not cmp -s %t/one.text %t/two.text
// RUN: cmp %t/one.o %t/again.o
// RUN: python3 %S/../transforms/Inputs/undo_subst.py --arch arm %t/one.o %t/clang.o | %FileCheck --check-prefix=UNDONE %s
// RUN: python3 %S/../transforms/Inputs/undo_subst.py --arch arm %t/two.o %t/clang.o | %FileCheck --check-prefix=UNDONE %s
// UNDONE: instructions, {{[1-9][0-9]+}} substituted, the rest as clang's
//
// At -O0, where copies and constants abound.
// RUN: %divcc %{cc} -c -O0 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/o0.o
// RUN: %clang %{cc} -c -O0 %s -o %t/clang-o0.o
// RUN: python3 %S/../transforms/Inputs/undo_subst.py --arch arm %t/o0.o %t/clang-o0.o | %FileCheck --check-prefix=UNDONE %s
//
// -g draws the same forms.
// RUN: %divcc %{cc} -c -O2 -g -fdiversify=subst -frandom-seed=one %s -o %t/g.o
// RUN: llvm-objcopy -O binary --only-section=.text %t/g.o %t/g.text
// RUN: cmp %t/one.text %t/g.text
//
// Thumb: nothing changes.
// RUN: %divcc --target=arm-linux-gnueabihf -mthumb -c -O2 -fdiversify=subst -frandom-seed=one %s -o %t/thumb.o
// RUN: %clang --target=arm-linux-gnueabihf -mthumb -c -O2 %s -o %t/clang-thumb.o
// RUN: llvm-objcopy -O binary --only-section=.text %t/thumb.o %t/thumb.text
// RUN: llvm-objcopy -O binary --only-section=.text %t/clang-thumb.o %t/clang-thumb.text
// RUN: cmp %t/thumb.text %t/clang-thumb.text
//
// Under qemu: two seeds and the default set print what clang-19's build does.
// RUN: %if armhf-run %{ %clang %{cc} -fuse-ld=lld -O2 %s -o %t/clang %}
// RUN: %if armhf-run %{ %qemu-armhf %t/clang > %t/clang.out %}
// RUN: %if armhf-run %{ %divcc %{cc} -O2 -fdiversify=subst -frandom-seed=one %s -o %t/one %}
// RUN: %if armhf-run %{ %divcc %{cc} -O2 -fdiversify=subst -frandom-seed=two %s -o %t/two %}
// RUN: %if armhf-run %{ %divcc %{cc} -O2 -fdiversify -frandom-seed=three %s -o %t/default %}
// RUN: %if armhf-run %{ %qemu-armhf %t/one | diff %t/clang.out - %}
// RUN: %if armhf-run %{ %qemu-armhf %t/two | diff %t/clang.out - %}
// RUN: %if armhf-run %{ %qemu-armhf %t/default | diff %t/clang.out - %}

// With 40 copies of each function, every form is drawn at least once (a
// miss has odds below 1e-2 for the eight forms of a copy, far less for the
// others).
//
// Copies: mov r0, r1 and its seven equivalents.
// CHECK-DAG: mov r0, r1
// CHECK-DAG: orr r0, r1, r1
// CHECK-DAG: and r0, r1, r1
// CHECK-DAG: add r0, r1, #0
// CHECK-DAG: sub r0, r1, #0
// CHECK-DAG: orr r0, r1, #0
// CHECK-DAG: eor r0, r1, #0
// CHECK-DAG: bic r0, r1, #0
// Constants, unpredicated and predicated (clang writes `movweq`).
// CHECK-DAG: mov r1, #200
// CHECK-DAG: movw r1, #0xc8
// CHECK-DAG: movweq r1, #0x3f00
// CHECK-DAG: moveq r1, #16128
// Commutative operations, with and without the flags.
// CHECK-DAG: add r0, r2, r1
// CHECK-DAG: add r0, r1, r2
// CHECK-DAG: adds r0, r2, r0
// CHECK-DAG: adds r0, r0, r2
// CHECK-DAG: adc r1, r3, r1
// CHECK-DAG: adc r1, r1, r3
// CHECK-DAG: and r1, r2, r1
// CHECK-DAG: and r1, r1, r2
// CHECK-DAG: orr r0, r1, r0
// CHECK-DAG: orr r0, r0, r1
// CHECK-DAG: eors r0, r1, r0
// CHECK-DAG: eors r0, r0, r1
// CHECK-DAG: mul r0, r2, r1
// CHECK-DAG: mul r0, r1, r2
// Comparisons whose flags do not depend on the order.
// CHECK-DAG: tst r1, r0
// CHECK-DAG: tst r0, r1
// CHECK-DAG: cmn r0, r1
// CHECK-DAG: cmn r1, r0

#include <stdio.h>

#include "../transforms/Inputs/repeat.h"

#define COPY(n)                                                                \
  int copy_##n(int a, int b) { return b; }
#define CONSTANT(n)                                                            \
  int constant_##n(int a) { return a ? 200 : 0x3f00; }
#define ADD(n)                                                                 \
  int add_##n(int a, int b, int c) { return b + c; }
#define ADD64(n)                                                               \
  long long add64_##n(long long a, long long b) { return a + b; }
#define LOGIC(n)                                                               \
  int logic_##n(int a, int b, int c) { return (b & c) | a; }
#define SIGN(n)                                                                \
  int sign_##n(int a, int b) { return (a ^ b) < 0 ? 3 : 5; }
#define MUL(n)                                                                 \
  int mul_##n(int a, int b, int c) { return b * c; }
#define TST(n)                                                                 \
  int tst_##n(int a, int b) { return (a & b) ? 3 : 5; }
#define CMN(n)                                                                 \
  int cmn_##n(int a, int b) { return (a + b) ? 3 : 5; }

REP40(COPY)
REP40(CONSTANT)
REP40(ADD)
REP40(ADD64)
REP40(LOGIC)
REP40(SIGN)
REP40(MUL)
REP40(TST)
REP40(CMN)

#define P_COPY(n) copy_##n,
#define P_CONSTANT(n) constant_##n,
#define P_ADD(n) add_##n,
#define P_ADD64(n) add64_##n,
#define P_LOGIC(n) logic_##n,
#define P_SIGN(n) sign_##n,
#define P_MUL(n) mul_##n,
#define P_TST(n) tst_##n,
#define P_CMN(n) cmn_##n,

static int (*const Copy[])(int, int) = {REP40(P_COPY)};
static int (*const Constant[])(int) = {REP40(P_CONSTANT)};
static int (*const Add[])(int, int, int) = {REP40(P_ADD)};
static long long (*const Add64[])(long long, long long) = {REP40(P_ADD64)};
static int (*const Logic[])(int, int, int) = {REP40(P_LOGIC)};
static int (*const Sign[])(int, int) = {REP40(P_SIGN)};
static int (*const Mul[])(int, int, int) = {REP40(P_MUL)};
static int (*const Tst[])(int, int) = {REP40(P_TST)};
static int (*const Cmn[])(int, int) = {REP40(P_CMN)};

int main(void) {
  unsigned long long sum = 0;
  for (unsigned i = 0; i < 40; ++i) {
    int v = (int)(i * 0x9e3779b9u);
    long long w = (long long)v * 0x10001LL;
    sum = sum * 31 + (unsigned)Copy[i](7, v);
    sum = sum * 31 + (unsigned)Constant[i](i % 2);
    sum = sum * 31 + (unsigned)Add[i](1, v, -3 * v + 5);
    sum = sum * 31 + (unsigned long long)Add64[i](w, 0xffffffffLL - i);
    sum = sum * 31 + (unsigned)Logic[i](v, (int)i, 0x55);
    sum = sum * 31 + (unsigned)Sign[i](v, (int)i - 20);
    sum = sum * 31 + (unsigned)Mul[i](1, v, (int)i - 7);
    sum = sum * 31 + (unsigned)Tst[i](v, 1 << (i % 8));
    sum = sum * 31 + (unsigned)Cmn[i](v, (int)i % 3 ? -v : 1);
  }
  printf("sum %llx\n", sum);
  return 0;
}
