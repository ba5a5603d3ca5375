// Exceptions unwind through functions with trap gaps: landing pads, call
// sites and CFI are those of the blocks, which the gaps leave as they are.
// A gap follows each call to __cxa_throw and _Unwind_Resume, which do not
// return.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang --driver-mode=g++ -O2 %s -o %t/clang
// RUN: %t/clang > %t/clang.out
// RUN: %divxx -O2 -fdiversify=gaps -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t/one
// RUN: %divxx -O2 -fdiversify=gaps,blocks,funcs -frandom-seed=2 -mllvm -verify-machineinstrs %s -o %t/two
// RUN: %t/one | diff %t/clang.out -
// RUN: %t/two | diff %t/clang.out -
// RUN: python3 %S/Inputs/trap_runs.py %t/one | %FileCheck %s
// CHECK: jump: {{[0-9]+}} return: {{[1-9][0-9]*}} call: {{[1-9][0-9]*}} other: 0

#include <cstdio>
#include <stdexcept>
#include <string>

struct Trace {
  const char *Name;
  explicit Trace(const char *Name) : Name(Name) {}
  ~Trace() { std::printf("leave %s\n", Name); }
};

__attribute__((noinline)) int check(int X) {
  if (X % 3 == 2)
    throw std::runtime_error("bad " + std::to_string(X));
  return X * 5;
}

__attribute__((noinline)) int through(int X) {
  Trace T("through");
  return check(X) + check(X + 3);
}

__attribute__((noinline)) int rethrow(int X) {
  try {
    return through(X);
  } catch (const std::runtime_error &E) {
    std::printf("rethrow %s\n", E.what());
    throw;
  }
}

int main() {
  int Sum = 0;
  for (int I = 0; I < 6; ++I) {
    try {
      Sum += rethrow(I);
    } catch (const std::exception &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  std::printf("sum %d\n", Sum);
  return 0;
}
