// Where NOPs must never go: before ENDBR64 (indirect-branch tracking needs
// it first), between an instruction and its CFI, before inline assembly, and
// in naked or patchable functions.
// RUN: %divcc -S -O2 -fcf-protection=full -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nop-max=2 -frandom-seed=place %s -o %t.s
// RUN: %FileCheck %s < %t.s
//
// No NOP right before inline assembly or right before a CFI directive
// (the directive describes the instruction before it).
// RUN: grep -B1 -E '#APP|\.cfi_(def_cfa|offset)' %t.s > %t.before
// RUN: grep -c -E '#APP' %t.before
// RUN: grep -c -E 'cfi_def_cfa_offset' %t.before
// RUN: %not grep -E '^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$' %t.before

// Every function starts with endbr64.
// CHECK-LABEL: work:
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: # %bb.0:
// CHECK-NEXT: endbr64

// A naked function is left exactly as written.
// CHECK-LABEL: naked_fn:
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: # %bb.0:
// CHECK-NEXT: endbr64
// CHECK-NEXT: #APP
// CHECK-NEXT: retq
// CHECK-NEXT: #NO_APP

// patchable_function_entry: the patch area stays the first bytes and the
// function is left alone.
// CHECK-LABEL: patched:
// CHECK-NEXT: .Lfunc_begin
// CHECK-NEXT: .cfi_startproc
// CHECK-NEXT: # %bb.0:
// CHECK-NEXT: endbr64
// CHECK-NEXT: .Lpatch0:
// CHECK-NEXT: xchgw %ax, %ax
// CHECK-NOT: {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// CHECK: retq

void consume(unsigned);

unsigned work(unsigned x) {
  unsigned y;
  __asm__("rorl $3, %0" : "=r"(y) : "0"(x));
  consume(y);
  return y + x * 3;
}

__attribute__((naked)) void naked_fn(void) { __asm__("ret"); }

__attribute__((patchable_function_entry(2))) int patched(int a) {
  return a * 7 + 1;
}
