#include <stdio.h>
int last(int);
int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", last(argc));
  return 0;
}
