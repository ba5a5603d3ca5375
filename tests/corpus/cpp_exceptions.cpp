// C++ exceptions: throw/catch across many frames, class hierarchies caught by
// base reference, rethrow (throw;), catch(...), RAII destructors during
// unwinding, function-try-blocks, nested exceptions, exception_ptr, noexcept.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

static std::uint64_t g_sum = 1;
static void acc(std::uint64_t v) { g_sum = g_sum * 1000003u + v; }

static int live_guards = 0;
struct Guard {
    std::string name;
    explicit Guard(std::string n) : name(std::move(n)) {
        ++live_guards;
        std::printf("  + %s\n", name.c_str());
    }
    ~Guard() {
        --live_guards;
        std::printf("  - %s%s\n", name.c_str(), std::uncaught_exceptions() ? " (unwinding)" : "");
        acc(name.size());
    }
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;
};

struct AppError : std::runtime_error {
    int code;
    AppError(const std::string &m, int c) : std::runtime_error(m), code(c) {}
};
struct IoError : AppError {
    IoError(const std::string &m) : AppError("io: " + m, 5) {}
};
struct ParseError : AppError {
    int line;
    ParseError(const std::string &m, int l) : AppError("parse: " + m, 7), line(l) {}
};

__attribute__((noinline)) static int level3(int mode) {
    Guard g("level3");
    switch (mode) {
    case 0: return 42;
    case 1: throw IoError("disk gone");
    case 2: throw ParseError("unexpected token", 17);
    case 3: throw std::out_of_range("index 9 >= 3");
    case 4: throw 12345;
    case 5: throw std::string("a std::string");
    default: throw AppError("generic", mode);
    }
}

__attribute__((noinline)) static int level2(int mode) {
    Guard g("level2");
    std::unique_ptr<Guard> owned(new Guard("heap-owned"));
    return level3(mode) + 1;
}

__attribute__((noinline)) static int level1(int mode) {
    Guard g("level1");
    try {
        return level2(mode);
    } catch (ParseError &e) {
        std::printf("  level1 saw ParseError line %d, rethrowing\n", e.line);
        e.line += 1000;  // modify the in-flight exception object
        throw;
    }
}

static void run_mode(int mode) {
    std::printf("mode %d:\n", mode);
    try {
        int r = level1(mode);
        std::printf("  returned %d\n", r);
        acc(static_cast<std::uint64_t>(r));
    } catch (const ParseError &e) {
        std::printf("  caught ParseError '%s' code=%d line=%d\n", e.what(), e.code, e.line);
        acc(static_cast<std::uint64_t>(e.line));
    } catch (const AppError &e) {
        std::printf("  caught AppError '%s' code=%d\n", e.what(), e.code);
        acc(static_cast<std::uint64_t>(e.code));
    } catch (const std::exception &e) {
        std::printf("  caught std::exception '%s'\n", e.what());
        acc(1);
    } catch (int v) {
        std::printf("  caught int %d\n", v);
        acc(static_cast<std::uint64_t>(v));
    } catch (...) {
        std::printf("  caught unknown (...)\n");
        try {
            throw;  // rethrow to inspect
        } catch (const std::string &s) {
            std::printf("  it was a std::string: %s\n", s.c_str());
            acc(s.size());
        }
    }
    std::printf("  live guards after: %d\n", live_guards);
}

// Function-try-block on a constructor: member init failure is observed and rethrown.
struct Member {
    explicit Member(int v) {
        if (v < 0)
            throw std::invalid_argument("negative member");
    }
};
struct Holder {
    Guard g;
    Member m;
    Holder(int v) try : g("holder-guard"), m(v) {
        std::printf("  Holder constructed\n");
    } catch (const std::exception &e) {
        std::printf("  Holder ctor function-try-block: %s\n", e.what());
        // implicitly rethrown
    }
};

static void nested_demo() {
    try {
        try {
            throw std::runtime_error("inner cause");
        } catch (...) {
            std::throw_with_nested(std::logic_error("outer wrapper"));
        }
    } catch (const std::exception &e) {
        std::printf("nested: %s\n", e.what());
        try {
            std::rethrow_if_nested(e);
        } catch (const std::exception &inner) {
            std::printf("nested cause: %s\n", inner.what());
            acc(7);
        }
    }
}

static std::exception_ptr capture(int k) {
    try {
        if (k % 2)
            throw std::overflow_error("odd " + std::to_string(k));
        throw std::underflow_error("even " + std::to_string(k));
    } catch (...) {
        return std::current_exception();
    }
}

static int safe_div(int a, int b) noexcept {
    try {
        if (b == 0)
            throw std::domain_error("div by zero");
        return a / b;
    } catch (const std::domain_error &) {
        return -1;  // must not escape a noexcept function
    }
}

// Exceptions crossing a function pointer and a lambda.
static int call_through(int (*fp)(int), int v) { return fp(v) * 2; }
static int may_throw(int v) {
    if (v > 3)
        throw v * 10;
    return v;
}

int main() {
    for (int mode = 0; mode <= 6; mode++)
        run_mode(mode);

    std::printf("holder(1):\n");
    try {
        Holder h(1);
    } catch (...) {
        std::printf("  unexpected\n");
    }
    std::printf("holder(-1):\n");
    try {
        Holder h(-1);
    } catch (const std::invalid_argument &e) {
        std::printf("  main caught: %s\n", e.what());
        acc(3);
    }

    nested_demo();

    std::vector<std::exception_ptr> eps;
    for (int k = 0; k < 4; k++)
        eps.push_back(capture(k));
    for (auto &ep : eps) {
        try {
            std::rethrow_exception(ep);
        } catch (const std::overflow_error &e) {
            std::printf("exception_ptr overflow: %s\n", e.what());
            acc(11);
        } catch (const std::underflow_error &e) {
            std::printf("exception_ptr underflow: %s\n", e.what());
            acc(13);
        }
    }

    std::printf("safe_div %d %d\n", safe_div(10, 3), safe_div(1, 0));
    int total = 0;
    for (int v = 0; v < 6; v++) {
        try {
            total += call_through(may_throw, v);
        } catch (int e) {
            total -= e;
        }
    }
    auto thrower = [](int n) -> int {
        Guard g("lambda");
        if (n)
            throw std::length_error("from lambda");
        return 0;
    };
    try {
        thrower(1);
    } catch (const std::length_error &e) {
        std::printf("lambda threw: %s\n", e.what());
    }
    std::printf("through fnptr total %d\n", total);
    acc(static_cast<std::uint64_t>(total + 1000));
    std::printf("live guards at end: %d\n", live_guards);
    std::printf("checksum %llu\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
