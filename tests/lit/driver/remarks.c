// Optimization remarks of the code generator's passes, as clang prints
// them: -Rpass-missed=regalloc gives the register allocator's spill and
// copy counts (what bench/ reads to compare divcc's allocation with
// clang's), -Rpass= the passes' own. clang-19 prints the same first lines
// (plus the source line); without -R, nothing. The file is named as in the
// debug information, relative to the compilation directory: clang names it
// as the command line did, the same for a file given by a relative path.
//
// RUN: cd %S && %clang -O2 -c remarks.c -o %t.clang.o -Rpass-missed=regalloc -Rpass=loop-vectorize 2> %t.clang.err
// RUN: cd %S && %divcc -O2 -fno-diversify -c remarks.c -o %t.divcc.o -Rpass-missed=regalloc -Rpass=loop-vectorize 2> %t.divcc.err
// RUN: grep 'remark:' %t.clang.err > %t.clang.remarks
// RUN: grep 'remark:' %t.divcc.err > %t.divcc.remarks
// RUN: diff %t.clang.remarks %t.divcc.remarks
// RUN: %FileCheck %s < %t.divcc.remarks
// RUN: cmp %t.clang.o %t.divcc.o
//
// The allocator's remarks under a diversified build too, and none unasked.
// RUN: %divcc -O2 -fdiversify -frandom-seed=one -c %s -o %t.div.o -Rpass-missed=regalloc 2>&1 | %FileCheck --check-prefix=REGALLOC %s
// RUN: %divcc -O2 -fdiversify -frandom-seed=one -c %s -o %t.quiet.o 2>&1 | count 0
//
// CHECK: {{^}}remarks.c:[[#@LINE+5]]:{{[0-9]+}}: remark: vectorized loop {{.*}} [-Rpass=loop-vectorize]
// CHECK: {{^}}remarks.c:[[#@LINE+2]]:1: remark: {{.*}}generated in function [-Rpass-missed=regalloc]
// REGALLOC: remark: {{.*}}generated in function [-Rpass-missed=regalloc]
int dot(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * a[n - i - 1];
  return s;
}
