// Sum types: std::variant + std::visit (overloaded lambdas), get_if and
// holds_alternative, std::optional, std::any, and an AST interpreter whose
// nodes are variants holding unique_ptr children.
#include <any>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

static std::uint64_t g_sum = 19;
static void acc(std::uint64_t v) { g_sum = g_sum * 0x100000001b3ull ^ v; }

template <class... Ts>
struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

using Value = std::variant<std::monostate, bool, long, std::string, std::vector<long>>;

static std::string show(const Value &v) {
    return std::visit(overloaded{
                          [](std::monostate) -> std::string { return "none"; },
                          [](bool b) -> std::string { return b ? "true" : "false"; },
                          [](long n) -> std::string { return std::to_string(n); },
                          [](const std::string &s) -> std::string { return "'" + s + "'"; },
                          [](const std::vector<long> &xs) -> std::string {
                              std::string r = "[";
                              for (std::size_t i = 0; i < xs.size(); i++)
                                  r += (i ? "," : "") + std::to_string(xs[i]);
                              return r + "]";
                          },
                      },
                      v);
}

// ---- AST ----
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Num { long v; };
struct Var { std::string name; };
struct Bin { char op; ExprPtr l, r; };
struct If { ExprPtr cond, then_, else_; };
struct Let { std::string name; ExprPtr value, body; };
struct Expr { std::variant<Num, Var, Bin, If, Let> node; };

static ExprPtr num(long v) { return ExprPtr(new Expr{Num{v}}); }
static ExprPtr var(std::string n) { return ExprPtr(new Expr{Var{std::move(n)}}); }
static ExprPtr bin(char op, ExprPtr l, ExprPtr r) { return ExprPtr(new Expr{Bin{op, std::move(l), std::move(r)}}); }
static ExprPtr if_(ExprPtr c, ExprPtr t, ExprPtr e) { return ExprPtr(new Expr{If{std::move(c), std::move(t), std::move(e)}}); }
static ExprPtr let(std::string n, ExprPtr v, ExprPtr b) {
    return ExprPtr(new Expr{Let{std::move(n), std::move(v), std::move(b)}});
}

using Env = std::map<std::string, long>;

static std::optional<long> eval(const Expr &e, Env &env) {
    return std::visit(
        overloaded{
            [](const Num &n) -> std::optional<long> { return n.v; },
            [&env](const Var &v) -> std::optional<long> {
                auto it = env.find(v.name);
                if (it == env.end())
                    return std::nullopt;
                return it->second;
            },
            [&env](const Bin &b) -> std::optional<long> {
                auto l = eval(*b.l, env);
                if (!l)
                    return std::nullopt;
                auto r = eval(*b.r, env);
                if (!r)
                    return std::nullopt;
                switch (b.op) {
                case '+': return *l + *r;
                case '-': return *l - *r;
                case '*': return *l * *r;
                case '/': if (*r == 0) return std::nullopt; return *l / *r;
                case '<': return static_cast<long>(*l < *r);
                case '=': return static_cast<long>(*l == *r);
                default: return std::nullopt;
                }
            },
            [&env](const If &i) -> std::optional<long> {
                auto c = eval(*i.cond, env);
                if (!c)
                    return std::nullopt;
                return *c ? eval(*i.then_, env) : eval(*i.else_, env);
            },
            [&env](const Let &l) -> std::optional<long> {
                auto v = eval(*l.value, env);
                if (!v)
                    return std::nullopt;
                auto saved = env.find(l.name) != env.end() ? std::optional<long>(env[l.name]) : std::nullopt;
                env[l.name] = *v;
                auto r = eval(*l.body, env);
                if (saved)
                    env[l.name] = *saved;
                else
                    env.erase(l.name);
                return r;
            },
        },
        e.node);
}

static int count_nodes(const Expr &e) {
    if (auto b = std::get_if<Bin>(&e.node))
        return 1 + count_nodes(*b->l) + count_nodes(*b->r);
    if (auto i = std::get_if<If>(&e.node))
        return 1 + count_nodes(*i->cond) + count_nodes(*i->then_) + count_nodes(*i->else_);
    if (auto l = std::get_if<Let>(&e.node))
        return 1 + count_nodes(*l->value) + count_nodes(*l->body);
    return 1;
}

int main() {
    std::vector<Value> vals = {Value{}, true, 42L, std::string("hi"), std::vector<long>{1, 2, 3}, false, -7L};
    for (auto &v : vals) {
        std::printf("value index=%zu show=%s\n", v.index(), show(v).c_str());
        acc(v.index());
    }
    Value v = 5L;
    v = std::string("now a string");
    v = std::vector<long>{9, 8};
    std::printf("reassigned: %s holds vector=%d\n", show(v).c_str(), std::holds_alternative<std::vector<long>>(v));
    if (auto *pv = std::get_if<std::vector<long>>(&v))
        pv->push_back(7);
    std::printf("after get_if push: %s\n", show(v).c_str());
    try {
        long bad = std::get<long>(v);
        std::printf("unexpected %ld\n", bad);
    } catch (const std::bad_variant_access &) {
        std::printf("bad_variant_access caught\n");
        acc(77);
    }

    // sum of squares via let/if: let n = 10 in (if n < 20 then n*n + 1 else 0) - x
    auto prog1 = let("n", num(10), bin('-', if_(bin('<', var("n"), num(20)), bin('+', bin('*', var("n"), var("n")), num(1)), num(0)), var("x")));
    auto prog2 = bin('/', num(100), bin('-', var("x"), num(3)));
    auto prog3 = let("x", num(4), let("x", bin('*', var("x"), num(10)), bin('+', var("x"), var("y"))));
    Env env{{"x", 3}};
    const Expr *progs[] = {prog1.get(), prog2.get(), prog3.get()};
    for (int i = 0; i < 3; i++) {
        auto r = eval(*progs[i], env);
        std::printf("prog%d nodes=%d -> %s\n", i + 1, count_nodes(*progs[i]), r ? std::to_string(*r).c_str() : "error");
        acc(r ? static_cast<std::uint64_t>(*r) : 12345u);
    }
    env["y"] = 2;
    env["x"] = 8;
    for (int i = 0; i < 3; i++) {
        auto r = eval(*progs[i], env);
        std::printf("prog%d (x=8,y=2) -> %s\n", i + 1, r ? std::to_string(*r).c_str() : "error");
        acc(r ? static_cast<std::uint64_t>(*r) : 12345u);
    }
    std::printf("env after: x=%ld y=%ld size=%zu\n", env["x"], env["y"], env.size());

    // std::optional chaining
    auto parse = [](const std::string &s) -> std::optional<long> {
        if (s.empty())
            return std::nullopt;
        long r = 0;
        for (char c : s) {
            if (c < '0' || c > '9')
                return std::nullopt;
            r = r * 10 + (c - '0');
        }
        return r;
    };
    for (const char *s : {"123", "", "12a", "9000"}) {
        auto r = parse(s);
        std::printf("parse '%s' -> %s value_or=%ld\n", s, r ? "ok" : "none", r.value_or(-1));
        acc(static_cast<std::uint64_t>(r.value_or(-1) + 10));
    }

    // std::any
    std::vector<std::any> bag = {1, std::string("two"), 3.5, 'c', std::any{}};
    for (auto &a : bag) {
        if (!a.has_value())
            std::printf("any: empty\n");
        else if (auto *i = std::any_cast<int>(&a))
            std::printf("any: int %d\n", *i);
        else if (auto *s = std::any_cast<std::string>(&a))
            std::printf("any: string %s\n", s->c_str());
        else if (auto *d = std::any_cast<double>(&a))
            std::printf("any: double*2 %ld\n", static_cast<long>(*d * 2));
        else
            std::printf("any: other\n");
    }
    try {
        std::any_cast<long>(bag[0]);
    } catch (const std::bad_any_cast &) {
        std::printf("bad_any_cast caught\n");
        acc(88);
    }
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
