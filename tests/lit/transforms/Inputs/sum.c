// The program of the offset tests: small, with a loop and a call into
// the C library through the PLT.
#include <stdio.h>
int main(void) {
  int s = 0;
  for (int i = 1; i <= 3; ++i)
    s += i;
  printf("sum %d\n", s);
  return 0;
}
