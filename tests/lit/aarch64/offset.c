// `offset` on AArch64: trap padding (udf #0) before _init, and under lld
// zeros at the head of .rodata, move the C runtime's code, dynamically and
// statically linked; the programs still run under qemu-user. Needs the
// Debian cross libraries.
// REQUIRES: aarch64-run
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=offset -frandom-seed=one %s -o %t/one
// RUN: %divcc --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=offset -frandom-seed=two %s -o %t/two
// RUN: %divcc --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=offset -frandom-seed=one -static %s -o %t/one-static
// RUN: %divcc --target=aarch64-linux-gnu -fuse-ld=lld -O2 -fdiversify=offset -frandom-seed=two -static %s -o %t/two-static
// RUN: %qemu-aarch64 %t/one | %FileCheck --check-prefix=RUN-OK %s
// RUN: %qemu-aarch64 %t/two-static | %FileCheck --check-prefix=RUN-OK %s
// RUN-OK: sum 6
// RUN: python3 %S/../transforms/Inputs/symbols_moved.py _init _start _fini -- %t/one %t/two %t/one-static %t/two-static | %FileCheck --check-prefix=MOVED %s
// MOVED: _init moved: yes yes
// MOVED: _start moved: yes yes
// MOVED: _fini moved: yes yes
//
// .text starts with _start, as clang's does: the code moved, not by
// padding of its own.
// RUN: llvm-objdump-19 -d --section=.text %t/one | %FileCheck --check-prefix=TEXT %s
// TEXT: Disassembly of section .text:
// TEXT-EMPTY:
// TEXT-NEXT: <_start>:

#include <stdio.h>
int main(void) {
  int s = 0;
  for (int i = 1; i <= 3; ++i)
    s += i;
  printf("sum %d\n", s);
  return 0;
}
