// Two-file C++ program (with b.cpp): exceptions and typeinfo/vtables defined in
// one TU and used in the other, callbacks that throw back through b.cpp,
// and a template explicitly instantiated in b.cpp.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

// ---- shared declarations (must match b.cpp) ----
struct PluginError : std::runtime_error {
    int code;
    PluginError(const std::string &m, int c);
    ~PluginError() override;   // key function defined in b.cpp
};
struct Plugin {
    virtual ~Plugin();
    virtual std::string name() const = 0;
    virtual long run(long x) = 0;   // may throw PluginError
};
Plugin *make_plugin(int kind);
void destroy_plugin(Plugin *p);
long b_call_with_cleanup(long (*cb)(long), long x, std::vector<std::string> &log);
template <typename T>
T clamp_sum(const std::vector<T> &v, T lo, T hi);
extern template int clamp_sum<int>(const std::vector<int> &, int, int);
extern template long clamp_sum<long>(const std::vector<long> &, long, long);
// ----

static std::uint64_t g_sum = 31;
static void acc(std::uint64_t v) { g_sum = g_sum * 1000003u + v; }

struct LocalGuard {
    std::vector<std::string> &log;
    const char *tag;
    LocalGuard(std::vector<std::string> &l, const char *t) : log(l), tag(t) { log.push_back(std::string("enter ") + t); }
    ~LocalGuard() { log.push_back(std::string("leave ") + tag); }
};

static long cb_ok(long x) { return x * 3; }
static long cb_throw(long x) {
    if (x > 10)
        throw std::out_of_range("cb_throw: " + std::to_string(x));
    return x;
}

int main() {
    for (int kind = 0; kind < 3; kind++) {
        Plugin *p = make_plugin(kind);
        std::printf("plugin %s:\n", p->name().c_str());
        for (long x : {1L, 5L, 13L}) {
            try {
                long r = p->run(x);
                std::printf("  run(%ld) = %ld\n", x, r);
                acc(static_cast<std::uint64_t>(r));
            } catch (const PluginError &e) {   // typeinfo from b.cpp
                std::printf("  run(%ld) PluginError '%s' code %d\n", x, e.what(), e.code);
                acc(static_cast<std::uint64_t>(e.code));
            } catch (const std::exception &e) {
                std::printf("  run(%ld) std::exception '%s'\n", x, e.what());
                acc(1);
            }
        }
        destroy_plugin(p);
    }

    std::vector<std::string> log;
    for (long x : {4L, 20L}) {
        for (auto cb : {cb_ok, cb_throw}) {
            try {
                LocalGuard g(log, "a-main");
                long r = b_call_with_cleanup(cb, x, log);
                std::printf("callback(%ld) -> %ld\n", x, r);
                acc(static_cast<std::uint64_t>(r));
            } catch (const std::out_of_range &e) {
                std::printf("callback(%ld) threw through b.cpp: %s\n", x, e.what());
                acc(99);
            }
        }
    }
    std::printf("cleanup log:");
    for (auto &s : log)
        std::printf(" [%s]", s.c_str());
    std::printf("\n");

    std::printf("clamp_sum<int>=%d clamp_sum<long>=%ld\n", clamp_sum<int>({1, 50, -70, 8}, -10, 10),
                clamp_sum<long>({100000000000L, -3L, 7L}, -5L, 1000L));
    acc(static_cast<std::uint64_t>(clamp_sum<int>({1, 50, -70, 8}, -10, 10)));
    std::printf("checksum %llu\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
