// -g changes no instruction: debug instructions take no random draws and do
// not count in the flags-liveness scan, so the code bytes are the same.
// RUN: %divcc -c -O2 -fdiversify=subst -frandom-seed=dbg %s -o %t.nodebug.o
// RUN: %divcc -c -O2 -g -fdiversify=subst -frandom-seed=dbg -mllvm -verify-machineinstrs %s -o %t.debug.o
// RUN: llvm-objcopy -O binary --only-section=.text %t.nodebug.o %t.nodebug.text
// RUN: llvm-objcopy -O binary --only-section=.text %t.debug.o %t.debug.text
// RUN: cmp %t.nodebug.text %t.debug.text
//
// And the substitution did change the code (so the comparison means
// something).
// RUN: %clang -c -O2 %s -o %t.clang.o
// RUN: llvm-objcopy -O binary --only-section=.text %t.clang.o %t.clang.text
// RUN: %not cmp -s %t.clang.text %t.nodebug.text

void g(int);

int table[64];

int mix(int a, int b) {
  int t = a * 31;
  int u = b >> 3;
  return t ^ u;
}

int walk(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    int v = table[i & 63] + i;
    g(v);
    s = mix(s, v);
    int w = s - 1;
    if (w == 0)
      g(w);
  }
  return s;
}

long pick(long a, long b, int c) {
  long r = c ? a : b;
  g((int)r);
  return r + 1;
}
