// Operator overloading: arithmetic/compound/comparison operators on a rational
// and a 256-bit integer, pre/post increment, subscript, call and conversion
// operators, chained operator<<, user-defined literals, sorting by operator<.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

static std::uint64_t g_sum = 41;
static void acc(std::uint64_t v) { g_sum = g_sum * 0x5851f42d4c957f2dull + v; }

class Rational {
    long long n_, d_;
    void norm() {
        if (d_ < 0) {
            n_ = -n_;
            d_ = -d_;
        }
        long long g = std::gcd(n_ < 0 ? -n_ : n_, d_);
        if (g > 1) {
            n_ /= g;
            d_ /= g;
        }
    }

public:
    Rational(long long n = 0, long long d = 1) : n_(n), d_(d) { norm(); }
    long long num() const { return n_; }
    long long den() const { return d_; }
    Rational &operator+=(const Rational &o) { n_ = n_ * o.d_ + o.n_ * d_; d_ *= o.d_; norm(); return *this; }
    Rational &operator-=(const Rational &o) { return *this += -o; }
    Rational &operator*=(const Rational &o) { n_ *= o.n_; d_ *= o.d_; norm(); return *this; }
    Rational &operator/=(const Rational &o) { n_ *= o.d_; d_ *= o.n_; norm(); return *this; }
    Rational operator-() const { return Rational(-n_, d_); }
    friend Rational operator+(Rational a, const Rational &b) { return a += b; }
    friend Rational operator-(Rational a, const Rational &b) { return a -= b; }
    friend Rational operator*(Rational a, const Rational &b) { return a *= b; }
    friend Rational operator/(Rational a, const Rational &b) { return a /= b; }
    friend bool operator==(const Rational &a, const Rational &b) { return a.n_ == b.n_ && a.d_ == b.d_; }
    friend bool operator!=(const Rational &a, const Rational &b) { return !(a == b); }
    friend bool operator<(const Rational &a, const Rational &b) { return a.n_ * b.d_ < b.n_ * a.d_; }
    friend bool operator>(const Rational &a, const Rational &b) { return b < a; }
    friend bool operator<=(const Rational &a, const Rational &b) { return !(b < a); }
    explicit operator double() const { return static_cast<double>(n_) / static_cast<double>(d_); }
    explicit operator bool() const { return n_ != 0; }
    std::string str() const { return d_ == 1 ? std::to_string(n_) : std::to_string(n_) + "/" + std::to_string(d_); }
};

// 256-bit unsigned integer with four 64-bit limbs.
struct U256 {
    std::uint64_t w[4] = {0, 0, 0, 0};
    U256() = default;
    U256(std::uint64_t v) { w[0] = v; }
    std::uint64_t &operator[](int i) { return w[i]; }
    const std::uint64_t &operator[](int i) const { return w[i]; }
    U256 &operator+=(const U256 &o) {
        unsigned __int128 carry = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 s = static_cast<unsigned __int128>(w[i]) + o.w[i] + carry;
            w[i] = static_cast<std::uint64_t>(s);
            carry = s >> 64;
        }
        return *this;
    }
    U256 &operator*=(std::uint64_t m) {
        unsigned __int128 carry = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 p = static_cast<unsigned __int128>(w[i]) * m + carry;
            w[i] = static_cast<std::uint64_t>(p);
            carry = p >> 64;
        }
        return *this;
    }
    std::uint64_t divmod(std::uint64_t d) {   // in-place divide, returns remainder
        unsigned __int128 r = 0;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (r << 64) | w[i];
            w[i] = static_cast<std::uint64_t>(cur / d);
            r = cur % d;
        }
        return static_cast<std::uint64_t>(r);
    }
    U256 &operator<<=(int s) {
        while (s-- > 0) {
            for (int i = 3; i > 0; i--)
                w[i] = (w[i] << 1) | (w[i - 1] >> 63);
            w[0] <<= 1;
        }
        return *this;
    }
    U256 &operator++() { return *this += U256(1); }
    U256 operator++(int) {
        U256 old = *this;
        ++*this;
        return old;
    }
    bool is_zero() const { return !(w[0] | w[1] | w[2] | w[3]); }
    friend U256 operator+(U256 a, const U256 &b) { return a += b; }
    friend U256 operator*(U256 a, std::uint64_t m) { return a *= m; }
    friend bool operator==(const U256 &a, const U256 &b) {
        return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
    }
    friend bool operator<(const U256 &a, const U256 &b) {
        for (int i = 3; i >= 0; i--)
            if (a.w[i] != b.w[i])
                return a.w[i] < b.w[i];
        return false;
    }
    std::string str() const {
        if (is_zero())
            return "0";
        U256 t = *this;
        std::string s;
        while (!t.is_zero())
            s += static_cast<char>('0' + t.divmod(10));
        std::reverse(s.begin(), s.end());
        return s;
    }
};

// Minimal stream-like sink with chained operator<<
struct Out {
    std::string buf;
    Out &operator<<(const char *s) { buf += s; return *this; }
    Out &operator<<(long long v) { buf += std::to_string(v); return *this; }
    Out &operator<<(const Rational &r) { buf += r.str(); return *this; }
    Out &operator<<(const U256 &u) { buf += u.str(); return *this; }
};

// Function object with state
struct Polynomial {
    std::vector<long long> c;   // c[0] + c[1] x + ...
    long long operator()(long long x) const {
        long long r = 0;
        for (auto it = c.rbegin(); it != c.rend(); ++it)
            r = r * x + *it;
        return r;
    }
};

// User-defined literals
constexpr unsigned long long operator""_KiB(unsigned long long v) { return v * 1024; }
Rational operator""_r(unsigned long long v) { return Rational(static_cast<long long>(v)); }

int main() {
    Out out;
    Rational h;
    for (int i = 1; i <= 12; i++)
        h += Rational(1, i);
    out << "H(12) = " << h << "\n";
    Rational a(3, 4), b(-5, 6);
    out << "a+b=" << a + b << " a-b=" << a - b << " a*b=" << a * b << " a/b=" << a / b << " -a=" << -a << "\n";
    out << "compare a<b " << static_cast<long long>(a < b) << " a>b " << static_cast<long long>(a > b) << " a==6/8 "
        << static_cast<long long>(a == Rational(6, 8)) << " bool(0) " << static_cast<long long>(static_cast<bool>(Rational(0)))
        << "\n";
    std::vector<Rational> rs;
    for (int i = 1; i <= 8; i++)
        rs.push_back(Rational((i * 37) % 11 - 5, i + 1));
    std::sort(rs.begin(), rs.end());
    out << "sorted:";
    for (auto &r : rs)
        out << " " << r;
    out << "\n";
    out << "3_r/4 as double*8 = " << static_cast<long long>(static_cast<double>(3_r / 4) * 8) << "\n";
    acc(static_cast<std::uint64_t>(h.num()) ^ static_cast<std::uint64_t>(h.den()));

    U256 f(1);
    for (std::uint64_t i = 2; i <= 50; i++)
        f *= i;
    out << "50! = " << f << "\n";
    U256 two(1);
    two <<= 200;
    out << "2^200 = " << two << "\n";
    U256 fib_a(0), fib_b(1);
    for (int i = 0; i < 300; i++) {
        U256 t = fib_a + fib_b;
        fib_a = fib_b;
        fib_b = t;
    }
    out << "F(300) = " << fib_a << "\n";
    U256 c(0xffffffffffffffffull);
    U256 old = c++;
    out << "post-inc carry: old " << old << " new " << c << " lt " << static_cast<long long>(old < c) << "\n";
    acc(f[0] ^ f[1] ^ f[2] ^ f[3]);
    acc(fib_a[0] + fib_a[3]);

    Polynomial p{{1, -3, 0, 2}};   // 2x^3 - 3x + 1
    out << "p(x) for x=-3..3:";
    for (long long x = -3; x <= 3; x++) {
        out << " " << p(x);
        acc(static_cast<std::uint64_t>(p(x) + 1000));
    }
    out << "\n";
    out << "4_KiB = " << static_cast<long long>(4_KiB) << "\n";

    std::fputs(out.buf.c_str(), stdout);
    acc(out.buf.size());
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
