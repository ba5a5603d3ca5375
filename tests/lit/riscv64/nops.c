// NOP insertion on RISC-V 64 puts the three no-op forms between
// instructions: nop (c.nop with the C extension) and andi and xori that
// write only x0. Compiling needs no cross libraries.
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.one.s
// RUN: %FileCheck --check-prefix=ON %s < %t.one.s
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// The same seed gives the same code.
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
//
// Off when not listed, and probability 0 inserts nothing: the code is
// clang's.
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fdiversify=funcs -frandom-seed=one %s -o %t.off.s
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.s
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fno-diversify %s -o %t.none.s
// RUN: %clang --target=riscv64-linux-gnu -S -O2 %s -o %t.clang.s
// RUN: diff %t.clang.s %t.none.s
// RUN: %divcc --target=riscv64-linux-gnu -c -O2 -fno-diversify %s -o %t.none.o
// RUN: %clang --target=riscv64-linux-gnu -c -O2 %s -o %t.clang.o
// RUN: cmp %t.clang.o %t.none.o
// RUN: %divcc --target=riscv64-linux-gnu -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.zero.s
// RUN: diff %t.none.s %t.zero.s
//
// With the C extension nop is emitted as the 2-byte c.nop, the others take
// four bytes; without it (rv64g) every form takes four.
// RUN: %divcc --target=riscv64-linux-gnu -c -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.c.o
// RUN: llvm-objdump-19 -d --no-print-imm-hex %t.c.o | %FileCheck --check-prefix=RVC %s
// RUN: %divcc --target=riscv64-linux-gnu -march=rv64g -c -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=one %s -o %t.g.o
// RUN: llvm-objdump-19 -d --no-print-imm-hex %t.g.o | %FileCheck --check-prefix=RVG %s
//
// The machine verifier accepts the code of every transformation, at -O0
// and -O2, with and without C.
// RUN: %divcc --target=riscv64-linux-gnu -c -O2 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v2.o
// RUN: %divcc --target=riscv64-linux-gnu -c -O0 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.v0.o
// RUN: %divcc --target=riscv64-linux-gnu -march=rv64g -c -O2 -fdiversify=all -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.vg.o

// ON-DAG: {{^}}	nop{{$}}
// ON-DAG: {{^}}	andi	zero, zero, 0{{$}}
// ON-DAG: {{^}}	xori	zero, zero, 0{{$}}

// OFF-NOT: {{^}}	nop{{$}}
// OFF-NOT: zero, zero, 0

// RVC-DAG: {{^ *[0-9a-f]+: 0001 +nop$}}
// RVC-DAG: {{^ *[0-9a-f]+: 00007013 +andi zero, zero, 0$}}
// RVG-NOT: {{: 0001 +nop$}}
// RVG: {{^ *[0-9a-f]+: 00000013 +nop$}}

long table[64];

long hash(const char *s) {
  long h = 5381;
  while (*s)
    h = h * 33 + *s++;
  return h;
}

long score(long n) {
  long total = 0;
  for (long i = 0; i < n; ++i)
    total += table[i & 63] * (i % 7 == 0 ? 3 : 1);
  return total;
}

long pick(int k, long a, long b) {
  switch (k) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return b ? a / b : 0;
  case 4: return a & b;
  default: return hash("default") + score(a);
  }
}
