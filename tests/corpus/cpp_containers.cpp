// Containers/algorithms: std::string ops, std::vector + sort/stable_sort/
// partial_sort/nth_element, map/multimap/set, unordered_map (printed only
// after sorting), deque, list, priority_queue.

// libstdc++ 12's stable_sort uses the deprecated get_temporary_buffer, which
// clang 19 warns about from inside the header; silence just that.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <algorithm>
#pragma clang diagnostic pop
#include <cstdint>
#include <cstdio>
#include <deque>
#include <list>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

static std::uint64_t g_sum = 0xcbf29ce484222325ull;
static void acc_str(const std::string &s) {
    for (unsigned char c : s)
        g_sum = (g_sum ^ c) * 0x100000001b3ull;
}
static void acc(std::uint64_t v) { acc_str(std::to_string(v)); }

static const char *kText =
    "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of "
    "foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, "
    "it was the season of Darkness, it was the spring of hope, it was the winter of despair.";

static std::vector<std::string> split_words(const std::string &text) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            cur += static_cast<char>(c | 0x20);
        } else if (!cur.empty()) {
            out.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

struct Person {
    std::string name;
    int age;
    int id;
};

int main() {
    // ---- strings ----
    std::string s = "Hello, containers";
    s += "!";
    s.insert(7, "std ");
    s.replace(0, 5, "Howdy");
    std::string upper = s;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; });
    std::printf("string: '%s' upper '%s' find('std')=%zu rfind('n')=%zu substr='%s'\n", s.c_str(), upper.c_str(),
                s.find("std"), s.rfind('n'), s.substr(7, 3).c_str());
    std::string rev(s.rbegin(), s.rend());
    std::printf("reversed '%s' compare=%d\n", rev.c_str(), s.compare(rev) < 0 ? -1 : 1);
    acc_str(s);
    acc_str(rev);
    std::ostringstream oss;
    for (int i = 0; i < 5; i++)
        oss << i * i << (i < 4 ? "," : "");
    std::printf("ostringstream: %s\n", oss.str().c_str());
    acc_str(oss.str());

    // ---- word counting with unordered_map, printed in sorted order ----
    std::vector<std::string> words = split_words(kText);
    std::unordered_map<std::string, int> freq;
    for (const auto &w : words)
        freq[w]++;
    std::vector<std::pair<std::string, int>> sorted(freq.begin(), freq.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::printf("words=%zu unique=%zu top:", words.size(), freq.size());
    for (std::size_t i = 0; i < 8; i++)
        std::printf(" %s=%d", sorted[i].first.c_str(), sorted[i].second);
    std::printf("\n");
    for (auto &kv : sorted) {
        acc_str(kv.first);
        acc(static_cast<std::uint64_t>(kv.second));
    }

    // ---- ordered map / multimap / set ----
    std::map<int, std::string> by_len;
    for (const auto &w : words)
        by_len.emplace(static_cast<int>(w.size()), w);   // first word of each length wins
    std::printf("map by length:");
    for (auto &kv : by_len)
        std::printf(" %d:%s", kv.first, kv.second.c_str());
    std::printf("\n");
    auto lb = by_len.lower_bound(6), ub = by_len.upper_bound(9);
    std::printf("lengths in [6,9]:");
    for (auto it = lb; it != ub; ++it)
        std::printf(" %d", it->first);
    std::printf("\n");

    std::multimap<char, std::string> by_initial;
    for (const auto &w : words)
        by_initial.insert({w[0], w});
    auto range = by_initial.equal_range('w');
    std::printf("multimap 'w' count=%ld first=%s\n", static_cast<long>(std::distance(range.first, range.second)),
                range.first->second.c_str());

    std::set<std::string> uniq(words.begin(), words.end());
    std::unordered_set<std::string> uset(words.begin(), words.end());
    std::printf("set size %zu == unordered_set size %zu, first=%s last=%s\n", uniq.size(), uset.size(),
                uniq.begin()->c_str(), uniq.rbegin()->c_str());

    // ---- vectors and algorithms ----
    std::vector<int> v(40);
    std::iota(v.begin(), v.end(), 0);
    std::transform(v.begin(), v.end(), v.begin(), [](int x) { return (x * 37 + 11) % 53 - 20; });
    std::vector<int> sorted_v = v;
    std::sort(sorted_v.begin(), sorted_v.end());
    std::vector<int> top5 = v;
    std::partial_sort(top5.begin(), top5.begin() + 5, top5.end(), std::greater<int>());
    std::vector<int> nth = v;
    std::nth_element(nth.begin(), nth.begin() + 20, nth.end());
    std::printf("min=%d max=%d median(nth)=%d top5=%d,%d,%d,%d,%d\n", sorted_v.front(), sorted_v.back(), nth[20],
                top5[0], top5[1], top5[2], top5[3], top5[4]);
    v.erase(std::remove_if(v.begin(), v.end(), [](int x) { return x % 3 == 0; }), v.end());
    v.insert(v.begin() + 2, {100, 200, 300});
    auto uniq_end = std::unique(sorted_v.begin(), sorted_v.end());
    sorted_v.erase(uniq_end, sorted_v.end());
    std::printf("after erase/insert size=%zu [2..4]=%d,%d,%d unique sorted size=%zu binary_search(7)=%d\n", v.size(),
                v[2], v[3], v[4], sorted_v.size(), std::binary_search(sorted_v.begin(), sorted_v.end(), 7));
    for (int x : v)
        acc(static_cast<std::uint64_t>(x + 1000));

    // stable_sort keeps original order among equal keys
    std::vector<Person> people = {{"ann", 30, 1}, {"bob", 25, 2}, {"cid", 30, 3}, {"dee", 25, 4},
                                  {"eve", 35, 5}, {"fay", 30, 6}, {"gus", 25, 7}};
    std::stable_sort(people.begin(), people.end(), [](const Person &a, const Person &b) { return a.age < b.age; });
    std::printf("stable by age:");
    for (auto &p : people) {
        std::printf(" %s(%d)", p.name.c_str(), p.age);
        acc(static_cast<std::uint64_t>(p.id));
    }
    std::printf("\n");

    // ---- deque / list / priority_queue ----
    std::deque<int> dq;
    for (int i = 0; i < 10; i++) {
        if (i % 2)
            dq.push_front(i);
        else
            dq.push_back(i);
    }
    dq.pop_front();
    dq.pop_back();
    std::printf("deque:");
    for (int x : dq)
        std::printf(" %d", x);
    std::printf("\n");

    std::list<int> lst = {5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
    lst.sort();
    lst.unique();
    lst.reverse();
    lst.remove(4);
    std::printf("list:");
    for (int x : lst) {
        std::printf(" %d", x);
        acc(static_cast<std::uint64_t>(x));
    }
    std::printf("\n");

    std::priority_queue<std::pair<int, std::string>> pq;
    for (auto &p : people)
        pq.push({p.age * 10 + p.id, p.name});
    std::printf("priority_queue:");
    while (!pq.empty()) {
        std::printf(" %s", pq.top().second.c_str());
        acc_str(pq.top().second);
        pq.pop();
    }
    std::printf("\n");

    std::printf("checksum %016llx\n", static_cast<unsigned long long>(g_sum));
    return 0;
}
