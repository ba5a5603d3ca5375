/* Integer matrix multiply: naive ijk, cache-friendly ikj, blocked/tiled,
 * transpose-then-dot, and Strassen-free 2x2 block recursion; int32 inputs
 * with int64 accumulation, plus modular matrix power (Fibonacci). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 48

static void mm_ijk(int n, const int32_t *a, const int32_t *b, int64_t *c) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int64_t s = 0;
            for (int k = 0; k < n; k++)
                s += (int64_t)a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}

static void mm_ikj(int n, const int32_t *restrict a, const int32_t *restrict b, int64_t *restrict c) {
    memset(c, 0, sizeof(int64_t) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            int64_t aik = a[i * n + k];
            for (int j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }
}

static void mm_blocked(int n, const int32_t *a, const int32_t *b, int64_t *c, int bs) {
    memset(c, 0, sizeof(int64_t) * (size_t)n * (size_t)n);
    for (int ii = 0; ii < n; ii += bs)
        for (int kk = 0; kk < n; kk += bs)
            for (int jj = 0; jj < n; jj += bs)
                for (int i = ii; i < ii + bs && i < n; i++)
                    for (int k = kk; k < kk + bs && k < n; k++) {
                        int64_t aik = a[i * n + k];
                        for (int j = jj; j < jj + bs && j < n; j++)
                            c[i * n + j] += aik * b[k * n + j];
                    }
}

static void mm_transposed(int n, const int32_t *a, const int32_t *b, int64_t *c) {
    int32_t *bt = malloc(sizeof(int32_t) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            bt[j * n + i] = b[i * n + j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int64_t s = 0;
            for (int k = 0; k < n; k++)
                s += (int64_t)a[i * n + k] * bt[j * n + k];
            c[i * n + j] = s;
        }
    free(bt);
}

/* Recursive divide-and-conquer on quadrants (n power of two). */
static void mm_rec(int n, int stride, const int32_t *a, const int32_t *b, int64_t *c, int cs) {
    if (n <= 4) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int64_t s = 0;
                for (int k = 0; k < n; k++)
                    s += (int64_t)a[i * stride + k] * b[k * stride + j];
                c[i * cs + j] += s;
            }
        return;
    }
    int h = n / 2;
    for (int bi = 0; bi < 2; bi++)
        for (int bj = 0; bj < 2; bj++)
            for (int bk = 0; bk < 2; bk++)
                mm_rec(h, stride, a + bi * h * stride + bk * h, b + bk * h * stride + bj * h,
                       c + bi * h * cs + bj * h, cs);
}

typedef struct { uint64_t m[2][2]; } mat2;

static mat2 mat2_mul(mat2 x, mat2 y, uint64_t mod) {
    mat2 r;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            r.m[i][j] = (x.m[i][0] * y.m[0][j] % mod + x.m[i][1] * y.m[1][j] % mod) % mod;
    return r;
}

static uint64_t fib_mod(uint64_t n, uint64_t mod) {
    mat2 r = {{{1, 0}, {0, 1}}}, b = {{{1, 1}, {1, 0}}};
    while (n) {
        if (n & 1)
            r = mat2_mul(r, b, mod);
        b = mat2_mul(b, b, mod);
        n >>= 1;
    }
    return r.m[0][1];
}

static uint64_t hash64(const int64_t *c, int n) {
    uint64_t h = 0;
    for (int i = 0; i < n * n; i++)
        h = h * 0x9e3779b97f4a7c15ull + (uint64_t)c[i];
    return h;
}

int main(void) {
    static int32_t a[N * N], b[N * N];
    static int64_t c1[N * N], c2[N * N], c3[N * N], c4[N * N], c5[32 * 32];
    for (int i = 0; i < N * N; i++) {
        a[i] = (int32_t)((i * 7 + 3) % 201) - 100;
        b[i] = (int32_t)((i * 13 + 5) % 1999) * 1000 - 999000;
    }
    mm_ijk(N, a, b, c1);
    mm_ikj(N, a, b, c2);
    mm_blocked(N, a, b, c3, 7);
    mm_transposed(N, a, b, c4);
    uint64_t h1 = hash64(c1, N);
    printf("ijk        %016llx\n", (unsigned long long)h1);
    printf("ikj        %s\n", memcmp(c1, c2, sizeof c1) == 0 ? "match" : "MISMATCH");
    printf("blocked    %s\n", memcmp(c1, c3, sizeof c1) == 0 ? "match" : "MISMATCH");
    printf("transposed %s\n", memcmp(c1, c4, sizeof c1) == 0 ? "match" : "MISMATCH");
    printf("corners %lld %lld %lld %lld\n", (long long)c1[0], (long long)c1[N - 1], (long long)c1[N * (N - 1)],
           (long long)c1[N * N - 1]);
    int64_t tr = 0;
    for (int i = 0; i < N; i++)
        tr += c1[i * N + i];
    printf("trace %lld\n", (long long)tr);

    /* recursive quadrant multiply on the top-left 32x32 submatrices */
    memset(c5, 0, sizeof c5);
    mm_rec(32, N, a, b, c5, 32);
    int ok = 1;
    for (int i = 0; i < 32 && ok; i++)
        for (int j = 0; j < 32; j++) {
            int64_t s = 0;
            for (int k = 0; k < 32; k++)
                s += (int64_t)a[i * N + k] * b[k * N + j];
            if (s != c5[i * 32 + j]) {
                ok = 0;
                break;
            }
        }
    printf("recursive 32x32 %s, hash %016llx\n", ok ? "match" : "MISMATCH", (unsigned long long)hash64(c5, 32));

    /* identity and power */
    static int32_t id[16 * 16], m[16 * 16];
    static int64_t r[16 * 16];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            id[i * 16 + j] = i == j;
            m[i * 16 + j] = (i * j + 1) % 5;
        }
    mm_ikj(16, m, id, r);
    int same = 1;
    for (int i = 0; i < 256; i++)
        same &= r[i] == m[i];
    printf("M*I == M: %d\n", same);

    uint64_t cs = h1 ^ hash64(c5, 32);
    for (uint64_t n = 10; n <= 1000000000000ull; n *= 100) {
        uint64_t f = fib_mod(n, 1000000007u);
        printf("fib(%llu) mod p = %llu\n", (unsigned long long)n, (unsigned long long)f);
        cs = cs * 31 + f;
    }
    printf("checksum %016llx\n", (unsigned long long)cs);
    return 0;
}
