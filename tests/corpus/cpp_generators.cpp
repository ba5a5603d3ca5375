// Coroutine-free generators: resumable switch-based state machines
// (protothread style), iterator ranges for range-for, and lazy map/filter/take
// pipelines built from closures returning std::optional.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

static std::uint64_t g_sum = 7;
static void acc(std::uint64_t v) { g_sum = g_sum * 1099511628211ull + v; }

// 1. Explicit state machine: yields primes using a resumable loop.
class PrimeGen {
    int state_ = 0;
    std::uint32_t cand_ = 0;
    std::vector<std::uint32_t> found_;

public:
    std::optional<std::uint32_t> next() {
        switch (state_) {
        case 0:
            state_ = 1;
            return 2u;
        case 1:
            cand_ = 3;
            state_ = 2;
            [[fallthrough]];
        case 2:
            for (;; cand_ += 2) {
                bool prime = true;
                for (std::uint32_t p : found_) {
                    if (p * p > cand_)
                        break;
                    if (cand_ % p == 0) {
                        prime = false;
                        break;
                    }
                }
                if (prime) {
                    found_.push_back(cand_);
                    std::uint32_t r = cand_;
                    cand_ += 2;
                    return r;
                }
            }
        }
        return std::nullopt;
    }
};

// 2. Protothread-style macros: resume in the middle of nested loops.
#define GEN_BEGIN switch (line_) { case 0:
#define GEN_YIELD(v) do { line_ = __LINE__; return (v); case __LINE__:; } while (0)
#define GEN_END } line_ = -1; return std::nullopt

class PairGen {   // yields (i, j) with 0 <= i < j < n
    int line_ = 0, i_ = 0, j_ = 0, n_;

public:
    explicit PairGen(int n) : n_(n) {}
    std::optional<std::pair<int, int>> next() {
        if (line_ == -1)
            return std::nullopt;
        GEN_BEGIN
        for (i_ = 0; i_ < n_; i_++)
            for (j_ = i_ + 1; j_ < n_; j_++)
                GEN_YIELD(std::make_pair(i_, j_));
        GEN_END;
    }
};

// 3. Iterator-based range: Collatz sequence, usable in range-for.
class Collatz {
    std::uint64_t start_;

public:
    explicit Collatz(std::uint64_t s) : start_(s) {}
    struct iterator {
        std::uint64_t v;
        bool done;
        std::uint64_t operator*() const { return v; }
        iterator &operator++() {
            if (v == 1)
                done = true;
            else
                v = (v % 2) ? 3 * v + 1 : v / 2;
            return *this;
        }
        bool operator!=(const iterator &o) const { return done != o.done; }
    };
    iterator begin() const { return {start_, false}; }
    iterator end() const { return {0, true}; }
};

// 4. Closure generators and lazy pipeline combinators.
template <typename T>
using Gen = std::function<std::optional<T>()>;

template <typename T>
Gen<T> counter(T start, T step) {
    return [cur = start, step]() mutable -> std::optional<T> {
        T v = cur;
        cur += step;
        return v;
    };
}

template <typename T, typename F>
auto map_gen(Gen<T> g, F f) -> Gen<decltype(f(std::declval<T>()))> {
    using R = decltype(f(std::declval<T>()));
    return [g, f]() mutable -> std::optional<R> {
        auto v = g();
        if (!v)
            return std::nullopt;
        return f(*v);
    };
}

template <typename T, typename P>
Gen<T> filter_gen(Gen<T> g, P pred) {
    return [g, pred]() mutable -> std::optional<T> {
        for (;;) {
            auto v = g();
            if (!v || pred(*v))
                return v;
        }
    };
}

template <typename T>
Gen<T> take_gen(Gen<T> g, int n) {
    return [g, n]() mutable -> std::optional<T> {
        if (n-- <= 0)
            return std::nullopt;
        return g();
    };
}

template <typename T>
std::vector<T> collect(Gen<T> g) {
    std::vector<T> out;
    while (auto v = g())
        out.push_back(*v);
    return out;
}

// 5. Fibonacci words generator (string state).
class FibWords {
    std::string a_ = "0", b_ = "01";

public:
    std::string next() {
        std::string r = a_;
        std::string c = b_ + a_;
        a_ = std::move(b_);
        b_ = std::move(c);
        return r;
    }
};

int main() {
    PrimeGen pg;
    std::printf("primes:");
    for (int i = 0; i < 25; i++) {
        auto p = pg.next();
        std::printf(" %u", *p);
        acc(*p);
    }
    std::printf("\n");
    std::uint32_t p1000 = 0;
    for (int i = 25; i < 1000; i++)
        p1000 = *pg.next();
    std::printf("1000th prime %u\n", p1000);
    acc(p1000);

    PairGen pairs(5);
    std::printf("pairs:");
    int npairs = 0;
    while (auto pr = pairs.next()) {
        std::printf(" (%d,%d)", pr->first, pr->second);
        acc(static_cast<std::uint64_t>(pr->first * 10 + pr->second));
        npairs++;
    }
    std::printf(" -> %d, exhausted again: %d\n", npairs, !pairs.next().has_value());

    for (std::uint64_t s : {6ull, 27ull, 97ull}) {
        int steps = 0;
        std::uint64_t peak = 0;
        for (std::uint64_t v : Collatz(s)) {
            steps++;
            peak = v > peak ? v : peak;
        }
        std::printf("collatz(%llu): %d terms, peak %llu\n", static_cast<unsigned long long>(s), steps,
                    static_cast<unsigned long long>(peak));
        acc(static_cast<std::uint64_t>(steps) + peak);
    }

    auto squares_of_odds = take_gen<long>(
        map_gen(filter_gen<long>(counter<long>(1, 1), [](long v) { return v % 2 == 1; }), [](long v) { return v * v; }),
        10);
    std::printf("pipeline:");
    for (long v : collect(squares_of_odds)) {
        std::printf(" %ld", v);
        acc(static_cast<std::uint64_t>(v));
    }
    std::printf("\n");

    auto labels = take_gen<std::string>(
        map_gen(counter<int>(100, 37), [](int v) { return "L" + std::to_string(v % 97); }), 6);
    std::printf("labels:");
    for (auto &s : collect(labels))
        std::printf(" %s", s.c_str());
    std::printf("\n");

    FibWords fw;
    for (int i = 0; i < 8; i++) {
        std::string w = fw.next();
        if (w.size() <= 21)
            std::printf("fibword %d: %s\n", i, w.c_str());
        else
            std::printf("fibword %d: len %zu\n", i, w.size());
        acc(w.size());
    }
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
