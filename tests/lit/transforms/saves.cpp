// saves: each function pushes the callee-saved registers it uses in a
// random order, and every epilogue pops them in the reverse order. The
// registers are clang's; the unwinder restores them from CFI, so an
// exception thrown through functions that keep the catcher's values in
// callee-saved registers must leave those values intact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang --driver-mode=g++ -O2 %s -o %t/clang
// RUN: %t/clang 7 > %t/clang.out
// RUN: %divxx -O2 -fno-diversify %s -o %t/plain
// RUN: %divxx -O2 -fdiversify=saves -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/one
// RUN: %divxx -O2 -fdiversify=saves -frandom-seed=2 -mllvm -verify-machineinstrs %s -o %t/two
// RUN: %divxx -O2 -fdiversify=saves,sched,subst,gaps,funcs -frandom-seed=3 %s -o %t/mixed
// RUN: %t/one 7 | diff %t/clang.out -
// RUN: %t/two 7 | diff %t/clang.out -
// RUN: %t/mixed 7 | diff %t/clang.out -
// RUN: python3 %S/Inputs/push_orders.py %t/plain %t/one %t/two | %FileCheck %s
// CHECK:      same registers: yes
// CHECK-NEXT: pops mirror pushes: yes
// CHECK-NEXT: functions saving two or more: [[N:[0-9]+]], in another order: {{[1-9][0-9]*}}
// CHECK-NEXT: same registers: yes
// CHECK-NEXT: pops mirror pushes: yes
// CHECK-NEXT: functions saving two or more: [[N]], in another order: {{[1-9][0-9]*}}
// RUN: not cmp -s %t/one %t/two
//
// -g changes no byte of the code; without saves listed, clang's order.
// RUN: %divxx -O2 -c -fdiversify=saves -frandom-seed=1 %s -o %t/nodebug.o
// RUN: %divxx -O2 -c -g -fdiversify=saves -frandom-seed=1 %s -o %t/debug.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/nodebug.o %t/nodebug.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/debug.o %t/debug.text
// RUN: cmp %t/nodebug.text %t/debug.text
// RUN: %divxx -O2 -fdiversify=sched,subst,funcs -frandom-seed=1 %s -o %t/unlisted
// RUN: python3 %S/Inputs/push_orders.py %t/plain %t/unlisted | %FileCheck %s --check-prefix=UNLISTED
// UNLISTED: in another order: 0

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

__attribute__((noinline)) long mix(long A, long B) {
  if ((A ^ B) % 5 == 3)
    throw std::runtime_error("mix");
  return A * 3 + B;
}

// Keeps five values across calls: rbx, rbp, r12-r15 hold them.
__attribute__((noinline)) long deep(long X) {
  long A = mix(X, 1), B = mix(A, 2), C = mix(B, 3), D = mix(C, 4);
  long E = mix(D, 5);
  return mix(A + B, C + D) + E * A - B * C + D;
}

__attribute__((noinline)) long middle(long X) {
  long P = X * 7, Q = X ^ 0x55, R = X + 11;
  long S = deep(X);
  return S + P * Q - R;
}

int main(int Argc, char **Argv) {
  long Seed = Argc > 1 ? std::atol(Argv[1]) : 7;
  long Sum = 0;
  for (long I = 0; I < 40; ++I) {
    // Live across the call in callee-saved registers, restored by the
    // unwinder when middle() throws.
    long K1 = Seed * I, K2 = Seed + I * 3, K3 = I ^ Seed, K4 = I * I + 1;
    try {
      Sum += middle(Seed + I);
    } catch (const std::exception &E) {
      std::printf("caught %s at %ld\n", E.what(), I);
    }
    Sum += K1 * 3 + K2 * 5 + K3 * 7 + K4;
  }
  std::printf("sum %ld\n", Sum);
  return 0;
}
