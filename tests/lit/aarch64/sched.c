// Schedule randomization on AArch64: LLVM's scheduler with a random order
// where its heuristics tie, on the DAG clang's AArch64 scheduler builds
// (load/store clustering and the generic tuning's macro fusion included).
// Seeds one and two order kernel() differently: one sets up
// the constant 5 first, two last.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=sched -frandom-seed=one %s -o %t.one.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=sched -frandom-seed=two %s -o %t.two.s
// RUN: %FileCheck --check-prefix=ONE %s < %t.one.s
// RUN: %FileCheck --check-prefix=TWO %s < %t.two.s
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "kernel:"' %t.one.s > %t.one.kernel
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "kernel:"' %t.two.s > %t.two.kernel
// RUN: %not diff -q %t.one.kernel %t.two.kernel
//
// Clustered stores still pair up into stp under both seeds.
// RUN: %FileCheck --check-prefix=PAIRS %s < %t.one.kernel
// RUN: %FileCheck --check-prefix=PAIRS %s < %t.two.kernel
//
// The same seed gives the same code.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=sched -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
//
// Off when not listed: with another transformation that changes nothing
// (NOPs with probability 0), the code is clang's.
// RUN: %clang --target=aarch64-linux-gnu -S -O2 %s -o %t.clang.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: diff %t.clang.s %t.off.s
//
// -O0 runs no machine scheduler: sched has no effect there.
// RUN: %divcc --target=aarch64-linux-gnu -S -O0 -fno-diversify %s -o %t.o0-none.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O0 -fdiversify=sched -frandom-seed=one %s -o %t.o0-sched.s
// RUN: diff %t.o0-none.s %t.o0-sched.s
//
// The machine verifier accepts the scheduled code, in both modes.
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=sched -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t.v1.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O3 -fdiversify=sched -fdiversify-sched=random -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v2.o

// ONE-LABEL: {{^}}kernel:
// ONE:       mov w9, #5
// ONE-NEXT:  movi v0.2d, #0x000000000000ff
// ONE-NEXT:  mov x10, #-3

// TWO-LABEL: {{^}}kernel:
// TWO:       movi v0.2d, #0x000000000000ff
// TWO-NEXT:  mov x9, #-3
// TWO-NEXT:  mov w10, #5

// PAIRS: stp

// Independent computations: room for reordering.
void kernel(long *restrict out, const long *restrict a, const long *restrict b,
            int n) {
  for (int i = 0; i < n; ++i) {
    long x = a[i], y = b[i];
    out[3 * i] = (x + 5) * (y - 3);
    out[3 * i + 1] = (x << 3) ^ (y >> 1);
    out[3 * i + 2] = (x | y) - (x & 255);
  }
}
