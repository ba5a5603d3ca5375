// Without a profile's counts, no NOPs in innermost loops: they would run on
// every iteration. At probability 1 every other place gets one, the outer
// loop's own blocks included; -fdiversify-nops-in-loops puts them back.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=loops %s -o %t/default.s
// RUN: %FileCheck --check-prefixes=FN,OUTER,HOT-NONE,RARE-NONE,MAIN %s < %t/default.s
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nops-in-loops -frandom-seed=loops %s -o %t/in-loops.s
// RUN: %FileCheck --check-prefixes=FN,OUTER,HOT-SOME,RARE-SOME,MAIN %s < %t/in-loops.s
//
// The last of -f[no-]diversify-nops-in-loops wins.
// RUN: %divcc -S -O2 -fdiversify=nops -fdiversify-nop-probability=1 -fdiversify-nops-in-loops -fno-diversify-nops-in-loops -frandom-seed=loops %s -o %t/off-again.s
// RUN: diff %t/default.s %t/off-again.s
//
// With a profile and profile-guided NOPs, the counts decide, loops or not
// (Inputs/nops-loops.proftext: a training run of this file; hot's inner
// loop ran 20 million times, rare's loop 3 times): the hot loop gets none,
// the rarely run one gets NOPs at the maximum probability.
// RUN: llvm-profdata merge -o %t/run.profdata %S/Inputs/nops-loops.proftext
// RUN: %divcc -S -O2 -fprofile-instr-use=%t/run.profdata -fdiversify=nops -fdiversify-nop-probability-min=0 -fdiversify-nop-probability-max=1 -frandom-seed=loops %s -o %t/guided.s
// RUN: %FileCheck --check-prefixes=FN,HOT-NONE,RARE-SOME,MAIN %s < %t/guided.s
//
// At one probability a profile's counts are not read: no NOPs in innermost
// loops, as without a profile.
// RUN: %divcc -S -O2 -fprofile-instr-use=%t/run.profdata -fdiversify=nops -fdiversify-nop-probability=1 -frandom-seed=loops %s -o %t/uniform.s
// RUN: %FileCheck --check-prefixes=FN,OUTER,HOT-NONE,RARE-NONE,MAIN %s < %t/uniform.s

// A NOP is one of {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}

// The outer loop's header gets NOPs; the inner loop, from its header to its
// back branch, none.
// FN-LABEL:      {{^}}hot:
// OUTER:         {{^}}.LBB{{[0-9_]+}}:{{.*}}# =>This Loop Header: Depth=1
// OUTER:         {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// HOT-NONE:      {{^}}[[HOT:\.LBB[0-9_]+]]:{{.*}}# Parent Loop
// HOT-NONE-NEXT: =>  This Inner Loop Header: Depth=2
// HOT-NONE-NOT:  {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// HOT-NONE:      {{^	j[a-z]+}}	[[HOT]]{{$}}
// HOT-SOME:      {{^}}[[HOT:\.LBB[0-9_]+]]:{{.*}}# Parent Loop
// HOT-SOME-NEXT: =>  This Inner Loop Header: Depth=2
// HOT-SOME:      {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// HOT-SOME:      {{^	j[a-z]+}}	[[HOT]]{{$}}

// rare's loop is innermost too.
// FN-LABEL:       {{^}}rare:
// RARE-NONE:      {{^}}[[RARE:\.LBB[0-9_]+]]:{{.*}}# =>This Inner Loop Header: Depth=1
// RARE-NONE-NOT:  {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// RARE-NONE:      {{^	j[a-z]+}}	[[RARE]]{{$}}
// RARE-SOME:      {{^}}[[RARE:\.LBB[0-9_]+]]:{{.*}}# =>This Inner Loop Header: Depth=1
// RARE-SOME:      {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// RARE-SOME:      {{^	j[a-z]+}}	[[RARE]]{{$}}

// Straight-line code keeps its NOPs.
// FN-LABEL: {{^}}main:
// MAIN:     {{^	(nop|movq	%r[bs]p, %r[bs]p|leaq	\(%r[sd]i\), %r[sd]i)$}}
// MAIN:     {{^	callq?}}	hot

#include <stdio.h>

__attribute__((noinline)) unsigned hot(unsigned rows, unsigned n) {
  unsigned h = rows;
  for (unsigned r = 0; r < rows; ++r) {
    h ^= r * 2654435761u;
#pragma clang loop unroll(disable) vectorize(disable)
    for (unsigned i = 0; i < n + (r & 7); ++i)
      h = h * 31 + (i ^ (h >> 7));
  }
  return h;
}

__attribute__((noinline)) unsigned rare(unsigned n) {
  unsigned r = n;
#pragma clang loop unroll(disable) vectorize(disable)
  for (unsigned i = 0; i < n; ++i)
    r = r * 7 + (i ^ (r >> 3));
  return r;
}

int main(int argc, char **argv) {
  unsigned s = hot(argc * 1000, argc * 20000);
  s += rare(argc + 2);
  printf("%u\n", s);
  return 0;
}
