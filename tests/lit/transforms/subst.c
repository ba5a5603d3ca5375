// Instruction substitution rewrites instructions into equivalent ones with
// other bytes. The assembly text of the two encodings of a register move is
// the same, so this test looks at the object code.
// RUN: %divcc -c -O2 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.one.o
// RUN: llvm-objdump -d %t.one.o > %t.one.d
// RUN: %FileCheck --check-prefix=ON %s < %t.one.d
// RUN: %divcc -c -O2 -fdiversify=subst -frandom-seed=two %s -o %t.two.o
// RUN: llvm-objdump -d %t.two.o > %t.two.d
// RUN: %FileCheck --check-prefix=ON %s < %t.two.d
// RUN: llvm-objcopy -O binary --only-section=.text %t.one.o %t.one.text
// RUN: llvm-objcopy -O binary --only-section=.text %t.two.o %t.two.text
// RUN: %not cmp -s %t.one.text %t.two.text
//
// The same seed gives the same object.
// RUN: %divcc -c -O2 -fdiversify=subst -frandom-seed=one %s -o %t.again.o
// RUN: cmp %t.one.o %t.again.o
//
// Off when not listed: the code is clang's, byte for byte.
// RUN: %divcc -c -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.o
// RUN: %clang -c -O2 %s -o %t.clang.o
// RUN: llvm-objcopy -O binary --only-section=.text %t.off.o %t.off.text
// RUN: llvm-objcopy -O binary --only-section=.text %t.clang.o %t.clang.text
// RUN: cmp %t.off.text %t.clang.text
// RUN: llvm-objdump -d %t.off.o | %FileCheck --check-prefix=OFF %s

// Each function below has one instance of each form; with 40 copies every
// equivalent form is drawn at least once (a miss has odds below 1e-6).
//
// mov %esi,%eax: MOV32rr, MOV32rr_REV, and lea (%rsi),%eax.
// ON-DAG: : 89 f0 movl %esi, %eax
// ON-DAG: : 8b c6 movl %esi, %eax
// ON-DAG: : 8d 06 leal (%rsi), %eax
// mov %rsi,%rax: the same in 64 bits.
// ON-DAG: : 48 89 f0 movq %rsi, %rax
// ON-DAG: : 48 8b c6 movq %rsi, %rax
// ON-DAG: : 48 8d 06 leaq (%rsi), %rax
// cmp %esi,%edi: both opcodes compute edi - esi.
// ON-DAG: : 39 f7 cmpl %esi, %edi
// ON-DAG: : 3b fe cmpl %esi, %edi
// The zeroing xor before cmp (flags dead: cmp overwrites them) also
// becomes sub, in both encodings.
// ON-DAG: : 31 c0 xorl %eax, %eax
// ON-DAG: : 33 c0 xorl %eax, %eax
// ON-DAG: : 29 c0 subl %eax, %eax
// ON-DAG: : 2b c0 subl %eax, %eax

// OFF-NOT: 8b c6
// OFF-NOT: leal (%rsi), %eax
// OFF-NOT: subl %eax, %eax

#include "Inputs/repeat.h"

#define COPY32(n)                                                              \
  int copy32_##n(int a, int b) { return b; }
#define COPY64(n)                                                              \
  long copy64_##n(long a, long b) { return b; }
#define LESS(n)                                                                \
  int less_##n(int a, int b) { return a < b; }

REP40(COPY32)
REP40(COPY64)
REP40(LESS)
