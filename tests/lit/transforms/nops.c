// NOP insertion puts the five x86-64 no-op forms between instructions.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.one.s
// RUN: %FileCheck --check-prefix=ON %s < %t.one.s
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// The same seed gives the same code.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
//
// Off when not listed, and probability 0 inserts nothing.
// RUN: %divcc -S -O2 -fdiversify=funcs -frandom-seed=one %s -o %t.off.s
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.s
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.none.s
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.zero.s
// RUN: diff %t.none.s %t.zero.s
//
// -fdiversify-nop-max bounds the NOPs in one place: with probability 1 the
// longest run of NOPs is exactly the maximum.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nop-max=3 -frandom-seed=one %s -o %t.max3.s
// RUN: awk -f %S/Inputs/longest-nop-run.awk %t.max3.s | %FileCheck --check-prefix=MAX3 %s
// RUN: awk -f %S/Inputs/longest-nop-run.awk %t.one.s | %FileCheck --check-prefix=MAX1 %s

// All five forms occur (with probability 1 there are enough places).
// ON-DAG: {{^}}	nop{{$}}
// ON-DAG: movq	%rbp, %rbp
// ON-DAG: movq	%rsp, %rsp
// ON-DAG: leaq	(%rsi), %rsi
// ON-DAG: leaq	(%rdi), %rdi

// OFF-NOT: movq	%rbp, %rbp
// OFF-NOT: movq	%rsp, %rsp
// OFF-NOT: leaq	(%rsi), %rsi
// OFF-NOT: leaq	(%rdi), %rdi

// MAX3: longest NOP run: 3{{$}}
// MAX1: longest NOP run: 1{{$}}

int table[64];

int mix(int a, int b) { return (a * 31) ^ (b >> 3); }

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s = mix(s, table[i & 63] + i);
  return s;
}

int main(int argc, char **argv) { return sum(argc * 100) & 1; }
