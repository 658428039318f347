/* var, std, var_mean, std_mean, with PyTorch 1.13's algorithms, so that results equal its bits at one
   thread: over dims (and var_mean always) WelfordOps in double, element by element in the iterator's
   order (a sequential kernel per output; many outputs side by side in vector lanes); a whole-tensor
   var/std of float32/float64 std_var_all_cpu's two passes (its mean, then the sum of squared deviations
   one term after the other). Complex inputs: the real and imaginary parts each the same way, their
   variances added in the result's real dtype, as PyTorch computes var(real) + var(imag). */
#include "core/out_wrapper.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/reduce/red.h"
#include "ops/view_internal.h"

typedef struct var_acc {
  double n, mean, m2;
} var_acc;
typedef struct cvar_acc {
  double n, mr, mi, m2r, m2i;
} cvar_acc;

/* acc <- acc merged with the run (n, mean, m2): combine, which the sequential kernels never call */
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
   compiles it: torch compat, kernels/cpu/torch_compat.h; rounded twice with the switch off) */
static inline void welford(double *n, double *mean, double *m2, double x) {
  double delta = x - *mean;
  double new_mean = *mean + delta / (*n + 1);
  *m2 = CT_COMPAT_FMA(delta, x - new_mean, *m2);
  *mean = new_mean;
  *n += 1;
}

/* ---- real inputs: WelfordOps as binary_kernel_reduce runs it at one thread, each output's elements one
   by one in the iterator's order (the driver's sequential kernels), in double:
     delta = x - mean; mean += delta / n; m2 = fma(delta, x - mean, m2)
   (PyTorch's `m2 + delta * new_delta`, fused as its AVX2 build compiles it). Each step needs the last,
   so a line is a chain of divisions; many outputs run side by side in vector lanes (several vectors in
   flight), which is where the speed comes from: the same operations per lane, so the same bits. ---- */
#define VAR_AVX2 CT_ISA_X86
/* the lanes' form of welford()'s fused step (torch compat) */
#if CT_TORCH_COMPAT
#define VAR_FMADD(a, b, c) _mm256_fmadd_pd(a, b, c)
#else
#define VAR_FMADD(a, b, c) _mm256_add_pd(_mm256_mul_pd(a, b), c)
#endif
static bool have_avx2_fma(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }

/* lanes of one vector pass: VAR_VECS vectors of 4 doubles */
#define VAR_VECS 4
#define VAR_LANES (4 * VAR_VECS)

/* gather 4 lanes: element at p + l * st for l < 4 */
#define VLD4(LD, T, p, st) \
  _mm256_set_pd(LD(*(const T *)((p) + 3 * (st))), LD(*(const T *)((p) + 2 * (st))), LD(*(const T *)((p) + (st))), \
                LD(*(const T *)(p)))
#define VLD4_F32(p) _mm256_cvtps_pd(_mm_loadu_ps((const float *)(p)))
#define VLD4_F64(p) _mm256_loadu_pd((const double *)(p))

/* NAME_lanes: acc[l] (l < L <= VAR_LANES, at acc + l * sizeof(var_acc)) <- Welford over n elements each,
   element i of lane l at in + l * ls + i * is; CONTIG_LD4: a vector load of 4 lanes when ls is the
   element size (NULL-like 0 when there is none). */
#define DEF_WELFORD_SCALAR(NAME, T, LD)                                                                    \
  static void NAME##_scalar(var_acc *a, const char *in, int64_t is, int64_t n) {                                \
    for (int64_t i = 0; i < n; i++) welford(&a->n, &a->mean, &a->m2, LD(*(const T *)(in + i * is)));           \
  }
#if VAR_AVX2
#include <immintrin.h> /* declares every intrinsic; CT_TARGET_AVX2 enables them */
#define VAR_TARGET CT_TARGET_AVX2
VAR_TARGET static inline __m256d wf_f32_ld4(const char *p) { return VLD4_F32(p); }
VAR_TARGET static inline __m256d wf_f64_ld4(const char *p) { return VLD4_F64(p); }
VAR_TARGET static inline __m256d wf_f16_ld4(const char *p) { return VLD4(CT_LD_F16, uint16_t, p, 2); }
VAR_TARGET static inline __m256d wf_bf16_ld4(const char *p) { return VLD4(CT_LD_BF16, uint16_t, p, 2); }
#define DEF_WELFORD_VEC(NAME, T, LD, CONTIG_LD4)                                                             \
  VAR_TARGET static void NAME##_vec(var_acc *a, const char *in, int64_t ls, int64_t is, int64_t n, int nv) { \
    __m256d cnt[VAR_VECS], mean[VAR_VECS], m2[VAR_VECS];                                                     \
    const __m256d one = _mm256_set1_pd(1.0);                                                                 \
    for (int v = 0; v < nv; v++) {                                                                           \
      var_acc *b = a + 4 * v;                                                                                \
      cnt[v] = _mm256_set_pd(b[3].n, b[2].n, b[1].n, b[0].n);                                                \
      mean[v] = _mm256_set_pd(b[3].mean, b[2].mean, b[1].mean, b[0].mean);                                   \
      m2[v] = _mm256_set_pd(b[3].m2, b[2].m2, b[1].m2, b[0].m2);                                             \
    }                                                                                                        \
    const bool contig = CONTIG_LD4 && ls == (int64_t)sizeof(T);                                              \
    for (int64_t i = 0; i < n; i++) {                                                                        \
      const char *row = in + i * is;                                                                         \
      for (int v = 0; v < nv; v++) {                                                                         \
        const char *p = row + 4 * v * ls;                                                                    \
        __m256d x = contig ? NAME##_ld4(p) : VLD4(LD, T, p, ls);                                             \
        __m256d nf = _mm256_add_pd(cnt[v], one);                                                             \
        __m256d delta = _mm256_sub_pd(x, mean[v]);                                                           \
        __m256d nm = _mm256_add_pd(mean[v], _mm256_div_pd(delta, nf));                                       \
        m2[v] = VAR_FMADD(delta, _mm256_sub_pd(x, nm), m2[v]);                                               \
        mean[v] = nm, cnt[v] = nf;                                                                           \
      }                                                                                                      \
    }                                                                                                        \
    for (int v = 0; v < nv; v++) {                                                                           \
      double c[4], mu[4], q[4];                                                                              \
      _mm256_storeu_pd(c, cnt[v]), _mm256_storeu_pd(mu, mean[v]), _mm256_storeu_pd(q, m2[v]);                \
      for (int l = 0; l < 4; l++) a[4 * v + l] = (var_acc){c[l], mu[l], q[l]};                               \
    }                                                                                                        \
  }
#else /* no AVX2 build: the same steps lane by lane */
#define DEF_WELFORD_VEC(NAME, T, LD, CONTIG_LD4)                                                               \
  static void NAME##_vec(var_acc *a, const char *in, int64_t ls, int64_t is, int64_t n, int nv) {               \
    for (int l = 0; l < 4 * nv; l++) NAME##_scalar(a + l, in + l * ls, is, n);                                  \
  }
#endif
#define DEF_WELFORD(NAME, T, LD, CONTIG_LD4)                                                                    \
  DEF_WELFORD_SCALAR(NAME, T, LD)                                                                               \
  DEF_WELFORD_VEC(NAME, T, LD, CONTIG_LD4)                                                                      \
  static void NAME##_lanes(var_acc *a, const char *in, int64_t ls, int64_t is, int64_t L, int64_t n) {          \
    int64_t l = 0;                                                                                              \
    if (VAR_AVX2 && have_avx2_fma())                                                                            \
      for (; l + 4 <= L; l += 4 * VAR_VECS) {                                                                   \
        int nv = (int)((L - l) / 4 < VAR_VECS ? (L - l) / 4 : VAR_VECS);                                        \
        NAME##_vec(a + l, in + l * ls, ls, is, n, nv);                                                          \
        if (nv < VAR_VECS) {                                                                                    \
          l += 4 * nv;                                                                                          \
          break;                                                                                                \
        }                                                                                                       \
      }                                                                                                         \
    for (; l < L; l++) NAME##_scalar(a + l, in + l * ls, is, n);                                                \
  }                                                                                                             \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx, (void)ctx;                                                                                       \
    NAME##_scalar(acc, in, s, n);                                                                               \
  }                                                                                                             \
  static void NAME##_inner_run(void *acc, const char *in, int64_t cs, int64_t m, int64_t s, int64_t n,         \
                               const void *ctx) {                                                               \
    (void)ctx;                                                                                                  \
    NAME##_lanes(acc, in, cs, s, m, n);                                                                         \
  }                                                                                                             \
  static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,             \
                           int64_t idx, const ct_red_cols *cols, const void *ctx) {                             \
    (void)idx, (void)cols, (void)ctx;                                                                           \
    var_acc *a = acc;                                                                                           \
    for (int64_t j = 0; j < m; j += VAR_LANES) /* a block of columns over every row */                        \
      NAME##_lanes(a + j, in + j * cs, cs, rs, m - j < VAR_LANES ? m - j : VAR_LANES, n);                       \
  }
DEF_WELFORD(wf_f16, uint16_t, CT_LD_F16, 0)
DEF_WELFORD(wf_bf16, uint16_t, CT_LD_BF16, 0)
DEF_WELFORD(wf_f32, float, CT_LD_ID, 1)
DEF_WELFORD(wf_f64, double, CT_LD_ID, 1)

/* complex: the parts rounded to the dtype PyTorch computes them in (the result's real dtype) */
static inline double part_round(double v, ct_dtype dt) { return ct__elem_round_f64(dt, v); }
/* PyTorch computes the variances of the real and imaginary parts (at::real / at::imag views) with the
   real kernel, WelfordOps element by element: the same steps per part here, the two in one pass */
#define DEF_CVAR(NAME, RT)                                                                                      \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx;                                                                                                  \
    ct_dtype pd = ((const ct_red_ctx *)ctx)->part_dtype;                                                        \
    bool rnd = pd != CT_FLOAT64 && !(pd == CT_FLOAT32 && sizeof(RT) == 4);                                      \
    cvar_acc *a = acc;                                                                                          \
    double ni = a->n;                                                                                           \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const RT *x = (const RT *)(in + i * s);                                                                   \
      double re = x[0], im = x[1];                                                                              \
      if (rnd) re = part_round(re, pd), im = part_round(im, pd);                                                \
      welford(&a->n, &a->mr, &a->m2r, re);                                                                      \
      welford(&ni, &a->mi, &a->m2i, im);                                                                        \
    }                                                                                                           \
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

/* sequential: each output front to back, never split into chunks (PyTorch's one-thread order) */
#define K_VAR(E, W)                                                                                             \
  CT_RED_KERNEL var_k_##E = {sizeof(var_acc), init_var_real, W##_inner, W##_outer, combine_var, finish_var,     \
                             true, false, W##_inner_run};                                                       \
  CT_RED_KERNEL var_mean_k_##E = {sizeof(var_acc), init_var_real, W##_inner, W##_outer, combine_var,            \
                                  finish_var_mean, true, false, W##_inner_run};
K_VAR(CT_FLOAT16, wf_f16)
K_VAR(CT_BFLOAT16, wf_bf16)
K_VAR(CT_FLOAT32, wf_f32)
K_VAR(CT_FLOAT64, wf_f64)
#define K_CVAR(E)                                                                                               \
  CT_RED_KERNEL var_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar, true};     \
  CT_RED_KERNEL var_mean_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar_mean,  \
                                  true};                                                                          \
  CT_RED_KERNEL var_parts_k_##E = {sizeof(cvar_acc), init_var, var_##E##_inner, NULL, combine_cvar, finish_cvar_parts, \
                                   true};
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

typedef enum { VAR, STD } var_kind;
/* The out= forms are torch operators of their own (var.correction_out, without a Meta kernel in torch 1.13),
   dispatched on out's device too. */
static const ct_op var_ops[2][2] = {
    [VAR] = {{CT_RED_OP("var", "aten::var.correction", &var_table)},
             {CT_RED_OP_ROWS("var", "aten::var.correction_out", &var_table, NULL)}},
    [STD] = {{CT_RED_OP("std", "aten::std.correction", &var_table)},
             {CT_RED_OP_ROWS("std", "aten::std.correction_out", &var_table, NULL)}},
};
static const ct_op var_mean_ops[2] = {
    [VAR] = {CT_RED_OP("var_mean", "aten::var_mean.correction", &var_mean_table)},
    [STD] = {CT_RED_OP("std_mean", "aten::std_mean.correction", &var_mean_table)},
};

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
   then ((double)x - mean)^2 summed in double one element after the other (ReduceOps.cpp is built for
   the baseline ISA: no fused multiply-add), a partial sum per 2-D block of its input-only iterator
   (serial_for_each hands its loop the two innermost dims at a time) added to the total, divided by
   max(0, n - correction). The driver walks the reduced dims in that iterator's order and coalesced the
   same way, a row per call, and passes each row's flat index: a block starts at multiples of its
   size (iter_block). ---- */
typedef struct dev2_acc {
  double total, local;
} dev2_acc;

/* Elements of one 2-D block of TensorIteratorConfig().add_input(x).build(): its dims ordered as
   reorder_dimensions orders them for one operand (by stride; a stride-0 dim compares as ambiguous,
   which lets a dim move past it), coalesced as coalesce_dimensions does; shape[0] * shape[1]. */
static int64_t iter_block(const ct_tensor *x) {
  int64_t nd = x->ndim, perm[64], sz[64], st[64];
  if (nd <= 1) return x->numel;
  for (int64_t i = 0; i < nd; i++) perm[i] = nd - 1 - i;
  for (int64_t i = 1; i < nd; i++) {
    int64_t d1 = i;
    for (int64_t d0 = i - 1; d0 >= 0; d0--) {
      int64_t a = perm[d0], b = perm[d1], s0 = x->strides[a], s1 = x->strides[b];
      int c = s0 == 0 || s1 == 0 ? 0 : s0 < s1 ? -1 : s0 > s1 ? 1 : x->sizes[a] > x->sizes[b] ? 1 : 0;
      if (c > 0) {
        perm[d0] = b, perm[d1] = a;
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  for (int64_t i = 0; i < nd; i++) sz[i] = x->sizes[perm[i]], st[i] = x->strides[perm[i]];
  int64_t prev = 0;
  for (int64_t d = 1; d < nd; d++) {
    if (sz[prev] == 1 || sz[d] == 1 || sz[prev] * st[prev] == st[d]) {
      if (sz[prev] == 1) st[prev] = st[d];
      sz[prev] *= sz[d];
    } else {
      prev++;
      sz[prev] = sz[d], st[prev] = st[d];
    }
  }
  return prev == 0 ? sz[0] : sz[0] * sz[1];
}
/* l + the n terms ((double)x[k] - m)^2, k < n (stride s), added one after the other */
#define DEF_DEV2_SEQ(NAME, T)                                                                                    \
  static double NAME##_seq(double l, const char *in, int64_t s, int64_t n, double m) {                          \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      double dx = (double)*(const T *)(in + k * s) - m;                                                         \
      l += dx * dx;                                                                                             \
    }                                                                                                           \
    return l;                                                                                                   \
  }
DEF_DEV2_SEQ(dev2_f32, float)
DEF_DEV2_SEQ(dev2_f64, double)

/* The same sum a block of DEV2_BLOCK terms at a time, in vector lanes, with the same result: while the
   running sum l stays in one binade [K, 2K), adding t rounds to the nearest multiple of l's ulp u, and l
   is such a multiple, so l + t rounds to l + r with r = t rounded to a multiple of u, which is
   (K + t) - K when t < K. So a block whose r sum exactly (multiples of u below 2K) to R with l + R < 2K,
   and where no t is a tie (t - r = +-u/2: the rounding would look at l's last bit) or non-finite,
   ends at l + R. Other blocks (the sum crossing into the next binade, at most once per binade, or the
   first terms, while l is small) are added one by one. */
#define DEV2_BLOCK 512
#if VAR_AVX2
#define DEF_DEV2_FAST(NAME, T, LD4)                                                                              \
  VAR_TARGET static double NAME##_fast(double l, const T *x, int64_t n, double m) {                             \
    int64_t k = 0;                                                                                              \
    const __m256d vm = _mm256_set1_pd(m), sign = _mm256_set1_pd(-0.0);                                          \
    while (k < n) {                                                                                             \
      int64_t b = n - k < DEV2_BLOCK ? n - k : DEV2_BLOCK;                                                      \
      if (b == DEV2_BLOCK && l >= 0x1p-1000 && l < INFINITY) {                                                  \
        int e;                                                                                                  \
        (void)frexp(l, &e); /* l in [2^(e-1), 2^e) */                                                           \
        const double K = ldexp(1.0, e - 1), half = ldexp(1.0, e - 54);                                          \
        const __m256d vk = _mm256_set1_pd(K), vh = _mm256_set1_pd(half);                                        \
        __m256d r0 = _mm256_setzero_pd(), r1 = r0, bad = r0;                                                    \
        for (int64_t i = k; i < k + b; i += 8) {                                                                \
          __m256d d0 = _mm256_sub_pd(LD4(x + i), vm), d1 = _mm256_sub_pd(LD4(x + i + 4), vm);                   \
          __m256d t0 = _mm256_mul_pd(d0, d0), t1 = _mm256_mul_pd(d1, d1);                                       \
          __m256d q0 = _mm256_sub_pd(_mm256_add_pd(vk, t0), vk), q1 = _mm256_sub_pd(_mm256_add_pd(vk, t1), vk); \
          __m256d e0 = _mm256_andnot_pd(sign, _mm256_sub_pd(t0, q0));                                           \
          __m256d e1 = _mm256_andnot_pd(sign, _mm256_sub_pd(t1, q1));                                           \
          /* t >= K, a tie, or NaN (unordered) */                                                              \
          bad = _mm256_or_pd(bad, _mm256_or_pd(_mm256_cmp_pd(t0, vk, _CMP_NLT_UQ), _mm256_cmp_pd(e0, vh, _CMP_EQ_OQ))); \
          bad = _mm256_or_pd(bad, _mm256_or_pd(_mm256_cmp_pd(t1, vk, _CMP_NLT_UQ), _mm256_cmp_pd(e1, vh, _CMP_EQ_OQ))); \
          r0 = _mm256_add_pd(r0, q0), r1 = _mm256_add_pd(r1, q1);                                               \
        }                                                                                                       \
        double rr[4];                                                                                           \
        _mm256_storeu_pd(rr, _mm256_add_pd(r0, r1));                                                            \
        double R = (rr[0] + rr[1]) + (rr[2] + rr[3]);                                                           \
        if (_mm256_movemask_pd(bad) == 0 && l + R < 2 * K) {                                                    \
          l += R;                                                                                               \
          k += b;                                                                                               \
          continue;                                                                                             \
        }                                                                                                       \
      }                                                                                                         \
      l = NAME##_seq(l, (const char *)(x + k), (int64_t)sizeof(T), b, m);                                       \
      k += b;                                                                                                   \
    }                                                                                                           \
    return l;                                                                                                   \
  }
DEF_DEV2_FAST(dev2_f32, float, VLD4_F32)
DEF_DEV2_FAST(dev2_f64, double, VLD4_F64)
#endif

#define DEF_DEV2(NAME, T)                                                                                        \
  static void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) {     \
    (void)idx;                                                                                                  \
    dev2_acc *a = acc;                                                                                          \
    const ct_red_ctx *c = ctx;                                                                                  \
    const double m = c->p;                                                                                      \
    if (idx != 0 && idx % c->correction == 0) { /* the next 2-D block (ctx->correction: its elements) */     \
      a->total += a->local;                                                                                     \
      a->local = 0;                                                                                             \
    }                                                                                                           \
    if (VAR_AVX2 && s == (int64_t)sizeof(T) && n >= 4 * DEV2_BLOCK && have_avx2_fma())                         \
      a->local = NAME##_fast_any(a->local, (const T *)in, n, m);                                                \
    else                                                                                                        \
      a->local = NAME##_seq(a->local, in, s, n, m);                                                             \
  }
#if VAR_AVX2
#define dev2_f32_fast_any dev2_f32_fast
#define dev2_f64_fast_any dev2_f64_fast
#else
#define dev2_f32_fast_any(l, x, n, m) dev2_f32_seq(l, (const char *)(x), 4, n, m)
#define dev2_f64_fast_any(l, x, n, m) dev2_f64_seq(l, (const char *)(x), 8, n, m)
#endif
DEF_DEV2(dev2_f32, float)
DEF_DEV2(dev2_f64, double)
static void init_dev2(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  memset(acc, 0, sizeof(dev2_acc));
}
static void finish_dev2(char *const *out, const void *acc, const void *ctx) {
  (void)ctx;
  const dev2_acc *a = acc;
  *(double *)out[0] = a->total + a->local;
}
static const ct_red_kernel dev2_k_f32 = {sizeof(dev2_acc), init_dev2, dev2_f32_inner, NULL, combine_var, finish_dev2,
                                         true};
static const ct_red_kernel dev2_k_f64 = {sizeof(dev2_acc), init_dev2, dev2_f64_inner, NULL, combine_var, finish_dev2,
                                         true};

/* One reduction of every element of x into a 0-dim scratch tensor of dtype dt; the value as a double. */
static ct_status reduce_all_value(const ct_tensor *x, const ct_red_kernel *k, ct_dtype dt, double p, double *value) {
  ct_tensor *tmp = ct__empty(0, NULL, dt, CT_DEVICE_CPU);
  if (!tmp) return CT_ERR_OUT_OF_MEMORY;
  ct_red_call c = {.in = x, .kdtype = (ct_dtype)x->dtype, .n_out = 1, .out = {tmp}, .out_dtype = {dt}, .k = k};
  c.ctx.count = x->numel;
  c.ctx.p = p;
  c.ctx.correction = iter_block(x) > 0 ? iter_block(x) : 1; /* dev2's block size */
  ct_status s = ct__red_mask(x, CT_SHAPE_SCALAR, &c.mask) ? ct__red_exec(&c, NULL) : ct__null_status();
  if (s == CT_OK) *value = dt == CT_FLOAT32 ? (double)*(const float *)ct__tdata(tmp) : *(const double *)ct__tdata(tmp);
  ct_release(tmp);
  return s;
}

/* sum_dx2 / max(0, n - correction) in double (not yet rounded to float, nor its sqrt taken) */
static ct_status var_two_pass(const ct_tensor *x, int64_t corr, double *var) {
  ct_dtype dt = (ct_dtype)x->dtype;
  double mean = 0, ss = 0;
  /* the cascade mean in one piece, as PyTorch's at one thread (not cut into fixed chunks) */
  ct_red_kernel km = *ct__red_cascade_kernel(CT_RED_MEAN, dt);
  km.sequential = true;
  ct_status s = reduce_all_value(x, &km, dt, 0, &mean);
  if (s == CT_OK) s = reduce_all_value(x, dt == CT_FLOAT32 ? &dev2_k_f32 : &dev2_k_f64, CT_FLOAT64, mean, &ss);
  if (s != CT_OK) return s;
  int64_t div;
  if (__builtin_sub_overflow(x->numel, corr, &div)) div = corr < 0 ? INT64_MAX : 0;
  *var = ss / (double)(div > 0 ? div : 0);
  return CT_OK;
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
  if (!cplx) {
    ct_status s = var_two_pass(c->in, c->ctx.correction, &parts[0]);
    if (s != CT_OK) return s;
  } else {
    for (int q = 0; q < 2; q++) {
      ct_tensor *v = ct__complex_part_view(c->in, q);
      if (!v) return CT_ERR_OUT_OF_MEMORY;
      ct_status s = var_two_pass(v, c->ctx.correction, &parts[q]);
      ct_release(v);
      if (s != CT_OK) return s;
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

/* ======== the meta device ======== */
/* The layout of var_correction's result from sum's (r: new, contiguous, in the computation dtype): sum / n
   (TensorIterator's layout, which for an empty result is not contiguous), var(real) + var(imag) for a complex
   input, std's sqrt, then a float16/bfloat16 input's .to() back; the steps run on meta tensors in a scope of
   their own. */
static ct_status var_meta_strides(var_kind kind, const ct_tensor *r, ct_dtype in, int64_t *strides) {
  ct_status s = ct_scope_begin();
  ct_tensor *n = s == CT_OK ? ct__wrapped_scalar(ct_scalar_int(1)) : NULL;
  const ct_tensor *v = n ? ct__pw_apply(&ct__pw_op_true_divide, r, n) : NULL;
  if (v && ct__dt(in)->category == CT_CAT_COMPLEX) v = ct__pw_apply(&ct__pw_op_add, v, v);
  if (v && kind == STD) v = ct__pw_apply(&ct__pw_op_sqrt, v, NULL);
  if (v && (in == CT_FLOAT16 || in == CT_BFLOAT16))
    v = ct__to_dtype_impl(v, in); /* owned by the scope already */
  if (v) memcpy(strides, v->strides, (size_t)v->ndim * sizeof(int64_t));
  s = v ? CT_OK : ct_last_error();
  ct_release(n);
  ct_scope_end();
  return s;
}

/* var.correction and std.correction: torch 1.13's Meta kernels are torch/_decomp's var_correction and
   std_decomposition (sqrt of var) under reduction_complex_to_real (a complex input: the var of its real and
   imaginary views, added). Each dim first indexes x.shape in Python (IndexError 'tuple index out of range':
   a 0-dim input takes no dim), then mean(x, dims, keepdim=True) makes its checks (its dtype message for a
   non-floating input, then a repeated dim); the result, of the reduced shape and the real dtype, is laid out
   by its steps (var_meta_strides). */
static ct_status var_meta(var_kind kind, const ct_tensor *t, const ct_var_opts *o, ct_tensor **res) {
  uint64_t mask;
  if (!ct__check_list(o->dims, "dims")) return ct__null_status();
  for (int64_t i = 0; i < o->dims.ndim; i++)
    if (o->dims.data[i] < -(int64_t)t->ndim || o->dims.data[i] >= t->ndim) {
      ct__error(CT_ERR_INDEX, "tuple index out of range");
      return CT_ERR_INDEX;
    }
  if (!ct__mean_dtype_ok((ct_dtype)t->dtype, CT_DTYPE_UNSET) || !ct__red_mask(t, o->dims, &mask))
    return ct__null_status();
  int64_t sizes[64], strides[64];
  int64_t n = ct__red_shape(t, mask, o->keepdim, sizes);
  ct_dtype in = (ct_dtype)t->dtype, dt = real_of(in);
  ct_tensor *r = ct__empty(n, sizes, dt == CT_FLOAT16 || dt == CT_BFLOAT16 ? CT_FLOAT32 : dt, ct__tdevice(t));
  if (!r) return ct_last_error();
  ct_status s = var_meta_strides(kind, r, in, strides);
  ct_release(r);
  if (s != CT_OK) return s;
  ct_resolved_opts ro = {.dtype = dt, .device = ct__tdevice(t)};
  *res = ct__own(ct__empty_strided_with(n, sizes, strides, &ro));
  return *res ? CT_OK : ct_last_error();
}

/* A result of torch/_refs' as geometry: sizes, strides, dtype. */
typedef struct ref_geom {
  int64_t nd, sizes[64], strides[64];
  ct_dtype dtype;
} ref_geom;

/* _reduction(a, prim, dims, keepdims) up to its dtype conversion: the prim's result new and contiguous
   (make_contiguous_strides_for: a 0 size counts as 1) over the dims kept, in dtype; keepdim's
   broadcast_in_dim puts stride 0 at the reduced dims. */
static void ref_reduction(const ct_tensor *t, uint64_t mask, bool keepdim, ct_dtype dtype, ref_geom *g) {
  int64_t sz[64], st[64], n = 0, mul = 1;
  for (int64_t d = 0; d < t->ndim; d++)
    if (!((mask >> d) & 1u)) sz[n++] = t->sizes[d];
  for (int64_t k = n - 1; k >= 0; k--) st[k] = mul, mul *= sz[k] ? sz[k] : 1;
  g->dtype = dtype;
  g->nd = keepdim ? t->ndim : n;
  for (int64_t d = 0, k = 0; d < g->nd; d++) {
    bool reduced = keepdim && ((mask >> d) & 1u);
    g->sizes[d] = reduced ? 1 : sz[k];
    g->strides[d] = reduced ? 0 : st[k++];
  }
}

/* times elementwise prims over g (convert_element_type, sqrt, true_divide), each laying it out again, into
   dtype */
static void ref_elementwise(ref_geom *g, int times, ct_dtype dtype) {
  for (int i = 0; i < times; i++) ct__prims_elementwise_strides_of(g->nd, g->sizes, g->strides, g->strides);
  g->dtype = dtype;
}

static ct_tensor *ref_tensor(const ref_geom *g, const ct_tensor *like) {
  ct_resolved_opts ro = {.dtype = g->dtype, .device = ct__tdevice(like)};
  return ct__empty_strided_with(g->nd, g->sizes, g->strides, &ro);
}

/* var_mean.correction and std_mean.correction: torch 1.13's Meta kernels are torch/_refs' var_mean and
   std_mean: var(a) (std(a)) then mean(a), each a _reduction over prims. set_correction's ValueError for a
   negative correction, reduction_dims' checks (ct__prims_reduction_dims), then the prims' layouts
   (ref_reduction in the computation dtype: float32 for float16 and bfloat16), which each elementwise step
   lays out again: var converts a float16/bfloat16 result back (1 step); std takes sqrt (1), in float32 for
   an integer or bool input (convert first: 2), then converts to the real input dtype where that differs (1);
   mean refuses an integer input ("result type should be floating point or complex"; bool passes), divides
   (bool: converted to float32 first), then converts back where its dtype differs. */
static ct_status var_mean_meta(var_kind kind, const ct_tensor *t, int64_t corr, bool keepdim, ct_dims dims,
                               ct_tensor **rv, ct_tensor **rm) {
  ct_dtype in = (ct_dtype)t->dtype, comp = in == CT_FLOAT16 || in == CT_BFLOAT16 ? CT_FLOAT32 : in;
  uint64_t mask;
  if (corr < 0) {
    ct__error(CT_ERR_VALUE, "correction argument should be non-negative");
    return CT_ERR_VALUE;
  }
  if (t->ndim > 64) {
    ct__error(CT_ERR_RUNTIME,
              "Received a tensor with %d dimensions, but only tensors with up to 64 dims are supported!",
              (int)t->ndim);
    return CT_ERR_RUNTIME;
  }
  if (!ct__prims_reduction_dims(t, dims, &mask)) return ct__null_status();
  bool intlike = ct__dt(in)->category <= CT_CAT_INT;
  if (intlike && in != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "result type should be floating point or complex");
    return CT_ERR_RUNTIME;
  }
  ref_geom v, m;
  ref_reduction(t, mask, keepdim, real_of(comp), &v);
  if (kind == STD) ref_elementwise(&v, (intlike ? 2 : 1) + (comp != in || intlike), real_of(in));
  else if (comp != in) ref_elementwise(&v, 1, real_of(in));
  ref_reduction(t, mask, keepdim, comp, &m);
  ref_elementwise(&m, (intlike ? 2 : 1) + (comp != in || intlike), in);
  ct_tensor *a = ref_tensor(&v, t), *b = a ? ref_tensor(&m, t) : NULL;
  if (!b) {
    ct_release(a);
    return ct_last_error();
  }
  ct_status s = CT_OK;
  ct_tensor **dst[2] = {rv, rm}, *got[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    if (!dst[i]) {
      ct_release(got[i]);
      continue;
    }
    *dst[i] = ct__own(got[i]);
    if (!*dst[i]) s = CT_ERR_OUT_OF_MEMORY;
  }
  return s;
}

static ct_status var_like(var_kind kind, ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts, ct_tensor **res) {
  const ct_var_opts *o = opts ? opts : &no_opts;
  const char *fn = kind == STD ? "std" : "var";
  ct_dtype in = (ct_dtype)t->dtype;
  bool cplx = ct__dt(in)->category == CT_CAT_COMPLEX;
  if (!out && CT__OP_ON_META(t)) /* out=: no Meta kernel, refused at entry */
    return parse_correction(fn, o, &(int64_t){0}) ? var_meta(kind, t, o, res) : ct__null_status();
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
  /* PyTorch's CPU variant for a single output (std_var_all_cpu); other devices run their row's kernel */
  if (outn <= 1 && rd != CT_FLOAT16 && rd != CT_BFLOAT16 && t->device_type == CT_CPU)
    return var_all_fill(&c, cplx, out, res);
  if (!is_floating(rd)) {
    ct__red_not_implemented("std_cpu", rd);
    return CT_ERR_RUNTIME;
  }
  c.kdtype = cplx ? in : rd; /* complex: the parts round to rd inside the kernel */
  c.k = ct__red_kernel(&var_ops[kind][out != NULL], c.kdtype, t, c.out[0]);
  return ct__red_exec(&c, res);
}

static ct_status var_mean_like(var_kind kind, const ct_tensor *t, const ct_var_opts *opts, ct_tensor **rv,
                               ct_tensor **rm) {
  const ct_var_opts *o = opts ? opts : &no_opts;
  const char *fn = kind == STD ? "std_mean" : "var_mean";
  ct_dtype in = (ct_dtype)t->dtype;
  bool cplx = ct__dt(in)->category == CT_CAT_COMPLEX;
  int64_t corr;
  if (CT__OP_ON_META(t))
    return parse_correction(fn, o, &corr) ? var_mean_meta(kind, t, corr, o->keepdim, o->dims, rv, rm)
                                          : ct__null_status();
  if (!is_floating(in) && !cplx) {
    ct__error(CT_ERR_RUNTIME, "%s only support floating point and complex dtypes", fn);
    return CT_ERR_RUNTIME;
  }
  ct_red_call c = {.in = t, .kdtype = in, .keepdim = o->keepdim, .n_out = 2, .out_dtype = {real_of(in), in}};
  if (!parse_correction(fn, o, &c.ctx.correction)) return ct__null_status();
  if (!ct__red_mask_1pass(t, o->dims, &c.mask)) return ct__null_status();
  c.ctx.take_sqrt = kind == STD;
  c.ctx.part_dtype = real_of(in);
  c.k = ct__red_kernel(&var_mean_ops[kind], in, t, c.out[0], c.out[1]);
  return ct__red_exec2(&c, rv, rm);
}

/* The out= form's guard checks out's device too (torch dispatches on every tensor argument), after
   autograd's check (its layer runs before the backend's). */
static ct_status var_out(var_kind kind, ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts) {
  const ct_op *op = &var_ops[kind][1];
  if (!CT__OP_OUT_GRAD_OK(op, out, t)) return CT_ERR_RUNTIME;
  if (!ct__op_accepts(op, t) || !ct__op_accepts(op, out)) return ct_last_error();
  return var_like(kind, out, t, opts, NULL);
}
static ct_status var_mean_api(var_kind kind, const ct_tensor *t, ct_tensor **rv, ct_tensor **rm,
                              const ct_var_opts *opts) {
  if (rv) *rv = NULL;
  if (rm) *rm = NULL;
  CT__OP_ENTER_STATUS(&var_mean_ops[kind], t, t);
  return var_mean_like(kind, t, opts, rv, rm);
}

ct_tensor *ct_var(const ct_tensor *t, const ct_var_opts *opts) {
  CT__OP_ENTER_PTR(&var_ops[VAR][0], t, t);
  ct_tensor *r = NULL;
  var_like(VAR, NULL, t, opts, &r);
  return r;
}
ct_status ct_var_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts) {
  CT__NONNULL_STATUS(out, t);
  return var_out(VAR, out, t, opts);
}
ct_tensor *ct_std(const ct_tensor *t, const ct_var_opts *opts) {
  CT__OP_ENTER_PTR(&var_ops[STD][0], t, t);
  ct_tensor *r = NULL;
  var_like(STD, NULL, t, opts, &r);
  return r;
}
ct_status ct_std_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts) {
  CT__NONNULL_STATUS(out, t);
  return var_out(STD, out, t, opts);
}
ct_status ct_var_mean(const ct_tensor *t, ct_tensor **var, ct_tensor **mean, const ct_var_opts *opts) {
  return var_mean_api(VAR, t, var, mean, opts);
}
ct_status ct_std_mean(const ct_tensor *t, ct_tensor **std, ct_tensor **mean, const ct_var_opts *opts) {
  return var_mean_api(STD, t, std, mean, opts);
}
