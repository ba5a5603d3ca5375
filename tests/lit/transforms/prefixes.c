// Redundant prefixes: loads, stores and address computations (lea) get a
// segment override (ES, CS, SS or DS, all based at zero in 64-bit mode,
// and ignored by lea) that changes nothing they do, only their length.
// The program loads and stores through pointers, the stack, globals and
// thread-local storage (already %fs-based), calls through a table in
// memory and jumps through a jump table (-fno-pic: the jump reads the
// table itself), where a segment prefix would mean "notrack" or a hint.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fno-pic -no-pie %s -o %t/clang
// RUN: %t/clang 9 > %t/clang.out
// RUN: %divcc -O2 -fno-pic -no-pie -fdiversify=prefixes -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/one
// RUN: %divcc -O2 -fno-pic -no-pie -fdiversify=prefixes -frandom-seed=2 %s -o %t/two
// RUN: %divcc -O2 -fno-pic -no-pie -fdiversify=prefixes,subst,gaps,saves,funcs,sched -frandom-seed=3 -mllvm -verify-machineinstrs %s -o %t/mixed
// RUN: %t/one 9 | diff %t/clang.out -
// RUN: %t/two 9 | diff %t/clang.out -
// RUN: %t/mixed 9 | diff %t/clang.out -
//
// Only prefixes and the forms of pushes differ from clang-19's
// instructions, and only loads, stores and lea have prefixes: some by
// default (a chance of 0.25 each), all at -fdiversify-prefix-probability=1,
// with all four segments drawn, and none at 0, where the code is clang's.
// Pushes of a register take their long form (ff /6) with the same chance;
// pops never do (valgrind does not decode 8f /0 with a register).
// RUN: %clang -O2 -fno-pic -c %s -o %t/clang.o
// RUN: %divcc -O2 -fno-pic -c -fdiversify=prefixes -frandom-seed=1 %s -o %t/one.o
// RUN: python3 %S/Inputs/prefix_sites.py %t/one.o %t/clang.o | %FileCheck %s
// CHECK:      prefixed: {{[1-9][0-9]*}}
// CHECK-NEXT: loads and stores without one: {{[1-9][0-9]*}}
// CHECK-NEXT: lea without one: {{[1-9][0-9]*}}
// CHECK:      not a load, store or lea: 0
// CHECK-NEXT: same instructions as clang: yes
// CHECK-NEXT: pushes in long form: {{[1-9][0-9]*}} short: {{[1-9][0-9]*}}
// CHECK-NEXT: pops in long form: 0
// RUN: %divcc -O2 -fno-pic -c -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/all.o
// RUN: python3 %S/Inputs/prefix_sites.py %t/all.o %t/clang.o | %FileCheck %s --check-prefix=ALL
// ALL:      prefixed: {{[1-9][0-9]+}}
// ALL-NEXT: loads and stores without one: 0
// ALL-NEXT: lea without one: 0
// ALL-NEXT: segments: es cs ss ds
// ALL-NEXT: not a load, store or lea: 0
// ALL-NEXT: same instructions as clang: yes
// ALL-NEXT: pushes in long form: {{[1-9][0-9]*}} short: 0
// ALL-NEXT: pops in long form: 0
// RUN: %divcc -O2 -fno-pic -no-pie -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=1 %s -o %t/all
// RUN: %t/all 9 | diff %t/clang.out -
// valgrind decodes every form divcc writes, and the program runs there too.
// RUN: valgrind -q --error-exitcode=99 %t/all 9 | diff %t/clang.out -
// RUN: %divcc -O2 -fno-pic -c -fdiversify=prefixes -fdiversify-prefix-probability=0 -frandom-seed=1 %s -o %t/zero.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/clang.o %t/clang.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/zero.o %t/zero.text
// RUN: cmp %t/clang.text %t/zero.text
// RUN: not %divcc -O2 -c -fdiversify=prefixes -fdiversify-prefix-probability=1.5 -frandom-seed=1 %s -o %t/bad.o 2>&1 | %FileCheck %s --check-prefix=BAD
// BAD: -fdiversify-prefix-probability=
// RUN: python3 %S/Inputs/prefix_sites.py %t/mixed | %FileCheck %s --check-prefix=MIXED
// MIXED: not a load, store or lea: 0
//
// Every prefix is one LLVM's disassembler keeps: each instruction, decoded
// alone and encoded again (as LLVM BOLT does when divtool rerandomize lays
// a golden master out again), has the same bytes, so a function's insides
// keep their offsets there.
// RUN: python3 %S/Inputs/reencode.py %t/all.o | %FileCheck %s --check-prefix=REENCODE
// REENCODE:      instructions: {{[1-9][0-9]+}}
// REENCODE-NEXT: re-encoded differently: 0
//
// NOPs never come between a prefix and its instruction (an lea's is an
// instruction of its own): with both at probability 1, no prefix lands on
// a NOP, and the program runs.
// RUN: %divcc -O2 -fno-pic -no-pie -fdiversify=prefixes,nops -fdiversify-prefix-probability=1 -fdiversify-nop-probability=1 -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/nops
// RUN: %t/nops 9 | diff %t/clang.out -
// RUN: python3 %S/Inputs/prefix_sites.py %t/nops | %FileCheck %s --check-prefix=NOPS
// NOPS: not a load, store or lea: 0
//
// Another seed, other prefixes; the same seed, the same code, with or
// without -g; none when prefixes is not listed.
// RUN: not cmp -s %t/one %t/two
// RUN: %divcc -O2 -fno-pic -c -g -fdiversify=prefixes -frandom-seed=1 %s -o %t/debug.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/one.o %t/one.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/debug.o %t/debug.text
// RUN: cmp %t/one.text %t/debug.text
// RUN: %divcc -O2 -fno-pic -c -fdiversify=subst,gaps,saves,funcs,sched,nops -frandom-seed=1 %s -o %t/unlisted.o
// RUN: python3 %S/Inputs/prefix_sites.py %t/unlisted.o | %FileCheck %s --check-prefix=NONE
// NONE: prefixed: 0

#include <stdio.h>
#include <stdlib.h>

struct Item {
  long Key;
  int Weight;
  short Tag;
};

static __thread long Calls;
long Table[64];

__attribute__((noinline)) static long twice(long X) { return ++Calls, 2 * X; }
__attribute__((noinline)) static long negate(long X) { return ++Calls, -X; }
__attribute__((noinline)) static long square(long X) { return ++Calls, X * X; }
static long (*const Ops[])(long) = {twice, negate, square};

__attribute__((noinline)) long dispatch(int Op, long X) {
  switch (Op) {
  case 0: return X + Table[1];
  case 1: return X - Table[2];
  case 2: return X ^ Table[3];
  case 3: return X * Table[4];
  case 4: return X | Table[5];
  case 5: return X & Table[6];
  default: return X;
  }
}

__attribute__((noinline)) long fold(struct Item *Items, int N) {
  long Sum = 0;
  for (int I = 0; I < N; ++I) {
    Items[I].Weight += Items[I].Tag;
    Sum += Items[I].Key * Items[I].Weight;
    Table[I & 63] += Sum;
  }
  return Sum;
}

int main(int Argc, char **Argv) {
  int N = Argc > 1 ? atoi(Argv[1]) : 5;
  struct Item Items[16];
  for (int I = 0; I < 16; ++I) {
    Items[I].Key = I * 3 + N;
    Items[I].Weight = I ^ N;
    Items[I].Tag = (short)(I - 4);
    Table[I] = I * I;
  }
  long Sum = fold(Items, 16);
  for (int I = 0; I < 3 * N; ++I)
    Sum += Ops[I % 3](dispatch(I % 8, Sum % 1000));
  printf("%ld %ld %d\n", Sum, Calls, Items[7].Weight);
  return 0;
}
