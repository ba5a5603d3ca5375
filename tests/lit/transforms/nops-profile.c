// Profile-guided NOPs (-fdiversify-nop-probability-min/max with
// -fprofile-instr-use): a block's probability falls with its execution
// count, so the hot loop gets none, nor does warm code run a hundred
// thousand times (a tenth of a percent of the hot loop's count), and
// never-run code gets the maximum.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fprofile-instr-generate %s -o %t/instrumented
// RUN: env LLVM_PROFILE_FILE=%t/run.profraw %t/instrumented
// RUN: llvm-profdata merge -o %t/run.profdata %t/run.profraw
// RUN: %divcc -S -O2 -fprofile-instr-use=%t/run.profdata -fdiversify=nops -fdiversify-nop-probability-min=0 -fdiversify-nop-probability-max=1 -frandom-seed=heat %s -o %t/guided.s
// RUN: awk -f %S/Inputs/nops-by-heat.awk %t/guided.s | %FileCheck --check-prefix=GUIDED %s
// GUIDED: hot loop NOPs: 0{{$}}
// GUIDED: warm NOPs: 0{{$}}
// GUIDED: cold NOPs: {{[1-9][0-9]*$}}

// The same profile with one probability everywhere, and NOPs allowed in
// innermost loops (-fdiversify-nops-in-loops), puts NOPs in the loop.
// RUN: %divcc -S -O2 -fprofile-instr-use=%t/run.profdata -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nops-in-loops -frandom-seed=heat %s -o %t/uniform.s
// RUN: awk -f %S/Inputs/nops-by-heat.awk %t/uniform.s | %FileCheck --check-prefix=UNIFORM %s
// UNIFORM: hot loop NOPs: {{[1-9][0-9]*$}}
// UNIFORM: warm NOPs: {{[1-9][0-9]*$}}

// The guided program still computes what clang's does.
// RUN: %divcc -O2 -fprofile-instr-use=%t/run.profdata -fdiversify=nops -fdiversify-nop-probability-min=0 -fdiversify-nop-probability-max=1 -frandom-seed=heat %s -o %t/guided
// RUN: %t/instrumented > %t/expected.txt && %t/guided > %t/got.txt && diff %t/expected.txt %t/got.txt

#include <stdio.h>

__attribute__((noinline)) unsigned hot(unsigned n) {
  unsigned h = 0;
  for (unsigned i = 0; i < n; ++i)
    h = h * 31 + (i ^ (h >> 7));
  return h;
}

__attribute__((noinline)) unsigned warm(unsigned x, unsigned y) {
  return (x * 2654435761u) ^ (y >> 3) ^ (x + y * 7);
}

__attribute__((noinline)) unsigned cold(unsigned x) {
  unsigned r = 0;
  for (unsigned i = 0; i < x; ++i)
    r += i * x;
  return r;
}

int main(int argc, char **argv) {
  unsigned s = hot(20000000u);
  for (unsigned i = 0; i < 100000; ++i)
    s = warm(s, i);
  if (argc > 5) // never, in the training run
    s += cold(argc);
  printf("%u\n", s);
  return 0;
}
