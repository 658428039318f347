/* float32 cumsum of a contiguous line, bit-identical to PyTorch's sequential double accumulator but
   mostly not sequential.

   Why that is possible: PyTorch computes s_i = fl(s_{i-1} + x_i) in double. Take a block of inputs and
   the running s before it, and let q be the smallest power of two dividing all of them (the lowest set
   bit of s and of every x_j). Every partial sum s + x_0 + ... + x_k, and every sum of any subset of the
   block, is a multiple of q bounded by |s| + sum |x_j|. When that bound is below 2^53 q all those values
   are exactly representable doubles, so no addition rounds and any order of summation gives the very
   bits the sequential loop gives. Blocks that pass the check (the common case: torch.rand values, and
   most blocks of randn-like data) are summed with a vectorized log-step prefix; a block that fails
   (NaN, inf, huge dynamic range) is summed sequentially, exactly as PyTorch does.

   Across threads the same argument runs per chunk: every chunk is checked against the running sum it
   would start from; if all pass, each thread scans its own chunk from its known start. */
#include <math.h>
#include <omp.h>

#include "kernels/cpu/loops.h"
#include "ops/scan/scan.h"

#define BLK 1024

typedef float v16f __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));
typedef uint32_t v16u __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));

/* The exponent of the lowest set bit of a nonzero float (2^e divides x), INT32_MAX for zero. */
static inline int32_t lsb_exp_f32(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  uint32_t be = (u >> 23) & 0xff, m = (u & 0x7fffffu) | (be ? 0x800000u : 0);
  if (!m) return INT32_MAX;
  return (int32_t)(be ? be : 1) - 150 + __builtin_ctz(m);
}
static inline int32_t lsb_exp_f64(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  uint64_t be = (u >> 52) & 0x7ff, m = (u & 0xfffffffffffffull) | (be ? 1ull << 52 : 0);
  if (!m) return INT32_MAX;
  return (int32_t)(be ? be : 1) - 1075 + __builtin_ctzll(m);
}

/* An upper bound on sum |x_j| (float lanes; relative error < 2^-13 for a block) and the smallest lowest-
   set-bit exponent of the block. */
CT_KERNEL_CLONES static void block_stats(const float *x, int64_t m, double *abs_sum, int32_t *emin) {
  v16f acc = {0};
  v16i lo = {0};
  lo += INT32_MAX;
  int64_t j = 0;
  for (; j + 16 <= m; j += 16) {
    v16u u;
    memcpy(&u, x + j, sizeof u);
    acc += (v16f)(u & 0x7fffffffu);
    v16u be = (u >> 23) & 0xffu;
    v16u nz = (v16u)(be != 0);
    v16u mant = (u & 0x7fffffu) | (nz & 0x800000u);
    v16u low = mant & -mant;
    v16f fl = __builtin_convertvector((v16i)low, v16f);
    v16i e = (v16i)(((v16u)fl >> 23) & 0xffu) - 127 + (v16i)(be | (~nz & 1u)) - 150;
    v16i keep = (v16i)(low != 0) & (e < lo);
    lo = (e & keep) | (lo & ~keep);
  }
  double a = 0.0;
  int32_t e = INT32_MAX;
  for (int k = 0; k < 16; k++) {
    a += acc[k];
    e = lo[k] < e ? lo[k] : e;
  }
  for (; j < m; j++) {
    a += fabsf(x[j]);
    int32_t ej = lsb_exp_f32(x[j]);
    e = ej < e ? ej : e;
  }
  *abs_sum = a;
  *emin = e;
}

/* Whether summing a block with bound abs_sum and lowest bit 2^emin onto s never rounds. */
static bool exact(double s, double abs_sum, int32_t emin) {
  int32_t es = s == 0.0 ? INT32_MAX : lsb_exp_f64(s);
  int32_t e = es < emin ? es : emin;
  if (e == INT32_MAX) return true; /* all zeros */
  /* 2^52 q leaves a factor 2 below 2^53 q for the rounding in abs_sum */
  return fabs(s) + abs_sum * (1.0 + 0x1p-10) < ldexp(1.0, 52 + e);
}

static void sequential(float *o, const float *x, int64_t m, double *acc) {
  double s = *acc;
  for (int64_t j = 0; j < m; j++) {
    s = isnan(s) ? s : s + (double)x[j]; /* the running NaN wins, as in PyTorch's loop (scan_kernels.c) */
    o[j] = (float)s;
  }
  *acc = s;
}

/* Vector helpers as macros: functions taking or returning 64-byte vectors change the ABI by target. */
#define SHIFT1 ((v8l){8, 0, 1, 2, 3, 4, 5, 6})
#define SHIFT2 ((v8l){8, 8, 0, 1, 2, 3, 4, 5})
#define SHIFT4 ((v8l){8, 8, 8, 8, 0, 1, 2, 3})
#define LAST ((v8l){7, 7, 7, 7, 7, 7, 7, 7})
/* v = the inclusive prefix sums of x[0..8) in double */
#define PREFIX8(v, x)                           \
  do {                                          \
    v8f f_;                                     \
    memcpy(&f_, (x), sizeof f_);                \
    v = __builtin_convertvector(f_, v8d);       \
    v += __builtin_shuffle(v, zero, SHIFT1);    \
    v += __builtin_shuffle(v, zero, SHIFT2);    \
    v += __builtin_shuffle(v, zero, SHIFT4);    \
  } while (0)
#define STORE8(o, v)                               \
  do {                                             \
    v8f f_ = __builtin_convertvector((v), v8f);    \
    memcpy((o), &f_, sizeof f_);                   \
  } while (0)

/* A block known to be exact: any association gives the sequential bits. */
CT_KERNEL_CLONES static void exact_block(float *o, const float *x, int64_t m, double *acc) {
  const v8d zero = {0};
  v8d carry = zero + *acc;
  int64_t j = 0;
  for (; j + 16 <= m; j += 16) {
    v8d a, b;
    PREFIX8(a, x + j);
    PREFIX8(b, x + j + 8);
    v8d ta = __builtin_shuffle(a, LAST);
    STORE8(o + j, a + carry);
    STORE8(o + j + 8, b + (carry + ta));
    carry += ta + __builtin_shuffle(b, LAST);
  }
  double s = carry[0];
  sequential(o + j, x + j, m - j, &s);
  *acc = s;
}

void ct__cumsum_f32_line(float *o, const float *x, int64_t n, double *acc) {
  for (int64_t off = 0; off < n; off += BLK) {
    int64_t m = n - off < BLK ? n - off : BLK;
    double a;
    int32_t e;
    block_stats(x + off, m, &a, &e);
    if (exact(*acc, a, e))
      exact_block(o + off, x + off, m, acc);
    else
      sequential(o + off, x + off, m, acc);
  }
}

/* sum of a chunk in double (exact whenever the chunk passes the check) and its stats */
CT_KERNEL_CLONES static void chunk_stats(const float *x, int64_t n, double *sum, double *abs_sum, int32_t *emin) {
  double a = 0.0;
  int32_t e = INT32_MAX;
  v8d s0 = {0}, s1 = {0};
  for (int64_t off = 0; off < n; off += BLK) {
    int64_t m = n - off < BLK ? n - off : BLK;
    double ab;
    int32_t eb;
    block_stats(x + off, m, &ab, &eb);
    a += ab;
    e = eb < e ? eb : e;
  }
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    v8f f0, f1;
    memcpy(&f0, x + j, sizeof f0);
    memcpy(&f1, x + j + 8, sizeof f1);
    s0 += __builtin_convertvector(f0, v8d);
    s1 += __builtin_convertvector(f1, v8d);
  }
  s0 += s1;
  double s = 0.0;
  for (int k = 0; k < 8; k++) s += s0[k];
  for (; j < n; j++) s += (double)x[j];
  *sum = s;
  *abs_sum = a;
  *emin = e;
}

#define MAX_CHUNKS 256

static void long_line(char *const *d, const int64_t *st, int64_t len, const void *ctx, int nt) {
  (void)ctx;
  float *o = (float *)d[0];
  const float *x = (const float *)d[1];
  bool contiguous = st[0] == 4 && st[1] == 4;
  bool apart = d[0] == d[1] || d[0] + len * 4 <= d[1] || d[1] + len * 4 <= d[0];
  if (!contiguous || !apart || nt < 2) {
    /* not for us: the generic kernel's single-line path */
    ct__cumsum_kernels[CT_FLOAT32](d, st, (const int64_t[3]){0, 0, 0}, len, 1, NULL);
    return;
  }
  if (nt > MAX_CHUNKS) nt = MAX_CHUNKS;
  int64_t bounds[MAX_CHUNKS + 1];
  double sum[MAX_CHUNKS], abs_sum[MAX_CHUNKS], start[MAX_CHUNKS];
  int32_t emin[MAX_CHUNKS];
  int64_t blocks = (len + BLK - 1) / BLK;
  for (int t = 0; t <= nt; t++) bounds[t] = t == nt ? len : (blocks * t / nt) * BLK;
  /* x is read before o is written: in place, every thread has finished reading before any writes */
#pragma omp parallel num_threads(nt)
  {
    int t = omp_get_thread_num();
    if (t < nt) chunk_stats(x + bounds[t], bounds[t + 1] - bounds[t], &sum[t], &abs_sum[t], &emin[t]);
  }
  double s = 0.0;
  bool ok = true;
  for (int t = 0; t < nt && ok; t++) {
    start[t] = s;
    ok = exact(s, abs_sum[t], emin[t]);
    s += sum[t];
  }
  if (!ok) {
    double acc = 0.0;
    ct__cumsum_f32_line(o, x, len, &acc);
    return;
  }
#pragma omp parallel num_threads(nt)
  {
    int t = omp_get_thread_num();
    if (t < nt) {
      double acc = start[t];
      ct__cumsum_f32_line(o + bounds[t], x + bounds[t], bounds[t + 1] - bounds[t], &acc);
    }
  }
}

const ct_scan_long_line ct__cumsum_f32_long_line = long_line;
