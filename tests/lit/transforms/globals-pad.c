// -fdiversify-global-pad=N puts a private pad of 1..N bytes before each
// variable, in the variable's own section: .data, .bss, .rodata, .tdata,
// .tbss and, under -mcmodel=medium, the large .ldata/.lbss grow; sections
// where a pad cannot go (.data.rel.ro, mergeable strings) do not.
// RUN: %divcc -c -O2 -fdiversify=globals -frandom-seed=one %s -o %t.nopad.o
// RUN: %divcc -c -O2 -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=one %s -o %t.pad.o
// RUN: llvm-size -A %t.nopad.o > %t.nopad.size
// RUN: llvm-size -A %t.pad.o > %t.pad.size
// RUN: awk 'FNR == NR { if (NF == 3 && $1 ~ /^\./) b[$1] = $2; next } NF == 3 && ($1 in b) { print $1, ($2 > b[$1] ? "grew" : $2 == b[$1] ? "same" : "shrank") }' %t.nopad.size %t.pad.size | %FileCheck --check-prefix=GROW %s
//
// The order within each section is the same as without pads; the
// addresses are not.
// RUN: llvm-readelf -s %t.nopad.o | awk '$4 == "OBJECT" || $4 == "TLS" {print $7, $2, $8}' | sort -k1,1n -k2,2 | awk '{print $1, $3}' > %t.nopad.order
// RUN: llvm-readelf -s %t.pad.o | awk '$4 == "OBJECT" || $4 == "TLS" {print $7, $2, $8}' | sort -k1,1n -k2,2 | awk '{print $1, $3}' > %t.pad.order
// RUN: diff %t.nopad.order %t.pad.order
// RUN: llvm-nm -n --defined-only %t.nopad.o > %t.nopad.addrs
// RUN: llvm-nm -n --defined-only %t.pad.o > %t.pad.addrs
// RUN: %not diff -q %t.nopad.addrs %t.pad.addrs
//
// Large data: the pad of a variable in .ldata/.lbss is large data too.
// RUN: %divcc -c -O2 -mcmodel=medium -fdiversify=globals -frandom-seed=one %s -o %t.medium.nopad.o
// RUN: %divcc -c -O2 -mcmodel=medium -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=one %s -o %t.medium.pad.o
// RUN: llvm-size -A %t.medium.nopad.o > %t.medium.nopad.size
// RUN: llvm-size -A %t.medium.pad.o > %t.medium.pad.size
// RUN: awk 'FNR == NR { if (NF == 3 && $1 ~ /^\./) b[$1] = $2; next } NF == 3 && ($1 in b) { print $1, ($2 > b[$1] ? "grew" : $2 == b[$1] ? "same" : "shrank") }' %t.medium.nopad.size %t.medium.pad.size | %FileCheck --check-prefix=MEDIUM %s
//
// With -fdata-sections each variable has a section of its own: no pads.
// RUN: %divcc -c -O2 -fdata-sections -fdiversify=globals -frandom-seed=one %s -o %t.ds.nopad.o
// RUN: %divcc -c -O2 -fdata-sections -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=one %s -o %t.ds.pad.o
// RUN: llvm-size -A %t.ds.nopad.o | tail -n +2 > %t.ds.nopad.size
// RUN: llvm-size -A %t.ds.pad.o | tail -n +2 > %t.ds.pad.size
// RUN: diff %t.ds.nopad.size %t.ds.pad.size
//
// Pads are private: no new symbol.
// RUN: llvm-nm %t.pad.o | %FileCheck --check-prefix=NOSYM %s
//
// Behaviour is unchanged, under two seeds and with -g.
// RUN: %clang -O2 %s -o %t.clang.exe
// RUN: %t.clang.exe > %t.clang.out
// RUN: %divcc -O2 -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=one %s -o %t.one.exe
// RUN: %t.one.exe > %t.one.out
// RUN: diff %t.clang.out %t.one.out
// RUN: %divcc -O2 -g -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=two %s -o %t.two.exe
// RUN: %t.two.exe > %t.two.out
// RUN: diff %t.clang.out %t.two.out

// GROW-DAG: .data grew
// GROW-DAG: .bss grew
// GROW-DAG: .rodata grew
// GROW-DAG: .tdata grew
// GROW-DAG: .tbss grew
// GROW-DAG: .data.rel.ro same
// GROW-DAG: .rodata.str1.1 same

// MEDIUM-DAG: .ldata grew
// MEDIUM-DAG: .lbss grew
// MEDIUM-DAG: .data grew
// MEDIUM-DAG: .bss grew

// NOSYM-NOT: gpad

#include <stdio.h>

int data0 = 10, data1 = 11, data2 = 12, data3 = 13;
int bss0, bss1, bss2, bss3;
const int ro0 = 20, ro1 = 21, ro2 = 22, ro3 = 23;
_Thread_local int tdata0 = 1, tdata1 = 2;
_Thread_local int tbss0, tbss1;
const char *const names[] = {"zero", "one"};
char big[100000];
char bigdata[100000] = {1};

int main(void) {
  bss1 = data2 + ro3;
  tbss1 = tdata0 + 5;
  big[99999] = 7;
  printf("%d %d %d %d %d %d %s %s %d %d\n", data0 + data1 + data3, bss0 + bss1,
         bss2 + bss3, ro0 + ro1 + ro2, tdata1 + tbss0, tbss1, names[0],
         names[1], big[99999], bigdata[0]);
  return 0;
}
