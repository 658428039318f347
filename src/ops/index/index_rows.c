/* Advanced indexing's common shape, one integer index vector on the first dim of a tensor whose rows are
   contiguous (x[idx], x[mask], x[idx] = v): whole rows copied, where the iteration engine's gather loop
   reads an index value per element. Each result element is a copy of one source element, so the bits are
   the engine's; only the work per element changes.

   A gather's rows are shared out over the pool (ct__parallel_chunks) in ranges of index positions (a
   written row belongs to one position). A scatter runs in position order on the calling thread, so where
   the index repeats a value the last position writes the row, at any thread count, as torch does at one
   thread (its parallel kernel leaves it undefined); into a large target it writes whole lines with
   non-temporal stores (no read of the line first). Those are weakly ordered against other addresses
   only: after the closing fence each address holds the thread's last store to it, as a later load of
   the thread must see it (a repeated row in the unit test and the benchmark's check). */
#include <stdatomic.h>
#include <stdint.h>

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
#define PREFETCH_ROW   512

CT_ALWAYS_INLINE void prefetch_row(const char *p, int64_t row) {
  int64_t n = row < PREFETCH_ROW ? row : PREFETCH_ROW;
  for (int64_t o = 0; o < n; o += 64) __builtin_prefetch(p + o, 0);
}
CT_ALWAYS_INLINE void prefetch_row_write(char *p, int64_t row) {
  int64_t n = row < PREFETCH_ROW ? row : PREFETCH_ROW;
  for (int64_t o = 0; o < n; o += 64) __builtin_prefetch(p + o, 1);
}

/* ---- row copies ---- */

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

/* copy_row with 64-byte moves where the row is a multiple of 64 bytes, four loads ahead of their stores (a
   256-byte row in 4 loads and 4 stores); other rows as copy_row_avx2. Half the moves of the AVX2 form:
   index_select's 1024 rows of 64 floats from L2 took 10.4 -> 9.0-9.5 us (a loaded machine), near the
   7.5 us of a bare loop that only copies them: writing the result's lines back to L2 bounds it. */
CT_TARGET_AVX512 CT_ALWAYS_INLINE void copy_row_avx512(char *dst, const char *src, int64_t row) {
  if ((row & 63) != 0) {
    copy_row_avx2(dst, src, row);
    return;
  }
  int64_t o = 0;
  for (; o + 256 <= row; o += 256) {
    __m512i a = _mm512_loadu_si512(src + o), b = _mm512_loadu_si512(src + o + 64),
            c = _mm512_loadu_si512(src + o + 128), d = _mm512_loadu_si512(src + o + 192);
    _mm512_storeu_si512(dst + o, a);
    _mm512_storeu_si512(dst + o + 64, b);
    _mm512_storeu_si512(dst + o + 128, c);
    _mm512_storeu_si512(dst + o + 192, d);
  }
  for (; o < row; o += 64) _mm512_storeu_si512(dst + o, _mm512_loadu_si512(src + o));
}

/* Whole 64-byte lines stored around the caches (non-temporal stores; dst 64-byte aligned, row a multiple of
   64): a scatter into a target far larger than the caches would otherwise read each line it writes first
   (read for ownership), a random read from memory per line. */
CT_ALWAYS_INLINE void stream_row_sse2(char *dst, const char *src, int64_t row) {
  for (int64_t o = 0; o < row; o += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(src + o)),
            b = _mm_loadu_si128((const __m128i *)(src + o + 16)),
            c = _mm_loadu_si128((const __m128i *)(src + o + 32)),
            d = _mm_loadu_si128((const __m128i *)(src + o + 48));
    _mm_stream_si128((__m128i *)(dst + o), a);
    _mm_stream_si128((__m128i *)(dst + o + 16), b);
    _mm_stream_si128((__m128i *)(dst + o + 32), c);
    _mm_stream_si128((__m128i *)(dst + o + 48), d);
  }
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE void stream_row_avx2(char *dst, const char *src, int64_t row) {
  for (int64_t o = 0; o < row; o += 64) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(src + o)),
            b = _mm256_loadu_si256((const __m256i *)(src + o + 32));
    _mm256_stream_si256((__m256i *)(dst + o), a);
    _mm256_stream_si256((__m256i *)(dst + o + 32), b);
  }
}
CT_TARGET_AVX512 CT_ALWAYS_INLINE void stream_row_avx512(char *dst, const char *src, int64_t row) {
  for (int64_t o = 0; o < row; o += 64) _mm512_stream_si512((void *)(dst + o), _mm512_loadu_si512(src + o));
}
#endif

/* ---- the row loops: positions [b, e), false where an index value is out of range (its row is skipped) ----
   The job's fields are read into locals first: the row stores go through char pointers, which may alias
   *r, so the compiler would read them again after every row. */

/* The loop of both: for each position i, the row of index value v moves (MOVE_V), the row of the index
   value w PREFETCH_AHEAD positions on is prefetched (PREFETCH_W; the dead index read goes where it does
   nothing). */
#define ROW_RANGE(PREFETCH_W, MOVE_V)                                                \
  int64_t size = r->size, row = r->row, is = r->idx_s, ds = r->dst_s, ss = r->src_s; \
  const int64_t *idx = r->idx;                                                       \
  char *dst = r->dst;                                                                \
  const char *src = r->src;                                                          \
  bool bad = false;                                                                  \
  for (int64_t i = b; i < e; i++) {                                                  \
    if (i + PREFETCH_AHEAD < e) {                                                    \
      int64_t w = idx[(i + PREFETCH_AHEAD) * is];                                    \
      w += w < 0 ? size : 0;                                                         \
      if ((uint64_t)w < (uint64_t)size) PREFETCH_W;                                  \
    }                                                                                \
    int64_t v = idx[i * is];                                                         \
    v += v < 0 ? size : 0;                                                           \
    if ((uint64_t)v >= (uint64_t)size) {                                             \
      bad = true;                                                                    \
      continue;                                                                      \
    }                                                                                \
    MOVE_V;                                                                          \
  }                                                                                  \
  return !bad

/* A gather: result row i = source row idx[i], the source rows ahead prefetched. */
#define GATHER_RANGE(COPY) ROW_RANGE(prefetch_row(src + w * ss, row), COPY(dst + i * ds, src + v * ss, row))

/* A scatter: target row idx[i] = value row i, in position order. PREFETCH: the target rows ahead are
   prefetched for writing (not where STORE streams: nothing is read then). */
#define SCATTER_RANGE(STORE, PREFETCH) \
  ROW_RANGE(if (PREFETCH) prefetch_row_write(dst + w * ds, row), STORE(dst + v * ds, src + i * ss, row))

typedef bool (*rows_fn)(const ct_idx_rows *r, int64_t b, int64_t e);

static bool gather_base(const ct_idx_rows *r, int64_t b, int64_t e) { GATHER_RANGE(copy_row); }
static bool scatter_base(const ct_idx_rows *r, int64_t b, int64_t e) { SCATTER_RANGE(copy_row, 1); }
#if CT_ISA_X86
CT_TARGET_AVX2 static bool gather_avx2(const ct_idx_rows *r, int64_t b, int64_t e) {
  GATHER_RANGE(copy_row_avx2);
}
CT_TARGET_AVX512 static bool gather_avx512(const ct_idx_rows *r, int64_t b, int64_t e) {
  GATHER_RANGE(copy_row_avx512);
}
CT_TARGET_AVX2 static bool scatter_avx2(const ct_idx_rows *r, int64_t b, int64_t e) {
  SCATTER_RANGE(copy_row_avx2, 1);
}
CT_TARGET_AVX512 static bool scatter_avx512(const ct_idx_rows *r, int64_t b, int64_t e) {
  SCATTER_RANGE(copy_row_avx512, 1);
}
static bool scatter_stream_sse2(const ct_idx_rows *r, int64_t b, int64_t e) {
  SCATTER_RANGE(stream_row_sse2, 0);
}
CT_TARGET_AVX2 static bool scatter_stream_avx2(const ct_idx_rows *r, int64_t b, int64_t e) {
  SCATTER_RANGE(stream_row_avx2, 0);
}
CT_TARGET_AVX512 static bool scatter_stream_avx512(const ct_idx_rows *r, int64_t b, int64_t e) {
  SCATTER_RANGE(stream_row_avx512, 0);
}
#endif

static rows_fn gather_kernel(void) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX512) return gather_avx512;
  if (ct__cpu_isa() >= CT_ISA_AVX2) return gather_avx2;
#endif
  return gather_base;
}

/* A scatter streams its rows where they are whole aligned lines and its target (every row the index may
   name) is larger than the threshold: a row written is then most likely in no core's L2, and a plain
   store would first read its line, from L3 or memory. Not the copy engine's rule (beyond the last-level
   cache): on the Sapphire Rapids VM this was tuned on (2 MiB L2 per core, a 300 MiB L3 shared with other
   guests), streamed rows of 64 bytes took 0.65-0.95x the plain stores' time for targets of 2 to 256 MiB
   (64K and 1M rows written), 1.1x at 1 MiB. 16 MiB leaves targets that a dedicated L3 holds to the plain
   stores. */
#define IDX_STREAM_DEFAULT ((int64_t)16 << 20)
static _Atomic int64_t stream_target_bytes = 0; /* 0: the default */

void ct__idx_set_stream_threshold(int64_t bytes) {
  atomic_store(&stream_target_bytes, bytes > 0 ? bytes : 0);
}

static int64_t stream_threshold(void) {
  int64_t t = atomic_load_explicit(&stream_target_bytes, memory_order_relaxed);
  return t ? t : IDX_STREAM_DEFAULT;
}

static rows_fn scatter_kernel(const ct_idx_rows *r, bool *streams) {
  *streams = false;
#if CT_ISA_X86
  *streams = r->row % 64 == 0 && r->dst_s % 64 == 0 && (uintptr_t)r->dst % 64 == 0 &&
             r->size > stream_threshold() / r->dst_s;
  if (*streams) {
    if (ct__cpu_isa() >= CT_ISA_AVX512) return scatter_stream_avx512;
    if (ct__cpu_isa() >= CT_ISA_AVX2) return scatter_stream_avx2;
    return scatter_stream_sse2;
  }
  if (ct__cpu_isa() >= CT_ISA_AVX512) return scatter_avx512;
  if (ct__cpu_isa() >= CT_ISA_AVX2) return scatter_avx2;
#endif
  return scatter_base;
}

/* ---- the jobs ----
   A gather's ranges of positions go to the pool's threads. A scatter runs in position order on the calling
   thread: where the index repeats a value the last position must write the row (torch at one thread;
   ctorch's results do not depend on the thread count). Threads given ranges of target rows, each taking its
   positions in order, were tried: grouping the positions costs passes over the index and turns the
   source's sequential reads into scattered ones, and at 2 threads the job took 2.5x the serial loop's time
   (1M rows of 64 bytes: 52 ms against 20 ms, the machine otherwise idle). */

typedef struct rows_job {
  const ct_idx_rows *r;
  rows_fn fn;
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

bool ct__idx_rows_copy(const ct_idx_rows *r) {
  if (r->n == 0 || r->row == 0) return true;
  if (r->scatter) {
    bool streams, ok = scatter_kernel(r, &streams)(r, 0, r->n);
#if CT_ISA_X86
    if (streams) _mm_sfence(); /* the streamed rows visible to other threads, as plain stores would be */
#endif
    return ok;
  }
  /* a pointwise element's cost per 4 bytes of row, as the copy engine counts a float32 copy: rows picked
     at random from a large table wait on memory, and two threads overlap twice the reads. index_select of
     1024 rows of 64 floats (256 KiB) from 1M rows, other rows each call, on the 2-CPU VM: 2 threads took
     0.63-0.73x one thread's 32-44 us (16 bytes per unit kept it on one thread); one index repeated (the
     rows in L2) 0.93x; with the other CPU busy 1.00-1.07x against 0.99-1.01x for one thread run twice. */
  int64_t work = r->n * (r->row / 4 > 0 ? r->row / 4 : 1);
  int nt = ct__parallel_threads(work);
  if (nt <= 1) return gather_kernel()(r, 0, r->n);
  rows_job j = {r, gather_kernel(), ct__parallel_nchunks(work, nt), false};
  if (j.chunks > r->n) j.chunks = r->n;
  ct__parallel_chunks(j.chunks, nt, gather_chunk, &j);
  return !atomic_load(&j.bad);
}

/* Compiled for each ISA level (CT_KERNEL_CLONES): the test is vectorized where the level has 64-bit compares. */
CT_KERNEL_CLONES bool ct__idx_any_outside(const int64_t *idx, int64_t n, int64_t stride, int64_t lo,
                                          int64_t hi) {
  /* v in [lo, hi) is v - lo in [0, hi - lo), computed unsigned; blocks without an early exit, whose flags are
     OR-ed as all-ones words (a bool OR is not vectorized) */
  uint64_t base = (uint64_t)lo, span = (uint64_t)hi - (uint64_t)lo;
  for (int64_t b = 0; b < n; b += 1024) {
    int64_t e = n - b < 1024 ? n : b + 1024;
    uint64_t any = 0;
    if (stride == 1)
      for (int64_t i = b; i < e; i++) any |= (uint64_t)idx[i] - base >= span ? ~(uint64_t)0 : 0;
    else
      for (int64_t i = b; i < e; i++) any |= (uint64_t)idx[i * stride] - base >= span ? ~(uint64_t)0 : 0;
    if (any) return true;
  }
  return false;
}
