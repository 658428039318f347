/* torch.eye, arange, linspace and logspace, bit for bit with PyTorch 1.13's CPU kernels.

   arange and linspace run in ATen's AVX2 kernel (RangeFactoriesKernel.cpp), which produces elements
   in chunks of two 32-byte vectors: the first element of each vector comes from the scalar formula,
   the others from Vectorized<T>::arange(base, step) = base + k*step; the remainder after the last
   full chunk uses the scalar formula. That file is compiled with FMA contraction, so `a + b*c`
   rounds once where the compiler fused it: always in the scalar formula, in the lanes only for some
   types (float32/float64 arange, uint8 linspace). Which ones was settled by comparing thousands of
   random ranges against torch 1.13 element by element; tests/unit/test_create_range.c keeps cases
   that tell each choice apart. logspace lives in RangeFactories.cpp, compiled without FMA, and is a
   plain loop. Parallel chunks only start past 32768 elements, so the single-threaded pattern is
   PyTorch's on one thread.

   torch compat (kernels/cpu/torch_compat.h): the chunks and their lanes (VEC_CHUNKS) and the fused
   scalar formulas (CT_COMPAT_FMA) reproduce that build; with the switch off every element takes the
   scalar formula, start + step * i rounded twice (linspace: from end for the upper half, as torch). */
#include <complex.h>
#include <math.h>

#include "core/elem.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/create_internal.h"

/* Whether a range runs in torch's AVX2 chunks of two vectors (else element by element). */
#define VEC_CHUNKS CT_TORCH_COMPAT

/* ---- shared helpers ---- */

/* A contiguous 1-D tensor of n elements without requires_grad (applied by the caller at the end). */
static ct_tensor *range_result(int64_t n, const ct_resolved_opts *o) {
  ct_resolved_opts plain = *o;
  plain.requires_grad = false;
  plain.memory_format = CT_MEMORY_FORMAT_UNSET;
  return ct__empty_with((ct_shape){&n, 1}, &plain);
}

static ct_tensor *not_implemented(const char *op, ct_dtype dt) {
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", op, ct_dtype_scalar_name(dt));
  return NULL;
}

/* float16 / bfloat16 arithmetic as c10::Half / c10::BFloat16 do it: compute in float, round each result. */
static inline uint16_t h_round(float x, bool bf) { return bf ? ct__float_to_bfloat16(x) : ct__float_to_half(x); }
static inline float h_float(uint16_t x, bool bf) { return bf ? ct__bfloat16_to_float(x) : ct__half_to_float(x); }

/* double -> integer as a C++ static_cast compiles on x86: 64-bit conversion for int64, 32-bit
   (cvttsd2si) for the narrower types, then truncation. NaN/out of range give INT_MIN of the width. */
static int64_t double_to_int_x86(double v, ct_dtype dt) {
  return dt == CT_INT64 ? ct__f64_to_i64(v) : ct__f64_to_i32(v);
}

/* Elements per 32-byte vector of a dtype (c10's Vectorized<T>::size() under AVX2). */
static int64_t vec_width(ct_dtype dt) { return 32 / (int64_t)ct__itemsize(dt); }

/* Integer outputs are produced as int64 in blocks and narrowed by the cast core (two's-complement
   truncation, as the kernels' stores do). */
#define CT_BLOCK 256
typedef struct {
  char *out;
  ct_dtype dt;
  int64_t buf[CT_BLOCK], n, done;
} int_sink;

static void sink_flush(int_sink *s) {
  ct__cast_n(s->out + s->done * (int64_t)ct__itemsize(s->dt), s->dt, s->buf, CT_INT64, s->n);
  s->done += s->n;
  s->n = 0;
}
static inline void sink_put(int_sink *s, int64_t v) {
  s->buf[s->n++] = v;
  if (s->n == CT_BLOCK) sink_flush(s);
}

/* A Python number converted with Scalar::to<T> for the dtype's value: checked, then stored. */
static bool scalar_as(ct_scalar v, ct_dtype dt, void *out) {
  if (!ct__scalar_fits(v, dt)) return false;
  ct__store_scalar(dt, out, v);
  return true;
}

static bool is_integral_scalar(ct_scalar s) { return s.kind == CT_SCALAR_BOOL || s.kind == CT_SCALAR_INT; }

/* ---- eye ---- */

static ct_status eye_cpu_run(ct_tensor *t, const void *args) {
  (void)args;
  if (t->numel == 0) return CT_OK; /* (0, 2^63 - 1) has a stride of 2^63 - 1: no step */
  ct__zero_storage(t);
  char *d = ct__tdata(t);
  ct_dtype dt = (ct_dtype)t->dtype;
  int64_t step = (t->strides[0] + t->strides[1]) * (int64_t)ct__itemsize(dt);
  int64_t k = t->sizes[0] < t->sizes[1] ? t->sizes[0] : t->sizes[1];
  for (int64_t i = 0; i < k; i++) ct__store_scalar(dt, d + i * step, ct_scalar_int(1));
  return CT_OK;
}
static const ct_fill_kernel eye_cpu = {eye_cpu_run};
/* torch's eye makes empty({0}) first, whose sparse-compressed check prints that size */
static const ct_create_op eye_op = {
    {CT_CREATE_OP("eye", "aten::eye.m_out", &eye_cpu), .grad = CT_OP_GRAD_NONE}, CT_FACTORY_EMPTY};
static const int64_t empty_zero_size[1] = {0};
#define EMPTY_ZERO ((ct_shape){empty_zero_size, 1})

static ct_tensor *eye_impl(int64_t n, int64_t m, const ct_resolved_opts *o) {
  if (n < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "n must be greater or equal to 0, got %lld", (long long)n);
  if (m < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "m must be greater or equal to 0, got %lld", (long long)m);
  /* PyTorch's CPU kernel has no bfloat16 instance (its meta kernel has no such limit) */
  if (o->dtype == CT_BFLOAT16 && o->device.type != CT_META)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "\"eye\" not implemented for 'BFloat16'");
  ct_resolved_opts plain = *o;
  plain.requires_grad = false;
  int64_t shape[2] = {n, m};
  ct_tensor *t = ct__empty_with((ct_shape){shape, 2}, &plain);
  if (!t) return NULL;
  ct__fill_run(&eye_op.op, t, NULL);
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct_eye_m(int64_t n, int64_t m, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&eye_op, opts, ct_get_default_dtype(), EMPTY_ZERO, &o)) return NULL;
  return ct__own(eye_impl(n, m, &o));
}

ct_tensor *ct_eye(int64_t n, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&eye_op, opts, ct_get_default_dtype(), EMPTY_ZERO, &o)) return NULL;
  return ct__own(eye_impl(n, n, &o));
}

/* ---- arange ---- */

/* Floating arange kernels. start/step are the accumulate type (double for float32/float64, float for
   float16/bfloat16); a vector's base (W lanes: torch's Vectorized<T> width) is rounded to the output type
   before its lanes are built. */
#define ARANGE_KERNEL(NAME, T, W)                                                         \
  static void NAME(T *o, int64_t n, double start, double step) {                          \
    const int64_t w = W;                                                                  \
    int64_t i = 0;                                                                        \
    for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)                                      \
      for (int64_t j = i; j < i + 2 * w; j += w) {                                        \
        T base = (T)fma(step, (double)j, start);                                          \
        for (int64_t k = 0; k < w; k++) o[j + k] = (T)fma((double)k, step, (double)base); \
      }                                                                                   \
    for (; i < n; i++) o[i] = (T)CT_COMPAT_FMA(step, (double)i, start);                   \
  }
ARANGE_KERNEL(arange_f32, float, 8)
ARANGE_KERNEL(arange_f64, double, 4)

static void arange_f16(uint16_t *o, int64_t n, float start, float step, bool bf) {
  const int64_t w = 16;
  int64_t i = 0;
  for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)
    for (int64_t j = i; j < i + 2 * w; j += w) {
      float base = h_float(h_round(fmaf(step, (float)j, start), bf), bf);
      for (int64_t k = 0; k < w; k++) o[j + k] = h_round(base + (float)k * step, bf); /* not fused */
    }
  for (; i < n; i++) o[i] = h_round(CT_COMPAT_FMAF(step, (float)i, start), bf);
}

/* arange's accscalar_t: at::acc_type<scalar_t, false> (the traits' acc_dtype). The CPU kernel only runs
   for real types; meta tensors of the others (bool, complex) still convert start/end/step: in int64 for
   bool as for the integers, in the complex accumulator's real type (double) for complex. */
static ct_dtype arange_acc_type(ct_dtype dt) {
  ct_dtype acc = (ct_dtype)ct__dt(dt)->acc_dtype;
  return ct__dt(acc)->category == CT_CAT_BOOL ? CT_INT64 : ct_dtype_to_real(acc);
}

/* start and step in the accumulate type (as double, and as int64 for the integer dtypes) */
typedef struct arange_args {
  double xs, xp;
  int64_t is, ip;
} arange_args;

static ct_status arange_cpu_run(ct_tensor *t, const void *args) {
  const arange_args *a = args;
  int64_t n = t->numel;
  ct_dtype dt = (ct_dtype)t->dtype;
  if (n == 0) return CT_OK;
  char *d = ct__tdata(t);
  switch (dt) {
    case CT_FLOAT32: arange_f32((float *)d, n, a->xs, a->xp); break;
    case CT_FLOAT64: arange_f64((double *)d, n, a->xs, a->xp); break;
    case CT_FLOAT16:
    case CT_BFLOAT16: arange_f16((uint16_t *)d, n, (float)a->xs, (float)a->xp, dt == CT_BFLOAT16); break;
    default: { /* integers: start + step * i in wrapping int64, truncated to the dtype */
      int_sink s = {.out = d, .dt = dt};
      for (int64_t i = 0; i < n; i++)
        sink_put(&s, (int64_t)((uint64_t)a->is + (uint64_t)a->ip * (uint64_t)i));
      sink_flush(&s);
    }
  }
  return CT_OK;
}
static const ct_fill_kernel arange_cpu = {arange_cpu_run};
/* torch's arange makes empty({0}) first, then runs arange.start_out */
static const ct_create_op arange_op = {
    {CT_CREATE_OP("arange", "aten::arange.start_out", &arange_cpu), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_EMPTY};

static ct_tensor *arange_impl(ct_scalar start, ct_scalar end, ct_scalar step, const ct_resolved_opts *ro) {
  const ct_resolved_opts o = *ro;
  ct_dtype dt = o.dtype;
  bool meta = o.device.type == CT_META;
  /* The CPU kernel is dispatched over real types only; meta tensors never reach it. */
  if (!meta && (dt == CT_BOOL || ct_dtype_is_complex(dt))) return not_implemented("arange_cpu", dt);

  ct_dtype acc = arange_acc_type(dt);
  double xs, xe, xp;            /* start, end, step in the accumulate type, held as double */
  int64_t is = 0, ie = 0, ip = 0; /* the same for the int64 accumulate type */
  if (acc == CT_INT64) {
    if (!scalar_as(start, acc, &is) || !scalar_as(end, acc, &ie) || !scalar_as(step, acc, &ip)) return NULL;
    xs = (double)is, xe = (double)ie, xp = (double)ip;
  } else if (acc == CT_FLOAT32) {
    float fs, fe, fp;
    if (!scalar_as(start, acc, &fs) || !scalar_as(end, acc, &fe) || !scalar_as(step, acc, &fp)) return NULL;
    xs = fs, xe = fe, xp = fp;
  } else {
    if (!scalar_as(start, acc, &xs) || !scalar_as(end, acc, &xe) || !scalar_as(step, acc, &xp)) return NULL;
  }
  if (acc == CT_INT64 ? ip == 0 : !(xp > 0 || xp < 0)) return CT_ERR_NULL(CT_ERR_RUNTIME, "step must be nonzero");
  if (!isfinite(xs) || !isfinite(xe))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "unsupported range: %g -> %g", xs, xe); /* ostream prints like %g */
  bool up = acc == CT_INT64 ? ip > 0 : xp > 0;
  bool ok = acc == CT_INT64 ? (up ? ie >= is : ie <= is) : (up ? xe >= xs : xe <= xs);
  if (!ok) return CT_ERR_NULL(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");

  double size_d;
  if (dt == CT_INT64) {
    /* int64 keeps integer precision: (end - start + step - sign) / step, wrapping like the C++ */
    int64_t sgn = ip > 0 ? 1 : -1;
    int64_t num = (int64_t)((uint64_t)ie - (uint64_t)is + (uint64_t)ip - (uint64_t)sgn);
    size_d = (num == INT64_MIN && ip == -1) ? 9223372036854775808.0 : (double)(num / ip);
  } else {
    size_d = ceil((ct__scalar_to_double(end) - ct__scalar_to_double(start)) / ct__scalar_to_double(step));
  }
  if (!(size_d >= 0 && size_d <= (double)INT64_MAX))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "invalid size, possible overflow?");
  /* (double)INT64_MAX is 2^63, so a size of 2^63 passes that check; PyTorch's cast of it to int64 gives
     INT64_MIN (x86), which the SymInt sizes then refuse. Same message, without the undefined cast. */
  if (size_d >= 9223372036854775808.0)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "IntArrayRef contains an int that cannot be represented as a SymInt: %lld", (long long)INT64_MIN);
  int64_t n = (int64_t)size_d;

  ct_tensor *t = range_result(n, &o);
  if (!t) return NULL;
  const arange_args a = {xs, xp, is, ip};
  ct__fill_run(&arange_op.op, t, &a);
  return ct__finish_requires_grad(t, o.requires_grad);
}

static ct_tensor *arange_enter(ct_scalar start, ct_scalar end, ct_scalar step, const ct_tensor_opts *opts) {
  if (!ct__check_scalar(start) || !ct__check_scalar(end) || !ct__check_scalar(step)) return NULL;
  bool integral = is_integral_scalar(start) && is_integral_scalar(end) && is_integral_scalar(step);
  ct_resolved_opts o;
  if (!ct__factory_enter(&arange_op, opts, integral ? CT_INT64 : ct_get_default_dtype(), EMPTY_ZERO, &o))
    return NULL;
  return ct__own(arange_impl(start, end, step, &o));
}

ct_tensor *ct_arange(ct_scalar start, ct_scalar end, ct_scalar step, const ct_tensor_opts *opts) {
  return arange_enter(start, end, step, opts);
}

/* torch.arange(end): start 0 and step 1, Python ints. */
ct_tensor *ct_arange_end(ct_scalar end, const ct_tensor_opts *opts) {
  return arange_enter(ct_scalar_int(0), end, ct_scalar_int(1), opts);
}

/* ---- linspace ---- */

/* Elements i < steps/2 count up from start, the rest down from end, so both ends are exact; a vector's
   W lanes (torch's Vectorized<T> width) add k * step to its base, not fused. */
#define LINSPACE_KERNEL(NAME, T, FMA, W)                                                           \
  static void NAME(T *o, int64_t n, T start, T end) {                                              \
    const T step = (end - start) / (T)(n - 1);                                                     \
    const int64_t half = n / 2, w = W;                                                             \
    int64_t i = 0;                                                                                 \
    for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)                                               \
      for (int64_t j = i; j < i + 2 * w; j += w) {                                                 \
        T base = j < half ? FMA(step, (T)j, start) : FMA(-step, (T)(n - j - 1), end);              \
        for (int64_t k = 0; k < w; k++) o[j + k] = base + (T)k * step;                             \
      }                                                                                            \
    for (; i < n; i++) o[i] = i < half ? FMA(step, (T)i, start) : FMA(-step, (T)(n - i - 1), end); \
  }
LINSPACE_KERNEL(linspace_f32, float, CT_COMPAT_FMAF, 8)
LINSPACE_KERNEL(linspace_f64, double, CT_COMPAT_FMA, 4)

/* float16/bfloat16: every operation rounds to the 16-bit type, integers included (Half(i)). */
static void linspace_f16(uint16_t *o, int64_t n, uint16_t start, uint16_t end, bool bf) {
#define H(x) h_round((x), bf)
#define F(x) h_float((x), bf)
#define HI(i) H((float)(i))
  const uint16_t step = H(F(H(F(end) - F(start))) / F(HI(n - 1)));
  const int64_t half = n / 2, w = 16;
#define CT_LIN_H(i) ((i) < half ? H(F(start) + F(H(F(step) * F(HI(i))))) : H(F(end) - F(H(F(step) * F(HI(n - (i)-1))))))
  int64_t i = 0;
  for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)
    for (int64_t j = i; j < i + 2 * w; j += w) {
      uint16_t base = CT_LIN_H(j);
      for (int64_t k = 0; k < w; k++) o[j + k] = H(F(base) + F(H(F(HI(k)) * F(step))));
    }
  for (; i < n; i++) o[i] = CT_LIN_H(i);
#undef CT_LIN_H
#undef HI
#undef F
#undef H
}

/* An element of an integer dtype, widened exactly. */
/* Integers step in double; a vector's base is converted to the integer type before its lanes. */
static void linspace_int(char *o, ct_dtype dt, int64_t n, int64_t start, int64_t end) {
  const double step = ((double)end - (double)start) / (double)(n - 1);
  const int64_t half = n / 2, w = vec_width(dt);
#define CT_LIN_I(i)                                             \
  ((i) < half ? CT_COMPAT_FMA(step, (double)(i), (double)start) \
              : CT_COMPAT_FMA(-step, (double)(n - (i)-1), (double)end))
  int_sink s = {.out = o, .dt = dt};
  int64_t i = 0;
  for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)
    for (int64_t j = i; j < i + 2 * w; j += w) {
      int64_t base = ct__elem_round_i64(dt, double_to_int_x86(CT_LIN_I(j), dt));
      for (int64_t k = 0; k < w; k++) {
        /* lanes: Vectorized<int*>::arange is not fused; the generic uint8 one is */
        double v = dt == CT_UINT8 ? fma((double)k, step, (double)base) : (double)base + (double)k * step;
        sink_put(&s, double_to_int_x86(v, dt));
      }
    }
  for (; i < n; i++) sink_put(&s, double_to_int_x86(CT_LIN_I(i), dt));
  sink_flush(&s);
#undef CT_LIN_I
}

/* Complex: the scalar formula is fused per component; a lane is base + complex(k) * step, a complex
   product (k + 0i)(step) rounded per component before the add. */
#define CT_LINSPACE_COMPLEX(NAME, T, R, FMA, W)                                            \
  static T NAME##_at(int64_t i, int64_t n, T start, T end, T step) {                       \
    if (i < n / 2) return (T){FMA(step.re, (R)i, start.re), FMA(step.im, (R)i, start.im)}; \
    R k = (R)(n - i - 1);                                                                  \
    return (T){FMA(-step.re, k, end.re), FMA(-step.im, k, end.im)};                        \
  }                                                                                        \
  static void NAME(T *o, int64_t n, T start, T end) {                                      \
    const T step = {(end.re - start.re) / (R)(n - 1), (end.im - start.im) / (R)(n - 1)};   \
    const int64_t w = W;                                                                   \
    int64_t i = 0;                                                                         \
    for (; VEC_CHUNKS && i + 2 * w <= n; i += 2 * w)                                       \
      for (int64_t j = i; j < i + 2 * w; j += w) {                                         \
        T base = NAME##_at(j, n, start, end, step);                                        \
        o[j] = base;                                                                       \
        o[j + 1] = (T){base.re + step.re, base.im + step.im};                              \
        for (int64_t k = 2; k < w; k++) {                                                  \
          R pre = (R)k * step.re - (R)0 * step.im, pim = (R)k * step.im + (R)0 * step.re;  \
          o[j + k] = (T){base.re + pre, base.im + pim};                                    \
        }                                                                                  \
      }                                                                                    \
    for (; i < n; i++) o[i] = NAME##_at(i, n, start, end, step);                           \
  }
CT_LINSPACE_COMPLEX(linspace_c64, ct_complex64, float, CT_COMPAT_FMAF, 4)
CT_LINSPACE_COMPLEX(linspace_c128, ct_complex128, double, CT_COMPAT_FMA, 2)

/* linspace/logspace dtype inference (complex endpoints need a complex dtype) and the entry guard (torch makes
   empty({steps}) first). */
static bool infer_space_dtype(const ct_create_op *op, ct_scalar start, ct_scalar end, int64_t steps,
                              const ct_tensor_opts *opts, const char *fn, ct_resolved_opts *o) {
  bool cplx = start.kind == CT_SCALAR_COMPLEX || end.kind == CT_SCALAR_COMPLEX;
  ct_dtype def_complex = ct_get_default_dtype() == CT_FLOAT64 ? CT_COMPLEX128 : CT_COMPLEX64;
  if (!ct__factory_enter(op, opts, cplx ? def_complex : ct_get_default_dtype(), (ct_shape){&steps, 1}, o))
    return false;
  if (cplx && !ct_dtype_is_complex(o->dtype)) {
    ct__error(CT_ERR_RUNTIME, "%s: inferred dtype %s can't be safely cast to passed dtype %s", fn,
              ct__dtype_cpp_name(def_complex), ct_dtype_scalar_name(o->dtype));
    return false;
  }
  return true;
}

/* steps == 1 fills with one value through fill_ (checked conversion). */
static bool fill_checked(ct_tensor *t, ct_scalar v) {
  return ct__scalar_fits(v, (ct_dtype)t->dtype) && ct__fill(t, v) == CT_OK;
}

typedef struct space_args {
  ct_scalar start, end;
  double base; /* logspace */
} space_args;

static ct_status linspace_cpu_run(ct_tensor *t, const void *args) {
  const space_args *a = args;
  ct_scalar start = a->start, end = a->end;
  int64_t steps = t->numel;
  ct_dtype dt = (ct_dtype)t->dtype;
  bool ok = true;
  if (steps == 1) {
    ok = fill_checked(t, start);
  } else if (steps > 1) {
    union {
      float f;
      double d;
      uint16_t h;
      int64_t i;
      ct_complex64 c64;
      ct_complex128 c128;
    } s, e;
    ok = dt != CT_BOOL || (not_implemented("linspace_cpu", dt), false);
    if (ok && ct__dt(dt)->category == CT_CAT_INT) {
      /* start/end become the integer type first (Scalar::to<T>), then widen to int64 exactly */
      ok = scalar_as(start, dt, &s) && scalar_as(end, dt, &e);
      if (ok) s.i = ct__elem_load_i64(dt, &s), e.i = ct__elem_load_i64(dt, &e);
    } else if (ok) {
      ok = scalar_as(start, dt, &s) && scalar_as(end, dt, &e);
    }
    if (ok) {
      char *d = ct__tdata(t);
      switch (dt) {
        case CT_FLOAT32: linspace_f32((float *)d, steps, s.f, e.f); break;
        case CT_FLOAT64: linspace_f64((double *)d, steps, s.d, e.d); break;
        case CT_FLOAT16:
        case CT_BFLOAT16: linspace_f16((uint16_t *)d, steps, s.h, e.h, dt == CT_BFLOAT16); break;
        case CT_COMPLEX64: linspace_c64((ct_complex64 *)d, steps, s.c64, e.c64); break;
        case CT_COMPLEX128: linspace_c128((ct_complex128 *)d, steps, s.c128, e.c128); break;
        default: linspace_int(d, dt, steps, s.i, e.i);
      }
    }
  }
  return ok ? CT_OK : ct_last_error();
}
static const ct_fill_kernel linspace_cpu = {linspace_cpu_run};
static const ct_create_op linspace_op = {
    {CT_CREATE_OP("linspace", "aten::linspace.out", &linspace_cpu), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_EMPTY};

/* linspace and logspace: the result of `steps` elements, filled by the op's kernel */
static ct_tensor *space_impl(const ct_create_op *op, const space_args *a, int64_t steps,
                             const ct_resolved_opts *o) {
  ct_tensor *t = range_result(steps, o);
  if (!t) return NULL;
  if (ct__fill_run(&op->op, t, a) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct__linspace_with(ct_scalar start, ct_scalar end, int64_t steps, const ct_resolved_opts *o) {
  return space_impl(&linspace_op, &(space_args){start, end, 0.0}, steps, o);
}

ct_tensor *ct_linspace(ct_scalar start, ct_scalar end, int64_t steps, const ct_tensor_opts *opts) {
  if (!ct__check_scalar(start) || !ct__check_scalar(end)) return NULL;
  if (steps < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "number of steps must be non-negative");
  ct_resolved_opts o;
  if (!infer_space_dtype(&linspace_op, start, end, steps, opts, "torch.linspace()", &o)) return NULL;
  return ct__own(space_impl(&linspace_op, &(space_args){start, end, 0.0}, steps, &o));
}

/* ---- logspace ---- */

/* Real dtypes: exponents in double from the endpoints converted to the dtype, pow, then the store. */
static bool logspace_real(ct_tensor *t, ct_scalar start, ct_scalar end, int64_t n, double base) {
  ct_dtype dt = (ct_dtype)t->dtype;
  union {
    float f;
    double d;
    uint16_t h;
    int64_t i;
    ct_complex128 any; /* room for an element of any dtype */
  } s, e;
  if (!scalar_as(start, dt, &s) || !scalar_as(end, dt, &e)) return false;
  double ds, de, diff;
  switch (dt) {
    case CT_FLOAT32: ds = s.f, de = e.f, diff = (float)(e.f - s.f); break;
    case CT_FLOAT64: ds = s.d, de = e.d, diff = e.d - s.d; break;
    case CT_BFLOAT16: /* BFloat16 - BFloat16 rounds to bfloat16 */
      ds = ct__bfloat16_to_float(s.h), de = ct__bfloat16_to_float(e.h);
      diff = ct__bfloat16_to_float(ct__float_to_bfloat16((float)(de - ds)));
      break;
    default: {
      int64_t si = ct__elem_load_i64(dt, &s), ei = ct__elem_load_i64(dt, &e);
      ds = (double)si, de = (double)ei;
      /* int64 and int32 subtract in their own width (wrapping); narrower types promote to int */
      if (dt == CT_INT64) diff = (double)(int64_t)((uint64_t)ei - (uint64_t)si);
      else if (dt == CT_INT32) diff = (double)(int32_t)((uint32_t)ei - (uint32_t)si);
      else diff = (double)(ei - si);
    }
  }
  const double step = diff / (double)(n - 1);
  const int64_t half = n / 2;
  char *d = ct__tdata(t);
  size_t isz = ct__itemsize(dt);
  for (int64_t i = 0; i < n; i++) {
    double x = i < half ? ds + step * (double)i : de - step * (double)(n - i - 1);
    ct__elem_store_f64(dt, d + i * (int64_t)isz, pow(base, x)); /* static_cast<scalar_t> */
  }
  return true;
}

/* Complex dtypes: c10::complex arithmetic (its division formula, no FMA) and glibc's cpow. */
#define CT_LOGSPACE_COMPLEX(NAME, T, R, CT, CPOW)                                                 \
  static void NAME(T *o, int64_t n, T s, T e, double base) {                                     \
    const R c = (R)(n - 1), den = c * c + (R)0 * (R)0, a = e.re - s.re, b = e.im - s.im;         \
    const T step = {(a * c + b * (R)0) / den, (b * c - a * (R)0) / den};                         \
    const int64_t half = n / 2;                                                                  \
    const CT cb = (R)base;                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                            \
      R k = (R)(i < half ? i : n - i - 1);                                                       \
      R pre = step.re * k - step.im * (R)0, pim = step.re * (R)0 + step.im * k;                  \
      T x = i < half ? (T){s.re + pre, s.im + pim} : (T){e.re - pre, e.im - pim};                \
      CT v = CPOW(cb, x.re + x.im * I);                                                          \
      o[i] = (T){creal(v), cimag(v)};                                                            \
    }                                                                                            \
  }
CT_LOGSPACE_COMPLEX(logspace_c64, ct_complex64, float, float complex, cpowf)
CT_LOGSPACE_COMPLEX(logspace_c128, ct_complex128, double, double complex, cpow)

/* base ** start for a single step: std::pow(double, complex<double>) in libstdc++ is the polar form
   for a positive base, cpow otherwise. */
static ct_scalar pow_base_complex(double base, ct_scalar start) {
  double re = start.kind == CT_SCALAR_COMPLEX ? start.v.c.re : ct__scalar_to_double(start);
  double im = start.kind == CT_SCALAR_COMPLEX ? start.v.c.im : 0.0;
  if (base > 0) {
    double rho = pow(base, re), theta = im * log(base);
    return ct_scalar_complex(rho * cos(theta), rho * sin(theta));
  }
  double complex v = cpow(base + 0.0 * I, re + im * I);
  return ct_scalar_complex(creal(v), cimag(v));
}

static ct_status logspace_cpu_run(ct_tensor *t, const void *args) {
  const space_args *a = args;
  ct_scalar start = a->start, end = a->end;
  double base = a->base;
  int64_t steps = t->numel;
  ct_dtype dt = (ct_dtype)t->dtype;
  bool ok = true, cplx = ct_dtype_is_complex(dt);
  if (steps == 1) {
    ct_scalar v = cplx ? pow_base_complex(base, start) : ct_scalar_double(pow(base, ct__scalar_to_double(start)));
    ok = fill_checked(t, v);
  } else if (steps > 1) {
    if (dt == CT_BOOL || dt == CT_FLOAT16) {
      ok = (not_implemented("logspace_cpu", dt), false);
    } else if (cplx) {
      union {
        ct_complex64 c64;
        ct_complex128 c128;
      } s, e;
      ok = scalar_as(start, dt, &s) && scalar_as(end, dt, &e);
      if (ok && dt == CT_COMPLEX64) logspace_c64((ct_complex64 *)ct__tdata(t), steps, s.c64, e.c64, base);
      if (ok && dt == CT_COMPLEX128) logspace_c128((ct_complex128 *)ct__tdata(t), steps, s.c128, e.c128, base);
    } else {
      ok = logspace_real(t, start, end, steps, base);
    }
  }
  return ok ? CT_OK : ct_last_error();
}
static const ct_fill_kernel logspace_cpu = {logspace_cpu_run};
static const ct_create_op logspace_op = {
    {CT_CREATE_OP("logspace", "aten::logspace.out", &logspace_cpu), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_EMPTY};

ct_tensor *ct_logspace(ct_scalar start, ct_scalar end, int64_t steps, double base,
                       const ct_tensor_opts *opts) {
  if (!ct__check_scalar(start) || !ct__check_scalar(end)) return NULL;
  if (steps < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "number of steps must be non-negative");
  ct_resolved_opts o;
  if (!infer_space_dtype(&logspace_op, start, end, steps, opts, "torch.logspace()", &o)) return NULL;
  return ct__own(space_impl(&logspace_op, &(space_args){start, end, base}, steps, &o));
}
