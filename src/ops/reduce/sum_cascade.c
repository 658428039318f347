/* float32, float64, complex64, complex128, float16 and bfloat16 sums (sum, nansum, mean, nanmean) with
   PyTorch's cascade summation (cascade.h) and its loop structure: a contiguous reduced line is summed by
   vectorized_inner_sum, a strided one by row_sum, columns of an outer reduction by multi_row_sum (the
   leading blocks of 4 vectors) or row_sum (the rest), and each line's sum is added to the output in the
   output's type, in line order (CastStoreAccumulate). float16 and bfloat16 sum in float (acc_type):
   the values are converted as they are loaded and the float cascade runs on them. With the reduction
   in one chunk (up to CT_RED_CHUNK elements per output) the results are PyTorch's at one thread, bit for
   bit. */
#include "ops/reduce/red.h"

#define CT_CASCADE_T float
#define CT_CASCADE_W 8
#define CT_CASCADE_NAME cf
#include "ops/reduce/cascade.h"
#undef CT_CASCADE_T
#undef CT_CASCADE_W
#undef CT_CASCADE_NAME

#define CT_CASCADE_T double
#define CT_CASCADE_W 4
#define CT_CASCADE_NAME cd
#include "ops/reduce/cascade.h"
#undef CT_CASCADE_T
#undef CT_CASCADE_W
#undef CT_CASCADE_NAME

/* float16 and bfloat16: converted to float as loaded, summed in float. PyTorch's vector of 16 float16
   values folds neighbours, its vector of 16 bfloat16 values its two halves (cascade.h). The vector
   conversions read a value's bits from the low 16 bits of each 32-bit lane; half8_to_float is
   ct__half_to_float (core/half.h) lane by lane, the same operations, so the same bits. */
typedef uint32_t v8u __attribute__((vector_size(32)));
CT_VINLINE ct_v8f half8_to_float(v8u u) {
  const v8u w = u << 16, sign = w & UINT32_C(0x80000000), two_w = w + w;
  const ct_v8f normalized = (ct_v8f)((two_w >> 4) + (UINT32_C(0xE0) << 23)) * 0x1.0p-112f;
  const ct_v8f denormalized = (ct_v8f)((two_w >> 17) | (UINT32_C(126) << 23)) - 0.5f;
  const v8u denorm = (v8u)(two_w < (UINT32_C(1) << 27));
  return (ct_v8f)(sign | (denorm & (v8u)denormalized) | (~denorm & (v8u)normalized));
}
CT_VINLINE ct_v8f bf16x8_to_float(v8u u) { return (ct_v8f)(u << 16); }

#define CT_CASCADE_T float
#define CT_CASCADE_W 8
#define CT_CASCADE_S uint16_t
#define CT_CASCADE_CVT ct__half_to_float
#define CT_CASCADE_VCVT half8_to_float
#define CT_CASCADE_FOLD CT_FOLD_PAIRS
#define CT_CASCADE_NAME ch
#include "ops/reduce/cascade.h"
#undef CT_CASCADE_CVT
#undef CT_CASCADE_VCVT
#undef CT_CASCADE_FOLD
#undef CT_CASCADE_NAME

#define CT_CASCADE_CVT ct__bfloat16_to_float
#define CT_CASCADE_VCVT bf16x8_to_float
#define CT_CASCADE_FOLD CT_FOLD_HALVES
#define CT_CASCADE_NAME cb
#include "ops/reduce/cascade.h"
#undef CT_CASCADE_T
#undef CT_CASCADE_W
#undef CT_CASCADE_S
#undef CT_CASCADE_CVT
#undef CT_CASCADE_VCVT
#undef CT_CASCADE_FOLD
#undef CT_CASCADE_NAME

/* CastStoreAccumulate: the output (the accumulator holds its value) += a line's sum, in the output's
   type. c10::Half and c10::BFloat16 have no += float: the float sum is converted to the type first, the
   two are added in float and the result is rounded again. */
#define ADD_F32(a, v) ((double)((float)(a) + (v)))
#define ADD_F64(a, v) ((a) + (v))
static inline double add_f16(double a, float v) {
  return (double)ct__half_to_float(ct__float_to_half((float)a + ct__half_to_float(ct__float_to_half(v))));
}
static inline double add_bf16(double a, float v) {
  return (double)ct__bfloat16_to_float(
      ct__float_to_bfloat16((float)a + ct__bfloat16_to_float(ct__float_to_bfloat16(v))));
}

/* line sums a vertical call keeps per pass, on the stack (32 KiB): whole rows of up to 4096 float or
   double columns, so that a tile of rows is one contiguous read */
#define LINES_BYTES 32768

typedef struct nm_acc {
  double sum;
  int64_t count;
} nm_acc;

/* NAME: kernel prefix; P cascade prefix (its P##_t sums values stored as P##_s); C components; NANZ NaN as
   zero; ADD the output's += of a line sum. */
#define DEF_CASCADE_SUM(NAME, P, C, NANZ, ADD)                                                                 \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    P##_t line[2];                                                                                              \
    P##_line(line, in, s, n, C, NANZ);                                                                          \
    double *a = acc;                                                                                            \
    for (int c = 0; c < C; c++) a[c] = ADD(a[c], line[c]);                                                     \
  }                                                                                                             \
  static void NAME##_inner_run(void *acc, const char *in, int64_t cs, int64_t m, int64_t s, int64_t n,        \
                               const void *ctx) {                                                               \
    (void)ctx;                                                                                                  \
    double *a = acc;                                                                                            \
    for (int64_t j = 0; j < m; j++) {                                                                           \
      P##_t line[2];                                                                                            \
      P##_line(line, in + j * cs, s, n, C, NANZ);                                                               \
      for (int c = 0; c < C; c++) a[j * C + c] = ADD(a[j * C + c], line[c]);                                   \
    }                                                                                                           \
  }                                                                                                             \
  /* the line sums of m columns, PyTorch's way for their place in the row */                                   \
  static void NAME##_lines(P##_t *out, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,           \
                           const ct_red_cols *cols, int64_t first) {                                            \
    const int64_t es = C * (int64_t)sizeof(P##_s);                                                              \
    /* vectorized_outer_sum takes rows of at least Vectorized<S>::size() columns, 4 vectors of the        \
       accumulator type at a time into multi_row_sum */                                                       \
    const int64_t vec = P##_item / C, block = 4 * P##_lanes / C;                                                \
    bool contig = cs == es;                                                                                     \
    int64_t multi_end = 0; /* columns before this index take multi_row_sum */                                  \
    if (cols->nr == 1 && rs != es)                                                                              \
      multi_end = contig && cols->total >= vec ? cols->total / block * block : cols->total / 4 * 4;             \
    int64_t j = 0;                                                                                              \
    while (j < m) {                                                                                             \
      int64_t col = first + j;                                                                                  \
      bool multi = col < multi_end;                                                                             \
      int64_t len = multi ? (multi_end - col < m - j ? multi_end - col : m - j) : m - j;                        \
      if (multi && !contig && C == 1 && rs != es) { /* scalar_outer_sum's columns, many per pass */           \
        P##_mrs(out + j, in + j * cs, rs, 0, 1, n, len, cs, NANZ);                                              \
      } else if (rs == es || !contig) { /* per column: a contiguous (vectorized) line, or scattered columns */  \
        for (int64_t q = 0; q < len; q++) {                                                                     \
          const char *p = in + (j + q) * cs;                                                                    \
          if (multi)                                                                                            \
            P##_mrs(out + (j + q) * C, p, rs, 0, 1, n, C, (int64_t)sizeof(P##_s), NANZ);                        \
          else                                                                                                  \
            P##_line(out + (j + q) * C, p, rs, n, C, NANZ);                                                     \
        }                                                                                                       \
      } else {                                                                                                  \
        P##_cols(out + j * C, in + j * cs, rs, n, len, C, multi, NANZ);                                         \
      }                                                                                                         \
      j += len;                                                                                                 \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,             \
                           int64_t idx, const ct_red_cols *cols, const void *ctx) {                             \
    (void)idx, (void)ctx;                                                                                       \
    enum { PASS = LINES_BYTES / (C * sizeof(P##_t)) };                                                          \
    P##_t lines[PASS * C];                                                                                      \
    double *a = acc;                                                                                            \
    for (int64_t j0 = 0; j0 < m; j0 += PASS) {                                                                  \
      int64_t mm = m - j0 < PASS ? m - j0 : PASS;                                                               \
      NAME##_lines(lines, in + j0 * cs, cs, mm, rs, n, cols, cols->first + j0);                                 \
      for (int64_t j = 0; j < mm * C; j++) a[j0 * C + j] = ADD(a[j0 * C + j], lines[j]);                        \
    }                                                                                                           \
  }                                                                                                             \
  /* a later chunk's output value: an exact value of the output type */                                        \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    double *a = acc;                                                                                            \
    for (int c = 0; c < C; c++) a[c] = ADD(a[c], (P##_t)((const double *)b)[c]);                                \
  }

DEF_CASCADE_SUM(sum_f32, cf, 1, 0, ADD_F32)
DEF_CASCADE_SUM(sum_f64, cd, 1, 0, ADD_F64)
DEF_CASCADE_SUM(sum_c64, cf, 2, 0, ADD_F32)
DEF_CASCADE_SUM(sum_c128, cd, 2, 0, ADD_F64)
DEF_CASCADE_SUM(sum_f16, ch, 1, 0, add_f16)
DEF_CASCADE_SUM(sum_bf16, cb, 1, 0, add_bf16)
DEF_CASCADE_SUM(nansum_f32, cf, 1, 1, ADD_F32)
DEF_CASCADE_SUM(nansum_f64, cd, 1, 1, ADD_F64)
DEF_CASCADE_SUM(nansum_f16, ch, 1, 1, add_f16)
DEF_CASCADE_SUM(nansum_bf16, cb, 1, 1, add_bf16)

/* nanmean: nansum's cascade plus the count of the non-NaN values */
#define DEF_CASCADE_NANMEAN(NAME, P, SUM)                                                                      \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    nm_acc *a = acc;                                                                                            \
    SUM##_inner(&a->sum, in, s, n, idx, ctx);                                                                   \
    int64_t c = 0;                                                                                              \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      P##_t v = P##_ld(in + k * s, 0);                                                                          \
      c += v == v;                                                                                              \
    }                                                                                                           \
    a->count += c;                                                                                              \
  }                                                                                                             \
  CT_RED_DEF_RUN(NAME##_inner_run, sizeof(nm_acc), NAME##_inner)                                                \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    nm_acc *a = acc;                                                                                            \
    const nm_acc *o = b;                                                                                        \
    SUM##_combine(&a->sum, &o->sum, ctx);                                                                       \
    a->count += o->count;                                                                                       \
  }
DEF_CASCADE_NANMEAN(nanmean_f32, cf, nansum_f32)
DEF_CASCADE_NANMEAN(nanmean_f64, cd, nansum_f64)
DEF_CASCADE_NANMEAN(nanmean_f16, ch, nansum_f16)
DEF_CASCADE_NANMEAN(nanmean_bf16, cb, nansum_bf16)

static void init_zero8(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, 8);
}
static void init_zero16(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, 16);
}

static void finish_real(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_f64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], *(const double *)acc);
}
static void finish_complex(char *const *out, const void *acc, const void *ctx) {
  const double *a = acc;
  ct__red_store_c128(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], a[0], a[1]);
}
/* mean = the sum in the result's type divided by the count, a scalar of that type too (PyTorch's
   sum_out(...).div_(n); float16/bfloat16 divide in float, and 70000 is inf as a float16). A case per floating
   row of the dtype list: it runs once per output value. */
#define DIV_CASE(A, S, T, K, LOAD, STORE, ...) DIV_##K(S, T, LOAD, STORE)
#define DIV_BOOL(S, T, LOAD, STORE)
#define DIV_INT(S, T, LOAD, STORE)
#define DIV_HALF(S, T, LOAD, STORE)                    \
  case CT_##S: {                                       \
    return (double)((float)s / LOAD(STORE((float)n))); \
  }
#define DIV_FLOAT(S, T, LOAD, STORE) \
  case CT_##S: {                     \
    return (double)((T)s / (T)n);    \
  }
#define DIV_COMPLEX(S, T, LOAD, STORE)
static double div_count(double s, ct_dtype dt, int64_t n) {
  switch (dt) {
    CT_DTYPE_LIST(DIV_CASE, ~)
    default: return s / (double)n;
  }
}
static void finish_mean_real(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  ct__red_store_f64(out[0], c->out_dtype[0], div_count(*(const double *)acc, c->out_dtype[0], c->count));
}
/* sum / complex(n, 0) as torch 1.13's c10::complex division computes it (its vectorized form is the
   same operations): (a c + b d) / (c c + d d) and (b c - a d) / (c c + d d), the products of d = 0
   adding a signed zero (NaN for an infinite part); c c rounds in the type beyond 2^12 (float) */
#define CDIV_N_1_13(RT, a, b, n, re, im)                                                                        \
  do {                                                                                                          \
    RT c_ = (RT)(n), d_ = 0, den_ = c_ * c_ + d_ * d_;                                                          \
    RT ac_ = (RT)(a) * c_, bd_ = (RT)(b) * d_, bc_ = (RT)(b) * c_, ad_ = (RT)(a) * d_;                           \
    re = (ac_ + bd_) / den_;                                                                                    \
    im = (bc_ - ad_) / den_;                                                                                    \
  } while (0)
static void finish_mean_complex(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const double *a = acc;
  double re, im;
  if (c->out_dtype[0] == CT_COMPLEX64) {
    float r, i;
    CDIV_N_1_13(float, (float)a[0], (float)a[1], c->count, r, i);
    re = r, im = i;
  } else {
    CDIV_N_1_13(double, a[0], a[1], c->count, re, im);
  }
  ct__red_store_c128(out[0], c->out_dtype[0], re, im);
}
/* nanmean = nansum / the count of non-NaN values (a tensor cast to the result's type: as for mean) */
static void finish_nanmean(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const nm_acc *a = acc;
  ct__red_store_f64(out[0], c->out_dtype[0], div_count(a->sum, c->out_dtype[0], a->count));
}

static void init_zero8_run(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {
  (void)aux, (void)as, (void)ctx;
  memset(acc, 0, (size_t)m * 8);
}
static void init_zero16_run(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {
  (void)aux, (void)as, (void)ctx;
  memset(acc, 0, (size_t)m * 16);
}
static void finish_real_run(char *const *out, const int64_t *os, const void *acc, int64_t m, const void *ctx) {
  ct__red_store_f64_run(out[0], os[0], ((const ct_red_ctx *)ctx)->out_dtype[0], acc, 1, m);
}
CT_RED_DEF_FINISH_RUN(finish_complex_run, 16, 1, finish_complex)
CT_RED_DEF_FINISH_RUN(finish_mean_real_run, 8, 1, finish_mean_real)
CT_RED_DEF_FINISH_RUN(finish_mean_complex_run, 16, 1, finish_mean_complex)
CT_RED_DEF_FINISH_RUN(finish_nanmean_run, 16, 1, finish_nanmean)

/* nanmean's vertical calls: per column as the inner loop does (counts are exact, the sums go through the
   cascade of the columns' lines) */
#define DEF_NANMEAN_OUTER(NAME, P, SUM, ADD)                                                                   \
  static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,             \
                           int64_t idx, const ct_red_cols *cols, const void *ctx) {                             \
    nm_acc *a = acc;                                                                                            \
    enum { PASS = LINES_BYTES / sizeof(P##_t) };                                                                \
    P##_t lines[PASS];                                                                                          \
    for (int64_t j0 = 0; j0 < m; j0 += PASS) {                                                                  \
      int64_t mm = m - j0 < PASS ? m - j0 : PASS;                                                               \
      SUM##_lines(lines, in + j0 * cs, cs, mm, rs, n, cols, cols->first + j0);                                  \
      for (int64_t j = 0; j < mm; j++) {                                                                        \
        nm_acc *aj = a + j0 + j;                                                                                \
        aj->sum = ADD(aj->sum, lines[j]);                                                                       \
        int64_t c = 0;                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                                       \
          P##_t v = P##_ld(in + (j0 + j) * cs + i * rs, 0);                                                     \
          c += v == v;                                                                                          \
        }                                                                                                       \
        aj->count += c;                                                                                         \
      }                                                                                                         \
    }                                                                                                           \
    (void)idx, (void)ctx;                                                                                       \
  }
DEF_NANMEAN_OUTER(nanmean_f32, cf, nansum_f32, ADD_F32)
DEF_NANMEAN_OUTER(nanmean_f64, cd, nansum_f64, ADD_F64)
DEF_NANMEAN_OUTER(nanmean_f16, ch, nansum_f16, add_f16)
DEF_NANMEAN_OUTER(nanmean_bf16, cb, nansum_bf16, add_bf16)

#define K(name, size, init, loops, fin)                                                                        \
  const ct_red_kernel ct__red_##name = {size, init, loops##_inner, loops##_outer, loops##_combine, fin, false, true, \
                                     loops##_inner_run, init##_run, fin##_run};
#define K_NM(name, loops) K(name, 16, init_zero16, loops, finish_nanmean)
K(k_sum_f32, 8, init_zero8, sum_f32, finish_real)
K(k_sum_f64, 8, init_zero8, sum_f64, finish_real)
K(k_sum_c64, 16, init_zero16, sum_c64, finish_complex)
K(k_sum_c128, 16, init_zero16, sum_c128, finish_complex)
K(k_sum_f16, 8, init_zero8, sum_f16, finish_real)
K(k_sum_bf16, 8, init_zero8, sum_bf16, finish_real)
K(k_nansum_f32, 8, init_zero8, nansum_f32, finish_real)
K(k_nansum_f64, 8, init_zero8, nansum_f64, finish_real)
K(k_nansum_f16, 8, init_zero8, nansum_f16, finish_real)
K(k_nansum_bf16, 8, init_zero8, nansum_bf16, finish_real)
K(k_mean_f32, 8, init_zero8, sum_f32, finish_mean_real)
K(k_mean_f64, 8, init_zero8, sum_f64, finish_mean_real)
K(k_mean_c64, 16, init_zero16, sum_c64, finish_mean_complex)
K(k_mean_c128, 16, init_zero16, sum_c128, finish_mean_complex)
K(k_mean_f16, 8, init_zero8, sum_f16, finish_mean_real)
K(k_mean_bf16, 8, init_zero8, sum_bf16, finish_mean_real)
K_NM(k_nanmean_f32, nanmean_f32)
K_NM(k_nanmean_f64, nanmean_f64)
K_NM(k_nanmean_f16, nanmean_f16)
K_NM(k_nanmean_bf16, nanmean_bf16)

static const ct_red_table cascade_kernels[] = {
    [CT_RED_SUM] = {[CT_FLOAT16] = &ct__red_k_sum_f16, [CT_BFLOAT16] = &ct__red_k_sum_bf16, [CT_FLOAT32] = &ct__red_k_sum_f32,
                    [CT_FLOAT64] = &ct__red_k_sum_f64, [CT_COMPLEX64] = &ct__red_k_sum_c64, [CT_COMPLEX128] = &ct__red_k_sum_c128},
    [CT_RED_NANSUM] = {[CT_FLOAT16] = &ct__red_k_nansum_f16, [CT_BFLOAT16] = &ct__red_k_nansum_bf16, [CT_FLOAT32] = &ct__red_k_nansum_f32,
                       [CT_FLOAT64] = &ct__red_k_nansum_f64},
    [CT_RED_MEAN] = {[CT_FLOAT16] = &ct__red_k_mean_f16, [CT_BFLOAT16] = &ct__red_k_mean_bf16, [CT_FLOAT32] = &ct__red_k_mean_f32,
                     [CT_FLOAT64] = &ct__red_k_mean_f64, [CT_COMPLEX64] = &ct__red_k_mean_c64, [CT_COMPLEX128] = &ct__red_k_mean_c128},
    [CT_RED_NANMEAN] = {[CT_FLOAT16] = &ct__red_k_nanmean_f16, [CT_BFLOAT16] = &ct__red_k_nanmean_bf16, [CT_FLOAT32] = &ct__red_k_nanmean_f32,
                        [CT_FLOAT64] = &ct__red_k_nanmean_f64},
};

const ct_red_kernel *ct__red_cascade_kernel(ct_red_sum_kind kind, ct_dtype dt) { return cascade_kernels[kind][dt]; }

/* The cascade sum of one contiguous line, as sum computes a line's contribution (logsumexp's fused path
   sums its exponentials with it). */
float ct__red_cascade_line_f32(const float *x, int64_t n) {
  float r;
  cf_line(&r, (const char *)x, 4, n, 1, 0);
  return r;
}
double ct__red_cascade_line_f64(const double *x, int64_t n) {
  double r;
  cd_line(&r, (const char *)x, 8, n, 1, 0);
  return r;
}
