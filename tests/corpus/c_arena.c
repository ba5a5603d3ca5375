/* A small arena (bump) allocator: chained malloc'd blocks, alignment
 * rounding with _Alignof, save/restore marks, arena-backed linked lists and
 * strings, and a free-list pool allocator for fixed-size nodes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct block { struct block *next; size_t cap, used; _Alignas(16) unsigned char data[]; };
struct arena { struct block *head; size_t block_size; size_t total_allocs; };
struct mark { struct block *blk; size_t used; };

static void arena_init(struct arena *a, size_t bs) {
    a->head = NULL;
    a->block_size = bs;
    a->total_allocs = 0;
}

static void *arena_alloc(struct arena *a, size_t size, size_t align) {
    struct block *b = a->head;
    if (b) {
        size_t off = (b->used + align - 1) & ~(align - 1);
        if (off + size <= b->cap) {
            b->used = off + size;
            a->total_allocs++;
            return b->data + off;
        }
    }
    size_t cap = size > a->block_size ? size : a->block_size;
    b = malloc(sizeof *b + cap);
    b->next = a->head;
    b->cap = cap;
    b->used = size;
    a->head = b;
    a->total_allocs++;
    return b->data;
}

static struct mark arena_mark(struct arena *a) {
    struct mark m = {a->head, a->head ? a->head->used : 0};
    return m;
}

static void arena_release(struct arena *a, struct mark m) {
    while (a->head != m.blk) {
        struct block *n = a->head->next;
        free(a->head);
        a->head = n;
    }
    if (a->head)
        a->head->used = m.used;
}

static size_t arena_blocks(const struct arena *a) {
    size_t n = 0;
    for (struct block *b = a->head; b; b = b->next)
        n++;
    return n;
}

static void arena_free(struct arena *a) {
    arena_release(a, (struct mark){NULL, 0});
}

static char *arena_strdup(struct arena *a, const char *s) {
    size_t n = strlen(s) + 1;
    char *p = arena_alloc(a, n, 1);
    memcpy(p, s, n);
    return p;
}

#define ANEW(a, T) ((T *)arena_alloc((a), sizeof(T), _Alignof(T)))

struct item { long key; double weight; struct item *next; char *label; };

/* Fixed-size pool on top of the arena with an intrusive free list. */
struct pool { struct arena *arena; size_t size; void *free_list; size_t live, reused; };

static void *pool_get(struct pool *p) {
    if (p->free_list) {
        void *r = p->free_list;
        p->free_list = *(void **)r;
        p->reused++;
        p->live++;
        return r;
    }
    p->live++;
    return arena_alloc(p->arena, p->size, 16);
}

static void pool_put(struct pool *p, void *x) {
    *(void **)x = p->free_list;
    p->free_list = x;
    p->live--;
}

int main(void) {
    struct arena a;
    arena_init(&a, 1024);
    uint64_t cs = 0;

    /* mixed-alignment allocations: check alignment invariants (printed as booleans) */
    int misaligned = 0;
    for (int i = 0; i < 200; i++) {
        size_t align = (size_t)1 << (i % 5);   /* 1..16 */
        size_t sz = (size_t)(i * 7 % 61) + 1;
        unsigned char *p = arena_alloc(&a, sz, align);
        if (((uintptr_t)p & (align - 1)) != 0)
            misaligned++;
        memset(p, i & 0xff, sz);
        cs = cs * 31 + p[sz - 1];
    }
    printf("200 allocs: blocks=%zu misaligned=%d\n", arena_blocks(&a), misaligned);

    /* linked list of items in the arena */
    struct mark before_list = arena_mark(&a);
    struct item *head = NULL;
    char label[32];
    for (long k = 0; k < 100; k++) {
        struct item *it = ANEW(&a, struct item);
        it->key = k * k % 97;
        it->weight = (double)k / 4;   /* exact */
        snprintf(label, sizeof label, "item-%ld", k);
        it->label = arena_strdup(&a, label);
        it->next = head;
        head = it;
    }
    long keysum = 0;
    double wsum = 0;
    size_t labels = 0;
    for (struct item *it = head; it; it = it->next) {
        keysum += it->key;
        wsum += it->weight;
        labels += strlen(it->label);
    }
    printf("list: keysum=%ld wsum=%.2f labels=%zu first=%s blocks=%zu\n", keysum, wsum, labels, head->label,
           arena_blocks(&a));
    cs = cs * 31 + (uint64_t)keysum + labels;

    /* big allocation larger than the block size gets its own block */
    unsigned char *big = arena_alloc(&a, 5000, 8);
    for (int i = 0; i < 5000; i++)
        big[i] = (unsigned char)(i * 13);
    uint32_t bh = 0;
    for (int i = 0; i < 5000; i++)
        bh = bh * 33 + big[i];
    printf("big block hash %u blocks=%zu\n", bh, arena_blocks(&a));
    cs = cs * 31 + bh;

    /* release back to the mark: all list blocks go away */
    arena_release(&a, before_list);
    printf("after release: blocks=%zu\n", arena_blocks(&a));

    /* pool allocator recycling */
    struct pool pl = {&a, 48, NULL, 0, 0};
    void *slots[64];
    for (int round = 0; round < 5; round++) {
        int n = 10 + round * 10;
        for (int i = 0; i < n; i++) {
            slots[i] = pool_get(&pl);
            memset(slots[i], round + i, 48);
        }
        uint32_t s = 0;
        for (int i = 0; i < n; i++)
            s += ((unsigned char *)slots[i])[47];
        for (int i = n - 1; i >= 0; i -= 2)
            pool_put(&pl, slots[i]);
        for (int i = n - 2; i >= 0; i -= 2)
            pool_put(&pl, slots[i]);
        printf("pool round %d: n=%d sum=%u live=%zu reused=%zu\n", round, n, s, pl.live, pl.reused);
        cs = cs * 31 + s + pl.reused;
    }
    printf("total allocs %zu blocks %zu\n", a.total_allocs, arena_blocks(&a));
    arena_free(&a);
    printf("freed: blocks=%zu\n", arena_blocks(&a));

    printf("checksum %llu\n", (unsigned long long)cs);
    return 0;
}
