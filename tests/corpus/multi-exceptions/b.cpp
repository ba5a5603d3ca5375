// Second translation unit of multi-exceptions (see a.cpp).
#include <stdexcept>
#include <string>
#include <vector>

// ---- shared declarations (must match a.cpp) ----
struct PluginError : std::runtime_error {
    int code;
    PluginError(const std::string &m, int c);
    ~PluginError() override;
};
struct Plugin {
    virtual ~Plugin();
    virtual std::string name() const = 0;
    virtual long run(long x) = 0;
};
// ----

PluginError::PluginError(const std::string &m, int c) : std::runtime_error(m), code(c) {}
PluginError::~PluginError() = default;
Plugin::~Plugin() = default;

namespace {
struct Doubler : Plugin {
    std::string name() const override { return "doubler"; }
    long run(long x) override { return 2 * x; }
};
struct Picky : Plugin {
    std::string name() const override { return "picky"; }
    long run(long x) override {
        if (x % 5 == 0)
            throw PluginError("multiple of five: " + std::to_string(x), static_cast<int>(x));
        return x * x;
    }
};
struct Bounded : Plugin {
    long calls = 0;
    std::string name() const override { return "bounded"; }
    long run(long x) override {
        ++calls;
        if (x > 10)
            throw std::length_error("too long: " + std::to_string(x));
        return x + calls * 100;
    }
};
}  // namespace

Plugin *make_plugin(int kind) {
    switch (kind) {
    case 0: return new Doubler;
    case 1: return new Picky;
    default: return new Bounded;
    }
}

void destroy_plugin(Plugin *p) { delete p; }

struct BGuard {
    std::vector<std::string> &log;
    explicit BGuard(std::vector<std::string> &l) : log(l) { log.push_back("enter b"); }
    ~BGuard() { log.push_back("leave b"); }
};

long b_call_with_cleanup(long (*cb)(long), long x, std::vector<std::string> &log) {
    BGuard g(log);
    return cb(x) + 1;   // exceptions from cb unwind through this frame
}

template <typename T>
T clamp_sum(const std::vector<T> &v, T lo, T hi) {
    T s = 0;
    for (const T &e : v)
        s += e < lo ? lo : (e > hi ? hi : e);
    return s;
}
template int clamp_sum<int>(const std::vector<int> &, int, int);
template long clamp_sum<long>(const std::vector<long> &, long, long);
