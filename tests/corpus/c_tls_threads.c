/* Thread-local storage in C: __thread / _Thread_local scalars, arrays and
 * structs (initialised and zero), static TLS inside functions, TLS accessed
 * through pointers and from non-inlined helpers, with 4 pthreads. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 4

__thread int tls_counter = 100;
__thread uint64_t tls_hash;
_Thread_local char tls_name[16] = "main";
static __thread struct { int calls; long total; } tls_stats;
static __thread int tls_array[32];

struct result {
    int counter;
    uint64_t hash;
    char name[16];
    int calls;
    long total;
    int array_sum;
    int private_addr;   /* 1 if this thread's &tls_counter differed from main's */
    int helper_calls;
};

static struct result results[NTHREADS];
static int *main_counter_addr;

__attribute__((noinline)) static int bump(int by) {
    static __thread int local_static = 7;
    local_static += by;
    tls_stats.calls++;
    tls_stats.total += by;
    return local_static;
}

__attribute__((noinline)) static void mix(uint64_t v) {
    tls_hash = (tls_hash ^ v) * 0x100000001b3ull;
}

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    snprintf(tls_name, sizeof tls_name, "worker-%d", id);
    int *p = &tls_counter;          /* pointer to this thread's copy */
    for (int i = 0; i < 1000 * (id + 1); i++) {
        (*p)++;
        mix((uint64_t)(i * (id + 3)));
    }
    int last = 0;
    for (int i = 0; i < 32; i++) {
        tls_array[i] = i * (id + 1);
        last = bump(i + id);
    }
    struct result *r = &results[id];
    r->counter = tls_counter;
    r->hash = tls_hash;
    memcpy(r->name, tls_name, sizeof r->name);
    r->calls = tls_stats.calls;
    r->total = tls_stats.total;
    int s = 0;
    for (int i = 0; i < 32; i++)
        s += tls_array[i];
    r->array_sum = s;
    r->private_addr = (p != main_counter_addr);
    r->helper_calls = last;
    return NULL;
}

int main(void) {
    pthread_t th[NTHREADS];
    main_counter_addr = &tls_counter;
    tls_counter = 5;
    mix(42);

    for (int i = 0; i < NTHREADS; i++)
        if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            printf("pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);

    uint64_t sum = 0;
    for (int i = 0; i < NTHREADS; i++) {
        struct result *r = &results[i];
        printf("thread %d: name=%s counter=%d hash=%016llx calls=%d total=%ld arr=%d private=%d static=%d\n",
               i, r->name, r->counter, (unsigned long long)r->hash, r->calls, r->total,
               r->array_sum, r->private_addr, r->helper_calls);
        sum = sum * 1000003u + (uint64_t)r->counter + r->hash + (uint64_t)r->total + (uint64_t)r->array_sum;
    }
    /* main thread's copies are untouched by the workers */
    printf("main: name=%s counter=%d hash=%016llx calls=%d\n", tls_name, tls_counter,
           (unsigned long long)tls_hash, tls_stats.calls);
    int m = bump(1);
    printf("main static after bump: %d calls=%d\n", m, tls_stats.calls);
    sum = sum * 31 + (uint64_t)tls_counter + tls_hash + (uint64_t)m;
    printf("checksum %llu\n", (unsigned long long)sum);
    return 0;
}
