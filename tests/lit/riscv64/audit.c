// divtool audit reads RISC-V 64 executables: gadgets end in ret or c.jr ra
// (ret), another jalr, c.jr or c.jalr (jop), or ecall (sys), and start at
// every 2-byte offset. A binary audited against itself keeps every
// gadget; a variant of another seed keeps few. Linked without libraries
// (entry main), so no cross libraries are needed.
// RUN: %divcc --target=riscv64-linux-gnu -O2 -fdiversify=all -frandom-seed=base -c %s -o %t.base.o
// RUN: %divcc --target=riscv64-linux-gnu -O2 -fdiversify=all -frandom-seed=one -c %s -o %t.one.o
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
  register long a0 __asm__("a0") = code;
  register long a7 __asm__("a7") = 93; // exit
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
  return a0;
}

long run(long n) {
  long total = 0;
  for (long i = 0; i < n; ++i)
    total += ops[i & 1](i);
  return total;
}

int main(void) { return (int)sys_exit(run(10)); }
