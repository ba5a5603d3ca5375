/* Brainf*ck interpreter: bracket matching precomputed with a stack, a
 * run-length "compiled" op list with switch dispatch, and a naive direct
 * interpreter; both run fixed programs and must agree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAPE 30000

struct op { char kind; int arg; };

/* Naive interpreter with precomputed jump table. */
static size_t run_naive(const char *prog, char *out, size_t cap) {
    size_t n = strlen(prog), o = 0;
    int *jump = malloc(n * sizeof *jump);
    int *stack = malloc(n * sizeof *stack);
    int sp = 0;
    for (size_t i = 0; i < n; i++) {
        jump[i] = -1;
        if (prog[i] == '[')
            stack[sp++] = (int)i;
        else if (prog[i] == ']') {
            int j = stack[--sp];
            jump[i] = j;
            jump[j] = (int)i;
        }
    }
    uint8_t *tape = calloc(TAPE, 1);
    size_t ptr = 0;
    for (size_t pc = 0; pc < n; pc++) {
        switch (prog[pc]) {
        case '>': ptr++; break;
        case '<': ptr--; break;
        case '+': tape[ptr]++; break;
        case '-': tape[ptr]--; break;
        case '.': if (o + 1 < cap) out[o++] = (char)tape[ptr]; break;
        case '[': if (!tape[ptr]) pc = (size_t)jump[pc]; break;
        case ']': if (tape[ptr]) pc = (size_t)jump[pc]; break;
        default: break;
        }
    }
    out[o] = 0;
    free(tape);
    free(stack);
    free(jump);
    return o;
}

/* Compile to run-length ops, with [-] recognised as "clear". */
static struct op *compile(const char *prog, int *count) {
    size_t n = strlen(prog);
    struct op *ops = malloc((n + 1) * sizeof *ops);
    int *stack = malloc((n + 1) * sizeof *stack);
    int k = 0, sp = 0;
    for (size_t i = 0; i < n; i++) {
        char c = prog[i];
        switch (c) {
        case '+': case '-': case '>': case '<': {
            int run = 0;
            char base = (c == '+' || c == '-') ? '+' : '>';
            while (i < n && (prog[i] == c || prog[i] == (c == '+' ? '-' : c == '-' ? '+' : c == '>' ? '<' : '>'))) {
                run += (prog[i] == '+' || prog[i] == '>') ? 1 : -1;
                i++;
            }
            i--;
            if (run)
                ops[k++] = (struct op){base, run};
            break;
        }
        case '[':
            if (i + 2 < n && prog[i + 1] == '-' && prog[i + 2] == ']') {
                ops[k++] = (struct op){'0', 0};
                i += 2;
            } else {
                stack[sp++] = k;
                ops[k++] = (struct op){'[', 0};
            }
            break;
        case ']': {
            int j = stack[--sp];
            ops[j].arg = k;
            ops[k++] = (struct op){']', j};
            break;
        }
        case '.':
            ops[k++] = (struct op){'.', 0};
            break;
        default:
            break;
        }
    }
    free(stack);
    *count = k;
    return ops;
}

static size_t run_compiled(const struct op *ops, int count, char *out, size_t cap, long *steps) {
    uint8_t *tape = calloc(TAPE, 1);
    size_t ptr = 0, o = 0;
    long st = 0;
    for (int pc = 0; pc < count; pc++) {
        st++;
        switch (ops[pc].kind) {
        case '+': tape[ptr] = (uint8_t)(tape[ptr] + ops[pc].arg); break;
        case '>': ptr += (size_t)(long)ops[pc].arg; break;
        case '0': tape[ptr] = 0; break;
        case '.': if (o + 1 < cap) out[o++] = (char)tape[ptr]; break;
        case '[': if (!tape[ptr]) pc = ops[pc].arg; break;
        case ']': if (tape[ptr]) pc = ops[pc].arg; break;
        }
    }
    out[o] = 0;
    free(tape);
    *steps = st;
    return o;
}

static const char *hello =
    "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------.--------.>>+.>++.";

/* Prints squares (program by Daniel B Cristofani, loop bound reduced to keep it fast). */
static const char *squares =
    "++[>+++++<-]>[<+++++>-]+<+[>[>+>+<<-]++>>[<<+>>-]>>>[-]++>[-]+>>>+[[-]++++++>>>]<<<[[<++++++++<++>>-]+<.<[>----<-]<]"
    "<<[>>>>>[>>>[-]+++++++++<[>-<-]+++++++++>[-[<->-]+[<<<]]<[>+<-]>]<<-]<<-]";

/* Print bytes 90..1 (alphabet backwards, punctuation, controls), then a letter run. */
static const char *alpha =
    "++++++++[>++++++++<-]>++++++++++++++++++++++++++[.-]"      /* prints 90 down to 1 */
    ">++++++++++[>+++++++>++++++++++<<-]>>+++++++++++++++++++++++++[<.>-<<+>>]<<[>>+<<-]"
    ">>>++++++++++.";

int main(void) {
    const char *progs[] = {hello, squares, alpha};
    const char *names[] = {"hello", "squares", "alpha"};
    uint64_t cs = 0;
    static char out1[8192], out2[8192];
    for (int p = 0; p < 3; p++) {
        size_t n1 = run_naive(progs[p], out1, sizeof out1);
        int nops;
        struct op *ops = compile(progs[p], &nops);
        long steps;
        size_t n2 = run_compiled(ops, nops, out2, sizeof out2, &steps);
        free(ops);
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < n1; i++)
            h = (h ^ (uint8_t)out1[i]) * 1099511628211ull;
        printf("%s: %zu bytes, ops %d, steps %ld, same=%d, hash %016llx\n", names[p], n1, nops, steps,
               n1 == n2 && memcmp(out1, out2, n1) == 0, (unsigned long long)h);
        /* show a printable excerpt */
        printf("  excerpt: ");
        for (size_t i = 0; i < n1 && i < 60; i++) {
            unsigned char c = (unsigned char)out1[i];
            if (c == '\n')
                printf("\\n");
            else if (c >= 32 && c < 127)
                putchar(c);
            else
                printf("<%u>", c);
        }
        printf("\n");
        cs = cs * 31 + h;
    }
    printf("checksum %016llx\n", (unsigned long long)cs);
    return 0;
}
