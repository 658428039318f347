/* libstdc++'s std::sort over packed elements (key << 32 | index, ordered by the key alone), with the same
   result as stl_algo.h's step-for-step port (torch's tie order) but without its unpredictable branches.

   Why the result is the same: std::sort's only moves are __unguarded_partition's swaps, heap sort at the
   depth limit, and the final insertion sort. A Hoare partition of [first + 1, last) around the pivot p at
   first is fixed by two lists taken from the array before it starts: L, the positions whose key is >= p in
   ascending order (where the left scan stops), and R, the positions whose key is <= p in descending order
   (where the right scan stops). It swaps L[i] with R[i] for every i < m, m the first i with L[i] >= R[i],
   and returns min(L[m], R[m - 1]) (L[0] when m is 0): before the scans cross, the positions a scan passes
   were not written by an earlier swap, and after the last swap the left scan stops at L[m] or at R[m - 1],
   which then holds an element >= p. So the lists can be read a block at a time, as bit masks (one compare
   per element, vectorised), and the swaps done pair by pair from the masks (BlockQuicksort's idea with
   Hoare's pairing kept); only the last block, where the scans cross, is paired with both masks at hand.
   The final insertion sort only moves an element past greater ones, and every leaf that the partitions
   leave (at most 16 elements) holds keys no greater than the next leaf's: it is a stable sort of each leaf,
   done here when the leaf is made, while it is in cache. */
#include "core/cpu_isa.h"
#include "core/parallel.h"
#include "ops/sort/sort_internal.h"
#include "ops/sort/stl_algo.h"

#define PK_LESS(cx, a, b) (((a) >> 32) < ((b) >> 32))
CT_STL_ALGOS(bk, uint64_t, PK_LESS)

#define BLOCK 64
#define LOW32 ((uint64_t)0xffffffffu)

/* bit t: q[t] >= thr (a left-scan stop) / q[t] <= thr (a right-scan stop), t < w <= 64 */
static inline uint64_t ge_mask(const uint64_t *q, int64_t w, uint64_t thr) {
  uint64_t m = 0;
  for (int64_t t = 0; t < w; t++) m |= (uint64_t)(q[t] >= thr) << t;
  return m;
}
static inline uint64_t le_mask(const uint64_t *q, int64_t w, uint64_t thr) {
  uint64_t m = 0;
  for (int64_t t = 0; t < w; t++) m |= (uint64_t)(q[t] <= thr) << t;
  return m;
}
/* bit t: top[-1 - t] <= thr: the right scan's stops in the order it meets them */
static inline uint64_t le_mask_down(const uint64_t *top, int64_t w, uint64_t thr) {
  uint64_t m = 0;
  for (int64_t t = 0; t < w; t++) m |= (uint64_t)(top[-1 - t] <= thr) << t;
  return m;
}

#if CT_ISA_X86
#include <immintrin.h>
#define SIGN64 ((long long)0x8000000000000000ull)
/* Bit t of the four elements at q (reversed: q[3 - t]) that are not above thr (le) or not below it (!le):
   unsigned x >= thr is !(thr > x) with both flipped to signed. */
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t bits4_avx2(const uint64_t *q, uint64_t thr, bool le, bool reversed) {
  const __m256i s = _mm256_set1_epi64x(SIGN64), th = _mm256_set1_epi64x((long long)thr ^ SIGN64);
  __m256i x = _mm256_loadu_si256((const __m256i *)q);
  if (reversed) x = _mm256_permute4x64_epi64(x, 0x1b);
  x = _mm256_xor_si256(x, s);
  __m256i out = le ? _mm256_cmpgt_epi64(x, th) : _mm256_cmpgt_epi64(th, x);
  return (uint64_t)(~_mm256_movemask_pd(_mm256_castsi256_pd(out)) & 15);
}
/* The same for eight elements, compared as 32-bit keys (their high halves gathered into one vector): bit t of
   q[t] (reversed: q[7 - t]). */
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t bits8_avx2(const uint64_t *q, uint64_t thr, bool le, bool reversed) {
  const __m256i s = _mm256_set1_epi32((int)0x80000000u),
                th = _mm256_set1_epi32((int)((uint32_t)(thr >> 32) ^ 0x80000000u));
  __m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)q)),
         b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(q + 4)));
  /* keys of q0 q1 q4 q5 | q2 q3 q6 q7, then put in order */
  __m256i k = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xdd));
  k = _mm256_permutevar8x32_epi32(k, reversed ? _mm256_setr_epi32(7, 6, 3, 2, 5, 4, 1, 0)
                                              : _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
  k = _mm256_xor_si256(k, s);
  __m256i out = le ? _mm256_cmpgt_epi32(k, th) : _mm256_cmpgt_epi32(th, k);
  return (uint64_t)(~_mm256_movemask_ps(_mm256_castsi256_ps(out)) & 0xff);
}
/* bit t (t < w <= 64) of q[t] <= thr (le) or q[t] >= thr: eight, then four at a time, the rest one by one */
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t stops_avx2(const uint64_t *q, int64_t w, uint64_t thr, bool le) {
  uint64_t m = 0;
  int64_t t = 0;
  for (; t + 8 <= w; t += 8) m |= bits8_avx2(q + t, thr, le, false) << t;
  for (; t + 4 <= w; t += 4) m |= bits4_avx2(q + t, thr, le, false) << t;
  return t < w ? m | (le ? le_mask : ge_mask)(q + t, w - t, thr) << t : m;
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t ge_mask_avx2(const uint64_t *q, int64_t w, uint64_t thr) {
  return stops_avx2(q, w, thr, false);
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t le_mask_avx2(const uint64_t *q, int64_t w, uint64_t thr) {
  return stops_avx2(q, w, thr, true);
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE uint64_t le_mask_down_avx2(const uint64_t *top, int64_t w, uint64_t thr) {
  uint64_t m = 0;
  int64_t t = 0;
  for (; t + 8 <= w; t += 8) m |= bits8_avx2(top - 8 - t, thr, true, true) << t; /* bit t: top[-1 - t] */
  for (; t + 4 <= w; t += 4) m |= bits4_avx2(top - 4 - t, thr, true, true) << t;
  return t < w ? m | le_mask_down(top - t, w - t, thr) << t : m;
}
#endif

/* The count of trailing zeros of x != 0 as a 64-bit offset: __builtin_ctzll's int costs a sign extension in
   every address computed from it (GCC). tzcnt runs as bsf on CPUs without BMI, the same for x != 0. */
static inline uint64_t tz64(uint64_t x) {
#if CT_ISA_X86
  uint64_t r;
  __asm__("tzcnt %1, %0" : "=r"(r) : "r"(x) : "cc");
  return r;
#else
  return (uint64_t)__builtin_ctzll(x);
#endif
}

static inline void swap64(uint64_t *a, uint64_t *b) {
  uint64_t t = *a;
  *a = *b;
  *b = t;
}

/* A line a scan reaches 16 blocks on: one prefetch a block takes the top partitions, which stream a line
   larger than the caches from both ends, about a quarter faster (elements: may lie outside the line). */
#define PREFETCH (16 * BLOCK)
static inline void prefetch_at(const uint64_t *p, int64_t elements) {
  __builtin_prefetch((const void *)((uintptr_t)p + (uintptr_t)(elements * (int64_t)sizeof *p)), 1);
}

/* __move_median_to_first(first, first + 1, mid, last - 1): the same choice, made with selects */
static inline void median_to_first(uint64_t *first, uint64_t *last) {
  uint64_t *a = first + 1, *b = first + (last - first) / 2, *c = last - 1;
  uint64_t ka = *a >> 32, kb = *b >> 32, kc = *c >> 32;
  bool ab = ka < kb, bc = kb < kc, ac = ka < kc;
  uint64_t *if_ab = bc ? b : ac ? c : a, *if_not = ac ? a : bc ? c : b;
  swap64(first, ab ? if_ab : if_not);
}

/* bit 63 - t of x is bit t of the result */
static inline uint64_t rev64(uint64_t x) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(x);
}

/* The end of __unguarded_partition, where the scans cross in the window W = [ws, we) (PARTITION_BODY): gw /
   lw, bit t: ws[t] is a left / right stop not yet swapped; prev_r: the last right stop swapped. */
static inline uint64_t *cross(uint64_t *ws, uint64_t *we, uint64_t gw, uint64_t lw, uint64_t *prev_r) {
  uint64_t rw = rev64(lw), *w63 = ws + 63; /* bit s: w63[-s], so that each step clears its lowest bit */
  for (;;) {
    uint64_t *a = gw ? ws + tz64(gw) : we;
    if (!rw) return a < prev_r ? a : prev_r;
    uint64_t *b = w63 - tz64(rw);
    if (a >= b) return a < prev_r ? a : prev_r;
    swap64(a, b);
    gw &= gw - 1;
    rw &= rw - 1;
    prev_r = b;
  }
}

/* __unguarded_partition(first + 1, last, first): the cut. GE, LE, LE_DOWN: the mask functions above. */
#define PARTITION_BODY(GE, LE, LE_DOWN)                                                                   \
  const uint64_t lo = *first & ~LOW32, hi = *first | LOW32; /* key >= p: x >= lo; key <= p: x <= hi */    \
  uint64_t *l = first + 1, *r = last;                       /* not yet read: [l, r) */                    \
  uint64_t *last_r = last;                                  /* the last right stop swapped */             \
  uint64_t *ws, *we, gw, lw;                                /* the crossing block (below) */              \
  if (r - l <= BLOCK) {                                     /* one block: straight to the crossing */     \
    ws = l;                                                                                               \
    we = r;                                                                                               \
    gw = GE(ws, we - ws, lo);                                                                             \
    lw = LE(ws, we - ws, hi);                                                                             \
  } else {                                                                                                \
    uint64_t *bl = l, *br = r; /* left mask bit t: bl + t; right mask bit t: br - 1 - t */                \
    uint64_t ml = 0, mr = 0, *last_l = first;                                                             \
    for (;;) {                                                                                            \
      if (!ml) {                                                                                          \
        if (l == r) break;                                                                                \
        int64_t w = r - l < BLOCK ? r - l : BLOCK;                                                        \
        bl = l;                                                                                           \
        prefetch_at(l, PREFETCH);                                                                         \
        ml = w == BLOCK ? GE(l, BLOCK, lo) : GE(l, w, lo); /* the full block unrolled */                  \
        l += w;                                                                                           \
        continue;                                                                                         \
      }                                                                                                   \
      if (!mr) {                                                                                          \
        if (l == r) break;                                                                                \
        int64_t w = r - l < BLOCK ? r - l : BLOCK;                                                        \
        br = r;                                                                                           \
        prefetch_at(r, -PREFETCH - 8);                                                                    \
        mr = w == BLOCK ? LE_DOWN(r, BLOCK, hi) : LE_DOWN(r, w, hi);                                      \
        r -= w;                                                                                           \
        continue;                                                                                         \
      }                                                                                                   \
      uint64_t *br1 = br - 1; /* right mask bit t: br1 - t */                                             \
      do {                                                                                                \
        last_l = bl + tz64(ml);                                                                           \
        last_r = br1 - tz64(mr);                                                                          \
        swap64(last_l, last_r);                                                                           \
        ml &= ml - 1;                                                                                     \
        mr &= mr - 1;                                                                                     \
      } while (ml && mr);                                                                                 \
    }                                                                                                     \
    /* The scans cross in W = [ws, we) (at most one block): left of it every key is < p, right of it    \
       > p, so past W a left stop is we and a right stop is below every left one. */ \
    ws = we = l;                                                                                          \
    gw = lw = 0;                                                                                          \
    if (ml) {                                                                                             \
      ws = bl > last_l + 1 ? bl : last_l + 1;                                                             \
      gw = ml >> (ws - bl);                                                                               \
      lw = LE(ws, we - ws, hi);                                                                           \
    } else if (mr) {                                                                                      \
      we = br < last_r ? br : last_r;                                                                     \
      gw = GE(ws, we - ws, lo);                                                                           \
      lw = LE(ws, we - ws, hi);                                                                           \
    }                                                                                                     \
  }                                                                                                       \
  return cross(ws, we, gw, lw, last_r);

static uint64_t *partition_generic(uint64_t *first,
                                   uint64_t *last){PARTITION_BODY(ge_mask, le_mask, le_mask_down)}
#if CT_ISA_X86
CT_TARGET_AVX2 static uint64_t *partition_avx2(uint64_t *first, uint64_t *last) {
  PARTITION_BODY(ge_mask_avx2, le_mask_avx2, le_mask_down_avx2)
}
#endif

#if CT_ISA_X86
/* The same masks from sixteen 32-bit keys per compare (AVX-512): bit t (t < w <= 64) of q[t] >= thr (ge) or
   q[t] <= thr; lanes past w are neither loaded nor set. */
CT_TARGET_AVX512 CT_ALWAYS_INLINE uint64_t stops_avx512(const uint64_t *q, int64_t w, uint64_t thr, bool ge) {
  const __m512i hi32 = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
                th = _mm512_set1_epi32((int)(thr >> 32));
  const uint64_t valid = w >= 64 ? ~0ull : ((uint64_t)1 << w) - 1;
  uint64_t m = 0;
  _Pragma("GCC unroll 4") for (int c = 0; c < 64; c += 16) {
    __m512i a = _mm512_maskz_loadu_epi64((__mmask8)(valid >> c), q + c),
            b = _mm512_maskz_loadu_epi64((__mmask8)(valid >> (c + 8)), q + c + 8);
    __m512i k = _mm512_permutex2var_epi32(a, hi32, b);
    __mmask16 v = (__mmask16)(valid >> c);
    m |= (uint64_t)(ge ? _mm512_mask_cmpge_epu32_mask(v, k, th) : _mm512_mask_cmple_epu32_mask(v, k, th))
         << c;
  }
  return m;
}
/* lanes j >= k of eight (0 <= k clamped to 8) */
static inline unsigned lanes_from(int64_t k) { return k <= 0 ? 0xffu : k >= 8 ? 0u : (0xffu << k) & 0xffu; }
/* bit t (t < w <= 64) of top[-1 - t] <= thr: the right scan's stops in the order it meets them (the keys
   gathered in that order) */
CT_TARGET_AVX512 CT_ALWAYS_INLINE uint64_t stops_down_avx512(const uint64_t *top, int64_t w, uint64_t thr) {
  const __m512i hi32 = _mm512_setr_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1),
                th = _mm512_set1_epi32((int)(thr >> 32));
  const uint64_t valid = w >= 64 ? ~0ull : ((uint64_t)1 << w) - 1;
  uint64_t m = 0;
  _Pragma("GCC unroll 4") for (int c = 0; c < 64; c += 16) { /* b: bits c..c + 7, a: c + 8..c + 15 */
    __m512i a = _mm512_maskz_loadu_epi64((__mmask8)lanes_from(c + 16 - w), top - c - 16),
            b = _mm512_maskz_loadu_epi64((__mmask8)lanes_from(c + 8 - w), top - c - 8);
    __m512i k = _mm512_permutex2var_epi32(a, hi32, b);
    m |= (uint64_t)_mm512_mask_cmple_epu32_mask((__mmask16)(valid >> c), k, th) << c;
  }
  return m;
}
CT_TARGET_AVX512 CT_ALWAYS_INLINE uint64_t ge_mask_avx512(const uint64_t *q, int64_t w, uint64_t thr) {
  return stops_avx512(q, w, thr, true);
}
CT_TARGET_AVX512 CT_ALWAYS_INLINE uint64_t le_mask_avx512(const uint64_t *q, int64_t w, uint64_t thr) {
  return stops_avx512(q, w, thr, false);
}
CT_TARGET_AVX512 static uint64_t *partition_avx512(uint64_t *first, uint64_t *last) {
  PARTITION_BODY(ge_mask_avx512, le_mask_avx512, stops_down_avx512)
}
#endif

/* The final insertion sort's work on one leaf (<= 16 elements): a stable sort by key. */
static void leaf_generic(uint64_t *first, uint64_t *last) { bk_insertion_sort(NULL, first, last); }
#if CT_ISA_X86
/* The same by ranks: with the position in the low bits (c = key << 32 | j, all distinct), the element at j
   goes to #{i : c_i < c_j}. */
CT_TARGET_AVX2 static void leaf_avx2(uint64_t *first, uint64_t *last) {
  int64_t n = last - first;
  if (n < 2) return;
  /* always 16 lanes (padding above every element): no branch on the leaf's size but the one loop */
  uint64_t c[16], x[16];
  for (int64_t j = 0; j < 16; j++)
    c[j] = j < n ? ((first[j] & ~LOW32) | (uint64_t)j) ^ (uint64_t)SIGN64 : ~0ull >> 1;
  memcpy(x, first, (size_t)n * sizeof *x);
  __m256i c0 = _mm256_loadu_si256((const __m256i *)c), c1 = _mm256_loadu_si256((const __m256i *)(c + 4)),
          c2 = _mm256_loadu_si256((const __m256i *)(c + 8)),
          c3 = _mm256_loadu_si256((const __m256i *)(c + 12));
  __m256i r0 = _mm256_setzero_si256(), r1 = r0, r2 = r0, r3 = r0;
  for (int64_t i = 0; i < n; i++) {
    __m256i ci = _mm256_set1_epi64x((long long)c[i]);
    r0 = _mm256_sub_epi64(r0, _mm256_cmpgt_epi64(c0, ci));
    r1 = _mm256_sub_epi64(r1, _mm256_cmpgt_epi64(c1, ci));
    r2 = _mm256_sub_epi64(r2, _mm256_cmpgt_epi64(c2, ci));
    r3 = _mm256_sub_epi64(r3, _mm256_cmpgt_epi64(c3, ci));
  }
  int64_t r[16];
  _mm256_storeu_si256((__m256i *)r, r0);
  _mm256_storeu_si256((__m256i *)(r + 4), r1);
  _mm256_storeu_si256((__m256i *)(r + 8), r2);
  _mm256_storeu_si256((__m256i *)(r + 12), r3);
  for (int64_t j = 0; j < n; j++) first[r[j]] = x[j];
}
/* The same with the keys less than 2^28 apart (otherwise leaf_avx2): c = (key - least) << 4 | j, sixteen
   32-bit c per compare. */
CT_TARGET_AVX512 static void leaf_avx512(uint64_t *first, uint64_t *last) {
  const int64_t n = last - first;
  if (n < 2) return;
  const __m512i hi32 = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
                pos = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __mmask16 valid = (__mmask16)(((uint32_t)1 << n) - 1);
  uint64_t x[16] __attribute__((aligned(64)));
  uint32_t c[16] __attribute__((aligned(64))), r[16] __attribute__((aligned(64)));
  __m512i a = _mm512_maskz_loadu_epi64((__mmask8)valid, first),
          b = _mm512_maskz_loadu_epi64((__mmask8)(valid >> 8), first + 8);
  __m512i k = _mm512_permutex2var_epi32(a, hi32, b);
  uint32_t lo = _mm512_mask_reduce_min_epu32(valid, k), hi = _mm512_mask_reduce_max_epu32(valid, k);
  if (hi - lo >= (uint32_t)1 << 28) {
    leaf_avx2(first, last);
    return;
  }
  __m512i cv = _mm512_or_si512(_mm512_slli_epi32(_mm512_sub_epi32(k, _mm512_set1_epi32((int)lo)), 4), pos);
  _mm512_store_si512(c, cv);
  _mm512_store_si512(x, a);
  _mm512_store_si512(x + 8, b);
  __m512i rank = _mm512_setzero_si512();
  for (int64_t i = 0; i < n; i++)
    rank = _mm512_mask_add_epi32(rank, _mm512_cmpgt_epu32_mask(cv, _mm512_set1_epi32((int)c[i])), rank,
                                 _mm512_set1_epi32(1));
  _mm512_store_si512(r, rank);
  for (int64_t j = 0; j < n; j++) first[r[j]] = x[j];
}
#endif

#define SMALL 64
_Static_assert(SMALL % 32 == 0, "distinct_avx2 pads its keys to blocks of 32");
#if CT_ISA_X86
/* A part of at most SMALL elements whose keys are all distinct ends sorted whatever std::sort does to it
   (its elements never leave it, and with no equal keys only one order is sorted): it is sorted here by
   ranks, the count of smaller keys of each element, compared eight 32-bit keys at a time. The ranks are
   0..n-1 exactly when no two keys are equal; with a tie, a group of g equal keys shares the lowest of its
   g ranks, so the ranks' sum falls short of n(n-1)/2. Then nothing is written and false returned: the part
   goes on through std::sort's steps. */
/* The same with keys less than 2^15 apart (a small part's usually are): compared as 16-bit offsets from the
   least, sixteen at a time. */
/* rank[j] = #{i < n : key[i] < key[j]} for j < 16 * nv (nv: 2 to 4 vectors of 16, a constant where inlined;
   keys from n on are INT16_MIN, which no key is below: rank 0); returns the ranks' sum. */
CT_TARGET_AVX2 CT_ALWAYS_INLINE int64_t ranks16_avx2(const int16_t *key, int64_t n, const int nv,
                                                     uint16_t *rank) {
  __m256i k[4], r[4], sum = _mm256_setzero_si256();
  _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
    k[c] = _mm256_load_si256((const __m256i *)(key + 16 * c));
    r[c] = _mm256_setzero_si256();
  }
  for (int64_t i = 0; i < n; i++) {
    __m256i ki = _mm256_set1_epi16(key[i]);
    _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
      r[c] = _mm256_sub_epi16(r[c], _mm256_cmpgt_epi16(k[c], ki));
    }
  }
  /* lanes hold at most 4 * 63: summed in 16 bits per lane, then widened */
  _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
    _mm256_store_si256((__m256i *)(rank + 16 * c), r[c]);
    sum = _mm256_add_epi16(sum, r[c]);
  }
  sum = _mm256_madd_epi16(sum, _mm256_set1_epi16(1));
  __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4e));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xb1));
  return (int64_t)(uint32_t)_mm_cvtsi128_si32(s4);
}

CT_TARGET_AVX2 static bool distinct16_avx2(uint64_t *first, const uint64_t *x, int64_t n, uint32_t lo) {
  int16_t key[SMALL] __attribute__((aligned(32)));
  uint16_t rank[SMALL] __attribute__((aligned(32)));
  int64_t nv = n <= 32 ? 2 : 4; /* vectors of 16 keys */
  for (int64_t j = 0; j < n; j++) key[j] = (int16_t)((uint32_t)(x[j] >> 32) - lo);
  for (int64_t j = n; j < 16 * nv; j++) key[j] = INT16_MIN; /* no key is below it: rank 0 */
  if ((nv == 2 ? ranks16_avx2(key, n, 2, rank) : ranks16_avx2(key, n, 4, rank)) != n * (n - 1) / 2)
    return false;
  for (int64_t j = 0; j < n; j++) first[rank[j]] = x[j];
  return true;
}

CT_TARGET_AVX2 static bool distinct_avx2(uint64_t *first, uint64_t *last) {
  int64_t n = last - first, nb = (n + 31) / 32; /* blocks of 32 keys: four vectors against one broadcast */
  int32_t key[SMALL] __attribute__((aligned(32)));
  uint32_t rank[SMALL] __attribute__((aligned(32)));
  uint64_t x[SMALL];
  memcpy(x, first, (size_t)n * sizeof *x);
  uint32_t lo = UINT32_MAX, hi = 0;
  for (int64_t j = 0; j < n; j++) {
    uint32_t k = (uint32_t)(x[j] >> 32);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  if (hi - lo < 0x8000u) return distinct16_avx2(first, x, n, lo);
  for (int64_t j = 0; j < n; j++) key[j] = (int32_t)((uint32_t)(x[j] >> 32) ^ 0x80000000u);
  for (int64_t j = n; j < nb * 32; j++) key[j] = INT32_MIN; /* no key is below it: rank 0, sum unchanged */
  __m256i sum = _mm256_setzero_si256();
  for (int64_t b = 0; b < nb; b++) {
    const int32_t *kb = key + 32 * b;
    __m256i k0 = _mm256_load_si256((const __m256i *)kb), k1 = _mm256_load_si256((const __m256i *)(kb + 8)),
            k2 = _mm256_load_si256((const __m256i *)(kb + 16)),
            k3 = _mm256_load_si256((const __m256i *)(kb + 24));
    __m256i r0 = _mm256_setzero_si256(), r1 = r0, r2 = r0, r3 = r0;
    for (int64_t i = 0; i < n; i++) {
      __m256i ki = _mm256_set1_epi32(key[i]);
      r0 = _mm256_sub_epi32(r0, _mm256_cmpgt_epi32(k0, ki));
      r1 = _mm256_sub_epi32(r1, _mm256_cmpgt_epi32(k1, ki));
      r2 = _mm256_sub_epi32(r2, _mm256_cmpgt_epi32(k2, ki));
      r3 = _mm256_sub_epi32(r3, _mm256_cmpgt_epi32(k3, ki));
    }
    sum = _mm256_add_epi32(sum, _mm256_add_epi32(_mm256_add_epi32(r0, r1), _mm256_add_epi32(r2, r3)));
    _mm256_store_si256((__m256i *)(rank + 32 * b), r0);
    _mm256_store_si256((__m256i *)(rank + 32 * b + 8), r1);
    _mm256_store_si256((__m256i *)(rank + 32 * b + 16), r2);
    _mm256_store_si256((__m256i *)(rank + 32 * b + 24), r3);
  }
  __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4e));
  s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xb1));
  if ((int64_t)(uint32_t)_mm_cvtsi128_si32(s4) != n * (n - 1) / 2) return false;
  for (int64_t j = 0; j < n; j++) first[rank[j]] = x[j];
  return true;
}
/* The same, the part read sixteen elements at a time: its keys gathered into vectors, their least and
   greatest found with vector compares, then ranked on 16-bit offsets (ranks16_avx2) or on the keys,
   sixteen per compare. nv: vectors of 16 (2 to 4, n <= 16 * nv). */
CT_TARGET_AVX512 CT_ALWAYS_INLINE bool distinct_nv_avx512(uint64_t *first, int64_t n, const int nv) {
  const __m512i hi32 = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
                sign = _mm512_set1_epi32(INT32_MIN);
  const uint64_t valid = n >= 64 ? ~0ull : ((uint64_t)1 << n) - 1;
  uint64_t x[SMALL] __attribute__((aligned(64)));
  __m512i k[4], vmin = _mm512_set1_epi32(-1), vmax = _mm512_setzero_si512();
  _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
    __mmask16 v = (__mmask16)(valid >> 16 * c);
    __m512i a = _mm512_maskz_loadu_epi64((__mmask8)v, first + 16 * c),
            b = _mm512_maskz_loadu_epi64((__mmask8)(v >> 8), first + 16 * c + 8);
    _mm512_store_si512(x + 16 * c, a);
    _mm512_store_si512(x + 16 * c + 8, b);
    k[c] = _mm512_permutex2var_epi32(a, hi32, b);
    vmin = _mm512_mask_min_epu32(vmin, v, vmin, k[c]);
    vmax = _mm512_mask_max_epu32(vmax, v, vmax, k[c]);
  }
  const uint32_t lo = _mm512_reduce_min_epu32(vmin), hi = _mm512_reduce_max_epu32(vmax);
  if (hi - lo < 0x8000u) {
    int16_t key[SMALL] __attribute__((aligned(32)));
    uint16_t rank[SMALL] __attribute__((aligned(32)));
    _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) { /* padding: 0x8000, INT16_MIN */
      __m512i d = _mm512_mask_sub_epi32(_mm512_set1_epi32(0x8000), (__mmask16)(valid >> 16 * c), k[c],
                                        _mm512_set1_epi32((int)lo));
      _mm256_store_si256((__m256i *)(key + 16 * c), _mm512_cvtepi32_epi16(d));
    }
    if (ranks16_avx2(key, n, nv, rank) != n * (n - 1) / 2) return false;
    for (int64_t j = 0; j < n; j++) first[rank[j]] = x[j];
    return true;
  }
  int32_t key[SMALL] __attribute__((aligned(64)));
  uint32_t rank[SMALL] __attribute__((aligned(64)));
  __m512i s[4], r[4], sum = _mm512_setzero_si512();
  _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) { /* as signed; padding: INT32_MIN, below every key */
    s[c] = _mm512_mask_xor_epi32(sign, (__mmask16)(valid >> 16 * c), k[c], sign);
    _mm512_store_si512(key + 16 * c, s[c]);
    r[c] = _mm512_setzero_si512();
  }
  for (int64_t i = 0; i < n; i++) {
    __m512i ki = _mm512_set1_epi32(key[i]);
    _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
      r[c] = _mm512_mask_add_epi32(r[c], _mm512_cmpgt_epi32_mask(s[c], ki), r[c], _mm512_set1_epi32(1));
    }
  }
  _Pragma("GCC unroll 4") for (int c = 0; c < nv; c++) {
    sum = _mm512_add_epi32(sum, r[c]);
    _mm512_store_si512(rank + 16 * c, r[c]);
  }
  if ((int64_t)(uint32_t)_mm512_reduce_add_epi32(sum) != n * (n - 1) / 2) return false;
  for (int64_t j = 0; j < n; j++) first[rank[j]] = x[j];
  return true;
}
CT_TARGET_AVX512 static bool distinct_avx512(uint64_t *first, uint64_t *last) {
  int64_t n = last - first;
  return n <= 32   ? distinct_nv_avx512(first, n, 2)
         : n <= 48 ? distinct_nv_avx512(first, n, 3)
                   : distinct_nv_avx512(first, n, 4);
}
#endif

typedef uint64_t *(*partition_fn)(uint64_t *first, uint64_t *last);
typedef struct sort_impl {
  partition_fn part;
  void (*leaf)(uint64_t *first, uint64_t *last);
  /* sorts [first, last) (at most SMALL elements) and returns true where its keys are distinct; NULL: none */
  bool (*distinct)(uint64_t *first, uint64_t *last);
} sort_impl;

static void introsort_loop(uint64_t *first, uint64_t *last, int64_t depth, const sort_impl *im) {
  while (last - first > CT_STL_THRESHOLD) {
    if (im->distinct && last - first <= SMALL && im->distinct(first, last)) return;
    if (depth == 0) {
      bk_heap_select(NULL, first, last, last);
      bk_sort_heap(NULL, first, last);
      return;
    }
    --depth;
    median_to_first(first, last);
    uint64_t *cut = im->part(first, last);
    introsort_loop(cut, last, depth, im);
    last = cut;
  }
  im->leaf(first, last);
}

static const sort_impl *pick_impl(void) {
  static const sort_impl generic = {partition_generic, leaf_generic, NULL};
#if CT_ISA_X86
  static const sort_impl avx2 = {partition_avx2, leaf_avx2, distinct_avx2},
                         avx512 = {partition_avx512, leaf_avx512, distinct_avx512};
  if (ct__cpu_isa() >= CT_ISA_AVX512) return &avx512;
  if (ct__cpu_isa() >= CT_ISA_AVX2) return &avx2;
#endif
  return &generic;
}

void ct__pk_sort(uint64_t *first, uint64_t *last) {
  if (last - first < 2) return;
  introsort_loop(first, last, ct__stl_lg(last - first) * 2, pick_impl());
}

/* ---- several threads: introsort_loop's first SPLIT_LEVELS partitions on the calling thread, then the parts
   it leaves (each with its own depth budget, as the recursion hands them on) on any thread ---- */
#define SPLIT_LEVELS 3
typedef struct part_job {
  uint64_t *first, *last;
  int64_t depth;
} part_job;
typedef struct split_ctx {
  part_job jobs[1 << SPLIT_LEVELS];
  int n;
  const sort_impl *im;
} split_ctx;

/* introsort_loop's step: partition, then the right part and the left with one level less */
static void split(split_ctx *s, uint64_t *first, uint64_t *last, int64_t depth, int levels) {
  if (levels == 0 || depth == 0 || last - first <= CT_STL_THRESHOLD) {
    s->jobs[s->n++] = (part_job){first, last, depth};
    return;
  }
  median_to_first(first, last);
  uint64_t *cut = s->im->part(first, last);
  split(s, cut, last, depth - 1, levels - 1);
  split(s, first, cut, depth - 1, levels - 1);
}

static void run_job(void *ctx, int64_t i, int tid) {
  (void)tid;
  const split_ctx *s = ctx;
  introsort_loop(s->jobs[i].first, s->jobs[i].last, s->jobs[i].depth, s->im);
}

void ct__pk_sort_threads(uint64_t *first, uint64_t *last, int nthreads) {
  if (nthreads <= 1 || last - first < 4 * CT_PAR_GRAIN) {
    ct__pk_sort(first, last);
    return;
  }
  split_ctx s = {.n = 0, .im = pick_impl()};
  split(&s, first, last, ct__stl_lg(last - first) * 2, SPLIT_LEVELS);
  ct__parallel_chunks(s.n, nthreads, run_job, &s);
}

void ct__pk_sort_reference(uint64_t *first, uint64_t *last) { bk_sort(NULL, first, last); }
