// jitter leaves a function of more than 5000 machine instructions to
// clang's scheduler: in one that large (an interpreter's dispatch loop) the
// register allocator's spill choices swing with any change of order, and
// the random ties cost more instructions than they buy (docs/
// performance.md). Functions below the limit are reordered as before.
//
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.clang.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=one %s -o %t.one.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=two %s -o %t.two.s
// RUN: %divcc -S -O2 -g -fdiversify=sched -frandom-seed=two %s -o %t.two-g.s
//
// large() has about 7,500 instructions: the same under both seeds, with or
// without -g, as clang's.
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "large:"' %t.clang.s > %t.clang.large
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "large:"' %t.one.s > %t.one.large
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "large:"' %t.two.s > %t.two.large
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "large:"' %t.two-g.s > %t.two-g.large
// RUN: awk 'END { exit NR <= 5000 }' %t.clang.large
// RUN: diff %t.clang.large %t.one.large
// RUN: diff %t.clang.large %t.two.large
// RUN: diff %t.clang.large %t.two-g.large
//
// medium(), the same statements but 1,000 instructions, differs.
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "medium:"' %t.one.s > %t.one.medium
// RUN: awk '/^[a-z]+:/ { fn = $1 } /^\t[a-z]/ && fn == "medium:"' %t.two.s > %t.two.medium
// RUN: awk 'END { exit NR <= 500 }' %t.one.medium
// RUN: %not diff -q %t.one.medium %t.two.medium

#define S(i) a[(i) & 63] = a[((i) * 7) & 63] * ((i) % 13 + 2) + (a[((i) * 5) & 63] >> ((i) % 5 + 1));
#define S10(i) S(i) S(i + 1) S(i + 2) S(i + 3) S(i + 4) S(i + 5) S(i + 6) S(i + 7) S(i + 8) S(i + 9)
#define S100(i) S10(i) S10(i + 10) S10(i + 20) S10(i + 30) S10(i + 40) S10(i + 50) S10(i + 60) S10(i + 70) S10(i + 80) S10(i + 90)

void large(int *a) {
  S100(0) S100(100) S100(200) S100(300) S100(400) S100(500) S100(600)
  S100(700) S100(800) S100(900) S100(1000) S100(1100) S100(1200) S100(1300)
}

void medium(int *a) { S100(0) S100(100) }
