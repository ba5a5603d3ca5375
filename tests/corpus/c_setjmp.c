/* setjmp/longjmp: non-local exits across several frames, volatile locals
 * surviving longjmp, nested jmp_buf handlers and an error-recovery parser.
 * setjmp only appears in the contexts C17 7.13.1.1 allows (if/switch). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf g_env;
static int g_depth_reached;
static int g_code;   /* value passed to the last longjmp */

static void dive(int depth, int limit) {
    char pad[32];
    memset(pad, depth & 0x7f, sizeof pad);
    g_depth_reached = depth + pad[3] * 0;
    if (depth == limit) {
        g_code = depth + 100;
        longjmp(g_env, depth + 100);
    }
    dive(depth + 1, limit);
}

/* A tiny recursive-descent calculator that longjmps on syntax errors. */
static jmp_buf parse_err;
static const char *src;

static long parse_expr(void);

static long parse_atom(void) {
    if (*src == '(') {
        src++;
        long v = parse_expr();
        if (*src != ')')
            longjmp(parse_err, 2);
        src++;
        return v;
    }
    if (*src >= '0' && *src <= '9') {
        long v = 0;
        while (*src >= '0' && *src <= '9')
            v = v * 10 + (*src++ - '0');
        return v;
    }
    longjmp(parse_err, 1);
}

static long parse_term(void) {
    long v = parse_atom();
    while (*src == '*' || *src == '/') {
        char op = *src++;
        long r = parse_atom();
        if (op == '*')
            v *= r;
        else {
            if (r == 0)
                longjmp(parse_err, 3);
            v /= r;
        }
    }
    return v;
}

static long parse_expr(void) {
    long v = parse_term();
    while (*src == '+' || *src == '-') {
        char op = *src++;
        long r = parse_term();
        v = op == '+' ? v + r : v - r;
    }
    return v;
}

static int evaluate(const char *text, long *out) {
    src = text;
    switch (setjmp(parse_err)) {
    case 0: break;
    case 1: return 1;
    case 2: return 2;
    case 3: return 3;
    default: return 99;
    }
    *out = parse_expr();
    if (*src != '\0')
        return 4;
    return 0;
}

/* Nested handlers: inner one rethrows to outer one. */
static jmp_buf *current_handler;

static void thrower(int v) {
    g_code = v;
    longjmp(*current_handler, v);
}

static int inner_try(int v) {
    jmp_buf local;
    jmp_buf *saved = current_handler;
    volatile int result = -1;
    current_handler = &local;
    if (setjmp(local) == 0) {
        thrower(v);
    }
    int code = g_code;
    if (code < 10) {
        result = code * 2;
    } else {
        current_handler = saved;
        thrower(code + 1); /* propagate to outer */
    }
    current_handler = saved;
    return result;
}

int main(void) {
    unsigned long checksum = 0;

    for (int limit = 1; limit <= 40; limit += 13) {
        if (setjmp(g_env) == 0) {
            dive(0, limit);
            printf("not reached\n");
        } else {
            int rc = g_code;
            printf("dive limit=%d rc=%d depth=%d\n", limit, rc, g_depth_reached);
            checksum = checksum * 31 + (unsigned long)rc;
        }
    }

    /* volatile local modified between setjmp and longjmp keeps its value */
    volatile int counter = 0;
    jmp_buf loop_env;
    if (setjmp(loop_env) < 5) {   /* returns 0, 1, 2, 3, 4 and finally 5 */
        counter++;
        longjmp(loop_env, counter);
    }
    printf("loop counter=%d\n", counter);
    checksum = checksum * 31 + (unsigned long)counter;

    /* longjmp with value 0 must appear as 1 */
    jmp_buf zero_env;
    volatile int attempts = 0;
    switch (setjmp(zero_env)) {
    case 0:
        attempts++;
        longjmp(zero_env, 0);
    case 1:
        printf("longjmp(0) -> 1 after %d attempt(s)\n", attempts);
        break;
    default:
        printf("longjmp(0) -> unexpected\n");
        break;
    }

    static const char *exprs[] = {
        "1+2*3", "(1+2)*3", "100/(5-5)", "((7)", "2*(3+4)*5-6", "12x", "", "9/3/3",
    };
    for (unsigned i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        long v = 0;
        int code = evaluate(exprs[i], &v);
        if (code == 0)
            printf("expr %-12s = %ld\n", exprs[i], v);
        else
            printf("expr %-12s error %d\n", exprs[i], code);
        checksum = checksum * 31 + (unsigned long)(code ? code : v);
    }

    jmp_buf outer;
    for (int v = 3; v <= 15; v += 6) {
        current_handler = &outer;
        if (setjmp(outer) == 0) {
            int res = inner_try(v);
            printf("inner handled %d -> %d\n", v, res);
            checksum = checksum * 31 + (unsigned long)res;
        } else {
            int code = g_code;
            printf("outer caught %d (from %d)\n", code, v);
            checksum = checksum * 31 + (unsigned long)code;
        }
    }

    printf("checksum %lu\n", checksum);
    return 0;
}
