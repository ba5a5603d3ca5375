/* Sorting algorithm suite: insertion, shell, heap, merge (top-down with a
 * malloc'd buffer), quicksort (Hoare, median-of-3), radix (LSD bytes),
 * counting sort; all results cross-checked and hashed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000

static uint32_t rng_state = 2463534242u;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void insertion(int32_t *a, int n) {
    for (int i = 1; i < n; i++) {
        int32_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void shell(int32_t *a, int n) {
    static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (int g = 0; g < 8; g++) {
        int gap = gaps[g];
        for (int i = gap; i < n; i++) {
            int32_t v = a[i];
            int j = i;
            while (j >= gap && a[j - gap] > v) {
                a[j] = a[j - gap];
                j -= gap;
            }
            a[j] = v;
        }
    }
}

static void sift_down(int32_t *a, int start, int end) {
    int root = start;
    while (2 * root + 1 <= end) {
        int child = 2 * root + 1, sw = root;
        if (a[sw] < a[child]) sw = child;
        if (child + 1 <= end && a[sw] < a[child + 1]) sw = child + 1;
        if (sw == root) return;
        int32_t t = a[root]; a[root] = a[sw]; a[sw] = t;
        root = sw;
    }
}

static void heapsort_(int32_t *a, int n) {
    for (int s = (n - 2) / 2; s >= 0; s--)
        sift_down(a, s, n - 1);
    for (int end = n - 1; end > 0; end--) {
        int32_t t = a[end]; a[end] = a[0]; a[0] = t;
        sift_down(a, 0, end - 1);
    }
}

static void merge_rec(int32_t *a, int32_t *tmp, int lo, int hi) {
    if (hi - lo < 2)
        return;
    int mid = lo + (hi - lo) / 2;
    merge_rec(a, tmp, lo, mid);
    merge_rec(a, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof *a);
}

static void mergesort_(int32_t *a, int n) {
    int32_t *tmp = malloc((size_t)n * sizeof *tmp);
    merge_rec(a, tmp, 0, n);
    free(tmp);
}

static void quick(int32_t *a, int lo, int hi) {
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo]) { int32_t t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
        if (a[hi] < a[lo]) { int32_t t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
        if (a[hi] < a[mid]) { int32_t t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
        int32_t pivot = a[mid];
        int i = lo - 1, j = hi + 1;
        for (;;) {
            do i++; while (a[i] < pivot);
            do j--; while (a[j] > pivot);
            if (i >= j) break;
            int32_t t = a[i]; a[i] = a[j]; a[j] = t;
        }
        /* recurse into the smaller half, loop on the larger */
        if (j - lo < hi - j) {
            quick(a, lo, j);
            lo = j + 1;
        } else {
            quick(a, j + 1, hi);
            hi = j;
        }
    }
}

static void radix(int32_t *a, int n) {
    uint32_t *src = malloc((size_t)n * sizeof *src), *dst = malloc((size_t)n * sizeof *dst);
    for (int i = 0; i < n; i++)
        src[i] = (uint32_t)a[i] ^ 0x80000000u;  /* order-preserving for signed */
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (int i = 0; i < n; i++)
            count[((src[i] >> shift) & 0xff) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (int i = 0; i < n; i++)
            dst[count[(src[i] >> shift) & 0xff]++] = src[i];
        uint32_t *t = src; src = dst; dst = t;
    }
    for (int i = 0; i < n; i++)
        a[i] = (int32_t)(src[i] ^ 0x80000000u);
    free(src);
    free(dst);
}

static void counting(int32_t *a, int n, int32_t lo, int32_t hi) {
    size_t range = (size_t)(hi - lo + 1);
    int *cnt = calloc(range, sizeof *cnt);
    for (int i = 0; i < n; i++)
        cnt[a[i] - lo]++;
    int k = 0;
    for (size_t v = 0; v < range; v++)
        while (cnt[v]--)
            a[k++] = (int32_t)v + lo;
    free(cnt);
}

static uint64_t hash_arr(const int32_t *a, int n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)a[i]) * 0x100000001b3ull;
    return h;
}

static int is_sorted(const int32_t *a, int n) {
    for (int i = 1; i < n; i++)
        if (a[i - 1] > a[i])
            return 0;
    return 1;
}

typedef void (*sorter)(int32_t *, int);
static void quick_wrap(int32_t *a, int n) { quick(a, 0, n - 1); }
static void counting_wrap(int32_t *a, int n) { counting(a, n, -5000, 5000); }

int main(void) {
    static int32_t orig[N], work[N];
    const char *names[] = {"insertion", "shell", "heap", "merge", "quick", "radix", "counting"};
    sorter fns[] = {insertion, shell, heapsort_, mergesort_, quick_wrap, radix, counting_wrap};
    uint64_t total = 0;

    for (int dataset = 0; dataset < 4; dataset++) {
        for (int i = 0; i < N; i++) {
            switch (dataset) {
            case 0: orig[i] = (int32_t)(rng() % 10001) - 5000; break;          /* random */
            case 1: orig[i] = i - 1000; break;                                 /* sorted */
            case 2: orig[i] = 1000 - i; break;                                 /* reversed */
            default: orig[i] = (int32_t)(rng() % 7) * 100 - 300; break;        /* many dups */
            }
        }
        uint64_t ref = 0;
        for (int s = 0; s < 7; s++) {
            memcpy(work, orig, sizeof work);
            fns[s](work, N);
            uint64_t h = hash_arr(work, N);
            if (s == 0)
                ref = h;
            printf("dataset %d %-9s sorted=%d %s min=%d max=%d median=%d\n", dataset, names[s],
                   is_sorted(work, N), h == ref ? "agree" : "DISAGREE", work[0], work[N - 1], work[N / 2]);
            total = total * 1000003u + h;
        }
    }
    printf("checksum %016llx\n", (unsigned long long)total);
    return 0;
}
