// shift: 0 to N no-ops (-fdiversify-shift-max, 3 by default) right before
// the first return, indirect jump or indirect call a function's entry falls
// into (Inputs/shift_sites.py checks the assembly against clang-19's: the
// same code with the no-ops taken out, one run in that place, none where
// the entry reaches a jump first). Every count is drawn, another seed
// draws others, a seed repeats, -g draws the same no-ops (against clang's
// -g build: clang-19 itself schedules this file's AArch64 code otherwise
// with -g), 0 turns it off, and
// the programs print what clang-19's builds print. On x86-64, AArch64,
// RISC-V 64, Thumb and ARM state. On x86-64, N is 1 by default and each
// no-op 1 to 10 bytes long: every distance from 0 to 10N bytes is drawn.
// In ARM code a no-op is the hint or a mov, mvn or movw of a constant into
// a register dead there.
//
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{triple} =
// DEFINE: %{arch} =
// DEFINE: %{max} = 3
// DEFINE: %{counts} = CHECK
// DEFINE: %{check} = \
// DEFINE:   %divcc --target=%{triple} -S -O2 -fdiversify=shift -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/%{arch}-one.s && \
// DEFINE:   %divcc --target=%{triple} -S -O2 -fdiversify=shift -frandom-seed=two %s -o %t/%{arch}-two.s && \
// DEFINE:   %divcc --target=%{triple} -S -O2 -fdiversify=shift -frandom-seed=one %s -o %t/%{arch}-again.s && \
// DEFINE:   %divcc --target=%{triple} -S -O2 -fdiversify=shift -fdiversify-shift-max=8 -frandom-seed=one %s -o %t/%{arch}-eight.s && \
// DEFINE:   %divcc --target=%{triple} -S -O0 -fdiversify=shift -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/%{arch}-o0.s && \
// DEFINE:   %clang --target=%{triple} -S -O2 %s -o %t/%{arch}-clang.s && \
// DEFINE:   %clang --target=%{triple} -S -O0 %s -o %t/%{arch}-clang-o0.s && \
// DEFINE:   python3 %S/Inputs/shift_sites.py %{arch} %{max} %t/%{arch}-one.s %t/%{arch}-clang.s %t/%{arch}-one.counts | %FileCheck %s --check-prefix=%{counts} && \
// DEFINE:   python3 %S/Inputs/shift_sites.py %{arch} %{max} %t/%{arch}-two.s %t/%{arch}-clang.s | %FileCheck %s --check-prefix=%{counts} && \
// DEFINE:   python3 %S/Inputs/shift_sites.py %{arch} 8 %t/%{arch}-eight.s %t/%{arch}-clang.s | %FileCheck %s --check-prefix=%{counts}-EIGHT && \
// DEFINE:   python3 %S/Inputs/shift_sites.py %{arch} %{max} %t/%{arch}-o0.s %t/%{arch}-clang-o0.s | %FileCheck %s --check-prefix=%{counts} && \
// DEFINE:   %not diff -q %t/%{arch}-one.s %t/%{arch}-two.s && \
// DEFINE:   diff %t/%{arch}-one.s %t/%{arch}-again.s && \
// DEFINE:   %divcc --target=%{triple} -S -O2 -g -fdiversify=shift -frandom-seed=one %s -o %t/%{arch}-g.s && \
// DEFINE:   %clang --target=%{triple} -S -O2 -g %s -o %t/%{arch}-clang-g.s && \
// DEFINE:   python3 %S/Inputs/shift_sites.py %{arch} %{max} %t/%{arch}-g.s %t/%{arch}-clang-g.s %t/%{arch}-g.counts | %FileCheck %s --check-prefix=%{counts} && \
// DEFINE:   diff %t/%{arch}-one.counts %t/%{arch}-g.counts && \
// DEFINE:   %divcc --target=%{triple} -S -O2 -fdiversify=shift -fdiversify-shift-max=0 -frandom-seed=one %s -o %t/%{arch}-zero.s && \
// DEFINE:   diff %t/%{arch}-clang.s %t/%{arch}-zero.s
//
// REDEFINE: %{triple} = x86_64-linux-gnu
// REDEFINE: %{arch} = x86_64
// REDEFINE: %{max} = 1
// REDEFINE: %{counts} = X86
// RUN: %{check}
// REDEFINE: %{max} = 3
// REDEFINE: %{counts} = CHECK
// REDEFINE: %{triple} = aarch64-linux-gnu
// REDEFINE: %{arch} = aarch64
// RUN: %{check}
// REDEFINE: %{triple} = riscv64-linux-gnu
// REDEFINE: %{arch} = riscv64
// RUN: %{check}
// REDEFINE: %{counts} = ARM
// REDEFINE: %{triple} = arm-linux-gnueabihf -mthumb
// REDEFINE: %{arch} = arm
// RUN: %{check}
// REDEFINE: %{triple} = arm-linux-gnueabihf -marm
// RUN: %{check}
//
// Every count from 0 to the most is drawn among the 200 functions whose
// entry falls into a return, an indirect call or inline assembly (the 40
// tail callers get none); at -O0 every function returns. On x86-64 every
// distance from 0 to 10 bytes in one no-op or none, and with at most 8
// no-ops, every count but 0, whose distance is 1 of 81, is drawn.
// CHECK: endings {{[12][0-9][0-9]}} of 2{{[0-9][0-9]}} (inline assembly 40); no-ops 0:{{[0-9]+}} 1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}}{{$}}
// CHECK-EIGHT: no-ops 0:{{[0-9]+}} 1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}} 4:{{[0-9]+}} 5:{{[0-9]+}} 6:{{[0-9]+}} 7:{{[0-9]+}} 8:{{[0-9]+}}{{$}}
// In ARM code (Thumb and ARM state) the no-ops also write constants into
// registers dead where they go: at least four registers are written, none
// that the code from there to the ending reads.
// ARM: endings {{[12][0-9][0-9]}} of 2{{[0-9][0-9]}} (inline assembly 40); no-ops 0:{{[0-9]+}} 1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}}; registers written {{[4-9]|1[0-4]}}{{$}}
// ARM-EIGHT: no-ops 0:{{[0-9]+}} 1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}} 4:{{[0-9]+}} 5:{{[0-9]+}} 6:{{[0-9]+}} 7:{{[0-9]+}} 8:{{[0-9]+}}; registers written
// X86: endings {{[12][0-9][0-9]}} of 2{{[0-9][0-9]}} (inline assembly 40); no-ops 0:{{[0-9]+}} 1:{{[0-9]+}}; bytes 0:{{[0-9]+}} 1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}} 4:{{[0-9]+}} 5:{{[0-9]+}} 6:{{[0-9]+}} 7:{{[0-9]+}} 8:{{[0-9]+}} 9:{{[0-9]+}} 10:{{[0-9]+}}{{$}}
// X86-EIGHT: no-ops {{(0:[0-9]+ )?}}1:{{[0-9]+}} 2:{{[0-9]+}} 3:{{[0-9]+}} 4:{{[0-9]+}} 5:{{[0-9]+}} 6:{{[0-9]+}} 7:{{[0-9]+}} 8:{{[0-9]+}}; bytes
//
// The programs run: natively, and under qemu where it is installed.
// RUN: %clang -O2 %s -o %t/clang && %t/clang > %t/clang.out
// RUN: %divcc -O2 -fdiversify=shift -fdiversify-shift-max=16 -frandom-seed=one %s -o %t/x86 && %t/x86 | diff %t/clang.out -
// RUN: %if aarch64-run %{ %divcc --target=aarch64-linux-gnu -O2 -fdiversify=shift -fdiversify-shift-max=16 -frandom-seed=one %s -o %t/a64 %}
// RUN: %if aarch64-run %{ %qemu-aarch64 %t/a64 | diff %t/clang.out - %}
// RUN: %if riscv64-run %{ %divcc --target=riscv64-linux-gnu -O2 -fdiversify=shift -fdiversify-shift-max=16 -frandom-seed=one %s -o %t/rv %}
// RUN: %if riscv64-run %{ %qemu-riscv64 %t/rv | diff %t/clang.out - %}
// RUN: %if armhf-run %{ %divcc --target=arm-linux-gnueabihf -mthumb -O2 -fdiversify=shift -fdiversify-shift-max=16 -frandom-seed=one %s -o %t/thumb %}
// RUN: %if armhf-run %{ %qemu-armhf %t/thumb | diff %t/clang.out - %}
// RUN: %if armhf-run %{ %divcc --target=arm-linux-gnueabihf -marm -O2 -fdiversify=shift -fdiversify-shift-max=16 -frandom-seed=one %s -o %t/arm %}
// RUN: %if armhf-run %{ %qemu-armhf %t/arm | diff %t/clang.out - %}

#include <stdio.h>

#include "Inputs/repeat.h"

__attribute__((noinline)) int external(int x) { return x * 7 + 1; }
__attribute__((noinline)) void record(int x);

// Straight into a return.
#define LEAF(n)                                                                \
  __attribute__((noinline)) int leaf_##n(const int *p) { return *p + NUM(n); }
// A test, then a return either way.
#define EARLY(n)                                                               \
  __attribute__((noinline)) int early_##n(const int *p) {                      \
    if (!p)                                                                    \
      return -NUM(n);                                                             \
    return *p * 3 + NUM(n);                                                      \
  }
// Calls through a pointer: the first is the ending.
#define INDIRECT(n)                                                            \
  __attribute__((noinline)) void indirect_##n(void (*f)(int)) {                \
    f(NUM(n));                                                                 \
    f(NUM(n) + 1);                                                              \
  }
// A loop before the return.
#define LOOP(n)                                                                \
  __attribute__((noinline)) int loop_##n(const int *a, int len) {              \
    int s = NUM(n);                                                              \
    for (int i = 0; i < len; ++i)                                              \
      s += a[i] * (i + NUM(n));                                                 \
    return s;                                                                  \
  }
// A direct tail call: no return, no no-op.
#define TAIL(n)                                                                \
  __attribute__((noinline)) int tail_##n(int x) { return external(x + NUM(n)); }
// Inline assembly, whose bytes may hold any gadget, then a direct tail
// call: the assembly is the ending.
#define ASM(n)                                                                 \
  __attribute__((noinline)) int asm_##n(int x) {                               \
    __asm__ volatile("" : "+r"(x));                                            \
    return external(x + NUM(n));                                               \
  }

REP40(LEAF)
REP40(EARLY)
REP40(INDIRECT)
REP40(LOOP)
REP40(TAIL)
REP40(ASM)

static unsigned long long sum;
__attribute__((noinline)) void record(int x) { sum = sum * 31 + (unsigned)x; }

// Called through tables, so that main stays small (in Thumb, a large
// function's constant islands go wherever its size puts them).
#define ENTRY(name) name##_00, name##_01, name##_02, name##_03, name##_04,      \
  name##_05, name##_06, name##_07, name##_08, name##_09, name##_10, name##_11, \
  name##_12, name##_13, name##_14, name##_15, name##_16, name##_17, name##_18, \
  name##_19, name##_20, name##_21, name##_22, name##_23, name##_24, name##_25, \
  name##_26, name##_27, name##_28, name##_29, name##_30, name##_31, name##_32, \
  name##_33, name##_34, name##_35, name##_36, name##_37, name##_38, name##_39
static int (*const Leaf[])(const int *) = {ENTRY(leaf)};
static int (*const Early[])(const int *) = {ENTRY(early)};
static void (*const Indirect[])(void (*)(int)) = {ENTRY(indirect)};
static int (*const Loop[])(const int *, int) = {ENTRY(loop)};
static int (*const Tail[])(int) = {ENTRY(tail)};
static int (*const Asm[])(int) = {ENTRY(asm)};

int main(void) {
  static const int values[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  for (int n = 0; n < 40; ++n) {
    sum = sum * 31 + (unsigned)Leaf[n](&values[n % 8]);
    sum = sum * 31 + (unsigned)Early[n](n % 3 ? &values[n % 8] : 0);
    Indirect[n](record);
    sum = sum * 31 + (unsigned)Loop[n](values, n % 8);
    sum = sum * 31 + (unsigned)Tail[n](n);
    sum = sum * 31 + (unsigned)Asm[n](n);
  }
  printf("sum %llx\n", sum);
  return 0;
}
