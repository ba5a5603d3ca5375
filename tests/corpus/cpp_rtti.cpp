// RTTI: typeid of static types and polymorphic objects, type_info comparison,
// dynamic_cast down/cross/sideways through multiple and virtual inheritance,
// dynamic_cast<void*>, std::bad_cast and std::bad_typeid.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <map>
#include <vector>

static std::uint64_t g_sum = 23;
static void acc(std::uint64_t v) { g_sum = g_sum * 31 + v; }

struct Animal { virtual ~Animal() = default; virtual const char *sound() const = 0; };
struct Dog : Animal { const char *sound() const override { return "woof"; } void fetch() const {} };
struct Puppy : Dog { const char *sound() const override { return "yip"; } };
struct Cat : Animal { const char *sound() const override { return "meow"; } };

struct Swimmer { virtual ~Swimmer() = default; virtual int depth() const { return 1; } };
struct Flyer { virtual ~Flyer() = default; virtual int altitude() const { return 2; } };
struct Duck : Animal, Swimmer, Flyer {
    const char *sound() const override { return "quack"; }
    int depth() const override { return 3; }
    int altitude() const override { return 40; }
};

struct VBase { virtual ~VBase() = default; int v = 5; };
struct VA : virtual VBase {};
struct VB : virtual VBase {};
struct VD : VA, VB {};

struct NonPoly { int x; };

// Demangled names are ABI-specific; map type_info to our own labels instead.
static std::map<std::type_index, const char *> &labels() {
    static std::map<std::type_index, const char *> m;
    return m;
}
static const char *label(const std::type_info &ti) {
    auto it = labels().find(std::type_index(ti));
    return it == labels().end() ? "?" : it->second;
}

static const char *classify(const Animal &a) {
    if (dynamic_cast<const Puppy *>(&a)) return "puppy";
    if (dynamic_cast<const Dog *>(&a)) return "dog";
    if (dynamic_cast<const Cat *>(&a)) return "cat";
    return "other";
}

int main() {
    labels()[typeid(Animal)] = "Animal";
    labels()[typeid(Dog)] = "Dog";
    labels()[typeid(Puppy)] = "Puppy";
    labels()[typeid(Cat)] = "Cat";
    labels()[typeid(Duck)] = "Duck";
    labels()[typeid(int)] = "int";
    labels()[typeid(NonPoly)] = "NonPoly";

    std::vector<std::unique_ptr<Animal>> zoo;
    zoo.emplace_back(new Dog);
    zoo.emplace_back(new Cat);
    zoo.emplace_back(new Puppy);
    zoo.emplace_back(new Duck);
    for (auto &a : zoo) {
        const Animal &ref = *a;
        const std::type_info &dyn = typeid(ref);
        const std::type_info &stat = typeid(a.get());
        std::printf("%-6s says %-5s dynamic=%-5s classify=%-5s static-is-pointer=%d is-dog-exact=%d\n", label(dyn),
                    a->sound(), label(dyn), classify(*a), stat == typeid(Animal *), dyn == typeid(Dog));
        acc(std::strlen(a->sound()));
    }

    // typeid of expressions with static types, cv-qualifiers ignored
    const int ci = 3;
    NonPoly np{1};
    std::printf("typeid(ci)==typeid(int): %d, typeid(np)=%s, int!=long: %d\n", typeid(ci) == typeid(int),
                label(typeid(np)), typeid(int) != typeid(long));
    std::printf("before() is a strict order: %d\n",
                typeid(int).before(typeid(long)) != typeid(long).before(typeid(int)));
    std::printf("fundamental names: %s %s %s\n", typeid(int).name(), typeid(char).name(), typeid(double).name());

    // cross casts through multiple inheritance
    Duck duck;
    Animal *an = &duck;
    Swimmer *sw = dynamic_cast<Swimmer *>(an);
    Flyer *fl = dynamic_cast<Flyer *>(sw);   // sideways
    Duck *back = dynamic_cast<Duck *>(fl);
    std::printf("duck: swimmer depth=%d flyer altitude=%d back-to-duck=%d void*-same=%d\n", sw ? sw->depth() : -1,
                fl ? fl->altitude() : -1, back == &duck, dynamic_cast<void *>(fl) == static_cast<void *>(&duck));
    acc(static_cast<std::uint64_t>(sw->depth() + fl->altitude()));

    Cat cat;
    Animal *ca = &cat;
    std::printf("cat as Swimmer: %s, as Dog: %s\n", dynamic_cast<Swimmer *>(ca) ? "yes" : "null",
                dynamic_cast<Dog *>(ca) ? "yes" : "null");

    // virtual inheritance
    VD vd;
    VBase *vb = &vd;
    VA *va = dynamic_cast<VA *>(vb);
    VB *vbb = dynamic_cast<VB *>(va);
    std::printf("virtual diamond: va=%d vb=%d shared v=%d\n", va != nullptr, vbb != nullptr, vbb ? vbb->v : -1);

    // reference casts throw bad_cast
    int caught = 0;
    for (auto &a : zoo) {
        const Animal &ref = *a;
        try {
            const Dog &d = dynamic_cast<const Dog &>(ref);
            d.fetch();
            std::printf("  %s is-a Dog\n", label(typeid(ref)));
        } catch (const std::bad_cast &) {
            std::printf("  %s bad_cast\n", label(typeid(ref)));
            caught++;
        }
    }
    // typeid of a null polymorphic pointer dereference throws bad_typeid
    Animal *nothing = nullptr;
    try {
        std::printf("%s\n", typeid(*nothing).name());
    } catch (const std::bad_typeid &) {
        std::printf("bad_typeid caught\n");
        caught += 10;
    }
    acc(static_cast<std::uint64_t>(caught));

    // type_index in ordered containers: count by dynamic type, print by our label
    std::map<std::string, int> counts;
    for (auto &a : zoo) {
        const Animal &ref = *a;
        counts[label(typeid(ref))]++;
    }
    const Animal &first = *zoo[0];
    counts[label(typeid(first))]++;
    for (auto &kv : counts) {
        std::printf("count %s=%d\n", kv.first.c_str(), kv.second);
        acc(static_cast<std::uint64_t>(kv.second) + kv.first.size());
    }
    std::printf("checksum %llu\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
