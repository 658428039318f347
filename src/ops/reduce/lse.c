/* logsumexp: log(sum(exp(x - m))) + m with m the maximum (0 when it is infinite), as PyTorch's
   amax / exp / sum / log / add sequence, fused: each run of the input is read twice while it is in
   cache (its maximum, then the exponentials, SLEEF's vectorized expf for float32), and runs with
   different maxima combine by rescaling. A bfloat16 input takes PyTorch's op sequence unfused
   (lse_bf16), which rounds at every step. */
#include "ops/reduce/red.h"

#if defined(__x86_64__) && defined(__GNUC__)
#if defined(__clang__)
#include "kernels/cpu/sleef_clang.h" /* clang ignores #pragma GCC target */
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include <immintrin.h>
#include <sleef.h>
#pragma GCC pop_options
#endif
#define LSE_AVX2 1
#else
#include <sleef.h>
#define LSE_AVX2 0
#endif

typedef struct lse_acc {
  double shift; /* the maximum the sum is relative to (0 for infinite maxima) */
  double sum;
} lse_acc;

/* acc <- acc + sum * exp(shift) */
static void lse_merge(lse_acc *a, double shift, double sum) {
  if (sum == 0 && shift == shift) return;
  if (a->sum == 0 && a->shift == 0) {
    a->shift = shift, a->sum = sum;
    return;
  }
  if (a->shift != a->shift || shift != shift) { /* NaN */
    a->shift = NAN, a->sum = NAN;
    return;
  }
  if (a->sum == INFINITY || sum == INFINITY) { /* an infinite term: the sum is infinite */
    a->shift = 0, a->sum = INFINITY;
    return;
  }
  double m = a->shift > shift ? a->shift : shift;
  a->sum = a->sum * exp(a->shift - m) + sum * exp(shift - m);
  a->shift = m;
}

static inline double mask_inf(double m) { return m == INFINITY || m == -INFINITY ? 0.0 : m; }

/* ---- float32 ---- */
#if LSE_AVX2
static bool have_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

/* sum of expf(x - m) over n contiguous floats, double lanes */
__attribute__((target("avx2,fma"))) static double expsum_avx2(const float *x, int64_t n, float m) {
  __m256 vm = _mm256_set1_ps(m);
  __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
  int64_t k = 0;
  for (; k + 16 <= n; k += 16) {
    __m256 e0 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + k), vm));
    __m256 e1 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + k + 8), vm));
    a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm256_castps256_ps128(e0)));
    a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm256_extractf128_ps(e0, 1)));
    a2 = _mm256_add_pd(a2, _mm256_cvtps_pd(_mm256_castps256_ps128(e1)));
    a3 = _mm256_add_pd(a3, _mm256_cvtps_pd(_mm256_extractf128_ps(e1, 1)));
  }
  double l[4];
  _mm256_storeu_pd(l, _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
  double s = (l[0] + l[1]) + (l[2] + l[3]);
  for (; k < n; k++) s += Sleef_expf1_u10purecfma(x[k] - m);
  return s;
}
#endif

/* maximum of a strided float run, NaN if any */
CT_KERNEL_CLONES static float max_f32(const char *in, int64_t s, int64_t n) {
  float m = -INFINITY;
  bool nan = false;
  int64_t k = 0;
  if (s == 4) {
    const float *x = (const float *)in;
    ct_v16f v;
    for (int j = 0; j < 16; j++) v[j] = -INFINITY;
    ct_v16i z = {0};
    for (; k + 16 <= n; k += 16) {
      ct_v16f xk = ct_ld16f(x + k);
      ct_v16i gt = xk > v;
      v = (ct_v16f)((gt & (ct_v16i)xk) | (~gt & (ct_v16i)v));
      z |= xk != xk;
    }
    for (int j = 0; j < 16; j++) {
      nan |= z[j] != 0;
      if (v[j] > m) m = v[j];
    }
  }
  for (; k < n; k++) {
    float x = *(const float *)(in + k * s);
    nan |= x != x;
    if (x > m) m = x;
  }
  return nan ? NAN : m;
}

/* mx[j] = the maximum of column j of n rows (rs bytes apart) of m contiguous floats, NaN if any: the
   first NaN stays, and a NaN replaces a number (a select GCC vectorizes) */
CT_KERNEL_CLONES static void col_max_f32(float *mx, const char *in, int64_t rs, int64_t m, int64_t n) {
  for (int64_t j = 0; j < m; j++) mx[j] = -INFINITY;
  for (int64_t i = 0; i < n; i++) {
    const float *restrict row = (const float *)(in + i * rs);
    for (int64_t j = 0; j < m; j++) {
      float x = row[j], v = mx[j];
      mx[j] = ((v == v) & !(x <= v)) ? x : v;
    }
  }
}

#if LSE_AVX2
/* sum[j] += expf(x - sh[j]) over n rows of m contiguous floats; eight columns per vector */
__attribute__((target("avx2,fma"))) static void col_expsum_avx2(double *sum, const float *sh, const char *in,
                                                                 int64_t rs, int64_t m, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    const float *row = (const float *)(in + i * rs);
    int64_t j = 0;
    for (; j + 8 <= m; j += 8) {
      __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(row + j), _mm256_loadu_ps(sh + j)));
      _mm256_storeu_pd(sum + j, _mm256_add_pd(_mm256_loadu_pd(sum + j), _mm256_cvtps_pd(_mm256_castps256_ps128(e))));
      _mm256_storeu_pd(sum + j + 4, _mm256_add_pd(_mm256_loadu_pd(sum + j + 4), _mm256_cvtps_pd(_mm256_extractf128_ps(e, 1))));
    }
    for (; j < m; j++) sum[j] += Sleef_expf1_u10purecfma(row[j] - sh[j]);
  }
}
#endif

static void lse_f32_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {
  (void)idx, (void)ctx;
  if (n <= 0) return;
  float m = max_f32(in, s, n);
  if (m != m) {
    lse_merge(acc, NAN, NAN);
    return;
  }
  float sh = (float)mask_inf(m);
  double sum = 0;
#if LSE_AVX2
  if (s == 4 && have_avx2()) {
    sum = expsum_avx2((const float *)in, n, sh);
  } else
#endif
  {
    for (int64_t k = 0; k < n; k++) sum += Sleef_expf1_u10purec(*(const float *)(in + k * s) - sh);
  }
  lse_merge(acc, sh, sum);
}

/* a[j] <- a[j] + sum[j] * exp(mx[j]) for a block of lines or columns (mx NaN: the line had a NaN) */
static void merge_block(lse_acc *a, const float *mx, const double *sum, int64_t m) {
  for (int64_t j = 0; j < m; j++) {
    if (mx[j] != mx[j])
      lse_merge(&a[j], NAN, NAN);
    else
      lse_merge(&a[j], mx[j], sum[j]);
  }
}

/* Many short lines (fewer than 16 elements each: logsumexp over a few classes per sample): a block of
   lines at a time, their maxima, then element k of every line gathered into a row and exponentiated
   eight lines per SLEEF call; per line the inner loop's arithmetic (float differences, expf, a double
   sum in element order). */
#define LSE_SHORT 16
#define LSE_BLOCK 256
static void lse_f32_inner_run(void *acc, const char *in, int64_t cs, int64_t m, int64_t s, int64_t n,
                              const void *ctx) {
  lse_acc *a = acc;
#if LSE_AVX2
  if (n > 0 && n < LSE_SHORT && have_avx2()) {
    for (int64_t j0 = 0; j0 < m; j0 += LSE_BLOCK) {
      int64_t mm = m - j0 < LSE_BLOCK ? m - j0 : LSE_BLOCK;
      float mx[LSE_BLOCK], row[LSE_BLOCK];
      double sum[LSE_BLOCK];
      for (int64_t j = 0; j < mm; j++) {
        const char *p = in + (j0 + j) * cs;
        float v = -INFINITY;
        bool nan = false;
        for (int64_t k = 0; k < n; k++) {
          float x = *(const float *)(p + k * s);
          nan |= x != x;
          v = x > v ? x : v;
        }
        mx[j] = nan ? NAN : (float)mask_inf(v), sum[j] = 0;
      }
      for (int64_t k = 0; k < n; k++) {
        for (int64_t j = 0; j < mm; j++) row[j] = *(const float *)(in + (j0 + j) * cs + k * s);
        col_expsum_avx2(sum, mx, (const char *)row, 0, mm, 1);
      }
      merge_block(a + j0, mx, sum, mm);
    }
    return;
  }
#endif
  for (int64_t j = 0; j < m; j++) lse_f32_inner(&a[j], in + j * cs, s, n, 0, ctx);
}

/* Contiguous columns (logsumexp over dim 0): blocks of LSE_COLS columns by LSE_ROWS rows, each read
   twice while in cache (the column maxima, then the exponentials, eight columns per SLEEF call), and
   merged into the columns' accumulators. Per column this is the inner loop's arithmetic over shorter
   runs, the same values within rounding. */
#define LSE_COLS 256
#define LSE_ROWS 64
static void lse_f32_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n, int64_t idx,
                          const ct_red_cols *cols, const void *ctx) {
  lse_acc *a = acc;
#if LSE_AVX2
  if (cs == 4 && have_avx2()) {
    for (int64_t j0 = 0; j0 < m; j0 += LSE_COLS) {
      int64_t mm = m - j0 < LSE_COLS ? m - j0 : LSE_COLS;
      for (int64_t i0 = 0; i0 < n; i0 += LSE_ROWS) {
        int64_t nn = n - i0 < LSE_ROWS ? n - i0 : LSE_ROWS;
        const char *base = in + i0 * rs + j0 * 4;
        float mx[LSE_COLS];
        double sum[LSE_COLS];
        col_max_f32(mx, base, rs, mm, nn);
        for (int64_t j = 0; j < mm; j++) mx[j] = mx[j] != mx[j] ? mx[j] : (float)mask_inf(mx[j]), sum[j] = 0;
        col_expsum_avx2(sum, mx, base, rs, mm, nn);
        merge_block(a + j0, mx, sum, mm);
      }
    }
    return;
  }
#endif
  for (int64_t j = 0; j < m; j++) lse_f32_inner(&a[j], in + j * cs, rs, n, idx, ctx);
  (void)cols;
}

/* ---- float64; bf16r rounds a float32 input's result for a bfloat16 out= (finish_lse) ---- */
static inline double bf16r(double v) { return ct__bfloat16_to_float(ct__float_to_bfloat16((float)v)); }

static void lse_f64_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {
  (void)idx, (void)ctx;
  if (n <= 0) return;
  double m = -INFINITY;
  for (int64_t k = 0; k < n; k++) {
    double x = *(const double *)(in + k * s);
    if (x > m || x != x) m = x;
    if (m != m) break;
  }
  if (m != m) {
    lse_merge(acc, NAN, NAN);
    return;
  }
  double sh = mask_inf(m), sum = 0;
  for (int64_t k = 0; k < n; k++) sum += exp(*(const double *)(in + k * s) - sh);
  lse_merge(acc, sh, sum);
}

static void init_lse(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, sizeof(lse_acc));
}
static void combine_lse(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  const lse_acc *o = b;
  lse_merge(acc, o->shift, o->sum);
}
/* log(sum) + shift in the result's dtype (PyTorch's log_ and add_ on the result) */
static void finish_lse(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const lse_acc *a = acc;
  double v;
  switch (c->out_dtype[0]) {
    case CT_FLOAT32: v = (double)(logf((float)a->sum) + (float)a->shift); break;
    case CT_BFLOAT16: v = bf16r(bf16r(logf((float)bf16r(a->sum))) + a->shift); break;
    default: v = log(a->sum) + a->shift;
  }
  ct__red_store_f64(out[0], c->out_dtype[0], v);
}

CT_RED_DEF_INIT_RUN(init_lse_run, sizeof(lse_acc), init_lse)
CT_RED_DEF_FINISH_RUN(finish_lse_run, sizeof(lse_acc), 1, finish_lse)
static const ct_red_kernel lse_k_f32 = {sizeof(lse_acc), init_lse,          lse_f32_inner,
                                        lse_f32_outer,   combine_lse,       finish_lse,
                                        false,           false,             lse_f32_inner_run,
                                        init_lse_run,    finish_lse_run};
static const ct_red_kernel lse_k_f64 = {sizeof(lse_acc), init_lse, lse_f64_inner, NULL, combine_lse, finish_lse};

/* ======== entry points ======== */

static const ct_reduce_opts no_opts;

/* A bfloat16 input: PyTorch's sequence itself, op by op through ctorch's ops that reproduce
   each (every step rounds to bfloat16, and its bfloat16 sum over several dims rounds between loops):
     maxes = amax(t, dims, keepdim=True); maxes[isinf(maxes)] = 0;
     r = sum(exp_(t - maxes), dims, keepdim) (into out); r.log_().add_(maxes viewed as r) */
static ct_status lse_bf16(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *o, ct_tensor **res) {
  ct_status s = ct_scope_begin();
  if (s != CT_OK) return s;
  bool empty = t->numel == 0; /* PyTorch: sum(exp(t)).log_(), no maxima */
  ct_tensor *maxes = empty ? NULL : ct_amax(t, &(ct_reduce_opts){.dims = o->dims, .keepdim = true});
  ct_tensor *inf = maxes ? ct_isinf(maxes) : NULL;
  ct_tensor *zero = ct_scalar_tensor(ct_scalar_double(0), &(ct_tensor_opts){.dtype = CT_BFLOAT16});
  s = empty ? CT_OK : inf && zero ? ct_masked_fill_(maxes, inf, zero) : ct__null_status();
  ct_tensor *e = s != CT_OK ? NULL : empty ? ct_exp(t) : ct_sub(t, maxes, NULL);
  if (s == CT_OK) s = !e ? ct__null_status() : empty ? CT_OK : ct_exp_(e);
  ct_reduce_opts so = {.dims = o->dims, .keepdim = o->keepdim};
  ct_tensor *r = out;
  if (s == CT_OK) {
    if (out) {
      s = ct_sum_out(out, e, &so);
    } else {
      r = ct_sum(e, &so);
      s = r ? CT_OK : ct__null_status();
    }
  }
  ct_tensor *m = s == CT_OK && !empty ? ct_view(maxes, (ct_shape){r->sizes, r->ndim}) : NULL;
  if (s == CT_OK) s = m || empty ? ct_log_(r) : ct__null_status();
  if (s == CT_OK && !empty) s = ct_add_(r, m, NULL);
  if (s == CT_OK && !out) *res = ct_keep(r); /* past this scope, which owns the temporaries and r */
  ct_scope_end();
  return s;
}

static ct_status lse(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  if (res) *res = NULL;
  if (!t || (!res && !out)) return ct__null_status();
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  if (!ct__red_no_dtype("logsumexp", o)) return ct__null_status();
  ct_dtype in = (ct_dtype)t->dtype;
  bool intlike = ct__dt(in)->category <= CT_CAT_INT;
  ct_dtype kd = intlike ? ct_get_default_dtype() : in;
  ct_dtype od = out ? (ct_dtype)out->dtype : kd;
  if (ct__dt(od)->category != CT_CAT_FLOAT) {
    ct__error(CT_ERR_RUNTIME, "logsumexp(): Expected floating point type for result tensor, but got: %s",
              ct__dt(od)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_red_call c = {.in = t, .kdtype = kd, .keepdim = o->keepdim, .n_out = 1, .out = {out}, .out_dtype = {od}};
  /* PyTorch takes amax over the dims first (their errors), then exp, sum, log_ and add_ */
  if (t->numel != 0 && !ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  if (ct__dt(kd)->category == CT_CAT_COMPLEX) { /* only an out= of a floating dtype gets here */
    if (t->numel != 0) {
      ct__red_not_implemented("max_values_cpu", kd);
      return CT_ERR_RUNTIME;
    }
    c.fill = true; /* exp of nothing, summed: log(0) */
    c.fill_value = ct_scalar_double(-INFINITY);
  }
  if (kd == CT_FLOAT16) {
    ct__red_not_implemented("exp_vml_cpu", kd);
    return CT_ERR_RUNTIME;
  }
  if (t->numel == 0 && !ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  if (od == CT_FLOAT16) {
    ct__red_not_implemented("log_vml_cpu", od);
    return CT_ERR_RUNTIME;
  }
  /* dim=() with a non-empty input: amax keeps every dim, the sum drops them, and add_ cannot broadcast */
  if (o->dims.ndim == 0 && !o->keepdim && t->numel != 0 && t->ndim > 0) {
    char buf[256];
    int64_t ones[64];
    for (int64_t i = 0; i < t->ndim; i++) ones[i] = 1;
    ct__fmt_int_list(buf, sizeof buf, t->ndim, ones);
    ct__error(CT_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape %s", buf);
    return CT_ERR_RUNTIME;
  }
  if (kd == CT_BFLOAT16) return lse_bf16(out, t, o, res);
  c.k = kd == CT_FLOAT32 ? &lse_k_f32 : &lse_k_f64;
  if (od == CT_BFLOAT16 && kd != CT_BFLOAT16 && c.fill) c.fill_value = ct_scalar_double(-INFINITY);
  return ct__red_exec(&c, res);
}

ct_tensor *ct_logsumexp(const ct_tensor *t, const ct_reduce_opts *opts) {
  ct_tensor *r = NULL;
  lse(NULL, t, opts, &r);
  return r;
}
ct_status ct_logsumexp_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts) {
  if (!out) return ct__null_status();
  return lse(out, t, opts, NULL);
}
