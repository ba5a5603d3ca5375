// A link for AArch64 on an x86-64 host without -fuse-ld=lld. Without
// binutils for AArch64, clang-19 runs the host's ld, which cannot
// ("unrecognised emulation mode"); divcc runs ld.lld instead, and says so
// with -v, with the default set and with no diversity at all. With them
// (aarch64-linux-gnu-ld), both link with GNU ld for AArch64, divcc saying
// nothing about it. The machine decides which half runs.
// REQUIRES: aarch64-run
// RUN: %clang --target=aarch64-linux-gnu -fuse-ld=lld -O2 %s -o %t.clang
// RUN: %qemu-aarch64 %t.clang | %FileCheck %s
// RUN: %if no-aarch64-binutils %{ %not %clang --target=aarch64-linux-gnu -O2 %s -o %t.host-ld 2>&1 | %FileCheck --check-prefix=HOST-LD %s %}
// HOST-LD: unrecognised emulation mode
// RUN: %divcc --target=aarch64-linux-gnu -O2 -frandom-seed=one %s -o %t.default -v 2> %t.default.err
// RUN: %FileCheck --check-prefix=%if no-aarch64-binutils %{LLD%} %else %{GNU-LD%} %s < %t.default.err
// LLD: divcc: linking for aarch64-unknown-linux-gnu with ld.lld: the host's ld cannot, and there is no aarch64-unknown-linux-gnu-ld
// GNU-LD-NOT: ld.lld
// GNU-LD: "{{[^"]*}}aarch64-linux-gnu-ld"
// GNU-LD-NOT: ld.lld
// RUN: %qemu-aarch64 %t.default | %FileCheck %s
// RUN: %divcc --target=aarch64-linux-gnu -O2 -fno-diversify %s -o %t.plain
// RUN: %qemu-aarch64 %t.plain | %FileCheck %s
// A linker the user names is the user's.
// RUN: %if no-aarch64-binutils %{ %not %divcc --target=aarch64-linux-gnu -O2 -fuse-ld=bfd %s -o %t.bfd 2>&1 | %FileCheck --check-prefix=HOST-LD %s %}
// RUN: %if !no-aarch64-binutils %{ %divcc --target=aarch64-linux-gnu -O2 -fuse-ld=bfd %s -o %t.bfd -v 2>&1 | %FileCheck --check-prefix=BFD %s %}
// BFD: "/usr/bin/aarch64-linux-gnu-ld.bfd"

#include <stdio.h>

int main(void) {
  puts("cross-linked");
  return 0;
}
// CHECK: cross-linked
