#include <stdio.h>
int util_sum(int n);
int main(void) { printf("sum = %d\n", util_sum(10)); return 0; }
