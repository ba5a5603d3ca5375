// Register hints: the same code allocated to other registers.
// RUN: %divcc -S -O2 -fdiversify=regs -frandom-seed=one %s -o %t.one.s
// RUN: %divcc -S -O2 -fdiversify=regs -frandom-seed=two %s -o %t.two.s
// RUN: %not diff -q %t.one.s %t.two.s
//
// In mix, the function with register pressure, each variant differs from
// clang's and from the other.
// RUN: %clang -S -O2 %s -o %t.clang.s
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.clang.s > %t.clang.mix
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.one.s > %t.one.mix
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.two.s > %t.two.mix
// RUN: %not diff -q %t.one.mix %t.two.mix
// RUN: %not diff -q %t.clang.mix %t.one.mix
//
// The same seed gives the same code.
// RUN: %divcc -S -O2 -fdiversify=regs -frandom-seed=one %s -o %t.again.s
// RUN: diff %t.one.s %t.again.s
//
// The machine verifier accepts the result.
// RUN: %divcc -S -O2 -fdiversify=regs -frandom-seed=one -mllvm -verify-machineinstrs %s -o %t.verified.s
// RUN: diff %t.one.s %t.verified.s
//
// Off when not listed: exactly clang's code.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: diff %t.clang.s %t.off.s
//
// Callee-saved registers: clang's leaf needs none. Random hints may name
// them (seed one does, and pays a push and pop); with
// -fno-diversify-regs-callee-saved no hint does, and no push or pop
// appears that clang's build does not have.
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.clang.s | %FileCheck --check-prefix=NOSAVE %s
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.one.s | %FileCheck --check-prefix=SAVE %s
// RUN: %divcc -S -O2 -fdiversify=regs -fno-diversify-regs-callee-saved -frandom-seed=three %s -o %t.nocs3.s
// RUN: %divcc -S -O2 -fdiversify=regs -fno-diversify-regs-callee-saved -frandom-seed=one %s -o %t.nocs1.s
// RUN: %divcc -S -O2 -fdiversify=regs -fno-diversify-regs-callee-saved -frandom-seed=two %s -o %t.nocs2.s
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.nocs3.s | %FileCheck --check-prefix=NOSAVE %s
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.nocs1.s | %FileCheck --check-prefix=NOSAVE %s
// RUN: sed -n '/^leaf:/,/^\.Lfunc_end/p' %t.nocs2.s | %FileCheck --check-prefix=NOSAVE %s
//
// In mix, which needs callee-saved registers, the same ones are saved as in
// clang's build (push and pop lines, in order, for every seed).
// RUN: grep -E '^	(push|pop)q' %t.clang.mix > %t.clang.saves
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.nocs1.s | grep -E '^	(push|pop)q' | sort > %t.nocs1.saves
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.nocs2.s | grep -E '^	(push|pop)q' | sort > %t.nocs2.saves
// RUN: sed -n '/^mix:/,/^\.Lfunc_end/p' %t.nocs3.s | grep -E '^	(push|pop)q' | sort > %t.nocs3.saves
// RUN: sort %t.clang.saves | diff - %t.nocs1.saves
// RUN: sort %t.clang.saves | diff - %t.nocs2.saves
// RUN: sort %t.clang.saves | diff - %t.nocs3.saves

// SAVE: pushq %r{{bx|bp|12|13|14|15}}
// SAVE: popq %r{{bx|bp|12|13|14|15}}

// NOSAVE-NOT: push
// NOSAVE-NOT: pop
// NOSAVE: ret

// Six values live around a loop: enough pressure for the allocator to have
// choices, and in mix for callee-saved registers to be needed.
unsigned mix(unsigned *p, int n) {
  unsigned a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5];
  for (int i = 0; i < n; ++i) {
    a += b * c;
    b ^= d + e;
    c -= f * a;
    d += a ^ f;
    e = (e << 3) | (e >> 29);
    f += e * d;
  }
  return a ^ b ^ c ^ d ^ e ^ f;
}

unsigned leaf(const unsigned *p) {
  unsigned a = p[0] * p[1], b = p[2] + p[3], c = p[4] ^ p[5];
  unsigned d = a * b + c, e = b * c - a;
  return (d ^ e) + a * c;
}
