// Trap gaps: padding of int3 after jumps, returns, tail calls and calls
// that do not return, never executed. The program goes through a jump
// table, tail calls and early returns on every run; int3 would stop it
// with SIGTRAP if control ever fell into a gap.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 %s -o %t/clang
// RUN: %t/clang 7 > %t/clang.out
// RUN: %divcc -O2 -fdiversify=gaps -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/one
// RUN: %divcc -O2 -fdiversify=gaps -frandom-seed=2 %s -o %t/two
// RUN: %divcc -O2 -fdiversify=gaps,funcs,sched,nops,blocks -frandom-seed=3 -mllvm -verify-machineinstrs %s -o %t/mixed
// RUN: %t/one 7 | diff %t/clang.out -
// RUN: %t/two 7 | diff %t/clang.out -
// RUN: %t/mixed 7 | diff %t/clang.out -
//
// The traps follow only places control cannot fall through.
// RUN: python3 %S/Inputs/trap_runs.py %t/one | %FileCheck %s --check-prefix=GAPS
// RUN: python3 %S/Inputs/trap_runs.py %t/mixed | %FileCheck %s --check-prefix=GAPS
// GAPS: jump: {{[1-9][0-9]*}} return: {{[1-9][0-9]*}} call: {{[0-9]+}} other: 0
//
// Another seed, other gaps; the same seed, the same code, with or without
// -g; none when gaps is not listed.
// RUN: not cmp -s %t/one %t/two
// RUN: %divcc -O2 -c -fdiversify=gaps -frandom-seed=1 %s -o %t/plain.o
// RUN: %divcc -O2 -c -g -fdiversify=gaps -frandom-seed=1 %s -o %t/debug.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/plain.o %t/plain.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/debug.o %t/debug.text
// RUN: cmp %t/plain.text %t/debug.text
// RUN: %divcc -O2 -fdiversify=funcs,sched,nops,blocks,offset -frandom-seed=1 %s -o %t/unlisted
// RUN: python3 %S/Inputs/trap_runs.py %t/unlisted | %FileCheck %s --check-prefix=NONE
// NONE: jump: 0 return: 0 call: 0 other: 0

#include <stdio.h>
#include <stdlib.h>

static volatile int Sink;

__attribute__((noinline)) static int leaf(int X) { return X * 7 + Sink; }
__attribute__((noinline, noreturn)) static void die(int X) {
  printf("bad %d\n", X);
  exit(2);
}

// A switch dense enough for a jump table, cases that return early, fall
// into a shared tail, or tail-call.
__attribute__((noinline)) int dispatch(int Op, int X) {
  switch (Op) {
  case 0: return leaf(X);
  case 1: X += leaf(X + 1); break;
  case 2: return X - 3;
  case 3: X ^= 0x5a; break;
  case 4: return leaf(X * 2) + 1;
  case 5: X = X * X; break;
  case 6: if (X < 0) die(X); X >>= 1; break;
  case 7: return -X;
  default: X -= 11; break;
  }
  return X > 1000 ? leaf(X % 1000) : X;
}

__attribute__((noinline)) int walk(int N) {
  int S = 0;
  for (int I = 0; I < N * 9; ++I)
    S += dispatch(I % 9, I + N);
  return S;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 3;
  for (int I = 0; I < N; ++I)
    printf("%d %d\n", I, walk(I));
  return 0;
}
