// Link-time shuffling lays out the functions of all object files in a
// random order, through lld's --shuffle-sections.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc -O1 -fdiversify=link -frandom-seed=one %s %S/Inputs/link-lib.c -o %t/one
// RUN: %divcc -O1 -fdiversify=link -frandom-seed=two %s %S/Inputs/link-lib.c -o %t/two
// RUN: %t/one | %FileCheck --check-prefix=RUN-OK %s
// RUN: %t/two | %FileCheck --check-prefix=RUN-OK %s
// RUN-OK: 52
//
// Functions of both files are interleaved, differently for two seeds.
// RUN: nm -n %t/one | awk '$2 == "T" { print $3 }' > %t/one.order
// RUN: nm -n %t/two | awk '$2 == "T" { print $3 }' > %t/two.order
// RUN: %not diff -q %t/one.order %t/two.order
// RUN: sort %t/one.order | %FileCheck --check-prefix=ALL %s
// ALL: l1
// ALL: l6
// ALL: main
//
// The same seed gives the same executable, also when compiling and linking
// are separate steps.
// RUN: %divcc -O1 -fdiversify=link -frandom-seed=one %s %S/Inputs/link-lib.c -o %t/again
// RUN: cmp %t/one %t/again
// RUN: %divcc -O1 -fdiversify=link -frandom-seed=one -c %s -o %t/main.o
// RUN: %divcc -O1 -fdiversify=link -frandom-seed=one -c %S/Inputs/link-lib.c -o %t/lib.o
// RUN: %divcc -fdiversify=link -frandom-seed=one %t/main.o %t/lib.o -o %t/separate
// RUN: %t/separate | %FileCheck --check-prefix=RUN-OK %s
//
// Each function gets its own section; lld shuffles them; the seed lld
// sees is derived, not the secret.
// RUN: %divcc -### -O1 -fdiversify=link -frandom-seed=SeedZq9 %s -o %t/x 2>&1 | %FileCheck --check-prefix=CMDS --implicit-check-not=SeedZq9 %s
// CMDS: "-ffunction-sections"
// CMDS: ld.lld" {{.*}}"--shuffle-sections=.text*={{[0-9]+}}"
//
// Off when not listed; refused with another linker.
// RUN: %divcc -### -O1 -fdiversify=nops,funcs -frandom-seed=one %s -o %t/x 2>&1 | %FileCheck --check-prefix=OFF %s
// OFF-NOT: shuffle-sections
// RUN: %not %divcc -fdiversify=link -fuse-ld=bfd -frandom-seed=one %s -o %t/x 2>&1 | %FileCheck --check-prefix=BFD %s
// BFD: divcc: error: '-fdiversify=...link...' needs lld, but '-fuse-ld=bfd' asks for another linker

#include <stdio.h>
int l1(int), l2(int), l3(int), l4(int), l5(int), l6(int);
int main(void) {
  printf("%d\n", l1(1) + l2(2) + l3(30) + l4(4) + l5(8) + l6(7));
  return 0;
}
