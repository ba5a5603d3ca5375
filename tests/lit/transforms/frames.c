// Frame randomization permutes each function's stack slots and pads its
// frame: the locals sit at other frame offsets under another seed.
// RUN: %divcc -S -O0 -fdiversify=frames -frandom-seed=one %s -o %t.o0.one.s
// RUN: %divcc -S -O0 -fdiversify=frames -frandom-seed=two %s -o %t.o0.two.s
// RUN: grep -E 'leaq	-?[0-9]+\(%r[sb]p\)' %t.o0.one.s > %t.o0.one.slots
// RUN: grep -E 'leaq	-?[0-9]+\(%r[sb]p\)' %t.o0.two.s > %t.o0.two.slots
// RUN: %not diff -q %t.o0.one.slots %t.o0.two.slots
//
// At -O2 X86FrameLowering sorts the slots by use density, but slots that
// tie (here four arrays of one size, four ints) keep the permuted order.
// RUN: %divcc -S -O2 -fdiversify=frames -frandom-seed=one %s -o %t.o2.one.s
// RUN: %divcc -S -O2 -fdiversify=frames -frandom-seed=two %s -o %t.o2.two.s
// RUN: sed -n '/^locals:/,/^\.Lfunc_end/p' %t.o2.one.s | grep -E '\(%rsp\)' > %t.o2.one.locals
// RUN: sed -n '/^locals:/,/^\.Lfunc_end/p' %t.o2.two.s | grep -E '\(%rsp\)' > %t.o2.two.locals
// RUN: %not diff -q %t.o2.one.locals %t.o2.two.locals
// RUN: sed -n '/^scalars:/,/^\.Lfunc_end/p' %t.o2.one.s | grep -E '\(%rsp\)' > %t.o2.one.scalars
// RUN: sed -n '/^scalars:/,/^\.Lfunc_end/p' %t.o2.two.s | grep -E '\(%rsp\)' > %t.o2.two.scalars
// RUN: %not diff -q %t.o2.one.scalars %t.o2.two.scalars
//
// Only the layout changes: at -O0, the same instructions in the same order
// (at -O2 a slot moved to offset 0 can turn a leaq into a movq).
// RUN: %clang -S -O0 %s -o %t.clang0.s
// RUN: grep -E '^	[a-z]' %t.clang0.s | sed -E 's/-?[0-9]+\(%rbp(,%r[a-z0-9]+)?\)/SLOT/g; s/\$[0-9]+, %rsp/FRAME, %rsp/' > %t.clang0.insns
// RUN: grep -E '^	[a-z]' %t.o0.one.s | sed -E 's/-?[0-9]+\(%rbp(,%r[a-z0-9]+)?\)/SLOT/g; s/\$[0-9]+, %rsp/FRAME, %rsp/' > %t.one0.insns
// RUN: diff %t.clang0.insns %t.one0.insns
//
// The same seed gives the same code.
// RUN: %divcc -S -O2 -fdiversify=frames -frandom-seed=one %s -o %t.o2.again.s
// RUN: diff %t.o2.one.s %t.o2.again.s
//
// -g changes no instruction (debug records take no draws).
// RUN: %divcc -c -O2 -fdiversify=frames -frandom-seed=one %s -o %t.nog.o
// RUN: %divcc -c -O2 -g -fdiversify=frames -frandom-seed=one %s -o %t.g.o
// RUN: llvm-objdump -d %t.nog.o | tail -n +3 > %t.nog.dis
// RUN: llvm-objdump -d %t.g.o | tail -n +3 > %t.g.dis
// RUN: diff %t.nog.dis %t.g.dis
//
// The pad: with -fdiversify-frame-pad=0 the frame keeps clang's size; with
// a larger bound it grows (by at most the bound, plus alignment).
// RUN: %divcc -S -O0 -fdiversify=frames -fdiversify-frame-pad=0 -frandom-seed=one %s -o %t.pad0.s
// RUN: grep 'subq	\$[0-9]*, %rsp' %t.pad0.s > %t.pad0.frames
// RUN: grep 'subq	\$[0-9]*, %rsp' %t.clang0.s > %t.clang0.frames
// RUN: diff %t.clang0.frames %t.pad0.frames
// RUN: %divcc -S -O0 -fdiversify=frames -fdiversify-frame-pad=4096 -frandom-seed=one %s -o %t.pad4096.s
// RUN: grep 'subq	\$[0-9]*, %rsp' %t.pad4096.s | %FileCheck --check-prefix=BIG %s
//
// Off when not listed: exactly clang's code.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.none.s
// RUN: diff %t.none.s %t.off.s
// RUN: %divcc -S -O0 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off0.s
// RUN: grep -E 'leaq	-?[0-9]+\(%r[sb]p\)|subq' %t.off0.s > %t.off0.slots
// RUN: grep -E 'leaq	-?[0-9]+\(%r[sb]p\)|subq' %t.clang0.s > %t.clang0.slots
// RUN: diff %t.clang0.slots %t.off0.slots

// BIG: subq	${{[1-9][0-9][0-9]+}}, %rsp
// BIG: subq	${{[1-9][0-9][0-9]+}}, %rsp

void use(void *, void *, void *, void *);

int locals(int n) {
  char a[16], b[16], c[16], d[16];
  use(a, b, c, d);
  return a[n] + b[n] + c[n] + d[n];
}

int scalars(int n) {
  int w = n, x = n + 1, y = n + 2, z = n + 3;
  use(&w, &x, &y, &z);
  return w + x + y + z;
}
