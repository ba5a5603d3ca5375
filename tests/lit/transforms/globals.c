// Global shuffling permutes the variables within each section: .data,
// .bss, .rodata, .tdata and .tbss each list their variables in another
// order under another seed.
// RUN: %divcc -c -O2 -fdiversify=globals -frandom-seed=one %s -o %t.one.o
// RUN: %divcc -c -O2 -fdiversify=globals -frandom-seed=two %s -o %t.two.o
// RUN: llvm-nm -n --defined-only %t.one.o | awk '$2 != "T" && $2 != "t" {print $3}' > %t.one.order
// RUN: llvm-nm -n --defined-only %t.two.o | awk '$2 != "T" && $2 != "t" {print $3}' > %t.two.order
// RUN: grep '^data' %t.one.order > %t.one.data
// RUN: grep '^data' %t.two.order > %t.two.data
// RUN: %not diff -q %t.one.data %t.two.data
// RUN: grep '^bss' %t.one.order > %t.one.bss
// RUN: grep '^bss' %t.two.order > %t.two.bss
// RUN: %not diff -q %t.one.bss %t.two.bss
// RUN: grep '^ro' %t.one.order > %t.one.ro
// RUN: grep '^ro' %t.two.order > %t.two.ro
// RUN: %not diff -q %t.one.ro %t.two.ro
// RUN: grep '^tdata' %t.one.order > %t.one.tdata
// RUN: grep '^tdata' %t.two.order > %t.two.tdata
// RUN: %not diff -q %t.one.tdata %t.two.tdata
//
// Every variable is still there, exactly once, and in its own section.
// RUN: sort %t.one.order | %FileCheck --check-prefix=ALL %s
// RUN: llvm-objdump -t %t.one.o | %FileCheck --check-prefix=SECTIONS %s
//
// Variables in an explicit section keep their order (the program may walk
// the section), as do variables when the transformation is off.
// RUN: grep '^sec' %t.one.order | %FileCheck --check-prefix=SEC %s
// RUN: grep '^sec' %t.two.order | %FileCheck --check-prefix=SEC %s
//
// The same seed gives the same object.
// RUN: %divcc -c -O2 -fdiversify=globals -frandom-seed=one %s -o %t.again.o
// RUN: cmp %t.one.o %t.again.o
//
// -g changes no data layout.
// RUN: %divcc -c -O2 -g -fdiversify=globals -frandom-seed=one %s -o %t.g.o
// RUN: llvm-nm -n --defined-only %t.g.o | awk '$2 != "T" && $2 != "t" && $2 != "N"' > %t.g.syms
// RUN: llvm-nm -n --defined-only %t.one.o | awk '$2 != "T" && $2 != "t" && $2 != "N"' > %t.one.syms
// RUN: diff %t.one.syms %t.g.syms
//
// Off when not listed: clang's order and code.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=0 -frandom-seed=one %s -o %t.off.s
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.none.s
// RUN: diff %t.none.s %t.off.s
// RUN: %clang -c -O2 %s -o %t.clang.o
// RUN: llvm-nm -n --defined-only %t.clang.o | awk '$2 != "T" && $2 != "t" {print $3}' | grep '^data' | %FileCheck --check-prefix=SOURCE %s

// ALL:      bss0
// ALL-NEXT: bss1
// ALL-NEXT: bss2
// ALL-NEXT: bss3
// ALL-NEXT: bss4
// ALL-NEXT: bss5
// ALL-NEXT: data0
// ALL-NEXT: data1
// ALL-NEXT: data2
// ALL-NEXT: data3
// ALL-NEXT: data4
// ALL-NEXT: data5
// ALL-NEXT: ro0
// ALL-NEXT: ro1
// ALL-NEXT: ro2
// ALL-NEXT: ro3
// ALL-NEXT: ro4
// ALL-NEXT: ro5
// ALL-NEXT: sec0
// ALL-NEXT: sec1
// ALL-NEXT: sec2
// ALL-NEXT: tdata0
// ALL-NEXT: tdata1
// ALL-NEXT: tdata2
// ALL-NEXT: tdata3

// SECTIONS-DAG: .bss {{.*}} bss3
// SECTIONS-DAG: .data {{.*}} data3
// SECTIONS-DAG: .rodata {{.*}} ro3
// SECTIONS-DAG: .tdata {{.*}} tdata3
// SECTIONS-DAG: mysec {{.*}} sec1

// SEC:      sec0
// SEC-NEXT: sec1
// SEC-NEXT: sec2

// SOURCE:      data0
// SOURCE-NEXT: data1
// SOURCE-NEXT: data2
// SOURCE-NEXT: data3
// SOURCE-NEXT: data4
// SOURCE-NEXT: data5

int data0 = 10, data1 = 11, data2 = 12, data3 = 13, data4 = 14, data5 = 15;
int bss0, bss1, bss2, bss3, bss4, bss5;
const int ro0 = 20, ro1 = 21, ro2 = 22, ro3 = 23, ro4 = 24, ro5 = 25;
_Thread_local int tdata0 = 1, tdata1 = 2, tdata2 = 3, tdata3 = 4;
__attribute__((section("mysec"))) int sec0 = 30, sec1 = 31, sec2 = 32;
