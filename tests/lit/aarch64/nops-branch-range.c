// AArch64's assembler does not relax branches: LLVM's branch relaxation
// pass rewrites those that cannot reach their target, from instruction
// sizes, and NOPs must be inserted before it measures. f's tbz jumps over
// ~17 KiB of stores in clang's code, within its +-32 KiB range; with 1 to
// 3 NOPs before every instruction the block is ~50 KiB, so the branch must
// become an inverted tbnz over an unconditional b.
// RUN: %clang --target=aarch64-linux-gnu -S -O2 %s -o %t.clang.s
// RUN: %FileCheck --check-prefix=CLANG %s < %t.clang.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nop-max=3 -frandom-seed=one %s -o %t.s
// RUN: %FileCheck --check-prefix=RELAXED %s < %t.s
//
// The object assembles: every branch is in range.
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nop-max=3 -frandom-seed=one %s -o %t.o

// CLANG-LABEL: {{^}}f:
// CLANG:       tbz w0, #0, .LBB0_2

// RELAXED-LABEL: {{^}}f:
// RELAXED:       tbnz w0, #0, .LBB0_1
// RELAXED-NEXT:  b .LBB0_2
// RELAXED-NEXT:  .LBB0_1:

#define S1(i) p[(i)] = (i) * 977;
#define S10(i) S1(i) S1(i + 1) S1(i + 2) S1(i + 3) S1(i + 4) S1(i + 5)        \
    S1(i + 6) S1(i + 7) S1(i + 8) S1(i + 9)
#define S100(i) S10(i) S10(i + 10) S10(i + 20) S10(i + 30) S10(i + 40)         \
    S10(i + 50) S10(i + 60) S10(i + 70) S10(i + 80) S10(i + 90)
#define S1000(i) S100(i) S100(i + 100) S100(i + 200) S100(i + 300)             \
    S100(i + 400) S100(i + 500) S100(i + 600) S100(i + 700) S100(i + 800)      \
    S100(i + 900)

int f(int x, volatile int *p) {
  if (x & 1) {
    S1000(0) S1000(1000)
  }
  return x;
}
