/* A pointer into the middle of f: LLVM BOLT 19 gives it a new address only
   where a symbol names it, which divtool rerandomize adds; f moves, and
   the pointer with it. */
#include <stdio.h>

__attribute__((noinline)) int f(int x) { return x * 3 + 1; }
void *inside_f = (char *)&f + 3;

int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d\n", f(argc), inside_f == (char *)&f + 3);
  return 0;
}
