// A link for AArch64 on an x86-64 host without -fuse-ld=lld: clang-19
// runs the host's ld, which cannot ("unrecognised emulation mode"); divcc
// runs ld.lld instead, and says so with -v, with the default set and with
// no diversity at all. (With binutils for AArch64, aarch64-linux-gnu-ld,
// both link with it: not this test's case.)
// REQUIRES: aarch64-run, no-aarch64-binutils
// RUN: %clang --target=aarch64-linux-gnu -fuse-ld=lld -O2 %s -o %t.clang
// RUN: %qemu-aarch64 %t.clang | %FileCheck %s
// RUN: %not %clang --target=aarch64-linux-gnu -O2 %s -o %t.host-ld 2>&1 | %FileCheck --check-prefix=HOST-LD %s
// HOST-LD: unrecognised emulation mode
// RUN: %divcc --target=aarch64-linux-gnu -O2 -frandom-seed=one %s -o %t.default -v 2> %t.default.err
// RUN: %FileCheck --check-prefix=LLD %s < %t.default.err
// LLD: divcc: linking for aarch64-unknown-linux-gnu with ld.lld: the host's ld cannot, and there is no aarch64-unknown-linux-gnu-ld
// RUN: %qemu-aarch64 %t.default | %FileCheck %s
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fno-diversify %s -o %t.plain
// RUN: %qemu-aarch64 %t.plain | %FileCheck %s
// A linker the user names is the user's.
// RUN: %not %divcc --target=aarch64-linux-gnu -O2 -fuse-ld=bfd %s -o %t.bfd 2>&1 | %FileCheck --check-prefix=HOST-LD %s

#include <stdio.h>

int main(void) {
  puts("cross-linked");
  return 0;
}
// CHECK: cross-linked
