/* __int128 / unsigned __int128: add/sub/mul/div/mod (libgcc/compiler-rt
 * helpers), shifts across the 64-bit boundary, comparisons, conversions,
 * decimal printing, modular exponentiation and a 128-bit LCG/xorshift. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static void u128_to_str(u128 v, char *out) {
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

static void i128_to_str(i128 v, char *out) {
    if (v < 0) {
        *out++ = '-';
        u128_to_str((u128)0 - (u128)v, out);
    } else {
        u128_to_str((u128)v, out);
    }
}

static void print_u(const char *tag, u128 v) {
    char buf[48];
    u128_to_str(v, buf);
    printf("%-14s %s\n", tag, buf);
}

static void print_i(const char *tag, i128 v) {
    char buf[48];
    i128_to_str(v, buf);
    printf("%-14s %s\n", tag, buf);
}

__attribute__((noinline)) static u128 mulmod(u128 a, u128 b, u128 m) {
    /* a, b < m < 2^64 so a*b fits in 128 bits */
    return a * b % m;
}

__attribute__((noinline)) static u128 powmod(u128 base, u128 e, u128 m) {
    u128 r = 1;
    base %= m;
    while (e) {
        if (e & 1)
            r = mulmod(r, base, m);
        base = mulmod(base, base, m);
        e >>= 1;
    }
    return r;
}

static int is_prime_mr(uint64_t n) {
    if (n < 2)
        return 0;
    static const uint64_t small[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    for (int i = 0; i < 12; i++) {
        if (n == small[i])
            return 1;
        if (n % small[i] == 0)
            return 0;
    }
    uint64_t d = n - 1;
    int s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    for (int i = 0; i < 12; i++) {
        u128 x = powmod(small[i], d, n);
        if (x == 1 || x == n - 1)
            continue;
        int comp = 1;
        for (int r = 1; r < s; r++) {
            x = mulmod(x, x, n);
            if (x == n - 1) {
                comp = 0;
                break;
            }
        }
        if (comp)
            return 0;
    }
    return 1;
}

int main(void) {
    u128 a = ((u128)0x0123456789abcdefull << 64) | 0xfedcba9876543210ull;
    u128 b = ((u128)0x1111111111111111ull << 64) | 0x2222222222222222ull;
    u128 cs = 0;

    print_u("a", a);
    print_u("b", b);
    print_u("a+b", a + b);
    print_u("b-a", b - a);
    print_u("a*b (mod)", a * b);
    print_u("b/a", b / a);
    print_u("b%a", b % a);
    print_u("a/1e9", a / 1000000000u);
    print_u("a%1e9", a % 1000000000u);
    print_u("a>>67", a >> 67);
    print_u("a<<13", a << 13);
    print_u("~a", ~a);
    cs += a + b + a * b + b / a + (b % a) + (a >> 67) + (a << 13);

    i128 x = -(i128)a / 3;
    i128 y = (i128)0x7fffffffffffffffll * 0x7fffffffffffffffll;
    print_i("-a/3", x);
    print_i("-a%7", -(i128)a % 7);
    print_i("(2^63-1)^2", y);
    print_i("y/-12345", y / -12345);
    print_i("y%-12345", y % -12345);
    print_i("x>>5 (arith)", x >> 5);
    printf("compare: %d %d %d %d\n", x < y, x > y, (u128)(i128)a == a, (u128)x > a);
    cs += (u128)x + (u128)y + (u128)(y / -12345) + (u128)(y % -12345);

    /* max values */
    u128 umax = ~(u128)0;
    i128 imax = (i128)(umax >> 1);
    i128 imin = -imax - 1;
    print_u("u128 max", umax);
    print_i("i128 max", imax);
    print_i("i128 min", imin);

    /* conversions to/from 64-bit and double */
    uint64_t lo = (uint64_t)a, hi = (uint64_t)(a >> 64);
    printf("lo=%016llx hi=%016llx\n", (unsigned long long)lo, (unsigned long long)hi);
    double d = (double)(u128)1e30;   /* 1e30 -> u128 -> double */
    printf("1e30 roundtrip %.6e\n", d);
    u128 from_d = (u128)1.5e25;
    print_u("(u128)1.5e25", from_d);

    /* factorials up to 34! fit in u128 */
    u128 f = 1;
    for (unsigned i = 1; i <= 34; i++)
        f *= i;
    print_u("34!", f);
    cs ^= f;

    /* Fibonacci up to F(180) (< 2^127) */
    u128 f0 = 0, f1 = 1;
    for (int i = 0; i < 180; i++) {
        u128 t = f0 + f1;
        f0 = f1;
        f1 = t;
    }
    print_u("F(180)", f0);
    cs += f0;

    /* 128-bit LCG */
    u128 state = 42, mult = ((u128)2549297995355413924ull << 64) + 4865540595714422341ull;
    for (int i = 0; i < 1000; i++)
        state = state * mult + 1442695040888963407ull;
    print_u("lcg^1000", state);
    cs ^= state;

    uint64_t cands[] = {1000000007ull, 998244353ull, 4294967291ull, 4294967297ull,
                        18446744073709551557ull, 18446744073709551555ull, 1000000000000000003ull, 561ull};
    printf("primes:");
    for (int i = 0; i < 8; i++) {
        int p = is_prime_mr(cands[i]);
        printf(" %d", p);
        cs = cs * 3 + (u128)p;
    }
    printf("\n");
    print_u("2^(2^100) mod p", powmod(2, (u128)1 << 100, 1000000007u));
    cs += powmod(3, 1000000, 998244353u);

    char buf[48];
    u128_to_str(cs, buf);
    printf("checksum %s\n", buf);
    return 0;
}
