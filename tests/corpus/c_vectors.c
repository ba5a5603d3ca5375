/* SIMD: GCC vector extensions (vector_size 16 and 32, arithmetic, compares,
 * subscripts, __builtin_shufflevector/convertvector), SSE2 intrinsics from
 * <emmintrin.h>, and plain int loops written to be auto-vectorized. */
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int32_t v4si __attribute__((vector_size(16)));
typedef int32_t v8si __attribute__((vector_size(32)));
typedef uint8_t v16qu __attribute__((vector_size(16)));
typedef int16_t v16hi __attribute__((vector_size(32)));
typedef float v8sf __attribute__((vector_size(32)));
typedef uint64_t v4du __attribute__((vector_size(32)));

static uint64_t g_check = 14695981039346656037ull;

static void feed(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        g_check = (g_check ^ b[i]) * 1099511628211ull;
}

static void print_v4(const char *tag, v4si v) {
    printf("%-10s [%d %d %d %d]\n", tag, v[0], v[1], v[2], v[3]);
    feed(&v, sizeof v);
}

/* 32-byte vectors are passed by pointer: by value their ABI depends on -mavx */
static void print_v8(const char *tag, const v8si *vp) {
    v8si v = *vp;
    printf("%-10s [", tag);
    for (int i = 0; i < 8; i++)
        printf(i ? " %d" : "%d", v[i]);
    printf("]\n");
    feed(&v, sizeof v);
}

__attribute__((noinline)) static void vec_poly(v8si *out, const v8si *xp, const v8si *ap, const v8si *bp) {
    v8si x = *xp, a = *ap, b = *bp;
    *out = x * x * a + x * b - (x >> 1) + (x & 3);
}

__attribute__((noinline)) static v4si vec_abs_max(v4si a, v4si b) {
    /* C has no vector ?: so blend with compare masks (all-ones / all-zeros lanes) */
    v4si ma = a < 0, mb = b < 0;
    v4si na = (-a & ma) | (a & ~ma);
    v4si nb = (-b & mb) | (b & ~mb);
    v4si gt = na > nb;
    return (na & gt) | (nb & ~gt);
}

/* Auto-vectorizable loops over int arrays. */
__attribute__((noinline)) static void saxpy_int(int *restrict y, const int *restrict x, int a, int n) {
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

__attribute__((noinline)) static long dot(const int *a, const int *b, int n) {
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)a[i] * b[i];
    return s;
}

__attribute__((noinline)) static int max_reduce(const int *a, int n) {
    int m = a[0];
    for (int i = 1; i < n; i++)
        m = a[i] > m ? a[i] : m;
    return m;
}

__attribute__((noinline)) static void clamp_bytes(uint8_t *dst, const int *src, int n) {
    for (int i = 0; i < n; i++) {
        int v = src[i];
        dst[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

__attribute__((noinline)) static unsigned count_matches(const uint8_t *s, uint8_t c, int n) {
    unsigned k = 0;
    for (int i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

/* SSE2 intrinsics. */
static void sse2_demo(void) {
    int32_t in_a[8] = {1, -2, 3, -4, 50000, -60000, 70000, 0x7fff};
    int32_t in_b[8] = {10, 20, 30, 40, -5, 6, -7, 8};
    __m128i a = _mm_loadu_si128((const __m128i *)in_a);
    __m128i b = _mm_loadu_si128((const __m128i *)in_b);
    __m128i a2 = _mm_loadu_si128((const __m128i *)(in_a + 4));
    __m128i b2 = _mm_loadu_si128((const __m128i *)(in_b + 4));

    __m128i sum = _mm_add_epi32(a, b);
    __m128i diff = _mm_sub_epi32(a2, b2);
    __m128i shuf = _mm_shuffle_epi32(sum, _MM_SHUFFLE(0, 1, 2, 3));
    __m128i packed = _mm_packs_epi32(a2, b2);         /* saturating to int16 */
    __m128i prod16 = _mm_mullo_epi16(packed, _mm_set1_epi16(3));
    __m128i madd = _mm_madd_epi16(packed, _mm_set1_epi16(2));
    __m128i cmp = _mm_cmpgt_epi32(a, _mm_setzero_si128());
    __m128i sel = _mm_or_si128(_mm_and_si128(cmp, a), _mm_andnot_si128(cmp, b));
    __m128i shl = _mm_slli_epi32(b, 3);
    __m128i sra = _mm_srai_epi32(a2, 4);
    __m128i unp = _mm_unpacklo_epi32(a, b);
    __m128i bytes = _mm_setr_epi8(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    __m128i sad = _mm_sad_epu8(bytes, _mm_set1_epi8(8));
    __m128i mx = _mm_max_epi16(packed, _mm_set1_epi16(100));

    int32_t out[4];
    int16_t out16[8];
#define P4(name, v)                                                                      \
    do {                                                                                 \
        _mm_storeu_si128((__m128i *)out, v);                                             \
        printf("sse2 %-8s %d %d %d %d\n", name, out[0], out[1], out[2], out[3]);         \
        feed(out, sizeof out);                                                           \
    } while (0)
#define P8(name, v)                                                                      \
    do {                                                                                 \
        _mm_storeu_si128((__m128i *)out16, v);                                           \
        printf("sse2 %-8s", name);                                                       \
        for (int i = 0; i < 8; i++)                                                      \
            printf(" %d", out16[i]);                                                     \
        printf("\n");                                                                    \
        feed(out16, sizeof out16);                                                       \
    } while (0)
    P4("add", sum);
    P4("sub", diff);
    P4("shuffle", shuf);
    P8("packs", packed);
    P8("mullo16", prod16);
    P4("madd", madd);
    P4("select", sel);
    P4("slli", shl);
    P4("srai", sra);
    P4("unpacklo", unp);
    P4("sad", sad);
    P8("max16", mx);
    printf("sse2 movemask %04x\n", (unsigned)_mm_movemask_epi8(cmp));
#undef P4
#undef P8
}

int main(void) {
    v4si a = {1, -2, 3, -4};
    v4si b = {10, 20, -30, 40};
    print_v4("a+b", a + b);
    print_v4("a*b", a * b);
    print_v4("b/a", b / a);
    print_v4("b%a", b % a);
    print_v4("a<b", a < b);
    print_v4("absmax", vec_abs_max(a, b));
    print_v4("a^~b", a ^ ~b);
    v4si sh = __builtin_shufflevector(a, b, 7, 0, 5, 2);
    print_v4("shuffle", sh);
    v4si lanes = a;
    lanes[2] = 99;
    print_v4("subscr", lanes);

    v8si x = {0, 1, 2, 3, 4, 5, 6, 7};
    v8si ca = {1, 1, 2, 2, 3, 3, 4, 4};
    v8si cb = {-1, 2, -3, 4, -5, 6, -7, 8};
    v8si tmp;
    vec_poly(&tmp, &x, &ca, &cb);
    print_v8("poly", &tmp);
    v8si wide = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7);
    print_v8("concat", &wide);
    tmp = (wide & 0xff) << 2;
    print_v8("shl", &tmp);
    tmp = wide * 7;
    print_v8("splat*", &tmp);

    v16qu bytes;
    for (int i = 0; i < 16; i++)
        bytes[i] = (uint8_t)(i * 37);
    v16qu added = bytes + (uint8_t)200;   /* wraps modulo 256 */
    printf("bytes+200:");
    for (int i = 0; i < 16; i++)
        printf(" %u", added[i]);
    printf("\n");
    feed(&added, sizeof added);

    v16hi h;
    for (int i = 0; i < 16; i++)
        h[i] = (int16_t)(i * 1000 - 7000);
    v16hi hs = (h >> 2) + (h & 15);
    printf("v16hi:");
    for (int i = 0; i < 16; i++)
        printf(" %d", hs[i]);
    printf("\n");
    feed(&hs, sizeof hs);

    /* float lanes hold small exact values so results are exact at any -O/-march */
    v8sf f = __builtin_convertvector(x, v8sf);
    v8sf g = f * 0.5f + 1.25f;
    v8si gi = __builtin_convertvector(g * 4.0f, v8si);
    print_v8("float", &gi);

    v4du u = {1, 2, 3, 0xffffffffffffffffull};
    v4du u2 = u * 3 + (u >> 1);
    printf("v4du: %llx %llx %llx %llx\n", (unsigned long long)u2[0], (unsigned long long)u2[1],
           (unsigned long long)u2[2], (unsigned long long)u2[3]);
    feed(&u2, sizeof u2);

    sse2_demo();

    enum { N = 1003 };
    static int xs[N], ys[N], big[N];
    static uint8_t clamped[N];
    for (int i = 0; i < N; i++) {
        xs[i] = (i * 7919) % 1000 - 500;
        ys[i] = (i * 104729) % 777;
        big[i] = (i * 31) % 600 - 150;
    }
    saxpy_int(ys, xs, 3, N);
    long d = dot(xs, ys, N);
    int m = max_reduce(ys, N);
    clamp_bytes(clamped, big, N);
    unsigned c0 = count_matches(clamped, 0, N), c255 = count_matches(clamped, 255, N);
    long cs = 0;
    for (int i = 0; i < N; i++)
        cs += clamped[i];
    printf("loops: dot=%ld max=%d zeros=%u sat=%u clampsum=%ld\n", d, m, c0, c255, cs);
    feed(ys, sizeof ys);
    feed(clamped, sizeof clamped);

    printf("checksum %016llx\n", (unsigned long long)g_check);
    return 0;
}
