/* __attribute__((constructor/destructor)) with and without priorities,
 * interleaved with atexit() handlers; output order is fixed by the ABI
 * (.init_array/.fini_array ordering) and checked at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char order[64];
static int norder;
static int *heap_table;    /* allocated in a constructor, freed in a destructor */
static unsigned long sum;

static void mark(char c) {
    if (norder < (int)sizeof order - 1)
        order[norder++] = c;
    sum = sum * 131 + (unsigned char)c;
}

__attribute__((constructor(300))) static void ctor_300(void) {
    mark('C');
    printf("ctor prio 300\n");
}

__attribute__((constructor(101))) static void ctor_101(void) {
    mark('A');
    printf("ctor prio 101\n");
    heap_table = malloc(16 * sizeof *heap_table);
    for (int i = 0; i < 16; i++)
        heap_table[i] = i * i;
}

__attribute__((constructor(200))) static void ctor_200(void) {
    mark('B');
    printf("ctor prio 200 (table[5]=%d)\n", heap_table ? heap_table[5] : -1);
}

__attribute__((constructor)) static void ctor_default(void) {
    mark('D');
    printf("ctor default priority\n");
}

static void at_exit_1(void) {
    mark('x');
    printf("atexit handler 1 (registered first, runs last of the atexits)\n");
}

static void at_exit_2(void) {
    mark('y');
    printf("atexit handler 2\n");
}

__attribute__((destructor(101))) static void dtor_101(void) {
    mark('a');
    printf("dtor prio 101 (runs after 200/300)\n");
    free(heap_table);
    heap_table = NULL;
    printf("order seen: %s\n", order);
    printf("checksum %lu\n", sum);
}

__attribute__((destructor(200))) static void dtor_200(void) {
    mark('b');
    long s = 0;
    for (int i = 0; i < 16; i++)
        s += heap_table[i];
    printf("dtor prio 200 (table sum %ld)\n", s);
}

__attribute__((destructor(300))) static void dtor_300(void) {
    mark('c');
    printf("dtor prio 300\n");
}

__attribute__((destructor)) static void dtor_default(void) {
    mark('d');
    printf("dtor default priority\n");
}

int main(void) {
    mark('M');
    printf("main: constructors ran in order %s\n", order);
    if (strcmp(order, "ABCDM") != 0)
        printf("UNEXPECTED constructor order\n");
    atexit(at_exit_1);
    atexit(at_exit_2);
    printf("main returns\n");
    fflush(stdout);
    return 0;
}
