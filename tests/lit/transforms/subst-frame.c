// Frame setup and teardown are never substituted (the CFI describes them),
// nor is anything that writes the stack pointer.
// RUN: %divcc -c -O2 -fno-omit-frame-pointer -fdiversify=subst -frandom-seed=frame -mllvm -verify-machineinstrs %s -o %t.o
// RUN: llvm-objdump -d %t.o > %t.d
// RUN: %FileCheck --check-prefix=NEVER %s < %t.d
// RUN: %FileCheck %s < %t.d
// Every prologue's mov %rsp,%rbp keeps clang's encoding.
// RUN: grep -c ': 48 89 e5 ' %t.d | %FileCheck --check-prefix=FORTY %s
// FORTY: {{^}}40{{$}}
// NEVER-NOT: 48 8b ec
// NEVER-NOT: leaq (%rsp), %rbp
// NEVER-NOT: (%rsp), %rsp
// NEVER-NOT: subq $-{{.*}}, %rsp
// Other copies in the same functions are substituted.
// CHECK-DAG: : 8b c3 movl %ebx, %eax
// CHECK-DAG: : 8d 03 leal (%rbx), %eax

void g(long *);

#define REP10(X, p)                                                            \
  X(p##0) X(p##1) X(p##2) X(p##3) X(p##4) X(p##5) X(p##6) X(p##7) X(p##8)     \
      X(p##9)
#define REP40(X) REP10(X, 0) REP10(X, 1) REP10(X, 2) REP10(X, 3)

// push %rbp; mov %rsp,%rbp; sub $N,%rsp; ... add $N,%rsp; pop %rbp
#define FRAME(n)                                                               \
  int frame_##n(int a, int b) {                                                \
    long buf[4] = {a, b};                                                      \
    g(buf);                                                                    \
    return b;                                                                  \
  }
REP40(FRAME)
