/* Extremes: amax, amin, aminmax, max and min (whole tensor, and along a dim with indices), argmax, argmin.

   Floating extremes propagate NaN (the first NaN is the extreme, as in PyTorch); ties keep the first
   index: a later element replaces the accumulator only when strictly better, and chunks combine in
   order. Values travel as double (float16/bfloat16/float32 convert exactly) or int64. */
#include "core/out_wrapper.h"
#include "ops/reduce/minmax_simd.h"
#include "ops/reduce/red.h"

/* ======== kernels ======== */

/* x replaces a: strictly better, or the first NaN. Bitwise, not short-circuit: one select, not branches
   that random data mispredicts half the time on short lines. */
#define GT_F(x, a) (((x) > (a)) | (((x) != (x)) & ((a) == (a))))
#define LT_F(x, a) (((x) < (a)) | (((x) != (x)) & ((a) == (a))))
/* The select "x replaces a" of a line's loop, without branches (random data mispredicts them half the
   time on short lines): for doubles the tests and the blend in vector registers, where GCC would branch
   on the scalar ?: of a compound test or move the value through integer registers. _MASK: all ones
   where x replaces a. */
typedef double pick_v2d __attribute__((vector_size(16)));
typedef int64_t pick_v2m __attribute__((vector_size(16)));
#define DEF_PICK_F(NAME, BETTER)                                                        \
  CT_VINLINE int64_t NAME##_MASK(double x, double a) {                                  \
    pick_v2d X = {x, x}, A = {a, a};                                                    \
    return BETTER(X, A)[0];                                                             \
  }                                                                                     \
  CT_VINLINE double NAME##_PICK(double x, double a) {                                   \
    pick_v2d X = {x, x}, A = {a, a};                                                    \
    pick_v2m m = BETTER(X, A);                                                          \
    return ((pick_v2d)(((pick_v2m)X & m) | ((pick_v2m)A & ~m)))[0];                     \
  }
DEF_PICK_F(GT_F, GT_F)
DEF_PICK_F(LT_F, LT_F)
#define GT_I(x, a) ((x) > (a))
#define LT_I(x, a) ((x) < (a))
#define GT_I_MASK(x, a) (-(int64_t)GT_I(x, a))
#define LT_I_MASK(x, a) (-(int64_t)LT_I(x, a))
#define GT_I_PICK(x, a) (GT_I(x, a) ? (x) : (a))
#define LT_I_PICK(x, a) (LT_I(x, a) ? (x) : (a))
#define LD_I(x) ((int64_t)(x))
#define LD_B(x) ((int64_t)((x) != 0))

#define MM_FLOATS(X)                              \
  X(CT_FLOAT16, uint16_t, CT_LD_F16)              \
  X(CT_BFLOAT16, uint16_t, CT_LD_BF16)            \
  X(CT_FLOAT32, float, CT_LD_ID)                  \
  X(CT_FLOAT64, double, CT_LD_ID)
#define MM_INTS(X)                                \
  X(CT_BOOL, uint8_t, LD_B) /* bytes: any nonzero one is true */ \
  X(CT_UINT8, uint8_t, LD_I)                      \
  X(CT_INT8, int8_t, LD_I)                        \
  X(CT_INT16, int16_t, LD_I)                      \
  X(CT_INT32, int32_t, LD_I)                      \
  X(CT_INT64, int64_t, LD_I)

/* ---- value accumulators: AT a ---- */
#define DEF_VAL(NAME, T, AT, LD, BETTER)                                                                        \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)idx, (void)ctx;                                                                                       \
    AT a = *(AT *)acc;                                                                                          \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      AT x = LD(*(const T *)(in + k * s));                                                                      \
      a = BETTER##_PICK(x, a);                                                                                  \
    }                                                                                                           \
    *(AT *)acc = a;                                                                                             \
  }                                                                                                             \
  CT_RED_DEF_INNER(NAME, sizeof(AT))                                                                          \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,         \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                                                 \
    (void)cols, (void)idx, (void)ctx;                                                                                       \
    AT *restrict a = acc;                                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const char *row = in + i * rs;                                                                            \
      for (int64_t j = 0; j < m; j++) {                                                                         \
        AT x = LD(*(const T *)(row + j * cs));                                                                  \
        if (BETTER(x, a[j])) a[j] = x;                                                                          \
      }                                                                                                         \
    }                                                                                                           \
  }

/* float32 / float64 max and min down contiguous columns (amax over dim 0), each with the scalar rule
   above (a NaN replaces a number; the first NaN stays), written so that GCC vectorizes it: a select
   on non-short-circuit tests (its vector-extension form crashes GCC 12). Other layouts take FALLBACK. */
#define KEEP_MAX(x, v) ((x) <= (v))
#define KEEP_MIN(x, v) ((v) <= (x))
#define VOUTER_COLS 1024
#define DEF_VOUTER(NAME, T, KEEP, FALLBACK)                                                                     \
  CT_KERNEL_CLONES static void NAME(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,    \
                                    int64_t idx, const ct_red_cols *cols, const void *ctx) {                    \
    if (cs != (int64_t)sizeof(T)) {                                                                             \
      FALLBACK(acc, in, cs, m, rs, n, idx, cols, ctx);                                                          \
      return;                                                                                                   \
    }                                                                                                           \
    double *a = acc;                                                                                            \
    T t[VOUTER_COLS]; /* the accumulators in T (exact: they hold T values or the initial infinity) */          \
    for (int64_t j0 = 0; j0 < m; j0 += VOUTER_COLS) {                                                           \
      int64_t mm = m - j0 < VOUTER_COLS ? m - j0 : VOUTER_COLS;                                                 \
      for (int64_t j = 0; j < mm; j++) t[j] = (T)a[j0 + j];                                                     \
      for (int64_t i = 0; i < n; i++) {                                                                         \
        const T *restrict row = (const T *)(in + i * rs) + j0;                                                  \
        for (int64_t j = 0; j < mm; j++) {                                                                      \
          T x = row[j], v = t[j];                                                                               \
          t[j] = ((v == v) & !KEEP(x, v)) ? x : v;                                                              \
        }                                                                                                       \
      }                                                                                                         \
      for (int64_t j = 0; j < mm; j++) a[j0 + j] = t[j];                                                        \
    }                                                                                                           \
  }

/* ---- (min, max) accumulators ---- */
#define DEF_MINMAX(NAME, T, AT, LD, GT, LT)                                                                     \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)idx, (void)ctx;                                                                                       \
    AT lo = ((AT *)acc)[0], hi = ((AT *)acc)[1];                                                                \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      AT x = LD(*(const T *)(in + k * s));                                                                      \
      if (LT(x, lo)) lo = x;                                                                                    \
      if (GT(x, hi)) hi = x;                                                                                    \
    }                                                                                                           \
    ((AT *)acc)[0] = lo, ((AT *)acc)[1] = hi;                                                                   \
  }                                                                                                             \
  CT_RED_DEF_INNER(NAME, 2 * sizeof(AT))

/* ---- (value, index) accumulators; index -1: nothing seen yet ---- */
#define DEF_ARG(NAME, T, AT, LD, BETTER)                                                                        \
  typedef struct NAME##_acc {                                                                                   \
    AT v;                                                                                                       \
    int64_t i;                                                                                                  \
  } NAME##_acc;                                                                                                 \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)ctx;                                                                                                  \
    NAME##_acc *a = acc;                                                                                        \
    int64_t k = 0;                                                                                              \
    if (a->i < 0 && n > 0) a->v = LD(*(const T *)in), a->i = idx, k = 1;                                        \
    AT v = a->v;                                                                                                \
    int64_t best = -1;                                                                                          \
    for (; k < n; k++) {                                                                                        \
      AT x = LD(*(const T *)(in + k * s));                                                                      \
      int64_t b = BETTER##_MASK(x, v);                                                                          \
      v = BETTER##_PICK(x, v), best = (k & b) | (best & ~b);                                                    \
    }                                                                                                           \
    if (best >= 0) a->v = v, a->i = idx + best;                                                                 \
  }                                                                                                             \
  CT_RED_DEF_INNER(NAME, sizeof(NAME##_acc))                                                                  \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,         \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                                                 \
    (void)cols, (void)ctx;                                                                                                  \
    NAME##_acc *restrict a = acc;                                                                               \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const char *row = in + i * rs;                                                                            \
      for (int64_t j = 0; j < m; j++) {                                                                         \
        AT x = LD(*(const T *)(row + j * cs));                                                                  \
        if (a[j].i < 0 || BETTER(x, a[j].v)) a[j].v = x, a[j].i = idx + i;                                      \
      }                                                                                                         \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *later, const void *ctx) {                                   \
    (void)ctx;                                                                                                  \
    NAME##_acc *a = acc;                                                                                        \
    const NAME##_acc *b = later;                                                                                \
    if (b->i >= 0 && (a->i < 0 || BETTER(b->v, a->v))) *a = *b;                                                 \
  }

/* float32 over contiguous runs: vector lanes (NaN tracked apart; the blend keeps non-NaN extremes). */
CT_VINLINE ct_v16f vsel16(ct_v16i m, ct_v16f a, ct_v16f b) {
  return (ct_v16f)((m & (ct_v16i)a) | (~m & (ct_v16i)b));
}

/* The extreme of n contiguous floats (max when want_max): NaN if any. n >= 64. */
#define DEF_VEXT(NAME, OP, INIT)                                                                                \
  CT_KERNEL_CLONES static float NAME(const float *x, int64_t n) {                                               \
    ct_v16f m0, m1, m2, m3;                                                                                     \
    for (int j = 0; j < 16; j++) m0[j] = INIT;                                                                  \
    m1 = m2 = m3 = m0;                                                                                          \
    ct_v16i z0 = {0}, z1 = {0}, z2 = {0}, z3 = {0};                                                             \
    int64_t k = 0;                                                                                              \
    for (; k + 64 <= n; k += 64) {                                                                              \
      ct_v16f x0 = ct_ld16f(x + k), x1 = ct_ld16f(x + k + 16), x2 = ct_ld16f(x + k + 32), x3 = ct_ld16f(x + k + 48); \
      m0 = vsel16(x0 OP m0, x0, m0);                                                                            \
      m1 = vsel16(x1 OP m1, x1, m1);                                                                            \
      m2 = vsel16(x2 OP m2, x2, m2);                                                                            \
      m3 = vsel16(x3 OP m3, x3, m3);                                                                            \
      z0 |= x0 != x0, z1 |= x1 != x1, z2 |= x2 != x2, z3 |= x3 != x3;                                           \
    }                                                                                                           \
    m0 = vsel16(m1 OP m0, m1, m0);                                                                              \
    m2 = vsel16(m3 OP m2, m3, m2);                                                                              \
    m0 = vsel16(m2 OP m0, m2, m0);                                                                              \
    z0 |= z1 | z2 | z3;                                                                                         \
    float r = m0[0];                                                                                            \
    bool nan = false;                                                                                           \
    for (int j = 0; j < 16; j++) {                                                                              \
      nan |= z0[j] != 0;                                                                                        \
      if (m0[j] OP r) r = m0[j];                                                                                \
    }                                                                                                           \
    for (; k < n; k++) {                                                                                        \
      nan |= x[k] != x[k];                                                                                      \
      if (x[k] OP r) r = x[k];                                                                                  \
    }                                                                                                           \
    return nan ? NAN : r;                                                                                       \
  }
DEF_VEXT(vmax_f32, >, -INFINITY)
DEF_VEXT(vmin_f32, <, INFINITY)

/* The first extreme of n contiguous floats (64 <= n < 2^31) and its index, in one pass: each lane keeps
   its extreme and where it first saw it; lanes then merge by value, ties to the smaller index. NaN: the
   first NaN. */
#define VARG_STEP(q, OP)                                                                                          \
  {                                                                                                             \
    ct_v16f xq = ct_ld16f(x + k + 16 * q);                                                                      \
    ct_v16i h = xq OP m##q;                                                                                     \
    m##q = vsel16(h, xq, m##q);                                                                                 \
    id##q = (h & c##q) | (~h & id##q);                                                                          \
    z##q |= xq != xq;                                                                                           \
    c##q += step;                                                                                               \
  }
#define VARG_MERGE(q, OP)                                                                                         \
  for (int j = 0; j < 16; j++) {                                                                                \
    nan |= z##q[j] != 0;                                                                                        \
    if (m##q[j] OP best || (m##q[j] == best && id##q[j] < bi)) best = m##q[j], bi = id##q[j];                   \
  }
#define DEF_VARGEXT(NAME, OP, INIT)                                                                             \
  CT_KERNEL_CLONES static int64_t NAME(const float *x, int64_t n, float *val) {                                 \
    ct_v16f m0, m1, m2, m3;                                                                                     \
    ct_v16i c0, c1, c2, c3, step;                                                                               \
    ct_v16i id0 = {0}, id1 = {0}, id2 = {0}, id3 = {0}, z0 = {0}, z1 = {0}, z2 = {0}, z3 = {0};                  \
    for (int j = 0; j < 16; j++) m0[j] = INIT, c0[j] = j, step[j] = 64;                                         \
    m1 = m2 = m3 = m0;                                                                                          \
    c1 = c0 + 16, c2 = c0 + 32, c3 = c0 + 48;                                                                   \
    int64_t k = 0;                                                                                              \
    for (; k + 64 <= n; k += 64) {                                                                              \
      VARG_STEP(0, OP) VARG_STEP(1, OP) VARG_STEP(2, OP) VARG_STEP(3, OP)                                                       \
    }                                                                                                           \
    bool nan = false;                                                                                           \
    float best = m0[0];                                                                                         \
    int64_t bi = id0[0];                                                                                        \
    VARG_MERGE(0, OP) VARG_MERGE(1, OP) VARG_MERGE(2, OP) VARG_MERGE(3, OP)                                                     \
    return ct__varg_finish(x, n, k, nan, best, bi, val, (1 OP 0));                                               \
  }
DEF_VARGEXT(vargmax_f32, >, -INFINITY)
DEF_VARGEXT(vargmin_f32, <, INFINITY)

static void vmax_f32_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx);
static void vmin_f32_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx);

DEF_VAL(max_CT_FLOAT16, uint16_t, double, CT_LD_F16, GT_F)
DEF_VAL(max_CT_BFLOAT16, uint16_t, double, CT_LD_BF16, GT_F)
DEF_VAL(max_CT_FLOAT32, float, double, CT_LD_ID, GT_F)
DEF_VAL(max_CT_FLOAT64, double, double, CT_LD_ID, GT_F)
DEF_VAL(min_CT_FLOAT16, uint16_t, double, CT_LD_F16, LT_F)
DEF_VAL(min_CT_BFLOAT16, uint16_t, double, CT_LD_BF16, LT_F)
DEF_VAL(min_CT_FLOAT32, float, double, CT_LD_ID, LT_F)
DEF_VAL(min_CT_FLOAT64, double, double, CT_LD_ID, LT_F)
#define DEF_VAL_I(E, T, LD) DEF_VAL(max_##E, T, int64_t, LD, GT_I) DEF_VAL(min_##E, T, int64_t, LD, LT_I)
MM_INTS(DEF_VAL_I)

DEF_VOUTER(vmax_f32_outer, float, KEEP_MAX, max_CT_FLOAT32_outer)
DEF_VOUTER(vmin_f32_outer, float, KEEP_MIN, min_CT_FLOAT32_outer)
DEF_VOUTER(vmax_f64_outer, double, KEEP_MAX, max_CT_FLOAT64_outer)
DEF_VOUTER(vmin_f64_outer, double, KEEP_MIN, min_CT_FLOAT64_outer)

/* float32 runs: the vector kernels on contiguous runs of 64 or more (AVX-512 where the CPU has it), the
   scalar loop SCALAR elsewhere */
#if CT_ISA_X86
#define VEXT_RUN(GENERIC, AVX512, AVX2, x, n)                                                                 \
  (ct__cpu_isa() == CT_ISA_AVX512 ? AVX512(x, n) : ct__cpu_isa() == CT_ISA_AVX2 ? AVX2(x, n) : GENERIC(x, n))
#define VARG_RUN(GENERIC, AVX2, x, n, v) (ct__cpu_isa() == CT_ISA_AVX2 ? AVX2(x, n, v) : GENERIC(x, n, v))
#else
#define VEXT_RUN(GENERIC, AVX512, AVX2, x, n) GENERIC(x, n)
#define VARG_RUN(GENERIC, AVX2, x, n, v) GENERIC(x, n, v)
#endif
#define DEF_VINNER(NAME, SCALAR, GENERIC, AVX512, AVX2, BETTER)                                                \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    if (s != 4 || n < 64) {                                                                                     \
      SCALAR##_line(acc, in, s, n, idx, ctx);                                                                   \
      return;                                                                                                   \
    }                                                                                                           \
    double r = VEXT_RUN(GENERIC, AVX512, AVX2, (const float *)in, n), a = *(double *)acc;                      \
    if (BETTER(r, a)) *(double *)acc = r;                                                                       \
  }                                                                                                             \
  static void NAME(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {             \
    NAME##_line(acc, in, s, n, idx, ctx);                                                                       \
  }                                                                                                             \
  CT_RED_DEF_RUN(NAME##_run, 8, NAME##_line)
DEF_VINNER(vmax_f32_inner, max_CT_FLOAT32, vmax_f32, ct__vmax_f32_avx512, ct__vmax_f32_avx2, GT_F)
DEF_VINNER(vmin_f32_inner, min_CT_FLOAT32, vmin_f32, ct__vmin_f32_avx512, ct__vmin_f32_avx2, LT_F)

#define DEF_MINMAX_F(E, T, LD) DEF_MINMAX(minmax_##E, T, double, LD, GT_F, LT_F)
#define DEF_MINMAX_I(E, T, LD) DEF_MINMAX(minmax_##E, T, int64_t, LD, GT_I, LT_I)
MM_FLOATS(DEF_MINMAX_F)
MM_INTS(DEF_MINMAX_I)

#define DEF_ARG_F(E, T, LD) DEF_ARG(argmax_##E, T, double, LD, GT_F) DEF_ARG(argmin_##E, T, double, LD, LT_F)
#define DEF_ARG_I(E, T, LD) DEF_ARG(argmax_##E, T, int64_t, LD, GT_I) DEF_ARG(argmin_##E, T, int64_t, LD, LT_I)
MM_FLOATS(DEF_ARG_F)
MM_INTS(DEF_ARG_I)

/* float32 arg extremes over contiguous runs: the extreme by lanes, then its first index. */
#define DEF_VARG(NAME, SCALAR, VEXT, AVX2, BETTER)                                                              \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    if (s != 4 || n < 64) {                                                                                     \
      SCALAR##_line(acc, in, s, n, idx, ctx);                                                                   \
      return;                                                                                                   \
    }                                                                                                           \
    float v;                                                                                                    \
    int64_t k = VARG_RUN(VEXT, AVX2, (const float *)in, n, &v);                                                 \
    argmax_CT_FLOAT32_acc *a = acc;                                                                             \
    if (a->i < 0 || BETTER((double)v, a->v)) a->v = v, a->i = idx + k;                                          \
  }                                                                                                             \
  static void NAME(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {             \
    NAME##_line(acc, in, s, n, idx, ctx);                                                                       \
  }                                                                                                             \
  CT_RED_DEF_RUN(NAME##_run, 16, NAME##_line)
DEF_VARG(vargmax_f32_inner, argmax_CT_FLOAT32, vargmax_f32, ct__vargmax_f32_avx2, GT_F)
DEF_VARG(vargmin_f32_inner, argmin_CT_FLOAT32, vargmin_f32, ct__vargmin_f32_avx2, LT_F)

/* ---- init / combine / finish ---- */
static void init_max_f(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(double *)acc = -INFINITY;
}
static void init_min_f(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(double *)acc = INFINITY;
}
static void init_max_i(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(int64_t *)acc = INT64_MIN;
}
static void init_min_i(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(int64_t *)acc = INT64_MAX;
}
static void init_minmax_f(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  ((double *)acc)[0] = INFINITY, ((double *)acc)[1] = -INFINITY;
}
static void init_minmax_i(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  ((int64_t *)acc)[0] = INT64_MAX, ((int64_t *)acc)[1] = INT64_MIN;
}
static void init_arg(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, 8);
  ((int64_t *)acc)[1] = -1;
}
static void combine_max_f(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  double x = *(const double *)b, *a = acc;
  if (GT_F(x, *a)) *a = x;
}
static void combine_min_f(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  double x = *(const double *)b, *a = acc;
  if (LT_F(x, *a)) *a = x;
}
static void combine_max_i(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  int64_t x = *(const int64_t *)b, *a = acc;
  if (x > *a) *a = x;
}
static void combine_min_i(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  int64_t x = *(const int64_t *)b, *a = acc;
  if (x < *a) *a = x;
}
static void combine_minmax_f(void *acc, const void *b, const void *ctx) {
  combine_min_f(acc, b, ctx);
  combine_max_f((double *)acc + 1, (const double *)b + 1, ctx);
}
static void combine_minmax_i(void *acc, const void *b, const void *ctx) {
  combine_min_i(acc, b, ctx);
  combine_max_i((int64_t *)acc + 1, (const int64_t *)b + 1, ctx);
}
static void finish_val_f(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_f64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], *(const double *)acc);
}
static void finish_val_i(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_i64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], *(const int64_t *)acc);
}
static void finish_minmax_f(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  ct__red_store_f64(out[0], c->out_dtype[0], ((const double *)acc)[0]);
  ct__red_store_f64(out[1], c->out_dtype[1], ((const double *)acc)[1]);
}
static void finish_minmax_i(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  ct__red_store_i64(out[0], c->out_dtype[0], ((const int64_t *)acc)[0]);
  ct__red_store_i64(out[1], c->out_dtype[1], ((const int64_t *)acc)[1]);
}
/* (values, indices) */
static void finish_vi_f(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_f64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], ((const double *)acc)[0]);
  *(int64_t *)out[1] = ((const int64_t *)acc)[1];
}
static void finish_vi_i(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_i64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], ((const int64_t *)acc)[0]);
  *(int64_t *)out[1] = ((const int64_t *)acc)[1];
}
static void finish_idx(char *const *out, const void *acc, const void *ctx) {
  (void)ctx;
  *(int64_t *)out[0] = ((const int64_t *)acc)[1];
}

/* batch forms: one call per run of outputs */
CT_RED_DEF_INIT_RUN(init_max_f_run, 8, init_max_f)
CT_RED_DEF_INIT_RUN(init_min_f_run, 8, init_min_f)
CT_RED_DEF_INIT_RUN(init_max_i_run, 8, init_max_i)
CT_RED_DEF_INIT_RUN(init_min_i_run, 8, init_min_i)
CT_RED_DEF_INIT_RUN(init_minmax_f_run, 16, init_minmax_f)
CT_RED_DEF_INIT_RUN(init_minmax_i_run, 16, init_minmax_i)
CT_RED_DEF_INIT_RUN(init_arg_run, 16, init_arg)
static void finish_val_f_run(char *const *out, const int64_t *os, const void *acc, int64_t m, const void *ctx) {
  ct__red_store_f64_run(out[0], os[0], ((const ct_red_ctx *)ctx)->out_dtype[0], acc, 1, m);
}
CT_RED_DEF_FINISH_RUN(finish_val_i_run, 8, 1, finish_val_i)
CT_RED_DEF_FINISH_RUN(finish_minmax_f_run, 16, 2, finish_minmax_f)
CT_RED_DEF_FINISH_RUN(finish_minmax_i_run, 16, 2, finish_minmax_i)
CT_RED_DEF_FINISH_RUN(finish_vi_f_run, 16, 2, finish_vi_f)
CT_RED_DEF_FINISH_RUN(finish_vi_i_run, 16, 2, finish_vi_i)
CT_RED_DEF_FINISH_RUN(finish_idx_run, 16, 1, finish_idx)

/* ---- declarations ---- */
#define K_VAL_F(E, T, LD)                                                                                       \
  CT_RED_KERNEL max_k_##E = {8, init_max_f, max_##E##_inner, max_##E##_outer, combine_max_f, finish_val_f,       \
                             false, false, max_##E##_inner_run, init_max_f_run, finish_val_f_run};                                                \
  CT_RED_KERNEL min_k_##E = {8, init_min_f, min_##E##_inner, min_##E##_outer, combine_min_f, finish_val_f,       \
                             false, false, min_##E##_inner_run, init_min_f_run, finish_val_f_run};
#define K_VAL_I(E, T, LD)                                                                                       \
  CT_RED_KERNEL max_k_##E = {8, init_max_i, max_##E##_inner, max_##E##_outer, combine_max_i, finish_val_i,       \
                             false, false, max_##E##_inner_run, init_max_i_run, finish_val_i_run};                                                \
  CT_RED_KERNEL min_k_##E = {8, init_min_i, min_##E##_inner, min_##E##_outer, combine_min_i, finish_val_i,       \
                             false, false, min_##E##_inner_run, init_min_i_run, finish_val_i_run};
K_VAL_F(CT_FLOAT16, uint16_t, CT_LD_F16)
K_VAL_F(CT_BFLOAT16, uint16_t, CT_LD_BF16)
MM_INTS(K_VAL_I)
CT_RED_KERNEL max_k_CT_FLOAT64 = {8,     init_max_f,   max_CT_FLOAT64_inner, vmax_f64_outer, combine_max_f,
                                  finish_val_f, false, false,          max_CT_FLOAT64_inner_run, init_max_f_run, finish_val_f_run};
CT_RED_KERNEL min_k_CT_FLOAT64 = {8,     init_min_f,   min_CT_FLOAT64_inner, vmin_f64_outer, combine_min_f,
                                  finish_val_f, false, false,          min_CT_FLOAT64_inner_run, init_min_f_run, finish_val_f_run};
CT_RED_KERNEL max_k_CT_FLOAT32 = {8,            init_max_f, vmax_f32_inner, vmax_f32_outer, combine_max_f,
                                  finish_val_f, false,      false,          vmax_f32_inner_run, init_max_f_run, finish_val_f_run};
CT_RED_KERNEL min_k_CT_FLOAT32 = {8,            init_min_f, vmin_f32_inner, vmin_f32_outer, combine_min_f,
                                  finish_val_f, false,      false,          vmin_f32_inner_run, init_min_f_run, finish_val_f_run};

#define K_MINMAX_F(E, T, LD)                                                                                     \
  CT_RED_KERNEL minmax_k_##E = {16,    init_minmax_f, minmax_##E##_inner, NULL, combine_minmax_f, finish_minmax_f, \
                                false, false,         minmax_##E##_inner_run, init_minmax_f_run, finish_minmax_f_run};
#define K_MINMAX_I(E, T, LD)                                                                                     \
  CT_RED_KERNEL minmax_k_##E = {16,    init_minmax_i, minmax_##E##_inner, NULL, combine_minmax_i, finish_minmax_i, \
                                false, false,         minmax_##E##_inner_run, init_minmax_i_run, finish_minmax_i_run};
MM_FLOATS(K_MINMAX_F)
MM_INTS(K_MINMAX_I)

#define K_ARG(E, INNER_MAX, INNER_MIN, FIN)                                                                     \
  CT_RED_KERNEL argmax_k_##E = {16,         init_arg, INNER_MAX, argmax_##E##_outer, argmax_##E##_combine,          \
                                finish_idx, false,    false,     INNER_MAX##_run, init_arg_run, finish_idx_run};                                  \
  CT_RED_KERNEL argmin_k_##E = {16,         init_arg, INNER_MIN, argmin_##E##_outer, argmin_##E##_combine,          \
                                finish_idx, false,    false,     INNER_MIN##_run, init_arg_run, finish_idx_run};                                  \
  CT_RED_KERNEL maxdim_k_##E = {16, init_arg, INNER_MAX, argmax_##E##_outer, argmax_##E##_combine, FIN,             \
                                false, false, INNER_MAX##_run, init_arg_run, FIN##_run};                                                     \
  CT_RED_KERNEL mindim_k_##E = {16, init_arg, INNER_MIN, argmin_##E##_outer, argmin_##E##_combine, FIN,             \
                                false, false, INNER_MIN##_run, init_arg_run, FIN##_run};
#define K_ARG_F(E, T, LD) K_ARG(E, argmax_##E##_inner, argmin_##E##_inner, finish_vi_f)
#define K_ARG_I(E, T, LD) K_ARG(E, argmax_##E##_inner, argmin_##E##_inner, finish_vi_i)
K_ARG_F(CT_FLOAT16, uint16_t, CT_LD_F16)
K_ARG_F(CT_BFLOAT16, uint16_t, CT_LD_BF16)
K_ARG_F(CT_FLOAT64, double, CT_LD_ID)
K_ARG(CT_FLOAT32, vargmax_f32_inner, vargmin_f32_inner, finish_vi_f)
MM_INTS(K_ARG_I)

#define ENTRY_MAX(E, T, LD) [E] = &max_k_##E,
#define ENTRY_MIN(E, T, LD) [E] = &min_k_##E,
#define ENTRY_MINMAX(E, T, LD) [E] = &minmax_k_##E,
#define ENTRY_ARGMAX(E, T, LD) [E] = &argmax_k_##E,
#define ENTRY_ARGMIN(E, T, LD) [E] = &argmin_k_##E,
#define ENTRY_MAXDIM(E, T, LD) [E] = &maxdim_k_##E,
#define ENTRY_MINDIM(E, T, LD) [E] = &mindim_k_##E,
static const ct_red_table max_table = {MM_INTS(ENTRY_MAX) MM_FLOATS(ENTRY_MAX)};
static const ct_red_table min_table = {MM_INTS(ENTRY_MIN) MM_FLOATS(ENTRY_MIN)};
/* aminmax along a dim: integers, float32, float64; over everything also bfloat16 */
static const ct_red_table minmax_dim_table = {MM_INTS(ENTRY_MINMAX)[CT_FLOAT32] = &minmax_k_CT_FLOAT32,
                                              [CT_FLOAT64] = &minmax_k_CT_FLOAT64};
static const ct_red_table minmax_all_table = {MM_INTS(ENTRY_MINMAX)[CT_FLOAT32] = &minmax_k_CT_FLOAT32,
                                              [CT_FLOAT64] = &minmax_k_CT_FLOAT64,
                                              [CT_BFLOAT16] = &minmax_k_CT_BFLOAT16};
/* argmax / argmin: no bool */
static const ct_red_table argmax_table = {[CT_UINT8] = &argmax_k_CT_UINT8, [CT_INT8] = &argmax_k_CT_INT8,
                                          [CT_INT16] = &argmax_k_CT_INT16, [CT_INT32] = &argmax_k_CT_INT32,
                                          [CT_INT64] = &argmax_k_CT_INT64, MM_FLOATS(ENTRY_ARGMAX)};
static const ct_red_table argmin_table = {[CT_UINT8] = &argmin_k_CT_UINT8, [CT_INT8] = &argmin_k_CT_INT8,
                                          [CT_INT16] = &argmin_k_CT_INT16, [CT_INT32] = &argmin_k_CT_INT32,
                                          [CT_INT64] = &argmin_k_CT_INT64, MM_FLOATS(ENTRY_ARGMIN)};
static const ct_red_table maxdim_table = {MM_INTS(ENTRY_MAXDIM) MM_FLOATS(ENTRY_MAXDIM)};
static const ct_red_table mindim_table = {MM_INTS(ENTRY_MINDIM) MM_FLOATS(ENTRY_MINDIM)};

/* ======== entry points ======== */

static const ct_reduce_opts no_opts;

static bool is_complex(const ct_tensor *t) { return ct__dt((ct_dtype)t->dtype)->category == CT_CAT_COMPLEX; }

/* zero_numel_check_dims for one dim (already wrapped unless `given` differs): IndexError. */
static bool nonempty_dim(const ct_tensor *t, int64_t wrapped, int64_t shown, const char *fn) {
  if (t->ndim == 0) {
    if (wrapped != 0) {
      ct__error(CT_ERR_INDEX, "%s: Expected reduction dim -1 or 0 for scalar but got %lld", fn, (long long)shown);
      return false;
    }
    return true;
  }
  if (t->sizes[wrapped] == 0) {
    ct__error(CT_ERR_INDEX, "%s: Expected reduction dim %lld to have non-zero size.", fn, (long long)shown);
    return false;
  }
  return true;
}

/* ---- descriptors ---- */
static const ct_op amax_op = {CT_RED_OP("amax", "aten::amax", &max_table)};
static const ct_op amin_op = {CT_RED_OP("amin", "aten::amin", &min_table)};
static const ct_op max_op = {CT_RED_OP("max", "aten::max", &max_table)};
static const ct_op min_op = {CT_RED_OP("min", "aten::min", &min_table)};
static const ct_op max_dim_op = {CT_RED_OP("max", "aten::max.dim", &maxdim_table)};
static const ct_op min_dim_op = {CT_RED_OP("min", "aten::min.dim", &mindim_table)};
static const ct_op argmax_op = {CT_RED_OP("argmax", "aten::argmax", &argmax_table), .grad = CT_OP_GRAD_NONE};
static const ct_op argmin_op = {CT_RED_OP("argmin", "aten::argmin", &argmin_table), .grad = CT_OP_GRAD_NONE};
/* aminmax has no derivative in torch 1.13: its outs are in-place targets */
static const ct_op aminmax_op = {CT_RED_OP("aminmax", "aten::aminmax", &minmax_all_table), .grad = CT_OP_GRAD_OUT_INPLACE};
static const ct_op aminmax_dim_op = {CT_RED_OP("aminmax", "aten::aminmax", &minmax_dim_table), .grad = CT_OP_GRAD_OUT_INPLACE};

/* amax / amin */
static ct_status extreme(bool is_max, ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts,
                         ct_tensor **res) {
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  const char *fn = is_max ? "amax()" : "amin()";
  if (!ct__red_no_dtype(is_max ? "amax" : "amin", o)) return ct__null_status();
  ct_dtype dt = (ct_dtype)t->dtype;
  if (out && (ct_dtype)out->dtype != dt) {
    ct__error(CT_ERR_RUNTIME,
              "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.",
              ct__dt(dt)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (t->numel == 0) {
    if (o->dims.ndim == 0) {
      ct__error(CT_ERR_RUNTIME,
                "%s: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
                "the 'dim' argument.",
                fn);
      return CT_ERR_RUNTIME;
    }
    for (int64_t i = 0; i < o->dims.ndim && o->dims.data; i++) {
      int64_t d = ct__wrap_dim(o->dims.data[i], t->ndim);
      if (d < 0) return ct__null_status();
      if (!nonempty_dim(t, d, o->dims.data[i], fn)) return CT_ERR_INDEX;
    }
  }
  ct_red_call c = {.in = t, .kdtype = dt, .keepdim = o->keepdim, .n_out = 1, .out = {out}, .out_dtype = {dt},
                   /* int64 amin: PyTorch's binary_kernel_reduce, which does not fill (its vector min
                      lacks int64's upper bound) */
                   .alias_fill = is_max || dt != CT_INT64, .alias_identity = ct__red_extreme(dt, !is_max)};
  if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  c.k = ct__red_kernel(is_max ? &amax_op : &amin_op, dt, t, c.out[0]);
  if (!c.k) {
    if (t->numel != 0) {
      ct__red_not_implemented(is_max ? "max_values_cpu" : "min_values_cpu", dt);
      return CT_ERR_RUNTIME;
    }
    c.k = &max_k_CT_FLOAT64; /* never runs: the result is empty */
    c.kdtype = CT_FLOAT64;
    c.fill = true;
    c.fill_value = ct_scalar_int(0);
  }
  return ct__red_exec(&c, res);
}

ct_status ct__amax_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  return extreme(true, out, t, opts, res);
}

ct_status ct__amin_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  return extreme(false, out, t, opts, res);
}

CT_RED_DEFINE_API(amax, &amax_op, ct_reduce_opts, extreme, true, )
CT_RED_DEFINE_API(amin, &amin_op, ct_reduce_opts, extreme, false, )

static ct_tensor *extreme_all(bool is_max, const ct_tensor *t) {
  const char *fn = is_max ? "max()" : "min()";
  /* torch/_meta_registrations.py's meta_max: self.new_empty(()), no check (an empty or complex self too) */
  if (t->device_type == CT_META) return ct__own(ct__empty(0, NULL, (ct_dtype)t->dtype, ct__tdevice(t)));
  if (t->numel == 0) {
    ct__error(CT_ERR_RUNTIME,
              "%s: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
              "'dim' argument.",
              fn);
    return NULL;
  }
  ct_dtype dt = (ct_dtype)t->dtype;
  const ct_red_kernel *k = ct__red_kernel(is_max ? &max_op : &min_op, dt, t);
  if (!k) {
    ct__red_not_implemented(is_max ? "max_all" : "min_all", dt);
    return NULL;
  }
  ct_red_call c = {.in = t, .kdtype = dt, .n_out = 1, .out_dtype = {dt}, .k = k};
  if (!ct__red_mask(t, CT_SHAPE_SCALAR, &c.mask)) return NULL;
  return ct__red_exec1(&c);
}
ct_tensor *ct_max(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&max_op, t, t);
  return extreme_all(true, t);
}
ct_tensor *ct_min(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&min_op, t, t);
  return extreme_all(false, t);
}

/* max / min along a dim: (values, indices) */
static ct_status extreme_dim(bool is_max, ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                             bool keepdim, ct_tensor **rv, ct_tensor **ri) {
  bool fresh = !values && !indices;
  const char *fn = is_max ? "max()" : "min()";
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return ct__null_status();
  if (!nonempty_dim(t, d, d, fn)) return CT_ERR_INDEX;
  if (is_complex(t)) {
    ct__error(CT_ERR_RUNTIME, "%s: does not support complex input", fn);
    return CT_ERR_RUNTIME;
  }
  ct_dtype dt = (ct_dtype)t->dtype;
  /* resize_out for each output in turn: its dtype, then its device (self's) */
  ct_device dev = ct__tdevice(t);
  if ((values && !ct__resize_out_ok(values, dt, dev)) ||
      (indices && !ct__resize_out_ok(indices, CT_INT64, dev)))
    return CT_ERR_RUNTIME;
  ct_red_call c = {.in = t, .kdtype = dt, .keepdim = keepdim, .ordered = true, .n_out = 2, .out = {values, indices},
                   .out_dtype = {dt, CT_INT64}, .check_overlap = true};
  if (t->ndim > 64) { /* the reduction's dim bitset, as torch's */
    ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
    return CT_ERR_RUNTIME;
  }
  c.mask = t->ndim ? (uint64_t)1 << d : 0;
  c.k = ct__red_kernel(is_max ? &max_dim_op : &min_dim_op, dt, t, c.out[0], c.out[1]);
  if (!c.k) { /* unreachable: every real dtype has one */
    ct__red_not_implemented(is_max ? "max_cpu" : "min_cpu", dt);
    return CT_ERR_RUNTIME;
  }
  return fresh ? ct__red_exec2(&c, rv, ri) : ct__red_exec(&c, NULL);
}

static bool keepdim_of(const ct_keepdim_opts *opts) { return opts && opts->keepdim; }

/* The results through pointers are NULL on every failure, the guard's too. */
#define CLEAR_RESULTS(a, b) (void)((a) && (*(a) = NULL)), (void)((b) && (*(b) = NULL))

ct_status ct_max_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                     const ct_keepdim_opts *opts) {
  CLEAR_RESULTS(values, indices);
  CT__OP_ENTER_STATUS(&max_dim_op, t, t);
  return extreme_dim(true, NULL, NULL, t, dim, keepdim_of(opts), values, indices);
}
ct_status ct_max_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                         const ct_keepdim_opts *opts) {
  CT__OP_ENTER_STATUS(&max_dim_op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&max_dim_op, values, indices, t)) return CT_ERR_RUNTIME;
  return extreme_dim(true, values, indices, t, dim, keepdim_of(opts), NULL, NULL);
}
ct_status ct_min_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                     const ct_keepdim_opts *opts) {
  CLEAR_RESULTS(values, indices);
  CT__OP_ENTER_STATUS(&min_dim_op, t, t);
  return extreme_dim(false, NULL, NULL, t, dim, keepdim_of(opts), values, indices);
}
ct_status ct_min_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                         const ct_keepdim_opts *opts) {
  CT__OP_ENTER_STATUS(&min_dim_op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&min_dim_op, values, indices, t)) return CT_ERR_RUNTIME;
  return extreme_dim(false, values, indices, t, dim, keepdim_of(opts), NULL, NULL);
}

/* argmax / argmin */
static ct_status arg_extreme(bool is_max, ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts,
                             ct_tensor **res) {
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  const char *name = is_max ? "argmax" : "argmin";
  if (!ct__red_no_dtype(name, o)) return ct__null_status();
  bool has_dim;
  int64_t dim;
  if (!ct__red_single_dim(name, o->dims, &has_dim, &dim)) return ct__null_status();
  const char *fn = is_max ? "argmax()" : "argmin()";
  int64_t d = 0;
  if (has_dim) {
    d = ct__wrap_dim(dim, t->ndim);
    if (d < 0) return ct__null_status();
    if (!nonempty_dim(t, d, d, fn)) return CT_ERR_INDEX;
  } else if (t->numel == 0) {
    ct__error(CT_ERR_INDEX, "%s: Expected reduction dim to be specified for input.numel() == 0.", fn);
    return CT_ERR_INDEX;
  }
  if (out && !ct__resize_out_ok(out, CT_INT64, ct__tdevice(t))) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)t->dtype;
  ct_red_call c = {.in = t, .kdtype = dt, .keepdim = o->keepdim, .ordered = true, .n_out = 1, .out = {out},
                   .out_dtype = {CT_INT64}};
  if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  c.k = ct__red_kernel(is_max ? &argmax_op : &argmin_op, dt, t, c.out[0]);
  if (has_dim && t->ndim > 0 && t->sizes[d] == 1) { /* PyTorch answers 0 without looking at the dtype */
    c.k = NULL;
    c.fill = true;
    c.fill_value = ct_scalar_int(0);
  } else if (!c.k) {
    if (t->numel != 0) {
      ct__red_not_implemented(is_max ? "argmax_cpu" : "argmin_cpu", dt);
      return CT_ERR_RUNTIME;
    }
    c.fill = true; /* an empty result: nothing to compute */
    c.fill_value = ct_scalar_int(0);
  }
  return ct__red_exec(&c, res);
}

CT_RED_DEFINE_API(argmax, &argmax_op, ct_reduce_opts, arg_extreme, true, )
CT_RED_DEFINE_API(argmin, &argmin_op, ct_reduce_opts, arg_extreme, false, )

static ct_status aminmax(ct_tensor *mn, ct_tensor *mx, const ct_tensor *t, const ct_reduce_opts *opts,
                         ct_tensor **rmin, ct_tensor **rmax) {
  bool fresh = !mn && !mx;
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  if (!ct__red_no_dtype("aminmax", o)) return ct__null_status();
  bool has_dim;
  int64_t dim;
  if (!ct__red_single_dim("aminmax", o->dims, &has_dim, &dim)) return ct__null_status();
  ct_dtype dt = (ct_dtype)t->dtype;
  ct_red_call c = {.in = t, .kdtype = dt, .keepdim = o->keepdim, .n_out = 2, .out = {mn, mx}, .out_dtype = {dt, dt}};
  if (has_dim) {
    int64_t d = ct__wrap_dim(dim, t->ndim);
    if (d < 0) return ct__null_status();
    if (!nonempty_dim(t, d, d, "aminmax")) return CT_ERR_INDEX;
    if (t->ndim > 64) {
      ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
      return CT_ERR_RUNTIME;
    }
    c.mask = t->ndim ? (uint64_t)1 << d : 0;
    c.check_overlap = true;
  } else {
    if (t->numel == 0) {
      ct__error(CT_ERR_RUNTIME,
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
      return CT_ERR_RUNTIME;
    }
    if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  }
  if ((mn && !ct__resize_out_ok(mn, dt, ct__tdevice(t))) ||
      (mx && !ct__resize_out_ok(mx, dt, ct__tdevice(t))))
    return CT_ERR_RUNTIME;
  c.k = ct__red_kernel(has_dim ? &aminmax_dim_op : &aminmax_op, dt, t, c.out[0], c.out[1]);
  if (!c.k) {
    ct__red_not_implemented("aminmax_cpu", dt);
    return CT_ERR_RUNTIME;
  }
  /* PyTorch's quirk: a 0-dim input reduced along dim 0 with keepdim gives shape [1] (its CPU kernel's resize;
     on meta the meta function's () stays) */
  ct_tensor *one = NULL;
  if (has_dim && t->ndim == 0 && o->keepdim && !CT__OP_ON_META(mn, mx, t)) {
    one = ct__view(t, 1, (const int64_t[]){1}, (const int64_t[]){1}, t->offset);
    if (!one) return CT_ERR_OUT_OF_MEMORY;
    c.in = one;
    c.mask = 1;
    /* PyTorch's meta function sizes given outputs as () and its kernel then resizes them to [1], so
       they end up contiguous whatever their strides were (its device check comes first) */
    if (!fresh && !ct__red_check_out_devices(&c)) {
      ct_release(one);
      return ct_last_error();
    }
    for (int o = 0; o < 2 && !fresh; o++) {
      ct_status rs = ct__tensor_resize(o ? mx : mn, 1, (const int64_t[]){1}, NULL);
      if (rs != CT_OK) {
        ct_release(one);
        return rs;
      }
    }
  }
  ct_status s = fresh ? ct__red_exec2(&c, rmin, rmax) : ct__red_exec(&c, NULL);
  ct_release(one);
  return s;
}

ct_status ct_aminmax(const ct_tensor *t, ct_tensor **min, ct_tensor **max, const ct_reduce_opts *opts) {
  CLEAR_RESULTS(min, max);
  CT__OP_ENTER_STATUS(&aminmax_op, t, t);
  return aminmax(NULL, NULL, t, opts, min, max);
}
ct_status ct_aminmax_out(ct_tensor *min, ct_tensor *max, const ct_tensor *t, const ct_reduce_opts *opts) {
  CT__OP_ENTER_STATUS(&aminmax_op, t, min, max, t);
  /* aminmax has no derivative in torch 1.13: its outs are in-place targets for autograd */
  if (!ct__check_inplace(min) || !ct__check_inplace(max)) return CT_ERR_RUNTIME;
  ct_status s = aminmax(min, max, t, opts, NULL, NULL);
  if (s == CT_OK) {
    ct__grad_mark_out(min, &t, 1);
    ct__grad_mark_out(max, &t, 1);
  }
  return s;
}
