// The oracle of test_sort.c's unique_hash checks: libstdc++'s own std::unordered_set, std::hash and
// _Prime_rehash_policy, run with g++ on the machine (GCC 12, as Debian's torch 1.13 build). Prints the
// values that test_sort.c holds; with "primes", the table of src/ops/sort/unique_hash.c.
//   g++ -O1 -o gen_unique_hash tests/unit/gen_unique_hash.cpp && ./gen_unique_hash [primes]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_set>
#include <vector>
namespace std {
namespace __detail {
extern const unsigned long __prime_list[];
}
} // namespace std

static uint64_t lcg(uint64_t &s) { return s = s * 6364136223846793005ull + 1442695040888963407ull; }

template <typename T> static void order(const char *name, const std::vector<T> &v, bool checksum) {
  std::unordered_set<T> s(v.begin(), v.end());
  uint64_t sum = 0, j = 0;
  printf("%s: %zu elements, %zu buckets:", name, s.size(), s.bucket_count());
  for (const T &x : s) {
    size_t pos = 0; // the first input position of x (a NaN: the one of its payload)
    while (!(v[pos] == x) && memcmp(&v[pos], &x, sizeof x)) pos++;
    if (checksum) sum += (uint64_t)pos * ++j;
    else printf(" %zu", pos);
  }
  if (checksum) printf(" checksum %llu", (unsigned long long)sum);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "primes")) {
    for (int i = 0; i < 305; i++)
      printf("%luull,%c", std::__detail::__prime_list[i], i % 6 == 5 ? '\n' : ' ');
    return 0;
  }
  printf("next_bkt (n, buckets, next_resize):");
  size_t ns[] = {1, 2, 3, 4, 5, 8, 12, 13, 14, 16, 17, 18, 29, 30, 96, 97, 98, 1000, 65521, 65522, 1u << 20};
  for (size_t n : ns) {
    std::__detail::_Prime_rehash_policy p;
    size_t b = p._M_next_bkt(n);
    printf(" {%zu, %zu, %zu},", n, b, p._M_next_resize);
  }
  printf("\ngrowth (size after which the count changes, new count):");
  std::unordered_set<int64_t> g;
  size_t last = g.bucket_count();
  for (int64_t i = 0; i < 200000; i++) {
    g.insert(i);
    if (g.bucket_count() != last) printf(" {%zu, %zu},", g.size(), last = g.bucket_count());
  }
  printf("\nhash<float> / hash<double> of 1.5, -2.25, 1e30:");
  for (double d : {1.5, -2.25, 1e30})
    printf(" %zu %zu", std::hash<float>()((float)d), std::hash<double>()(d));
  printf("\n");
  uint64_t s = 7;
  std::vector<int64_t> a;
  for (int i = 0; i < 40; i++) a.push_back((int64_t)(lcg(s) >> 58) - 20); // duplicates, negatives
  order("int64 40", a, false);
  std::vector<double> d = {2.5, -0.0, 1.0, std::nan("1"), 0.0, 2.5, -7.0, std::nan("2"), 1e300, 1.0, 3.0};
  order("double", d, false);
  std::vector<float> f = {2.5f,  -0.0f,          1.0f,  std::nanf("1"), 0.0f, 2.5f,
                          -7.0f, std::nanf("2"), 1e30f, 1.0f,           3.0f};
  order("float", f, false);
  std::vector<int64_t> big;
  for (int i = 0; i < 5000; i++) big.push_back((int64_t)(lcg(s) >> 52));
  order("int64 5000", big, true);
}
