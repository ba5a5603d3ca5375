// NOP insertion on AArch64 puts the five AArch64 no-op forms between
// instructions: nop (hint #0) and four shifted-register ALU operations that
// write only the zero register. Compiling needs no cross libraries.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.one.s
// RUN: %FileCheck --check-prefix=ON %s < %t.one.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// The same seed gives the same code.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
//
// Off when not listed, and probability 0 inserts nothing: the code is
// clang's.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=funcs -frandom-seed=one %s -o %t.off.s
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fno-diversify %s -o %t.none.s
// RUN: %clang --target=aarch64-linux-gnu -S -O2 %s -o %t.clang.s
// RUN: diff %t.clang.s %t.none.s
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.zero.s
// RUN: diff %t.none.s %t.zero.s
//
// The machine verifier accepts the code, at -O0 and -O2, and with the
// landing pads of -mbranch-protection=standard.
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v2.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O0 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v0.o
// RUN: %divcc --target=aarch64-linux-gnu -c -O2 -mbranch-protection=standard -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.bti.o
//
// Landing pads stay first: with branch protection, every function still
// opens with its bti or paciasp, never with a NOP.
// RUN: %divcc --target=aarch64-linux-gnu -S -O2 -mbranch-protection=standard -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.bti.s
// RUN: %FileCheck --check-prefix=BTI %s < %t.bti.s

// All five forms occur (with probability 1 there are enough places).
// ON-DAG: {{^}}	nop{{$}}
// ON-DAG: {{^}}	mov	xzr, xzr{{$}}
// ON-DAG: {{^}}	eor	xzr, xzr, xzr{{$}}
// ON-DAG: {{^}}	and	xzr, xzr, xzr{{$}}
// ON-DAG: {{^}}	add	xzr, xzr, xzr{{$}}

// OFF-NOT: {{^}}	nop{{$}}
// OFF-NOT: xzr, xzr

// BTI-LABEL: {{^}}hash:
// BTI-NEXT:  .cfi_startproc
// BTI-NEXT:  // %bb.0:
// BTI-NEXT:  {{^}}	{{hint	#34|hint	#25}}{{$}}
// BTI-LABEL: {{^}}score:
// BTI-NEXT:  .cfi_startproc
// BTI-NEXT:  // %bb.0:
// BTI-NEXT:  {{^}}	{{hint	#34|hint	#25}}{{$}}
// BTI-LABEL: {{^}}main:
// BTI-NEXT:  .cfi_startproc
// BTI-NEXT:  // %bb.0:
// BTI-NEXT:  {{^}}	{{hint	#34|hint	#25}}{{$}}

unsigned weights[32];

unsigned hash(unsigned h, unsigned c) { return (h ^ c) * 16777619u; }

unsigned score(const unsigned char *s, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; ++i)
    h = hash(h, s[i]) + weights[s[i] & 31];
  return h;
}

int main(int argc, char **argv) {
  return score((const unsigned char *)argv[0], argc * 8) & 1;
}
