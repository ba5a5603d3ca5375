// Move semantics and smart pointers: rule-of-five class counting copies/moves,
// moves into containers, unique_ptr (custom deleter, arrays, release),
// shared_ptr/weak_ptr graphs, enable_shared_from_this, aliasing constructor.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

static std::uint64_t g_sum = 29;
static void acc(std::uint64_t v) { g_sum = g_sum * 1000003u ^ v; }

struct Buffer {
    static int live, copies, moves;
    std::size_t n = 0;
    int *data = nullptr;

    Buffer() { ++live; }
    explicit Buffer(std::size_t sz) : n(sz), data(new int[sz]) {
        ++live;
        for (std::size_t i = 0; i < n; i++)
            data[i] = static_cast<int>(i * 3);
    }
    Buffer(const Buffer &o) : n(o.n), data(o.n ? new int[o.n] : nullptr) {
        ++live;
        ++copies;
        if (n)
            std::memcpy(data, o.data, n * sizeof(int));
    }
    Buffer(Buffer &&o) noexcept : n(o.n), data(o.data) {
        ++live;
        ++moves;
        o.n = 0;
        o.data = nullptr;
    }
    Buffer &operator=(const Buffer &o) {
        if (this != &o) {
            Buffer tmp(o);
            swap(tmp);
        }
        return *this;
    }
    Buffer &operator=(Buffer &&o) noexcept {
        if (this != &o) {
            delete[] data;
            n = o.n;
            data = o.data;
            o.n = 0;
            o.data = nullptr;
            ++moves;
        }
        return *this;
    }
    ~Buffer() {
        delete[] data;
        --live;
    }
    void swap(Buffer &o) noexcept {
        std::swap(n, o.n);
        std::swap(data, o.data);
    }
    long sum() const {
        long s = 0;
        for (std::size_t i = 0; i < n; i++)
            s += data[i];
        return s;
    }
};
int Buffer::live = 0, Buffer::copies = 0, Buffer::moves = 0;

static Buffer make_buffer(std::size_t n) { return Buffer(n); }   // guaranteed elision (C++17)

static void report(const char *what) {
    std::printf("%-28s live=%d copies=%d moves=%d\n", what, Buffer::live, Buffer::copies, Buffer::moves);
    acc(static_cast<std::uint64_t>(Buffer::live * 10000 + Buffer::copies * 100 + Buffer::moves));
}

struct Node : std::enable_shared_from_this<Node> {
    static int alive;
    std::string name;
    std::vector<std::shared_ptr<Node>> children;
    std::weak_ptr<Node> parent;
    explicit Node(std::string n) : name(std::move(n)) { ++alive; }
    ~Node() { --alive; }
    std::shared_ptr<Node> add_child(const std::string &n) {
        auto c = std::make_shared<Node>(n);
        c->parent = shared_from_this();
        children.push_back(c);
        return c;
    }
    std::string path() const {
        auto p = parent.lock();
        return p ? p->path() + "/" + name : name;
    }
};
int Node::alive = 0;

static int freed_by_deleter = 0;
struct CountingDeleter {
    void operator()(int *p) const {
        ++freed_by_deleter;
        delete p;
    }
};

int main() {
    {
        Buffer a(10);
        Buffer b = a;                 // copy
        Buffer c = std::move(a);      // move
        report("copy + move construct");
        std::printf("  a.n=%zu b.sum=%ld c.sum=%ld\n", a.n, b.sum(), c.sum());
        a = c;                        // copy assign
        b = std::move(c);             // move assign
        report("copy + move assign");
        Buffer d = make_buffer(100);  // elided: no copy/move
        report("prvalue elision");
        acc(static_cast<std::uint64_t>(d.sum() + a.sum() + b.sum()));

        std::vector<Buffer> vec;
        for (int i = 0; i < 9; i++)
            vec.push_back(Buffer(static_cast<std::size_t>(i + 1)));   // moves; growth uses noexcept move
        report("vector push_back x9");
        vec.emplace_back(5);
        vec.erase(vec.begin() + 2);     // move-assigns the tail down
        long total = 0;
        for (auto &x : vec)
            total += x.sum();
        std::printf("  vector total %ld size %zu\n", total, vec.size());
        acc(static_cast<std::uint64_t>(total));
        std::swap(vec[0], vec[1]);
        report("after emplace/erase/swap");
    }
    report("all buffers destroyed");

    // unique_ptr
    {
        std::unique_ptr<int, CountingDeleter> p(new int(41));
        std::unique_ptr<int, CountingDeleter> q = std::move(p);
        ++*q;
        std::printf("unique_ptr: p null=%d q=%d\n", p == nullptr, *q);
        q.reset(new int(7));
        std::printf("after reset deleter calls=%d\n", freed_by_deleter);
        std::unique_ptr<int[]> arr(new int[16]);
        for (int i = 0; i < 16; i++)
            arr[i] = i * i;
        long s = 0;
        for (int i = 0; i < 16; i++)
            s += arr[i];
        std::printf("unique_ptr<int[]> sum %ld\n", s);
        acc(static_cast<std::uint64_t>(s));
        std::vector<std::unique_ptr<Buffer>> owners;
        for (int i = 0; i < 4; i++)
            owners.push_back(std::make_unique<Buffer>(static_cast<std::size_t>(4 - i)));
        std::unique_ptr<Buffer> stolen = std::move(owners[1]);
        std::printf("stolen sum %ld, slot empty %d\n", stolen->sum(), owners[1] == nullptr);
        Buffer *raw = owners[3].release();
        delete raw;
    }
    std::printf("deleter calls at scope end=%d\n", freed_by_deleter);
    report("after unique_ptr block");

    // shared_ptr / weak_ptr
    std::weak_ptr<Node> watch;
    {
        auto root = std::make_shared<Node>("root");
        auto usr = root->add_child("usr");
        auto bin = usr->add_child("bin");
        auto lib = usr->add_child("lib");
        root->add_child("etc");
        watch = bin;
        std::printf("paths: %s %s\n", bin->path().c_str(), lib->path().c_str());
        std::printf("use_count usr=%ld root=%ld alive=%d\n", usr.use_count(), root.use_count(), Node::alive);
        std::shared_ptr<Node> alias = bin->shared_from_this();
        std::printf("shared_from_this use_count=%ld\n", alias.use_count());
        acc(static_cast<std::uint64_t>(usr.use_count() * 10 + Node::alive));
        usr.reset();
        std::printf("after usr.reset: watch expired=%d alive=%d\n", watch.expired(), Node::alive);
    }
    std::printf("after scope: watch expired=%d alive=%d\n", watch.expired(), Node::alive);
    acc(static_cast<std::uint64_t>(Node::alive) + (watch.expired() ? 1 : 0));

    // shared_ptr with custom deleter and aliasing constructor
    {
        auto pair_sp = std::make_shared<std::pair<int, std::string>>(5, "five");
        std::shared_ptr<std::string> member(pair_sp, &pair_sp->second);
        pair_sp.reset();
        std::printf("aliasing ptr keeps owner alive: %s use_count=%ld\n", member->c_str(), member.use_count());
        std::shared_ptr<int> custom(new int(3), [](int *p) {
            std::printf("custom shared deleter sees %d\n", *p);
            delete p;
        });
        auto c2 = custom;
        *c2 += 10;
    }

    std::printf("checksum %llu\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
