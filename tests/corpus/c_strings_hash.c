/* String handling: memcpy/memmove (overlapping both ways), memset, memcmp,
 * strcmp/strncmp/strchr/strrchr/strstr/strspn, manual tokenizing, and a
 * chained hash table with resize used for word counting (printed sorted). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_sum = 1469598103934665603ull;
static void acc_bytes(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        g_sum = (g_sum ^ b[i]) * 1099511628211ull;
}

struct entry { char *key; int count; struct entry *next; };
struct table { struct entry **buckets; size_t nbuckets, size; };

static uint32_t hash_str(const char *s) {
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static void table_init(struct table *t, size_t n) {
    t->buckets = calloc(n, sizeof *t->buckets);
    t->nbuckets = n;
    t->size = 0;
}

static void table_resize(struct table *t) {
    size_t nn = t->nbuckets * 2;
    struct entry **nb = calloc(nn, sizeof *nb);
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *next = e->next;
            size_t idx = hash_str(e->key) & (nn - 1);
            e->next = nb[idx];
            nb[idx] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = nn;
}

static void table_add(struct table *t, const char *key, size_t len) {
    char tmp[64];
    if (len >= sizeof tmp)
        len = sizeof tmp - 1;
    memcpy(tmp, key, len);
    tmp[len] = 0;
    size_t idx = hash_str(tmp) & (t->nbuckets - 1);
    for (struct entry *e = t->buckets[idx]; e; e = e->next)
        if (strcmp(e->key, tmp) == 0) {
            e->count++;
            return;
        }
    struct entry *e = malloc(sizeof *e);
    e->key = malloc(len + 1);
    memcpy(e->key, tmp, len + 1);
    e->count = 1;
    e->next = t->buckets[idx];
    t->buckets[idx] = e;
    if (++t->size > t->nbuckets * 3 / 4)
        table_resize(t);
}

static int cmp_entry(const void *a, const void *b) {
    const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
    if (x->count != y->count)
        return y->count - x->count;
    return strcmp(x->key, y->key);
}

static void table_free(struct table *t) {
    for (size_t i = 0; i < t->nbuckets; i++) {
        struct entry *e = t->buckets[i];
        while (e) {
            struct entry *n = e->next;
            free(e->key);
            free(e);
            e = n;
        }
    }
    free(t->buckets);
}

static void reverse(char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char c = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = c;
    }
}

static const char *text =
    "the quick brown fox jumps over the lazy dog while the cat sleeps and the dog "
    "dreams of the fox that jumps over a fence made of the brown wood of the old "
    "oak tree near the river where the fox drinks and the cat watches the quick "
    "river flow past the oak and the dog and the fence and the wood";

int main(void) {
    /* memmove with overlap in both directions */
    char buf[64];
    strcpy(buf, "0123456789abcdefghij");
    memmove(buf + 5, buf, 10);
    printf("memmove right: %s\n", buf);
    strcpy(buf, "0123456789abcdefghij");
    memmove(buf, buf + 7, 13);
    printf("memmove left:  %s\n", buf);
    acc_bytes(buf, strlen(buf));

    char big[300];
    memset(big, 'x', sizeof big);
    for (int shift = 1; shift < 64; shift *= 3) {
        for (int i = 0; i < 256; i++)
            big[i] = (char)('a' + i % 26);
        memmove(big + shift, big, 200);
        memmove(big, big + shift * 2, 100);
        acc_bytes(big, 256);
    }
    printf("big memmove sample: %.20s\n", big);

    /* comparisons */
    const char *words[] = {"apple", "applesauce", "apply", "Apple", "app", "banana", ""};
    for (int i = 0; i < 7; i++) {
        int c1 = strcmp(words[i], "apple");
        int c2 = strncmp(words[i], "apple", 3);
        int c3 = memcmp(words[i], "apple", strlen(words[i]) < 5 ? strlen(words[i]) : 5);
        printf("cmp %-10s strcmp %2d strncmp %2d memcmp %2d\n", words[i], (c1 > 0) - (c1 < 0),
               (c2 > 0) - (c2 < 0), (c3 > 0) - (c3 < 0));
        g_sum += (uint64_t)((c1 > 0) - (c1 < 0) + 3);
    }

    /* searching */
    const char *hay = "find the needle in the haystack, needle!";
    const char *n1 = strstr(hay, "needle");
    const char *n2 = strstr(n1 + 1, "needle");
    printf("strstr at %d and %d, strchr 'h' at %d, strrchr 'e' at %d, spn %zu cspn %zu\n",
           (int)(n1 - hay), (int)(n2 - hay), (int)(strchr(hay, 'h') - hay), (int)(strrchr(hay, 'e') - hay),
           strspn(hay, "find "), strcspn(hay, ","));

    /* building strings */
    char out[256];
    size_t pos = 0;
    for (int i = 0; i < 12; i++) {
        int n = snprintf(out + pos, sizeof out - pos, "%s%d", i ? "," : "", i * i);
        pos += (size_t)n;
    }
    printf("built: %s (len %zu)\n", out, strlen(out));
    reverse(out);
    printf("reversed: %s\n", out);
    acc_bytes(out, strlen(out));

    /* word counting with the hash table */
    struct table t;
    table_init(&t, 4);
    const char *p = text;
    int nwords = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *start = p;
        while (*p && *p != ' ')
            p++;
        if (p > start) {
            table_add(&t, start, (size_t)(p - start));
            nwords++;
        }
    }
    struct entry **all = malloc(t.size * sizeof *all);
    size_t k = 0;
    for (size_t i = 0; i < t.nbuckets; i++)
        for (struct entry *e = t.buckets[i]; e; e = e->next)
            all[k++] = e;
    qsort(all, k, sizeof *all, cmp_entry);
    printf("words=%d unique=%zu buckets=%zu\n", nwords, t.size, t.nbuckets);
    for (size_t i = 0; i < k; i++) {
        if (i < 12)
            printf("  %-8s %d\n", all[i]->key, all[i]->count);
        acc_bytes(all[i]->key, strlen(all[i]->key));
        g_sum += (uint64_t)all[i]->count;
    }
    free(all);
    table_free(&t);

    /* strdup-like copy chain and strncpy padding */
    char padded[12];
    strncpy(padded, "abc", sizeof padded);
    int zeros = 0;
    for (size_t i = 0; i < sizeof padded; i++)
        zeros += padded[i] == 0;
    printf("strncpy zero padding %d\n", zeros);

    printf("checksum %016llx\n", (unsigned long long)g_sum);
    return 0;
}
