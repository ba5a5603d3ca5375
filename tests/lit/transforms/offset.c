// `offset` puts 16 to 4096 bytes of trap padding (int3) at the head of .init
// when divcc links, before the C runtime's _init: GNU ld puts .init first
// in the code segment, so _init, the PLT, all of .text and .fini move even
// where the code divcc compiles did not grow. lld puts .text first: there
// as many zeros at the head of .rodata move the whole code segment. .text
// itself gets no padding.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=one %s -o %t/one
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=two %s -o %t/two
// RUN: %clang -O1 %s -o %t/clang
// RUN: %t/one | %FileCheck --check-prefix=RUN-OK %s
// RUN: %t/two | %FileCheck --check-prefix=RUN-OK %s
// RUN-OK: sum 6
//
// .init grows by a multiple of 16, and by different amounts for two seeds;
// the PLT follows it.
// RUN: python3 %S/Inputs/section_sizes.py .init .plt %t/clang %t/one %t/two | %FileCheck --check-prefix=SIZES %s
// SIZES: .init grew by multiple of 16: yes yes
// SIZES: .init same for both seeds: no
// SIZES: .plt moved: yes yes
//
// The padding precedes _init and is all int3: it never runs. .text starts
// with _start, as clang's does.
// RUN: objdump -d -j .init %t/one | %FileCheck --check-prefix=INIT %s
// INIT: <_init-0x{{[0-9a-f]+}}>:
// INIT-NEXT: int3
// INIT-NOT: {{nop|ret|jmp|call|<}}
// INIT: <_init>:
// RUN: objdump -d -j .text %t/one | %FileCheck --check-prefix=TEXT %s
// TEXT: Disassembly of section .text:
// TEXT-EMPTY:
// TEXT-NEXT: <_start>:
//
// Nothing of the C runtime stays where it was: _init, _start and _fini move
// between two seeds, dynamically and statically linked, with GNU ld and
// with lld (which puts .text first).
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=one -static %s -o %t/one-static
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=two -static %s -o %t/two-static
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=one -fuse-ld=lld %s -o %t/one-lld
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=two -fuse-ld=lld %s -o %t/two-lld
// RUN: %t/one-static | %FileCheck --check-prefix=RUN-OK %s
// RUN: %t/two-lld | %FileCheck --check-prefix=RUN-OK %s
// RUN: python3 %S/Inputs/symbols_moved.py _init _start _fini -- %t/one %t/two %t/one-static %t/two-static %t/one-lld %t/two-lld | %FileCheck --check-prefix=MOVED %s
// MOVED: _init moved: yes yes yes
// MOVED: _start moved: yes yes yes
// MOVED: _fini moved: yes yes yes
//
// Under lld, .rodata grows by a multiple of 16, by different amounts for
// two seeds, and .text follows it.
// RUN: %clang -O1 -fuse-ld=lld %s -o %t/clang-lld
// RUN: python3 %S/Inputs/section_sizes.py .rodata .text %t/clang-lld %t/one-lld %t/two-lld | %FileCheck --check-prefix=LLD %s
// LLD: .rodata grew by multiple of 16: yes yes
// LLD: .rodata same for both seeds: no
// LLD: .text moved: yes yes
//
// Same seed, same executable; the seed lld or ld sees never appears.
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=one %s -o %t/again
// RUN: cmp %t/one %t/again
// RUN: %divcc -### -O1 -fdiversify=offset -frandom-seed=SeedZq9 %s -o %t/x 2>&1 | %FileCheck --check-prefix=CMDS --implicit-check-not=SeedZq9 %s
// CMDS: "{{.*}}divcc-offset-{{[^"]*}}.o"
//
// The padding keeps the marks every clang object has: no executable-stack
// warning, and control-flow protection survives the link.
// RUN: %divcc -O1 -fdiversify=offset -frandom-seed=one %s -o %t/quiet 2> %t/quiet.err
// RUN: %FileCheck --allow-empty --check-prefix=QUIET %s < %t/quiet.err
// QUIET-NOT: warning
// RUN: %divcc -fdiversify=offset -fcf-protection -nostdlib -static -frandom-seed=one %S/Inputs/nostdlib-start.c -o %t/bare
// RUN: llvm-readelf -n %t/bare | %FileCheck --check-prefix=CET %s
// CET: x86 feature: IBT, SHSTK
// RUN: %divcc -fdiversify=offset -nostdlib -static -frandom-seed=one %S/Inputs/nostdlib-start.c -o %t/bare-nocet
// RUN: llvm-readelf -n %t/bare-nocet | %FileCheck --check-prefix=NOCET %s
// NOCET-NOT: x86 feature
//
// Not in a relocatable link (its .init would land inside _init later);
// off when not listed.
// RUN: %divcc -### -fdiversify=offset -frandom-seed=one -r %s -o %t/x.o 2>&1 | %FileCheck --check-prefix=OFF %s
// RUN: %divcc -### -O1 -fdiversify=nops,funcs -frandom-seed=one %s -o %t/x 2>&1 | %FileCheck --check-prefix=OFF %s
// OFF-NOT: divcc-offset

#include <stdio.h>
int main(void) {
  int s = 0;
  for (int i = 1; i <= 3; ++i)
    s += i;
  printf("sum %d\n", s);
  return 0;
}
