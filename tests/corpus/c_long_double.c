/* long double (x87 80-bit): arithmetic, sqrtl, int/double conversions, by
 * value in structs and through varargs, Newton iterations; only correctly
 * rounded operations, so results are identical at every -O level. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#pragma STDC FP_CONTRACT OFF

struct ld_pair { long double a, b; };

static uint64_t g_sum = 5;
static void acc_ld(long double v) {
    /* hash the value through an exact integer decomposition */
    int e;
    long double m = frexpl(v, &e);
    int64_t mant = (int64_t)ldexpl(m, 62);
    g_sum = g_sum * 1000003u + (uint64_t)mant + (uint64_t)(int64_t)e;
}

__attribute__((noinline)) static struct ld_pair divmod_pair(struct ld_pair p) {
    struct ld_pair r;
    r.a = p.a / p.b;
    r.b = p.a - truncl(r.a) * p.b;
    return r;
}

static long double sum_va(int n, ...) {
    va_list ap;
    long double s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long double);
    va_end(ap);
    return s;
}

__attribute__((noinline)) static long double newton_sqrt(long double x) {
    long double g = x > 1 ? x / 2 : 1;
    for (int i = 0; i < 60; i++) {
        long double next = (g + x / g) / 2;
        if (next == g)
            break;
        g = next;
    }
    return g;
}

int main(void) {
    printf("LDBL_MANT_DIG=%d sizeof=%zu\n", LDBL_MANT_DIG, sizeof(long double));

    long double third = 1.0L / 3.0L;
    printf("1/3      = %.20Lg\n", third);
    printf("3*(1/3)  = %.20Lg\n", third * 3);
    acc_ld(third);

    long double h = 0;
    for (int i = 1; i <= 2000; i++)
        h += 1.0L / i;
    printf("H(2000)  = %.18Lg\n", h);
    acc_ld(h);

    /* exactness beyond double: 2^64 - 1 is representable in long double */
    long double big = 18446744073709551615.0L;
    uint64_t back = (uint64_t)big;
    printf("2^64-1 roundtrip %llu\n", (unsigned long long)back);
    long double p = 9007199254740993.0L;   /* 2^53+1, not a double */
    printf("2^53+1 as ld %.0Lf, via double %.0f\n", p, (double)p);
    acc_ld(p);

    for (int k = 2; k <= 50; k += 12) {
        long double s = sqrtl((long double)k);
        long double n = newton_sqrt((long double)k);
        printf("sqrt(%d) = %.19Lg newton %s\n", k, s, s == n ? "same" : (fabsl(s - n) <= LDBL_EPSILON * s ? "1ulp" : "DIFF"));
        acc_ld(s);
    }

    struct ld_pair q = divmod_pair((struct ld_pair){1000.75L, 7.5L});
    printf("divmod: %.10Lg rem %.10Lg\n", q.a, q.b);
    acc_ld(q.a);
    acc_ld(q.b);

    long double v = sum_va(5, 1.5L, 2.25L, -0.125L, 1e10L, 3.0L);
    printf("sum_va = %.15Lg\n", v);
    acc_ld(v);

    /* mixing with integers and doubles */
    long long ll = 123456789012345678LL;
    long double lv = (long double)ll;
    printf("ll->ld exact %d, ld->ll %lld\n", (long long)lv == ll, (long long)(lv / 1000));
    double dd = 0.1;
    long double promoted = dd;
    printf("0.1 as double promoted: %.25Lg\n", promoted);
    printf("0.1L:                   %.25Lg\n", 0.1L);
    acc_ld(promoted - 0.1L);

    /* comparisons, infinities, nan */
    long double inf = HUGE_VALL;
    long double nan_v = inf - inf;
    printf("inf>max %d, nan!=nan %d, isnan %d, signbit(-0) %d\n", inf > LDBL_MAX, nan_v != nan_v,
           isnan(nan_v) != 0, signbit(-0.0L) != 0);

    /* products of many terms (exact rounding each step) */
    long double prod = 1;
    for (int i = 1; i <= 25; i++)
        prod *= (long double)i / 2;
    printf("prod(i/2, 1..25) = %.18Lg\n", prod);
    acc_ld(prod);

    printf("floorl/ceill/roundl: %.1Lf %.1Lf %.1Lf %.1Lf\n", floorl(-2.5L), ceill(-2.5L), roundl(2.5L),
           rintl(2.5L));

    printf("checksum %llu\n", (unsigned long long)g_sum);
    return 0;
}
