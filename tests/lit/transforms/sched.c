// Schedule randomization, jitter mode (the default): LLVM's scheduler with a
// random order where its heuristics tie. Seeds one and two order dot()
// differently from clang, which loads both q[] first: one multiplies q[0]
// before loading q[1], two loads q[1] first.
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=one %s -o %t.one.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=two %s -o %t.two.s
// RUN: %FileCheck --check-prefix=INTERLEAVED %s < %t.one.s
// RUN: %FileCheck --check-prefix=SWAPPED %s < %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// Other functions move too: kernel() differs between the two seeds.
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "kernel:"' %t.one.s > %t.one.kernel
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "kernel:"' %t.two.s > %t.two.kernel
// RUN: %not diff -q %t.one.kernel %t.two.kernel
//
// The same seed gives the same code; jitter is the default mode.
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=jitter -frandom-seed=one %s -o %t.jitter.s
// RUN: diff %t.one.s %t.jitter.s
//
// Off when not listed: with another transformation that changes nothing
// (NOPs with probability 0), the code is clang's.
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.none.s
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: diff %t.none.s %t.off.s
// RUN: %FileCheck --check-prefix=CLANG %s < %t.none.s
//
// -O0 runs no machine scheduler: sched has no effect there.
// RUN: %divcc -S -O0 -fno-diversify %s -o %t.o0-none.s
// RUN: %divcc -S -O0 -fdiversify=sched -frandom-seed=one %s -o %t.o0-sched.s
// RUN: diff %t.o0-none.s %t.o0-sched.s
//
// -g changes no instruction.
// RUN: %divcc -S -O2 -g -fdiversify=sched -frandom-seed=one %s -o %t.g.s
// RUN: awk '/^\t[a-z]/' %t.one.s > %t.one.insns
// RUN: awk '/^\t[a-z]/' %t.g.s > %t.g.insns
// RUN: diff %t.one.insns %t.g.insns
//
// The machine verifier accepts the scheduled code, in both modes.
// RUN: %divcc -c -O2 -fdiversify=sched -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v1.o
// RUN: %divcc -c -O2 -fdiversify=sched -frandom-seed=two -mllvm -verify-machineinstrs %s -o %t.v2.o
// RUN: %divcc -c -O3 -fdiversify=sched -fdiversify-sched=random -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v3.o

// CLANG-LABEL: {{^}}dot:
// CLANG:       movl (%rsi), %ecx
// CLANG-NEXT:  movl 4(%rsi), %eax
// CLANG-NEXT:  imull (%rdi), %ecx
// CLANG:       retq

// INTERLEAVED-LABEL: {{^}}dot:
// INTERLEAVED:       movl (%rsi), %ecx
// INTERLEAVED-NEXT:  imull (%rdi), %ecx
// INTERLEAVED-NEXT:  movl 4(%rsi), %eax
// INTERLEAVED:       retq

// SWAPPED-LABEL: {{^}}dot:
// SWAPPED:       movl 4(%rsi), %eax
// SWAPPED-NEXT:  movl (%rsi), %ecx
// SWAPPED:       retq

// Where each candidate of a tie makes another value live (mix(): a * 31 or
// b >> 3 first), the tie is left to clang's order under every seed: a
// random pick never raises register pressure.
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=three %s -o %t.three.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=four %s -o %t.four.s
// RUN: %FileCheck --check-prefix=MIX %s < %t.none.s
// RUN: %FileCheck --check-prefix=MIX %s < %t.one.s
// RUN: %FileCheck --check-prefix=MIX %s < %t.two.s
// RUN: %FileCheck --check-prefix=MIX %s < %t.three.s
// RUN: %FileCheck --check-prefix=MIX %s < %t.four.s

// MIX-LABEL: {{^}}mix:
// MIX:       shll $5, %eax
// MIX:       sarl $3, %esi
// MIX:       retq

int table[64];

int mix(int a, int b) { return (a * 31) ^ (b >> 3); }

int dot(const int *p, const int *q) { return p[0] * q[0] + p[1] * q[1]; }

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s = mix(s, table[i & 63] + i);
  return s;
}

// Independent computations: room for reordering.
void kernel(int *restrict out, const int *restrict a, const int *restrict b,
            int n) {
  for (int i = 0; i < n; ++i) {
    int x = a[i], y = b[i];
    out[4 * i] = x * 3 + y;
    out[4 * i + 1] = (x ^ y) - 7;
    out[4 * i + 2] = x * y + (x >> 2);
    out[4 * i + 3] = (y << 1) | (x & 15);
  }
}

int main(int argc, char **argv) { return sum(argc * 100) & 1; }
