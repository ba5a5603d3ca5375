// divtool audit reads AArch64 executables: gadgets end in ret, br/blr (jop)
// or svc (sys), and start only at 4-byte-aligned offsets. A binary audited
// against itself keeps every gadget; a variant of another seed keeps few.
// Linked without libraries (entry main), so no cross libraries are needed.
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fdiversify=all -frandom-seed=base -c %s -o %t.base.o
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fdiversify=all -frandom-seed=one -c %s -o %t.one.o
// RUN: ld.lld -e main %t.base.o -o %t.base
// RUN: ld.lld -e main %t.one.o -o %t.one
// RUN: %divtool audit %t.base %t.base | %FileCheck --check-prefix=SELF %s
// RUN: %divtool audit %t.base %t.one | %FileCheck --check-prefix=VARIANT %s

// SELF: gadgets (ret {{[1-9][0-9]*}}, jop {{[1-9][0-9]*}}, sys {{[1-9][0-9]*}})
// SELF: survival
// SELF-NEXT: base {{[0-9]+}} {{[0-9]+}} 100.00% 100.00%

// VARIANT: gadgets (ret {{[1-9][0-9]*}}, jop {{[1-9][0-9]*}}, sys {{[1-9][0-9]*}})
// VARIANT: survival
// VARIANT-NOT: 100.00%

typedef long (*Op)(long);

static long twice(long x) { return 2 * x; }
static long square(long x) { return x * x; }
Op ops[] = {twice, square};

long sys_exit(long code) {
  register long x0 __asm__("x0") = code;
  register long x8 __asm__("x8") = 93; // exit
  __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory");
  return x0;
}

int main(void) {
  long s = 0;
  for (int i = 0; i < 10; ++i)
    s += ops[i & 1](i);
  return (int)sys_exit(s & 0x7f);
}
