// Exceptions in concurrent std::threads: independent throw/catch per thread
// (per-thread __cxa globals), RAII unwinding, std::exception_ptr transport,
// std::promise/std::future/std::async exception propagation.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

struct Failure : std::runtime_error {
    int thread_id, iteration;
    Failure(int t, int i) : std::runtime_error("failure t" + std::to_string(t) + " i" + std::to_string(i)), thread_id(t), iteration(i) {}
};

struct Counted {
    static std::mutex mu;
    static long destroyed;
    int v;
    explicit Counted(int x) : v(x) {}
    ~Counted() {
        std::lock_guard<std::mutex> lk(mu);
        destroyed += v;
    }
};
std::mutex Counted::mu;
long Counted::destroyed = 0;

__attribute__((noinline)) static int deep_throw(int tid, int i, int depth) {
    Counted c(1);
    if (depth == 0) {
        if (i % 3 == 0)
            throw Failure(tid, i);
        if (i % 3 == 1)
            throw i;
        return i;
    }
    return deep_throw(tid, i, depth - 1) + 1;
}

struct ThreadResult {
    long caught_failure = 0, caught_int = 0, returned = 0;
    std::exception_ptr fatal;
};

static void worker(int tid, ThreadResult *out) {
    for (int i = 0; i < 30; i++) {
        try {
            out->returned += deep_throw(tid, i, 2 + (i + tid) % 4);
        } catch (const Failure &f) {
            out->caught_failure += f.iteration;
        } catch (int v) {
            out->caught_int += v;
        }
    }
    try {
        if (tid == 2)
            throw std::logic_error("fatal in thread 2");
        if (tid == 3)
            throw Failure(tid, -1);
    } catch (...) {
        out->fatal = std::current_exception();
    }
}

static long compute(int n) {
    if (n < 0)
        throw std::invalid_argument("negative n " + std::to_string(n));
    long s = 0;
    for (int i = 1; i <= n; i++)
        s += static_cast<long>(i) * i;
    return s;
}

int main() {
    const int kThreads = 4;
    std::vector<ThreadResult> results(kThreads);
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; t++)
        ts.emplace_back(worker, t, &results[static_cast<std::size_t>(t)]);
    for (auto &t : ts)
        t.join();

    std::uint64_t cs = 0;
    for (int t = 0; t < kThreads; t++) {
        ThreadResult &r = results[static_cast<std::size_t>(t)];
        std::printf("thread %d: failures-sum=%ld ints-sum=%ld returned=%ld", t, r.caught_failure, r.caught_int,
                    r.returned);
        if (r.fatal) {
            try {
                std::rethrow_exception(r.fatal);
            } catch (const Failure &f) {
                std::printf(" fatal Failure(%d,%d) '%s'", f.thread_id, f.iteration, f.what());
                cs += 5;
            } catch (const std::exception &e) {
                std::printf(" fatal '%s'", e.what());
                cs += 3;
            }
        }
        std::printf("\n");
        cs = cs * 1000003u + static_cast<std::uint64_t>(r.caught_failure + r.caught_int * 7 + r.returned * 13);
    }
    std::printf("destroyed during unwinding+returns: %ld\n", Counted::destroyed);
    cs = cs * 31 + static_cast<std::uint64_t>(Counted::destroyed);

    // promise/future exception transport
    std::vector<std::future<long>> futs;
    std::vector<std::thread> producers;
    for (int n : {10, -4, 100, -1}) {
        std::promise<long> p;
        futs.push_back(p.get_future());
        producers.emplace_back([n](std::promise<long> pr) {
            try {
                pr.set_value(compute(n));
            } catch (...) {
                pr.set_exception(std::current_exception());
            }
        }, std::move(p));
    }
    for (auto &t : producers)
        t.join();
    for (auto &f : futs) {
        try {
            long v = f.get();
            std::printf("future value %ld\n", v);
            cs = cs * 31 + static_cast<std::uint64_t>(v);
        } catch (const std::invalid_argument &e) {
            std::printf("future exception: %s\n", e.what());
            cs = cs * 31 + 17;
        }
    }

    // std::async with deferred launch (runs on this thread at get()) and async launch
    auto fut_deferred = std::async(std::launch::deferred, compute, -9);
    auto fut_async = std::async(std::launch::async, compute, 20);
    try {
        fut_deferred.get();
    } catch (const std::exception &e) {
        std::printf("deferred: %s\n", e.what());
    }
    std::printf("async: %ld\n", fut_async.get());

    std::printf("checksum %llu\n", static_cast<unsigned long long>(cs));
    return 0;
}
