// An LTO link through lld (divcc's three steps, driver/LtoLink.h) for
// RISC-V: the stubs that stand in for bitcode inputs declare the
// generated code's floating-point ABI, which lld checks on every object
// ("cannot link object files with different floating-point ABI"
// otherwise). clang-19 links it.
// REQUIRES: riscv64-run
// RUN: %clang --target=riscv64-linux-gnu -O2 -flto -fuse-ld=lld %s -o %t.clang
// RUN: %divcc --target=riscv64-linux-gnu -O2 -flto -fuse-ld=lld -fdiversify -frandom-seed=one %s -o %t.one
// RUN: %divcc --target=riscv64-linux-gnu -O2 -flto -fuse-ld=lld -fno-diversify %s -o %t.off
// RUN: %qemu-riscv64 %t.one | %FileCheck %s
// RUN: %qemu-riscv64 %t.off | %FileCheck %s
// RUN: %qemu-riscv64 %t.clang | %FileCheck %s
// RUN: llvm-readelf -h %t.one | %FileCheck --check-prefix=ABI %s

// CHECK: sum 4950 half 2475.5
// ABI: Flags: 0x5, RVC, double-float ABI

#include <stdio.h>

double half(long x) { return x / 2.0; }

int main(void) {
  long sum = 0;
  for (long i = 0; i < 100; ++i)
    sum += i;
  printf("sum %ld half %.1f\n", sum, half(sum) + 0.25 * 2);
  return 0;
}
