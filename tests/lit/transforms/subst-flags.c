// Substitutions that change the condition flags (add <-> sub -c <-> lea,
// inc/dec <-> add/sub 1, xor <-> sub for zeroing) are made only where the
// flags are dead; where they are read, only encodings that set them
// identically are used.
// RUN: %divcc -S -O2 -fdiversify=subst -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.one.s
// RUN: %FileCheck %s < %t.one.s
// RUN: %FileCheck --check-prefix=LIVE %s < %t.one.s
// RUN: %divcc -S -O2 -fdiversify=subst -frandom-seed=two %s -o %t.two.s
// RUN: %FileCheck %s < %t.two.s
// RUN: %FileCheck --check-prefix=LIVE %s < %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s

// The carry of the low half's add feeds adc: the add stays an add (inc
// would leave CF alone, sub $-1 and lea would set it differently).
// LIVE-NOT: incq %rax
// LIVE-NOT: subq $-1, %rax
// LIVE-NOT: leaq 1(%rax), %rax
// The zero flag of add $5 decides the branch.
// LIVE-NOT: subl $-5, %ebx
// LIVE-NOT: leal 5(%rbx), %ebx
//
// Where the flags are dead (a call comes next), ++x and --x take every form.
// CHECK-DAG: {{^}}	incl	%ebx
// CHECK-DAG: {{^}}	addl	$1, %ebx
// CHECK-DAG: {{^}}	subl	$-1, %ebx
// CHECK-DAG: {{^}}	leal	1(%rbx), %ebx
// CHECK-DAG: {{^}}	decl	%ebx
// CHECK-DAG: {{^}}	addl	$-1, %ebx
// CHECK-DAG: {{^}}	subl	$1, %ebx
// CHECK-DAG: {{^}}	leal	-1(%rbx), %ebx
// And the zeroing of g's argument before the call becomes a sub.
// CHECK-DAG: {{^}}	subl	%edi, %edi
// Every add whose flags are read is still there, 40 of each.
// RUN: grep -c -P '^\taddq\t\$1, %rax$' %t.one.s | %FileCheck --check-prefix=FORTY %s
// RUN: grep -c -P '^\taddl\t\$5, %ebx$' %t.one.s | %FileCheck --check-prefix=FORTY %s
// FORTY: {{^}}40{{$}}

#define REP10(X, p)                                                            \
  X(p##0) X(p##1) X(p##2) X(p##3) X(p##4) X(p##5) X(p##6) X(p##7) X(p##8)     \
      X(p##9)
#define REP40(X) REP10(X, 0) REP10(X, 1) REP10(X, 2) REP10(X, 3)

void g(int);

// movq %rdi,%rax; addq $1,%rax; adcq $0,%rdx
#define INC128(n)                                                              \
  unsigned __int128 inc128_##n(unsigned __int128 x) { return x + 1; }
// addl $5,%ebx; jne
#define ADDZF(n)                                                               \
  int addzf_##n(int x) {                                                       \
    x += 5;                                                                    \
    if (x == 0)                                                                \
      g(x);                                                                    \
    return x;                                                                  \
  }
// call g; incl %ebx; movl %ebx,%edi; call g
#define INC(n)                                                                 \
  int inc_##n(int x) {                                                         \
    g(x);                                                                      \
    ++x;                                                                       \
    g(x);                                                                      \
    return x;                                                                  \
  }
#define DEC(n)                                                                 \
  int dec_##n(int x) {                                                         \
    g(x);                                                                      \
    --x;                                                                       \
    g(x);                                                                      \
    return x;                                                                  \
  }

REP40(INC128)
REP40(ADDZF)
REP40(INC)
REP40(DEC)
