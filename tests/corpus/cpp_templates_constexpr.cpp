// Templates and constexpr: partial/full specialisation, SFINAE, if constexpr,
// non-type parameters, template metaprogramming, constexpr tables checked by
// static_assert, CRTP, template template parameters.
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

static std::uint64_t g_sum = 3;
static void acc(std::uint64_t v) { g_sum = g_sum * 6364136223846793005ull + v; }

// ---- constexpr computations ----
constexpr std::uint64_t fib(unsigned n) {
    std::uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; i++) {
        std::uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}
static_assert(fib(10) == 55, "fib");

constexpr bool is_prime(unsigned n) {
    if (n < 2) return false;
    for (unsigned d = 2; d * d <= n; d++)
        if (n % d == 0) return false;
    return true;
}

template <std::size_t N>
constexpr std::array<unsigned, N> first_primes() {
    std::array<unsigned, N> out{};
    unsigned c = 2;
    for (std::size_t i = 0; i < N; c++)
        if (is_prime(c))
            out[i++] = c;
    return out;
}
constexpr auto kPrimes = first_primes<20>();
static_assert(kPrimes[19] == 71, "20th prime");

constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; i++) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}
constexpr auto kCrc = make_crc_table();
static_assert(kCrc[1] == 0x77073096u, "crc table");

constexpr std::uint32_t crc32(const char *s, std::size_t n) {
    std::uint32_t c = 0xffffffffu;
    for (std::size_t i = 0; i < n; i++)
        c = kCrc[(c ^ static_cast<unsigned char>(s[i])) & 0xff] ^ (c >> 8);
    return ~c;
}
static_assert(crc32("123456789", 9) == 0xCBF43926u, "crc check value");

// ---- template metaprogramming ----
template <unsigned N>
struct Factorial { static constexpr std::uint64_t value = N * Factorial<N - 1>::value; };
template <>
struct Factorial<0> { static constexpr std::uint64_t value = 1; };

template <typename... Ts>
struct TypeList {};
template <typename L>
struct Length;
template <typename... Ts>
struct Length<TypeList<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};

template <typename T>
struct Describe { static const char *name() { return "other"; } };
template <>
struct Describe<int> { static const char *name() { return "int"; } };
template <typename T>
struct Describe<T *> { static std::string name() { return std::string("pointer to ") + Describe<T>::name(); } };
template <typename T, std::size_t N>
struct Describe<T[N]> {
    static std::string name() { return "array[" + std::to_string(N) + "] of " + std::string(Describe<T>::name()); }
};

// SFINAE overloads
template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
std::string kind(T v) { return "integral(" + std::to_string(v) + ")"; }
template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
std::string kind(T) { return "floating"; }
template <typename T, typename = decltype(std::declval<T>().size())>
std::string kind(const T &c) { return "container of " + std::to_string(c.size()); }

// if constexpr
template <typename T>
long long to_number(const T &v) {
    if constexpr (std::is_same_v<T, std::string>)
        return static_cast<long long>(v.size());
    else if constexpr (std::is_pointer_v<T>)
        return v ? 1 : 0;
    else if constexpr (std::is_integral_v<T>)
        return static_cast<long long>(v) * 2;
    else
        return -1;
}

// Fixed-size matrix with non-type parameters
template <typename T, int R, int C>
struct Mat {
    T a[R][C];
    template <int K>
    constexpr Mat<T, R, K> operator*(const Mat<T, C, K> &o) const {
        Mat<T, R, K> r{};
        for (int i = 0; i < R; i++)
            for (int j = 0; j < K; j++) {
                T s{};
                for (int k = 0; k < C; k++)
                    s += a[i][k] * o.a[k][j];
                r.a[i][j] = s;
            }
        return r;
    }
};
constexpr Mat<int, 2, 3> kA{{{1, 2, 3}, {4, 5, 6}}};
constexpr Mat<int, 3, 2> kB{{{7, 8}, {9, 10}, {11, 12}}};
constexpr auto kAB = kA * kB;
static_assert(kAB.a[1][1] == 154, "matrix product at compile time");

// CRTP
template <typename Derived>
struct Counter {
    int hits = 0;
    int hit() { return static_cast<Derived *>(this)->weight() + (++hits); }
};
struct Light : Counter<Light> { int weight() const { return 1; } };
struct Heavy : Counter<Heavy> { int weight() const { return 100; } };

// Template template parameter
template <template <typename...> class Cont, typename T>
Cont<T> make_seq(T start, int n) {
    Cont<T> c;
    for (int i = 0; i < n; i++)
        c.push_back(static_cast<T>(start + i));
    return c;
}

template <typename T>
constexpr T gcd(T a, T b) { return b == T{} ? a : gcd(b, static_cast<T>(a % b)); }

int main() {
    std::printf("fib(90)=%llu (constexpr)\n", static_cast<unsigned long long>(fib(90)));
    volatile unsigned rn = 90;
    std::printf("fib(90)=%llu (runtime)\n", static_cast<unsigned long long>(fib(rn)));
    acc(fib(90));

    std::printf("primes:");
    for (unsigned p : kPrimes)
        std::printf(" %u", p);
    std::printf("\n");
    std::printf("crc32('hello') = %08x, table[255]=%08x\n", crc32("hello", 5), kCrc[255]);
    acc(crc32("hello", 5));

    std::printf("20! = %llu\n", static_cast<unsigned long long>(Factorial<20>::value));
    std::printf("typelist length %zu\n", Length<TypeList<int, char, double, void *, long>>::value);
    std::printf("describe: %s | %s | %s | %s\n", Describe<int>::name(), Describe<int *>::name().c_str(),
                Describe<int[4]>::name().c_str(), Describe<double>::name());
    acc(Factorial<20>::value);

    std::vector<int> v{1, 2, 3};
    std::printf("kind: %s %s %s\n", kind(42).c_str(), kind(2.5).c_str(), kind(v).c_str());
    std::string s = "seven";
    int x = 5;
    std::printf("to_number: %lld %lld %lld %lld\n", to_number(s), to_number(&x), to_number(21), to_number(1.5));
    acc(static_cast<std::uint64_t>(to_number(s) + to_number(21)));

    std::printf("matrix AB = [[%d %d] [%d %d]]\n", kAB.a[0][0], kAB.a[0][1], kAB.a[1][0], kAB.a[1][1]);
    Mat<long, 2, 2> m{{{1, 1}, {1, 0}}};
    Mat<long, 2, 2> p = m;
    for (int i = 0; i < 30; i++)
        p = p * m;
    std::printf("fib via matrix power: %ld\n", p.a[0][1]);
    acc(static_cast<std::uint64_t>(p.a[0][1]));

    Light l;
    Heavy h;
    int tot = 0;
    for (int i = 0; i < 3; i++)
        tot += l.hit() + h.hit();
    std::printf("crtp total %d\n", tot);
    acc(static_cast<std::uint64_t>(tot));

    auto seq = make_seq<std::vector>(10, 5);
    long ssum = 0;
    for (int e : seq)
        ssum += e;
    std::printf("make_seq sum %ld, gcd<long>(1071,462)=%ld gcd<unsigned>=%u\n", ssum, gcd<long>(1071, 462),
                gcd<unsigned>(270u, 192u));
    static_assert(gcd(48, 18) == 6, "constexpr gcd");
    acc(static_cast<std::uint64_t>(ssum));

    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
