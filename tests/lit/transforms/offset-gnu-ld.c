// `offset` with GNU ld for AArch64, RISC-V 64 and 32-bit ARM (Debian's
// binutils for each target, the linker its cross toolchains use): the trap
// padding before _init and _start moves the C runtime's code and the PLT,
// dynamically and statically linked, and the programs still run under
// qemu-user. RISC-V's C runtime has no _init or _fini (nor .init: clang's
// build has none, divcc's has the padding's). (offset.c is the same on
// x86-64, ../aarch64/offset.c under lld.)
// REQUIRES: aarch64-run, riscv64-run, armhf-run, cross-binutils
//
// DEFINE: %{triple} =
// DEFINE: %{qemu} =
// DEFINE: %{moved} =
// DEFINE: %{moved-prefixes} =
// DEFINE: %{cc} = %divcc --target=%{triple} -fuse-ld=bfd -O2 -fdiversify=offset
// DEFINE: %{check} = rm -rf %t && mkdir -p %t \
// DEFINE:   && %clang --target=%{triple} -fuse-ld=bfd -O2 %s -o %t/clang \
// DEFINE:   && %{cc} -frandom-seed=one %s -o %t/one -v 2> %t/one.err \
// DEFINE:   && %FileCheck --check-prefix=GNU-LD -DTRIPLE=%{triple} %s < %t/one.err \
// DEFINE:   && %{cc} -frandom-seed=two %s -o %t/two \
// DEFINE:   && %{cc} -frandom-seed=one -static %s -o %t/one-static \
// DEFINE:   && %{cc} -frandom-seed=two -static %s -o %t/two-static \
// DEFINE:   && llvm-readelf -lW %t/one | %FileCheck --check-prefix=SEGMENTS %s \
// DEFINE:   && %{qemu} %t/one | %FileCheck --check-prefix=RUN-OK %s \
// DEFINE:   && %{qemu} %t/two-static | %FileCheck --check-prefix=RUN-OK %s \
// DEFINE:   && python3 %S/Inputs/section_sizes.py .init .plt %t/clang %t/one %t/two | %FileCheck --check-prefix=SIZES %s \
// DEFINE:   && python3 %S/Inputs/symbols_moved.py %{moved} -- %t/one %t/two %t/one-static %t/two-static | %FileCheck --check-prefixes=%{moved-prefixes} %s
//
// GNU-LD: "/usr/bin/[[TRIPLE]]-ld.bfd" -z separate-code
//
// What cannot move (the ELF headers, .dynsym, the relocations) is not
// executable: the first segment is read-only, the code has its own.
// SEGMENTS: LOAD 0x000000 {{(0x[0-9a-f]+ )+}}R 0x
// SEGMENTS-NEXT: LOAD {{(0x[0-9a-f]+ )+}}R E 0x
// RUN-OK: sum 6
// SIZES: .init grew by multiple of 16: yes yes
// SIZES: .init same for both seeds: no
// SIZES: .plt moved: yes yes
// MOVED: _start moved: yes yes
// MOVED: main moved: yes yes
// CRTI: _init moved: yes yes
// CRTI: _fini moved: yes yes
//
// REDEFINE: %{triple} = aarch64-linux-gnu
// REDEFINE: %{qemu} = %qemu-aarch64
// REDEFINE: %{moved} = _start main _init _fini
// REDEFINE: %{moved-prefixes} = MOVED,CRTI
// RUN: %{check}
// REDEFINE: %{triple} = riscv64-linux-gnu
// REDEFINE: %{qemu} = %qemu-riscv64
// REDEFINE: %{moved} = _start main
// REDEFINE: %{moved-prefixes} = MOVED
// RUN: %{check}
// REDEFINE: %{triple} = arm-linux-gnueabihf
// REDEFINE: %{qemu} = %qemu-armhf
// REDEFINE: %{moved} = _start main _init _fini
// REDEFINE: %{moved-prefixes} = MOVED,CRTI
// RUN: %{check}

#include <stdio.h>
int main(void) {
  int s = 0;
  for (int i = 1; i <= 3; ++i)
    s += i;
  printf("sum %d\n", s);
  return 0;
}
