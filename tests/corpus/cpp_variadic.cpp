// Variadic templates: recursive unpacking, fold expressions, pack expansion,
// perfect forwarding, std::tuple/std::apply/index_sequence, a type-safe
// format(), and a recursive variadic class template (own tuple).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

static std::uint64_t g_sum = 13;
static void acc(std::uint64_t v) { g_sum = (g_sum + v) * 0xff51afd7ed558ccdull; }

// recursive sum (pre-fold style)
template <typename T>
T sum_rec(T v) { return v; }
template <typename T, typename... Rest>
T sum_rec(T first, Rest... rest) { return first + sum_rec<T>(rest...); }

// folds
template <typename... Ts>
auto sum_fold(Ts... vs) { return (vs + ... + 0); }
template <typename... Ts>
bool all_positive(Ts... vs) { return ((vs > 0) && ...); }
template <typename... Ts>
auto sub_left(Ts... vs) { return (... - vs); }      // ((a - b) - c) ...
template <typename... Ts>
auto sub_right(Ts... vs) { return (vs - ...); }     // a - (b - (c ...))
template <typename... Ts>
std::size_t total_size(const Ts &...vs) { return (vs.size() + ...); }

// type-safe formatting: each argument converted via overloaded to_text
static std::string to_text(int v) { return std::to_string(v); }
static std::string to_text(long v) { return std::to_string(v) + "L"; }
static std::string to_text(double v) { return std::to_string(static_cast<long>(v * 100)) + "e-2"; }
static std::string to_text(const char *s) { return std::string("\"") + s + "\""; }
static std::string to_text(const std::string &s) { return "s\"" + s + "\""; }
static std::string to_text(bool b) { return b ? "true" : "false"; }

static void format_impl(std::string &out, const char *fmt) { out += fmt; }
template <typename T, typename... Rest>
void format_impl(std::string &out, const char *fmt, const T &v, const Rest &...rest) {
    for (; *fmt; ++fmt) {
        if (fmt[0] == '{' && fmt[1] == '}') {
            out += to_text(v);
            format_impl(out, fmt + 2, rest...);
            return;
        }
        out += *fmt;
    }
    out += " [extra args: " + std::to_string(1 + sizeof...(rest)) + "]";
}
template <typename... Args>
std::string format(const char *fmt, const Args &...args) {
    std::string out;
    format_impl(out, fmt, args...);
    return out;
}

// perfect forwarding factory that counts copies vs moves
struct Tracked {
    static int copies, moves;
    std::string s;
    int n;
    Tracked(std::string str, int k) : s(std::move(str)), n(k) {}
    Tracked(const Tracked &o) : s(o.s), n(o.n) { ++copies; }
    Tracked(Tracked &&o) noexcept : s(std::move(o.s)), n(o.n) { ++moves; }
};
int Tracked::copies = 0, Tracked::moves = 0;

template <typename T, typename... Args>
std::unique_ptr<T> make(Args &&...args) { return std::unique_ptr<T>(new T(std::forward<Args>(args)...)); }

struct Holder {
    Tracked a, b;
    template <typename A, typename B>
    Holder(A &&x, B &&y) : a(std::forward<A>(x)), b(std::forward<B>(y)) {}
};

// index_sequence: reverse a tuple, call with tuple elements
template <typename Tuple, std::size_t... I>
auto reverse_impl(const Tuple &t, std::index_sequence<I...>) {
    constexpr std::size_t N = sizeof...(I);
    return std::make_tuple(std::get<N - 1 - I>(t)...);
}
template <typename... Ts>
auto reverse_tuple(const std::tuple<Ts...> &t) { return reverse_impl(t, std::index_sequence_for<Ts...>{}); }

template <typename Tuple, std::size_t... I>
std::string tuple_text(const Tuple &t, std::index_sequence<I...>) {
    std::string out = "(";
    ((out += (I ? ", " : "") + to_text(std::get<I>(t))), ...);
    return out + ")";
}
template <typename... Ts>
std::string tuple_text(const std::tuple<Ts...> &t) { return tuple_text(t, std::index_sequence_for<Ts...>{}); }

// own recursive tuple
template <typename... Ts>
struct MyTuple;
template <>
struct MyTuple<> {
    static constexpr std::size_t size = 0;
};
template <typename H, typename... T>
struct MyTuple<H, T...> : MyTuple<T...> {
    H head;
    static constexpr std::size_t size = 1 + sizeof...(T);
    MyTuple(H h, T... t) : MyTuple<T...>(t...), head(h) {}
    MyTuple<T...> &tail() { return *this; }
};
template <std::size_t I, typename H, typename... T>
auto &my_get(MyTuple<H, T...> &t) {
    if constexpr (I == 0)
        return t.head;
    else
        return my_get<I - 1>(t.tail());
}

// apply a callable to every argument, collecting results in order
template <typename F, typename... Args>
auto map_args(F f, Args &&...args) {
    return std::vector<decltype(f(0))>{f(std::forward<Args>(args))...};
}

template <typename... Ts>
constexpr std::size_t count_integral() { return (0 + ... + (std::is_integral<Ts>::value ? 1 : 0)); }

int main() {
    std::printf("sum_rec %d, sum_fold %ld, all_positive %d %d\n", sum_rec(1, 2, 3, 4, 5), sum_fold(1L, 2, 3, 40L),
                all_positive(1, 2.5, 3L), all_positive(1, -2, 3));
    std::printf("sub_left %d sub_right %d, total_size %zu\n", sub_left(100, 20, 3), sub_right(100, 20, 3),
                total_size(std::string("abc"), std::vector<int>(4), std::string("de")));
    acc(static_cast<std::uint64_t>(sum_fold(1, 2, 3) + sub_left(100, 20, 3) + sub_right(100, 20, 3)));

    std::string f1 = format("x={} y={} name={} ok={} pi~{}", 42, 7L, "bob", true, 3.14159);
    std::string f2 = format("{} and {}", std::string("str"), -1);
    std::string f3 = format("too many {}", 1, 2, 3);
    std::printf("%s\n%s\n%s\n", f1.c_str(), f2.c_str(), f3.c_str());
    acc(f1.size() + f2.size() * 100 + f3.size() * 10000);

    std::string name = "lvalue-name";
    Holder h1(Tracked("tmp", 1), Tracked(name, 2));   // both rvalues -> moves
    Tracked keep("kept", 3);
    Holder h2(keep, std::move(keep));                  // copy, then move
    auto up = make<Tracked>(std::string("made"), 4);
    std::printf("forwarding: copies=%d moves=%d h2.a=%s h2.b=%s keep-after-move-empty=%d up=%s/%d\n", Tracked::copies,
                Tracked::moves, h2.a.s.c_str(), h2.b.s.c_str(), keep.s.empty(), up->s.c_str(), up->n);
    acc(static_cast<std::uint64_t>(Tracked::copies * 10 + Tracked::moves));

    auto t = std::make_tuple(1, std::string("two"), 3.5, false, 5L);
    auto r = reverse_tuple(t);
    std::printf("tuple %s reversed %s\n", tuple_text(t).c_str(), tuple_text(r).c_str());
    int applied = std::apply([](auto... xs) { return static_cast<int>(sizeof...(xs)); }, t);
    long prod = std::apply([](auto a, auto b, auto c) { return a * b * c; }, std::make_tuple(3L, 4L, 5L));
    std::printf("apply arity %d product %ld\n", applied, prod);
    acc(static_cast<std::uint64_t>(prod + applied));

    MyTuple<int, char, long, std::string> mt(10, 'z', 1234567890123L, "tail");
    my_get<0>(mt) += 5;
    my_get<3>(mt) += "!";
    std::printf("MyTuple size %zu: %d %c %ld %s\n", decltype(mt)::size, my_get<0>(mt), my_get<1>(mt), my_get<2>(mt),
                my_get<3>(mt).c_str());
    acc(static_cast<std::uint64_t>(my_get<2>(mt)));

    auto squares = map_args([](auto v) { return static_cast<long>(v) * static_cast<long>(v); }, 3, 4L, 'A', 2.0);
    std::printf("map_args:");
    for (long v : squares)
        std::printf(" %ld", v);
    std::printf("\ncount_integral<int,double,char,float,long>=%zu\n", count_integral<int, double, char, float, long>());
    for (long v : squares)
        acc(static_cast<std::uint64_t>(v));

    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
