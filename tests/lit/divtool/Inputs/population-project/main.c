/* A two-file project for the divtool population tests. */
#include <stdio.h>
int twice(int x);
int main(int argc, char **argv) {
  printf("%d\n", twice(argc));
  return 0;
}
