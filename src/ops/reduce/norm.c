/* torch.norm and torch.dist.

   torch.norm in 1.13 is Python dispatching to three ATen ops, reproduced here: the vector p-norm
   (at::norm: p = 0, 1, 2, inf, -inf or any other number, over dims, with dtype), the Frobenius norm
   (at::frobenius_norm: at::norm(p=2) over at most one dim, sqrt(sum(x * x)) over two, out= by copy)
   and the nuclear norm (at::nuclear_norm: its checks here, the rest in ops/linalg/norm_matrix.c). Accumulation
   is in double; |x| of complex values is hypot(re, im). */
#include <stdio.h>

#include "core/out_wrapper.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/convert_internal.h"
#include "ops/linalg/linalg_internal.h"
#include "ops/reduce/red.h"

typedef enum { N_ZERO, N_ONE, N_TWO, N_INF, N_NINF, N_GEN, N_TWO_LASTDIM } norm_kind;

/* PyTorch's norm kernels (NormOps and friends in SharedReduceOps.h, binary_kernel_reduce): one
   accumulator fed element by element in iteration order. Its type is the input's real type, except that
   float16 and bfloat16 accumulate in their own type (every step rounds); float `acc + x * x` is fused
   as PyTorch's AVX2 build compiles it. The kernels are sequential (each output reduced front to back),
   so they round as PyTorch does at one thread. R rounds to the accumulator type, SQ(a, v) is a + v * v. */
#define NZ_R(T, LD) (LD(*(const T *)p) != 0)
#define NZ_C(RT) (((const RT *)p)[0] != 0 || ((const RT *)p)[1] != 0)
#define R_ID(v) (v)
#define R_F16(v) ct__half_to_float(ct__float_to_half(v))
#define R_BF16(v) ct__bfloat16_to_float(ct__float_to_bfloat16(v))
/* torch compat (kernels/cpu/torch_compat.h): `acc + x * x` as GCC contracted it in torch; off, rounded twice */
#define SQ_FMAF(a, v) CT_COMPAT_FMAF(v, v, a)
#define SQ_FMA(a, v)  CT_COMPAT_FMA(v, v, a)
#define SQ_F16(a, v) R_F16((a) + R_F16((v) * (v)))
#define SQ_BF16(a, v) R_BF16((a) + R_BF16((v) * (v)))

/* A kernel's inner loop, its run form and its vertical loop over the inline line body NAME##_line: the
   vertical loop takes a row at a time into the row's accumulators, each column's elements in order as
   the line would (the same results). Clones: fmaf is one instruction where the CPU has FMA, a libm call
   in the baseline build. */
#define NORM_LOOPS(NAME)                                                                                        \
  CT_RED_DEF_INNER(NAME, 8)                                                                                   \
  CT_RED_LOOP void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs, int64_t n,       \
                                int64_t idx, const ct_red_cols *cols, const void *ctx) {                        \
    (void)cols;                                                                                                 \
    for (int64_t i = 0; i < n; i++)                                                                             \
      for (int64_t j = 0; j < m; j++) NAME##_line((char *)acc + j * 8, in + i * rs + j * cs, 0, 1, idx + i, ctx); \
  }
#define DEF_NORM(E, ACC_T, ABS, NZ, SQ, R, POW, SQRT, RPOW)                                                           \
  static inline ACC_T E##_abs(const char *p) { return (ACC_T)(ABS); }                                           \
  static inline bool E##_nz(const char *p) { return NZ; }                                                       \
  CT_VINLINE void norm0_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    ACC_T a = *(ACC_T *)acc;                                                                                    \
    for (int64_t k = 0; k < n; k++) a = R(a + (E##_nz(in + k * s) ? (ACC_T)1 : (ACC_T)0));                      \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  CT_VINLINE void norm1_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    ACC_T a = *(ACC_T *)acc;                                                                                    \
    for (int64_t k = 0; k < n; k++) a = R(a + E##_abs(in + k * s));                                             \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  CT_VINLINE void norm2_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    ACC_T a = *(ACC_T *)acc;                                                                                    \
    for (int64_t k = 0; k < n; k++) {                                                                           \
      ACC_T v = E##_abs(in + k * s);                                                                            \
      a = SQ(a, v);                                                                                             \
    }                                                                                                           \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  CT_VINLINE void norminf_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    ACC_T a = *(ACC_T *)acc;                                                                                    \
    for (int64_t k = 0; k < n && a == a; k++) {                                                                 \
      ACC_T v = E##_abs(in + k * s);                                                                            \
      if (v > a || v != v) a = v;                                                                               \
    }                                                                                                           \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  CT_VINLINE void normninf_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    ACC_T a = *(ACC_T *)acc;                                                                                    \
    for (int64_t k = 0; k < n && a == a; k++) {                                                                 \
      ACC_T v = E##_abs(in + k * s);                                                                            \
      if (v < a || v != v) a = v;                                                                               \
    }                                                                                                           \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  CT_VINLINE void normp_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx;                                                                                                  \
    ACC_T p = R((ACC_T)((const ct_red_ctx *)ctx)->p), a = *(ACC_T *)acc;                                        \
    for (int64_t k = 0; k < n; k++) a = R(a + RPOW(POW(E##_abs(in + k * s), p)));                                     \
    *(ACC_T *)acc = a;                                                                                          \
  }                                                                                                             \
  static void init_##E(void *acc, const char *aux, const void *ctx) {                                           \
    (void)aux;                                                                                                  \
    double p = ((const ct_red_ctx *)ctx)->p;                                                                    \
    memset(acc, 0, 8);                                                                                          \
    if (p == -INFINITY) *(ACC_T *)acc = (ACC_T)INFINITY;                                                        \
  }                                                                                                             \
  static void finish_##E(char *const *out, const void *acc, const void *ctx) {                                  \
    const ct_red_ctx *c = ctx;                                                                                  \
    ACC_T a = *(const ACC_T *)acc;                                                                              \
    if (c->p == 2) {                                                                                            \
      a = R(SQRT(a));                                                                                           \
    } else if (c->p != 0 && c->p != 1 && c->p != INFINITY && c->p != -INFINITY) {                               \
      ACC_T p = R((ACC_T)c->p);                                                                                 \
      a = R(POW(a, R((ACC_T)1.0 / p)));                                                                         \
    }                                                                                                           \
    ct__red_store_f64(out[0], c->out_dtype[0], (double)a);                                                      \
  }                                                                                                             \
  CT_RED_DEF_INIT_RUN(init_##E##_run, 8, init_##E)                                                              \
  CT_RED_DEF_FINISH_RUN(finish_##E##_run, 8, 1, finish_##E)                                                     \
  NORM_LOOPS(norm0_##E)                                                                                         \
  NORM_LOOPS(norm1_##E)                                                                                         \
  NORM_LOOPS(norm2_##E)                                                                                         \
  NORM_LOOPS(norminf_##E)                                                                                       \
  NORM_LOOPS(normninf_##E)                                                                                      \
  NORM_LOOPS(normp_##E)
DEF_NORM(f16, float, fabsf(ct__half_to_float(*(const uint16_t *)p)), NZ_R(uint16_t, CT_LD_F16), SQ_F16, R_F16, powf, sqrtf, R_ID)
DEF_NORM(bf16, float, fabsf(ct__bfloat16_to_float(*(const uint16_t *)p)), NZ_R(uint16_t, CT_LD_BF16), SQ_BF16, R_BF16, powf,
         sqrtf, R_BF16)
DEF_NORM(f32, float, fabsf(*(const float *)p), NZ_R(float, CT_LD_ID), SQ_FMAF, R_ID, powf, sqrtf, R_ID)
DEF_NORM(f64, double, fabs(*(const double *)p), NZ_R(double, CT_LD_ID), SQ_FMA, R_ID, pow, sqrt, R_ID)
DEF_NORM(c64, float, hypotf(((const float *)p)[0], ((const float *)p)[1]), NZ_C(float), SQ_FMAF, R_ID, powf, sqrtf, R_ID)
DEF_NORM(c128, double, hypot(((const double *)p)[0], ((const double *)p)[1]), NZ_C(double), SQ_FMA, R_ID, pow, sqrt, R_ID)

/* The 2-norm over a contiguous last dim (binary_kernel_reduce_lastdim, PyTorch 1.13's fast path for
   float32 and bfloat16 only; float64 takes NormTwoOps): AVX2 vector lanes (8 floats; bfloat16 feeds 16
   values per step into 8 float lanes; `acc_vec += data_vec * data_vec`, contracted by GCC: FMA), the
   lanes added in order, then the tail. */
#define DEF_NORM2_LASTDIM(E, T, ACC_T, LANES, PER_STEP, LD, FMA)                                              \
  CT_VINLINE void norm2ld_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx,            \
                                     const void *ctx) {                                                       \
    (void)idx, (void)ctx;                                                                                     \
    if (s != (int64_t)sizeof(T)) { /* never: the variant is chosen for contiguous runs only */                \
      norm2_##E##_line(acc, in, s, n, idx, ctx);                                                              \
      return;                                                                                                 \
    }                                                                                                         \
    const T *x = (const T *)in;                                                                               \
    ACC_T l[LANES] = {0};                                                                                     \
    int64_t d = 0;                                                                                            \
    for (; d < n - (n % PER_STEP); d += PER_STEP)                                                             \
      for (int j = 0; j < PER_STEP; j++) {                                                                    \
        ACC_T v = (ACC_T)LD(x[d + j]);                                                                        \
        l[j % LANES] = FMA(v, v, l[j % LANES]);                                                               \
      }                                                                                                       \
    ACC_T a = l[0];                                                                                           \
    for (int j = 1; j < LANES; j++) a = a + l[j];                                                             \
    /* torch compat: the tail as GCC compiled PyTorch's `buffer[0] += v * v`: four squares at once          \
       (rounded), added in order, then the rest fused; off, every square and sum rounds once */ \
    if (CT_TORCH_COMPAT && n - d >= 4) {                                                                      \
      ACC_T q[4];                                                                                             \
      for (int j = 0; j < 4; j++) q[j] = (ACC_T)LD(x[d + j]) * (ACC_T)LD(x[d + j]);                           \
      for (int j = 0; j < 4; j++) a = a + q[j];                                                               \
      d += 4;                                                                                                 \
    }                                                                                                         \
    for (; d < n; d++) {                                                                                      \
      ACC_T v = (ACC_T)LD(x[d]);                                                                              \
      a = FMA(v, v, a);                                                                                       \
    }                                                                                                         \
    *(ACC_T *)acc = a;                                                                                        \
  }                                                                                                           \
  NORM_LOOPS(norm2ld_##E)
DEF_NORM2_LASTDIM(f32, float, float, 8, 8, CT_ID, CT_COMPAT_FMAF)
DEF_NORM2_LASTDIM(bf16, uint16_t, float, 8, 16, ct__bfloat16_to_float, CT_COMPAT_FMAF)

static void combine_unused(void *acc, const void *b, const void *ctx) {
  (void)acc, (void)b, (void)ctx; /* sequential kernels are never split */
}

#define K_NORM1(E, KIND) \
  {8, init_##E, KIND##_##E##_inner, KIND##_##E##_outer, combine_unused, finish_##E, true, false, KIND##_##E##_inner_run, \
   init_##E##_run, finish_##E##_run}
#define K_NORM(E)                                                                                                 \
  CT_RED_KERNEL norm_k_##E[6] = {K_NORM1(E, norm0),   K_NORM1(E, norm1),    K_NORM1(E, norm2),                    \
                                 K_NORM1(E, norminf), K_NORM1(E, normninf), K_NORM1(E, normp)};
K_NORM(f16)
K_NORM(bf16)
K_NORM(f32)
K_NORM(f64)
K_NORM(c64)
K_NORM(c128)
/* the vectorized path: float lanes for bfloat16 too, sqrt in the lane type */
static void finish_ld_float(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_f64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], (double)sqrtf(*(const float *)acc));
}
CT_RED_DEF_FINISH_RUN(finish_ld_float_run, 8, 1, finish_ld_float)
CT_RED_KERNEL norm2ld_k_f32 = {8, init_f32, norm2ld_f32_inner, NULL, combine_unused, finish_f32, true, false,
                               norm2ld_f32_inner_run, init_f32_run, finish_f32_run};
CT_RED_KERNEL norm2ld_k_bf16 = {8,     init_f32, norm2ld_bf16_inner, NULL, combine_unused, finish_ld_float,
                                true,  false,    norm2ld_bf16_inner_run, init_f32_run, finish_ld_float_run};

static const ct_red_kernel *norm_kernel(ct_dtype dt, norm_kind k) {
  if (k == N_TWO_LASTDIM) {
    switch (dt) {
      case CT_FLOAT32: return &norm2ld_k_f32;
      case CT_BFLOAT16: return &norm2ld_k_bf16;
      default: k = N_TWO;
    }
  }
  switch (dt) {
    case CT_FLOAT16: return &norm_k_f16[k];
    case CT_BFLOAT16: return &norm_k_bf16[k];
    case CT_FLOAT32: return &norm_k_f32[k];
    case CT_FLOAT64: return &norm_k_f64[k];
    case CT_COMPLEX64: return &norm_k_c64[k];
    case CT_COMPLEX128: return &norm_k_c128[k];
    default: return NULL;
  }
}

/* ======== entry points ======== */

/* The descriptors' CPU row: each dtype's 2-norm (the other orders are its variants, norm_kernel). */
static const ct_red_table norm_cpu = {[CT_FLOAT16] = &norm_k_f16[N_TWO], [CT_BFLOAT16] = &norm_k_bf16[N_TWO],
                                      [CT_FLOAT32] = &norm_k_f32[N_TWO], [CT_FLOAT64] = &norm_k_f64[N_TWO],
                                      [CT_COMPLEX64] = &norm_k_c64[N_TWO], [CT_COMPLEX128] = &norm_k_c128[N_TWO]};
static const ct_op norm_op = {CT_RED_OP("norm", "aten::norm.ScalarOpt_dim", &norm_cpu)};
static const ct_op dist_op = {CT_RED_OP("dist", "aten::dist", &norm_cpu)};
static const ct_op vector_norm_op = {CT_RED_OP("linalg_vector_norm", "aten::linalg_vector_norm", &norm_cpu)};

static bool is_fc(ct_dtype d) { return ct__dt(d)->category >= CT_CAT_FLOAT; }
static ct_dtype real_of(ct_dtype d) {
  return d == CT_COMPLEX64 ? CT_FLOAT32 : d == CT_COMPLEX128 ? CT_FLOAT64 : d;
}

/* norm(x, +-inf) of complex x, as torch 1.13 computes it: x (converted to the compute dtype) through the
   pointwise abs kernel, then the extreme (a real x converted to a complex dtype takes the kernel's hypot). That kernel's vector rows take sqrt(re^2 + im^2) -- NaN for
   nan+inf*j, inf past sqrt of the largest float -- where its scalar rows take hypot, so the norm of a
   complex row depends on where abs vectorized it; ct_abs reproduces where. */
static ct_status copy_to_out(ct_tensor *out, ct_tensor *r);

static ct_status complex_extreme_norm(ct_red_call *c, norm_kind k, ct_tensor **res) {
  ct_dtype od = c->out_dtype[0];
  bool complex_out = ct__dt(od)->category == CT_CAT_COMPLEX, own = !c->no_own;
  ct_tensor *out = c->out[0], *r = NULL;
  if (out && !ct__red_check_out_devices(c))
    return ct_last_error(); /* resize_out's, before anything is computed */
  ct_status s = ct_scope_begin();
  if (s == CT_OK) {
    ct_tensor *x = ct__to_dtype_impl(c->in, c->kdtype);
    ct_tensor *a = x ? ct__pw_apply(&ct__pw_op_abs, x, NULL) : NULL;
    s = a ? CT_OK : ct__null_status();
    if (s == CT_OK) {
      c->in = a;
      c->kdtype = real_of(c->kdtype);
      c->k = ct__red_variant(&norm_op, a, c->out[0], c->kdtype, norm_kernel(c->kdtype, k));
      if (complex_out) { /* a real extreme, then the complex dtype asked for */
        c->out[0] = NULL;
        c->out_dtype[0] = c->kdtype;
        c->no_own = false;
        s = ct__red_exec(c, &r);
        r = s == CT_OK ? ct__to_dtype_impl(r, od) : NULL;
        if (s == CT_OK && !r) s = ct__null_status();
        if (s == CT_OK && out) s = copy_to_out(out, r);
        if (s == CT_OK && !out) *res = own ? ct_keep(r) : ct_retain(r); /* past the scope that owns x, a, r */
      } else {
        s = ct__red_exec(c, res);
        if (s == CT_OK && res && *res && own) ct_keep(*res);
      }
    }
  }
  ct_scope_end();
  return s;
}

/* at::norm(t, p, dims, keepdim, dtype) with out= (out NULL: a new result in *res, of dtype result_dtype when
   that is set: linalg's real result of a complex dtype). */
static ct_status vector_norm_as(ct_tensor *out, const ct_tensor *t, ct_scalar p, ct_dims dims, bool keepdim,
                                ct_dtype dtype, ct_dtype result_dtype, bool own, ct_tensor **res) {
  ct_dtype in = (ct_dtype)t->dtype;
  if (dtype) {
    if (!ct__check_dtype(dtype)) return ct__null_status();
    if (!is_fc(dtype)) {
      ct__error(CT_ERR_RUNTIME,
                "norm(): the desired output dtype should be either floating point or complex. Got %s instead.",
                ct__dt(dtype)->scalar_name);
      return CT_ERR_RUNTIME;
    }
  } else if (!is_fc(in)) {
    ct__error(CT_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got %s instead.",
              ct__dt(in)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_red_call c = {.in = t, .keepdim = keepdim, .n_out = 1, .out = {out}, .no_own = !own, .no_expanded_out = true};
  if (!ct__red_mask(t, dims, &c.mask)) return ct__null_status();
  ct_dtype od = out ? (ct_dtype)out->dtype : result_dtype ? result_dtype : dtype ? dtype : real_of(in);
  c.out_dtype[0] = od;
  /* complex inputs compute in dtype (or their own); real ones in the result's dtype */
  c.kdtype = ct__dt(in)->category == CT_CAT_COMPLEX ? (dtype ? dtype : in) : od;
  if (t->numel == 0) {
    c.fill = true;
    c.fill_value = ct_scalar_int(0);
    return ct__red_exec(&c, res);
  }
  if (p.kind != CT_SCALAR_INT && p.kind != CT_SCALAR_DOUBLE) {
    ct__error(CT_ERR_RUNTIME, "norm_kernel_tensor_iterator_impl expects norm to be integer or float");
    return CT_ERR_RUNTIME;
  }
  double pv = ct__scalar_to_double(p);
  norm_kind k = pv == 0 ? N_ZERO : pv == 1 ? N_ONE : pv == 2 ? N_TWO : pv == INFINITY ? N_INF : pv == -INFINITY ? N_NINF : N_GEN;
  c.ctx.p = pv;
  if (ct__dt(in)->category == CT_CAT_COMPLEX && (k == N_INF || k == N_NINF)) return complex_extreme_norm(&c, k, res);
  c.k = ct__red_variant(&norm_op, t, c.out[0], c.kdtype, norm_kernel(c.kdtype, k));
  if (k == N_TWO && c.kdtype == od && t->device_type == CT_CPU) { /* TensorIterator's is_reduce_lastdim fast path */
    const ct_red_kernel *ld = norm_kernel(c.kdtype, N_TWO_LASTDIM);
    if (ld != c.k) c.k_lastdim = ld;
  }
  if (!c.k) {
    ct__red_not_implemented("norm_cpu", c.kdtype);
    return CT_ERR_RUNTIME;
  }
  return ct__red_exec(&c, res);
}

static ct_status vector_norm(ct_tensor *out, const ct_tensor *t, ct_scalar p, ct_dims dims, bool keepdim,
                             ct_dtype dtype, bool own, ct_tensor **res) {
  return vector_norm_as(out, t, p, dims, keepdim, dtype, CT_DTYPE_UNSET, own, res);
}

/* frobenius_norm and nuclear_norm's out= forms copy a result computed on t's device: torch resizes out, then its
   copy of a meta result into an out with data fails (the same error here, out left alone). The vector norm's is
   structured: resize_out's device check (ct__red_exec). */
static bool matrix_out_ok(const ct_tensor *out, const ct_tensor *t) {
  if (!out || t->device_type != CT_META || out->device_type == CT_META) return true;
  ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  return false;
}

/* A result computed in its own dtype, then resized into out and copied (frobenius_norm's out=). */
static ct_status copy_to_out(ct_tensor *out, ct_tensor *r) {
  if (!matrix_out_ok(out, r)) return CT_ERR_NOT_IMPLEMENTED; /* before torch's resize: out left alone */
  ct_status s = CT_OK;
  if (out->ndim != r->ndim || memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) != 0)
    s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
  if (s == CT_OK) s = ct__copy_into(out, r);
  return s;
}

static ct_status frobenius(ct_tensor *out, const ct_tensor *t, ct_dims dims, bool keepdim, ct_tensor **res) {
  int64_t all[64];
  if (dims.ndim == 0) { /* every dim */
    if (t->ndim > 64) {
      ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
      return CT_ERR_RUNTIME;
    }
    for (int64_t i = 0; i < t->ndim; i++) all[i] = i;
    dims = (ct_dims){all, t->ndim};
  }
  if (dims.ndim > 2) {
    ct__error(CT_ERR_RUNTIME, "Expected at most 2 dimensions, but got %lld dimensions instead.", (long long)dims.ndim);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *r = NULL;
  ct_status s;
  if (dims.ndim <= 1) {
    s = vector_norm(NULL, t, ct_scalar_double(2.0), dims, keepdim, CT_DTYPE_UNSET, !out, &r);
  } else {
    int64_t d0 = ct__wrap_dim(dims.data[0], t->ndim);
    if (d0 < 0) return ct__null_status();
    int64_t d1 = ct__wrap_dim(dims.data[1], t->ndim);
    if (d1 < 0) return ct__null_status();
    if (d0 == d1) {
      ct__error(CT_ERR_RUNTIME, "Expected dims to be different, got [%lld, %lld] instead", (long long)dims.data[0],
                (long long)dims.data[1]);
      return CT_ERR_RUNTIME;
    }
    if (t->ndim > 64) {
      ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
      return CT_ERR_RUNTIME;
    }
    ct_dtype in = (ct_dtype)t->dtype;
    if (!is_fc(in)) {
      ct__error(CT_ERR_RUNTIME,
                "result.scalar_type() == toRealValueType(self.scalar_type()) INTERNAL ASSERT FAILED at "
                "\"./aten/src/ATen/native/LinearAlgebra.cpp\":2694, please report a bug to PyTorch. ");
      return CT_ERR_RUNTIME;
    }
    if (in == CT_FLOAT16 &&
        !CT__OP_ON_META(t, out)) { /* the CPU sqrt kernel's refusal: meta runs no kernel */
      ct__red_not_implemented("sqrt_vml_cpu", in);
      return CT_ERR_RUNTIME;
    }
    if (ct__dt(in)->category == CT_CAT_COMPLEX) {
      ct_red_call c = {.in = t,
                       .kdtype = in,
                       .keepdim = keepdim,
                       .n_out = 1,
                       .out_dtype = {real_of(in)},
                       .k = ct__red_variant(&norm_op, t, out, in, ct__red_sqrt_sumsq_kernel(in)),
                       .no_own = out != NULL};
      c.mask = ((uint64_t)1 << d0) | ((uint64_t)1 << d1);
      s = ct__red_exec(&c, &r);
    } else { /* PyTorch's at::sqrt(at::sum(self * self, dim, keepdim)), op by op: its bits */
      s = ct_scope_begin();
      if (s == CT_OK) {
        int64_t dd[2] = {d0, d1};
        ct_tensor *sq = ct__pw_apply(&ct__pw_op_mul, t, t), *sm = NULL;
        s = sq ? ct__sum_impl(NULL, sq, &(ct_reduce_opts){.dims = {dd, 2}, .keepdim = keepdim}, &sm) : ct__null_status();
        if (s == CT_OK) s = ct__pw_apply_(&ct__pw_op_sqrt, sm, NULL);
        /* past the scope: owned by the enclosing one, or a plain reference for out= */
        if (s == CT_OK) r = out ? ct_retain(sm) : ct_keep(sm);
      }
      ct_scope_end();
    }
  }
  if (s != CT_OK || !out) {
    if (res) *res = r;
    return s;
  }
  s = copy_to_out(out, r); /* r is a plain reference here */
  ct_release(r);
  return s;
}

static ct_status norm_impl(ct_tensor *out, const ct_tensor *t, const ct_norm_opts *opts, ct_tensor **res) {
  ct_norm_opts o = opts ? *opts : (ct_norm_opts){0};
  if (!ct__check_list(o.dims, "dims")) return CT_ERR_VALUE;
  /* autograd's out= rule, after torch.norm's Python-level dtype refusals: frobenius_norm and nuclear_norm
     have no derivative of their own and treat out as an in-place target; norm is differentiable */
  bool matrix = o.nuc || o.p.kind == 0;
  if (out && !(matrix && o.dtype)) {
    if (matrix ? !ct__check_inplace(out) : !CT__OUT_GRAD_OK("norm", out, t)) return CT_ERR_RUNTIME;
  }
  if (o.nuc) { /* torch.norm's Python checks, then at::nuclear_norm's */
    if (o.p.kind) {
      ct__error(CT_ERR_VALUE, "norm(): nuc and a number p cannot both be given");
      return CT_ERR_VALUE;
    }
    if (o.dtype) {
      ct__error(CT_ERR_VALUE, "dtype argument is not supported in nuclear norm");
      return CT_ERR_VALUE;
    }
    int64_t d0 = 0, d1 = 1;
    if (o.dims.ndim == 0) {
      if (t->ndim != 2) {
        ct__error(CT_ERR_RUNTIME, "Expected a tensor with 2 dimensions, but got a tensor with %lld dimension%s instead.",
                  (long long)t->ndim, t->ndim != 1 ? "s" : "");
        return CT_ERR_RUNTIME;
      }
    } else {
      if (o.dims.ndim != 2) {
        ct__error(CT_ERR_RUNTIME, "nuclear norm requires a 'dim' argument of size 2");
        return CT_ERR_RUNTIME;
      }
      d0 = ct__wrap_dim(o.dims.data[0], t->ndim);
      if (d0 < 0) return ct__null_status();
      d1 = ct__wrap_dim(o.dims.data[1], t->ndim);
      if (d1 < 0) return ct__null_status();
    }
    if (!out) return ct__la_nuclear_norm(NULL, t, d0, d1, o.keepdim, res);
    /* out= copies the result: its own errors first, then the copy's (a meta result into an out with data) */
    if (ct_scope_begin() != CT_OK) return CT_ERR_OUT_OF_MEMORY;
    ct_tensor *r = NULL;
    ct_status s = ct__la_nuclear_norm(NULL, t, d0, d1, o.keepdim, &r);
    if (s == CT_OK) s = copy_to_out(out, r);
    ct_scope_end();
    return s;
  }
  if (o.p.kind == 0) { /* 'fro' */
    if (o.dims.ndim == 0 && !out && !o.dtype)
      return vector_norm(NULL, t, ct_scalar_double(2.0), o.dims, o.keepdim, CT_DTYPE_UNSET, true, res);
    if (o.dtype) {
      ct__error(CT_ERR_VALUE, "dtype argument is not supported in frobenius norm");
      return CT_ERR_VALUE;
    }
    return frobenius(out, t, o.dims, o.keepdim, res);
  }
  return vector_norm(out, t, o.p, o.dims, o.keepdim, o.dtype, true, res);
}

ct_tensor *ct_norm(const ct_tensor *t, const ct_norm_opts *opts) {
  CT__OP_ENTER_PTR(&norm_op, t, t);
  ct_tensor *r = NULL;
  norm_impl(NULL, t, opts, &r);
  return r;
}
ct_status ct_norm_out(ct_tensor *out, const ct_tensor *t, const ct_norm_opts *opts) {
  CT__OP_ENTER_STATUS(&norm_op, t, out, t);
  ct_status s = norm_impl(out, t, opts, NULL);
  if (s == CT_OK && (!opts || opts->nuc || opts->p.kind == 0)) ct__grad_mark_out(out, &t, 1); /* frobenius_norm */
  return s;
}

ct_tensor *ct_dist(const ct_tensor *a, const ct_tensor *b, const ct_dist_opts *opts) {
  CT__OP_ENTER_PTR(&dist_op, a, a, b);
  if (!ct__op_accepts(&dist_op, b)) return NULL;
  ct_scalar p = opts && opts->p.kind ? opts->p : ct_scalar_double(2.0);
  ct_tensor *r = NULL;
  if (ct_scope_begin() == CT_OK) {
    ct_tensor *d = ct__pw_apply(&ct__pw_op_sub, a, b);
    if (d && vector_norm(NULL, d, p, CT_SHAPE_SCALAR, false, CT_DTYPE_UNSET, true, &r) == CT_OK) ct_keep(r);
  }
  ct_scope_end();
  return r;
}

/* ---- torch.linalg.vector_norm: one descriptor line (vector_norm_op above) plus what is its own: the
   checks of its meta function in torch 1.13's order and a real result for a complex dtype; the norm itself
   is norm's (torch runs the same norm_stub). ---- */

/* "inf", "-1", "0.5": how c10::Scalar prints ord (an ostream's default format) */
static void ord_text(double ord, char *buf, size_t n) { snprintf(buf, n, "%g", ord); }

bool ct__linalg_norm_dtype_ok(ct_dtype in, ct_dtype dtype, const char *api) {
  if (!dtype) return true;
  const char *dn = ct__dt(dtype)->scalar_name;
  bool cin = ct__dt(in)->category == CT_CAT_COMPLEX, cdt = ct__dt(dtype)->category == CT_CAT_COMPLEX;
  if (!is_fc(dtype)) {
    ct__error(CT_ERR_RUNTIME, "%s: dtype should be floating point or complex, but got %s", api, dn);
    return false;
  }
  if (cin != cdt) {
    ct__error(CT_ERR_RUNTIME, "%s: dtype should be %s for %s inputs, but got %s", api, cin ? "complex" : "real",
              cin ? "complex" : "real", dn);
    return false;
  }
  if (ct_promote_types(in, dtype) != dtype) {
    ct__error(CT_ERR_RUNTIME,
              "%s: the dtype of the input (%s) should be convertible without narrowing to the specified dtype (%s)",
              api, ct__dt(in)->scalar_name, dn);
    return false;
  }
  return true;
}

ct_status ct__linalg_vector_norm_impl(ct_tensor *out, const ct_tensor *t, const ct_vector_norm_opts *opts,
                                      ct_tensor **res) {
  ct_vector_norm_opts o = opts ? *opts : (ct_vector_norm_opts){0};
  ct_dtype in = (ct_dtype)t->dtype;
  if (!is_fc(in)) {
    ct__error(CT_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got %s",
              ct__dt(in)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if ((o.dtype && !ct__check_dtype(o.dtype)) || !ct__check_list(o.dims, "dims")) return ct__null_status();
  ct_scalar p = o.ord.kind ? o.ord : ct_scalar_double(2.0);
  double ord = ct__scalar_to_double(p);
  if (t->numel == 0 && (ord < 0 || ord == INFINITY)) { /* no identity */
    char txt[32];
    ord_text(ord, txt, sizeof txt);
    if (o.dims.ndim == 0) {
      ct__error(CT_ERR_RUNTIME,
                "linalg.vector_norm cannot compute the %s norm on an empty tensor because the operation does not "
                "have an identity",
                txt);
      return CT_ERR_RUNTIME;
    }
    for (int64_t i = 0; i < o.dims.ndim; i++) {
      int64_t d = ct__wrap_dim(o.dims.data[i], t->ndim);
      if (d < 0) return ct__null_status();
      if (t->sizes[d] == 0) {
        ct__error(CT_ERR_RUNTIME,
                  "linalg.vector_norm cannot compute the %s norm on the dimension %lld" /* torch's missing space */
                  "because this dimension is empty and the operation does not have an identity",
                  txt, (long long)o.dims.data[i]);
        return CT_ERR_RUNTIME;
      }
    }
  }
  if (!ct__linalg_norm_dtype_ok(in, o.dtype, "linalg.vector_norm")) return CT_ERR_RUNTIME;
  uint64_t mask; /* make_dim_mask: at::dim_list_to_bitset, one pass */
  if (!ct__red_mask_1pass(t, o.dims, &mask)) return ct__null_status();
  ct_dtype od = real_of(o.dtype ? o.dtype : in);
  if (out && !ct__resize_out_ok(out, od, ct__tdevice(t))) return CT_ERR_RUNTIME;
  return vector_norm_as(out, t, p, o.dims, o.keepdim, o.dtype, od, true, res);
}

CT_RED_DEFINE_API(linalg_vector_norm, &vector_norm_op, ct_vector_norm_opts, ct__linalg_vector_norm_impl, )
