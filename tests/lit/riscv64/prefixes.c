// Full encodings on RISC-V with C (transformation `prefixes`): an
// instruction LLVM emits in two bytes (c.li, c.addi, c.add, c.ld, c.sd,
// c.slli, ...) is written, with the chance of
// -fdiversify-prefix-probability (0.2 by default), in its four-byte form,
// which does the same: everything after it in the function moves. The
// objects have clang-19's instructions, only some of them longer; copies
// (mv), branches and returns keep their two-byte forms.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang --target=riscv64-linux-gnu -O2 -c %s -o %t/clang.o
// RUN: %divcc --target=riscv64-linux-gnu -O2 -c -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/all.o
// RUN: python3 %S/Inputs/encodings.py %t/all.o %t/clang.o | %FileCheck %s --check-prefix=ALL
// ALL:      two-byte kinds:{{( (mv|ret|j|jr|jalr|beqz|bnez|li))*$}}
// ALL-NEXT: same instructions as clang: yes
// ALL-NEXT: full where clang's is compressed: {{[1-9][0-9]+}}
// ALL-NEXT: compressed where clang's is full: 0
// RUN: %divcc --target=riscv64-linux-gnu -O2 -c -fdiversify=prefixes -frandom-seed=one %s -o %t/one.o
// RUN: %divcc --target=riscv64-linux-gnu -O2 -c -fdiversify=prefixes -frandom-seed=two %s -o %t/two.o
// RUN: python3 %S/Inputs/encodings.py %t/one.o %t/clang.o | %FileCheck %s --check-prefix=SOME
// SOME:      same instructions as clang: yes
// SOME-NEXT: full where clang's is compressed: {{[1-9][0-9]*}}
// SOME-NEXT: compressed where clang's is full: 0
// RUN: %not cmp -s %t/one.o %t/two.o
//
// None at probability 0, nor without C; -g changes no byte of the code,
// and the assembly (`.insn` lines) assembles to the same code.
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/clang.o %t/clang.text
// RUN: %divcc --target=riscv64-linux-gnu -O2 -c -fdiversify=prefixes -fdiversify-prefix-probability=0 -frandom-seed=one %s -o %t/zero.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/zero.o %t/zero.text
// RUN: cmp %t/clang.text %t/zero.text
// RUN: %clang --target=riscv64-linux-gnu -march=rv64g -O2 -c %s -o %t/clang-rv64g.o
// RUN: %divcc --target=riscv64-linux-gnu -march=rv64g -O2 -c -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=one %s -o %t/rv64g.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/clang-rv64g.o %t/clang-rv64g.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/rv64g.o %t/rv64g.text
// RUN: cmp %t/clang-rv64g.text %t/rv64g.text
// RUN: %divcc --target=riscv64-linux-gnu -O2 -c -g -fdiversify=prefixes -frandom-seed=one %s -o %t/debug.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/one.o %t/one.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/debug.o %t/debug.text
// RUN: cmp %t/one.text %t/debug.text
// RUN: %divcc --target=riscv64-linux-gnu -O2 -S -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=one %s -o %t/all.s
// RUN: %FileCheck %s --check-prefix=ASM < %t/all.s
// ASM: .insn
// RUN: %clang --target=riscv64-linux-gnu -c %t/all.s -o %t/all-from-s.o
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/all.o %t/all.text
// RUN: llvm-objcopy-19 -O binary --only-section=.text %t/all-from-s.o %t/all-from-s.text
// RUN: cmp %t/all.text %t/all-from-s.text
// RUN: %divcc --target=riscv64-linux-gnu -O0 -c -fdiversify=prefixes -fdiversify-prefix-probability=1 -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t/o0.o
// RUN: python3 %S/Inputs/encodings.py %t/o0.o | %FileCheck %s --check-prefix=O0
// O0: two-byte kinds:{{( (mv|ret|j|jr|jalr|beqz|bnez|li))*$}}

#include <stdio.h>

struct Account {
  long Balance, Limit;
  int Flags;
  double Rate;
};

__attribute__((noinline)) long settle(struct Account *A, const long *V,
                                      int N) {
  long T = 0;
  for (int I = 0; I < N; ++I)
    T += V[I] * 3 + (V[I] >> 2) - (V[I] << 5);
  A->Balance += T;
  A->Limit = A->Balance ^ T;
  A->Flags = (int)(T & 63);
  A->Rate = A->Rate * 2.0 + 1.0;
  return T + A->Limit;
}

__attribute__((noinline)) int classify(int X) {
  switch (X & 7) {
  case 0: return X + 11;
  case 1: return X * 3;
  case 2: return X ^ 0x55;
  case 3: return X - 7;
  case 4: return X << 2;
  case 5: return X >> 1;
  default: return -X;
  }
}

static long twice(long X) { return 2 * X; }
static long square(long X) { return X * X; }
long (*const Ops[])(long) = {twice, square};

int main(int Argc, char **Argv) {
  (void)Argv;
  struct Account A = {1, 2, 3, 4.0};
  long V[16];
  for (int I = 0; I < 16; ++I)
    V[I] = I * Argc + 5;
  long R = settle(&A, V, 16);
  int C = 0;
  for (int I = 0; I < 40; ++I)
    C += classify(I * Argc);
  long O = 0;
  for (int I = 0; I < 10; ++I)
    O += Ops[I & 1](I);
  printf("%ld %ld %ld %d %g %d %ld\n", R, A.Balance, A.Limit, A.Flags, A.Rate,
         C, O);
  return 0;
}
