// C++ thread_local: namespace-scope, function-local and static-member
// thread_locals with dynamic initialisation and non-trivial destructors (run
// at thread exit), accessed from 4 std::threads; results joined, then printed.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

static std::mutex g_mu;
static std::vector<std::string> g_dtor_log;   // protected by g_mu; sorted before printing

struct Tracker {
    int id = -1;
    std::uint64_t work = 0;
    std::string tag;
    Tracker() : tag("unset") {}
    ~Tracker() {
        std::lock_guard<std::mutex> lk(g_mu);
        g_dtor_log.push_back("tracker " + tag + " work=" + std::to_string(work));
    }
};

thread_local Tracker t_tracker;                 // dynamic init + dtor at thread exit
thread_local int t_plain = 7;                   // constant init
thread_local std::vector<int> t_vec{1, 2, 3};   // dynamic init with heap memory

struct Stats {
    static thread_local int calls;
    static int bump() { return ++calls; }
};
thread_local int Stats::calls = 0;

static int next_serial() {
    thread_local int serial = 100;   // function-local thread_local
    return serial++;
}

struct Result {
    int id;
    int plain;
    std::size_t vec_size;
    long vec_sum;
    int calls;
    int serial;
    std::uint64_t work;
};

static std::array<Result, 4> results;

static void worker(int id) {
    t_tracker.id = id;
    t_tracker.tag = "T" + std::to_string(id);
    t_plain += id * 10;
    for (int i = 0; i < 50 * (id + 1); i++) {
        t_vec.push_back(i * id);
        Stats::bump();
        t_tracker.work = t_tracker.work * 31 + static_cast<std::uint64_t>(i ^ id);
    }
    int s = 0;
    for (int k = 0; k < id + 3; k++)
        s = next_serial();
    long sum = 0;
    for (int v : t_vec)
        sum += v;
    results[static_cast<std::size_t>(id)] = Result{id, t_plain, t_vec.size(), sum, Stats::calls, s, t_tracker.work};
}

int main() {
    t_tracker.tag = "main";
    next_serial();
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; i++)
        threads.emplace_back(worker, i);
    for (auto &t : threads)
        t.join();

    std::uint64_t cs = 0;
    for (const Result &r : results) {
        std::printf("thread %d: plain=%d vec=%zu sum=%ld calls=%d serial=%d work=%016llx\n", r.id, r.plain,
                    r.vec_size, r.vec_sum, r.calls, r.serial, static_cast<unsigned long long>(r.work));
        cs = cs * 1000003u + static_cast<std::uint64_t>(r.plain + r.vec_sum + r.calls + r.serial) + r.work;
    }
    std::printf("main: plain=%d vec=%zu calls=%d serial-next=%d tag=%s\n", t_plain, t_vec.size(), Stats::calls,
                next_serial(), t_tracker.tag.c_str());

    {
        std::lock_guard<std::mutex> lk(g_mu);
        std::vector<std::string> log = g_dtor_log;
        std::sort(log.begin(), log.end());
        std::printf("thread-exit destructors (%zu):\n", log.size());
        for (auto &s : log) {
            std::printf("  %s\n", s.c_str());
            cs = cs * 31 + s.size();
        }
    }
    std::printf("checksum %llu\n", static_cast<unsigned long long>(cs));
    return 0;
}
