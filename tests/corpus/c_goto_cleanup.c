/* goto-based error handling: kernel-style cascaded cleanup labels releasing
 * several heap resources in reverse order, failure injected at every step,
 * plus backward gotos forming loops and a goto out of nested loops. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_at;          /* which acquisition step fails (0 = none) */
static int live_resources;
static uint64_t trace;

static void note(int code) { trace = trace * 37 + (uint64_t)code; }

static void *acquire(int step, size_t size) {
    if (step == fail_at) {
        note(100 + step);
        return NULL;
    }
    void *p = malloc(size);
    memset(p, step, size);
    live_resources++;
    note(step);
    return p;
}

static void release(void *p, int step) {
    if (p) {
        free(p);
        live_resources--;
        note(200 + step);
    }
}

struct ctx { char *name; int *table; double *weights; unsigned char *scratch; };

static int setup(struct ctx *c) {
    int err = -1;
    c->name = acquire(1, 32);
    if (!c->name)
        goto fail_name;
    c->table = acquire(2, 64 * sizeof(int));
    if (!c->table)
        goto fail_table;
    c->weights = acquire(3, 16 * sizeof(double));
    if (!c->weights)
        goto fail_weights;
    c->scratch = acquire(4, 256);
    if (!c->scratch)
        goto fail_scratch;
    /* final validation step that can also fail */
    if (fail_at == 5) {
        note(105);
        err = -5;
        goto fail_validate;
    }
    strcpy(c->name, "ready");
    return 0;

fail_validate:
    release(c->scratch, 4);
fail_scratch:
    release(c->weights, 3);
fail_weights:
    release(c->table, 2);
fail_table:
    release(c->name, 1);
fail_name:
    memset(c, 0, sizeof *c);
    return err;
}

static void teardown(struct ctx *c) {
    release(c->scratch, 4);
    release(c->weights, 3);
    release(c->table, 2);
    release(c->name, 1);
}

/* Single-exit function with a cleanup label and multiple error returns. */
static int parse_and_sum(const char *input, long *out) {
    int rc = 0;
    char *copy = malloc(strlen(input) + 1);
    long *vals = malloc(16 * sizeof *vals);
    int n = 0;
    strcpy(copy, input);
    for (char *p = copy; *p;) {
        long v = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (*p++ - '0');
            digits++;
        }
        if (!digits) {
            rc = -1;
            goto out;
        }
        if (n == 16) {
            rc = -2;
            goto out;
        }
        vals[n++] = v;
        if (*p == ',')
            p++;
        else if (*p) {
            rc = -3;
            goto out;
        }
    }
    *out = 0;
    for (int i = 0; i < n; i++)
        *out += vals[i];
out:
    free(vals);
    free(copy);
    return rc;
}

/* goto as a loop and an exit from nested loops */
static int find_pair(const int *a, int n, int target, int *ia, int *ib) {
    int i = 0;
outer:
    if (i >= n)
        return 0;
    for (int j = i + 1; j < n; j++)
        for (int k = 0; k < 1; k++)
            if (a[i] + a[j] == target) {
                *ia = i;
                *ib = j;
                goto found;
            }
    i++;
    goto outer;
found:
    return 1;
}

int main(void) {
    for (fail_at = 0; fail_at <= 6; fail_at++) {
        struct ctx c;
        trace = 0;
        int rc = setup(&c);
        int live_after_setup = live_resources;
        if (rc == 0) {
            for (int i = 0; i < 64; i++)
                c.table[i] = i * i;
            c.weights[0] = 1.5;
            teardown(&c);
        }
        printf("fail_at=%d rc=%d live_after_setup=%d live_now=%d trace=%llu\n", fail_at, rc, live_after_setup,
               live_resources, (unsigned long long)trace);
    }

    const char *inputs[] = {"1,2,3", "10,20,x", "5,,6", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "42", "7;8"};
    uint64_t cs = 0;
    for (int i = 0; i < 6; i++) {
        long sum = -1;
        int rc = parse_and_sum(inputs[i], &sum);
        printf("parse %-12.12s rc=%d sum=%ld\n", inputs[i], rc, rc == 0 ? sum : -1L);
        cs = cs * 31 + (uint64_t)(rc + 10) + (uint64_t)(rc == 0 ? sum : 0);
    }

    int arr[] = {8, 3, 11, 7, 2, 9, 4};
    for (int target = 5; target <= 20; target += 5) {
        int a = -1, b = -1;
        int ok = find_pair(arr, 7, target, &a, &b);
        printf("pair for %d: %d (%d,%d)\n", target, ok, a, b);
        cs = cs * 31 + (uint64_t)(ok * 100 + a * 10 + b + 20);
    }
    printf("checksum %llu\n", (unsigned long long)(cs ^ trace));
    return 0;
}
