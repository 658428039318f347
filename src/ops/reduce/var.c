/* var, std, var_mean, std_mean.

   One pass per run in double: the run's sum and sum of squares around its first element (a shift that
   keeps the cancellation harmless), turned into (count, mean, M2) and merged with Chan's formula, the
   parallel form of the Welford update PyTorch uses (also in double). Complex inputs keep the real and
   imaginary parts' M2 apart, as PyTorch computes var(real) + var(imag). */
#include "ops/create_internal.h"
#include "ops/reduce/red.h"

typedef struct var_acc {
  double n, mean, m2;
} var_acc;
typedef struct cvar_acc {
  double n, mr, mi, m2r, m2i;
} cvar_acc;

/* acc <- acc merged with the run (n, mean, m2) */
static inline void chan(double *an, double *amean, double *am2, double n, double mean, double m2) {
  if (n == 0) return;
  if (*an == 0) {
    *an = n, *amean = mean, *am2 = m2;
    return;
  }
  double tot = *an + n, d = mean - *amean, f = n / tot;
  *amean += d * f;
  *am2 += m2 + d * d * *an * f;
  *an = tot;
}

/* PyTorch's Welford update (WelfordOps::reduce, its `m2 + delta * new_delta` fused as its AVX2 build
   compiles it), run element by element over a run holding infinities or NaNs: which of them end as inf
   and which as NaN depends on the order, so such runs take PyTorch's sequence. */
static inline void welford(double *n, double *mean, double *m2, double x) {
  double delta = x - *mean;
  double new_mean = *mean + delta / (*n + 1);
  *m2 = fma(delta, x - new_mean, *m2);
  *mean = new_mean;
  *n += 1;
}

/* shifted sums of a strided run: s1 = sum(x - k), s2 = sum((x - k)^2) */
#define DEF_VAR_RUN(NAME, T, LD)                                                                                \
  static inline void NAME##_run(const char *in, int64_t s, int64_t n, double k, double *s1, double *s2) {      \
    double a1 = 0, a2 = 0, b1 = 0, b2 = 0;                                                                      \
    int64_t i = 0;                                                                                              \
    for (; i + 2 <= n; i += 2) {                                                                                \
      double d0 = LD(*(const T *)(in + i * s)) - k, d1 = LD(*(const T *)(in + (i + 1) * s)) - k;                \
      a1 += d0, a2 += d0 * d0, b1 += d1, b2 += d1 * d1;                                                         \
    }                                                                                                           \
    if (i < n) {                                                                                                \
      double d0 = LD(*(const T *)(in + i * s)) - k;                                                             \
      a1 += d0, a2 += d0 * d0;                                                                                  \
    }                                                                                                           \
    *s1 = a1 + b1, *s2 = a2 + b2;                                                                               \
  }
DEF_VAR_RUN(f16, uint16_t, CT_LD_F16)
DEF_VAR_RUN(bf16, uint16_t, CT_LD_BF16)
DEF_VAR_RUN(g32, float, CT_LD_ID)
DEF_VAR_RUN(g64, double, CT_LD_ID)

/* float32 / float64 contiguous runs: double lanes */
CT_KERNEL_CLONES static void f32_run(const char *in, int64_t s, int64_t n, double k, double *s1, double *s2) {
  if (s != 4 || n < 32) {
    g32_run(in, s, n, k, s1, s2);
    return;
  }
  const float *x = (const float *)in;
  ct_v8d kk, p0 = {0}, p1 = {0}, q0 = {0}, q1 = {0};
  for (int j = 0; j < 8; j++) kk[j] = k;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    ct_v8d d0 = __builtin_convertvector(ct_ld8f(x + i), ct_v8d) - kk;
    ct_v8d d1 = __builtin_convertvector(ct_ld8f(x + i + 8), ct_v8d) - kk;
    p0 += d0, q0 += d0 * d0, p1 += d1, q1 += d1 * d1;
  }
  double t1, t2;
  g32_run((const char *)(x + i), 4, n - i, k, &t1, &t2);
  *s1 = ct_hsum8d(p0 + p1) + t1;
  *s2 = ct_hsum8d(q0 + q1) + t2;
}
CT_KERNEL_CLONES static void f64_run(const char *in, int64_t s, int64_t n, double k, double *s1, double *s2) {
  if (s != 8 || n < 32) {
    g64_run(in, s, n, k, s1, s2);
    return;
  }
  const double *x = (const double *)in;
  ct_v8d kk, p0 = {0}, p1 = {0}, q0 = {0}, q1 = {0};
  for (int j = 0; j < 8; j++) kk[j] = k;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    ct_v8d d0 = ct_ld8d(x + i) - kk, d1 = ct_ld8d(x + i + 8) - kk;
    p0 += d0, q0 += d0 * d0, p1 += d1, q1 += d1 * d1;
  }
  double t1, t2;
  g64_run((const char *)(x + i), 8, n - i, k, &t1, &t2);
  *s1 = ct_hsum8d(p0 + p1) + t1;
  *s2 = ct_hsum8d(q0 + q1) + t2;
}

#define VAR_OUTER_COLS 1024
#define DEF_VAR_LOOPS(NAME, T, LD, RUN)                                                                         \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    if (n <= 0) return;                                                                                         \
    var_acc *a = acc;                                                                                           \
    double k = LD(*(const T *)in), s1, s2;                                                                      \
    RUN(in, s, n, k, &s1, &s2);                                                                                 \
    if (!isfinite(s1) || !isfinite(s2)) {                                                                       \
      for (int64_t i = 0; i < n; i++) welford(&a->n, &a->mean, &a->m2, LD(*(const T *)(in + i * s)));          \
      return;                                                                                                   \
    }                                                                                                           \
    chan(&a->n, &a->mean, &a->m2, (double)n, k + s1 / (double)n, s2 - s1 * (s1 / (double)n));                  \
  }                                                                                                             \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,         \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                                                 \
    (void)cols, (void)idx, (void)ctx;                                                                                       \
    if (n <= 0) return;                                                                                         \
    var_acc *a = acc;                                                                                           \
    double k[VAR_OUTER_COLS], p[VAR_OUTER_COLS], q[VAR_OUTER_COLS];                                             \
    for (int64_t j0 = 0; j0 < m; j0 += VAR_OUTER_COLS) {                                                        \
      int64_t mm = m - j0 < VAR_OUTER_COLS ? m - j0 : VAR_OUTER_COLS;                                           \
      const char *base = in + j0 * cs;                                                                          \
      for (int64_t j = 0; j < mm; j++) k[j] = LD(*(const T *)(base + j * cs)), p[j] = 0, q[j] = 0;              \
      for (int64_t i = 0; i < n; i++) {                                                                         \
        const char *row = base + i * rs;                                                                        \
        if (cs == (int64_t)sizeof(T)) {                                                                         \
          const T *restrict x = (const T *)row;                                                                 \
          for (int64_t j = 0; j < mm; j++) {                                                                    \
            double d = LD(x[j]) - k[j];                                                                         \
            p[j] += d, q[j] += d * d;                                                                           \
          }                                                                                                     \
        } else {                                                                                                \
          for (int64_t j = 0; j < mm; j++) {                                                                    \
            double d = LD(*(const T *)(row + j * cs)) - k[j];                                                   \
            p[j] += d, q[j] += d * d;                                                                           \
          }                                                                                                     \
        }                                                                                                       \
      }                                                                                                         \
      double dn = (double)n;                                                                                    \
      for (int64_t j = 0; j < mm; j++) {                                                                        \
        var_acc *aj = a + j0 + j;                                                                               \
        if (!isfinite(p[j]) || !isfinite(q[j])) {                                                               \
          for (int64_t i = 0; i < n; i++)                                                                       \
            welford(&aj->n, &aj->mean, &aj->m2, LD(*(const T *)(base + i * rs + j * cs)));                      \
          continue;                                                                                             \
        }                                                                                                       \
        chan(&aj->n, &aj->mean, &aj->m2, dn, k[j] + p[j] / dn, q[j] - p[j] * (p[j] / dn));                      \
      }                                                                                                         \
    }                                                                                                           \
  }
DEF_VAR_LOOPS(var_CT_FLOAT16, uint16_t, CT_LD_F16, f16_run)
DEF_VAR_LOOPS(var_CT_BFLOAT16, uint16_t, CT_LD_BF16, bf16_run)
DEF_VAR_LOOPS(var_CT_FLOAT32, float, CT_LD_ID, f32_run)
DEF_VAR_LOOPS(var_CT_FLOAT64, double, CT_LD_ID, f64_run)

/* complex: the parts rounded to the dtype PyTorch computes them in (the result's real dtype) */
static inline double part_round(double v, ct_dtype dt) {
  switch (dt) {
    case CT_FLOAT16: return ct__half_to_float(ct__float_to_half((float)v));
    case CT_BFLOAT16: return ct__bfloat16_to_float(ct__float_to_bfloat16((float)v));
    case CT_FLOAT32: return (double)(float)v;
    default: return v;
  }
}
#define DEF_CVAR(NAME, RT)                                                                                      \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx;                                                                                                  \
    if (n <= 0) return;                                                                                         \
    ct_dtype pd = ((const ct_red_ctx *)ctx)->part_dtype;                                                        \
    bool rnd = pd != CT_FLOAT64 && !(pd == CT_FLOAT32 && sizeof(RT) == 4);                                      \
    cvar_acc *a = acc;                                                                                          \
    const RT *x0 = (const RT *)in;                                                                              \
    double kr = x0[0], ki = x0[1];                                                                              \
    if (rnd) kr = part_round(kr, pd), ki = part_round(ki, pd);                                                  \
    double pr = 0, pi = 0, qr = 0, qi = 0;                                                                      \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const RT *x = (const RT *)(in + i * s);                                                                   \
      double re = x[0], im = x[1];                                                                              \
      if (rnd) re = part_round(re, pd), im = part_round(im, pd);                                                \
      double dr = re - kr, di = im - ki;                                                                        \
      pr += dr, qr += dr * dr, pi += di, qi += di * di;                                                         \
    }                                                                                                           \
    double dn = (double)n, n0 = a->n, mi0 = a->mi, m2i0 = a->m2i;                                              \
    if (isfinite(pr) && isfinite(qr)) {                                                                         \
      chan(&a->n, &a->mr, &a->m2r, dn, kr + pr / dn, qr - pr * (pr / dn));                                     \
    } else {                                                                                                    \
      for (int64_t i = 0; i < n; i++) {                                                                         \
        double re = ((const RT *)(in + i * s))[0];                                                              \
        welford(&a->n, &a->mr, &a->m2r, rnd ? part_round(re, pd) : re);                                         \
      }                                                                                                         \
    }                                                                                                           \
    if (isfinite(pi) && isfinite(qi)) {                                                                         \
      chan(&n0, &mi0, &m2i0, dn, ki + pi / dn, qi - pi * (pi / dn));                                           \
    } else {                                                                                                    \
      for (int64_t i = 0; i < n; i++) {                                                                         \
        double im = ((const RT *)(in + i * s))[1];                                                              \
        welford(&n0, &mi0, &m2i0, rnd ? part_round(im, pd) : im);                                               \
      }                                                                                                         \
    }                                                                                                           \
    a->mi = mi0, a->m2i = m2i0;                                                                                 \
  }
DEF_CVAR(var_CT_COMPLEX64, float)
DEF_CVAR(var_CT_COMPLEX128, double)

static void init_var(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, sizeof(cvar_acc));
}
static void init_var_real(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, sizeof(var_acc));
}
static void combine_var(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  var_acc *a = acc;
  const var_acc *o = b;
  chan(&a->n, &a->mean, &a->m2, o->n, o->mean, o->m2);
}
static void combine_cvar(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  cvar_acc *a = acc;
  const cvar_acc *o = b;
  double n0 = a->n, mi = a->mi, m2i = a->m2i;
  chan(&a->n, &a->mr, &a->m2r, o->n, o->mr, o->m2r);
  chan(&n0, &mi, &m2i, o->n, o->mi, o->m2i);
  a->mi = mi, a->m2i = m2i;
}

/* m2 / max(0, n - correction), as WelfordOps::project */
static double var_of(double m2, double n, int64_t correction) {
  double div = n > (double)correction ? n - (double)correction : 0.0;
  return m2 / div;
}

static void finish_var(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const var_acc *a = acc;
  double v = var_of(a->m2, a->n, c->correction);
  if (c->take_sqrt) v = sqrt(v);
  ct__red_store_f64(out[0], c->out_dtype[0], v);
}
static void finish_var_mean(char *const *out, const void *acc, const void *ctx) {
  finish_var(out, acc, ctx);
  const ct_red_ctx *c = ctx;
  const var_acc *a = acc;
  ct__red_store_f64(out[1], c->out_dtype[1], a->n == 0 ? NAN : a->mean);
}
/* complex: var(real) + var(imag) in the parts' dtype, then sqrt there (PyTorch's add_out and sqrt_out) */
static double cvar_value(const cvar_acc *a, const ct_red_ctx *c) {
  ct_dtype pd = c->part_dtype;
  double v = part_round(part_round(var_of(a->m2r, a->n, c->correction), pd) +
                            part_round(var_of(a->m2i, a->n, c->correction), pd),
                        pd);
  return c->take_sqrt ? part_round(sqrt(v), pd) : v;
}
static void finish_cvar(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  double v = cvar_value(acc, c);
  /* std into a complex out=: sqrt_out on the complex result, whose sqrt of NaN + 0j is NaN + NaNj */
  if (c->take_sqrt && v != v && ct__dt(c->out_dtype[0])->category == CT_CAT_COMPLEX)
    ct__red_store_c128(out[0], c->out_dtype[0], NAN, NAN);
  else
    ct__red_store_f64(out[0], c->out_dtype[0], v);
}
static void finish_cvar_mean(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const cvar_acc *a = acc;
  ct__red_store_f64(out[0], c->out_dtype[0], cvar_value(a, c));
  double mr = a->n == 0 ? NAN : part_round(a->mr, c->part_dtype), mi = a->n == 0 ? NAN : part_round(a->mi, c->part_dtype);
  ct__red_store_c128(out[1], c->out_dtype[1], mr, mi);
}
/* The parts' variances as two doubles (for PyTorch's whole-tensor path into non-floating outputs). */
static void finish_cvar_parts(char *const *out, const void *acc, const void *ctx) {
  const ct_red_ctx *c = ctx;
  const cvar_acc *a = acc;
  ((double *)out[0])[0] = var_of(a->m2r, a->n, c->correction);
  ((double *)out[0])[1] = var_of(a->m2i, a->n, c->correction);
}

#define K_VAR(E)                                                                                                \
  CT_RED_KERNEL var_k_##E = {sizeof(var_acc), init_var_real, var_##E##_inner, var_##E##_outer, combine_var, finish_var}; \
  CT_RED_KERNEL var_mean_k_##E = {sizeof(var_acc), init_var_real, var_##E##_inner, var_##E##_outer, combine_var,  \
                                  finish_var_mean};
K_VAR(CT_FLOAT16)
K_VAR(CT_BFLOAT16)
K_VAR(CT_FLOAT32)
K_VAR(CT_FLOAT64)
#define K_CVAR(E)                                                                                               \
  CT_RED_KERNEL var_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar};     \
  CT_RED_KERNEL var_mean_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar_mean}; \
  CT_RED_KERNEL var_parts_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar_parts};
K_CVAR(CT_COMPLEX64)
K_CVAR(CT_COMPLEX128)

static const ct_red_table var_table = {[CT_FLOAT16] = &var_k_CT_FLOAT16, [CT_BFLOAT16] = &var_k_CT_BFLOAT16,
                                       [CT_FLOAT32] = &var_k_CT_FLOAT32, [CT_FLOAT64] = &var_k_CT_FLOAT64,
                                       [CT_COMPLEX64] = &var_k_CT_COMPLEX64, [CT_COMPLEX128] = &var_k_CT_COMPLEX128};
static const ct_red_table var_mean_table = {
    [CT_FLOAT16] = &var_mean_k_CT_FLOAT16, [CT_BFLOAT16] = &var_mean_k_CT_BFLOAT16,
    [CT_FLOAT32] = &var_mean_k_CT_FLOAT32, [CT_FLOAT64] = &var_mean_k_CT_FLOAT64,
    [CT_COMPLEX64] = &var_mean_k_CT_COMPLEX64, [CT_COMPLEX128] = &var_mean_k_CT_COMPLEX128};

/* ======== entry points ======== */

static const ct_var_opts no_opts;

static ct_dtype real_of(ct_dtype d) {
  return d == CT_COMPLEX64 ? CT_FLOAT32 : d == CT_COMPLEX128 ? CT_FLOAT64 : d;
}
static bool is_floating(ct_dtype d) { return ct__dt(d)->category == CT_CAT_FLOAT; }

static bool parse_correction(const char *fn, const ct_var_opts *o, int64_t *corr) {
  switch ((int)o->correction.kind) {
    case 0: *corr = 1; return true;
    case CT_SCALAR_INT: *corr = o->correction.v.i; return true;
    default:
      ct__error(CT_ERR_TYPE, "%s(): argument 'correction' must be int, not %s", fn,
                o->correction.kind == CT_SCALAR_BOOL ? "bool" : o->correction.kind == CT_SCALAR_DOUBLE ? "float" : "complex");
      return false;
  }
}

/* ---- the whole-tensor path (PyTorch's std_var_all_cpu): mean = self.mean() as a value of self's dtype,
   then the sum of ((double)x - mean)^2 in double, divided by max(0, n - correction) ---- */
#define LD8_F32(p) __builtin_convertvector(ct_ld8f(p), ct_v8d)
#define LD8_F64(p) ct_ld8d(p)
#define DEF_DEV2(NAME, T, LD8)                                                                                       \
  CT_KERNEL_CLONES static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx,        \
                                            const void *ctx) {                                                  \
    (void)idx;                                                                                                  \
    double m = ((const ct_red_ctx *)ctx)->p;                                                                    \
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                                      \
    int64_t k = 0;                                                                                              \
    if (s == (int64_t)sizeof(T)) {                                                                              \
      const T *x = (const T *)in;                                                                               \
      ct_v8d mm, v0 = {0}, v1 = {0};                                                                            \
      for (int j = 0; j < 8; j++) mm[j] = m;                                                                    \
      for (; k + 16 <= n; k += 16) {                                                                            \
        ct_v8d d0 = LD8(x + k) - mm, d1 = LD8(x + k + 8) - mm;                                                  \
        v0 += d0 * d0, v1 += d1 * d1;                                                                           \
      }                                                                                                         \
      a0 = ct_hsum8d(v0 + v1);                                                                                  \
    }                                                                                                           \
    for (; k + 2 <= n; k += 2) {                                                                                \
      double d0 = (double)*(const T *)(in + k * s) - m, d1 = (double)*(const T *)(in + (k + 1) * s) - m;        \
      a1 += d0 * d0, a2 += d1 * d1;                                                                             \
    }                                                                                                           \
    if (k < n) {                                                                                                \
      double d = (double)*(const T *)(in + k * s) - m;                                                          \
      a3 += d * d;                                                                                              \
    }                                                                                                           \
    *(double *)acc += a0 + (a1 + a2) + a3;                                                                      \
  }
DEF_DEV2(dev2_f32, float, LD8_F32)
DEF_DEV2(dev2_f64, double, LD8_F64)
static void init_z8(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(double *)acc = 0;
}
static void combine_z8(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(double *)acc += *(const double *)b;
}
static void finish_z8(char *const *out, const void *acc, const void *ctx) {
  (void)ctx;
  *(double *)out[0] = *(const double *)acc;
}
static const ct_red_kernel dev2_k_f32 = {8, init_z8, dev2_f32_inner, NULL, combine_z8, finish_z8};
static const ct_red_kernel dev2_k_f64 = {8, init_z8, dev2_f64_inner, NULL, combine_z8, finish_z8};

/* One reduction of every element of x into a 0-dim scratch tensor of dtype dt; the value as a double. */
static ct_status reduce_all_value(const ct_tensor *x, const ct_red_kernel *k, ct_dtype dt, double p, double *value) {
  ct_tensor *tmp = ct__empty(0, NULL, dt, CT_DEVICE_CPU);
  if (!tmp) return CT_ERR_OUT_OF_MEMORY;
  ct_red_call c = {.in = x, .kdtype = (ct_dtype)x->dtype, .n_out = 1, .out = {tmp}, .out_dtype = {dt}, .k = k};
  c.ctx.count = x->numel;
  c.ctx.p = p;
  ct_status s = ct__red_mask(x, CT_SHAPE_SCALAR, &c.mask) ? ct__red_exec(&c, NULL) : ct__null_status();
  if (s == CT_OK) *value = dt == CT_FLOAT32 ? (double)*(const float *)ct__tdata(tmp) : *(const double *)ct__tdata(tmp);
  ct_release(tmp);
  return s;
}

/* float32: the mean and M2 of the one-pass kernel above (double, fixed chunks), into a 0-dim complex128
   scratch (real: mean, imaginary: M2) */
static void finish_raw(char *const *out, const void *acc, const void *ctx) {
  (void)ctx;
  const var_acc *a = acc;
  ((double *)out[0])[0] = a->mean;
  ((double *)out[0])[1] = a->m2;
}

/* float32 in one pass: PyTorch's sum of (x - m)^2 around its float32 mean m is M2 + n (mean - m)^2, with
   mean and M2 exact to double precision; half the memory traffic of two passes. PyTorch's m is its
   float32 cascade mean, which can differ from the exact mean rounded to float by the float sum's
   rounding error. That changes n (mean - m)^2 by at most n (2 |d| + err) err, with d the distance to
   the rounded mean and err a bound on that error ((64 + log2 n) float epsilons of the mean of |x|,
   which is at most the root mean square). Where that bound is not far below float32 precision of the
   result (nearly equal values, whose tiny variance is mostly this term), *m2 and *mean are returned
   for var_two_pass to add the term with PyTorch's own float mean (*precise false). *done is false where
   the two passes are needed: non-finite values, or sums near float's overflow. */
static ct_status var_one_pass_f32(const ct_tensor *x, double *ss, double *mean, double *m2, bool *precise,
                                  bool *done) {
  ct_red_kernel k = *var_table[CT_FLOAT32];
  k.finish = finish_raw;
  ct_tensor *tmp = ct__empty(0, NULL, CT_COMPLEX128, CT_DEVICE_CPU);
  if (!tmp) return CT_ERR_OUT_OF_MEMORY;
  ct_red_call c = {.in = x, .kdtype = CT_FLOAT32, .n_out = 1, .out = {tmp}, .out_dtype = {CT_COMPLEX128}, .k = &k};
  c.ctx.count = x->numel;
  ct_status s = ct__red_mask(x, CT_SHAPE_SCALAR, &c.mask) ? ct__red_exec(&c, NULL) : ct__null_status();
  *done = *precise = false;
  if (s == CT_OK) {
    const double *r = (const double *)ct__tdata(tmp), n = (double)x->numel;
    double d = r[0] - (double)(float)r[0];
    *mean = r[0], *m2 = r[1];
    *ss = r[1] + n * d * d;
    double rms = sqrt((r[1] + n * r[0] * r[0]) / n), err = (64.0 + log2(n)) * 0x1p-24 * rms;
    /* sum |x| <= sqrt(n sum x^2): far from float's range, PyTorch's float32 mean cannot overflow */
    *done = isfinite(*ss) && n * rms < 1e37;
    *precise = n * (2.0 * fabs(d) + err) * err <= 1e-8 * *ss;
  }
  ct_release(tmp);
  return s;
}

static ct_status var_two_pass(const ct_tensor *x, int64_t corr, double *var) {
  ct_dtype dt = (ct_dtype)x->dtype;
  double mean = 0, ss = 0, exact_mean = 0, m2 = 0;
  bool done = false, precise = false;
  ct_status s = dt == CT_FLOAT32 ? var_one_pass_f32(x, &ss, &exact_mean, &m2, &precise, &done) : CT_OK;
  if (s == CT_OK && (!done || !precise))
    s = reduce_all_value(x, ct__red_cascade_kernel(CT_RED_MEAN, dt), dt, 0, &mean);
  if (s == CT_OK && done && !precise) {
    double d = exact_mean - mean;
    ss = m2 + (double)x->numel * d * d;
  } else if (s == CT_OK && !done) {
    s = reduce_all_value(x, dt == CT_FLOAT32 ? &dev2_k_f32 : &dev2_k_f64, CT_FLOAT64, mean, &ss);
  }
  if (s != CT_OK) return s;
  double div = (double)x->numel - (double)corr;
  *var = ss / (div > 0 ? div : 0.0);
  return CT_OK;
}

/* The real or imaginary part of a complex tensor as a real view (not registered anywhere). */
static ct_tensor *part_view(const ct_tensor *t, int part) {
  int64_t st[64];
  for (int64_t i = 0; i < t->ndim; i++) st[i] = t->strides[i] * 2;
  return ct__tensor_make(t->storage, (ct_dtype)t->dtype == CT_COMPLEX64 ? CT_FLOAT32 : CT_FLOAT64, t->offset * 2 + part,
                         t->ndim, t->sizes, st);
}

/* PyTorch's whole-tensor path: the value computed as above (complex inputs: per part, then added in the
   result's real dtype), then fill_ (a checked conversion) into the result. */
static ct_status var_all_fill(ct_red_call *c, bool cplx, ct_tensor *out, ct_tensor **res) {
  ct_dtype od = c->out_dtype[0], rd = real_of(od);
  ct_dtype in_real = real_of((ct_dtype)c->in->dtype);
  if (in_real != CT_FLOAT32 && in_real != CT_FLOAT64) {
    ct__error(CT_ERR_RUNTIME, "std_var_all: Unsupported dtype %s", ct__dt(in_real)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  double parts[2] = {0, 0};
  if (c->in->device_type != CT_META) {
    if (!cplx) {
      ct_status s = var_two_pass(c->in, c->ctx.correction, &parts[0]);
      if (s != CT_OK) return s;
    } else {
      for (int q = 0; q < 2; q++) {
        ct_tensor *v = part_view(c->in, q);
        if (!v) return CT_ERR_OUT_OF_MEMORY;
        ct_status s = var_two_pass(v, c->ctx.correction, &parts[q]);
        ct_release(v);
        if (s != CT_OK) return s;
      }
    }
  }
  /* std_var_all_cpu rounds to float when self (a part, for complex) is float32 */
  bool single = in_real == CT_FLOAT32;
  ct_scalar value;
  if (!cplx) {
    double x = c->ctx.take_sqrt ? sqrt(parts[0]) : parts[0];
    if (single) x = (double)(float)x;
    value = ct_scalar_double(x);
    if (!ct__scalar_fits(value, od)) return CT_ERR_RUNTIME;
  } else {
    /* var(real) and var(imag) each filled into the real dtype, added there, then sqrt */
    ct_scalar pr = ct_scalar_double(single ? (double)(float)parts[0] : parts[0]);
    ct_scalar pi = ct_scalar_double(single ? (double)(float)parts[1] : parts[1]);
    if (!ct__scalar_fits(pr, rd) || !ct__scalar_fits(pi, rd)) return CT_ERR_RUNTIME;
    if (ct__dt(rd)->category <= CT_CAT_INT) {
      if (c->ctx.take_sqrt) {
        ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                  ct__dt(ct_get_default_dtype())->scalar_name, ct__dt(od)->scalar_name);
        return CT_ERR_RUNTIME;
      }
      if (rd == CT_BOOL) {
        value = ct_scalar_bool(parts[0] != 0 || parts[1] != 0);
      } else {
        char a[8], b[8];
        ct__store_scalar(rd, a, pr);
        ct__store_scalar(rd, b, pi);
        value = ct_scalar_int(ct__load_scalar(rd, a).v.i + ct__load_scalar(rd, b).v.i);
      }
    } else {
      double x = part_round(part_round(pr.v.d, rd) + part_round(pi.v.d, rd), rd);
      if (c->ctx.take_sqrt) x = part_round(sqrt(x), rd);
      value = ct_scalar_double(x);
      if (c->ctx.take_sqrt && x != x && ct__dt(od)->category == CT_CAT_COMPLEX) value = ct_scalar_complex(NAN, NAN);
    }
  }
  /* the output, resized like any reduction result */
  ct_red_call f = *c;
  f.fill = true;
  f.fill_value = value;
  f.out[0] = out;
  return ct__red_exec(&f, res);
}

typedef enum { VAR, STD } var_kind;

static ct_status var_like(var_kind kind, ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts, ct_tensor **res) {
  if (res) *res = NULL;
  if (!t || (!res && !out)) return ct__null_status();
  const ct_var_opts *o = opts ? opts : &no_opts;
  const char *fn = kind == STD ? "std" : "var";
  if (out && (t->device_type == CT_META || out->device_type == CT_META)) { /* the dispatcher, first */
    ct__error_no_meta_kernel(kind == STD ? "aten::std.correction_out" : "aten::var.correction_out");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  ct_dtype in = (ct_dtype)t->dtype;
  bool cplx = ct__dt(in)->category == CT_CAT_COMPLEX;
  if (!is_floating(in) && !cplx) {
    ct__error(CT_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
    return CT_ERR_RUNTIME;
  }
  ct_red_call c = {.in = t, .keepdim = o->keepdim, .n_out = 1, .out = {out}};
  if (!parse_correction(fn, o, &c.ctx.correction)) return ct__null_status();
  if (!ct__red_mask_1pass(t, o->dims, &c.mask)) return ct__null_status();
  ct_dtype od = out ? (ct_dtype)out->dtype : real_of(in), rd = cplx ? real_of(od) : od;
  c.out_dtype[0] = od;
  c.ctx.take_sqrt = kind == STD;
  c.ctx.part_dtype = rd;
  if (t->numel == 0 && !ct__scalar_fits(ct_scalar_double(NAN), rd)) return CT_ERR_RUNTIME; /* fill_ checks */
  if (cplx && kind == STD) { /* PyTorch's sqrt_out(result, result) after adding the parts */
    if (t->numel == 0 && ct__dt(od)->category <= CT_CAT_INT) {
      ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                ct__dt(ct_get_default_dtype())->scalar_name, ct__dt(od)->scalar_name);
      return CT_ERR_RUNTIME;
    }
    if (od == CT_FLOAT16) {
      ct__red_not_implemented("sqrt_vml_cpu", od);
      return CT_ERR_RUNTIME;
    }
  }
  if (t->numel == 0) { /* NaN (std of complex into a complex out=: NaN + NaNj, see finish_cvar) */
    c.fill = true;
    c.fill_value = cplx && kind == STD && ct__dt(od)->category == CT_CAT_COMPLEX ? ct_scalar_complex(NAN, NAN)
                                                                                 : ct_scalar_double(NAN);
    return ct__red_exec(&c, res);
  }
  int64_t shape[64];
  int64_t nd = ct__red_shape(t, c.mask, o->keepdim, shape), outn = 1;
  for (int64_t i = 0; i < nd; i++) outn *= shape[i];
  if (outn <= 1 && rd != CT_FLOAT16 && rd != CT_BFLOAT16) return var_all_fill(&c, cplx, out, res);
  if (!is_floating(rd)) {
    ct__red_not_implemented("std_cpu", rd);
    return CT_ERR_RUNTIME;
  }
  c.kdtype = cplx ? in : rd; /* complex: the parts round to rd inside the kernel */
  c.k = var_table[c.kdtype];
  return ct__red_exec(&c, res);
}

static ct_status var_mean_like(var_kind kind, const ct_tensor *t, const ct_var_opts *opts, ct_tensor **rv,
                               ct_tensor **rm) {
  if (rv) *rv = NULL;
  if (rm) *rm = NULL;
  if (!t) return ct__null_status();
  const ct_var_opts *o = opts ? opts : &no_opts;
  const char *fn = kind == STD ? "std_mean" : "var_mean";
  ct_dtype in = (ct_dtype)t->dtype;
  bool cplx = ct__dt(in)->category == CT_CAT_COMPLEX;
  if (!is_floating(in) && !cplx) {
    ct__error(CT_ERR_RUNTIME, "%s only support floating point and complex dtypes", fn);
    return CT_ERR_RUNTIME;
  }
  ct_red_call c = {.in = t, .kdtype = in, .keepdim = o->keepdim, .n_out = 2, .out_dtype = {real_of(in), in}};
  if (!parse_correction(fn, o, &c.ctx.correction)) return ct__null_status();
  if (!ct__red_mask_1pass(t, o->dims, &c.mask)) return ct__null_status();
  c.ctx.take_sqrt = kind == STD;
  c.ctx.part_dtype = real_of(in);
  c.k = var_mean_table[in];
  return ct__red_exec2(&c, rv, rm);
}

ct_tensor *ct_var(const ct_tensor *t, const ct_var_opts *opts) {
  ct_tensor *r = NULL;
  var_like(VAR, NULL, t, opts, &r);
  return r;
}
ct_status ct_var_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts) {
  if (!out) return ct__null_status();
  return var_like(VAR, out, t, opts, NULL);
}
ct_tensor *ct_std(const ct_tensor *t, const ct_var_opts *opts) {
  ct_tensor *r = NULL;
  var_like(STD, NULL, t, opts, &r);
  return r;
}
ct_status ct_std_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts) {
  if (!out) return ct__null_status();
  return var_like(STD, out, t, opts, NULL);
}
ct_status ct_var_mean(const ct_tensor *t, const ct_var_opts *opts, ct_tensor **var, ct_tensor **mean) {
  return var_mean_like(VAR, t, opts, var, mean);
}
ct_status ct_std_mean(const ct_tensor *t, const ct_var_opts *opts, ct_tensor **std, ct_tensor **mean) {
  return var_mean_like(STD, t, opts, std, mean);
}
