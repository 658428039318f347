/* Advanced indexing's common shape, one integer index vector on the first dim of a tensor whose rows are
   contiguous (x[idx], x[mask], x[idx] = v): whole rows copied, where the iteration engine's gather loop
   reads an index value per element. Each result element is a copy of one source element, so the bits are
   the engine's; only the work per element changes.

   A gather's rows are shared out over the pool (ct__parallel_chunks) in ranges of index positions (a
   written row belongs to one position). A scatter runs in position order on the calling thread, so where
   the index repeats a value the last position writes the row, at any thread count, as torch does at one
   thread (its parallel kernel leaves it undefined). */
#include "core/cpu_isa.h"
#include "core/parallel.h"
#include "ops/index/index_ops.h"

/* Copies one row of `row` bytes; the common widths as fixed-size copies the compiler turns into a few
   vector moves (a call to memcpy costs as much as the copy of a 64-byte row): 16-byte moves in the baseline
   build, 32-byte ones where it is inlined into an AVX2 variant (a 256-byte row in 8 loads and 8 stores). */
CT_ALWAYS_INLINE void copy_row(char *dst, const char *src, int64_t row) {
  switch (row) {
    case 4: memcpy(dst, src, 4); return;
    case 8: memcpy(dst, src, 8); return;
    case 16: memcpy(dst, src, 16); return;
    case 32: memcpy(dst, src, 32); return;
    case 64: memcpy(dst, src, 64); return;
    case 128: memcpy(dst, src, 128); return;
    case 256: memcpy(dst, src, 256); return;
    default: memcpy(dst, src, (size_t)row);
  }
}

/* How far ahead the row of a later index value is prefetched: the loads of rows picked at random from a
   large tensor then overlap instead of each waiting for memory. Each cache line of a row up to
   PREFETCH_ROW bytes (longer rows: the first ones, the hardware's stream prefetch finds the rest). */
#define PREFETCH_AHEAD 12
#define PREFETCH_ROW 512

CT_ALWAYS_INLINE void prefetch_row(const char *p, int64_t row) {
  int64_t n = row < PREFETCH_ROW ? row : PREFETCH_ROW;
  for (int64_t o = 0; o < n; o += 64) __builtin_prefetch(p + o, 0);
}
CT_ALWAYS_INLINE void prefetch_row_write(char *p, int64_t row) {
  int64_t n = row < PREFETCH_ROW ? row : PREFETCH_ROW;
  for (int64_t o = 0; o < n; o += 64) __builtin_prefetch(p + o, 1);
}

/* ---- gather: ranges of positions ---- */

#if CT_ISA_X86
#include <immintrin.h>
/* copy_row with 32-byte moves where the row is a multiple of 32 bytes: GCC's inline memcpy keeps to 16-byte
   moves under generic tuning even in an AVX2 function. Four loads go ahead of their stores. */
CT_TARGET_AVX2 CT_ALWAYS_INLINE void copy_row_avx2(char *dst, const char *src, int64_t row) {
  if ((row & 31) != 0) {
    copy_row(dst, src, row);
    return;
  }
  int64_t o = 0;
  for (; o + 128 <= row; o += 128) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(src + o)),
            b = _mm256_loadu_si256((const __m256i *)(src + o + 32)),
            c = _mm256_loadu_si256((const __m256i *)(src + o + 64)),
            d = _mm256_loadu_si256((const __m256i *)(src + o + 96));
    _mm256_storeu_si256((__m256i *)(dst + o), a);
    _mm256_storeu_si256((__m256i *)(dst + o + 32), b);
    _mm256_storeu_si256((__m256i *)(dst + o + 64), c);
    _mm256_storeu_si256((__m256i *)(dst + o + 96), d);
  }
  for (; o < row; o += 32)
    _mm256_storeu_si256((__m256i *)(dst + o), _mm256_loadu_si256((const __m256i *)(src + o)));
}
#endif

/* Positions [b, e) of a gather, rows copied by COPY; false where an index value is out of range (its row
   is skipped). */
#define GATHER_RANGE(COPY)                                                        \
  int64_t size = r->size, row = r->row, is = r->idx_s;                            \
  const int64_t *idx = r->idx;                                                    \
  bool bad = false;                                                               \
  for (int64_t i = b; i < e; i++) {                                               \
    if (i + PREFETCH_AHEAD < e) {                                                 \
      int64_t w = idx[(i + PREFETCH_AHEAD) * is];                                 \
      w += w < 0 ? size : 0;                                                      \
      if ((uint64_t)w < (uint64_t)size) prefetch_row(r->src + w * r->src_s, row); \
    }                                                                             \
    int64_t v = idx[i * is];                                                      \
    v += v < 0 ? size : 0;                                                        \
    if ((uint64_t)v >= (uint64_t)size) {                                          \
      bad = true;                                                                 \
      continue;                                                                   \
    }                                                                             \
    COPY(r->dst + i * r->dst_s, r->src + v * r->src_s, row);                      \
  }                                                                               \
  return !bad;

static bool gather_range_base(const ct_idx_rows *r, int64_t b, int64_t e){GATHER_RANGE(copy_row)}
#if CT_ISA_X86
CT_TARGET_AVX2 static bool gather_range_avx2(const ct_idx_rows *r, int64_t b, int64_t e) {
  GATHER_RANGE(copy_row_avx2)
}
#endif

typedef bool (*gather_fn)(const ct_idx_rows *r, int64_t b, int64_t e);

static gather_fn gather_kernel(void) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) return gather_range_avx2;
#endif
  return gather_range_base;
}

typedef struct rows_job {
  const ct_idx_rows *r;
  gather_fn fn;
  int64_t chunks;
  _Atomic bool bad;
} rows_job;

static void gather_chunk(void *ctx, int64_t c, int tid) {
  (void)tid;
  rows_job *j = ctx;
  int64_t n = j->r->n;
  if (!j->fn(j->r, n * c / j->chunks, n * (c + 1) / j->chunks))
    atomic_store_explicit(&j->bad, true, memory_order_relaxed);
}

/* ---- scatter: in position order, on the calling thread ----
   Where the index repeats a value the last position must write the row (torch at one thread; ctorch's
   results do not depend on the thread count). Threads given ranges of target rows, each taking its
   positions in order, were tried: grouping the positions costs passes over the index and turns the
   source's sequential reads into scattered ones, and at 2 threads the job took 2.5x the serial loop's
   time (1M rows of 64 bytes: 52 ms against 20 ms, the machine otherwise idle). The serial loop prefetches
   the target rows ahead instead. */

static inline int64_t target_of(const ct_idx_rows *r, int64_t i) {
  int64_t v = r->idx[i * r->idx_s];
  return v + (v < 0 ? r->size : 0);
}

static void scatter_serial(const ct_idx_rows *r, _Atomic bool *bad) {
  for (int64_t i = 0; i < r->n; i++) {
    if (i + PREFETCH_AHEAD < r->n) {
      int64_t w = target_of(r, i + PREFETCH_AHEAD);
      if ((uint64_t)w < (uint64_t)r->size) prefetch_row_write(r->dst + w * r->dst_s, r->row);
    }
    int64_t v = target_of(r, i);
    if ((uint64_t)v >= (uint64_t)r->size) atomic_store_explicit(bad, true, memory_order_relaxed);
    else copy_row(r->dst + v * r->dst_s, r->src + i * r->src_s, r->row);
  }
}

bool ct__idx_rows_copy(const ct_idx_rows *r) {
  if (r->n == 0 || r->row == 0) return true;
  if (r->scatter) {
    _Atomic bool bad = false;
    scatter_serial(r, &bad);
    return !atomic_load(&bad);
  }
  /* about a pointwise element's cost per 16 bytes of row: a row is one copy, and a job of a few hundred
     KiB (index_select's 1024 rows of 64 floats) is done before a sleeping worker would start */
  int64_t work = r->n * (r->row / 16 > 0 ? r->row / 16 : 1);
  int nt = ct__parallel_threads(work);
  if (nt <= 1) return gather_kernel()(r, 0, r->n);
  rows_job j = {r, gather_kernel(), ct__parallel_nchunks(work, nt), false};
  if (j.chunks > r->n) j.chunks = r->n;
  ct__parallel_chunks(j.chunks, nt, gather_chunk, &j);
  return !atomic_load(&j.bad);
}

bool ct__idx_any_outside(const int64_t *idx, int64_t n, int64_t stride, int64_t lo, int64_t hi) {
  /* v in [lo, hi) is v - lo in [0, hi - lo), computed unsigned; blocks without an early exit, so the
     compiler vectorizes the test */
  uint64_t base = (uint64_t)lo, span = (uint64_t)hi - (uint64_t)lo;
  for (int64_t b = 0; b < n; b += 1024) {
    int64_t e = n - b < 1024 ? n : b + 1024;
    bool any = false;
    if (stride == 1)
      for (int64_t i = b; i < e; i++) any |= (uint64_t)idx[i] - base >= span;
    else
      for (int64_t i = b; i < e; i++) any |= (uint64_t)idx[i * stride] - base >= span;
    if (any) return true;
  }
  return false;
}
