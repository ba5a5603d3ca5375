/* Dynamic stack allocation: alloca in loops and helpers, VLAs (1-D, 2-D,
 * VLA parameters, sizeof on VLAs, VLAs in recursion and block scopes),
 * mixed with over-aligned locals so the frame needs realignment. */
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t g_sum = 11;
static void acc(uint64_t v) { g_sum = (g_sum + v) * 0xff51afd7ed558ccdull; }

__attribute__((noinline)) static int sum_alloca(int n) {
    int *buf = alloca((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = i * i - 3 * i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += buf[i];
    return s;
}

/* Build a string in alloca'd memory and return a hash (the memory dies on return). */
__attribute__((noinline)) static uint32_t alloca_string(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *s = alloca(la + lb + 2);
    memcpy(s, a, la);
    s[la] = '+';
    memcpy(s + la + 1, b, lb + 1);
    uint32_t h = 2166136261u;
    for (char *p = s; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    printf("  alloca_string: %s\n", s);
    return h;
}

/* 2-D VLA parameter. */
static long trace_product(int n, int m, int a[n][m], int b[m][n]) {
    long tr = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++)
            tr += (long)a[i][k] * b[k][i];
    return tr;
}

__attribute__((noinline)) static long vla_matrix(int n, int m) {
    int a[n][m];
    int b[m][n];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            a[i][j] = i * m + j + 1;
            b[j][i] = (i + 2) * (j + 3) % 17;
        }
    printf("  vla %dx%d sizeof(a)=%zu sizeof(a[0])=%zu\n", n, m, sizeof a, sizeof a[0]);
    return trace_product(n, m, a, b);
}

/* Recursion where each frame owns a VLA of different size. */
__attribute__((noinline)) static uint64_t vla_recurse(int depth) {
    if (depth == 0)
        return 1;
    unsigned char buf[depth * 3 + 1];
    for (int i = 0; i < depth * 3 + 1; i++)
        buf[i] = (unsigned char)(i ^ depth);
    uint64_t below = vla_recurse(depth - 1);
    uint64_t h = below;
    for (int i = 0; i < depth * 3 + 1; i++)
        h = h * 31 + buf[i];
    return h;
}

/* alloca inside a loop: every iteration grows the frame (bounded here). */
__attribute__((noinline)) static uint64_t alloca_loop(int iters) {
    uint64_t h = 0;
    for (int i = 1; i <= iters; i++) {
        uint32_t *p = alloca(sizeof(uint32_t) * (size_t)i);
        for (int j = 0; j < i; j++)
            p[j] = (uint32_t)(i * 1000 + j);
        for (int j = 0; j < i; j++)
            h = h * 1315423911u + p[j];
    }
    return h;
}

/* VLA in a block scope that is re-entered: stack is released each time. */
__attribute__((noinline)) static long block_vla(int rounds) {
    long total = 0;
    for (int r = 1; r <= rounds; r++) {
        int n = 100 + r * 10;
        short v[n];
        for (int i = 0; i < n; i++)
            v[i] = (short)(i - r);
        for (int i = 0; i < n; i += 7)
            total += v[i];
    }
    return total;
}

/* Over-aligned local next to a VLA forces dynamic realignment. */
__attribute__((noinline)) static int aligned_with_vla(int n) {
    _Alignas(64) char line[64];
    int vla[n];
    memset(line, 7, sizeof line);
    for (int i = 0; i < n; i++)
        vla[i] = i + line[i % 64];
    int aligned = ((uintptr_t)line % 64) == 0;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += vla[i];
    return s * 2 + aligned;
}

/* Pointer-to-VLA type and typedef of a VLA. */
__attribute__((noinline)) static int vla_typedef(int n) {
    typedef int row_t[n];
    row_t rows[3];
    int (*p)[n] = rows;
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < n; i++)
            p[r][i] = r * 100 + i;
    return (int)(sizeof(row_t) / sizeof(int)) + p[2][n - 1];
}

int main(void) {
    for (int n = 1; n <= 200; n *= 3) {
        int s = sum_alloca(n);
        printf("sum_alloca(%d) = %d\n", n, s);
        acc((uint64_t)(int64_t)s);
    }
    acc(alloca_string("alpha", "omega"));
    acc(alloca_string("", "lonely"));

    for (int n = 1; n <= 9; n += 4) {
        long t = vla_matrix(n, n + 2);
        printf("trace(%d) = %ld\n", n, t);
        acc((uint64_t)t);
    }
    uint64_t r = vla_recurse(40);
    printf("vla_recurse = %016llx\n", (unsigned long long)r);
    acc(r);
    uint64_t l = alloca_loop(50);
    printf("alloca_loop = %016llx\n", (unsigned long long)l);
    acc(l);
    long b = block_vla(30);
    printf("block_vla = %ld\n", b);
    acc((uint64_t)b);
    int al = aligned_with_vla(77);
    printf("aligned_with_vla = %d\n", al);
    acc((uint64_t)al);
    int t = vla_typedef(9);
    printf("vla_typedef = %d\n", t);
    acc((uint64_t)t);

    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}
