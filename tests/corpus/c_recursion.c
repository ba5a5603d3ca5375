/* Recursion: Ackermann (small args), mutual recursion, tail recursion with
 * accumulators, deep non-tail recursion (~10000 frames), recursion through
 * function pointers, and recursive tree building/walking. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t g_sum = 1;
static void acc(uint64_t v) { g_sum = g_sum * 1099511628211ull ^ v; }

static unsigned long ackermann(unsigned long m, unsigned long n) {
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

/* Hofstadter Female/Male sequences (mutual). */
static int hof_m(int n);
static int hof_f(int n) { return n == 0 ? 1 : n - hof_m(hof_f(n - 1)); }
static int hof_m(int n) { return n == 0 ? 0 : n - hof_f(hof_m(n - 1)); }

static uint64_t fact_tail(unsigned n, uint64_t accv) {
    if (n <= 1)
        return accv;
    return fact_tail(n - 1, accv * n);
}

static unsigned gcd_tail(unsigned a, unsigned b) { return b == 0 ? a : gcd_tail(b, a % b); }

static uint64_t sum_tail(uint64_t n, uint64_t accv) {
    return n == 0 ? accv : sum_tail(n - 1, accv + n);
}

/* Deep, non-tail recursion: 10000 frames each holding a little state. */
__attribute__((noinline)) static uint64_t deep(int n) {
    volatile int local[4] = {n, n * 2, n * 3, n * 4};
    if (n == 0)
        return 1;
    uint64_t below = deep(n - 1);
    return below * 3 + (uint64_t)(local[0] + local[1] + local[2] + local[3]);
}

/* Recursion through a function pointer table. */
typedef uint64_t (*rec_fn)(int, const void *);
struct rec_tab { rec_fn f[2]; };

static uint64_t fp_a(int n, const void *t) {
    const struct rec_tab *tab = t;
    return n <= 0 ? 1 : 2 * tab->f[1](n - 1, t) + 1;
}
static uint64_t fp_b(int n, const void *t) {
    const struct rec_tab *tab = t;
    return n <= 0 ? 3 : tab->f[0](n - 1, t) + tab->f[0](n - 2, t);
}

/* Recursive binary tree. */
struct node { int key; struct node *l, *r; };

static struct node *insert(struct node *t, int key) {
    if (!t) {
        t = malloc(sizeof *t);
        t->key = key;
        t->l = t->r = NULL;
        return t;
    }
    if (key < t->key)
        t->l = insert(t->l, key);
    else if (key > t->key)
        t->r = insert(t->r, key);
    return t;
}

static int height(const struct node *t) {
    if (!t)
        return 0;
    int a = height(t->l), b = height(t->r);
    return 1 + (a > b ? a : b);
}

static void inorder(const struct node *t, uint64_t *h, int *count) {
    if (!t)
        return;
    inorder(t->l, h, count);
    *h = *h * 31 + (uint64_t)t->key;
    (*count)++;
    inorder(t->r, h, count);
}

static void free_tree(struct node *t) {
    if (!t)
        return;
    free_tree(t->l);
    free_tree(t->r);
    free(t);
}

/* Permutations by recursion (Heap's algorithm). */
static int perm_count;
static uint64_t perm_hash;
static void heap_perm(int *a, int k) {
    if (k == 1) {
        perm_count++;
        uint64_t h = 0;
        for (int i = 0; i < 6; i++)
            h = h * 7 + (uint64_t)a[i];
        perm_hash += h * (uint64_t)perm_count;
        return;
    }
    heap_perm(a, k - 1);
    for (int i = 0; i < k - 1; i++) {
        int j = (k % 2 == 0) ? i : 0;
        int t = a[j]; a[j] = a[k - 1]; a[k - 1] = t;
        heap_perm(a, k - 1);
    }
}

int main(void) {
    for (unsigned long m = 0; m <= 2; m++)
        for (unsigned long n = 0; n <= 3; n++) {
            unsigned long r = ackermann(m, n);
            printf("A(%lu,%lu)=%lu\n", m, n, r);
            acc(r);
        }
    printf("A(3,3)=%lu\n", ackermann(3, 3));
    acc(ackermann(3, 3));

    printf("even(777)=%d odd(777)=%d even(1000)=%d\n", is_even(777), is_odd(777), is_even(1000));
    acc((uint64_t)is_even(777) * 4 + (uint64_t)is_odd(777) * 2 + (uint64_t)is_even(1000));

    printf("hofstadter F:");
    for (int i = 0; i < 20; i++) {
        printf(" %d", hof_f(i));
        acc((uint64_t)hof_f(i));
    }
    printf("\nhofstadter M:");
    for (int i = 0; i < 20; i++) {
        printf(" %d", hof_m(i));
        acc((uint64_t)hof_m(i));
    }
    printf("\n");

    printf("20! = %llu\n", (unsigned long long)fact_tail(20, 1));
    printf("gcd(1134903170, 701408733) = %u\n", gcd_tail(1134903170u, 701408733u));
    printf("sum_tail(10000) = %llu\n", (unsigned long long)sum_tail(10000, 0));
    acc(fact_tail(20, 1));
    acc(sum_tail(10000, 0));

    uint64_t d = deep(10000);
    printf("deep(10000) = %016llx\n", (unsigned long long)d);
    acc(d);

    struct rec_tab tab = {{fp_a, fp_b}};
    for (int n = 0; n < 12; n += 3) {
        uint64_t v = tab.f[0](n, &tab);
        printf("fp_rec(%d) = %llu\n", n, (unsigned long long)v);
        acc(v);
    }

    struct node *root = NULL;
    for (int i = 0; i < 500; i++)
        root = insert(root, (i * 7919) % 1009);
    uint64_t h = 0;
    int count = 0;
    inorder(root, &h, &count);
    printf("tree count=%d height=%d hash=%llu\n", count, height(root), (unsigned long long)h);
    acc(h);
    free_tree(root);

    int arr[6] = {1, 2, 3, 4, 5, 6};
    heap_perm(arr, 6);
    printf("permutations %d hash %llu\n", perm_count, (unsigned long long)perm_hash);
    acc(perm_hash);

    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}
