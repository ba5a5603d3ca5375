/* A function with a byte after its end that is not padding BOLT knows
   (ud2): BOLT ignores it and, when the new code goes to a new segment,
   leaves it where it was, still calling helper's old address. divtool
   rerandomize names it and repairs the call. */
#include <stdio.h>

int stuck(int);
__attribute__((noinline, used)) int helper(int x) { return 3 * x + 1; }
__asm__(".text\n.p2align 4\n.globl stuck\n.type stuck,@function\nstuck:\n"
        " lea 1(%rdi),%edi\n call helper\n add $1,%eax\n ret\n"
        ".size stuck, .-stuck\n ud2\n");

int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d\n", stuck(argc), helper(argc));
  return 0;
}
