/* logsumexp as PyTorch 1.13 computes it (ReduceOps.cpp, logsumexp_out_impl), op by op:
     maxes = amax(self, dims, keepdim=True); maxes[|maxes| == inf] = 0;
     result = sum((self - maxes).exp_(), dims, keepdim); result.log_().add_(maxes)
   with integer inputs converted to the default dtype first. Every step rounds in the input's dtype (exp
   and log are SLEEF's u10 functions, vectorized as PyTorch's vml map calls them on every element), and
   the sum is PyTorch's cascade, so ctorch runs the same steps: through its own ops in general (lse_ops),
   fused where each output's elements are one contiguous line of a float32 or float64 input (then the
   temporary self - maxes is laid out the same way and sum takes that line in one vectorized_inner_sum):
   per line its maximum, the exponentials into a buffer, the cascade of the buffer, log and add. */
#include "ops/create_internal.h"
#include "ops/reduce/red.h"
#include "ops/view_internal.h"

#include "kernels/cpu/sleef_x86.h"

#define LSE_AVX2 CT_ISA_X86
static inline bool have_avx2(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }

/* elements of a line's exponentials kept on the stack: the longest line the fused path takes */
#define LSE_BUF 8192

typedef struct lse_acc {
  double sum, shift; /* the line's cascade sum of exponentials and its maximum (0 if infinite) */
} lse_acc;

#if LSE_AVX2
/* y[k] = exp(x[k] - m) for k < n, every element through SLEEF's 8-lane (4-lane) function, the last
   partial vector zero-padded as Vectorized::loadu(ptr, count) pads it */
CT_TARGET_AVX2 static void exp_shift_f32_avx2(float *y, const float *x, int64_t n, float m) {
  __m256 vm = _mm256_set1_ps(m);
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) _mm256_storeu_ps(y + k, Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + k), vm)));
  if (k < n) {
    float t[8] = {0};
    for (int64_t j = k; j < n; j++) t[j - k] = x[j] - m;
    _mm256_storeu_ps(t, Sleef_expf8_u10avx2(_mm256_loadu_ps(t)));
    memcpy(y + k, t, (size_t)(n - k) * sizeof *t);
  }
}
CT_TARGET_AVX2 static void exp_shift_f64_avx2(double *y, const double *x, int64_t n, double m) {
  __m256d vm = _mm256_set1_pd(m);
  int64_t k = 0;
  for (; k + 4 <= n; k += 4) _mm256_storeu_pd(y + k, Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_loadu_pd(x + k), vm)));
  if (k < n) {
    double t[4] = {0};
    for (int64_t j = k; j < n; j++) t[j - k] = x[j] - m;
    _mm256_storeu_pd(t, Sleef_expd4_u10avx2(_mm256_loadu_pd(t)));
    memcpy(y + k, t, (size_t)(n - k) * sizeof *t);
  }
}
CT_TARGET_AVX2 static float log_f32_avx2(float v) {
  float t[8];
  _mm256_storeu_ps(t, Sleef_logf8_u10avx2(_mm256_set1_ps(v)));
  return t[0];
}
CT_TARGET_AVX2 static double log_f64_avx2(double v) {
  double t[4];
  _mm256_storeu_pd(t, Sleef_logd4_u10avx2(_mm256_set1_pd(v)));
  return t[0];
}
#endif
/* without AVX2 (not PyTorch's build here): SLEEF's scalar functions */
static void exp_shift_f32(float *y, const float *x, int64_t n, float m) {
#if LSE_AVX2
  if (have_avx2()) {
    exp_shift_f32_avx2(y, x, n, m);
    return;
  }
#endif
  for (int64_t k = 0; k < n; k++) y[k] = Sleef_expf_u10(x[k] - m);
}
static void exp_shift_f64(double *y, const double *x, int64_t n, double m) {
#if LSE_AVX2
  if (have_avx2()) {
    exp_shift_f64_avx2(y, x, n, m);
    return;
  }
#endif
  for (int64_t k = 0; k < n; k++) y[k] = Sleef_exp_u10(x[k] - m);
}
static float log_f32(float v) {
#if LSE_AVX2
  if (have_avx2()) return log_f32_avx2(v);
#endif
  return Sleef_logf_u10(v);
}
static double log_f64(double v) {
#if LSE_AVX2
  if (have_avx2()) return log_f64_avx2(v);
#endif
  return Sleef_log_u10(v);
}

/* maximum of n contiguous values, NaN if any (amax); an infinite one is 0 (masked_fill_) */
CT_KERNEL_CLONES static float max_f32(const float *x, int64_t n) {
  float m = -INFINITY;
  bool nan = false;
  for (int64_t k = 0; k < n; k++) {
    nan |= x[k] != x[k];
    m = x[k] > m ? x[k] : m;
  }
  return nan ? NAN : m == INFINITY || m == -INFINITY ? 0.0f : m;
}
CT_KERNEL_CLONES static double max_f64(const double *x, int64_t n) {
  double m = -INFINITY;
  bool nan = false;
  for (int64_t k = 0; k < n; k++) {
    nan |= x[k] != x[k];
    m = x[k] > m ? x[k] : m;
  }
  return nan ? NAN : m == INFINITY || m == -INFINITY ? 0.0 : m;
}

#define DEF_LSE_LINE(E, T)                                                                                     \
  static void lse_##E##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {  \
    (void)idx, (void)ctx, (void)s; /* s is the element size: the kernel runs on contiguous lines only */      \
    lse_acc *a = acc;                                                                                           \
    const T *x = (const T *)in;                                                                                 \
    T m = max_##E(x, n);                                                                                        \
    T y[LSE_BUF]; /* n <= LSE_BUF: longer lines take lse_ops */                                              \
    exp_shift_##E(y, x, n, m);                                                                                  \
    a->sum = (double)ct__red_cascade_line_##E(y, n);                                                           \
    a->shift = (double)m;                                                                                       \
  }                                                                                                             \
  static void lse_##E##_inner_run(void *acc, const char *in, int64_t cs, int64_t m, int64_t s, int64_t n,      \
                                  const void *ctx) {                                                            \
    for (int64_t j = 0; j < m; j++) lse_##E##_inner((lse_acc *)acc + j, in + j * cs, s, n, 0, ctx);            \
  }
DEF_LSE_LINE(f32, float)
DEF_LSE_LINE(f64, double)

static void init_lse(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, sizeof(lse_acc));
}
static void combine_unused(void *acc, const void *b, const void *ctx) {
  (void)acc, (void)b, (void)ctx; /* sequential: never split */
}
/* log_() then add_(maxes) in the result's dtype */
static void finish_lse_f32(char *const *out, const void *acc, const void *ctx) {
  const lse_acc *a = acc;
  float v = log_f32((float)a->sum) + (float)a->shift;
  *(float *)out[0] = v;
  (void)ctx;
}
static void finish_lse_f64(char *const *out, const void *acc, const void *ctx) {
  const lse_acc *a = acc;
  *(double *)out[0] = log_f64(a->sum) + a->shift;
  (void)ctx;
}
static const ct_red_kernel lse_k_f32 = {sizeof(lse_acc), init_lse,       lse_f32_inner, NULL, combine_unused,
                                        finish_lse_f32,  true,           false,         lse_f32_inner_run};
static const ct_red_kernel lse_k_f64 = {sizeof(lse_acc), init_lse,       lse_f64_inner, NULL, combine_unused,
                                        finish_lse_f64,  true,           false,         lse_f64_inner_run};

/* the fused kernels (the op sequence below otherwise) */
static const ct_red_table lse_cpu = {[CT_FLOAT32] = &lse_k_f32, [CT_FLOAT64] = &lse_k_f64};

/* PyTorch's sequence op by op through ctorch's ops, which reproduce each (every step rounds in the
   input's dtype; a bfloat16 sum over several dims rounds between loops; with an out= of another dtype the
   sum, log_ and add_ compute in out's dtype): an integer input converted to the default dtype first;
     maxes = amax(t, dims, keepdim=True); maxes[isinf(maxes)] = 0;
     r = sum(exp_(t - maxes), dims, keepdim) (into out); r.log_().add_(maxes viewed as r) */
static ct_tensor *amax_of(const ct_tensor *x, ct_dims dims) {
  ct_tensor *r = NULL;
  ct__amax_impl(NULL, x, &(ct_reduce_opts){.dims = dims, .keepdim = true}, &r);
  return r;
}

static ct_status lse_ops(ct_tensor *out, const ct_tensor *t, ct_dtype kd, const ct_reduce_opts *o, ct_tensor **res) {
  ct_status s = ct_scope_begin();
  if (s != CT_OK) return s;
  bool empty = t->numel == 0; /* PyTorch: sum(exp(t)).log_(), no maxima */
  const ct_tensor *x = (ct_dtype)t->dtype == kd ? t : ct__to_dtype_impl(t, kd);
  ct_tensor *maxes = !x || empty ? NULL : amax_of(x, o->dims);
  ct_tensor *inf = maxes ? ct__isinf_impl(maxes) : NULL;
  ct_tensor *zero = ct__own(
      ct__scalar_tensor_with(ct_scalar_double(0), &(ct_resolved_opts){.dtype = kd, .device = CT_DEVICE_CPU}));
  s = !x            ? ct__null_status()
      : empty       ? CT_OK
      : inf && zero ? ct__masked_fill_impl_(maxes, inf, zero)
                    : ct__null_status();
  ct_tensor *e = s != CT_OK ? NULL : empty ? ct__pw_apply(&ct__pw_op_exp, x, NULL) : ct__pw_apply(&ct__pw_op_sub, x, maxes);
  if (s == CT_OK) s = !e ? ct__null_status() : empty ? CT_OK : ct__pw_apply_(&ct__pw_op_exp, e, NULL);
  ct_reduce_opts so = {.dims = o->dims, .keepdim = o->keepdim};
  ct_tensor *r = out;
  if (s == CT_OK) {
    if (out) {
      s = ct__sum_impl(out, e, &so, NULL);
    } else {
      s = ct__sum_impl(NULL, e, &so, &r);
    }
  }
  ct_tensor *m = s == CT_OK && !empty ? ct__own(ct__view_impl(maxes, (ct_shape){r->sizes, r->ndim})) : NULL;
  if (s == CT_OK) s = m || empty ? ct__pw_apply_(&ct__pw_op_log, r, NULL) : ct__null_status();
  if (s == CT_OK && !empty) s = ct__pw_apply_(&ct__pw_op_add, r, m);
  if (s == CT_OK && !out) *res = ct_keep(r); /* past this scope, which owns the temporaries and r */
  ct_scope_end();
  return s;
}

/* ======== entry points ======== */

/* torch's logsumexp is a composite over logsumexp.out (its dispatcher's name for a sparse input). */
static const ct_op lse_op = {CT_RED_OP("logsumexp", "aten::logsumexp.out", &lse_cpu)};
static const ct_reduce_opts no_opts;

static ct_status lse(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
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
  ct_red_call c = {.in = t, .kdtype = kd, .keepdim = o->keepdim, .n_out = 1, .out = {out}, .out_dtype = {od},
                   .no_expanded_out = true};
  /* PyTorch takes amax over the dims first (their errors), then exp, sum, log_ and add_ */
  if (t->numel != 0 && !ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  /* the "not implemented" refusals are the CPU kernels' (amax, exp, log): a meta call runs none */
  bool cpu = t->device_type != CT_META;
  if (cpu && ct__dt(kd)->category == CT_CAT_COMPLEX) { /* only an out= of a floating dtype gets here */
    if (t->numel != 0) {
      ct__red_not_implemented("max_values_cpu", kd);
      return CT_ERR_RUNTIME;
    }
    c.fill = true; /* exp of nothing, summed: log(0) */
    c.fill_value = ct_scalar_double(-INFINITY);
  }
  if (cpu && kd == CT_FLOAT16) {
    ct__red_not_implemented("exp_vml_cpu", kd);
    return CT_ERR_RUNTIME;
  }
  if (t->numel == 0 && !ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  /* then sum_out writes out (resize_out's device check, its refusals), before log_ and add_: whatever it refuses
     comes here, before the first write */
  if (out && !ct__red_check_outs(&c)) return ct_last_error();
  if (cpu && od == CT_FLOAT16) {
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
  if (c.fill) return ct__red_exec(&c, res);
  /* fused: each output one contiguous line of a float32 / float64 input, a result of the input's dtype */
  if ((kd == CT_FLOAT32 || kd == CT_FLOAT64) && kd == in && od == kd && t->numel != 0 &&
      ct__red_count(t, c.mask) <= LSE_BUF) {
    ct_red_config cfg = {.in = t, .mask = c.mask, .keepdim = o->keepdim};
    if (ct__reduce_is_lastdim(&cfg)) {
      c.k = ct__red_kernel(&lse_op, kd, t, c.out[0]);
      return ct__red_exec(&c, res);
    }
  }
  return lse_ops(out, t, kd, o, res);
}

CT_RED_DEFINE_API(logsumexp, &lse_op, ct_reduce_opts, lse, )
