/* An interpreter as fast ones are written: a computed-goto dispatch table
   (labels' addresses in data, base-relative relocations in a PIE), an API
   exported with -Wl,-E, and a static helper that calls the exported API
   directly (with -fno-plt, the GOT call the linker relaxes to a direct
   one). Prints the same lines under every layout. */
#include <stdio.h>
#include <stdlib.h>

long vm_stack[64];
int vm_top;

void vm_push(long v) { vm_stack[vm_top++] = v; }
long vm_pop(void) { return vm_stack[--vm_top]; }

static __attribute__((noinline)) void resume(long v) {
  vm_push(vm_pop() + v);
}

static long run(const unsigned char *pc) {
  static void *dispatch[] = {&&op_push, &&op_add, &&op_mul, &&op_call,
                             &&op_halt};
#define NEXT goto *dispatch[*pc++]
  NEXT;
op_push:
  vm_push(*pc++);
  NEXT;
op_add:
  vm_push(vm_pop() + vm_pop());
  NEXT;
op_mul:
  vm_push(vm_pop() * vm_pop());
  NEXT;
op_call:
  resume(*pc++);
  NEXT;
op_halt:
  return vm_pop();
}

int main(int argc, char **argv) {
  unsigned char program[] = {0, 6, 0, 7, 2, 3, 5, 0, (unsigned char)argc, 1, 4};
  long total = 0;
  for (int i = 0; i < 1000; ++i)
    total += run(program);
  printf("%ld %ld\n", run(program), total);
  return argc > 1 ? atoi(argv[1]) : 0;
}
