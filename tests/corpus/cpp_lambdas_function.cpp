// Lambdas and std::function: value/reference/init/this captures, mutable and
// generic lambdas, recursive std::function, closures in containers, lambdas as
// function pointers, std::bind, bad_function_call, composition.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

static std::uint64_t g_sum = 11;
static void acc(std::uint64_t v) { g_sum = (g_sum ^ v) * 0x9e3779b97f4a7c15ull; }

struct Account {
    std::string owner;
    long balance = 0;
    std::vector<std::function<void(long)>> observers;
    std::function<bool(long)> make_withdrawer() {
        return [this](long amt) {   // captures this
            if (amt > balance)
                return false;
            balance -= amt;
            for (auto &o : observers)
                o(balance);
            return true;
        };
    }
};

template <typename F, typename G>
auto compose(F f, G g) {
    return [f, g](auto x) { return f(g(x)); };
}

static int apply_fp(int (*fp)(int), int v) { return fp(v); }

static long three_args(long a, long b, long c) { return a * 100 + b * 10 + c; }

int main() {
    // capture by value vs reference
    int base = 10;
    auto by_val = [base](int x) { return base + x; };
    auto by_ref = [&base](int x) { return base + x; };
    base = 20;
    std::printf("by value %d, by reference %d\n", by_val(1), by_ref(1));
    acc(static_cast<std::uint64_t>(by_val(1) * 100 + by_ref(1)));

    // mutable lambda with its own state; copies have independent state
    auto counter = [n = 0]() mutable { return ++n; };
    auto copy = counter;
    counter();
    counter();
    std::printf("mutable: counter=%d copy=%d\n", counter(), copy());

    // init-capture with move of a unique_ptr
    auto up = std::make_unique<std::vector<int>>(std::vector<int>{5, 6, 7});
    auto owns = [v = std::move(up)]() { return std::accumulate(v->begin(), v->end(), 0); };
    std::printf("init-capture move: sum=%d, source empty=%d\n", owns(), up == nullptr);
    acc(static_cast<std::uint64_t>(owns()));

    // generic lambda
    auto twice = [](auto x) { return x + x; };
    std::printf("generic: %d %s %.1f\n", twice(21), twice(std::string("ab")).c_str(), twice(1.25));

    // recursive std::function
    std::function<std::uint64_t(unsigned)> fact = [&fact](unsigned n) -> std::uint64_t {
        return n <= 1 ? 1 : n * fact(n - 1);
    };
    std::printf("recursive fact(15)=%llu\n", static_cast<unsigned long long>(fact(15)));
    acc(fact(15));

    // table of operations
    std::map<std::string, std::function<long(long, long)>> ops;
    ops["add"] = [](long a, long b) { return a + b; };
    ops["sub"] = std::minus<long>();
    ops["mul"] = [](long a, long b) { return a * b; };
    ops["pow"] = [](long a, long b) {
        long r = 1;
        while (b-- > 0)
            r *= a;
        return r;
    };
    for (const auto &kv : ops) {
        long r = kv.second(7, 3);
        std::printf("op %s(7,3)=%ld\n", kv.first.c_str(), r);
        acc(static_cast<std::uint64_t>(r));
    }

    // std::function empty state, target check, reassignment
    std::function<int(int)> f;
    std::printf("empty function: %d\n", static_cast<bool>(f) ? 1 : 0);
    try {
        f(1);
    } catch (const std::bad_function_call &) {
        std::printf("bad_function_call caught\n");
    }
    f = [](int x) { return x * 3; };
    std::printf("assigned: %d\n", f(14));

    // lambda -> function pointer (captureless)
    int (*fp)(int) = [](int x) { return x * x - 1; };
    std::printf("fnptr from lambda: %d %d\n", apply_fp(fp, 9), apply_fp(+[](int x) { return -x; }, 9));

    // std::bind with placeholders
    using namespace std::placeholders;
    auto b1 = std::bind(three_args, _2, 5, _1);
    std::printf("bind: %ld\n", b1(1, 9));
    acc(static_cast<std::uint64_t>(b1(1, 9)));

    // composition and algorithms
    auto inc = [](int x) { return x + 1; };
    auto sq = [](int x) { return x * x; };
    auto sq_then_inc = compose(inc, sq);
    auto inc_then_sq = compose(sq, inc);
    std::printf("compose: %d %d\n", sq_then_inc(5), inc_then_sq(5));

    std::vector<int> data(20);
    std::iota(data.begin(), data.end(), -7);
    int threshold = 4;
    auto cnt = std::count_if(data.begin(), data.end(), [threshold](int v) { return v > threshold || v < -threshold; });
    std::vector<int> out;
    std::transform(data.begin(), data.end(), std::back_inserter(out), [&](int v) { return v * threshold; });
    std::sort(out.begin(), out.end(), [](int a, int b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b) || ((a < 0 ? -a : a) == (b < 0 ? -b : b) && a < b); });
    std::printf("count_if=%ld sorted by |v|:", static_cast<long>(cnt));
    for (int v : out) {
        std::printf(" %d", v);
        acc(static_cast<std::uint64_t>(v + 1000));
    }
    std::printf("\n");

    // capturing this, and observers capturing by reference
    Account acct{"ann", 100, {}};
    std::vector<long> history;
    acct.observers.push_back([&history](long bal) { history.push_back(bal); });
    int notifications = 0;
    acct.observers.push_back([&notifications](long) { ++notifications; });
    auto withdraw = acct.make_withdrawer();
    int okc = 0;
    for (long amt : {30L, 50L, 40L, 20L, 5L})
        okc += withdraw(amt);
    std::printf("account: ok=%d balance=%ld notifications=%d history:", okc, acct.balance, notifications);
    for (long h : history)
        std::printf(" %ld", h);
    std::printf("\n");
    acc(static_cast<std::uint64_t>(acct.balance * 10 + notifications));

    // immediately-invoked lambda for const init
    const auto table = [] {
        std::vector<int> t;
        for (int i = 0; i < 10; i++)
            t.push_back(i * i % 7);
        return t;
    }();
    std::printf("iife table:");
    for (int v : table)
        std::printf(" %d", v);
    std::printf("\n");

    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
