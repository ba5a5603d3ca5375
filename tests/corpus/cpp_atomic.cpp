// std::atomic with std::thread: fetch_add/fetch_or, CAS loops (weak/strong),
// atomic<bool> spinlock, atomic_flag, lock-free Treiber stack pushes, 8-byte
// atomic<struct>, release/acquire hand-off, fences; order-independent output.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

constexpr int kThreads = 4;
constexpr int kIters = 10000;

struct Packed {
    std::int32_t lo;
    std::int32_t hi;
};

struct Node {
    int value;
    Node *next;
};

static std::atomic<long> counter{0};
static std::atomic<unsigned> mask{0};
static std::atomic<std::uint64_t> max_val{0};
static std::atomic<Packed> packed{Packed{0, 0}};
static std::atomic<bool> spin{false};
static long spin_protected = 0;
static std::atomic_flag flag_lock = ATOMIC_FLAG_INIT;
static std::vector<int> flag_protected;
static std::atomic<Node *> stack_head{nullptr};
static std::atomic<int> phase{0};
static long handoff_data = 0;

static void lock_spin() {
    bool expected = false;
    while (!spin.compare_exchange_weak(expected, true, std::memory_order_acquire, std::memory_order_relaxed)) {
        expected = false;
        std::this_thread::yield();   // more threads than cores: let the holder run
    }
}
static void unlock_spin() { spin.store(false, std::memory_order_release); }

static void worker(int id, Node *pool) {
    for (int i = 0; i < kIters; i++)
        counter.fetch_add(1, std::memory_order_relaxed);
    mask.fetch_or(1u << (id * 4 + 1));

    std::uint64_t mine = static_cast<std::uint64_t>(id) * 7919u % 13u + 100u;
    std::uint64_t cur = max_val.load();
    while (cur < mine && !max_val.compare_exchange_strong(cur, mine)) {
    }

    for (int i = 0; i < 1000; i++) {
        Packed old = packed.load();
        Packed nw;
        do {
            nw.lo = old.lo + 1;
            nw.hi = old.hi + id;
        } while (!packed.compare_exchange_weak(old, nw));
    }

    for (int i = 0; i < 500; i++) {
        lock_spin();
        spin_protected += id + 1;
        unlock_spin();
    }

    for (int i = 0; i < 50; i++) {
        while (flag_lock.test_and_set(std::memory_order_acquire))
            std::this_thread::yield();
        flag_protected.push_back(id * 1000 + i);
        flag_lock.clear(std::memory_order_release);
    }

    // Treiber stack push (no pops run concurrently, so no ABA problem)
    for (int i = 0; i < 100; i++) {
        Node *n = &pool[i];
        n->value = id * 100 + i;
        n->next = stack_head.load(std::memory_order_relaxed);
        while (!stack_head.compare_exchange_weak(n->next, n, std::memory_order_release, std::memory_order_relaxed)) {
        }
    }
}

int main() {
    std::printf("lock-free: long=%d packed=%d bool=%d\n", static_cast<int>(counter.is_lock_free()),
                static_cast<int>(packed.is_lock_free()), static_cast<int>(spin.is_lock_free()));
    std::vector<Node> pools(static_cast<std::size_t>(kThreads) * 100);
    std::vector<std::thread> ts;
    for (int i = 0; i < kThreads; i++)
        ts.emplace_back(worker, i, pools.data() + i * 100);

    // release/acquire hand-off with a consumer thread
    std::thread consumer([] {
        while (phase.load(std::memory_order_acquire) != 1)
            std::this_thread::yield();
        handoff_data *= 2;
        phase.store(2, std::memory_order_release);
    });
    handoff_data = 21;
    phase.store(1, std::memory_order_release);
    while (phase.load(std::memory_order_acquire) != 2)
        std::this_thread::yield();
    std::atomic_thread_fence(std::memory_order_seq_cst);

    for (auto &t : ts)
        t.join();
    consumer.join();

    Packed p = packed.load();
    std::printf("counter=%ld mask=%08x max=%llu packed=(%d,%d)\n", counter.load(), mask.load(),
                static_cast<unsigned long long>(max_val.load()), p.lo, p.hi);
    std::printf("spin_protected=%ld flag_protected size=%zu handoff=%ld\n", spin_protected, flag_protected.size(),
                handoff_data);
    std::sort(flag_protected.begin(), flag_protected.end());
    long fsum = 0;
    for (int v : flag_protected)
        fsum += v;
    std::printf("flag_protected sum=%ld first=%d last=%d\n", fsum, flag_protected.front(), flag_protected.back());

    std::vector<int> popped;
    for (Node *n = stack_head.load(); n; n = n->next)
        popped.push_back(n->value);
    std::sort(popped.begin(), popped.end());
    long ssum = 0;
    bool all_present = popped.size() == 400;
    for (std::size_t i = 0; i < popped.size(); i++) {
        ssum += popped[i];
        int expect = static_cast<int>(i / 100) * 100 + static_cast<int>(i % 100);
        all_present = all_present && popped[i] == expect;
    }
    std::printf("stack nodes=%zu sum=%ld all_present=%d\n", popped.size(), ssum, static_cast<int>(all_present));

    // single-threaded atomic operations
    std::atomic<int> x{10};
    int prev_add = x.fetch_add(5);
    int prev_sub = x.fetch_sub(3);
    int prev_and = x.fetch_and(0xC);
    int prev_xor = x.fetch_xor(0xFF);
    int exch = x.exchange(-1);
    int expected = 0;
    bool cas_fail = x.compare_exchange_strong(expected, 1);
    std::printf("single: %d %d %d %d %d cas=%d expected=%d final=%d\n", prev_add, prev_sub, prev_and, prev_xor, exch,
                static_cast<int>(cas_fail), expected, x.load());

    std::uint64_t cs = static_cast<std::uint64_t>(counter.load()) * 31 + mask.load() + max_val.load() +
                       static_cast<std::uint64_t>(p.lo) * 7 + static_cast<std::uint64_t>(p.hi) * 11 +
                       static_cast<std::uint64_t>(spin_protected) + static_cast<std::uint64_t>(fsum) +
                       static_cast<std::uint64_t>(ssum) + static_cast<std::uint64_t>(handoff_data);
    std::printf("checksum %llu\n", static_cast<unsigned long long>(cs));
    return 0;
}
