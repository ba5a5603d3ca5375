// Shuffled and padded globals keep AddressSanitizer working: no false
// reports, and an overflow of a global is still caught. ASan keeps each
// instrumented global with its redzone in a comdat of its own (never
// padded); the globals it leaves alone (thread-locals, no_sanitize) are
// padded.
// RUN: %divcc -O0 -fsanitize=address -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=one %s -o %t.o0.exe
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.o0.exe 2 | %FileCheck --check-prefix=OK %s
// RUN: env ASAN_OPTIONS=detect_leaks=0 %not %t.o0.exe 8 2>&1 | %FileCheck --check-prefix=CAUGHT %s
// RUN: %divcc -O2 -fsanitize=address -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=two %s -o %t.o2.exe
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.o2.exe 2 | %FileCheck --check-prefix=OK %s
// RUN: env ASAN_OPTIONS=detect_leaks=0 %not %t.o2.exe 8 2>&1 | %FileCheck --check-prefix=CAUGHT %s
//
// The pads are there: the uninstrumented globals' sections grow.
// RUN: %divcc -c -O2 -fsanitize=address -fdiversify=globals -frandom-seed=two %s -o %t.nopad.o
// RUN: %divcc -c -O2 -fsanitize=address -fdiversify=globals -fdiversify-global-pad=64 -frandom-seed=two %s -o %t.pad.o
// RUN: llvm-size -A %t.nopad.o > %t.nopad.size
// RUN: llvm-size -A %t.pad.o > %t.pad.size
// RUN: awk 'FNR == NR { if (NF == 3 && $1 ~ /^\./) b[$1] = $2; next } NF == 3 && ($1 in b) { print $1, ($2 > b[$1] ? "grew" : $2 == b[$1] ? "same" : "shrank") }' %t.nopad.size %t.pad.size | %FileCheck --check-prefix=GROW %s

// OK: 3 3 9 divcc 5 6 7
// CAUGHT: global-buffer-overflow
// GROW-DAG: .tdata grew
// GROW-DAG: .data grew

#include <stdio.h>
#include <stdlib.h>

int arr[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int zeros[5];
const int table[3] = {7, 8, 9};
static char name[16] = "divcc";
_Thread_local int tls0 = 5, tls1 = 6;
__attribute__((no_sanitize("address"))) int plain0 = 7, plain1 = 8;

int main(int argc, char **argv) {
  int i = argc > 1 ? atoi(argv[1]) : 0;
  zeros[i % 5] = 3;
  printf("%d %d %d %s %d %d %d\n", arr[i], zeros[i % 5], table[i % 3], name,
         tls0, tls1, plain0 + plain1 - 8);
  return 0;
}
