// C++ static initialisation: dynamic init of globals in definition order in one
// TU, dependent globals, function-local statics, static members, inline
// variables, and global destructors printing in reverse order at exit.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static std::vector<std::string> *g_log;   // constant-initialised to nullptr
static unsigned long g_hash = 5381;

static void log_event(const std::string &s) {
    if (!g_log)
        g_log = new std::vector<std::string>;
    g_log->push_back(s);
    for (char c : s)
        g_hash = g_hash * 33 + static_cast<unsigned char>(c);
    std::printf("%s\n", s.c_str());
}

struct Noisy {
    std::string name;
    int value;
    Noisy(const char *n, int v) : name(n), value(v) { log_event("construct " + name + " = " + std::to_string(value)); }
    ~Noisy() { std::printf("destroy %s (value %d)\n", name.c_str(), value); }
};

constexpr int kConst = 6 * 7;                 // constant initialisation, no code
static int computed() { return kConst + 1; }
int g_dynamic = computed();                   // dynamic initialisation

Noisy first("first", g_dynamic);
Noisy second("second", first.value * 2);      // depends on 'first' (earlier in TU)

struct Registry {
    static std::vector<int> &items() {
        static std::vector<int> v;            // function-local static: constructed on first use
        return v;
    }
    static int counter;
};
int Registry::counter = 100;

struct AutoRegister {
    AutoRegister(int id) {
        Registry::items().push_back(id);
        Registry::counter += id;
        log_event("register " + std::to_string(id));
    }
};
static AutoRegister reg_a(3), reg_b(1), reg_c(4);

// C++17 inline variable: only "partially ordered" initialisation, so it must
// not log anything (its position relative to other initialisers is unspecified).
inline std::string inline_name = std::string("inline-") + "var";

namespace {
Noisy third("third", second.value + Registry::counter);
}

static Noisy &lazy() {
    static Noisy instance("lazy", 999);      // constructed at first call, destroyed at exit
    return instance;
}

template <typename T>
struct TypeCounter {
    static int count;
};
template <typename T>
int TypeCounter<T>::count = static_cast<int>(sizeof(T));

static void at_exit_handler() { std::printf("atexit handler (registered in main)\n"); }

struct LogOwner {
    ~LogOwner() {
        std::printf("log owner: %zu events, hash %lu\n", g_log ? g_log->size() : 0, g_hash);
        delete g_log;
        g_log = nullptr;
        std::printf("checksum %lu\n", g_hash);
    }
};
static LogOwner log_owner;   // defined after the Noisy globals: destroyed before them

int main() {
    log_event("main starts");
    std::printf("g_dynamic=%d first=%d second=%d third=%d\n", g_dynamic, first.value, second.value, third.value);
    std::printf("registry:");
    for (int v : Registry::items())
        std::printf(" %d", v);
    std::printf(" counter=%d\n", Registry::counter);
    std::printf("inline var %s\n", inline_name.c_str());
    std::printf("TypeCounter<double>=%d TypeCounter<char[7]>=%d\n", TypeCounter<double>::count, TypeCounter<char[7]>::count);
    std::atexit(at_exit_handler);
    std::printf("lazy first call: %d\n", lazy().value);
    lazy().value++;
    std::printf("lazy second call: %d\n", lazy().value);
    log_event("main ends");
    return 0;
}
