__attribute__((noinline)) int lib_a(int x) { return x * 3 + 1; }
__attribute__((noinline)) int lib_b(int x) { return x * 5 - 2; }
__attribute__((noinline)) int lib_c(int x) { return (x << 2) ^ 7; }
__attribute__((noinline)) int lib_sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += lib_a(i) + lib_b(i) - lib_c(i);
  return s;
}
__attribute__((noinline)) int lib_mix(int a, int b) { return lib_a(a) * lib_b(b) + lib_c(a + b); }
