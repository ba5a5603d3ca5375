// `offset` appends 16 to 4096 bytes of trap padding (int3) to .init when
// divcc links, after the C runtime's return from _init, so the PLT and the
// start files move even where the code divcc compiles did not grow.
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
// The padding follows _init's return and is all int3: it never runs.
// RUN: objdump -d -j .init %t/one | %FileCheck --check-prefix=INIT %s
// INIT: <_init>:
// INIT: ret
// INIT-NEXT: int3
// INIT-NOT: {{nop|ret|jmp|call}}
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
