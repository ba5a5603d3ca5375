// Virtual dispatch: abstract bases, multi-level overrides, multiple inheritance
// (this-adjusting thunks), virtual inheritance diamonds, covariant returns,
// virtual destructors, final, pointers to (virtual) member functions.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

static std::uint64_t g_sum = 17;
static void acc(std::uint64_t v) { g_sum = g_sum * 0x100000001b3ull ^ v; }

struct Shape {
    virtual ~Shape() { std::printf("  ~Shape\n"); }
    virtual long area() const = 0;
    virtual std::string name() const { return "shape"; }
    virtual Shape *clone() const = 0;
    long scaled_area(int k) const { return area() * k; }  // non-virtual calling virtual
};

struct Rect : Shape {
    long w, h;
    Rect(long w_, long h_) : w(w_), h(h_) {}
    ~Rect() override { std::printf("  ~Rect %ldx%ld\n", w, h); }
    long area() const override { return w * h; }
    std::string name() const override { return "rect"; }
    Rect *clone() const override { return new Rect(*this); }   // covariant return
};

struct Square final : Rect {
    explicit Square(long s) : Rect(s, s) {}
    ~Square() override { std::printf("  ~Square\n"); }
    std::string name() const override { return "square"; }
    Square *clone() const override { return new Square(*this); }
};

struct Tri : Shape {
    long b, h;
    Tri(long b_, long h_) : b(b_), h(h_) {}
    long area() const override { return b * h / 2; }
    std::string name() const override { return "tri"; }
    Tri *clone() const override { return new Tri(*this); }
};

// Multiple inheritance: two independent interfaces.
struct Printable {
    virtual ~Printable() = default;
    virtual std::string describe() const = 0;
    int pad_p = 1;
};
struct Countable {
    virtual ~Countable() = default;
    virtual int count() const = 0;
    virtual int twice() const { return 2 * count(); }
    int pad_c = 2;
};
struct Bag : Printable, Countable {
    std::vector<int> items;
    explicit Bag(std::vector<int> v) : items(std::move(v)) {}
    std::string describe() const override { return "bag of " + std::to_string(items.size()); }
    int count() const override { return static_cast<int>(items.size()); }
};

// Virtual inheritance diamond.
struct Base {
    int id;
    explicit Base(int i) : id(i) { std::printf("  Base(%d)\n", i); }
    virtual ~Base() = default;
    virtual int value() const { return id; }
    virtual const char *who() const { return "Base"; }
};
struct Left : virtual Base {
    int l = 10;
    Left() : Base(-1) { std::printf("  Left, who() during ctor = %s\n", who()); }
    int value() const override { return Base::value() + l; }
    const char *who() const override { return "Left"; }
};
struct Right : virtual Base {
    int r = 100;
    Right() : Base(-2) { std::printf("  Right\n"); }
    const char *who() const override { return "Right"; }
    virtual int right_only() const { return r + id; }
};
struct Diamond : Left, Right {
    int d = 1000;
    Diamond() : Base(7) { std::printf("  Diamond\n"); }   // most-derived initialises the vbase
    int value() const override { return Left::value() + r + d; }
    const char *who() const override { return "Diamond"; }
};

static int via_base(const Base &b) { return b.value(); }
static int via_right(const Right &r) { return r.right_only() + r.value(); }

struct Calc {
    int base;
    int add(int x) const { return base + x; }
    virtual int mul(int x) const { return base * x; }
    virtual ~Calc() = default;
};
struct Calc2 : Calc {
    int mul(int x) const override { return base * x + 1; }
};

int main() {
    std::printf("shapes:\n");
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.emplace_back(new Rect(3, 4));
    shapes.emplace_back(new Square(5));
    shapes.emplace_back(new Tri(6, 7));
    for (std::size_t i = 0, n = shapes.size(); i < n; i++)
        shapes.emplace_back(shapes[i]->clone());
    for (auto &s : shapes) {
        std::printf("  %s area=%ld x3=%ld\n", s->name().c_str(), s->area(), s->scaled_area(3));
        acc(static_cast<std::uint64_t>(s->area()));
    }
    std::printf("destroying clones:\n");
    shapes.resize(3);
    std::unique_ptr<Rect> rc(static_cast<Square *>(shapes[1].get())->clone());
    std::printf("covariant clone is %s area %ld\n", rc->name().c_str(), rc->area());
    rc.reset();

    std::printf("multiple inheritance:\n");
    Bag bag({1, 2, 3, 4, 5});
    Printable *pp = &bag;
    Countable *cp = &bag;
    std::printf("  %s, count=%d twice=%d, distinct-subobjects=%d\n", pp->describe().c_str(), cp->count(),
                cp->twice(), static_cast<void *>(pp) != static_cast<void *>(cp));
    std::unique_ptr<Countable> owned(new Bag({9, 9}));   // delete through second base: thunk adjusts
    std::printf("  owned count=%d\n", owned->count());
    acc(static_cast<std::uint64_t>(cp->twice() + owned->count()));
    owned.reset();

    std::printf("diamond:\n");
    Diamond dm;
    std::printf("  id=%d value=%d via_base=%d via_right=%d who=%s\n", dm.id, dm.value(), via_base(dm), via_right(dm),
                static_cast<Base &>(dm).who());
    Left &lref = dm;
    Right &rref = dm;
    std::printf("  same vbase through both paths: %d\n", &static_cast<Base &>(lref) == &static_cast<Base &>(rref));
    acc(static_cast<std::uint64_t>(dm.value() + via_right(dm)));

    Left solo;
    std::printf("  solo Left: id=%d value=%d who=%s\n", solo.id, solo.value(), solo.who());
    acc(static_cast<std::uint64_t>(solo.value() + 50));

    std::printf("member pointers:\n");
    int (Calc::*pm_add)(int) const = &Calc::add;
    int (Calc::*pm_mul)(int) const = &Calc::mul;
    int Calc::*pm_base = &Calc::base;
    Calc c1;
    c1.base = 6;
    Calc2 c2;
    c2.base = 6;
    const Calc &cref = c2;
    std::printf("  add=%d mul=%d virtual-mul-on-derived=%d base-field=%d\n", (c1.*pm_add)(4), (c1.*pm_mul)(4),
                (cref.*pm_mul)(4), c2.*pm_base);
    acc(static_cast<std::uint64_t>((cref.*pm_mul)(4)));

    std::printf("end of main (remaining shapes destroyed next)\n");
    std::printf("checksum %llu\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
