/* C11 <stdatomic.h> with 4 pthreads: fetch_add/sub/or/and/xor, CAS loops,
 * atomic_flag spinlock guarding plain data, release/acquire publication and
 * fetch_add ticketing; only order-independent results are printed. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define NT 4
#define ITERS 10000

static atomic_long counter;
static atomic_uint bits_or;
static atomic_uint bits_and = ~0u;
static atomic_uint bits_xor;
static atomic_int max_seen = -1;
static atomic_llong cas_sum;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static long guarded_total;             /* protected by lock */
static uint64_t guarded_hist[8];       /* protected by lock */
static atomic_int tickets;
static int ticket_owner[NT * 8];       /* each slot written by exactly one thread */

/* release/acquire message passing */
static int payload[NT];
static atomic_int ready[NT];

static void spin_lock(void) {
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
        sched_yield();   /* more threads than cores: don't burn the holder's time slice */
}
static void spin_unlock(void) { atomic_flag_clear_explicit(&lock, memory_order_release); }

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    for (int i = 0; i < ITERS; i++) {
        atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
        if (i % 1000 == 0) {
            long long old = atomic_load(&cas_sum);
            while (!atomic_compare_exchange_weak(&cas_sum, &old, old + id * 1000 + i / 1000))
                ;
        }
    }
    atomic_fetch_sub(&counter, id);
    atomic_fetch_or(&bits_or, 1u << (id * 3));
    atomic_fetch_and(&bits_and, ~(1u << (id * 5)));
    atomic_fetch_xor(&bits_xor, 0x11u << id);

    int candidate = (id * 7919) % 1000;
    int cur = atomic_load_explicit(&max_seen, memory_order_relaxed);
    while (cur < candidate &&
           !atomic_compare_exchange_strong_explicit(&max_seen, &cur, candidate, memory_order_acq_rel,
                                                    memory_order_relaxed))
        ;

    for (int i = 0; i < 300; i++) {
        spin_lock();
        guarded_total += i * (id + 1);
        guarded_hist[(i + id) % 8]++;
        spin_unlock();
    }

    for (int k = 0; k < 8; k++) {
        int t = atomic_fetch_add(&tickets, 1);
        ticket_owner[t] = id + 1;
    }

    payload[id] = 1000 + id * id;
    atomic_store_explicit(&ready[id], 1, memory_order_release);
    return NULL;
}

int main(void) {
    pthread_t th[NT];
    printf("lock-free: int %d long %d llong %d\n", ATOMIC_INT_LOCK_FREE, ATOMIC_LONG_LOCK_FREE,
           ATOMIC_LLONG_LOCK_FREE);
    for (int i = 0; i < NT; i++)
        pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);

    /* consumer side of the release/acquire handshake */
    long consumed = 0;
    for (int i = 0; i < NT; i++) {
        while (!atomic_load_explicit(&ready[i], memory_order_acquire))
            sched_yield();
        consumed += payload[i];
    }
    for (int i = 0; i < NT; i++)
        pthread_join(th[i], NULL);

    printf("counter %ld\n", atomic_load(&counter));
    printf("bits or=%08x and=%08x xor=%08x\n", atomic_load(&bits_or), atomic_load(&bits_and),
           atomic_load(&bits_xor));
    printf("max_seen %d\n", atomic_load(&max_seen));
    printf("cas_sum %lld\n", atomic_load(&cas_sum));
    printf("guarded_total %ld hist", guarded_total);
    for (int i = 0; i < 8; i++)
        printf(" %llu", (unsigned long long)guarded_hist[i]);
    printf("\n");
    int per_owner[NT + 1] = {0};
    for (int i = 0; i < NT * 8; i++)
        per_owner[ticket_owner[i]]++;
    printf("tickets %d per-owner %d %d %d %d\n", atomic_load(&tickets), per_owner[1], per_owner[2],
           per_owner[3], per_owner[4]);
    printf("consumed %ld\n", consumed);

    /* single-threaded semantics of the generic functions */
    _Atomic int x = 5;
    int expected = 4;
    int ok1 = atomic_compare_exchange_strong(&x, &expected, 10);
    int ok2 = atomic_compare_exchange_strong(&x, &expected, 10);
    int old = atomic_exchange(&x, 77);
    atomic_thread_fence(memory_order_seq_cst);
    printf("cas fail=%d expected-now=%d cas ok=%d old=%d x=%d\n", ok1, expected, ok2, old, atomic_load(&x));
    _Atomic uint8_t small = 250;
    for (int i = 0; i < 10; i++)
        atomic_fetch_add(&small, 1);
    printf("uint8 wrap %u\n", (unsigned)atomic_load(&small));

    uint64_t cs = (uint64_t)atomic_load(&counter) * 31 + atomic_load(&bits_or) + atomic_load(&bits_and) +
                  atomic_load(&bits_xor) + (uint64_t)atomic_load(&cas_sum) + (uint64_t)guarded_total +
                  (uint64_t)consumed + (uint64_t)atomic_load(&x) + atomic_load(&small);
    printf("checksum %llu\n", (unsigned long long)cs);
    return 0;
}
