// Random scheduling keeps x86 macro-fused pairs together: every conditional
// branch that follows a cmp or test in clang's code still follows it, under
// twelve seeds. The loads beside each pair set no flags, so nothing but the
// fusion constraint keeps them out from between the two (without it, about
// one pair in four comes apart).
// DEFINE: %{fused} = awk 'FNR == 1 && NR > 1 { print "fused", f + 0; f = 0 } /^\tj[a-z]+\t/ && !/^\tjmp/ { if (prev ~ /^\t(cmp|test)/) f++ } /^\t[a-z]/ { prev = $0 } END { print "fused", f + 0 }'
// DEFINE: %{random} = %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -mllvm -verify-machineinstrs %s
// RUN: %divcc -S -O2 -fno-diversify %s -o %t.clang.s
// RUN: %{random} -frandom-seed=1 -o %t.1.s
// RUN: %{random} -frandom-seed=2 -o %t.2.s
// RUN: %{random} -frandom-seed=3 -o %t.3.s
// RUN: %{random} -frandom-seed=4 -o %t.4.s
// RUN: %{random} -frandom-seed=5 -o %t.5.s
// RUN: %{random} -frandom-seed=6 -o %t.6.s
// RUN: %{random} -frandom-seed=7 -o %t.7.s
// RUN: %{random} -frandom-seed=8 -o %t.8.s
// RUN: %{random} -frandom-seed=9 -o %t.9.s
// RUN: %{random} -frandom-seed=10 -o %t.10.s
// RUN: %{random} -frandom-seed=11 -o %t.11.s
// RUN: %{random} -frandom-seed=12 -o %t.12.s
// RUN: %{fused} %t.clang.s %t.1.s %t.2.s %t.3.s %t.4.s %t.5.s %t.6.s %t.7.s %t.8.s %t.9.s %t.10.s %t.11.s %t.12.s | %FileCheck %s
//
// The seeds do reorder this code.
// RUN: %not diff -q %t.clang.s %t.1.s
// RUN: %not diff -q %t.1.s %t.2.s

// clang's count, then the same count for each seed.
// CHECK:      fused [[#FUSED:]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NEXT: fused [[#FUSED]]
// CHECK-NOT:  fused

long probe(const long *a, const long *b, const long *c, long n, long lim) {
  long x = 0, y = 0, z = 0;
  for (long i = 0; i < n; i += 2) {
    x = a[i];
    y = b[i + 1];
    z = c[i + 2];
    if (a[i + 3] > lim)
      break;
  }
  return x + y * 3 + z * 5;
}

int pick(const int *p, const int *q, int k) {
  int u = p[0], v = q[1], w = p[2];
  if (u < k)
    return v;
  int r = q[3], s = p[4], t = q[5];
  if (v == k)
    return w + r;
  return s - t;
}
