/* float32 cumsum of a long contiguous line (at least CT_SCAN_LONG_LINE elements; shorter lines take
   PyTorch's sequential loop in scan_kernels.c).

   PyTorch computes s_i = fl(s_{i-1} + x_i) in double, one element after the other: a 3-cycle add
   latency per element. Here the line is cut into fixed blocks of BLK elements from its start; within a
   block the local prefix sums are computed in double with a vectorized log-step scan, and
     out_j = (float)(s_b + local_j),   s_{b+1} = s_b + total_b,
   where s_b is the running sum before block b. The association depends only on the block grid, never
   on threads, so results are the same for every thread count. A long line is cut into chunks of whole
   blocks, scanned from both ends at once (scan_threads below): the calling thread scans from the
   front, the others compute block totals from the back, and where they meet the totals give every
   remaining chunk's starting sum.

   How close to PyTorch: whenever no partial sum rounds in double -- values on a common grid whose sums
   stay within 53 bits, e.g. torch.rand's multiples of 2^-24 or integer-valued data -- every association
   gives the same doubles and the results are bit for bit PyTorch's. Otherwise the doubles differ in
   their last bits and the float results almost always still round alike (0 of 16M elements differ for
   randn); only heavy cancellation (huge values that later cancel) can leave a visible difference.
   Blocks holding an inf or NaN, and everything after a running sum that is no longer finite, are
   summed sequentially as PyTorch does, so inf results and NaN-ness match (which NaN: not reproduced,
   docs/ARCHITECTURE.md). */
#include <math.h>
#include <sched.h>

#include "core/parallel.h"
#include "kernels/cpu/loops.h"
#include "ops/scan/scan.h"

#define BLK 1024

typedef float v4f __attribute__((vector_size(16)));
typedef float v4f_u __attribute__((vector_size(16), aligned(4), may_alias)); /* unaligned access */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));

/* PyTorch's loop. o NULL: only the final sum. */
static void sequential(float *o, const float *x, int64_t m, double *acc) {
  double s = *acc;
  if (o) {
    for (int64_t j = 0; j < m; j++) {
      s = s + (double)x[j];
      o[j] = (float)s;
    }
  } else {
    for (int64_t j = 0; j < m; j++) s = s + (double)x[j];
  }
  *acc = s;
}

/* No inf or NaN among x[0..m) (branch-free, vectorized). */
CT_KERNEL_CLONES static bool finite_block(const float *x, int64_t m) {
  uint32_t bad = 0;
  for (int64_t j = 0; j < m; j++) {
    uint32_t u;
    memcpy(&u, &x[j], 4);
    bad |= (u & 0x7f800000u) == 0x7f800000u;
  }
  return !bad;
}

/* The block's local prefix sums: 4-wide log-step scans in double, two vectors per step, with a running
   carry; o != NULL: writes (float)(s + local_j). Returns the block total, the same with or without o.
   (Macros rather than helpers: functions taking or returning 32-byte vectors change the ABI between the
   clones' targets.) */
/* [x0, x1, x2, x3] -> [x0, x1+x0, x2+x1, x3+x2] -> [x0, x1+x0, (x2+x1)+x0, (x3+x2)+(x1+x0)] */
#if defined(__clang__) /* clang's form of GCC's __builtin_shuffle: the indices as constants */
#define SHUF_SHIFT1(v, z) __builtin_shufflevector(v, z, 4, 0, 1, 2)
#define SHUF_SHIFT2(v, z) __builtin_shufflevector(v, z, 4, 4, 0, 1)
#define SHUF_LAST(v) __builtin_shufflevector(v, v, 3, 3, 3, 3)
#else
#define SHUF_SHIFT1(v, z) __builtin_shuffle(v, z, ((v4l){4, 0, 1, 2}))
#define SHUF_SHIFT2(v, z) __builtin_shuffle(v, z, ((v4l){4, 4, 0, 1}))
#define SHUF_LAST(v) __builtin_shuffle(v, ((v4l){3, 3, 3, 3}))
#endif
#define PREFIX4(v, x)                                    \
  do {                                                   \
    v = __builtin_convertvector(*(const v4f_u *)(x), v4d); \
    v += SHUF_SHIFT1(v, zero);               \
    v += SHUF_SHIFT2(v, zero);               \
  } while (0)
#define STORE4(o, v) (*(v4f_u *)(o) = __builtin_convertvector((v), v4f))

CT_KERNEL_CLONES static double block_pass(float *o, const float *x, int64_t m, double s) {
  const v4d zero = {0};
  v4d carry = zero, base = zero + s;
  int64_t j = 0, m8 = m - m % 8;
  for (; j < m8; j += 8) {
    v4d a, b;
    PREFIX4(a, x + j);
    PREFIX4(b, x + j + 4);
    v4d ta = SHUF_LAST(a), la = carry + a, lb = (carry + ta) + b;
    if (o) {
      STORE4(o + j, base + la);
      STORE4(o + j + 4, base + lb);
    }
    carry += ta + SHUF_LAST(b);
  }
  double t = carry[0];
  for (; j < m; j++) {
    t += (double)x[j];
    if (o) o[j] = (float)(s + t);
  }
  return t;
}

#if CT_ISA_X86
#include <immintrin.h>
/* The same computation with AVX2 intrinsics (GCC's generic lowering of the vector code splits every
   conversion in two): the same operations in the same order, so the same doubles. */
#define SH1(v) _mm256_blend_pd(_mm256_permute4x64_pd((v), 0x90), zero, 1) /* [0, v0, v1, v2] */
#define SH2(v) _mm256_permute2f128_pd((v), (v), 0x08)                       /* [0, 0, v0, v1] */
#define BCAST3(v) _mm256_permute4x64_pd((v), 0xff)
CT_TARGET_AVX2 static double block_pass_avx2(float *o, const float *x, int64_t m, double s) {
  const __m256d zero = _mm256_setzero_pd(), base = _mm256_set1_pd(s);
  __m256d carry = zero;
  int64_t j = 0, m8 = m - m % 8;
  for (; j < m8; j += 8) {
    __m256d a = _mm256_cvtps_pd(_mm_loadu_ps(x + j)), b = _mm256_cvtps_pd(_mm_loadu_ps(x + j + 4));
    a = _mm256_add_pd(a, SH1(a));
    b = _mm256_add_pd(b, SH1(b));
    a = _mm256_add_pd(a, SH2(a));
    b = _mm256_add_pd(b, SH2(b));
    __m256d ta = BCAST3(a), la = _mm256_add_pd(carry, a), lb = _mm256_add_pd(_mm256_add_pd(carry, ta), b);
    if (o) {
      _mm_storeu_ps(o + j, _mm256_cvtpd_ps(_mm256_add_pd(base, la)));
      _mm_storeu_ps(o + j + 4, _mm256_cvtpd_ps(_mm256_add_pd(base, lb)));
    }
    carry = _mm256_add_pd(carry, _mm256_add_pd(ta, BCAST3(b)));
  }
  double t = _mm256_cvtsd_f64(carry);
  for (; j < m; j++) {
    t += (double)x[j];
    if (o) o[j] = (float)(s + t);
  }
  return t;
}
static double pass(float *o, const float *x, int64_t m, double s) {
  return ct__cpu_isa() >= CT_ISA_AVX2 ? block_pass_avx2(o, x, m, s) : block_pass(o, x, m, s);
}
#else
#define pass block_pass
#endif

/* One block from the running sum *acc: the vector pass when everything is finite (a finite float block
   has a finite double total, so an inf or NaN input shows in the total), else PyTorch's loop. In place
   the inputs are checked first: the vector pass would overwrite them. */
static void block(float *o, const float *x, int64_t m, double *acc) {
  if (isfinite(*acc) && (o != x || finite_block(x, m))) {
    double t = pass(o, x, m, *acc);
    if (isfinite(t)) {
      *acc += t;
      return;
    }
  }
  sequential(o, x, m, acc);
}

/* A line (or a chunk of one starting at a block boundary) from the running sum *acc. */
static void line(float *o, const float *x, int64_t n, double *acc) {
  for (int64_t off = 0; off < n; off += BLK) block(o + off, x + off, n - off < BLK ? n - off : BLK, acc);
}

#define MAX_CHUNKS 64

/* A block's contribution for the walk: its total when it is finite. */
typedef struct block_sum {
  double total;
  bool finite;
} block_sum;

/* A line over several threads, from both ends. The calling thread scans chunk after chunk from the
   front, as it would alone (one pass, the running sum carried along). The other threads take chunks from
   the back and compute only their block totals. Where the two meet, the calling thread walks the totals
   (as its own scan would carry the sum: block by block, non-finite blocks summed in order) to every
   remaining chunk's starting sum and hands each chunk out as soon as its start is known; every thread
   then scans those chunks. With no worker the calling thread does a one-thread scan; with a worker that
   the OS holds back, the calling thread scans the chunks the worker has not finished itself (when the
   output is not the input; in place it waits, as the worker's totals read the input). */
enum { CH_CLAIMED, CH_TOTALS, CH_STARTED, CH_DONE };

typedef struct par_scan {
  float *o;
  const float *x;
  bool in_place;
  int64_t nc;
  const int64_t *bounds; /* [nc + 1], block multiples but the last */
  block_sum *sums;       /* per block */
  double *start;         /* per chunk */
  _Atomic int64_t ends;  /* front | back << 32: chunks [front, back) are unclaimed */
  _Atomic int state[MAX_CHUNKS];
  _Atomic int64_t next_b; /* chunks scanned in the second round: meet + next_b */
  double s;               /* the starting sum, then the calling thread's running sum */
} par_scan;

/* Takes the next chunk from the front (back false) or the back; -1 when the ends have met. */
static int64_t claim(par_scan *p, bool back) {
  int64_t e = atomic_load(&p->ends);
  for (;;) {
    int64_t f = e & 0xffffffff, k = e >> 32;
    if (f >= k) return -1;
    int64_t want = back ? f | (k - 1) << 32 : (f + 1) | k << 32;
    if (atomic_compare_exchange_weak(&p->ends, &e, want)) return back ? k - 1 : f;
  }
}

static void chunk_totals(par_scan *p, int64_t c) {
  for (int64_t b = p->bounds[c] / BLK; b < p->bounds[c + 1] / BLK; b++) {
    p->sums[b].total = pass(NULL, p->x + b * BLK, BLK, 0.0);
    p->sums[b].finite = isfinite(p->sums[b].total);
  }
}

static void scan_chunk(par_scan *p, int64_t c, double *acc) {
  line(p->o + p->bounds[c], p->x + p->bounds[c], p->bounds[c + 1] - p->bounds[c], acc);
}

static void wait_state(par_scan *p, int64_t c, int at_least) {
  for (int i = 0; atomic_load(&p->state[c]) < at_least; i++)
    if (i > 1000) sched_yield(); /* the thread we wait for may need this core */
}

static void scan_run(void *v, int tid) {
  par_scan *p = v;
  int64_t c;
  if (tid == 0) {
    while ((c = claim(p, false)) >= 0) {
      ct__parallel_leave(tid); /* notes the CPU it runs on */
      scan_chunk(p, c, &p->s);
    }
    int64_t meet = atomic_load(&p->ends) >> 32;
    for (c = meet; c < p->nc; c++) {
      int expected = CH_CLAIMED;
      if (!p->in_place && atomic_compare_exchange_strong(&p->state[c], &expected, CH_DONE)) {
        scan_chunk(p, c, &p->s); /* its totals are late: scan it here */
        continue;
      }
      wait_state(p, c, CH_TOTALS);
      p->start[c] = p->s;
      if (c + 1 < p->nc) /* the walk to the next chunk's start (the last chunk has no totals) */
        for (int64_t b = p->bounds[c] / BLK; b < p->bounds[c + 1] / BLK; b++) {
          if (isfinite(p->s) && p->sums[b].finite)
            p->s += p->sums[b].total;
          else
            sequential(NULL, p->x + b * BLK, BLK, &p->s);
        }
      atomic_store(&p->state[c], CH_STARTED);
    }
  } else {
    /* a worker that the OS runs on the calling thread's CPU takes nothing more (ct__parallel_leave):
       the calling thread scans what it leaves, as it would alone */
    while (!ct__parallel_leave(tid) && (c = claim(p, true)) >= 0) {
      if (c + 1 < p->nc) chunk_totals(p, c);
      int expected = CH_CLAIMED;
      atomic_compare_exchange_strong(&p->state[c], &expected, CH_TOTALS); /* unless scanned meanwhile */
    }
  }
  int64_t e = atomic_load(&p->ends);
  if (tid != 0 && (e & 0xffffffff) < e >> 32) return; /* it left before the ends met */
  int64_t meet = e >> 32;
  while (!ct__parallel_leave(tid) && (c = meet + atomic_fetch_add(&p->next_b, 1)) < p->nc) {
    wait_state(p, c, CH_STARTED);
    if (atomic_load(&p->state[c]) == CH_DONE) continue;
    double acc = p->start[c];
    scan_chunk(p, c, &acc);
  }
}

static void scan_threads(float *o, const float *x, int64_t len, double s, int nt) {
  int64_t blocks = (len + BLK - 1) / BLK;
  int64_t nc = blocks / 8 < MAX_CHUNKS ? blocks / 8 : MAX_CHUNKS;
  if (nc < 2) nc = 2;
  int64_t bounds[MAX_CHUNKS + 1];
  for (int64_t c = 0; c <= nc; c++) bounds[c] = c == nc ? len : (blocks * c / nc) * BLK;
  ct_error_kind before = ct_last_error();
  block_sum *sums = ct__malloc((size_t)blocks * sizeof *sums);
  double *start = ct__malloc((size_t)nc * sizeof *start);
  if (!sums || !start) {
    /* not enough memory for the summaries only costs speed: one thread, the same bits */
    if (before == CT_OK) ct_clear_error();
    ct__free(sums);
    ct__free(start);
    line(o, x, len, &s);
    return;
  }
  par_scan *p = &(par_scan){.o = o, .x = x, .in_place = o == x, .nc = nc, .bounds = bounds, .sums = sums,
                            .start = start, .s = s};
  atomic_store(&p->ends, (int64_t)nc << 32);
  atomic_store(&p->next_b, 0);
  for (int64_t c = 0; c < nc; c++) atomic_store(&p->state[c], CH_CLAIMED);
  ct__parallel_run(nt, scan_run, p);
  ct__free(sums);
  ct__free(start);
}

void ct__cumsum_f32_line(float *o, const float *x, int64_t n, int nt) {
  if (nt > 1 && n >= 2 * BLK)
    scan_threads(o, x, n, 0.0, nt);
  else {
    double acc = 0.0;
    line(o, x, n, &acc);
  }
}

static void long_line(char *const *d, const int64_t *st, int64_t len, const void *ctx, int nt) {
  bool contiguous = st[0] == 4 && st[1] == 4;
  bool apart = d[0] == d[1] || d[0] + len * 4 <= d[1] || d[1] + len * 4 <= d[0];
  if (contiguous && apart)
    ct__cumsum_f32_line((float *)d[0], (const float *)d[1], len, nt);
  else
    ct__cumsum_kernels[CT_FLOAT32](d, st, (const int64_t[3]){0, 0, 0}, len, 1, ctx);
}

const ct_scan_long_line ct__cumsum_f32_long_line = long_line;
