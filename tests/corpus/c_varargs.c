/* Variadic functions: va_list passing, va_copy for two-pass formatting, a
 * home-made printf, mixed int/long/double/struct arguments through "...". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair { int a; long b; };

static unsigned long g_hash = 5381;

static void hash_str(const char *s) {
    while (*s)
        g_hash = g_hash * 33u ^ (unsigned char)*s++;
}

/* Emit one char into a bounded buffer (buf may be NULL: measure only). */
static void emit(char *buf, size_t cap, size_t *pos, char c) {
    if (buf && *pos + 1 < cap)
        buf[*pos] = c;
    (*pos)++;
}

static void emit_uint(char *buf, size_t cap, size_t *pos, unsigned long long v,
                      unsigned base, int width, char padc) {
    char tmp[32];
    int n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v);
    while (width-- > n)
        emit(buf, cap, pos, padc);
    while (n)
        emit(buf, cap, pos, tmp[--n]);
}

/* Supports %d %u %x %s %c %% %p-free, 'l'/'ll' modifiers, width, '0' pad,
 * and a custom %P that consumes a struct pair by value. */
static size_t my_vformat(char *buf, size_t cap, const char *fmt, va_list ap) {
    size_t pos = 0;
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            emit(buf, cap, &pos, *fmt);
            continue;
        }
        fmt++;
        char padc = ' ';
        int width = 0, lng = 0;
        if (*fmt == '0') {
            padc = '0';
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l') {
            lng++;
            fmt++;
        }
        switch (*fmt) {
        case 'd': {
            long long v = lng >= 2 ? va_arg(ap, long long) : lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
            unsigned long long mag;
            if (v < 0) {
                emit(buf, cap, &pos, '-');
                mag = 0ull - (unsigned long long)v;
                if (width)
                    width--;
            } else {
                mag = (unsigned long long)v;
            }
            emit_uint(buf, cap, &pos, mag, 10, width, padc);
            break;
        }
        case 'u':
        case 'x': {
            unsigned long long v = lng >= 2 ? va_arg(ap, unsigned long long)
                                 : lng == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            emit_uint(buf, cap, &pos, v, *fmt == 'x' ? 16 : 10, width, padc);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            int len = (int)strlen(s);
            while (width-- > len)
                emit(buf, cap, &pos, ' ');
            while (*s)
                emit(buf, cap, &pos, *s++);
            break;
        }
        case 'c':
            emit(buf, cap, &pos, (char)va_arg(ap, int));
            break;
        case 'P': {
            struct pair p = va_arg(ap, struct pair);
            emit(buf, cap, &pos, '{');
            emit_uint(buf, cap, &pos, (unsigned)p.a, 10, 0, ' ');
            emit(buf, cap, &pos, ',');
            emit_uint(buf, cap, &pos, (unsigned long)p.b, 10, 0, ' ');
            emit(buf, cap, &pos, '}');
            break;
        }
        case '%':
            emit(buf, cap, &pos, '%');
            break;
        default:
            emit(buf, cap, &pos, '?');
            break;
        }
    }
    if (buf && cap)
        buf[pos < cap ? pos : cap - 1] = '\0';
    return pos;
}

/* Two passes over the same arguments thanks to va_copy. */
static char *my_asprintf(const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t need = my_vformat(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = malloc(need + 1);
    my_vformat(buf, need + 1, fmt, ap2);
    va_end(ap2);
    return buf;
}

static void my_printf(const char *fmt, ...) {
    char small[16];
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t n = my_vformat(small, sizeof small, fmt, ap);
    if (n < sizeof small) {
        fputs(small, stdout);
        hash_str(small);
    } else {
        char *big = malloc(n + 1);
        my_vformat(big, n + 1, fmt, ap2);
        fputs(big, stdout);
        hash_str(big);
        free(big);
    }
    va_end(ap2);
    va_end(ap);
}

/* Sum a zero-terminated list of ints. */
static long sum_ints(int first, ...) {
    va_list ap;
    long s = 0;
    va_start(ap, first);
    for (int v = first; v != 0; v = va_arg(ap, int))
        s += v;
    va_end(ap);
    return s;
}

/* Many arguments (spill past the register save area), mixing doubles. */
static long long mixed(int n, ...) {
    va_list ap;
    long long acc = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        if (i % 3 == 2) {
            double d = va_arg(ap, double);
            acc = acc * 7 + (long long)(d * 4.0);
        } else {
            acc = acc * 7 + va_arg(ap, int);
        }
    }
    va_end(ap);
    return acc;
}

/* Forward a va_list down through a helper that consumes part of it. */
static int take_two(va_list *ap) {
    int a = va_arg(*ap, int);
    int b = va_arg(*ap, int);
    return a * 100 + b;
}

static void forwarder(int groups, ...) {
    va_list ap;
    va_start(ap, groups);
    for (int g = 0; g < groups; g++)
        my_printf("group %d -> %d\n", g, take_two(&ap));
    va_end(ap);
}

int main(void) {
    my_printf("hello %s, %d%% done, hex %x, char %c\n", "world", 42, 0xbeefu, 'Z');
    my_printf("neg %d, padded [%05d] [%8s] [%3d]\n", -1234, 42, "abc", 7);
    my_printf("long %ld, llong %lld, ull %llu\n", -9876543210L, -123456789012345LL,
              18446744073709551615ULL);
    struct pair p = { 17, 4000000000L };
    my_printf("pair %P and after %d\n", p, 99);

    char *s = my_asprintf("%s-%s-%s:%05u:%x", "alpha", "beta", "gamma", 31u, 255u);
    my_printf("asprintf -> %s (len %u)\n", s, (unsigned)strlen(s));
    free(s);

    my_printf("sum_ints = %ld\n", sum_ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0));
    my_printf("mixed = %lld\n", mixed(12, 1, 2, 0.5, 3, 4, 1.25, 5, 6, 2.75, 7, 8, 10.0));
    forwarder(3, 1, 2, 3, 4, 5, 6);

    /* vsnprintf from libc with va_copy'd list must agree with ours */
    char a[64], b[64];
    snprintf(a, sizeof a, "%d|%s|%x|%c", -5, "xy", 0x1234u, 'q');
    s = my_asprintf("%d|%s|%x|%c", -5, "xy", 0x1234u, 'q');
    snprintf(b, sizeof b, "%s", s);
    free(s);
    my_printf("libc vs mine: %s %s %s\n", a, b, strcmp(a, b) == 0 ? "same" : "DIFF");

    printf("checksum %lu\n", g_hash);
    return 0;
}
