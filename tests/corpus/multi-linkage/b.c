/* Second translation unit of multi-linkage (see a.c). */
#include <stdint.h>
#include <string.h>

struct vec3 { long x, y, z; };
struct big { int v[12]; };

int a_square(int x);   /* defined in a.c */

int shared_counter = 10;
const char b_name[] = "b-unit";

static int hidden = 2000;                 /* same name as a static in a.c */
static int local_id(void) { return 2; }  /* same name as a static in a.c */
int b_local_id(void) { return local_id() + hidden - 2000; }

static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
long (*const b_ops[3])(long, long) = {add, sub, mul};

int overridable(int x) { return x + 100; }   /* strong: wins over a.c's weak one */

struct vec3 b_cross(struct vec3 a, struct vec3 b) {
    struct vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}

struct big b_make_big(int seed) {
    struct big r;
    for (int i = 0; i < 12; i++)
        r.v[i] = seed * i + a_square(i);
    return r;
}

int b_sum_big(struct big v) {
    int s = 0;
    for (int i = 0; i < 12; i++)
        s += v.v[i];
    return s;
}

int b_call_back(int (*cb)(int), int n) {
    int s = 0;
    for (int i = 1; i <= n; i++)
        s += cb(i);
    return s;
}

uint64_t b_hash_strings(const char *const *v, int n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(v[i]);
        for (size_t k = 0; k < len; k++)
            h = (h ^ (unsigned char)v[i][k]) * 0x100000001b3ull;
        h ^= len;
    }
    return h;
}
