/* x86-64 GNU extended inline asm: outputs/inputs, matching and early-clobber
 * constraints, "cc"/"memory" clobbers, fixed registers (rax/rdx for mul/div),
 * memory operands, bswap/rol/bsr/adc, and asm goto. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline uint64_t asm_add(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__("movq %1, %0\n\taddq %2, %0" : "=&r"(r) : "r"(a), "r"(b) : "cc");
    return r;
}

static inline uint32_t asm_bswap32(uint32_t x) {
    __asm__("bswapl %0" : "+r"(x));
    return x;
}

static inline uint64_t asm_bswap64(uint64_t x) {
    __asm__("bswapq %0" : "=r"(x) : "0"(x));
    return x;
}

static inline uint32_t asm_rol(uint32_t x, uint8_t n) {
    __asm__("roll %%cl, %0" : "+r"(x) : "c"(n) : "cc");
    return x;
}

/* 64x64 -> 128 multiply using the fixed rax/rdx registers. */
static inline void asm_mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t h, l;
    __asm__("mulq %3" : "=a"(l), "=d"(h) : "a"(a), "rm"(b) : "cc");
    *hi = h;
    *lo = l;
}

/* 128/64 unsigned division (hi < d guaranteed by caller). */
static inline uint64_t asm_div128(uint64_t hi, uint64_t lo, uint64_t d, uint64_t *rem) {
    uint64_t q, r;
    __asm__("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "r"(d) : "cc");
    *rem = r;
    return q;
}

/* Index of highest set bit (x != 0). */
static inline int asm_bsr(uint64_t x) {
    uint64_t r;
    __asm__("bsrq %1, %0" : "=r"(r) : "rm"(x) : "cc");
    return (int)r;
}

/* 256-bit add via add/adc chain on memory operands. */
static void asm_add256(uint64_t dst[4], const uint64_t src[4]) {
    __asm__ volatile(
        "movq 0(%1), %%rax\n\taddq %%rax, 0(%0)\n\t"
        "movq 8(%1), %%rax\n\tadcq %%rax, 8(%0)\n\t"
        "movq 16(%1), %%rax\n\tadcq %%rax, 16(%0)\n\t"
        "movq 24(%1), %%rax\n\tadcq %%rax, 24(%0)\n\t"
        :
        : "r"(dst), "r"(src)
        : "rax", "cc", "memory");
}

/* Memory operand in/out with "+m". */
static void asm_inc_mem(int *p, int by) {
    __asm__("addl %1, %0" : "+m"(*p) : "ri"(by) : "cc");
}

/* Carry flag as output through setc. */
static inline int asm_add_overflows(uint32_t a, uint32_t b, uint32_t *sum) {
    unsigned char c;
    __asm__("addl %2, %0\n\tsetc %1" : "+r"(a), "=q"(c) : "r"(b) : "cc");
    *sum = a;
    return c;
}

/* rep movsb copy with fixed rdi/rsi/rcx registers. */
static void asm_memcpy(void *dst, const void *src, size_t n) {
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* asm goto: branch to a C label when the value is odd. */
static int asm_is_odd(unsigned v) {
    __asm__ goto("testl $1, %0\n\tjnz %l[odd]" : : "r"(v) : "cc" : odd);
    return 0;
odd:
    return 1;
}

/* Compiler barrier: the "memory" clobber forces the store to be visible. */
static int barrier_demo(void) {
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = i * i;
    __asm__ volatile("" : : "r"(buf) : "memory");
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += buf[i];
    return s;
}

/* Named operands. */
static inline uint64_t asm_lea3(uint64_t base, uint64_t idx) {
    uint64_t r;
    __asm__("leaq (%[b],%[i],8), %[r]" : [r] "=r"(r) : [b] "r"(base), [i] "r"(idx));
    return r;
}

int main(void) {
    uint64_t acc = 0x9e3779b97f4a7c15ull;

    uint64_t s = asm_add(0xffffffffffffffffull, 2);
    printf("add wrap: %llu\n", (unsigned long long)s);
    acc ^= s;

    uint32_t b32 = asm_bswap32(0x11223344u);
    uint64_t b64 = asm_bswap64(0x0102030405060708ull);
    printf("bswap32 %08x bswap64 %016llx builtin-agree %d\n", b32, (unsigned long long)b64,
           b32 == __builtin_bswap32(0x11223344u) && b64 == __builtin_bswap64(0x0102030405060708ull));
    acc = acc * 31 + b32 + b64;

    for (uint8_t n = 0; n < 32; n += 7) {
        uint32_t r = asm_rol(0x80000001u, n);
        uint32_t ref = n ? (0x80000001u << n) | (0x80000001u >> (32 - n)) : 0x80000001u;
        printf("rol %2u -> %08x %s\n", n, r, r == ref ? "ok" : "BAD");
        acc = acc * 31 + r;
    }

    uint64_t hi, lo, rem;
    asm_mul128(0xfedcba9876543210ull, 0x0123456789abcdefull, &hi, &lo);
    unsigned __int128 ref = (unsigned __int128)0xfedcba9876543210ull * 0x0123456789abcdefull;
    printf("mul128 hi=%016llx lo=%016llx %s\n", (unsigned long long)hi, (unsigned long long)lo,
           ((uint64_t)(ref >> 64) == hi && (uint64_t)ref == lo) ? "ok" : "BAD");
    uint64_t q = asm_div128(hi, lo, 0xfedcba9876543210ull, &rem);
    printf("div128 q=%016llx rem=%llu\n", (unsigned long long)q, (unsigned long long)rem);
    acc = acc * 31 + hi + lo + q + rem;

    uint64_t vals[] = {1, 2, 3, 255, 256, 0x8000000000000000ull, 12345678901234ull};
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        int b = asm_bsr(vals[i]);
        printf("bsr(%llu)=%d clz-agree=%d\n", (unsigned long long)vals[i], b, b == 63 - __builtin_clzll(vals[i]));
        acc = acc * 31 + (uint64_t)b;
    }

    uint64_t x[4] = {0xffffffffffffffffull, 0xffffffffffffffffull, 5, 0};
    uint64_t y[4] = {1, 0, 0, 7};
    asm_add256(x, y);
    printf("add256 %llx %llx %llx %llx\n", (unsigned long long)x[3], (unsigned long long)x[2],
           (unsigned long long)x[1], (unsigned long long)x[0]);
    acc = acc * 31 + x[0] + x[1] + x[2] + x[3];

    int counter = 10;
    for (int i = 1; i <= 5; i++)
        asm_inc_mem(&counter, i);
    asm_inc_mem(&counter, 1000);
    printf("inc_mem counter=%d\n", counter);
    acc = acc * 31 + (uint64_t)counter;

    uint32_t sum;
    int c1 = asm_add_overflows(0xfffffff0u, 0x20u, &sum);
    printf("carry %d sum %u\n", c1, sum);
    int c2 = asm_add_overflows(100u, 200u, &sum);
    printf("carry %d sum %u\n", c2, sum);
    acc = acc * 31 + (uint64_t)c1 * 2 + (uint64_t)c2 + sum;

    char src[40] = "inline assembly copies this string!";
    char dst[40];
    memset(dst, 0, sizeof dst);
    asm_memcpy(dst, src, sizeof src);
    printf("rep movsb: %s\n", dst);
    for (size_t i = 0; i < sizeof dst; i++)
        acc = acc * 131 + (unsigned char)dst[i];

    int odd = 0;
    for (unsigned v = 0; v < 17; v++)
        odd += asm_is_odd(v);
    printf("asm goto odd count %d\n", odd);
    printf("barrier sum %d\n", barrier_demo());
    printf("lea3 %llu\n", (unsigned long long)asm_lea3(1000, 7));
    acc = acc * 31 + (uint64_t)odd + (uint64_t)barrier_demo() + asm_lea3(1000, 7);

    printf("checksum %016llx\n", (unsigned long long)acc);
    return 0;
}
