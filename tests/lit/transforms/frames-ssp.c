// Frame padding never sits between the stack protector's guard and a
// protected buffer: a 1-byte overflow of the only large char array still
// hits the guard and aborts, whatever the seed. (An array-typed pad would
// join the protected group and, under some seeds, hide the overflow.)
//
// DEFINE: %{flags} =
// DEFINE: %{check} = %divcc %{flags} -fdiversify=frames -fdiversify-frame-pad=64 %s -o %t.exe && %t.exe 0 | %FileCheck --check-prefix=FINE %s && %not --crash env LIBC_FATAL_STDERR_=1 %t.exe 1 2>&1 | %FileCheck --check-prefix=SMASH %s
//
// Clang's build detects the overflow (so this program tests the guard).
// RUN: %clang -O2 -fstack-protector-strong %s -o %t.clang.exe
// RUN: %not --crash env LIBC_FATAL_STDERR_=1 %t.clang.exe 1 2>&1 | %FileCheck --check-prefix=SMASH %s
//
// REDEFINE: %{flags} = -O0 -fstack-protector-strong -frandom-seed=1
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-strong -frandom-seed=2
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-strong -frandom-seed=3
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-strong -frandom-seed=4
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-all -frandom-seed=1
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-all -frandom-seed=2
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-all -frandom-seed=3
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -fstack-protector-all -frandom-seed=4
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-strong -frandom-seed=1
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-strong -frandom-seed=2
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-strong -frandom-seed=3
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-strong -frandom-seed=4
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-all -frandom-seed=1
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-all -frandom-seed=2
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-all -frandom-seed=3
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -fstack-protector-all -frandom-seed=4
// RUN: %{check}

// FINE: survived
// SMASH: stack smashing detected

#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void fill(char *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] = 'A'; // not 0: the guard's low byte is 0 on glibc
}

__attribute__((noinline)) void keep(void *p) {
  __asm__ volatile("" : : "r"(p) : "memory");
}

// buf is the only array of 8 bytes or more, so the only one the stack
// protector places right below the guard (small arrays and address-taken
// scalars come after it).
__attribute__((noinline)) int victim(int extra) {
  char buf[12];
  short small[3] = {1, 2, 3};
  int x = extra;
  long y = 7;
  struct { int a, b; } s = {4, 5};
  keep(small);
  keep(&x);
  keep(&y);
  keep(&s);
  fill(buf, (int)sizeof buf + extra);
  return buf[0] + small[1] + x + (int)y + s.b;
}

int main(int argc, char **argv) {
  int r = victim(argc > 1 ? atoi(argv[1]) : 0);
  printf("survived %d\n", r);
  return 0;
}
