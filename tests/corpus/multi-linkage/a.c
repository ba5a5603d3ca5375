/* Two-file C program (with b.c): cross-TU calls, extern data, same-named
 * static functions/variables in each TU, weak default overridden by a strong
 * definition, function pointers and struct-by-value across TUs. */
#include <stdint.h>
#include <stdio.h>

struct vec3 { long x, y, z; };
struct big { int v[12]; };

/* defined in b.c */
extern int shared_counter;
extern const char b_name[];
extern long (*const b_ops[3])(long, long);
struct vec3 b_cross(struct vec3 a, struct vec3 b);
struct big b_make_big(int seed);
int b_sum_big(struct big v);
int b_local_id(void);
int b_call_back(int (*cb)(int), int n);
uint64_t b_hash_strings(const char *const *v, int n);
int overridable(int x);        /* weak here, strong in b.c */
int only_weak(int x);          /* weak here only */

/* same name as a static in b.c: must not collide */
static int local_id(void) { return 1; }
static int hidden = 1000;

__attribute__((weak)) int overridable(int x) { return x + 1; }
__attribute__((weak)) int only_weak(int x) { return x * 2; }

int a_square(int x) { return x * x; }    /* used by b.c */
int a_counter_bump(int by) {
    shared_counter += by;
    return shared_counter;
}

static int triple(int x) { return 3 * x + hidden; }

int main(void) {
    uint64_t cs = 0;
    printf("names: a, %s; local ids %d %d\n", b_name, local_id(), b_local_id());
    for (int i = 0; i < 3; i++) {
        long r = b_ops[i](20, 6);
        printf("b_ops[%d](20,6) = %ld\n", i, r);
        cs = cs * 31 + (uint64_t)r;
    }
    struct vec3 c = b_cross((struct vec3){1, 2, 3}, (struct vec3){4, 5, 6});
    printf("cross = (%ld, %ld, %ld)\n", c.x, c.y, c.z);
    cs = cs * 31 + (uint64_t)(c.x * 100 + c.y * 10 + c.z);

    struct big bg = b_make_big(7);
    printf("big v0=%d v11=%d sum=%d\n", bg.v[0], bg.v[11], b_sum_big(bg));
    cs = cs * 31 + (uint64_t)b_sum_big(bg);

    int c1 = a_counter_bump(5);   /* separate statements: argument order is unspecified */
    int c2 = a_counter_bump(-2);
    printf("counter %d %d %d\n", c1, c2, shared_counter);
    printf("callback a_square x5 = %d, static triple = %d\n", b_call_back(a_square, 5), b_call_back(triple, 4));
    cs = cs * 31 + (uint64_t)b_call_back(a_square, 5) + (uint64_t)shared_counter;

    printf("overridable(10) = %d (strong from b.c), only_weak(10) = %d\n", overridable(10), only_weak(10));
    cs = cs * 31 + (uint64_t)overridable(10) + (uint64_t)only_weak(10);

    const char *words[] = {"alpha", "beta", "gamma", "delta"};
    uint64_t h = b_hash_strings(words, 4);
    printf("hash strings %016llx\n", (unsigned long long)h);
    cs ^= h;
    printf("checksum %016llx\n", (unsigned long long)cs);
    return 0;
}
