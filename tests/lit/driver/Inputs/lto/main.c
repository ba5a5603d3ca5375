#include <stdio.h>

__attribute__((noinline)) int lib_sum(int n);
__attribute__((noinline)) int lib_mix(int a, int b);
__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) int main_step1(int x) { return twice(x) + 1; }
__attribute__((noinline)) int main_step2(int x) { return lib_mix(x, main_step1(x)); }
__attribute__((noinline)) int main_step3(int x) { return main_step2(x) ^ 0x55; }

int main(int argc, char **argv) {
  int n = argc + 9;
  printf("lto: %d %d %d\n", lib_sum(n), main_step3(n), lib_mix(n, 3));
  return 0;
}
