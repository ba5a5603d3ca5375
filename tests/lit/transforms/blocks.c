// Block shuffling permutes the basic blocks of each function; the entry
// block stays first and the program behaves as clang's build.
// RUN: %divcc -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=one %s -o %t.one.s
// RUN: %divcc -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// Each arm of pick stores its own constant: their order in the text is the
// order of the blocks. It differs between seeds and from clang's, and every
// block is still there, exactly once.
// RUN: %clang -S -O2 %s -o %t.clang.s
// RUN: grep -oE '\$10[0-9][0-9]' %t.clang.s > %t.clang.order
// RUN: grep -oE '\$10[0-9][0-9]' %t.one.s > %t.one.order
// RUN: grep -oE '\$10[0-9][0-9]' %t.two.s > %t.two.order
// RUN: %not diff -q %t.one.order %t.two.order
// RUN: %not diff -q %t.clang.order %t.one.order
// RUN: sort %t.clang.order > %t.clang.sorted
// RUN: sort %t.one.order | diff %t.clang.sorted -
// RUN: sort %t.two.order | diff %t.clang.sorted -
//
// The entry block is first: nothing but the entry block's code between the
// function's label and its marker.
// RUN: %FileCheck --check-prefix=ENTRY %s < %t.one.s
// RUN: %FileCheck --check-prefix=ENTRY %s < %t.two.s
//
// The same seed gives the same code; the machine verifier accepts it.
// RUN: %divcc -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
// RUN: %divcc -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.verified.s
// RUN: diff %t.one.s %t.verified.s
//
// Off when not listed: exactly clang's code.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: diff %t.clang.s %t.off.s
//
// The shuffled programs compute what clang's computes.
// RUN: %clang -O2 %s -o %t.clang.exe
// RUN: %divcc -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=one %s -o %t.one.exe
// RUN: %divcc -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=two %s -o %t.two.exe
// RUN: %t.clang.exe > %t.clang.out
// RUN: %t.one.exe | diff %t.clang.out -
// RUN: %t.two.exe | diff %t.clang.out -

// ENTRY-LABEL: pick:
// ENTRY-NOT: .LBB
// ENTRY: # entry block
// ENTRY-LABEL: main:

#include <stdio.h>

volatile int sink;

__attribute__((noinline)) int pick(int x, int y) {
  __asm__ volatile("# entry block");
  int r;
  if (x < 0)
    r = y ^ 0x55;
  else if (x == 0)
    r = y;
  else
    r = y * x;
  if (r & 1)
    sink = 1001;
  else if (r & 2)
    sink = 1002;
  else if (r & 4)
    sink = 1003;
  else
    sink = 1004;
  for (int i = 0; i < (x & 15); ++i) {
    if (i % 3 == 0)
      sink = 1005;
    else if (i % 3 == 1)
      r += sink;
    else
      r ^= i;
  }
  return r;
}

int main(void) {
  long total = 0;
  for (int x = -20; x <= 20; ++x)
    for (int y = 0; y < 8; ++y)
      total = total * 31 + pick(x, y) + sink;
  printf("%ld\n", total);
  return 0;
}
