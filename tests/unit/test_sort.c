/* Sorting and selection from C: torch 1.13's indices for tie-heavy inputs (expected values computed with
   torch 1.13 and cited per case), the checked macros with NULL options, results that do not depend on the
   thread count, errors with torch's messages, and failed out= calls that leave their targets unchanged. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/cpu_isa.h"
#include "ops/sort/unique_hash.h"

/* sort_blocks.c: std::sort over packed key << 32 | index, and the step-for-step port it must agree with */
void ct__pk_sort(uint64_t *first, uint64_t *last);
void ct__pk_sort_reference(uint64_t *first, uint64_t *last);
void ct__pk_sort_threads(uint64_t *first, uint64_t *last, int nthreads);

/* 20 values in {0, 1, 2}: std::sort's partitions (n > 16) decide the order of equal values */
static const float TIES[20] = {2, 0, 1, 2, 0, 1, 1, 2, 0, 0, 1, 2, 2, 1, 0, 1, 2, 0, 1, 2};

static void check_i64s(const ct_tensor *t, const int64_t *want, int64_t n) {
  int64_t got[64];
  CHECK(t && ct_numel(t) == n);
  if (!t || ct_numel(t) != n) return;
  CHECK(ct_copy_to_buffer(t, got, CT_INT64, (size_t)n * sizeof *got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK_EQ_INT(got[i], want[i]);
}

static bool same(const ct_tensor *a, const ct_tensor *b) {
  bool e = false;
  return a && b && ct_equal(a, b, &e) == CT_OK && e;
}

static double item(const ct_tensor *t) {
  double v = NAN;
  CHECK(t && ct_copy_to_buffer(t, &v, CT_FLOAT64, sizeof v) == CT_OK);
  return v;
}

static void test_tie_orders(void) {
  ct_scope_begin();
  ct_tensor *x = ct_tensor_from_data(TIES, CT_FLOAT32, CT_SHAPE(20), NULL);
  ct_tensor *v = NULL, *i = NULL;
  /* torch.sort(x).indices */
  CHECK(ct_sort(x, &v, &i, NULL) == CT_OK);
  check_i64s(i, (const int64_t[]){1, 17, 4, 14, 8, 9, 10, 18, 15, 13, 6, 5, 2, 0, 11, 12, 7, 16, 3, 19}, 20);
  /* torch.sort(x, descending=True).indices */
  CHECK(ct_sort(x, NULL, &i, &(ct_sort_opts){.descending = true}) == CT_OK);
  check_i64s(i, (const int64_t[]){19, 3, 16, 7, 12, 11, 0, 10, 18, 15, 13, 6, 5, 2, 9, 8, 14, 4, 17, 1}, 20);
  /* stable: the indices of equal values in order */
  CHECK(ct_sort(x, NULL, &i, &(ct_sort_opts){.stable = true}) == CT_OK);
  check_i64s(i, (const int64_t[]){1, 4, 8, 9, 14, 17, 2, 5, 6, 10, 13, 15, 18, 0, 3, 7, 11, 12, 16, 19}, 20);
  /* torch.topk(x, 5).indices */
  CHECK(ct_topk(x, 5, NULL, &i, NULL) == CT_OK);
  check_i64s(i, (const int64_t[]){11, 7, 12, 19, 0}, 5);
  /* torch.kthvalue(x, 7): (1., 15); torch.median(x, 0): (1., 10); torch.mode(x): (1., 2) */
  CHECK(ct_kthvalue(x, 7, &v, &i, NULL) == CT_OK);
  CHECK(item(v) == 1.0);
  check_i64s(i, (const int64_t[]){15}, 1);
  CHECK(ct_median_dim(x, 0, &v, &i, NULL) == CT_OK);
  CHECK(item(v) == 1.0);
  check_i64s(i, (const int64_t[]){10}, 1);
  CHECK(ct_mode(x, &v, &i, NULL) == CT_OK);
  CHECK(item(v) == 1.0);
  check_i64s(i, (const int64_t[]){2}, 1);
  /* torch.unique(x, return_inverse=True, return_counts=True): counts [6, 7, 7] */
  ct_tensor *u = NULL, *inv = NULL, *cnt = NULL;
  CHECK(ct_unique(x, &u, &inv, &cnt, NULL) == CT_OK);
  check_i64s(u, (const int64_t[]){0, 1, 2}, 3);
  check_i64s(cnt, (const int64_t[]){6, 7, 7}, 3);
  check_i64s(inv, (const int64_t[]){2, 0, 1, 2, 0, 1, 1, 2, 0, 0, 1, 2, 2, 1, 0, 1, 2, 0, 1, 2}, 20);
  /* torch.quantile(x, 0.9) == 2.0 */
  CHECK(item(ct_quantile_scalar(x, 0.9, NULL)) == 2.0);
  ct_scope_end();
}

static void test_search_and_softmax(void) {
  ct_scope_begin();
  ct_tensor *bd = CT_TENSOR(0.0, 1.0, 2.0), *vals = CT_TENSOR(-1.0, 0.5, 1.0, 3.0);
  /* torch.searchsorted(bd, vals, right=True) == [0, 1, 2, 3] */
  check_i64s(ct_searchsorted(bd, vals, &(ct_searchsorted_opts){.right = true}), (const int64_t[]){0, 1, 2, 3},
             4);
  check_i64s(ct_bucketize(vals, bd, &(ct_bucketize_opts){.right = true}), (const int64_t[]){0, 1, 2, 3}, 4);
  /* torch.softmax(torch.arange(1., 11.), 0): first three float32 bits 0x38a39b22, 0x395e5d15, 0x3a171c9b */
  ct_tensor *s = ct_softmax(ct_arange(1, 11, 1, &(ct_tensor_opts){.dtype = CT_FLOAT32}), 0, NULL);
  float f[10];
  CHECK(s && ct_copy_to_buffer(s, f, CT_FLOAT32, sizeof f) == CT_OK);
  uint32_t bits[3];
  memcpy(bits, f, sizeof bits);
  CHECK_EQ_INT(bits[0], 0x38a39b22u);
  CHECK_EQ_INT(bits[1], 0x395e5d15u);
  CHECK_EQ_INT(bits[2], 0x3a171c9bu);
  ct_scope_end();
}

/* Many lines sorted at 1 and at 2 threads: the same indices. */
static void test_threads(void) {
  ct_scope_begin();
  enum {
    R = 64,
    N = 300
  };
  static float data[R * N];
  for (int k = 0; k < R * N; k++) data[k] = (float)((k * 7919) % 13);
  ct_tensor *x = ct_tensor_from_data(data, CT_FLOAT32, CT_SHAPE(R, N), NULL);
  int old = ct_get_num_threads();
  ct_set_num_threads(1);
  ct_tensor *i1 = ct_argsort(x, NULL), *t1 = NULL;
  CHECK(ct_topk(x, 20, NULL, &t1, &(ct_topk_opts){.smallest = true}) == CT_OK);
  ct_set_num_threads(2);
  ct_tensor *i2 = ct_argsort(x, NULL), *t2 = NULL;
  CHECK(ct_topk(x, 20, NULL, &t2, &(ct_topk_opts){.smallest = true}) == CT_OK);
  ct_set_num_threads(old);
  CHECK(same(i1, i2));
  CHECK(same(t1, t2));
  ct_scope_end();
}

static void test_errors(void) {
  ct_scope_begin();
  ct_tensor *x = CT_TENSOR(1.0, 2.0, 3.0), *v = NULL, *i = NULL;
  CHECK(ct_topk(x, 4, &v, &i, NULL) == CT_ERR_RUNTIME);
  CHECK(!v && !i);
  CHECK_ERROR(CT_ERR_RUNTIME, "selected index k out of range");
  CHECK(ct_kthvalue(x, 0, &v, &i, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension 0");
  CHECK(ct_sort(x, &v, &i, &(ct_sort_opts){.dims = CT_DIMS(2)}) == CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
  CHECK(!ct_quantile_scalar(x, 1.5, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "quantile() q must be in the range [0, 1] but got 1.5");
  CHECK(!ct_quantile_scalar(x, 0.5, &(ct_quantile_opts){.interpolation = "cubic"}));
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got cubic");
  CHECK(ct_sort(NULL, &v, &i, NULL) != CT_OK);
  ct_clear_error();
  /* a failed out= call leaves its targets as they were */
  ct_tensor *ov = ct_full(CT_SHAPE(2), 7.0, NULL), *oi = ct_full(CT_SHAPE(2), 5, NULL);
  CHECK(ct_topk_out(ov, oi, x, 9, NULL) == CT_ERR_RUNTIME);
  ct_clear_error();
  double kept[2] = {0, 0};
  CHECK(ct_numel(ov) == 2 && ct_copy_to_buffer(ov, kept, CT_FLOAT64, sizeof kept) == CT_OK);
  CHECK(kept[0] == 7.0 && kept[1] == 7.0 && ct_numel(oi) == 2);
  ct_scope_end();
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* The block partition's sort gives the port's permutation, ties included, at each ISA level (AVX-512, AVX2,
   generic): keys drawn from few values (long runs of ties, every partition's crossing inside a block), runs,
   reversed runs, sizes around the block (64) and the insertion threshold (16). */
static void test_block_sort(void) {
  enum {
    MAX = 70000
  };
  static uint64_t a[MAX], b[MAX];
  /* 1 << 20 and 0xffffffff: few ties, so most small parts have distinct keys (sorted by ranks) and some
     do not (std::sort's steps) */
  static const uint32_t mods[] = {1, 2, 3, 5, 17, 100, 1000, 1u << 20, 0xffffffffu};
  int bad = 0;
  for (int level = CT_ISA_AVX512; level >= CT_ISA_GENERIC; level--) {
    ct__cpu_force_isa(level);
    for (int t = 0; t < 1500; t++) {
      int64_t n = t < 1200 ? (int64_t)(rng() % 300) : (int64_t)(rng() % MAX);
      uint32_t mod = mods[rng() % (sizeof mods / sizeof *mods)];
      int pat = (int)(rng() % 4);
      for (int64_t i = 0; i < n; i++) {
        uint32_t k = pat == 0   ? (uint32_t)(rng() % mod)
                     : pat == 1 ? (uint32_t)(i / (1 + mod % 7))
                     : pat == 2 ? (uint32_t)((n - i) % mod)
                                : (uint32_t)(i % 5 ? rng() % mod : 7);
        a[i] = b[i] = (uint64_t)k << 32 | (uint64_t)i;
      }
      ct__pk_sort(a, a + n);
      ct__pk_sort_reference(b, b + n);
      bad += memcmp(a, b, (size_t)n * sizeof *a) != 0;
    }
    /* every length around the leaf (16), the distinct-keys parts (32, 64) and the blocks (64, 128, 192), each
       key pattern and tie density (mods[0]: all equal) */
    static const int64_t lens[] = {16, 17, 18,  31,  32,  33,  47,  48,  63, 64,
                                   65, 66, 127, 128, 129, 130, 191, 192, 193};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
      for (size_t mi = 0; mi < sizeof mods / sizeof *mods; mi++)
        for (int pat = 0; pat < 4; pat++) {
          int64_t n = lens[li];
          for (int64_t i = 0; i < n; i++) {
            uint32_t k = pat == 0   ? (uint32_t)(rng() % mods[mi])
                         : pat == 1 ? (uint32_t)(n - i) /* descending, distinct */
                         : pat == 2 ? (uint32_t)((n - i) % mods[mi])
                                    : (uint32_t)(i % 5 ? rng() % mods[mi] : 7);
            a[i] = b[i] = (uint64_t)k << 32 | (uint64_t)i;
          }
          ct__pk_sort(a, a + n);
          ct__pk_sort_reference(b, b + n);
          bad += memcmp(a, b, (size_t)n * sizeof *a) != 0;
        }
  }
  ct__cpu_force_isa(-1);
  CHECK_EQ_INT(bad, 0);
  /* a line long enough to be split among threads: the parts left by the first partitions sorted anywhere */
  enum {
    BIG = 300000
  };
  uint64_t *c = malloc(BIG * sizeof *c), *d = malloc(BIG * sizeof *d);
  CHECK(c && d);
  if (!c || !d) return;
  /* many ties, then few (most small parts distinct) */
  for (uint32_t mod = 5000; mod; mod = mod == 5000 ? 1u << 26 : 0) {
    for (int64_t i = 0; i < BIG; i++) c[i] = d[i] = (uint64_t)(rng() % mod) << 32 | (uint64_t)i;
    int old = ct_get_num_threads();
    ct_set_num_threads(2);
    ct__pk_sort_threads(c, c + BIG, 2);
    ct_set_num_threads(old);
    ct__pk_sort_reference(d, d + BIG);
    CHECK(memcmp(c, d, BIG * sizeof *c) == 0);
  }
  free(c);
  free(d);
}

/* Values come back from the packed keys except where a key names several values: -0.0 and 0.0, NaNs of any
   sign and payload are read from the input. 21 elements (over std::sort's 16). Expected indices and value
   bits from torch 1.13: torch.sort(x) and torch.sort(x, descending=True) of x = the bits below, as float32. */
static void test_values_from_keys(void) {
  ct_scope_begin();
  static const uint32_t base[7] = {0x00000000, 0x80000000, 0x7fc00001, 0x80000000, 0xffc00002, 0x3f800000, 0};
  uint32_t bits[21];
  for (int k = 0; k < 21; k++) bits[k] = base[k % 7];
  float data[21];
  memcpy(data, bits, sizeof data);
  ct_tensor *x = ct_tensor_from_data(data, CT_FLOAT32, CT_SHAPE(21), NULL), *v = NULL, *i = NULL;
  static const int64_t asc_i[21] = {10, 20, 17, 15, 14, 13, 0, 8, 7, 6, 3, 1, 12, 5, 19, 9, 11, 4, 16, 2, 18};
  static const uint32_t asc_v[21] = {0x80000000, 0x0,        0x80000000, 0x80000000, 0x0,        0x0,
                                     0x0,        0x80000000, 0x0,        0x0,        0x80000000, 0x80000000,
                                     0x3f800000, 0x3f800000, 0x3f800000, 0x7fc00001, 0xffc00002, 0xffc00002,
                                     0x7fc00001, 0x7fc00001, 0xffc00002};
  static const int64_t desc_i[21] = {2,  4,  18, 16, 9, 11, 19, 5, 12, 10, 20,
                                     17, 15, 14, 13, 0, 8,  7,  6, 3,  1};
  static const uint32_t desc_v[21] = {0x7fc00001, 0xffc00002, 0xffc00002, 0x7fc00001, 0x7fc00001, 0xffc00002,
                                      0x3f800000, 0x3f800000, 0x3f800000, 0x80000000, 0x0,        0x80000000,
                                      0x80000000, 0x0,        0x0,        0x0,        0x80000000, 0x0,
                                      0x0,        0x80000000, 0x80000000};
  for (int d = 0; d < 2; d++) {
    CHECK(ct_sort(x, &v, &i, &(ct_sort_opts){.descending = d}) == CT_OK);
    check_i64s(i, d ? desc_i : asc_i, 21);
    float got[21];
    uint32_t gb[21];
    CHECK(v && ct_copy_to_buffer(v, got, CT_FLOAT32, sizeof got) == CT_OK);
    memcpy(gb, got, sizeof gb);
    for (int k = 0; k < 21; k++) CHECK_EQ_INT(gb[k], (d ? desc_v : asc_v)[k]);
  }
  ct_scope_end();
}

/* unique_hash.c against libstdc++ itself: every expected number below is printed by
   tests/unit/gen_unique_hash.cpp (g++ 12 on Debian 12, the libstdc++ of torch 1.13's build) */
static uint64_t lcg(uint64_t *s) { return *s = *s * 6364136223846793005ull + 1442695040888963407ull; }

static void check_order(int64_t n, const uint64_t *code, const uint64_t *key, const uint8_t *alone,
                        const int64_t *want, int64_t want_m, uint64_t want_buckets) {
  int64_t first[64], order[64], node_of[64];
  uint64_t buckets = 0;
  int64_t m = ct__uset_build(n, code, key, alone, first, node_of, order, &buckets);
  CHECK_EQ_INT(m, want_m);
  CHECK_EQ_INT((int64_t)buckets, (int64_t)want_buckets);
  for (int64_t j = 0; j < m && j < want_m; j++) CHECK_EQ_INT(first[order[j]], want[j]);
}

static void test_unique_hash(void) {
  /* _M_next_bkt(n): {n, buckets, _M_next_resize} (the small-size table, then lower_bound from 17) */
  static const uint64_t next[][3] = {{1, 2, 2},
                                     {2, 2, 2},
                                     {3, 3, 3},
                                     {4, 5, 5},
                                     {5, 5, 5},
                                     {8, 11, 11},
                                     {12, 13, 13},
                                     {13, 13, 13},
                                     {14, 17, 17},
                                     {16, 17, 17},
                                     {17, 17, 17},
                                     {18, 19, 19},
                                     {29, 29, 29},
                                     {30, 31, 31},
                                     {96, 97, 97},
                                     {97, 97, 97},
                                     {98, 103, 103},
                                     {1000, 1031, 1031},
                                     {65521, 67307, 67307},
                                     {65522, 67307, 67307},
                                     {1048576, 1056323, 1056323}};
  for (size_t k = 0; k < sizeof next / sizeof next[0]; k++) {
    uint64_t resize = 0;
    CHECK_EQ_INT((int64_t)ct__uset_next_bkt(next[k][0], &resize), (int64_t)next[k][1]);
    CHECK_EQ_INT((int64_t)resize, (int64_t)next[k][2]);
  }
  uint64_t untouched = 5;
  CHECK_EQ_INT((int64_t)ct__uset_next_bkt(0, &untouched), 1);
  CHECK_EQ_INT((int64_t)untouched, 5);
  /* growth of a set of 0, 1, 2, ...: {size at which the count changes, new count} (_M_need_rehash) */
  static const int64_t growth[][2] = {{1, 13},        {14, 29},        {30, 59},        {60, 127},
                                      {128, 257},     {258, 541},      {542, 1109},     {1110, 2357},
                                      {2358, 5087},   {5088, 10273},   {10274, 20753},  {20754, 42043},
                                      {42044, 85229}, {85230, 172933}, {172934, 351061}};
  enum {
    NG = 200000
  };
  uint64_t *codes = malloc(NG * sizeof *codes);
  int64_t *first = malloc(NG * 2 * sizeof *first);
  CHECK(codes && first);
  if (!codes || !first) return;
  for (size_t g = 0; g < sizeof growth / sizeof growth[0]; g++) {
    uint64_t buckets = 0;
    int64_t at = growth[g][0];
    for (int64_t i = 0; i < at; i++) codes[i] = (uint64_t)i;
    CHECK_EQ_INT(ct__uset_build(at, codes, NULL, NULL, first, NULL, first + NG, &buckets), at);
    CHECK_EQ_INT((int64_t)buckets, growth[g][1]);
    if (at > 1) {
      CHECK_EQ_INT(ct__uset_build(at - 1, codes, NULL, NULL, first, NULL, first + NG, &buckets), at - 1);
      CHECK_EQ_INT((int64_t)buckets, g ? growth[g - 1][1] : 1);
    }
  }
  /* std::hash<float> and <double> of 1.5, -2.25, 1e30 */
  static const uint64_t hashes[] = {6335102473512021944ull,  4982507072649106663ull, 16305508943945852619ull,
                                    12702181646673766799ull, 9984969817954984285ull, 11946312229783043595ull};
  const double dv[] = {1.5, -2.25, 1e30};
  for (int k = 0; k < 3; k++) {
    float f = (float)dv[k];
    CHECK_EQ_INT((int64_t)ct__hash_bytes(&f, 4, 0xc70f6907u), (int64_t)hashes[2 * k]);
    CHECK_EQ_INT((int64_t)ct__hash_bytes(&dv[k], 8, 0xc70f6907u), (int64_t)hashes[2 * k + 1]);
  }
  /* iteration orders, as each node's first input position: 40 int64s in [-20, 44) */
  uint64_t s = 7, code[64], key[64];
  for (int i = 0; i < 40; i++) code[i] = (uint64_t)((int64_t)(lcg(&s) >> 58) - 20);
  static const int64_t want40[] = {37, 13, 12, 10, 8,  6,  5,  1,  7,  27, 3,  9,  2,  18, 11,
                                   0,  14, 29, 15, 16, 36, 17, 23, 24, 21, 32, 33, 34, 28, 35};
  check_order(40, code, NULL, NULL, want40, 30, 59);
  /* doubles and floats {2.5, -0.0, 1.0, nan("1"), 0.0, 2.5, -7.0, nan("2"), 1e300 (float: 1e30), 1.0, 3.0}:
     hash 0 and equal keys for both zeros, each NaN alone (its hash: its bytes') */
  const double dd[] = {2.5, -0.0, 1.0, nan("1"), 0.0, 2.5, -7.0, nan("2"), 1e300, 1.0, 3.0};
  uint8_t alone[11];
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < 11; i++) {
      float f = pass ? (i == 8 ? 1e30f : i == 3 ? nanf("1") : i == 7 ? nanf("2") : (float)dd[i]) : 0;
      alone[i] = isnan(dd[i]);
      key[i] = 0;
      if (pass) memcpy(&key[i], &f, 4);
      else memcpy(&key[i], &dd[i], 8);
      if (dd[i] == 0) key[i] = 0;
      code[i] = dd[i] == 0 ? 0
                : pass     ? ct__hash_bytes(&f, 4, 0xc70f6907u)
                           : ct__hash_bytes(&dd[i], 8, 0xc70f6907u);
    }
    static const int64_t want_d[] = {10, 7, 8, 2, 6, 3, 1, 0}, want_f[] = {8, 10, 7, 6, 2, 1, 3, 0};
    check_order(11, code, key, alone, pass ? want_f : want_d, 8, 13);
  }
  /* 5000 values in [0, 4096): 2872 elements after 9 rehashes; checksum sum of first position * (rank + 1) */
  for (int i = 0; i < 5000; i++) codes[i] = lcg(&s) >> 52;
  uint64_t buckets = 0, sum = 0;
  int64_t m = ct__uset_build(5000, codes, NULL, NULL, first, NULL, first + NG, &buckets);
  for (int64_t j = 0; j < m; j++) sum += (uint64_t)first[first[NG + j]] * (uint64_t)(j + 1);
  CHECK_EQ_INT(m, 2872);
  CHECK_EQ_INT((int64_t)buckets, 5087);
  CHECK_EQ_INT((int64_t)sum, 7480596306);
  free(codes);
  free(first);
}

/* torch.unique(sorted=False) through the API, torch 1.13's results:
   torch.unique(torch.tensor([3,1,2,3,5,1,9,0,2]), sorted=False) -> [0, 9, 5, 2, 1, 3];
   torch.unique(torch.tensor([3.,1,2,3,5,1,9,0,2]), sorted=False, return_inverse=True, return_counts=True)
   -> ([0., 5., 2., 1., 9., 3.], [5, 3, 2, 5, 1, 3, 4, 0, 2], [1, 1, 2, 2, 1, 2]);
   torch.unique(torch.tensor([False, True]), sorted=False) -> [False, True] (no set for bool);
   torch.unique(torch.tensor([nan, 1, nan, 0., -0., 2]), sorted=False, return_inverse=True, return_counts=True)
   -> ([2., 0., 1., nan, nan], [0, 2, 0, 1, 1, 0], [1, 2, 1, 0, 0]) */
static void test_unique_unsorted(void) {
  ct_scope_begin();
  const ct_unique_opts uns = {.unsorted = true};
  ct_tensor *u = NULL, *inv = NULL, *cnt = NULL;
  CHECK(ct_unique(CT_TENSOR(3, 1, 2, 3, 5, 1, 9, 0, 2), &u, NULL, NULL, &uns) == CT_OK);
  check_i64s(u, (const int64_t[]){0, 9, 5, 2, 1, 3}, 6);
  CHECK(ct_unique(CT_TENSOR(3., 1, 2, 3, 5, 1, 9, 0, 2), &u, &inv, &cnt, &uns) == CT_OK);
  CHECK(u && ct_dtype_of(u) == CT_FLOAT32);
  check_i64s(u, (const int64_t[]){0, 5, 2, 1, 9, 3}, 6);
  check_i64s(inv, (const int64_t[]){5, 3, 2, 5, 1, 3, 4, 0, 2}, 9);
  check_i64s(cnt, (const int64_t[]){1, 1, 2, 2, 1, 2}, 6);
  CHECK(ct_unique(CT_TENSOR((bool)0, (bool)1), &u, NULL, NULL, &uns) == CT_OK);
  check_i64s(u, (const int64_t[]){0, 1}, 2);
  CHECK(ct_unique(CT_TENSOR(NAN, 1., NAN, 0., -0., 2.), &u, &inv, &cnt, &uns) == CT_OK);
  double got[5] = {0};
  CHECK(u && ct_numel(u) == 5 && ct_copy_to_buffer(u, got, CT_FLOAT64, sizeof got) == CT_OK);
  CHECK(got[0] == 2 && got[1] == 0 && !signbit(got[1]) && got[2] == 1 && isnan(got[3]) && isnan(got[4]));
  check_i64s(inv, (const int64_t[]){0, 2, 0, 1, 1, 0}, 6);
  check_i64s(cnt, (const int64_t[]){1, 2, 1, 0, 0}, 5);
  ct_scope_end();
}

/* sorted unique of integers over a range at most twice their count is counted, not sorted (unique.c's
   unique_dense): its output, inverse and counts are checked against their definition, computed here from
   the input (sorted distinct values, each element's position among them, each value's number), for int64 with
   negative values, int8 at its limits, and a spread int32 input that takes the sort. */
static void check_unique_definition(ct_tensor *x, int64_t n, const int64_t *v) {
  ct_tensor *u = NULL, *inv = NULL, *cnt = NULL;
  CHECK(ct_unique(x, &u, &inv, &cnt, NULL) == CT_OK);
  int64_t g = u ? ct_numel(u) : 0;
  int64_t *uv = malloc((size_t)(g + 1) * sizeof *uv), *iv = malloc((size_t)n * sizeof *iv);
  int64_t *cv = malloc((size_t)(g + 1) * sizeof *cv);
  CHECK(uv && iv && cv && g > 0 && ct_copy_to_buffer(u, uv, CT_INT64, (size_t)g * sizeof *uv) == CT_OK &&
        ct_copy_to_buffer(inv, iv, CT_INT64, (size_t)n * sizeof *iv) == CT_OK &&
        ct_copy_to_buffer(cnt, cv, CT_INT64, (size_t)g * sizeof *cv) == CT_OK);
  bool ok = uv && iv && cv;
  for (int64_t j = 1; ok && j < g; j++) ok = uv[j - 1] < uv[j];
  int64_t total = 0;
  for (int64_t j = 0; ok && j < g; j++) total += cv[j];
  ok = ok && total == n;
  for (int64_t i = 0; ok && i < n; i++) ok = iv[i] >= 0 && iv[i] < g && uv[iv[i]] == v[i];
  for (int64_t j = 0; ok && j < g; j++) {
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) c += v[i] == uv[j];
    ok = c == cv[j];
  }
  CHECK(ok);
  free(uv), free(iv), free(cv);
}

static void test_unique_dense(void) {
  ct_scope_begin();
  enum { N = 3000 };
  static int64_t v[N];
  int64_t sz = N;
  for (int64_t i = 0; i < N; i++) v[i] = (i * 7919) % 2500 - 1300; /* 2500 values, some twice */
  check_unique_definition(ct_tensor_from_data(v, CT_INT64, (ct_shape){&sz, 1}, NULL), N, v);
  static int8_t b[N];
  for (int64_t i = 0; i < N; i++) v[i] = b[i] = (int8_t)(i % 3 == 0 ? -128 : i % 3 == 1 ? 127 : (i * 13) % 50);
  check_unique_definition(ct_tensor_from_data(b, CT_INT8, (ct_shape){&sz, 1}, NULL), N, v);
  static int32_t w[N];
  for (int64_t i = 0; i < N; i++) v[i] = w[i] = (int32_t)((i * 104729) % 100003) * 1000; /* spread: sorted */
  check_unique_definition(ct_tensor_from_data(w, CT_INT32, (ct_shape){&sz, 1}, NULL), N, v);
  ct_scope_end();
}

/* Selections along a line of an expanded tensor 2^62 or 2^63 - 2 long: each line's scratch of 16-byte records
   was sized len * 16 in size_t, which wraps to 0 bytes at 2^62 (kthvalue then wrote past a 1-byte block).
   Now the request fails: out of memory, and the input is as it was. */
static void test_huge_expanded_lines(void) {
  const int64_t lens[2] = {INT64_C(1) << 62, INT64_MAX - 1};
  for (int i = 0; i < 2; i++) {
    ct_scope_begin();
    ct_tensor *x = ct_broadcast_to(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(lens[i]));
    CHECK(x && ct_numel(x) == lens[i]);
    ct_tensor *v = NULL, *ix = NULL;
    CHECK(ct_kthvalue(x, 1, &v, &ix, NULL) == CT_ERR_OUT_OF_MEMORY && !v && !ix);
    CHECK(ct_median_dim(x, 0, &v, &ix, NULL) == CT_ERR_OUT_OF_MEMORY && !v && !ix);
    CHECK(ct_nanmedian_dim(x, 0, &v, &ix, NULL) == CT_ERR_OUT_OF_MEMORY && !v && !ix);
    CHECK(ct_mode(x, &v, &ix, NULL) == CT_ERR_OUT_OF_MEMORY && !v && !ix);
    CHECK(ct_numel(x) == lens[i] && ct_strides(x)[0] == 0 && ct_storage_offset(x) == 0);
    ct_clear_error();
    ct_scope_end();
  }
}

int main(void) {
  test_huge_expanded_lines();
  test_unique_dense();
  test_unique_hash();
  test_unique_unsorted();
  test_block_sort();
  test_values_from_keys();
  test_tie_orders();
  test_search_and_softmax();
  test_threads();
  test_errors();
  return TEST_SUMMARY();
}
