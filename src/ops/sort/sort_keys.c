/* Order-preserving keys of every real dtype, generated from the dtype lists (kernels/cpu/dtypes.h), and the
   line orders built on them: a stable radix sort (std::stable_sort's order: any stable sort gives it) and
   libstdc++'s std::sort / partial_sort / nth_element over (key, index) pairs (stl_algo.h). */
#include "core/cpu_isa.h"
#include "kernels/cpu/dtypes.h"
#include "ops/sort/sort_internal.h"
#include "ops/sort/stl_algo.h"

/* ---- keys ---- */
#define SIGN(bits) ((uint64_t)1 << ((bits)-1))
#define MASK(bits) ((bits) == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (bits)) - 1))
/* IEEE bits u of a float of `bits` bits whose magnitude bits above `inf` are NaN. */
static inline uint64_t float_key(uint64_t u, int bits, uint64_t inf) {
  uint64_t mag = u & ~SIGN(bits) & MASK(bits);
  if (mag > inf) return MASK(bits);
  if (mag == 0) return SIGN(bits); /* -0.0 and 0.0 */
  return (u & SIGN(bits)) ? (~u & MASK(bits)) : (u | SIGN(bits));
}

static inline uint64_t key_CT_BOOL(const char *p) { return CT_LDB(*(const uint8_t *)p); }
static inline uint64_t key_CT_UINT8(const char *p) { return *(const uint8_t *)p; }
static inline uint64_t key_CT_INT8(const char *p) { return (uint8_t)(*(const int8_t *)p) ^ SIGN(8); }
/* the key of the BITS-bit word v at p: signed integers flip the sign bit, floats take float_key */
#define WORD_KEY(E, BITS, KEY)                    \
  static inline uint64_t key_##E(const char *p) { \
    uint##BITS##_t v;                             \
    memcpy(&v, p, sizeof v);                      \
    return KEY;                                   \
  }
WORD_KEY(CT_INT16, 16, v ^ SIGN(16))
WORD_KEY(CT_INT32, 32, v ^ SIGN(32))
WORD_KEY(CT_INT64, 64, v ^ SIGN(64))
WORD_KEY(CT_FLOAT16, 16, float_key(v, 16, 0x7c00))
WORD_KEY(CT_BFLOAT16, 16, float_key(v, 16, 0x7f80))
WORD_KEY(CT_FLOAT32, 32, float_key(v, 32, 0x7f800000u))
WORD_KEY(CT_FLOAT64, 64, float_key(v, 64, 0x7ff0000000000000ull))

/* The value of a key where it names one value (unkey_E(k, &v) true); -0.0 and 0.0 share a key, NaNs too, and
   bool's stored byte may be any non-zero byte: those are read back from the input. */
static inline bool float_unkey(uint64_t k, int bits, uint64_t *u) {
  if (k == MASK(bits) || k == SIGN(bits)) return false;
  *u = (k & SIGN(bits)) ? (k & ~SIGN(bits)) : (~k & MASK(bits));
  return true;
}
static inline bool unkey_CT_BOOL(uint64_t k, void *v) { return (void)k, (void)v, false; }
static inline bool unkey_CT_UINT8(uint64_t k, void *v) { return *(uint8_t *)v = (uint8_t)k, true; }
static inline bool unkey_CT_INT8(uint64_t k, void *v) { return *(uint8_t *)v = (uint8_t)(k ^ SIGN(8)), true; }
#define UNKEY_INT(E, BITS)                               \
  static inline bool unkey_##E(uint64_t k, void *v) {    \
    uint##BITS##_t b = (uint##BITS##_t)(k ^ SIGN(BITS)); \
    return memcpy(v, &b, sizeof b), true;                \
  }
UNKEY_INT(CT_INT16, 16)
UNKEY_INT(CT_INT32, 32)
UNKEY_INT(CT_INT64, 64)
#define UNKEY_FLOAT(E, BITS)                          \
  static inline bool unkey_##E(uint64_t k, void *v) { \
    uint64_t u;                                       \
    if (!float_unkey(k, BITS, &u)) return false;      \
    uint##BITS##_t b = (uint##BITS##_t)u;             \
    memcpy(v, &b, sizeof b);                          \
    return true;                                      \
  }
UNKEY_FLOAT(CT_FLOAT16, 16)
UNKEY_FLOAT(CT_BFLOAT16, 16)
UNKEY_FLOAT(CT_FLOAT32, 32)
UNKEY_FLOAT(CT_FLOAT64, 64)

/* float32's keys eight at a time (topk's filter) */
#if CT_ISA_X86
#include <immintrin.h>
static bool any_below_f32_avx2_ok(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }
CT_TARGET_AVX2 static bool any_below_f32_avx2(const char *p, int64_t n, uint32_t flip, uint64_t top) {
  const __m256i absm = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000),
                sign = _mm256_set1_epi32((int)0x80000000u), zero = _mm256_setzero_si256(),
                fl = _mm256_set1_epi32((int)flip), th = _mm256_set1_epi32((int)((uint32_t)top ^ 0x80000000u));
  __m256i any = zero;
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256i u = _mm256_loadu_si256((const __m256i *)(p + 4 * j)), mag = _mm256_and_si256(u, absm);
    /* negative: ~u; positive: u | sign; NaN: all ones; +-0: sign (float_key) */
    __m256i neg = _mm256_cmpgt_epi32(zero, u);
    __m256i k = _mm256_blendv_epi8(_mm256_or_si256(u, sign), _mm256_xor_si256(u, _mm256_set1_epi32(-1)), neg);
    k = _mm256_or_si256(k, _mm256_cmpgt_epi32(mag, inf));
    k = _mm256_blendv_epi8(k, sign, _mm256_cmpeq_epi32(mag, zero));
    k = _mm256_xor_si256(_mm256_xor_si256(k, fl), sign); /* unsigned order as signed */
    any = _mm256_or_si256(any, _mm256_cmpgt_epi32(th, k));
  }
  bool r = !_mm256_testz_si256(any, any);
  for (; j < n && !r; j++) r = (key_CT_FLOAT32(p + 4 * j) ^ flip) < top;
  return r;
}
/* float32's unpack with dense values and indices (the sort's usual results): four elements per step, the
   value rebuilt from its key; a step holding a key that names several values (+-0.0, NaN) is done one by one
   (unpack's loop below). a may be ix itself: each step reads its slots before writing them. */
static void unpack_CT_FLOAT32(const uint64_t *a, int64_t n, uint64_t flip, const char *p, int64_t step,
                              char *v, int64_t vstep, char *ix, int64_t xstep);
CT_TARGET_AVX2 static void unpack_f32_avx2(const uint64_t *a, int64_t n, uint32_t flip, const char *p,
                                           int64_t step, char *v, char *ix) {
  const __m256i low = _mm256_set1_epi64x(0xffffffffll), sign = _mm256_set1_epi32((int)0x80000000u),
                ones = _mm256_set1_epi32(-1), fl = _mm256_set1_epi32((int)flip),
                odd = _mm256_setr_epi32(1, 3, 5, 7, 0, 0, 0, 0);
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(a + j));
    __m256i k = _mm256_xor_si256(_mm256_permutevar8x32_epi32(x, odd), fl); /* lanes 0-3: the keys */
    __m256i special = _mm256_or_si256(_mm256_cmpeq_epi32(k, sign), _mm256_cmpeq_epi32(k, ones));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(special)) & 15) {
      unpack_CT_FLOAT32(a + j, 4, flip, p, step, v + 4 * j, 4, ix ? ix + 8 * j : NULL, 8);
      continue;
    }
    /* key with the sign bit: u = key without it; otherwise u = ~key (float_unkey) */
    __m256i neg = _mm256_cmpgt_epi32(_mm256_setzero_si256(), k);
    __m256i u = _mm256_blendv_epi8(_mm256_xor_si256(k, ones), _mm256_andnot_si256(sign, k), neg);
    _mm_storeu_si128((__m128i *)(v + 4 * j), _mm256_castsi256_si128(u));
    if (ix) _mm256_storeu_si256((__m256i *)(ix + 8 * j), _mm256_and_si256(x, low));
  }
  if (j < n) unpack_CT_FLOAT32(a + j, n - j, flip, p, step, v + 4 * j, 4, ix ? ix + 8 * j : NULL, 8);
}
#else
static bool any_below_f32_avx2_ok(void) { return false; }
static bool any_below_f32_avx2(const char *p, int64_t n, uint32_t flip, uint64_t top) {
  return (void)p, (void)n, (void)flip, (void)top, false;
}
static void unpack_f32_avx2(const uint64_t *a, int64_t n, uint32_t flip, const char *p, int64_t step, char *v,
                            char *ix) {
  (void)a, (void)n, (void)flip, (void)p, (void)step, (void)v, (void)ix;
}
#endif

/* argsort's unpack (indices only, dense): ix[j] = the index a[j] holds; a is usually ix itself, walked as one
   array then (each slot read before it is written) so that the loop vectorizes without an overlap check. */
CT_KERNEL_CLONES static void unpack_indices(const uint64_t *a, int64_t n, int64_t *ix) {
  if ((const void *)a == (void *)ix) {
    uint64_t *q = (uint64_t *)(void *)ix;
    for (int64_t j = 0; j < n; j++) q[j] &= 0xffffffffu;
  } else {
    for (int64_t j = 0; j < n; j++) ix[j] = (int64_t)(a[j] & 0xffffffffu);
  }
}

#define KEY_BITS(T) ((int)sizeof(T) * 8)
#define DEFINE_TYPE(E, T, CT, LOAD, STORE)                                                                  \
  CT_KERNEL_CLONES static void packed_##E(const char *p, int64_t step, int64_t n, uint64_t flip,            \
                                          uint64_t *dst) {                                                  \
    if (step == (int64_t)sizeof(T)) { /* the contiguous loop vectorizes */                                  \
      for (int64_t j = 0; j < n; j++)                                                                       \
        dst[j] = ((key_##E(p + j * (int64_t)sizeof(T)) ^ flip) << 32) | (uint64_t)j;                        \
    } else {                                                                                                \
      for (int64_t j = 0; j < n; j++) dst[j] = ((key_##E(p + j * step) ^ flip) << 32) | (uint64_t)j;        \
    }                                                                                                       \
  }                                                                                                         \
  static void unpack_##E(const uint64_t *a, int64_t n, uint64_t flip, const char *p, int64_t step, char *v, \
                         int64_t vstep, char *ix, int64_t xstep) {                                          \
    if (E == CT_FLOAT32 && n >= 8 && v && vstep == 4 && (!ix || xstep == 8) && any_below_f32_avx2_ok()) {   \
      unpack_f32_avx2(a, n, (uint32_t)flip, p, step, v, ix);                                                \
      return;                                                                                               \
    }                                                                                                       \
    if (!v && ix && xstep == 8) {                                                                           \
      unpack_indices(a, n, (int64_t *)(void *)ix);                                                          \
      return;                                                                                               \
    }                                                                                                       \
    for (int64_t j = 0; j < n; j++) {                                                                       \
      int64_t i = (int64_t)(a[j] & 0xffffffffu);                                                            \
      if (v) {                                                                                              \
        T e;                                                                                                \
        if (!unkey_##E((a[j] >> 32) ^ flip, &e)) memcpy(&e, p + i * step, sizeof e);                        \
        memcpy(v + j * vstep, &e, sizeof e);                                                                \
      }                                                                                                     \
      if (ix) memcpy(ix + j * xstep, &i, sizeof i);                                                         \
    }                                                                                                       \
  }                                                                                                         \
  CT_KERNEL_CLONES static bool any_below_##E(const char *p, int64_t n, uint64_t flip, uint64_t top) {       \
    if (E == CT_FLOAT32 && any_below_f32_avx2_ok()) return any_below_f32_avx2(p, n, (uint32_t)flip, top);   \
    unsigned any = 0; /* no early exit: the loop vectorizes */                                              \
    for (int64_t j = 0; j < n; j++) any |= (key_##E(p + j * (int64_t)sizeof(T)) ^ flip) < top;              \
    return any;                                                                                             \
  }                                                                                                         \
  static void kv_##E(const char *p, int64_t step, int64_t n, uint64_t flip, ct_kv *dst) {                   \
    for (int64_t j = 0; j < n; j++) {                                                                       \
      dst[j].k = key_##E(p + j * step) ^ flip;                                                              \
      dst[j].i = j;                                                                                         \
    }                                                                                                       \
  }                                                                                                         \
  static double dbl_##E(const char *p) {                                                                    \
    T v;                                                                                                    \
    memcpy(&v, p, sizeof v);                                                                                \
    return (double)LOAD(v);                                                                                 \
  }                                                                                                         \
  const ct_sort_type ct__sort_key_##E = {.dtype = E,                                                        \
                                         .key_bits = KEY_BITS(T),                                           \
                                         .packed = packed_##E,                                              \
                                         .unpack = unpack_##E,                                              \
                                         .kv = kv_##E,                                                      \
                                         .any_below = any_below_##E,                                        \
                                         .key = key_##E,                                                    \
                                         .is_float = E == CT_FLOAT16 || E == CT_BFLOAT16 ||                 \
                                                     E == CT_FLOAT32 || E == CT_FLOAT64,                    \
                                         .to_double = dbl_##E};
/* bool's storage is a byte (CT_LDB normalises it) */
#define DEFINE_BOOL(E, T, CT, LOAD, STORE) DEFINE_TYPE(E, uint8_t, uint8_t, CT_LDB, CT_LDB)
CT_DT_BOOL(DEFINE_BOOL)
CT_DT_INTEGRAL(DEFINE_TYPE)
CT_DT_FLOATING(DEFINE_TYPE)

#define ROW CT_SORT_ROW
/* the meta row: shape only, every dtype (complex too: torch's meta functions check no dtype) */
#define ROW_META(E, T, CT, LOAD, STORE) [E] = &ct__sort_key_CT_FLOAT64,
const ct_sort_type *const ct__sort_types[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ROW) CT_DT_INTEGRAL(ROW)
                                                                   CT_DT_FLOATING(ROW)};
const ct_sort_type *const ct__sort_meta_row[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(ROW) CT_DT_INTEGRAL(ROW) CT_DT_FLOATING(ROW) CT_DT_COMPLEX(ROW_META)};

/* ---- libstdc++'s algorithms ---- */
#define PACKED_LESS(cx, a, b) (((a) >> 32) < ((b) >> 32))
#define KV_LESS(cx, a, b)     ((a).k < (b).k)
CT_STL_ALGOS(pk, uint64_t, PACKED_LESS)
CT_STL_ALGOS(kvs, ct_kv, KV_LESS)

void ct__kv_std_sort(ct_kv *first, ct_kv *last) { kvs_sort(NULL, first, last); }
void ct__kv_partial_sort(ct_kv *first, ct_kv *middle, ct_kv *last) {
  kvs_partial_sort(NULL, first, middle, last);
}
void ct__kv_nth_element(ct_kv *first, ct_kv *nth, ct_kv *last) { kvs_nth_element(NULL, first, nth, last); }

void ct__kv_topk_stream(const ct_sort_type *ty, const char *p, int64_t step, int64_t n, int64_t k,
                        uint64_t flip, ct_kv *heap) {
  enum {
    CHUNK = 512
  };
  ty->kv(p, step, k, flip, heap);
  kvs_make_heap(NULL, heap, heap + k);
  uint64_t top = heap[0].k;
  bool contiguous = step == (int64_t)ct__itemsize(ty->dtype);
  for (int64_t i = k; i < n;) {
    int64_t end = n - i < CHUNK ? n : i + CHUNK;
    /* the heap's top only falls: a chunk with no key below it now changes nothing */
    if (contiguous && !ty->any_below(p + i * step, end - i, flip, top)) {
      i = end;
      continue;
    }
    for (; i < end; i++) {
      uint64_t key = ty->key(p + i * step) ^ flip;
      if (key < top) {
        kvs_adjust_heap(NULL, heap, 0, k, (ct_kv){key, i});
        top = heap[0].k;
      }
    }
  }
  kvs_sort_heap(NULL, heap, heap + k);
}

/* ---- stable radix sorts (LSD, 8-bit digits; a digit every key shares is skipped) ----
   NAME(a, tmp, n, key_bits) sorts a[0..n) of T by DIGIT(element, d) (d: the d-th byte of the key); tmp holds n
   entries. Without memory for the counts it falls back to the (stable) insertion sort INSERTION. */
#define DEFINE_RADIX(NAME, T, DIGIT, INSERTION)                              \
  static void NAME(T *a, T *tmp, int64_t n, int key_bits) {                  \
    int passes = key_bits / 8;                                               \
    int64_t(*hist)[256] = ct__malloc(sizeof(int64_t[256]) * (size_t)passes); \
    if (!hist) {                                                             \
      INSERTION(NULL, a, a + n);                                             \
      return;                                                                \
    }                                                                        \
    memset(hist, 0, sizeof(int64_t[256]) * (size_t)passes);                  \
    for (int64_t j = 0; j < n; j++)                                          \
      for (int d = 0; d < passes; d++) hist[d][DIGIT(a[j], d)]++;            \
    T *src = a, *dst = tmp;                                                  \
    for (int d = 0; d < passes; d++) {                                       \
      int64_t *h = hist[d], sum = 0;                                         \
      bool trivial = false;                                                  \
      for (int b = 0; b < 256; b++) {                                        \
        if (h[b] == n) trivial = true;                                       \
        int64_t c = h[b];                                                    \
        h[b] = sum;                                                          \
        sum += c;                                                            \
      }                                                                      \
      if (trivial) continue;                                                 \
      for (int64_t j = 0; j < n; j++) dst[h[DIGIT(src[j], d)]++] = src[j];   \
      T *t = src;                                                            \
      src = dst;                                                             \
      dst = t;                                                               \
    }                                                                        \
    if (src != a) memcpy(a, src, (size_t)n * sizeof *a);                     \
    ct__free(hist);                                                          \
  }
#define PACKED_DIGIT(x, d) (((x) >> (32 + 8 * (d))) & 0xff)
#define KV_DIGIT(x, d)     (((x).k >> (8 * (d))) & 0xff)
DEFINE_RADIX(radix_packed, uint64_t, PACKED_DIGIT, pk_insertion_sort)
DEFINE_RADIX(radix_kv, ct_kv, KV_DIGIT, kvs_insertion_sort)

void ct__sort_kv_stable(ct_kv *a, ct_kv *tmp, int64_t n, int key_bits) { radix_kv(a, tmp, n, key_bits); }

/* ---- a line's sorted order ---- */
static bool is_packed(const ct_sort_type *ty, int64_t n) {
  return ty->key_bits <= 32 && n < ((int64_t)1 << 32);
}

/* Packed elements are sorted in the indices' own memory where it is dense (the unpacking reads each slot
   before writing it): no scratch for std::sort, n elements for the radix sort's second buffer. */
static bool in_ix(const ct_sort_type *ty, int64_t n, bool ix_dense) { return is_packed(ty, n) && ix_dense; }

size_t ct__sort_scratch_bytes(const ct_sort_type *ty, int64_t n, bool stable, bool ix_dense) {
  size_t m = (size_t)(n > 0 ? n : 1);
  if (is_packed(ty, n))
    return m * sizeof(uint64_t) * ((stable || n <= CT_STL_THRESHOLD ? 2 : 1) - in_ix(ty, n, ix_dense));
  return m * (2 * sizeof(ct_kv) + sizeof(int64_t));
}

void ct__sort_line(const ct_sort_type *ty, const char *p, int64_t step, int64_t n, bool desc, bool stable,
                   char *v, int64_t vstep, char *ix, int64_t xstep, void *scratch, int nthreads) {
  uint64_t flip = desc ? MASK(ty->key_bits) : 0;
  /* std::sort is an insertion sort up to 16 elements: stable there */
  bool use_stable = stable || n <= CT_STL_THRESHOLD;
  if (is_packed(ty, n)) {
    bool own = in_ix(ty, n, ix && xstep == (int64_t)sizeof(int64_t));
    uint64_t *a = own ? (uint64_t *)(void *)ix : scratch, *tmp = own ? scratch : a + n;
    ty->packed(p, step, n, flip, a);
    if (use_stable) radix_packed(a, tmp, n, ty->key_bits);
    else ct__pk_sort_threads(a, a + n, nthreads);
    ty->unpack(a, n, flip, p, step, v, vstep, ix, xstep);
  } else {
    ct_kv *a = scratch, *tmp = a + n;
    int64_t *perm = (int64_t *)(tmp + n);
    ty->kv(p, step, n, flip, a);
    if (use_stable) ct__sort_kv_stable(a, tmp, n, ty->key_bits);
    else kvs_sort(NULL, a, a + n);
    for (int64_t j = 0; j < n; j++) perm[j] = a[j].i;
    ct__sort_write_line(p, step, perm, n, ct__itemsize(ty->dtype), v, vstep, ix, xstep);
  }
}
