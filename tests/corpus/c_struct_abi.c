/* Struct passing/returning by value across SysV x86-64 ABI classes: tiny,
 * INTEGER pairs, SSE and mixed INTEGER/SSE, MEMORY-class (sret) large structs,
 * nested structs, padding holes, and enough struct args to spill to the stack. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tiny { char c; };
struct small { short a; char b; };
struct two_int { long a, b; };
struct mixed { int i; double d; };
struct sse2 { float x, y, z, w; };
struct large { int v[20]; long tag; };
struct nested { struct small s; struct two_int t; unsigned char flags[3]; };
struct odd { char a; long b; char c; };   /* padding holes */

static uint64_t g_sum = 99;
static void acc(uint64_t v) { g_sum = g_sum * 31 + v; }

__attribute__((noinline)) static struct tiny mk_tiny(char c) { struct tiny t = {c}; return t; }
__attribute__((noinline)) static struct small mk_small(short a, char b) { return (struct small){a, b}; }
__attribute__((noinline)) static struct two_int swap2(struct two_int p) { return (struct two_int){p.b, p.a}; }
__attribute__((noinline)) static struct mixed scale_mixed(struct mixed m, int k) {
    m.i *= k;
    m.d *= k;  /* exact: small integers and halves */
    return m;
}
__attribute__((noinline)) static struct sse2 add_sse(struct sse2 a, struct sse2 b) {
    return (struct sse2){a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w};
}
__attribute__((noinline)) static struct large make_large(int seed) {
    struct large l;
    for (int i = 0; i < 20; i++)
        l.v[i] = seed * (i + 1) - i * i;
    l.tag = seed * 1000L;
    return l;
}
__attribute__((noinline)) static long sum_large(struct large l) {
    long s = l.tag;
    for (int i = 0; i < 20; i++)
        s += l.v[i];
    l.v[0] = -1;  /* modifies the callee's copy only */
    return s;
}
__attribute__((noinline)) static struct large transform_large(struct large l, int add) {
    for (int i = 0; i < 20; i++)
        l.v[i] += add;
    l.tag ^= 0x55;
    return l;
}
__attribute__((noinline)) static struct nested mk_nested(struct small s, long x) {
    struct nested n;
    memset(&n, 0, sizeof n);
    n.s = s;
    n.t.a = x;
    n.t.b = -x;
    n.flags[0] = 1; n.flags[1] = 2; n.flags[2] = 3;
    return n;
}
/* Many by-value aggregates: registers run out, the rest goes on the stack. */
__attribute__((noinline)) static long many(struct two_int a, struct two_int b, struct two_int c,
                                           struct mixed d, struct two_int e, struct small f,
                                           struct odd g, struct tiny h, struct mixed i) {
    return a.a + a.b * 2 + b.a * 3 + b.b * 4 + c.a * 5 + c.b * 6 + d.i * 7 + (long)d.d * 8 +
           e.a * 9 + e.b * 10 + f.a * 11 + f.b * 12 + g.a * 13 + g.b * 14 + g.c * 15 + h.c * 16 +
           i.i * 17 + (long)(i.d * 2) * 18;
}
__attribute__((noinline)) static struct odd pass_odd(struct odd o) {
    o.a++;
    o.b <<= 1;
    o.c--;
    return o;
}

/* Returning a struct through a function pointer. */
typedef struct two_int (*two_fn)(struct two_int);

static int two_eq(struct two_int a, struct two_int b) { return a.a == b.a && a.b == b.b; }

int main(void) {
    struct tiny t = mk_tiny('q');
    struct small s = mk_small(-300, 'k');
    printf("tiny %c small %d %c sizes %zu %zu\n", t.c, s.a, s.b, sizeof t, sizeof s);
    acc((uint64_t)t.c + (uint64_t)(int64_t)s.a + (uint64_t)s.b);

    struct two_int p = {123456789012L, -42};
    two_fn f = swap2;
    struct two_int q = f(f(f(p)));
    printf("two_int %ld %ld eq-after-4-swaps %d\n", q.a, q.b, two_eq(f(q), p));
    acc((uint64_t)q.a ^ (uint64_t)q.b);

    struct mixed m = scale_mixed((struct mixed){7, 2.5}, 6);
    printf("mixed %d %.3f\n", m.i, m.d);
    acc((uint64_t)m.i + (uint64_t)(m.d * 2));

    struct sse2 v = add_sse((struct sse2){1, 2, 3, 4}, (struct sse2){0.5f, 0.25f, -3, 10});
    printf("sse %.4g %.4g %.4g %.4g\n", v.x, v.y, v.z, v.w);
    acc((uint64_t)(v.x * 4 + v.y * 4 + v.z * 4 + v.w * 4));

    struct large L = make_large(7);
    long sl = sum_large(L);
    struct large L2 = transform_large(L, 3);
    printf("large sum %ld v0 still %d, transformed v0=%d v19=%d tag=%ld\n", sl, L.v[0], L2.v[0], L2.v[19], L2.tag);
    acc((uint64_t)sl + (uint64_t)sum_large(L2));
    L = transform_large(L, -1);  /* return into the same object as the argument */
    printf("self-assign v5=%d tag=%ld\n", L.v[5], L.tag);
    acc((uint64_t)L.v[5] + (uint64_t)L.tag);

    struct nested n = mk_nested(s, 77);
    printf("nested %d %c %ld %ld %u%u%u\n", n.s.a, n.s.b, n.t.a, n.t.b, n.flags[0], n.flags[1], n.flags[2]);
    acc((uint64_t)n.t.a + n.flags[2]);

    struct odd o = {'a', 1L << 40, 'z'};
    struct odd o2 = pass_odd(pass_odd(o));
    printf("odd %c %ld %c sizeof %zu\n", o2.a, o2.b, o2.c, sizeof o2);
    acc((uint64_t)o2.b + (uint64_t)o2.a + (uint64_t)o2.c);

    long r = many((struct two_int){1, 2}, (struct two_int){3, 4}, (struct two_int){5, 6},
                  (struct mixed){7, 8.0}, (struct two_int){9, 10}, (struct small){11, 12},
                  (struct odd){13, 14, 15}, (struct tiny){16}, (struct mixed){17, 9.5});
    printf("many = %ld\n", r);
    acc((uint64_t)r);

    /* struct array copy and memcmp on fully-initialised (memset) storage */
    struct two_int arr1[4], arr2[4];
    memset(arr1, 0, sizeof arr1);
    for (int i = 0; i < 4; i++)
        arr1[i] = (struct two_int){i, i * i};
    memcpy(arr2, arr1, sizeof arr1);
    arr2[2] = swap2(arr2[2]);
    printf("memcmp arrays %d %d\n", memcmp(arr1, arr2, sizeof arr1) != 0, two_eq(arr1[3], arr2[3]));

    printf("checksum %llu\n", (unsigned long long)g_sum);
    return 0;
}
