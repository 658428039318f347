/* torch 1.13's unique(sorted=False) returns its elements in the iteration order of
   `std::unordered_set<scalar_t> set(input_data, input_data + numel)` (Unique.cpp, unique_cpu_template). That
   order is not a property of the values but of libstdc++'s _Hashtable (GCC 12, the compiler of Debian's
   torch 1.13.1 build): its prime bucket counts, when it grows, and where each node goes in its one singly
   linked list. A hash table of our own would give another order, so this file reproduces, step for step:
   - _Prime_rehash_policy (libstdc++ src/c++11/hashtable_c++0x.cc): _M_next_bkt's table for n < 14, then
     the first prime >= n of __prime_list from its 7th entry on (the table below is libstdc++'s, printed
     from the library by tests/unit/gen_unique_hash.cpp), max_load_factor 1; _M_need_rehash: no rehash
     while size + 1 <= _M_next_resize, a first insertion asks for 11 buckets, growth doubles;
   - the range constructor for unique keys (bits/hashtable.h): a bucket hint of 0 (one bucket, no
     _M_next_resize), then insert(*it) for each element in input order: look the key up in its bucket, and
     if it is new, rehash if the policy says so, then _M_insert_bucket_begin: after the bucket's "before"
     node when the bucket has nodes, otherwise at the list's head, the former head's bucket then pointing
     at the new node and the new bucket at _M_before_begin;
   - _M_rehash_aux for unique keys: the list walked from its head, each node put at the head when its new
     bucket is empty, otherwise after that bucket's before node;
   - iteration: the list from _M_before_begin.
   The hash codes are the caller's (std::hash of the element type, see unique.c); bucket = code % count. */
#include "ops/sort/unique_hash.h"

#include <string.h>

#include "core/internal.h"

/* std::__detail::__prime_list of libstdc++ (64-bit unsigned long: 304 primes and a repeated last one) */
// clang-format off
static const uint64_t prime_list[] = {
    2ull, 3ull, 5ull, 7ull, 11ull, 13ull, 17ull, 19ull, 23ull, 29ull, 31ull, 37ull, 41ull, 43ull, 47ull,
    53ull, 59ull, 61ull, 67ull, 71ull, 73ull, 79ull, 83ull, 89ull, 97ull, 103ull, 109ull, 113ull, 127ull,
    137ull, 139ull, 149ull, 157ull, 167ull, 179ull, 193ull, 199ull, 211ull, 227ull, 241ull, 257ull, 277ull,
    293ull, 313ull, 337ull, 359ull, 383ull, 409ull, 439ull, 467ull, 503ull, 541ull, 577ull, 619ull, 661ull,
    709ull, 761ull, 823ull, 887ull, 953ull, 1031ull, 1109ull, 1193ull, 1289ull, 1381ull, 1493ull, 1613ull,
    1741ull, 1879ull, 2029ull, 2179ull, 2357ull, 2549ull, 2753ull, 2971ull, 3209ull, 3469ull, 3739ull,
    4027ull, 4349ull, 4703ull, 5087ull, 5503ull, 5953ull, 6427ull, 6949ull, 7517ull, 8123ull, 8783ull,
    9497ull, 10273ull, 11113ull, 12011ull, 12983ull, 14033ull, 15173ull, 16411ull, 17749ull, 19183ull,
    20753ull, 22447ull, 24281ull, 26267ull, 28411ull, 30727ull, 33223ull, 35933ull, 38873ull, 42043ull,
    45481ull, 49201ull, 53201ull, 57557ull, 62233ull, 67307ull, 72817ull, 78779ull, 85229ull, 92203ull,
    99733ull, 107897ull, 116731ull, 126271ull, 136607ull, 147793ull, 159871ull, 172933ull, 187091ull,
    202409ull, 218971ull, 236897ull, 256279ull, 277261ull, 299951ull, 324503ull, 351061ull, 379787ull,
    410857ull, 444487ull, 480881ull, 520241ull, 562841ull, 608903ull, 658753ull, 712697ull, 771049ull,
    834181ull, 902483ull, 976369ull, 1056323ull, 1142821ull, 1236397ull, 1337629ull, 1447153ull, 1565659ull,
    1693859ull, 1832561ull, 1982627ull, 2144977ull, 2320627ull, 2510653ull, 2716249ull, 2938679ull,
    3179303ull, 3439651ull, 3721303ull, 4026031ull, 4355707ull, 4712381ull, 5098259ull, 5515729ull,
    5967347ull, 6456007ull, 6984629ull, 7556579ull, 8175383ull, 8844859ull, 9569143ull, 10352717ull,
    11200489ull, 12117689ull, 13109983ull, 14183539ull, 15345007ull, 16601593ull, 17961079ull, 19431899ull,
    21023161ull, 22744717ull, 24607243ull, 26622317ull, 28802401ull, 31160981ull, 33712729ull, 36473443ull,
    39460231ull, 42691603ull, 46187573ull, 49969847ull, 54061849ull, 58488943ull, 63278561ull, 68460391ull,
    74066549ull, 80131819ull, 86693767ull, 93793069ull, 101473717ull, 109783337ull, 118773397ull,
    128499677ull, 139022417ull, 150406843ull, 162723577ull, 176048909ull, 190465427ull, 206062531ull,
    222936881ull, 241193053ull, 260944219ull, 282312799ull, 305431229ull, 330442829ull, 357502601ull,
    386778277ull, 418451333ull, 452718089ull, 489790921ull, 529899637ull, 573292817ull, 620239453ull,
    671030513ull, 725980837ull, 785430967ull, 849749479ull, 919334987ull, 994618837ull, 1076067617ull,
    1164186217ull, 1259520799ull, 1362662261ull, 1474249943ull, 1594975441ull, 1725587117ull, 1866894511ull,
    2019773507ull, 2185171673ull, 2364114217ull, 2557710269ull, 2767159799ull, 2993761039ull, 3238918481ull,
    3504151727ull, 3791104843ull, 4101556399ull, 4294967291ull, 6442450933ull, 8589934583ull, 12884901857ull,
    17179869143ull, 25769803693ull, 34359738337ull, 51539607367ull, 68719476731ull, 103079215087ull,
    137438953447ull, 206158430123ull, 274877906899ull, 412316860387ull, 549755813881ull, 824633720731ull,
    1099511627689ull, 1649267441579ull, 2199023255531ull, 3298534883309ull, 4398046511093ull,
    6597069766607ull, 8796093022151ull, 13194139533241ull, 17592186044399ull, 26388279066581ull,
    35184372088777ull, 52776558133177ull, 70368744177643ull, 105553116266399ull, 140737488355213ull,
    211106232532861ull, 281474976710597ull, 562949953421231ull, 1125899906842597ull, 2251799813685119ull,
    4503599627370449ull, 9007199254740881ull, 18014398509481951ull, 36028797018963913ull,
    72057594037927931ull, 144115188075855859ull, 288230376151711717ull, 576460752303423433ull,
    1152921504606846883ull, 2305843009213693951ull, 4611686018427387847ull, 9223372036854775783ull,
    18446744073709551557ull, 18446744073709551557ull,
};
// clang-format on
#define N_PRIMES ((int)(sizeof prime_list / sizeof prime_list[0]) - 1)

static inline uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

uint64_t ct__hash_bytes(const void *ptr, size_t len, uint64_t seed) {
  const uint64_t mul = ((uint64_t)0xc6a4a793u << 32) + 0x5bd1e995u;
  const unsigned char *buf = ptr;
  size_t aligned = len & ~(size_t)7;
  uint64_t hash = seed ^ ((uint64_t)len * mul);
  for (size_t i = 0; i < aligned; i += 8) {
    uint64_t d;
    memcpy(&d, buf + i, 8);
    hash ^= shift_mix(d * mul) * mul;
    hash *= mul;
  }
  if (len & 7) {
    uint64_t d = 0; /* load_bytes: the tail's bytes, little end first */
    for (size_t k = len & 7; k-- > 0;) d = (d << 8) + buf[aligned + k];
    hash ^= d;
    hash *= mul;
  }
  hash = shift_mix(hash) * mul;
  return shift_mix(hash);
}

/* floor(b * (double)1.0f) as size_t: b rounded to a double */
static inline uint64_t resize_at(uint64_t b) { return (uint64_t)(double)b; }

uint64_t ct__uset_next_bkt(uint64_t n, uint64_t *next_resize) {
  static const unsigned char fast_bkt[] = {2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13};
  if (n < sizeof fast_bkt) {
    if (n == 0) return 1;
    *next_resize = fast_bkt[n];
    return fast_bkt[n];
  }
  /* std::lower_bound(__prime_list + 6, last_prime, n), last_prime the second-to-last entry */
  int lo = 6, hi = N_PRIMES - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (prime_list[mid] < n) lo = mid + 1;
    else hi = mid;
  }
  *next_resize = lo == N_PRIMES - 1 ? UINT64_MAX : resize_at(prime_list[lo]);
  return prime_list[lo];
}

/* Nodes are 1..m (0 is _M_before_begin, whose next is the list's head); a next of 0 ends the list; a bucket
   holds its before node, or EMPTY. */
#define EMPTY INT64_MIN

static int64_t *alloc_buckets(uint64_t count) {
  if (count > (uint64_t)PTRDIFF_MAX / sizeof(int64_t)) return NULL;
  int64_t *b = ct__malloc((size_t)count * sizeof(int64_t));
  if (b)
    for (uint64_t j = 0; j < count; j++) b[j] = EMPTY;
  return b;
}

typedef struct hnode {
  int64_t nxt;
  uint64_t bkt, key;
} hnode;

int64_t ct__uset_build(int64_t n, const uint64_t *code, const uint64_t *key, const uint8_t *alone,
                       int64_t *first, int64_t *node_of, int64_t *order, uint64_t *bucket_count) {
  if (!key) key = code;
  /* one record per node, so that a lookup's step touches one line */
  hnode *nd = ct__malloc((size_t)(n + 1) * sizeof(hnode));
  uint64_t count = 1, next_resize = 0, m = 0;
  int64_t *buckets = alloc_buckets(1);
  if (!nd || !buckets) goto oom;
  nd[0].nxt = 0;
  for (int64_t i = 0; i < n; i++) {
    uint64_t c = code[i], k = key[i];
    uint64_t b = c % count;
    if (!(alone && alone[i]) && buckets[b] != EMPTY) {
      /* _M_find_before_node: the bucket's nodes follow its before node while their bucket is b */
      int64_t p = nd[buckets[b]].nxt, found = 0;
      for (;;) {
        if (nd[p].key == k) {
          found = p;
          break;
        }
        int64_t q = nd[p].nxt;
        if (!q || nd[q].bkt != b) break;
        p = q;
      }
      if (found) {
        if (node_of) node_of[i] = found - 1;
        continue;
      }
    }
    /* _M_need_rehash(count, m, 1) */
    if (m + 1 > next_resize) {
      uint64_t want = m + 1 > (next_resize ? 0 : 11) ? m + 1 : 11;
      if ((double)want >= (double)count) {
        uint64_t grow = want + 1 > count * 2 ? want + 1 : count * 2;
        uint64_t new_count = ct__uset_next_bkt(grow, &next_resize);
        int64_t *nbk = alloc_buckets(new_count);
        if (!nbk) goto oom;
        /* _M_rehash_aux(new_count, true_type) */
        int64_t p = nd[0].nxt;
        uint64_t bbegin = 0;
        nd[0].nxt = 0;
        while (p) {
          int64_t after = nd[p].nxt;
          uint64_t pb = code[first[p - 1]] % new_count;
          nd[p].bkt = pb;
          if (nbk[pb] == EMPTY) {
            nd[p].nxt = nd[0].nxt;
            nd[0].nxt = p;
            nbk[pb] = 0;
            if (nd[p].nxt) nbk[bbegin] = p;
            bbegin = pb;
          } else {
            nd[p].nxt = nd[nbk[pb]].nxt;
            nd[nbk[pb]].nxt = p;
          }
          p = after;
        }
        ct__free(buckets);
        buckets = nbk;
        count = new_count;
        b = c % count;
      } else {
        next_resize = resize_at(count);
      }
    }
    /* _M_insert_bucket_begin(b, node) */
    int64_t node = (int64_t)++m;
    first[node - 1] = i;
    nd[node].bkt = b;
    nd[node].key = k;
    if (node_of) node_of[i] = node - 1;
    if (buckets[b] != EMPTY) {
      nd[node].nxt = nd[buckets[b]].nxt;
      nd[buckets[b]].nxt = node;
    } else {
      nd[node].nxt = nd[0].nxt;
      nd[0].nxt = node;
      if (nd[node].nxt) buckets[nd[nd[node].nxt].bkt] = node;
      buckets[b] = 0;
    }
  }
  int64_t j = 0;
  for (int64_t p = nd[0].nxt; p; p = nd[p].nxt) order[j++] = p - 1;
  if (bucket_count) *bucket_count = count;
  ct__free(nd);
  ct__free(buckets);
  return (int64_t)m;
oom:
  ct__free(nd);
  ct__free(buckets);
  ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory");
  return -1;
}
