/* A pointer into the middle of f: BOLT 19 cannot give it a new address
   ("unable to get new address corresponding to input address"), so f must
   stay where it is. */
#include <stdio.h>

__attribute__((noinline)) int f(int x) { return x * 3 + 1; }
void *inside_f = (char *)&f + 3;

int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d\n", f(argc), inside_f == (char *)&f + 3);
  return 0;
}
