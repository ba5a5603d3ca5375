// Schedule randomization, random mode: uniform among the ready instructions
// instead of LLVM's heuristics. On these latency-bound functions LLVM's
// heuristics rarely tie, so jitter finds few distinct orders; random mode
// finds more. Counted over eight seeds: the distinct (function, instruction
// sequence) pairs, summed over the functions.
// DEFINE: %{variants} = awk '/^[a-z0-9_]+:/ { fn = $1 } /^\t[a-z]/ && fn != "" { body[FILENAME SUBSEP fn] = body[FILENAME SUBSEP fn] $0 "\n" } END { for (k in body) { split(k, part, SUBSEP); seen[part[2] SUBSEP body[k]] = 1 } for (k in seen) n++; print n }'
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=1 %s -o %t.j1.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=2 %s -o %t.j2.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=3 %s -o %t.j3.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=4 %s -o %t.j4.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=5 %s -o %t.j5.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=6 %s -o %t.j6.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=7 %s -o %t.j7.s
// RUN: %divcc -S -O2 -fdiversify=sched -frandom-seed=8 %s -o %t.j8.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=1 %s -o %t.r1.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=2 %s -o %t.r2.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=3 %s -o %t.r3.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=4 %s -o %t.r4.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=5 %s -o %t.r5.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=6 %s -o %t.r6.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=7 %s -o %t.r7.s
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=8 %s -o %t.r8.s
// RUN: %{variants} %t.j1.s %t.j2.s %t.j3.s %t.j4.s %t.j5.s %t.j6.s %t.j7.s %t.j8.s > %t.jitter.count
// RUN: %{variants} %t.r1.s %t.r2.s %t.r3.s %t.r4.s %t.r5.s %t.r6.s %t.r7.s %t.r8.s > %t.random.count
// RUN: cat %t.jitter.count %t.random.count | awk 'NR == 1 { j = $1 } NR == 2 { r = $1 } END { print "jitter", j, "random", r; print (r > j ? "random varies more" : "random varies less") }' | %FileCheck --check-prefix=MORE %s
//
// Same seed, same code; the two modes differ; the verifier accepts it.
// RUN: %divcc -S -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=1 %s -o %t.again.s
// RUN: diff %t.r1.s %t.again.s
// RUN: %not diff -q %t.j1.s %t.r1.s
// RUN: %not diff -q %t.r1.s %t.r2.s
// RUN: %divcc -c -O2 -fdiversify=sched -fdiversify-sched=random -frandom-seed=1 -mllvm -verify-machineinstrs %s -o %t.v.o
//
// -g changes no instruction in random mode either.
// RUN: %divcc -S -O2 -g -fdiversify=sched -fdiversify-sched=random -frandom-seed=1 %s -o %t.g.s
// RUN: awk '/^\t[a-z]/' %t.r1.s > %t.r1.insns
// RUN: awk '/^\t[a-z]/' %t.g.s > %t.g.insns
// RUN: diff %t.r1.insns %t.g.insns

// Both modes vary (at least two variants of a function, plus the others).
// MORE: jitter {{[4-9]|[1-9][0-9]}} random {{[4-9]|[1-9][0-9]}}
// MORE-NEXT: random varies more

double dot8(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] +
         a[5] * b[5] + a[6] * b[6] + a[7] * b[7];
}

double horner(const double *c, double x, double y) {
  double p = ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
  double q = ((c[4] * y + c[5]) * y + c[6]) * y + c[7];
  return p * q + c[8];
}

void axpy4(double *restrict y, const double *restrict x, double a) {
  y[0] += a * x[0];
  y[1] += a * x[1];
  y[2] += a * x[2];
  y[3] += a * x[3];
}
