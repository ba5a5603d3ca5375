#include <stdio.h>

int circle_all(int x);
int square_all(int x);
int triangle_all(int x);

int main(void) {
  int total = circle_all(1) + square_all(2) + triangle_all(3);
  printf("shapes: %d\n", total);
  return total == 1228 ? 0 : 1;
}
