#include <stdio.h>
int helper(int);
int main(void) { printf("helper(20) = %d\n", helper(20)); return 0; }
