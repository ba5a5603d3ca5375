/* Computed goto (labels as values, goto *ptr): a direct-threaded bytecode
 * interpreter with a static dispatch table, plus a label-difference table. */
#include <stdint.h>
#include <stdio.h>

enum op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_DROP, OP_JNZ, OP_JMP,
          OP_LOAD, OP_STORE, OP_PRINT, OP_MOD, OP_LT, OP_HALT };

static uint64_t g_sum;

static long run(const long *code, long *mem) {
    static void *const dispatch[] = {
        &&do_push, &&do_add, &&do_sub, &&do_mul, &&do_dup, &&do_swap, &&do_drop,
        &&do_jnz, &&do_jmp, &&do_load, &&do_store, &&do_print, &&do_mod, &&do_lt, &&do_halt,
    };
    long stack[64];
    int sp = 0;
    const long *pc = code;
    long steps = 0;

#define NEXT do { steps++; goto *dispatch[*pc++]; } while (0)
    NEXT;
do_push:
    stack[sp++] = *pc++;
    NEXT;
do_add:
    sp--; stack[sp - 1] += stack[sp];
    NEXT;
do_sub:
    sp--; stack[sp - 1] -= stack[sp];
    NEXT;
do_mul:
    sp--; stack[sp - 1] *= stack[sp];
    NEXT;
do_mod:
    sp--; stack[sp - 1] %= stack[sp];
    NEXT;
do_lt:
    sp--; stack[sp - 1] = stack[sp - 1] < stack[sp];
    NEXT;
do_dup:
    stack[sp] = stack[sp - 1]; sp++;
    NEXT;
do_swap: {
    long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
    NEXT;
}
do_drop:
    sp--;
    NEXT;
do_jnz: {
    long target = *pc++;
    if (stack[--sp])
        pc = code + target;
    NEXT;
}
do_jmp:
    pc = code + *pc;
    NEXT;
do_load:
    stack[sp++] = mem[*pc++];
    NEXT;
do_store:
    mem[*pc++] = stack[--sp];
    NEXT;
do_print:
    printf("  out %ld\n", stack[--sp]);
    g_sum = g_sum * 1000003u + (uint64_t)stack[sp];
    NEXT;
do_halt:
#undef NEXT
    return steps;
}

/* Label-difference table (position independent: offsets, not addresses). */
static int classify(int c) {
    static const int offsets[] = {
        &&l_digit - &&l_digit, &&l_alpha - &&l_digit, &&l_space - &&l_digit, &&l_other - &&l_digit,
    };
    int k = (c >= '0' && c <= '9') ? 0 : ((c | 32) >= 'a' && (c | 32) <= 'z') ? 1 : (c == ' ') ? 2 : 3;
    goto *(&&l_digit + offsets[k]);
l_digit:
    return 1;
l_alpha:
    return 2;
l_space:
    return 3;
l_other:
    return 4;
}

int main(void) {
    long mem[8] = {0};

    /* Program 1: print factorials 1!..10! */
    const long fact[] = {
        OP_PUSH, 1, OP_STORE, 0,          /* 0: acc = 1          */
        OP_PUSH, 1, OP_STORE, 1,          /* 4: i = 1            */
        OP_LOAD, 0, OP_LOAD, 1, OP_MUL,   /* 8: acc *= i         */
        OP_DUP, OP_PRINT, OP_STORE, 0,    /* 13: print acc       */
        OP_LOAD, 1, OP_PUSH, 1, OP_ADD,   /* 17: i += 1          */
        OP_DUP, OP_STORE, 1,              /* 22                  */
        OP_PUSH, 11, OP_LT, OP_JNZ, 8,    /* 25: if i < 11 loop  */
        OP_HALT,
    };
    printf("factorials:\n");
    long steps = run(fact, mem);
    printf("steps %ld\n", steps);

    /* Program 2: Euclid gcd(1071, 462) using memory cells 0/1 */
    const long gcd3[] = {
        OP_PUSH, 1071, OP_STORE, 0, OP_PUSH, 462, OP_STORE, 1,   /* 0        */
        OP_LOAD, 1, OP_JNZ, 16,                                  /* 8        */
        OP_LOAD, 0, OP_PRINT, OP_HALT,                           /* 12       */
        OP_LOAD, 0, OP_LOAD, 1, OP_MOD,                          /* 16: a%b  */
        OP_LOAD, 1, OP_STORE, 0, OP_STORE, 1,                    /* 21: a=b,b=a%b */
        OP_JMP, 8,                                               /* 27       */
    };
    printf("gcd:\n");
    steps = run(gcd3, mem);
    printf("steps %ld\n", steps);

    /* Program 3: sum of i*i for i in 0..99 */
    const long sq[] = {
        OP_PUSH, 0, OP_STORE, 2, OP_PUSH, 0, OP_STORE, 3,        /* 0: s=0,i=0 */
        OP_LOAD, 3, OP_DUP, OP_MUL, OP_LOAD, 2, OP_ADD, OP_STORE, 2, /* 8: s+=i*i */
        OP_LOAD, 3, OP_PUSH, 1, OP_ADD, OP_DUP, OP_STORE, 3,     /* 17: i++ */
        OP_PUSH, 100, OP_LT, OP_JNZ, 8,                          /* 25 */
        OP_LOAD, 2, OP_PRINT, OP_HALT,
    };
    printf("sum of squares:\n");
    steps = run(sq, mem);
    printf("steps %ld\n", steps);

    const char *text = "Hello, World 42!";
    unsigned cls = 0;
    for (const char *p = text; *p; p++) {
        cls = cls * 5u + (unsigned)classify(*p);
        printf("%d", classify(*p));
    }
    printf("\nclassify hash %u\n", cls);
    g_sum = g_sum * 31 + cls;

    printf("checksum %llu\n", (unsigned long long)g_sum);
    return 0;
}
