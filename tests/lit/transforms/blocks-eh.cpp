// Exceptions unwind through shuffled functions and land in shuffled landing
// pads. Block shuffling puts epilogues in the middle of functions, before
// blocks that call functions that throw: the unwinder then relies on the CFI
// that LLVM's CFI inserter restores at the start of those blocks.
// RUN: %clang --driver-mode=g++ -O2 %s -o %t.clang.exe
// RUN: %t.clang.exe > %t.clang.out
// RUN: %divxx -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t.1.exe
// RUN: %divxx -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=2 %s -o %t.2.exe
// RUN: %divxx -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=3 %s -o %t.3.exe
// RUN: %divxx -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=4 %s -o %t.4.exe
// RUN: %t.1.exe | diff %t.clang.out -
// RUN: %t.2.exe | diff %t.clang.out -
// RUN: %t.3.exe | diff %t.clang.out -
// RUN: %t.4.exe | diff %t.clang.out -
//
// With seed 1, a call that throws follows an epilogue of `through`, in a
// block whose frame the inserted CFI describes again.
// RUN: %divxx -S -O2 -fdiversify=blocks -fdiversify-blocks=all -frandom-seed=1 %s -o %t.1.s
// RUN: %FileCheck %s < %t.1.s

// CHECK-LABEL: _Z7throughii:
// CHECK: retq
// CHECK-NEXT: .LBB1_{{[0-9]+}}:
// CHECK-NEXT: .cfi_def_cfa_offset 64
// CHECK: callq _Z9may_throwi
// CHECK: .Lfunc_end1:

#include <cstdio>
#include <stdexcept>

volatile int sink;

__attribute__((noinline)) int may_throw(int x) {
  if (x % 7 == 3)
    throw std::runtime_error("seven");
  if (x % 11 == 5)
    throw x;
  return x * 3 + sink;
}

// No handler here: exceptions unwind through it.
__attribute__((noinline)) int through(int x, int y) {
  int a = x * y, b = x ^ y, c = x + y;
  if (x < 0)
    return a;
  if (y == 1)
    return b + sink;
  for (int i = 0; i < (x & 7); ++i) {
    if (i & 1)
      a += may_throw(a + i);
    else
      b ^= may_throw(b - i);
  }
  if (c > 40)
    return a - b;
  return a + b + c + may_throw(c);
}

// Two handlers and a cleanup path: the landing pads move too.
__attribute__((noinline)) int handler(int x) {
  int r = 0;
  for (int y = 0; y < 6; ++y) {
    try {
      r += through(x, y);
    } catch (const std::runtime_error &e) {
      r ^= 0x100 + y;
    } catch (int v) {
      r -= v;
      if (v & 1)
        continue;
      r *= 3;
    }
  }
  return r;
}

int main() {
  long total = 0;
  for (int x = -5; x < 60; ++x)
    total = total * 17 + handler(x);
  std::printf("%ld\n", total);
  return 0;
}
