/* Switch lowering: dense switches (jump tables / lookup tables), sparse
 * switches (binary search trees of compares), fallthrough chains, and a
 * character-class switch driving a small lexer. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t g_sum = 7;
static void acc(uint64_t v) { g_sum = g_sum * 6364136223846793005ull + v + 1442695040888963407ull; }

/* Dense: 16 cases each doing different work -> jump table. */
__attribute__((noinline)) static int dense(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b ? a / b : 0;
    case 4: return b ? a % b : 0;
    case 5: return a & b;
    case 6: return a | b;
    case 7: return a ^ b;
    case 8: return a << (b & 7);
    case 9: return a >> (b & 7);
    case 10: return a > b ? a : b;
    case 11: return a < b ? a : b;
    case 12: return a == b;
    case 13: return -a;
    case 14: return ~b;
    case 15: return a * 3 + b * 5;
    default: return -999;
    }
}

/* Dense switch producing values only -> lookup table. */
__attribute__((noinline)) static const char *month_name(int m) {
    switch (m) {
    case 1: return "Jan"; case 2: return "Feb"; case 3: return "Mar";
    case 4: return "Apr"; case 5: return "May"; case 6: return "Jun";
    case 7: return "Jul"; case 8: return "Aug"; case 9: return "Sep";
    case 10: return "Oct"; case 11: return "Nov"; case 12: return "Dec";
    default: return "???";
    }
}

__attribute__((noinline)) static int days_in(int m) {
    switch (m) {
    case 2: return 28;
    case 4: case 6: case 9: case 11: return 30;
    case 1: case 3: case 5: case 7: case 8: case 10: case 12: return 31;
    default: return 0;
    }
}

/* Sparse: widely spaced case values. */
__attribute__((noinline)) static int sparse(long v) {
    switch (v) {
    case -1000000: return 1;
    case -7: return 2;
    case 0: return 3;
    case 13: return 4;
    case 100: return 5;
    case 1024: return 6;
    case 4096: return 7;
    case 65537: return 8;
    case 1000000: return 9;
    case 123456789: return 10;
    case 2147483647L: return 11;
    case 10000000000L: return 12;
    default: return 0;
    }
}

/* Fallthrough accumulation (Duff's-device-like). */
__attribute__((noinline)) static int fallthrough(int n) {
    int r = 0;
    switch (n) {
    case 5: r += 5; /* fall through */
    case 4: r += 4; /* fall through */
    case 3: r += 3; /* fall through */
    case 2: r += 2; /* fall through */
    case 1: r += 1; break;
    default: r = -1;
    }
    return r;
}

static void duff_copy(char *to, const char *from, int count) {
    int n = (count + 7) / 8;
    if (count <= 0)
        return;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    /* fall through */ case 7: *to++ = *from++;
    /* fall through */ case 6: *to++ = *from++;
    /* fall through */ case 5: *to++ = *from++;
    /* fall through */ case 4: *to++ = *from++;
    /* fall through */ case 3: *to++ = *from++;
    /* fall through */ case 2: *to++ = *from++;
    /* fall through */ case 1: *to++ = *from++;
            } while (--n > 0);
    }
}

/* Lexer switching over characters. */
enum tok { T_NUM, T_IDENT, T_OP, T_LPAREN, T_RPAREN, T_STR, T_EOF, T_ERR };
static const char *tok_names[] = {"NUM", "IDENT", "OP", "LPAREN", "RPAREN", "STR", "EOF", "ERR"};

static enum tok lex(const char **pp, char *text, size_t cap) {
    const char *p = *pp;
    size_t n = 0;
again:
    switch (*p) {
    case ' ': case '\t': case '\n': case '\r':
        p++;
        goto again;
    case '\0':
        *pp = p;
        text[0] = 0;
        return T_EOF;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        while (*p >= '0' && *p <= '9' && n + 1 < cap)
            text[n++] = *p++;
        text[n] = 0;
        *pp = p;
        return T_NUM;
    case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': case 'g': case 'h':
    case 'i': case 'j': case 'k': case 'l': case 'm': case 'n': case 'o': case 'p':
    case 'q': case 'r': case 's': case 't': case 'u': case 'v': case 'w': case 'x':
    case 'y': case 'z': case '_':
    case 'A': case 'B': case 'C': case 'D': case 'E': case 'F': case 'G': case 'H':
    case 'I': case 'J': case 'K': case 'L': case 'M': case 'N': case 'O': case 'P':
    case 'Q': case 'R': case 'S': case 'T': case 'U': case 'V': case 'W': case 'X':
    case 'Y': case 'Z':
        while (((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '_' || (*p >= '0' && *p <= '9'))
            if (n + 1 < cap) text[n++] = *p++; else p++;
        text[n] = 0;
        *pp = p;
        return T_IDENT;
    case '+': case '-': case '*': case '/': case '%': case '=': case '<': case '>':
    case '!': case '&': case '|':
        text[n++] = *p++;
        if (*p == '=' || (*p == text[0] && (*p == '&' || *p == '|' || *p == '+' || *p == '-')))
            text[n++] = *p++;
        text[n] = 0;
        *pp = p;
        return T_OP;
    case '(':
        text[0] = '('; text[1] = 0; *pp = p + 1;
        return T_LPAREN;
    case ')':
        text[0] = ')'; text[1] = 0; *pp = p + 1;
        return T_RPAREN;
    case '"':
        p++;
        while (*p && *p != '"' && n + 1 < cap)
            text[n++] = *p++;
        text[n] = 0;
        if (*p == '"') p++;
        *pp = p;
        return T_STR;
    default:
        text[0] = *p; text[1] = 0; *pp = p + 1;
        return T_ERR;
    }
}

int main(void) {
    for (int op = -1; op <= 16; op++) {
        int r = dense(op, 1234, 5);
        printf("dense op %2d -> %d\n", op, r);
        acc((uint64_t)(int64_t)r);
    }
    for (int m = 0; m <= 13; m++) {
        printf("%s:%d ", month_name(m), days_in(m));
        acc((uint64_t)days_in(m));
    }
    printf("\n");

    static const long probes[] = {-1000000, -7, -6, 0, 1, 13, 100, 1023, 1024, 4096, 65537,
                                  999999, 1000000, 123456789, 2147483647L, 10000000000L, 42};
    printf("sparse:");
    for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        int r = sparse(probes[i]);
        printf(" %d", r);
        acc((uint64_t)r);
    }
    printf("\n");

    printf("fallthrough:");
    for (int i = 0; i <= 6; i++) {
        printf(" %d", fallthrough(i));
        acc((uint64_t)(int64_t)fallthrough(i));
    }
    printf("\n");

    const char *msg = "Duff's device copies in unrolled chunks!";
    for (int len = 0; len <= 17; len += 3) {
        char buf[64];
        memset(buf, '.', sizeof buf);
        duff_copy(buf, msg, len);
        buf[len] = 0;
        printf("duff %2d [%s]\n", len, buf);
        for (int i = 0; i < len; i++)
            acc((unsigned char)buf[i]);
    }

    const char *src = "let x_1 = (foo + 42) * \"str lit\" <= bar && y != 7 || z++ # end";
    const char *p = src;
    char text[32];
    int count = 0;
    for (;;) {
        enum tok t = lex(&p, text, sizeof text);
        printf("  %s '%s'\n", tok_names[t], text);
        acc((uint64_t)t * 1000 + strlen(text));
        count++;
        if (t == T_EOF)
            break;
    }
    printf("tokens %d\n", count);
    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}
