// Basic-block sections (-fbasic-block-sections=all: each block in a
// section of its own, placed by the linker) with every transformation:
// `gaps` and `entry`, whose new blocks would need sections of their own,
// leave such functions alone (their code is clang-19's, byte for byte),
// and the program prints what clang-19's prints. With =labels (an address
// map, no sections) they act as usual.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fbasic-block-sections=all %s -o %t/clang && %t/clang 7 > %t/clang.out
// RUN: %divcc -O2 -fbasic-block-sections=all -fdiversify=all -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/all
// RUN: %t/all 7 | diff %t/clang.out -
// RUN: %divcc -O2 -fbasic-block-sections=all -fdiversify=gaps,entry -frandom-seed=1 -c %s -o %t/sections.o
// RUN: %clang -O2 -fbasic-block-sections=all -c %s -o %t/clang.o
// RUN: llvm-objdump-19 -d %t/sections.o | tail -n +3 > %t/sections.txt
// RUN: llvm-objdump-19 -d %t/clang.o | tail -n +3 > %t/clang.txt
// RUN: diff %t/clang.txt %t/sections.txt
// RUN: %divcc -O2 -fbasic-block-sections=labels -fdiversify=all -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/labels
// RUN: %t/labels 7 | diff %t/clang.out -
// RUN: llvm-objdump-19 -d --no-show-raw-insn %t/labels | grep -c int3 | %FileCheck %s --check-prefix=SOME
// SOME: {{^[1-9][0-9]*$}}

#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int classify(int x) {
  if (x > 3)
    return x * 2;
  if (x < -3)
    return -x;
  return x - 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  int sum = 0;
  for (int i = -n; i <= n; ++i)
    sum += classify(i);
  printf("%d\n", sum);
  return 0;
}
