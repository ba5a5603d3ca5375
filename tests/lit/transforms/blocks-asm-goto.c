// asm goto: its block falls through to the default destination and jumps to
// the labels it names. Shuffled, the fall-through becomes a jump where the
// new order breaks it, the labelled blocks move like any other, and the
// program behaves as clang's build.
// RUN: %clang -O2 %s -o %t.clang.exe
// RUN: %t.clang.exe > %t.clang.out
// RUN: %divcc -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t.1.exe
// RUN: %divcc -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=2 -mllvm -verify-machineinstrs %s -o %t.2.exe
// RUN: %divcc -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=3 -mllvm -verify-machineinstrs %s -o %t.3.exe
// RUN: %t.1.exe | diff %t.clang.out -
// RUN: %t.2.exe | diff %t.clang.out -
// RUN: %t.3.exe | diff %t.clang.out -
//
// With seed 1 the block after the first asm goto moved away: a jump to it
// replaces the fall-through, right after the inline assembly.
// RUN: %divcc -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=1 %s -o - | %FileCheck %s

// CHECK-LABEL: classify:
// CHECK: #APP
// CHECK-NEXT: testl
// CHECK-NEXT: je .LBB0_{{[0-9]+}}
// CHECK-NEXT: #NO_APP
// CHECK-NEXT: jmp .LBB0_{{[0-9]+}}

#include <stdio.h>

__attribute__((noinline)) int classify(int x) {
  int r = x;
  asm goto("testl %0, %0; je %l[zero]" : : "r"(x) : : zero);
  r += 7;
  if (x > 100)
    r *= 3;
  asm goto("cmpl $5, %0; je %l[five]" : : "r"(r) : : five);
  return r;
zero:
  return -1;
five:
  return 55;
}

int main(void) {
  long total = 0;
  for (int x = -10; x < 300; x += 3)
    total = total * 7 + classify(x);
  printf("%ld %d %d\n", total, classify(0), classify(-2));
  return 0;
}
