/* Function pointers: qsort/bsearch with several comparators, dispatch tables,
 * functions returning function pointers, callbacks with context, and
 * pointers to static vs external functions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int id; int score; char name[12]; };

static int cmp_int_asc(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }
static int cmp_abs(const void *a, const void *b) {
    int x = abs(*(const int *)a), y = abs(*(const int *)b);
    if (x != y)
        return (x > y) - (x < y);
    return cmp_int_asc(a, b);  /* total order: ties broken by value */
}
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
static int cmp_rec(const void *a, const void *b) {
    const struct rec *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    return strcmp(x->name, y->name);
}

typedef int (*cmp_fn)(const void *, const void *);

static cmp_fn pick(int which) {
    static const cmp_fn table[] = {cmp_int_asc, cmp_int_desc, cmp_abs};
    return table[which % 3];
}

typedef long (*binop)(long, long);
static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }

static long fold(const long *v, int n, binop f, long init) {
    for (int i = 0; i < n; i++)
        init = f(init, v[i]);
    return init;
}

/* Function returning pointer to function (classic declarator syntax). */
static long (*choose(char c))(long, long) {
    switch (c) {
    case '+': return op_add;
    case '-': return op_sub;
    case '*': return op_mul;
    default: return op_max;
    }
}

/* Callback with context pointer. */
struct counter_ctx { int calls; long sum; };
static void visit(const int *arr, int n, void (*cb)(void *, int), void *ctx) {
    for (int i = 0; i < n; i++)
        cb(ctx, arr[i]);
}
static void count_cb(void *ctx, int v) {
    struct counter_ctx *c = ctx;
    c->calls++;
    c->sum += v;
}

static uint64_t g_sum = 17;
static void acc(uint64_t v) { g_sum = (g_sum ^ v) * 0x9e3779b97f4a7c15ull; }

int main(void) {
    int data[40];
    for (int i = 0; i < 40; i++)
        data[i] = (i * 37 + 11) % 61 - 30;

    for (int w = 0; w < 3; w++) {
        int tmp[40];
        memcpy(tmp, data, sizeof tmp);
        qsort(tmp, 40, sizeof tmp[0], pick(w));
        printf("sort %d:", w);
        for (int i = 0; i < 40; i++) {
            printf(" %d", tmp[i]);
            acc((uint64_t)(int64_t)tmp[i]);
        }
        printf("\n");
    }

    int sorted[40];
    memcpy(sorted, data, sizeof sorted);
    qsort(sorted, 40, sizeof sorted[0], cmp_int_asc);
    int found = 0;
    for (int key = -35; key <= 35; key += 5) {
        int *p = bsearch(&key, sorted, 40, sizeof sorted[0], cmp_int_asc);
        printf("bsearch %d: %s\n", key, p ? "found" : "absent");
        found += p != NULL;
    }
    acc((uint64_t)found);

    const char *words[] = {"pear", "apple", "fig", "banana", "kiwi", "cherry", "date", "apricot", "grape"};
    size_t nw = sizeof words / sizeof words[0];
    qsort(words, nw, sizeof words[0], cmp_str);
    printf("words:");
    for (size_t i = 0; i < nw; i++) {
        printf(" %s", words[i]);
        acc(strlen(words[i]) * (i + 1));
    }
    printf("\n");
    const char *key = "fig";
    const char **hit = bsearch(&key, words, nw, sizeof words[0], cmp_str);
    printf("fig at index %d\n", hit ? (int)(hit - words) : -1);

    struct rec recs[] = {
        {1, 70, "delta"}, {2, 95, "alpha"}, {3, 70, "charlie"}, {4, 88, "bravo"},
        {5, 95, "echo"}, {6, 10, "foxtrot"}, {7, 88, "golf"},
    };
    size_t nr = sizeof recs / sizeof recs[0];
    qsort(recs, nr, sizeof recs[0], cmp_rec);
    for (size_t i = 0; i < nr; i++) {
        printf("rank %zu: id=%d score=%d %s\n", i + 1, recs[i].id, recs[i].score, recs[i].name);
        acc((uint64_t)recs[i].id);
    }

    long vals[] = {3, -1, 4, -1, 5, -9, 2, 6};
    binop ops[] = {op_add, op_sub, op_mul, op_max};
    const char *names[] = {"add", "sub", "mul", "max"};
    for (int i = 0; i < 4; i++) {
        long r = fold(vals, 8, ops[i], i == 2 ? 1 : 0);
        printf("fold %s = %ld\n", names[i], r);
        acc((uint64_t)r);
    }
    const char *expr = "+*-x";
    long r = 10;
    for (const char *c = expr; *c; c++)
        r = choose(*c)(r, 7);
    printf("choose chain = %ld\n", r);
    acc((uint64_t)r);

    struct counter_ctx ctx = {0, 0};
    visit(data, 40, count_cb, &ctx);
    printf("visit calls=%d sum=%ld\n", ctx.calls, ctx.sum);
    acc((uint64_t)ctx.sum);

    /* function pointer equality is well-defined */
    printf("ptr eq: %d %d\n", pick(0) == cmp_int_asc, pick(4) == cmp_int_desc);

    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}
