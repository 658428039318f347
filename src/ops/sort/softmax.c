/* torch.softmax and torch.log_softmax (torch 1.13, SoftMax.cpp + cpu/SoftMaxKernel.cpp), as its AVX2 build
   computes them. Along the last dim, per row: the maximum (vec::reduce_all), exp(x - max) through SLEEF's
   8-lane (float64: 4-lane) u10 function with the last partial vector zero-padded, their sum in 8 lane
   accumulators folded by vec_reduce_all, then softmax multiplies by 1 / sum, log_softmax subtracts max and
   log(sum) (SLEEF's log). Along another dim, softmax runs _vec_softmax: 8 inner positions at a time
   (divided by the lane sums), the positions at the end of a thread's chunk or of the inner extent one by
   one with libm's exp. bfloat16 runs on float copies with the float formulas, rounded once at the end (along
   another dim softmax rounds the stored exponentials first), which matches torch's bfloat16 softmax bit for
   bit; bfloat16 log_softmax along the last dim differs in the last bit for some elements (see the diff table). */
#include <math.h>

#include "core/half.h"
#include "core/parallel.h"
#include "kernels/cpu/sleef_x86.h"
#include "ops/sort/sort_internal.h"

#define LANES_F 8
#define LANES_D 4

/* ---- SLEEF over a lane array ---- */
#if CT_ISA_X86
CT_TARGET_AVX2 static void exp8_avx2(float *v) {
  _mm256_storeu_ps(v, Sleef_expf8_u10avx2(_mm256_loadu_ps(v)));
}
CT_TARGET_AVX2 static void exp4_avx2(double *v) {
  _mm256_storeu_pd(v, Sleef_expd4_u10avx2(_mm256_loadu_pd(v)));
}
CT_TARGET_AVX2 static void log8_avx2(float *v) {
  _mm256_storeu_ps(v, Sleef_logf8_u10avx2(_mm256_loadu_ps(v)));
}
CT_TARGET_AVX2 static void log4_avx2(double *v) {
  _mm256_storeu_pd(v, Sleef_logd4_u10avx2(_mm256_loadu_pd(v)));
}
#endif
static void exp_lanes_f(float *v) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) {
    exp8_avx2(v);
    return;
  }
#endif
  for (int k = 0; k < LANES_F; k++) v[k] = Sleef_expf_u10(v[k]);
}
static void exp_lanes_d(double *v) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) {
    exp4_avx2(v);
    return;
  }
#endif
  for (int k = 0; k < LANES_D; k++) v[k] = Sleef_exp_u10(v[k]);
}
static void log_lanes_f(float *v) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) {
    log8_avx2(v);
    return;
  }
#endif
  for (int k = 0; k < LANES_F; k++) v[k] = Sleef_logf_u10(v[k]);
}
static void log_lanes_d(double *v) {
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) {
    log4_avx2(v);
    return;
  }
#endif
  for (int k = 0; k < LANES_D; k++) v[k] = Sleef_log_u10(v[k]);
}

/* vec::maximum: NaN if either is */
#define VMAX(a, b) (isnan(a) || isnan(b) ? (a) + (b) : (a) > (b) ? (a) : (b))
/* bfloat16 rounding of each step (float and double: none) */
#define RND_f(x) (x)
#define RND_d(x) (x)
#define RND_b(x) ct__bfloat16_to_float(ct__float_to_bfloat16(x))

/* One row along the last dim, T the compute type, L the lanes, R the rounding, LOAD / STORE the element. */
#define DEF_LASTDIM(S, T, L, R, EXPL, LOGL, ET, LOAD, STORE)                                                   \
  /* vec_reduce_all: over a partial vector (size < L) the generic loop, lane 0 folding the others in order;  \
     over a whole float one AVX2's shuffles: halves added, then pairs, then neighbours (double: in order) */ \
  static T fold_##S(const T *acc, int64_t size, bool is_max) {                                                 \
    if (size == L && L == 8 && !is_max) {                                                                      \
      T v[L];                                                                                                  \
      for (int k = 0; k < L; k++) v[k] = acc[k];                                                               \
      for (int h = L / 2; h >= 1; h /= 2)                                                                      \
        for (int k = 0; k < h; k++) v[k] = R(v[k] + v[k + h]);                                                 \
      return v[0];                                                                                             \
    }                                                                                                          \
    T a = acc[0];                                                                                              \
    for (int64_t i = 1; i < size; i++) a = is_max ? VMAX(a, acc[i]) : R(a + acc[i]);                           \
    return a;                                                                                                  \
  }                                                                                                            \
  static T row_max_##S(const ET *x, int64_t n) {                                                               \
    T acc[L] = {0};                                                                                            \
    if (n < L) {                                                                                               \
      for (int k = 0; k < L; k++) acc[k] = k < n ? LOAD(x[k]) : 0;                                             \
      return fold_##S(acc, n, true);                                                                           \
    }                                                                                                          \
    for (int k = 0; k < L; k++) acc[k] = LOAD(x[k]);                                                           \
    int64_t d = L;                                                                                             \
    for (; d < n - n % L; d += L)                                                                              \
      for (int k = 0; k < L; k++) acc[k] = VMAX(acc[k], LOAD(x[d + k]));                                       \
    for (int64_t k = 0; d + k < n; k++) acc[k] = VMAX(acc[k], LOAD(x[d + k]));                                 \
    return fold_##S(acc, L, true);                                                                             \
  }                                                                                                            \
  /* exp(x - m) of the L elements from x[d] (count of them real, the rest zero-padded) into v */               \
  static void exp_block_##S(const ET *x, int64_t count, T m, T *v) {                                           \
    for (int k = 0; k < L; k++) v[k] = k < count ? R(LOAD(x[k]) - m) : R((T)0 - m);                            \
    EXPL(v);                                                                                                   \
    for (int k = 0; k < L; k++) v[k] = R(v[k]);                                                                \
  }                                                                                                            \
  /* map_reduce_all(exp(x - m), +) */                                                                          \
  static T row_expsum_##S(const ET *x, int64_t n, T m, ET *y) {                                                \
    T acc[L] = {0}, v[L] = {0};                                                                                \
    if (n < L) {                                                                                               \
      exp_block_##S(x, n, m, v);                                                                               \
      if (y)                                                                                                   \
        for (int64_t k = 0; k < n; k++) y[k] = STORE(v[k]);                                                    \
      return fold_##S(v, n, false);                                                                            \
    }                                                                                                          \
    exp_block_##S(x, L, m, acc);                                                                               \
    if (y)                                                                                                     \
      for (int k = 0; k < L; k++) y[k] = STORE(acc[k]);                                                        \
    int64_t d = L;                                                                                             \
    for (; d < n - n % L; d += L) {                                                                            \
      exp_block_##S(x + d, L, m, v);                                                                           \
      for (int k = 0; k < L; k++) {                                                                            \
        if (y) y[d + k] = STORE(v[k]);                                                                         \
        acc[k] = R(acc[k] + v[k]);                                                                             \
      }                                                                                                        \
    }                                                                                                          \
    if (d < n) {                                                                                               \
      exp_block_##S(x + d, n - d, m, v);                                                                       \
      for (int64_t k = 0; d + k < n; k++) {                                                                    \
        if (y) y[d + k] = STORE(v[k]);                                                                         \
        acc[k] = R(acc[k] + v[k]);                                                                             \
      }                                                                                                        \
    }                                                                                                          \
    return fold_##S(acc, L, false);                                                                            \
  }                                                                                                            \
  static void softmax_row_##S(const ET *x, ET *y, int64_t n) {                                                 \
    T m = row_max_##S(x, n);                                                                                   \
    /* softmax writes exp(x - max) into y, sums y (the rounded stored values), then scales */                  \
    row_expsum_##S(x, n, m, y);                                                                                \
    T acc[L] = {0};                                                                                            \
    T sum;                                                                                                     \
    if (n < L) {                                                                                               \
      for (int64_t k = 0; k < n; k++) acc[k] = LOAD(y[k]);                                                     \
      sum = fold_##S(acc, n, false);                                                                           \
    } else {                                                                                                   \
      for (int k = 0; k < L; k++) acc[k] = LOAD(y[k]);                                                         \
      int64_t d = L;                                                                                           \
      for (; d < n - n % L; d += L)                                                                            \
        for (int k = 0; k < L; k++) acc[k] = R(acc[k] + LOAD(y[d + k]));                                       \
      for (int64_t k = 0; d + k < n; k++) acc[k] = R(acc[k] + LOAD(y[d + k]));                                 \
      sum = fold_##S(acc, L, false);                                                                           \
    }                                                                                                          \
    T inv = R((T)1 / sum);                                                                                     \
    for (int64_t k = 0; k < n; k++) y[k] = STORE(R(LOAD(y[k]) * inv));                                         \
  }                                                                                                            \
  static void log_softmax_row_##S(const ET *x, ET *y, int64_t n) {                                             \
    T m = row_max_##S(x, n);                                                                                   \
    T lanes[L] = {0};                                                                                          \
    lanes[0] = row_expsum_##S(x, n, m, NULL);                                                                  \
    LOGL(lanes);                                                                                               \
    T ls = R(lanes[0]);                                                                                        \
    for (int64_t k = 0; k < n; k++) y[k] = STORE(R(R(LOAD(x[k]) - m) - ls));                                   \
  }
#define ID(x) (x)
DEF_LASTDIM(f, float, LANES_F, RND_f, exp_lanes_f, log_lanes_f, float, ID, ID)
DEF_LASTDIM(d, double, LANES_D, RND_d, exp_lanes_d, log_lanes_d, double, ID, ID)

/* ---- softmax along another dim (_vec_softmax): positions [begin, end) of outer * inner ---- */
#define DEF_INNER(S, T, L, R, EXPL, EXP1, ET, LOAD, STORE)                                          \
  static void softmax_inner_##S(const ET *in, ET *out, int64_t inner, int64_t dim, int64_t begin,   \
                                int64_t end) {                                                      \
    int64_t idx = begin;                                                                            \
    while (idx < end) {                                                                             \
      int64_t o = idx / inner, i = idx % inner;                                                     \
      const ET *x = in + o * dim * inner + i;                                                       \
      ET *y = out + o * dim * inner + i;                                                            \
      if (i + L <= inner && idx + L <= end) {                                                       \
        T mx[L], sum[L], v[L];                                                                      \
        for (int k = 0; k < L; k++) mx[k] = LOAD(x[k]);                                             \
        for (int64_t d = 1; d < dim; d++)                                                           \
          for (int k = 0; k < L; k++) mx[k] = VMAX(mx[k], LOAD(x[d * inner + k]));                  \
        for (int k = 0; k < L; k++) sum[k] = 0;                                                     \
        for (int64_t d = 0; d < dim; d++) {                                                         \
          for (int k = 0; k < L; k++) v[k] = R(LOAD(x[d * inner + k]) - mx[k]);                     \
          EXPL(v);                                                                                  \
          for (int k = 0; k < L; k++) {                                                             \
            y[d * inner + k] = STORE(R(v[k]));                                                      \
            sum[k] = R(sum[k] + R(v[k]));                                                           \
          }                                                                                         \
        }                                                                                           \
        for (int64_t d = 0; d < dim; d++)                                                           \
          for (int k = 0; k < L; k++) y[d * inner + k] = STORE(R(LOAD(y[d * inner + k]) / sum[k])); \
        idx += L;                                                                                   \
      } else {                                                                                      \
        /* the scalar tail: std::max (a NaN only when it is the running maximum), std::exp */       \
        T m = LOAD(x[0]);                                                                           \
        for (int64_t d = 1; d < dim; d++) {                                                         \
          T e = LOAD(x[d * inner]);                                                                 \
          m = m < e ? e : m;                                                                        \
        }                                                                                           \
        T sum = 0;                                                                                  \
        for (int64_t d = 0; d < dim; d++) {                                                         \
          y[d * inner] = STORE(R(EXP1(R(LOAD(x[d * inner]) - m))));                                 \
          sum = R(sum + LOAD(y[d * inner]));                                                        \
        }                                                                                           \
        for (int64_t d = 0; d < dim; d++) y[d * inner] = STORE(R(LOAD(y[d * inner]) / sum));        \
        idx++;                                                                                      \
      }                                                                                             \
    }                                                                                               \
  }
DEF_INNER(f, float, LANES_F, RND_f, exp_lanes_f, expf, float, ID, ID)
DEF_INNER(d, double, LANES_D, RND_d, exp_lanes_d, exp, double, ID, ID)
/* bfloat16 along another dim: float arithmetic, the exponentials stored rounded to bfloat16 before the
   division (on float copies of the data; every position through SLEEF's exp) */
static float exp1_sleef(float x) {
  float v[LANES_F] = {x};
  exp_lanes_f(v);
  return v[0];
}
DEF_INNER(bs, float, LANES_F, RND_f, exp_lanes_f, exp1_sleef, float, ID, RND_b)

/* log_softmax along another dim: per position max, sum of exp(x - max), x - max - log(sum), in the element
   dtype with SLEEF's functions (vector lanes and scalar tails agree for these). */
#define DEF_LOG_INNER(S, T, R, EXPL, LOGL, L, ET, LOAD, STORE)                                        \
  static void log_softmax_inner_##S(const ET *in, ET *out, int64_t inner, int64_t dim, int64_t begin, \
                                    int64_t end) {                                                    \
    for (int64_t idx = begin; idx < end; idx++) {                                                     \
      int64_t o = idx / inner, i = idx % inner;                                                       \
      const ET *x = in + o * dim * inner + i;                                                         \
      ET *y = out + o * dim * inner + i;                                                              \
      T m = -INFINITY, sum = 0, v[L] = {0};                                                           \
      for (int64_t d = 0; d < dim; d++) {                                                             \
        T e = LOAD(x[d * inner]);                                                                     \
        m = e > m ? e : (isnan(e) ? e : m);                                                           \
      }                                                                                               \
      for (int64_t d = 0; d < dim; d++) {                                                             \
        v[0] = R(LOAD(x[d * inner]) - m);                                                             \
        EXPL(v);                                                                                      \
        sum = R(sum + R(v[0]));                                                                       \
      }                                                                                               \
      v[0] = sum;                                                                                     \
      LOGL(v);                                                                                        \
      T ls = R(v[0]);                                                                                 \
      for (int64_t d = 0; d < dim; d++) y[d * inner] = STORE(R(R(LOAD(x[d * inner]) - m) - ls));      \
    }                                                                                                 \
  }
DEF_LOG_INNER(f, float, RND_f, exp_lanes_f, log_lanes_f, LANES_F, float, ID, ID)
DEF_LOG_INNER(d, double, RND_d, exp_lanes_d, log_lanes_d, LANES_D, double, ID, ID)

/* ---- the ops ---- */
/* AT_DISPATCH_FLOATING_TYPES_AND(BFloat16) */
static const ct_sort_type *const softmax_types[CT_NUM_DTYPES + 1] = {CT_DT_FLOAT(CT_SORT_ROW)[CT_BFLOAT16] =
                                                                         &ct__sort_key_CT_BFLOAT16};
/* softmax.int_out is a composite writing into out: autograd sees an in-place write of out */
static const ct_op softmax_op = {CT_SORT_OP("softmax", "aten::_softmax", softmax_types, ct__sort_meta_row),
                                 .grad = CT_OP_GRAD_OUT_INPLACE};
static const ct_op log_softmax_op = {
    CT_SORT_OP("log_softmax", "aten::_log_softmax", softmax_types, ct__sort_meta_row),
    .grad = CT_OP_GRAD_OUT_INPLACE};

typedef struct sm_job {
  const char *in;
  char *out;
  ct_dtype dt; /* float32 or float64 (bfloat16 runs on float32 copies) */
  bool log, last, bf16;
  int64_t outer, dim, inner, chunk;
} sm_job;

static void sm_rows(void *v, int64_t c, int tid) {
  (void)tid;
  const sm_job *j = v;
  int64_t n = j->last ? j->outer : j->outer * j->inner;
  int64_t begin = c * j->chunk, end = begin + j->chunk < n ? begin + j->chunk : n;
  if (j->last) { /* whole rows */
    size_t isz = ct__itemsize(j->dt);
    for (int64_t r = begin; r < end; r++) {
      const char *x = j->in + (size_t)(r * j->dim) * isz;
      char *y = j->out + (size_t)(r * j->dim) * isz;
      if (j->dt == CT_FLOAT32)
        (j->log ? log_softmax_row_f : softmax_row_f)((const float *)x, (float *)y, j->dim);
      else (j->log ? log_softmax_row_d : softmax_row_d)((const double *)x, (double *)y, j->dim);
    }
    return;
  }
  if (j->dt == CT_FLOAT32) {
    if (j->log) log_softmax_inner_f((const float *)j->in, (float *)j->out, j->inner, j->dim, begin, end);
    else
      (j->bf16 ? softmax_inner_bs : softmax_inner_f)((const float *)j->in, (float *)j->out, j->inner, j->dim,
                                                     begin, end);
  } else {
    (j->log ? log_softmax_inner_d : softmax_inner_d)((const double *)j->in, (double *)j->out, j->inner,
                                                     j->dim, begin, end);
  }
}

/* _softmax / _log_softmax: a new contiguous (unowned) result of t (already in the compute dtype). */
static ct_status softmax_run(const ct_op *op, bool log, const ct_tensor *t, int64_t dim_, ct_tensor **res) {
  *res = NULL;
  int64_t dim = ct__wrap_dim(dim_, t->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__check_in_storage(t)) return ct_last_error();
  ct_dtype dt = (ct_dtype)t->dtype;
  bool meta = ct__sort_is_meta(op, t);
  bool last = t->ndim == 0 || dim == t->ndim - 1;
  if (!meta && t->numel > 0 && !ct__sort_type(op, t)) {
    /* torch 1.13's log_softmax along another dim dispatches under softmax's name */
    ct__red_not_implemented(log && last ? "log_softmax_lastdim_kernel_impl"
                            : last      ? "softmax_lastdim_kernel_impl"
                                        : "softmax_kernel_impl",
                            dt);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *r = ct__empty(t->ndim, t->sizes, dt, ct__tdevice(t));
  if (!r) return ct_last_error();
  if (meta || t->numel == 0) {
    *res = r;
    return CT_OK;
  }
  bool bf16 = dt == CT_BFLOAT16;
  ct_dtype kdt = bf16 ? CT_FLOAT32 : dt;
  ct_tensor *c = ct__empty(t->ndim, t->sizes, kdt, ct__tdevice(t));
  ct_tensor *y = c && bf16 ? ct__empty(t->ndim, t->sizes, kdt, ct__tdevice(t)) : NULL;
  if (!c || (bf16 && !y) || ct__copy_into(c, t) != CT_OK) {
    ct_release(c);
    ct_release(y);
    ct_release(r);
    return ct_last_error();
  }
  sm_job j = {
      ct__tdata(c), ct__tdata(bf16 ? y : r), kdt, log, last, bf16, 1, t->ndim ? t->sizes[dim] : 1, 1, 0};
  for (int64_t d = 0; d < t->ndim; d++) {
    if (d < dim) j.outer *= t->sizes[d];
    if (d > dim) j.inner *= t->sizes[d];
  }
  if (last) {
    /* rows are independent: any cut gives the same bits */
    int nt = ct__parallel_threads(t->numel);
    j.chunk = (j.outer + nt * 4 - 1) / (nt * 4);
    if (j.chunk < 1) j.chunk = 1;
    ct__parallel_chunks((j.outer + j.chunk - 1) / j.chunk, nt, sm_rows, &j);
  } else {
    /* at::parallel_for(0, n, 1, ...): one chunk per thread; where a chunk ends decides which positions take
       the scalar tail */
    int64_t n = j.outer * j.inner, nt = log ? 1 : ct__num_threads();
    if (nt > n) nt = n;
    j.chunk = (n + nt - 1) / nt;
    ct__parallel_chunks((n + j.chunk - 1) / j.chunk, (int)nt, sm_rows, &j);
  }
  ct_status s = bf16 ? ct__copy_into(r, y) : CT_OK;
  ct_release(c);
  ct_release(y);
  if (s != CT_OK) return (ct_release(r), s);
  *res = r;
  return CT_OK;
}

/* softmax(input, dim, dtype): the input converted to dtype first (toType), then _softmax. */
static ct_status softmax_impl(const ct_op *op, bool log, const ct_tensor *t, int64_t dim,
                              const ct_softmax_opts *o, ct_tensor **res) {
  ct_dtype want = o ? o->dtype : CT_DTYPE_UNSET;
  if (want != CT_DTYPE_UNSET && !ct__check_dtype(want)) return ct_last_error();
  const ct_tensor *x = t;
  ct_tensor *conv = NULL;
  if (want != CT_DTYPE_UNSET && want != (ct_dtype)t->dtype) {
    conv = ct__empty(t->ndim, t->sizes, want, ct__tdevice(t));
    if (!conv || (t->numel && t->device_type != CT_META && ct__copy_into(conv, t) != CT_OK)) {
      ct_release(conv);
      return ct_last_error();
    }
    x = conv;
  }
  ct_status s = softmax_run(op, log, x, dim, res);
  ct_release(conv);
  return s;
}

static ct_status softmax_out(const ct_op *op, bool log, ct_tensor *out, const ct_tensor *t, int64_t dim,
                             const ct_softmax_opts *o) {
  ct_dtype want = o && o->dtype != CT_DTYPE_UNSET ? o->dtype : (ct_dtype)t->dtype;
  /* _softmax_out's meta function: the dim, then out's dtype */
  if (ct__wrap_dim(dim, t->ndim) < 0) return CT_ERR_INDEX;
  if (!ct__red_check_out_dtype(out, want) || !ct__sort_out_device_ok(out, t)) return CT_ERR_RUNTIME;
  ct_tensor *r;
  ct_status s = softmax_impl(op, log, t, dim, o, &r);
  if (s == CT_OK) s = ct__sort_write_outs(&r, &out, 1);
  if (s == CT_OK) ct__grad_mark_out(out, &t, 1); /* torch's out= of a differentiable op: out requires grad */
  return s;
}

#define SOFTMAX_API(NAME, OPD, LOG)                                                                         \
  ct_tensor *ct_##NAME(const ct_tensor *t, int64_t dim, const ct_softmax_opts *opts) {                      \
    CT__OP_ENTER_PTR(&OPD, t, t);                                                                           \
    ct_tensor *r;                                                                                           \
    return softmax_impl(&OPD, LOG, t, dim, opts, &r) == CT_OK ? ct__own(r) : NULL;                          \
  }                                                                                                         \
  ct_status ct_##NAME##_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_softmax_opts *opts) { \
    CT__OP_ENTER_STATUS(&OPD, t, out, t);                                                                   \
    if (!ct__check_inplace(out)) return CT_ERR_RUNTIME;                                                     \
    return softmax_out(&OPD, LOG, out, t, dim, opts);                                                       \
  }
SOFTMAX_API(softmax, softmax_op, false)
SOFTMAX_API(log_softmax, log_softmax_op, true)
