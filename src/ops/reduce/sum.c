/* Sums and products: sum, nansum, prod, mean, nanmean.

   Accumulators: int64 with wraparound for bool and integers (PyTorch's integer sums wrap; accumulating in
   int64 and truncating once gives the same bits as accumulating in a narrower type); floating and complex
   sums take PyTorch's cascade (sum_cascade.c, float16/bfloat16 in float: its bits at one thread for
   reductions of up to CT_RED_CHUNK elements per output; longer ones are cut into fixed chunks added in
   order, so the result never depends on the thread count, where PyTorch's does); products in double or
   complex double. */
#include <stdio.h>

#include "core/out_wrapper.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/reduce/red.h"

/* ======== kernels ======== */

static void init_zero(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, 8);
}
static void init_one_i(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(uint64_t *)acc = 1;
}
static void init_one_f(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(double *)acc = 1.0;
}
static void init_one_c(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  ((double *)acc)[0] = 1.0, ((double *)acc)[1] = 0.0;
}

static void combine_add_i(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(uint64_t *)acc += *(const uint64_t *)b;
}
static void combine_mul_i(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(uint64_t *)acc *= *(const uint64_t *)b;
}
static void finish_i(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_i64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], *(const int64_t *)acc);
}
static void finish_f(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_f64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], *(const double *)acc);
}
static void finish_c(char *const *out, const void *acc, const void *ctx) {
  const double *a = acc;
  ct__red_store_c128(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], a[0], a[1]);
}

/* batch forms: one call per run of outputs */
static void init_zero_run(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {
  (void)aux, (void)as, (void)ctx;
  memset(acc, 0, (size_t)m * 8);
}
CT_RED_DEF_INIT_RUN(init_one_i_run, 8, init_one_i)
CT_RED_DEF_INIT_RUN(init_one_f_run, 8, init_one_f)
CT_RED_DEF_FINISH_RUN(finish_i_run, 8, 1, finish_i)
static void finish_f_run(char *const *out, const int64_t *os, const void *acc, int64_t m, const void *ctx) {
  ct__red_store_f64_run(out[0], os[0], ((const ct_red_ctx *)ctx)->out_dtype[0], acc, 1, m);
}

/* ---- integer loops: OP(acc, x) on uint64 ---- */
#define ADD_I(a, x) ((a) + (uint64_t)(int64_t)(x))
#define MUL_I(a, x) ((a) * (uint64_t)(int64_t)(x))

#define DEF_INT_LOOPS(NAME, T, OP)                                                                              \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)idx, (void)ctx;                                                                                       \
    uint64_t a = *(uint64_t *)acc;                                                                              \
    if (s == (int64_t)sizeof(T)) {                                                                              \
      const T *x = (const T *)in;                                                                               \
      for (int64_t k = 0; k < n; k++) a = OP(a, x[k]);                                                          \
    } else {                                                                                                    \
      for (int64_t k = 0; k < n; k++) a = OP(a, *(const T *)(in + k * s));                                      \
    }                                                                                                           \
    *(uint64_t *)acc = a;                                                                                       \
  }                                                                                                             \
  CT_RED_DEF_INNER(NAME, 8)                                                                                   \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs,        \
                                            int64_t n, int64_t idx, const ct_red_cols *cols, const void *ctx) {                          \
    (void)cols, (void)idx, (void)ctx, (void)cols;                                                                          \
    uint64_t *restrict a = acc;                                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const char *row = in + i * rs;                                                                            \
      if (cs == (int64_t)sizeof(T)) {                                                                           \
        const T *restrict x = (const T *)row;                                                                   \
        for (int64_t j = 0; j < m; j++) a[j] = OP(a[j], x[j]);                                                  \
      } else {                                                                                                  \
        for (int64_t j = 0; j < m; j++) a[j] = OP(a[j], *(const T *)(row + j * cs));                            \
      }                                                                                                         \
    }                                                                                                           \
  }

/* ---- sums of squares (norm 'fro') ----
   Each call sums its run in double; the accumulator is the running total PyTorch keeps in the output
   (CastStoreAccumulate: out += row_sum, rounded to the output dtype at every row of its innermost loop),
   so float32 / bfloat16 totals round where PyTorch's do and the results stay close to its. */
#define SEG_F(v) ((double)(float)(v))
/* bfloat16 outputs: `out += row_sum` converts the float row sum to the output type first (c10::BFloat16
   has no += float), then adds and rounds again */
#define SEG_B(v) tot_bf16(v)
#define SEG_D(v) (v)
static inline double tot_f32(double v) { return (double)(float)v; }
static inline double tot_bf16(double v) { return (double)ct__bfloat16_to_float(ct__float_to_bfloat16((float)v)); }
static inline double tot_f64(double v) { return v; }

/* The plain sum of n values F(LD(x)) of a strided run, four partial sums. */
#define DEF_RUN_SUM(NAME, T, LD, F)                                                                             \
  static inline double NAME##_run(const char *in, int64_t s, int64_t n) {                                        \
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                                      \
    int64_t k = 0;                                                                                              \
    for (; k + 4 <= n; k += 4) {                                                                                \
      double v0 = LD(*(const T *)(in + k * s)), v1 = LD(*(const T *)(in + (k + 1) * s));                        \
      double v2 = LD(*(const T *)(in + (k + 2) * s)), v3 = LD(*(const T *)(in + (k + 3) * s));                  \
      a0 += F(v0), a1 += F(v1), a2 += F(v2), a3 += F(v3);                                                       \
    }                                                                                                           \
    for (; k < n; k++) {                                                                                        \
      double v = LD(*(const T *)(in + k * s));                                                                  \
      a0 += F(v);                                                                                               \
    }                                                                                                           \
    return (a0 + a1) + (a2 + a3);                                                                               \
  }

/* inner, outer and combine of a floating sum; RUN(in, s, n) sums a run, SEGR rounds a run's sum to the
   accumulation type, TOTR the running total to the output dtype. */
#define DEF_FLOAT_SUM_LOOPS(NAME, T, LD, F, RUN, SEGR, TOTR)                                                    \
  CT_RED_LOOP void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    double seg = RUN(in, s, n);                                                                                 \
    *(double *)acc = TOTR(*(double *)acc + SEGR(seg));                                                          \
  }                                                                                                             \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,         \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                                                 \
    (void)cols, (void)idx, (void)ctx;                                                                                       \
    double *restrict a = acc;                                                                                   \
    double tmp[CT_RED_OUTER_MAX];                                                                               \
    for (int64_t j0 = 0; j0 < m; j0 += CT_RED_OUTER_MAX) {                                                      \
      int64_t mm = m - j0 < CT_RED_OUTER_MAX ? m - j0 : CT_RED_OUTER_MAX;                                       \
      for (int64_t j = 0; j < mm; j++) tmp[j] = 0;                                                              \
      int64_t i = 0;                                                                                            \
      if (cs == (int64_t)sizeof(T)) { /* eight rows at a time: one pass over tmp per eight rows */              \
        for (; i + 8 <= n; i += 8) {                                                                            \
          const T *restrict x0 = (const T *)(in + i * rs + j0 * cs), *restrict x1 = (const T *)((const char *)x0 + rs); \
          const T *restrict x2 = (const T *)((const char *)x1 + rs), *restrict x3 = (const T *)((const char *)x2 + rs); \
          const T *restrict x4 = (const T *)((const char *)x3 + rs), *restrict x5 = (const T *)((const char *)x4 + rs); \
          const T *restrict x6 = (const T *)((const char *)x5 + rs), *restrict x7 = (const T *)((const char *)x6 + rs); \
          for (int64_t j = 0; j < mm; j++) {                                                                    \
            double v0 = LD(x0[j]), v1 = LD(x1[j]), v2 = LD(x2[j]), v3 = LD(x3[j]);                              \
            double v4 = LD(x4[j]), v5 = LD(x5[j]), v6 = LD(x6[j]), v7 = LD(x7[j]);                              \
            tmp[j] += ((F(v0) + F(v1)) + (F(v2) + F(v3))) + ((F(v4) + F(v5)) + (F(v6) + F(v7)));                \
          }                                                                                                     \
        }                                                                                                       \
      }                                                                                                         \
      for (; i < n; i++) {                                                                                      \
        const char *row = in + i * rs + j0 * cs;                                                                \
        if (cs == (int64_t)sizeof(T)) {                                                                         \
          const T *restrict x = (const T *)row;                                                                 \
          for (int64_t j = 0; j < mm; j++) {                                                                    \
            double v = LD(x[j]);                                                                                \
            tmp[j] += F(v);                                                                                     \
          }                                                                                                     \
        } else {                                                                                                \
          for (int64_t j = 0; j < mm; j++) {                                                                    \
            double v = LD(*(const T *)(row + j * cs));                                                          \
            tmp[j] += F(v);                                                                                     \
          }                                                                                                     \
        }                                                                                                       \
      }                                                                                                         \
      for (int64_t j = 0; j < mm; j++) a[j0 + j] = TOTR(a[j0 + j] + SEGR(tmp[j]));                               \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    *(double *)acc = TOTR(*(double *)acc + *(const double *)b);                                                 \
  }

/* Floating products in the input's own type, in PyTorch's order (binary_kernel_reduce_vec): a contiguous
   run of at least 4 vectors (AVX2: 8 floats / 4 doubles / 4 complex64 / 2 complex128 each) multiplies
   its blocks into 4 x LANES lanes seeded with the first block, folds them ((a0 * a1) * (a2 * a3)), then
   lane by lane; that and the rest of the run multiply into the accumulator in order. Strided runs and
   columns multiply in order. The order decides inf * 0 = NaN, so it has to be PyTorch's. */
#define PROD_COLS 1024
#define DEF_FLOAT_PROD_LOOPS(NAME, T, LANES)                                                                    \
  CT_VINLINE void NAME##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)idx, (void)ctx;                                                                                       \
    T a = (T) * (double *)acc;                                                                                  \
    int64_t k = 0;                                                                                              \
    if (s == (int64_t)sizeof(T) && n >= 4 * LANES) {                                                            \
      const T *x = (const T *)in;                                                                               \
      T l[4 * LANES];                                                                                           \
      int64_t blocks = n / (4 * LANES);                                                                         \
      for (int j = 0; j < 4 * LANES; j++) l[j] = x[j];                                                          \
      for (int64_t b = 1; b < blocks; b++)                                                                      \
        for (int j = 0; j < 4 * LANES; j++) l[j] = l[j] * x[b * 4 * LANES + j];                                 \
      T r[LANES];                                                                                               \
      for (int j = 0; j < LANES; j++) r[j] = (l[j] * l[LANES + j]) * (l[2 * LANES + j] * l[3 * LANES + j]);     \
      T v = r[0];                                                                                               \
      for (int j = 1; j < LANES; j++) v = v * r[j];                                                             \
      a = a * v;                                                                                                \
      k = blocks * 4 * LANES;                                                                                   \
    }                                                                                                           \
    for (; k < n; k++) a = a * *(const T *)(in + k * s);                                                        \
    *(double *)acc = (double)a;                                                                                 \
  }                                                                                                             \
  CT_RED_DEF_INNER(NAME, 8)                                                                                   \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,         \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                                                 \
    (void)cols, (void)idx, (void)ctx;                                                                                       \
    double *restrict a = acc;                                                                                   \
    T v[PROD_COLS]; /* each column's product in T, row after row (memory order; the same bits) */            \
    for (int64_t j0 = 0; j0 < m; j0 += PROD_COLS) {                                                             \
      int64_t mm = m - j0 < PROD_COLS ? m - j0 : PROD_COLS;                                                     \
      for (int64_t j = 0; j < mm; j++) v[j] = (T)a[j0 + j];                                                     \
      for (int64_t i = 0; i < n; i++) {                                                                         \
        const char *row = in + i * rs + j0 * cs;                                                                \
        if (cs == (int64_t)sizeof(T)) {                                                                         \
          const T *restrict x = (const T *)row;                                                                 \
          for (int64_t j = 0; j < mm; j++) v[j] = v[j] * x[j];                                                  \
        } else {                                                                                                \
          for (int64_t j = 0; j < mm; j++) v[j] = v[j] * *(const T *)(row + j * cs);                            \
        }                                                                                                       \
      }                                                                                                         \
      for (int64_t j = 0; j < mm; j++) a[j0 + j] = (double)v[j];                                                \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    *(double *)acc = (double)((T) * (double *)acc * (T) * (const double *)b);                                   \
  }

/* complex products: c10::complex's naive formula, in the component type, same order. PyTorch's vector
   product (Vectorized<complex>::operator*) rounds each product; its scalar one is compiled with FMA
   contraction: (a c - b d) as fma(a, c, -(b d)), (a d + b c) as fma(a, d, b c). torch compat
   (kernels/cpu/torch_compat.h): the fused forms are CT_COMPAT_FMA, so with the switch off CMUL_FMA and the
   complex<float> lane step below are CMUL, one rounding per operation. */
#define CMUL(RT, ar, ai, br, bi)                                                                                \
  do {                                                                                                          \
    RT r_ = (ar) * (br) - (ai) * (bi), i_ = (ar) * (bi) + (ai) * (br);                                          \
    ar = r_, ai = i_;                                                                                           \
  } while (0)
#define CMUL_FMA(RT, ar, ai, br, bi)                                                                            \
  do {                                                                                                          \
    RT r_ = CT_FMA_##RT((ar), (br), -((ai) * (bi))), i_ = CT_FMA_##RT((ar), (bi), (ai) * (br));                 \
    ar = r_, ai = i_;                                                                                           \
  } while (0)
#define CT_FMA_float  CT_COMPAT_FMAF
#define CT_FMA_double CT_COMPAT_FMA
#define DEF_COMPLEX_PROD(NAME, RT, LANES, SCALAR_FMA)                                                                     \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    double *ad = acc;                                                                                           \
    RT ar = (RT)ad[0], ai = (RT)ad[1];                                                                          \
    int64_t k = 0;                                                                                              \
    if (s == (int64_t)(2 * sizeof(RT)) && n >= 4 * LANES) {                                                     \
      const RT *x = (const RT *)in;                                                                             \
      RT lr[4 * LANES], li[4 * LANES];                                                                          \
      int64_t blocks = n / (4 * LANES);                                                                         \
      for (int j = 0; j < 4 * LANES; j++) lr[j] = x[2 * j], li[j] = x[2 * j + 1];                               \
      for (int64_t b = 1; b < blocks; b++)                                                                      \
        for (int j = 0; j < 4 * LANES; j++) {                                                                   \
          const RT *y = x + 2 * (b * 4 * LANES + j);                                                            \
          CMUL(RT, lr[j], li[j], y[0], y[1]);                                                                   \
        }                                                                                                       \
      RT vr = 0, vi = 0;                                                                                        \
      for (int j = 0; j < LANES; j++) {                                                                         \
        RT pr = lr[j], pi = li[j], qr = lr[2 * LANES + j], qi = li[2 * LANES + j];                              \
        CMUL(RT, pr, pi, lr[LANES + j], li[LANES + j]);                                                         \
        CMUL(RT, qr, qi, lr[3 * LANES + j], li[3 * LANES + j]);                                                 \
        CMUL(RT, pr, pi, qr, qi);                                                                               \
        if (j == 0) {                                                                                           \
          vr = pr, vi = pi;                                                                                     \
        } else if (LANES == 4 && j == 3) {                                                                      \
          lr[0] = pr, li[0] = pi;                                                                               \
        } else {                                                                                                \
          CMUL_FMA(RT, vr, vi, pr, pi);                                                                         \
        }                                                                                                       \
      }                                                                                                         \
      if (LANES == 4) {                                                                                         \
        /* complex<float>: GCC's code for PyTorch's last lane step and the product into the output: the     \
           lane product R = v * (c + di) both unfused and (as the output's imaginary factor) fused */         \
        RT c = lr[0], d = li[0];                                                                                \
        RT rr = vr * c - vi * d, ri = vr * d + vi * c;                                                          \
        RT ri2 = CT_FMA_##RT(vi, c, vr * d), rr2 = CT_FMA_##RT(-vi, d, vr * c);                                  \
        RT nr = ar * rr - ai * ri2, ni = ar * ri + ai * rr2;                                                    \
        ar = nr, ai = ni;                                                                                       \
      } else {                                                                                                  \
        CMUL_FMA(RT, ar, ai, vr, vi);                                                                           \
      }                                                                                                         \
      k = blocks * 4 * LANES;                                                                                   \
    }                                                                                                           \
    for (; k < n; k++) {                                                                                        \
      const RT *y = (const RT *)(in + k * s);                                                                   \
      if (SCALAR_FMA || s == (int64_t)(2 * sizeof(RT)))                                                         \
        CMUL_FMA(RT, ar, ai, y[0], y[1]);                                                                       \
      else                                                                                                      \
        CMUL(RT, ar, ai, y[0], y[1]);                                                                           \
    }                                                                                                           \
    ad[0] = (double)ar, ad[1] = (double)ai;                                                                     \
  }                                                                                                             \
  /* columns: PyTorch's vectorized_outer_reduction over contiguous columns of one reduced dim (blocks of  \
     4 vectors: each column's product unfused, then times the output; the remaining columns one by one,    \
     fused), else per column as the inner loop */                                                          \
  static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,             \
                           int64_t idx, const ct_red_cols *cols, const void *ctx) {                             \
    const int64_t es = (int64_t)(2 * sizeof(RT));                                                               \
    bool outer = cols->nr == 1 && cs == es;                                                                     \
    int64_t vec_end = outer ? cols->total / (4 * LANES) * (4 * LANES) : 0;                                      \
    for (int64_t j = 0; j < m; j++) {                                                                           \
      double *ad = (double *)acc + 2 * j;                                                                       \
      const char *p = in + j * cs;                                                                              \
      if (!outer) {                                                                                             \
        NAME##_inner(ad, p, rs, n, idx, ctx);                                                                   \
        continue;                                                                                               \
      }                                                                                                         \
      if (n <= 0) continue;                                                                                     \
      RT ar = (RT)ad[0], ai = (RT)ad[1];                                                                        \
      if (cols->first + j < vec_end) {                                                                          \
        RT vr = ((const RT *)p)[0], vi = ((const RT *)p)[1];                                                    \
        for (int64_t i = 1; i < n; i++) {                                                                       \
          const RT *y = (const RT *)(p + i * rs);                                                               \
          CMUL(RT, vr, vi, y[0], y[1]);                                                                         \
        }                                                                                                       \
        CMUL(RT, vr, vi, ar, ai);                                                                               \
        ar = vr, ai = vi;                                                                                       \
      } else {                                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                                       \
          const RT *y = (const RT *)(p + i * rs);                                                               \
          CMUL_FMA(RT, ar, ai, y[0], y[1]);                                                                     \
        }                                                                                                       \
      }                                                                                                         \
      ad[0] = (double)ar, ad[1] = (double)ai;                                                                   \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    double *ad = acc;                                                                                           \
    RT ar = (RT)ad[0], ai = (RT)ad[1];                                                                          \
    CMUL_FMA(RT, ar, ai, (RT)((const double *)b)[0], (RT)((const double *)b)[1]);                               \
    ad[0] = (double)ar, ad[1] = (double)ai;                                                                     \
  }

#define DEF_SUM_INT(E, T, CT, LD, ST) DEF_INT_LOOPS(sum_##E, T, ADD_I)
#define DEF_PROD_INT(E, T, CT, LD, ST) DEF_INT_LOOPS(prod_##E, T, MUL_I)
/* bool elements as bytes, any nonzero one true: a tensor viewed as bool may hold other bytes than 0 and 1 */
#define ADD_B(a, x) ADD_I(a, (uint8_t)((x) != 0))
DEF_INT_LOOPS(sum_CT_BOOL, uint8_t, ADD_B)
CT_DT_INTEGRAL(DEF_SUM_INT)
CT_DT_INTEGRAL(DEF_PROD_INT)

/* bool products as torch 1.13 computes them: prod_kernel_impl's bool case gives binary_kernel_reduce_vec
   `a && b` as both the scalar and the vector step, and for two Vectorized<bool> that expression converts
   each operand to its data pointer (vec_base.h's operator const T*), so every vector step is all true.
   A contiguous line folds its whole blocks of 4 vectors (4 x 32 elements) into the output as true, that
   is, skips them (vectorized_inner_reduction), and a run of contiguous columns into contiguous outputs
   sets the columns of its whole blocks true (vectorized_outer_reduction); the other elements are
   and-ed. torch's values, not a rounding: reproduced in every build. Only for a bool result: a product
   of bools into int64 (the default) or another dtype is torch's in that dtype, exact, which this kernel
   computes too (the input cast to bool first changes no product of 0s and 1s). The kernel is sequential
   so that a line is never cut where torch's is not. (With more than one thread, torch cuts a single
   output's reduction at its threads' ranges, which moves the blocks; ctorch gives its one-thread values.) */
#define BOOL_VEC_BLOCK 128
static inline bool bool_result(const void *ctx) { return ((const ct_red_ctx *)ctx)->out_dtype[0] == CT_BOOL; }
CT_VINLINE void prod_bool_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx,
                               const void *ctx) {
  (void)idx;
  uint64_t a = *(uint64_t *)acc;
  int64_t k = s == 1 && bool_result(ctx) ? n - n % BOOL_VEC_BLOCK : 0;
  for (; k < n && a; k++) a = in[k * s] != 0;
  *(uint64_t *)acc = a;
}
CT_RED_DEF_INNER(prod_bool, 8)
CT_RED_LOOP void prod_bool_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,
                                 int64_t idx, const ct_red_cols *cols, const void *ctx) {
  (void)idx;
  uint64_t *restrict a = acc;
  bool vec = cols->nr == 1 && cs == 1 && cols->out_unit && bool_result(ctx);
  int64_t vec_end = vec ? cols->total - cols->total % BOOL_VEC_BLOCK : 0;
  for (int64_t j = 0; j < m; j++) {
    if (cols->first + j < vec_end) {
      a[j] = 1;
      continue;
    }
    for (int64_t i = 0; i < n && a[j]; i++) a[j] = in[i * rs + j * cs] != 0;
  }
}

DEF_FLOAT_PROD_LOOPS(prod_CT_FLOAT32, float, 8)
DEF_FLOAT_PROD_LOOPS(prod_CT_FLOAT64, double, 4)
DEF_COMPLEX_PROD(prod_CT_COMPLEX64, float, 4, 0)
DEF_COMPLEX_PROD(prod_CT_COMPLEX128, double, 2, 1)

/* ---- declarations ---- */
#define K_INT(name, init, comb, fin) \
  {8, init, name##_inner, name##_outer, comb, fin, false, false, name##_inner_run, init##_run, fin##_run}
#define K_SUMI(E, T, CT, LD, ST) static const ct_red_kernel sum_k_##E = K_INT(sum_##E, init_zero, combine_add_i, finish_i);
#define K_PRODI(E, T, CT, LD, ST) static const ct_red_kernel prod_k_##E = K_INT(prod_##E, init_one_i, combine_mul_i, finish_i);
CT_DT_BOOL(K_SUMI)
CT_DT_INTEGRAL(K_SUMI)
CT_DT_INTEGRAL(K_PRODI)
static const ct_red_kernel prod_k_CT_BOOL = {8,
                                             init_one_i,
                                             prod_bool_inner,
                                             prod_bool_outer,
                                             combine_mul_i,
                                             finish_i,
                                             true /* sequential */,
                                             true /* torch_loops */,
                                             prod_bool_inner_run,
                                             init_one_i_run,
                                             finish_i_run};

#define K_FSUM(kname, loops, fin) \
  static const ct_red_kernel kname = {8, init_zero, loops##_inner, loops##_outer, loops##_combine, fin};
static const ct_red_kernel prod_k_CT_FLOAT32 = {8, init_one_f, prod_CT_FLOAT32_inner, prod_CT_FLOAT32_outer,
                                                prod_CT_FLOAT32_combine, finish_f, false, true, prod_CT_FLOAT32_inner_run,
                                                init_one_f_run, finish_f_run};
static const ct_red_kernel prod_k_CT_FLOAT64 = {8, init_one_f, prod_CT_FLOAT64_inner, prod_CT_FLOAT64_outer,
                                                prod_CT_FLOAT64_combine, finish_f, false, true, prod_CT_FLOAT64_inner_run,
                                                init_one_f_run, finish_f_run};
static const ct_red_kernel prod_k_CT_COMPLEX64 = {16, init_one_c, prod_CT_COMPLEX64_inner, prod_CT_COMPLEX64_outer, prod_CT_COMPLEX64_combine, finish_c, false, true};
static const ct_red_kernel prod_k_CT_COMPLEX128 = {16, init_one_c, prod_CT_COMPLEX128_inner, prod_CT_COMPLEX128_outer, prod_CT_COMPLEX128_combine, finish_c, false, true};

/* ---- descriptors: the CPU kernels by the kernel's input dtype (the floating and complex sums are the
   cascade's, sum_cascade.c) ---- */
#define ENTRY(E, T, CT, LD, ST) [E] = &sum_k_##E,
#define CASCADE_F(k) \
  [CT_FLOAT16] = &ct__red_k_##k##_f16, [CT_BFLOAT16] = &ct__red_k_##k##_bf16, [CT_FLOAT32] = &ct__red_k_##k##_f32, \
  [CT_FLOAT64] = &ct__red_k_##k##_f64,
#define CASCADE_C(k) [CT_COMPLEX64] = &ct__red_k_##k##_c64, [CT_COMPLEX128] = &ct__red_k_##k##_c128,
static const ct_red_table sum_cpu = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CASCADE_F(sum) CASCADE_C(sum)};
#undef ENTRY
#define ENTRY(E, T, CT, LD, ST) [E] = &prod_k_##E,
static const ct_red_table prod_cpu = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOAT(ENTRY) CT_DT_COMPLEX(ENTRY)};
#undef ENTRY
static const ct_red_table nansum_cpu = {CASCADE_F(nansum)}; /* integer nansums are sums */
static const ct_red_table mean_cpu = {CASCADE_F(mean) CASCADE_C(mean)};
static const ct_red_table nanmean_cpu = {CASCADE_F(nanmean)};

typedef enum { SUM, NANSUM, PROD, MEAN, NANMEAN } sum_kind;
static const ct_op sum_ops[] = {
    [SUM] = {CT_RED_OP("sum", "aten::sum.dim_IntList", &sum_cpu)},
    [NANSUM] = {CT_RED_OP("nansum", "aten::nansum", &nansum_cpu)},
    [PROD] = {CT_RED_OP("prod", "aten::prod", &prod_cpu)},
    [MEAN] = {CT_RED_OP("mean", "aten::mean.dim", &mean_cpu)},
    /* torch's nanmean is nansum(...).div(count): its dispatcher first meets aten::ne on a sparse input, and
       autograd's out= refusal comes from the div_, after nansum's checks (sum_like) */
    [NANMEAN] = {CT_RED_OP("nanmean", "aten::ne.Tensor", &nanmean_cpu), .grad = CT_OP_GRAD_NONE},
};

/* ======== entry points ======== */

static bool is_intlike(ct_dtype d) { return ct__dt(d)->category <= CT_CAT_INT; }

/* The kernel input for a sum-like op computing in `dt` (PyTorch casts the input to dt first): integer
   and bool inputs feed an integer result directly (the int64 accumulator wraps the same way). */
static ct_dtype sum_kernel_dtype(ct_dtype in, ct_dtype dt) {
  if (is_intlike(in) && is_intlike(dt) && dt != CT_BOOL) return in;
  return dt;
}

static const ct_reduce_opts no_opts;

/* nansum's Meta kernel, torch/_meta_registrations.py's meta_nansum under out_wrapper: the dtype is dtype=, else
   the input's when floating or complex, else int64 (no dtype check: complex passes); the dims canonicalized as
   torch/_prims_common's reduction_dims does (ct__prims_reduction_dims); the result
   a new contiguous tensor; an out= gets it by out_wrapper's rule. Empty dims reduce every dim (the C API's one
   form; torch's meta reduces none for dim=[], every one for dim=None). */
static ct_status nansum_meta(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *o, ct_tensor **res) {
  ct_dtype in = (ct_dtype)t->dtype;
  ct_dtype dt = o->dtype ? o->dtype : ct__dt(in)->category >= CT_CAT_FLOAT ? in : CT_INT64;
  int64_t nd = t->ndim, sizes[64];
  uint64_t mask;
  if (nd > 64) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "nansum supports tensors of up to 64 dims");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  if (!ct__prims_reduction_dims(t, o->dims, &mask)) return ct__null_status();
  int64_t n = ct__red_shape(t, mask, o->keepdim, sizes);
  ct_tensor *r = ct__empty(n, sizes, dt, ct__tdevice(t));
  if (!r) return ct_last_error();
  if (!out) {
    *res = ct__own(r);
    return CT_OK;
  }
  ct_status s = ct__out_wrapper_copy(out, r);
  ct_release(r);
  return s;
}

/* nanmean's Meta path, torch 1.13's composite nansum(self, dim, keepdim, dtype).div(count) with count =
   isnan(self).logical_not_().sum(dim, keepdim): sum's checks of the dims (mask, made by the caller), then
   meta_nansum's (which then pass), then div of two contiguous results of the reduced shape: contiguous, of
   true division's dtype (an integer or bool dtype= gives the default float dtype). Empty dims reduce every
   dim, as for nansum_meta. */
static ct_status nanmean_meta(const ct_tensor *t, const ct_reduce_opts *o, uint64_t mask, ct_tensor **res) {
  ct_dtype dt = o->dtype ? o->dtype : (ct_dtype)t->dtype;
  int64_t sizes[64];
  int64_t n = ct__red_shape(t, mask, o->keepdim, sizes);
  ct_tensor *r = ct__empty(n, sizes, is_intlike(dt) ? ct_get_default_dtype() : dt, ct__tdevice(t));
  if (!r) return ct_last_error();
  *res = ct__own(r);
  return *res ? CT_OK : CT_ERR_OUT_OF_MEMORY;
}

/* nanmean's out= form calls at::native::nansum_out, the CPU function, on meta tensors too: after its checks
   and out's resize, torch's nansum kernel has no meta entry (DispatchStub's refusal), unless the input is empty (zero_, then div_'s Meta
   kernel). */
static bool nanmean_meta_refused(const ct_tensor *out, const ct_tensor *t) {
  return out && CT__OP_ON_META(out, t) && t->numel != 0;
}

bool ct__mean_dtype_ok(ct_dtype in, ct_dtype dtype) {
  if (ct__dt(dtype ? dtype : in)->category >= CT_CAT_FLOAT) return true;
  ct__error(CT_ERR_RUNTIME,
            "mean(): could not infer output dtype. %s dtype must be either a floating point or complex "
            "dtype. Got: %s",
            dtype ? "Optional" : "Input", ct__dt(dtype ? dtype : in)->scalar_name);
  return false;
}

static ct_status sum_like(sum_kind kind, ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts,
                          ct_tensor **res) {
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  ct_dtype in = (ct_dtype)t->dtype;
  if (kind == NANSUM && CT__OP_ON_META(out, t)) {
    if (o->dtype && !ct__check_dtype(o->dtype)) return ct__null_status();
    return nansum_meta(out, t, o, res);
  }
  if (o->dtype && !ct__check_dtype(o->dtype)) return ct__null_status();
  ct_red_call c = {.in = t, .keepdim = o->keepdim, .n_out = 1, .out = {out}, .alias_fill = true,
                   .alias_identity = ct_scalar_int(kind == PROD), .no_expanded_out = kind == MEAN || kind == NANMEAN};
  ct_dtype dt;
  switch (kind) {
    case NANSUM:
    case NANMEAN:
      /* PyTorch's order: nansum makes its result (dims) before nansum_out's checks, the out= form checks
         first; nanmean checks the dtype, then counts the non-NaN values (dims) */
      if (kind == NANMEAN && !(ct__dt(in)->category == CT_CAT_FLOAT)) {
        ct__error(CT_ERR_RUNTIME, "nanmean(): expected input to have floating point dtype but got %s",
                  ct__dt(in)->scalar_name);
        return CT_ERR_RUNTIME;
      }
      if (kind == NANMEAN && !ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
      if (kind == NANMEAN && !out && CT__OP_ON_META(t)) return nanmean_meta(t, o, c.mask, res);
      if (kind == NANSUM && !out && !ct__red_mask_1pass(t, o->dims, &c.mask)) return ct__null_status();
      if (kind == NANSUM && ct__dt(in)->category == CT_CAT_COMPLEX) {
        ct__error(CT_ERR_RUNTIME, "nansum does not support complex inputs");
        return CT_ERR_RUNTIME;
      }
      if (kind == NANSUM && is_intlike(in)) return sum_like(SUM, out, t, opts, res);
      dt = o->dtype ? o->dtype : out ? (ct_dtype)out->dtype : in;
      if (out && (ct_dtype)out->dtype != dt) {
        ct__error(CT_ERR_RUNTIME, "nansum: provided dtype must match dtype of result. Got %s and %s.",
                  ct__dt((ct_dtype)out->dtype)->scalar_name, ct__dt(dt)->scalar_name);
        return CT_ERR_RUNTIME;
      }
      if (kind == NANSUM && out && !ct__red_mask_1pass(t, o->dims, &c.mask)) return ct__null_status();
      c.device_rule = kind == NANSUM ? CT_RED_DEV_COPY : CT_RED_DEV_ITER;
      c.kdtype = dt;
      /* autograd's refusal of nanmean's out comes from the div_ after nansum_out (torch 1.13 calls
         at::native::nansum_out, which skips the autograd layer, then result.div_(count)): after nansum's
         checks; torch's message calls a leaf out "a view of a leaf" */
      if (kind == NANMEAN && out && (out->flags & CT_TENSOR_REQUIRES_GRAD) && !nanmean_meta_refused(out, t)) {
        if (!ct__red_check_outs(&c)) return ct_last_error();
        if (!ct__check_inplace_flags(out->flags | CT_TENSOR_GRAD_VIEW_OF_LEAF)) return CT_ERR_RUNTIME;
      }
      break;
    case MEAN:
      if (!ct__mean_dtype_ok(in, o->dtype)) return CT_ERR_RUNTIME;
      if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
      dt = o->dtype ? o->dtype : out ? (ct_dtype)out->dtype : in;
      if (out && o->dtype && !ct__red_check_out_dtype(out, dt)) return CT_ERR_RUNTIME;
      if (is_intlike(dt)) { /* sum_out into out, then div_ by the count: a float can't go back */
        ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                  ct__dt(ct_get_default_dtype())->scalar_name, ct__dt(dt)->scalar_name);
        return CT_ERR_RUNTIME;
      }
      c.kdtype = dt;
      break;
    case PROD:
    case SUM:
    default: {
      if (kind == PROD) {
        bool has_dim;
        int64_t dim;
        if (!ct__red_single_dim("prod", o->dims, &has_dim, &dim)) return ct__null_status();
        if (!has_dim && out) {
          ct__error(CT_ERR_TYPE, "prod(): the out= form needs a dim (PyTorch has no out= form of the whole product)");
          return CT_ERR_TYPE;
        }
      }
      if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
      dt = o->dtype ? o->dtype : out ? (ct_dtype)out->dtype : is_intlike(in) ? CT_INT64 : in;
      if (out && o->dtype && !ct__red_check_out_dtype(out, dt)) return CT_ERR_RUNTIME;
      c.kdtype = sum_kernel_dtype(in, dt);
      break;
    }
  }
  c.out_dtype[0] = dt;
  c.k = ct__red_kernel(&sum_ops[kind], c.kdtype, t, c.out[0]);
  if (kind == NANMEAN && is_intlike(dt) && t->numel == 0) {
    /* nansum gives integer zeros (no kernel runs for nothing), then the true division by the count
       makes floats: a float result, or PyTorch's cast error for an integer out= */
    if (out) {
      /* nansum_out's iterator meets the devices first (an out on another device than the input) */
      if (!ct__red_check_out_devices(&c)) return ct_last_error();
      ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                ct__dt(ct_get_default_dtype())->scalar_name, ct__dt(dt)->scalar_name);
      return CT_ERR_RUNTIME;
    }
    c.out_dtype[0] = ct_get_default_dtype();
    c.fill = true;
    c.fill_value = ct_scalar_double(-(double)NAN); /* 0 / 0 on x86: the NaN with the sign bit set */
    return ct__red_exec(&c, res);
  }
  if (!c.k && t->numel == 0) { /* PyTorch fills the identity before dispatching a kernel */
    c.fill = true;
    c.fill_value = ct_scalar_int(kind == PROD ? 1 : 0);
    if (kind == NANMEAN) /* 0 / 0; a complex 0 / 0 is NaN in both parts */
      c.fill_value = ct__dt(dt)->category == CT_CAT_COMPLEX ? ct_scalar_complex(NAN, NAN) : ct_scalar_double(NAN);
  } else if (!c.k) {
    char kname[32]; /* nanmean runs nansum's kernel */
    snprintf(kname, sizeof kname, "%s_cpu", kind == NANMEAN ? "nansum" : sum_ops[kind].name);
    ct__red_not_implemented(kname, c.kdtype);
    return CT_ERR_RUNTIME;
  }
  c.ctx.count = ct__red_count(t, c.mask);
  ct_status s = ct__red_exec(&c, res);
  if (s == CT_OK && kind == NANMEAN && nanmean_meta_refused(out, t)) {
    ct__error(CT_ERR_RUNTIME, "DispatchStub: unsupported device typemeta");
    return CT_ERR_RUNTIME;
  }
  return s;
}

ct_status ct__sum_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  return sum_like(SUM, out, t, opts, res);
}
ct_status ct__prod_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  return sum_like(PROD, out, t, opts, res);
}

CT_RED_DEFINE_API(sum, &sum_ops[SUM], ct_reduce_opts, sum_like, SUM, )
CT_RED_DEFINE_API(nansum, &sum_ops[NANSUM], ct_reduce_opts, sum_like, NANSUM, )
CT_RED_DEFINE_API(prod, &sum_ops[PROD], ct_reduce_opts, sum_like, PROD, )
CT_RED_DEFINE_API(mean, &sum_ops[MEAN], ct_reduce_opts, sum_like, MEAN, )
CT_RED_DEFINE_API(nanmean, &sum_ops[NANMEAN], ct_reduce_opts, sum_like, NANMEAN, )

/* ---- sum of squares for torch.norm('fro') over two dims: sqrt(sum(x * x)) with x * x rounded to the
   input dtype (complex: real(conj(x) * x)), the sum rounding as sum's, then sqrt in the dtype ---- */
#define SQ_F32(v) ((double)((float)(v) * (float)(v)))
#define SQ_F64(v) ((v) * (v))
#define SQ_BF16(v) tot_bf16((double)((float)(v) * (float)(v)))
DEF_RUN_SUM(sq_f32, float, CT_LD_ID, SQ_F32)
DEF_RUN_SUM(sq_f64, double, CT_LD_ID, SQ_F64)
DEF_RUN_SUM(sq_bf16, uint16_t, CT_LD_BF16, SQ_BF16)
DEF_FLOAT_SUM_LOOPS(sumsq_CT_FLOAT32, float, CT_LD_ID, SQ_F32, sq_f32_run, SEG_F, tot_f32)
DEF_FLOAT_SUM_LOOPS(sumsq_CT_FLOAT64, double, CT_LD_ID, SQ_F64, sq_f64_run, SEG_D, tot_f64)
DEF_FLOAT_SUM_LOOPS(sumsq_CT_BFLOAT16, uint16_t, CT_LD_BF16, SQ_BF16, sq_bf16_run, SEG_B, tot_bf16)
#define DEF_CSUMSQ(NAME, RT, TOTR)                                                                              \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    double sum = 0;                                                                                             \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      const RT *x = (const RT *)(in + k * s);                                                                   \
      sum += (double)(RT)(x[0] * x[0] + x[1] * x[1]);                                                           \
    }                                                                                                           \
    *(double *)acc = TOTR(*(double *)acc + TOTR(sum));                                                          \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    *(double *)acc = TOTR(*(double *)acc + *(const double *)b);                                                 \
  }
DEF_CSUMSQ(sumsq_CT_COMPLEX64, float, tot_f32)
DEF_CSUMSQ(sumsq_CT_COMPLEX128, double, tot_f64)

static void finish_sqrt(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  double v = *(const double *)acc;
  v = c->out_dtype[0] == CT_FLOAT64 ? sqrt(v) : (double)sqrtf((float)v);
  ct__red_store_f64(out[0], c->out_dtype[0], v);
}
K_FSUM(sumsq_k_CT_FLOAT32, sumsq_CT_FLOAT32, finish_sqrt)
K_FSUM(sumsq_k_CT_FLOAT64, sumsq_CT_FLOAT64, finish_sqrt)
K_FSUM(sumsq_k_CT_BFLOAT16, sumsq_CT_BFLOAT16, finish_sqrt)
static const ct_red_kernel sumsq_k_CT_COMPLEX64 = {8, init_zero, sumsq_CT_COMPLEX64_inner, NULL, sumsq_CT_COMPLEX64_combine, finish_sqrt};
static const ct_red_kernel sumsq_k_CT_COMPLEX128 = {8, init_zero, sumsq_CT_COMPLEX128_inner, NULL, sumsq_CT_COMPLEX128_combine, finish_sqrt};

const ct_red_kernel *ct__red_sqrt_sumsq_kernel(ct_dtype dt) {
  switch (dt) {
    case CT_FLOAT32: return &sumsq_k_CT_FLOAT32;
    case CT_FLOAT64: return &sumsq_k_CT_FLOAT64;
    case CT_BFLOAT16: return &sumsq_k_CT_BFLOAT16;
    case CT_COMPLEX64: return &sumsq_k_CT_COMPLEX64;
    case CT_COMPLEX128: return &sumsq_k_CT_COMPLEX128;
    default: return NULL;
  }
}
