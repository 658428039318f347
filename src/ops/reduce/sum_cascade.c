/* float32, float64, complex64 and complex128 sums (sum, nansum, mean, nanmean) with PyTorch's cascade
   summation (cascade.h) and its loop structure: a contiguous reduced line is summed by
   vectorized_inner_sum, a strided one by row_sum, columns of an outer reduction by multi_row_sum (the
   leading blocks of 4 vectors) or row_sum (the rest), and each line's sum is added to the output in the
   output's type, in line order (CastStoreAccumulate). With the reduction in one chunk (up to
   CT_RED_CHUNK elements per output) the results are PyTorch's at one thread, bit for bit. */
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

/* line sums a vertical call keeps per pass, on the stack (32 KiB): whole rows of up to 4096 float or
   double columns, so that a tile of rows is one contiguous read */
#define LINES_BYTES 32768

typedef struct nm_acc {
  double sum;
  int64_t count;
} nm_acc;

/* NAME: kernel prefix; T component type; P cascade prefix; C components; NANZ NaN as zero; W lanes. */
#define DEF_CASCADE_SUM(NAME, T, P, C, NANZ, W)                                                                \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    T line[2];                                                                                                  \
    P##_line(line, in, s, n, C, NANZ);                                                                          \
    double *a = acc;                                                                                            \
    for (int c = 0; c < C; c++) a[c] = (double)((T)a[c] + line[c]);                                            \
  }                                                                                                             \
  /* the line sums of m columns, PyTorch's way for their place in the row */                                   \
  static void NAME##_lines(T *out, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,               \
                           const ct_red_cols *cols, int64_t first) {                                            \
    const int64_t ts = (int64_t)sizeof(T), per = W / C;                                                         \
    bool contig = cs == C * ts;                                                                                 \
    int64_t multi_end = 0; /* columns before this index take multi_row_sum */                                  \
    if (cols->nr == 1 && rs != C * ts)                                                                          \
      multi_end = contig && cols->total >= per ? cols->total / (4 * per) * (4 * per) : cols->total / 4 * 4;     \
    int64_t j = 0;                                                                                              \
    while (j < m) {                                                                                             \
      int64_t col = first + j;                                                                                  \
      bool multi = col < multi_end;                                                                             \
      int64_t len = multi ? (multi_end - col < m - j ? multi_end - col : m - j) : m - j;                        \
      if (rs == C * ts || !contig) { /* per column: a contiguous (vectorized) line, or scattered columns */     \
        for (int64_t q = 0; q < len; q++) {                                                                     \
          const char *p = in + (j + q) * cs;                                                                    \
          if (multi)                                                                                            \
            P##_mrs(out + (j + q) * C, p, rs, 0, 1, n, C, NANZ);                                                \
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
    enum { PASS = LINES_BYTES / (C * sizeof(T)) };                                                              \
    T lines[PASS * C];                                                                                          \
    double *a = acc;                                                                                            \
    for (int64_t j0 = 0; j0 < m; j0 += PASS) {                                                                  \
      int64_t mm = m - j0 < PASS ? m - j0 : PASS;                                                               \
      NAME##_lines(lines, in + j0 * cs, cs, mm, rs, n, cols, cols->first + j0);                                 \
      for (int64_t j = 0; j < mm * C; j++) a[j0 * C + j] = (double)((T)a[j0 * C + j] + lines[j]);               \
    }                                                                                                           \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    (void)ctx;                                                                                                  \
    double *a = acc;                                                                                            \
    for (int c = 0; c < C; c++) a[c] = (double)((T)a[c] + (T)((const double *)b)[c]);                           \
  }

DEF_CASCADE_SUM(sum_f32, float, cf, 1, 0, 8)
DEF_CASCADE_SUM(sum_f64, double, cd, 1, 0, 4)
DEF_CASCADE_SUM(sum_c64, float, cf, 2, 0, 8)
DEF_CASCADE_SUM(sum_c128, double, cd, 2, 0, 4)
DEF_CASCADE_SUM(nansum_f32, float, cf, 1, 1, 8)
DEF_CASCADE_SUM(nansum_f64, double, cd, 1, 1, 4)

/* nanmean: nansum's cascade plus the count of the non-NaN values */
#define DEF_CASCADE_NANMEAN(NAME, T, SUM)                                                                      \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    nm_acc *a = acc;                                                                                            \
    SUM##_inner(&a->sum, in, s, n, idx, ctx);                                                                   \
    int64_t c = 0;                                                                                              \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      T v = *(const T *)(in + k * s);                                                                           \
      c += v == v;                                                                                              \
    }                                                                                                           \
    a->count += c;                                                                                              \
  }                                                                                                             \
  static void NAME##_combine(void *acc, const void *b, const void *ctx) {                                       \
    nm_acc *a = acc;                                                                                            \
    const nm_acc *o = b;                                                                                        \
    SUM##_combine(&a->sum, &o->sum, ctx);                                                                       \
    a->count += o->count;                                                                                       \
  }
DEF_CASCADE_NANMEAN(nanmean_f32, float, nansum_f32)
DEF_CASCADE_NANMEAN(nanmean_f64, double, nansum_f64)

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
/* mean: sum / n in the result's type (the count a scalar of that type) */
static void finish_mean_real(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  double s = *(const double *)acc;
  double v = c->out_dtype[0] == CT_FLOAT32 ? (double)((float)s / (float)c->count) : s / (double)c->count;
  ct__red_store_f64(out[0], c->out_dtype[0], v);
}
void ct__red_finish_mean_complex(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const double *a = acc;
  double re, im;
  ct__red_complex_div_n(a[0], a[1], c->count, c->out_dtype[0] == CT_COMPLEX64, &re, &im);
  ct__red_store_c128(out[0], c->out_dtype[0], re, im);
}
static void finish_nanmean(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const nm_acc *a = acc;
  double v = c->out_dtype[0] == CT_FLOAT32 ? (double)((float)a->sum / (float)a->count) : a->sum / (double)a->count;
  ct__red_store_f64(out[0], c->out_dtype[0], v);
}

/* nanmean's vertical calls: per column as the inner loop does (counts are exact, the sums go through the
   cascade of the columns' lines) */
#define DEF_NANMEAN_OUTER(NAME, T, SUM)                                                                        \
  static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,             \
                           int64_t idx, const ct_red_cols *cols, const void *ctx) {                             \
    nm_acc *a = acc;                                                                                            \
    enum { PASS = LINES_BYTES / sizeof(T) };                                                                    \
    T lines[PASS];                                                                                              \
    for (int64_t j0 = 0; j0 < m; j0 += PASS) {                                                                  \
      int64_t mm = m - j0 < PASS ? m - j0 : PASS;                                                               \
      SUM##_lines(lines, in + j0 * cs, cs, mm, rs, n, cols, cols->first + j0);                                  \
      for (int64_t j = 0; j < mm; j++) {                                                                        \
        nm_acc *aj = a + j0 + j;                                                                                \
        aj->sum = (double)((T)aj->sum + lines[j]);                                                              \
        int64_t c = 0;                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                                       \
          T v = *(const T *)(in + (j0 + j) * cs + i * rs);                                                      \
          c += v == v;                                                                                          \
        }                                                                                                       \
        aj->count += c;                                                                                         \
      }                                                                                                         \
    }                                                                                                           \
    (void)idx, (void)ctx;                                                                                       \
  }
DEF_NANMEAN_OUTER(nanmean_f32, float, nansum_f32)
DEF_NANMEAN_OUTER(nanmean_f64, double, nansum_f64)

#define K(name, size, init, loops, fin) static const ct_red_kernel name = {size, init, loops##_inner, loops##_outer, loops##_combine, fin};
K(k_sum_f32, 8, init_zero8, sum_f32, finish_real)
K(k_sum_f64, 8, init_zero8, sum_f64, finish_real)
K(k_sum_c64, 16, init_zero16, sum_c64, finish_complex)
K(k_sum_c128, 16, init_zero16, sum_c128, finish_complex)
K(k_nansum_f32, 8, init_zero8, nansum_f32, finish_real)
K(k_nansum_f64, 8, init_zero8, nansum_f64, finish_real)
K(k_mean_f32, 8, init_zero8, sum_f32, finish_mean_real)
K(k_mean_f64, 8, init_zero8, sum_f64, finish_mean_real)
K(k_mean_c64, 16, init_zero16, sum_c64, ct__red_finish_mean_complex)
K(k_mean_c128, 16, init_zero16, sum_c128, ct__red_finish_mean_complex)
K(k_nanmean_f32, 16, init_zero16, nanmean_f32, finish_nanmean)
K(k_nanmean_f64, 16, init_zero16, nanmean_f64, finish_nanmean)

const ct_red_kernel *ct__red_cascade_kernel(ct_red_sum_kind kind, ct_dtype dt) {
  switch (kind) {
    case CT_RED_SUM:
      return dt == CT_FLOAT32 ? &k_sum_f32 : dt == CT_FLOAT64 ? &k_sum_f64 : dt == CT_COMPLEX64 ? &k_sum_c64
                                                                           : dt == CT_COMPLEX128 ? &k_sum_c128 : NULL;
    case CT_RED_NANSUM: return dt == CT_FLOAT32 ? &k_nansum_f32 : dt == CT_FLOAT64 ? &k_nansum_f64 : NULL;
    case CT_RED_MEAN:
      return dt == CT_FLOAT32 ? &k_mean_f32 : dt == CT_FLOAT64 ? &k_mean_f64 : dt == CT_COMPLEX64 ? &k_mean_c64
                                                                            : dt == CT_COMPLEX128 ? &k_mean_c128 : NULL;
    case CT_RED_NANMEAN: return dt == CT_FLOAT32 ? &k_nanmean_f32 : dt == CT_FLOAT64 ? &k_nanmean_f64 : NULL;
  }
  return NULL;
}
