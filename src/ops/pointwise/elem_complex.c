/* Complex parts: angle, conj, conj_physical, real, imag. */
/* GCC builds it with -fno-math-errno -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_NO_ERRNO_SOURCES). */

#include <math.h>

#include "ops/pointwise/elem_cplx.h"
#include "ops/view_internal.h"

/* ---- angle ---- */

/* torch's AVX2 complex angle calls Sleef_atan2f8_u10 / Sleef_atan2d4_u10 (the scalar tail and
   non-contiguous rows call atan2f / atan2). The same SLEEF entry points give the same bits; they need
   AVX2 (without it PyTorch runs its scalar kernels, and so do we). */
#include "kernels/cpu/sleef_x86.h"
#if CT_ISA_X86
#define CT_ANGLE_SLEEF 1
/* n (a multiple of the block) values from x (xs floats apart) to o (os floats apart, imaginary parts 0). */
CT_TARGET_AVX2 static void angle_sleef_c64(const float *x, int64_t xs, float *o, int64_t os, int64_t n) {
  for (int64_t k = 0; k < n; k += 8) {
    float re[8], im[8], r[8];
    for (int j = 0; j < 8; j++) {
      re[j] = x[(k + j) * xs];
      im[j] = x[(k + j) * xs + 1];
    }
    _mm256_storeu_ps(r, Sleef_atan2f8_u10(_mm256_loadu_ps(im), _mm256_loadu_ps(re)));
    for (int j = 0; j < 8; j++) {
      o[(k + j) * os] = r[j];
      if (os == 2) o[(k + j) * os + 1] = 0;
    }
  }
}
CT_TARGET_AVX2 static void angle_sleef_c128(const double *x, int64_t xs, double *o, int64_t os, int64_t n) {
  for (int64_t k = 0; k < n; k += 4) {
    double re[4], im[4], r[4];
    for (int j = 0; j < 4; j++) {
      re[j] = x[(k + j) * xs];
      im[j] = x[(k + j) * xs + 1];
    }
    _mm256_storeu_pd(r, Sleef_atan2d4_u10(_mm256_loadu_pd(im), _mm256_loadu_pd(re)));
    for (int j = 0; j < 4; j++) {
      o[(k + j) * os] = r[j];
      if (os == 2) o[(k + j) * os + 1] = 0;
    }
  }
}
static bool have_avx2(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }
#endif

/* OUTC 1: real result; 2: complex result (angle, 0). */
#define DEF_CANGLE(name, T, OUTC, BLOCK, SLEEF, ATAN2)                                            \
  static void name(char **d, const int64_t *s, int64_t n, const void *ctx) {                      \
    (void)ctx;                                                                                    \
    int64_t nv = 0;                                                                               \
    CT_ANGLE_VEC(nv = ct__elem_vec_count(s, (OUTC) * (int64_t)sizeof(T), 2 * (int64_t)sizeof(T), n, BLOCK); \
                 if (nv) SLEEF((const T *)d[1], s[1] / (int64_t)sizeof(T), (T *)d[0], OUTC, nv);)  \
    for (int64_t k = nv; k < n; k++) {                                                            \
      const T *x = (const T *)(d[1] + k * s[1]);                                                  \
      T *o = (T *)(d[0] + k * s[0]);                                                              \
      o[0] = ATAN2(x[1], x[0]);                                                                   \
      if ((OUTC) == 2) o[1] = 0;                                                                  \
    }                                                                                             \
  } \
  CT_LOOP_PLAIN(name)
#ifdef CT_ANGLE_SLEEF
#define CT_ANGLE_VEC(...) \
  if (have_avx2()) {      \
    __VA_ARGS__           \
  }
#else
#define CT_ANGLE_VEC(...)
#endif
DEF_CANGLE(cangle_c64, float, 1, CT_ELEM_BLOCK_C64, angle_sleef_c64, atan2f)
DEF_CANGLE(cangle_c128, double, 1, CT_ELEM_BLOCK_C128, angle_sleef_c128, atan2)
DEF_CANGLE(canglec_c64, float, 2, CT_ELEM_BLOCK_C64, angle_sleef_c64, atan2f)
DEF_CANGLE(canglec_c128, double, 2, CT_ELEM_BLOCK_C128, angle_sleef_c128, atan2)

/* Real inputs: pi for negatives, 0 otherwise; NaN stays NaN (float16 and bfloat16 through float). */
#define RANGLE(a, PI) ((a) != (a) ? (a) : (a) < 0 ? (PI) : 0)
CT_UNARY_LOOP(rangle_f32, float, float, CT_ID, float, CT_ID, RANGLE(a, (float)3.14159265358979323846))
CT_UNARY_LOOP(rangle_f64, double, double, CT_ID, double, CT_ID, RANGLE(a, 3.14159265358979323846))
static inline uint16_t angle_h(uint16_t h) {
  float a = ct__half_to_float(h);
  return a != a ? h : ct__float_to_half(a < 0 ? (float)3.14159265358979323846 : 0.0f);
}
CT_UNARY_LOOP(rangle_f16, uint16_t, uint16_t, CT_ID, uint16_t, CT_ID, angle_h(a))
static inline uint16_t angle_bf(uint16_t b) {
  float a = ct__bfloat16_to_float(b);
  return a != a ? b : ct__float_to_bfloat16(a < 0 ? (float)3.14159265358979323846 : 0.0f);
}
CT_UNARY_LOOP(rangle_bf16, uint16_t, uint16_t, CT_ID, uint16_t, CT_ID, angle_bf(a))

static const ct_loop *const angle_loops[CT_NUM_DTYPES + 1] = {
    [CT_FLOAT16] = CT_LOOP_REF(rangle_f16),     [CT_BFLOAT16] = CT_LOOP_REF(rangle_bf16),     [CT_FLOAT32] = CT_LOOP_REF(rangle_f32),
    [CT_FLOAT64] = CT_LOOP_REF(rangle_f64),     [CT_COMPLEX64] = CT_LOOP_REF(canglec_c64),    [CT_COMPLEX128] = CT_LOOP_REF(canglec_c128)};

static const ct_loop *cangle_loop(const ct_tensor *t) {
  return t->dtype == CT_COMPLEX64 ? CT_LOOP_REF(cangle_c64) : CT_LOOP_REF(cangle_c128);
}
static const ct_loop *canglec_loop(const ct_tensor *t) {
  return t->dtype == CT_COMPLEX64 ? CT_LOOP_REF(canglec_c64) : CT_LOOP_REF(canglec_c128);
}

/* Complex: ATen computes into a temporary and resizes the (empty) result to contiguous. */
/* angle's Meta kernels are torch/_meta_registrations.py's meta_angle (self.new_empty(self.size(), dtype): complex to
   real, integers and bool to the default float) and meta_angle_out (torch._resize_output_(out, self.size()), then
   out.copy_, which on meta checks no dtype). A meta out with a CPU self was refused at entry (CT_PW_DEV_OUT_SET). */
static ct_status angle_meta(ct_tensor *out, const ct_tensor *t, ct_tensor **result) {
  ct_dtype d = (ct_dtype)t->dtype;
  ct_dtype dt = ct__elem_is_complex(t)              ? ct__elem_real_dtype(d)
                : ct__dt(d)->category <= CT_CAT_INT ? ct_get_default_dtype()
                                                    : d;
  if (result) {
    *result = ct__own(ct__empty(t->ndim, t->sizes, dt, ct__tdevice(t)));
    return *result ? CT_OK : ct__elem_null();
  }
  if (ct__has_sizes(out, t->ndim, t->sizes)) return CT_OK;
  return ct__tensor_resize_ok(out, t->ndim, t->sizes) ? ct__tensor_resize(out, t->ndim, t->sizes, NULL)
                                                      : ct_last_error();
}

static ct_status angle_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                           const void *args, ct_tensor **result) {
  const ct_tensor *t = in[0];
  if (t && !inplace && t->device_type == CT_META) return angle_meta(out, t, result);
  if (t && ct__elem_is_complex(t)) {
    if (result) {
      *result = ct__elem_relayout(ct__elem_complex_to_real(t, cangle_loop(t)), NULL);
      return *result ? CT_OK : ct__elem_null();
    }
    if (out && !ct__elem_is_complex(out)) return ct__elem_complex_to_real_out(out, t, canglec_loop(t));
  }
  return ct__elem_float_run(op, out, in, n_in, inplace, args, result);
}
const ct_pw_op ct__pw_op_angle = {CT_PW_OP("angle", "angle_cpu", FLOAT, angle_loops), .run = angle_run,
                                  .dev = CT_PW_DEV_OUT_SET};

/* ---- conj_physical / conj ---- */
/* non-complex out=: torch's direct_copy_kernel moves the bits (bfloat16 NaN payloads included) */
#define DEF_COPY(E, T, CT, LD, ST) CT_UNARY_LOOP(ccopy_##E, T, T, CT_ID, T, CT_ID, a)
CT_UNARY_LOOP(ccopy_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a) /* bool read as its byte (CT_LDB) */
CT_DT_INTEGRAL(DEF_COPY)
CT_DT_FLOATING(DEF_COPY)
CT_UNARY_LOOP(conj_c64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, conjf(a))
CT_UNARY_LOOP(conj_c128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, conj(a))
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(ccopy_##E),
static const ct_loop *const conj_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)[CT_COMPLEX64] = CT_LOOP_REF(conj_c64), [CT_COMPLEX128] = CT_LOOP_REF(conj_c128)};
#undef ENTRY

/* Non-complex tensors are returned as they are (functional) or left alone (in place); out= copies. A
   conjugated tensor's conj_physical is torch's self.conj().clone(): its storage's values, laid out as
   clone lays them out. */
static ct_status conj_physical_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                                   bool inplace, const void *args, ct_tensor **result) {
  if (in[0] && !ct__elem_is_complex(in[0]) && (result || inplace)) {
    if (result) *result = ct__elem_self(in[0]);
    return CT_OK;
  }
  if (in[0] && in[0]->device_type == CT_META && (result || inplace)) {
    /* a complex self on meta: _conj_physical runs conj_physical.out with an empty out (out_wrapper resizes it
       contiguous); conj_physical_ calls its CPU stub directly, which has no meta entry */
    if (inplace) {
      ct__error(CT_ERR_RUNTIME, "DispatchStub: unsupported device typemeta");
      return CT_ERR_RUNTIME;
    }
    *result = ct__own(ct__empty(in[0]->ndim, in[0]->sizes, (ct_dtype)in[0]->dtype, ct__tdevice(in[0])));
    return *result ? CT_OK : ct__elem_null();
  }
  if (result && in[0] && ct_is_conj(in[0])) {
    ct_tensor *v = ct__math_bits_view(in[0], CT_TENSOR_CONJ);
    *result = v ? ct__clone_impl(v, CT_MEMORY_FORMAT_UNSET) : NULL;
    ct_release(v);
    return *result ? CT_OK : ct__elem_null();
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}
const ct_pw_op ct__pw_op_conj_physical = {
    CT_PW_OP_GRAD("conj_physical", "conj_cpu", SAME, conj_loops, OUT_INPLACE), .run = conj_physical_run,
    .dev = CT_PW_DEV_COPY};

/* ---- real / imag: views of the float pairs of a complex tensor ---- */
/* torch's real/imag of a conjugated tensor: view_as_real(self._conj()), and for imag a _neg_view of it;
   a negative bit of t stays on both parts. */
static ct_tensor *complex_part(const ct_tensor *t, int64_t part) {
  ct_tensor *r = ct__complex_part_view(t, part);
  if (r) {
    unsigned neg = (t->flags & CT_TENSOR_NEG) ^ (part && (t->flags & CT_TENSOR_CONJ) ? CT_TENSOR_NEG : 0u);
    r->flags = (uint8_t)(r->flags | neg);
  }
  return ct__own(r);
}

static const ct_op real_op = {CT_PW_VIEW_OP("real", "aten::real")};
static const ct_op imag_op = {CT_PW_VIEW_OP("imag", "aten::imag")};

ct_tensor *ct_real(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__OP_ACCEPTS(&real_op, real_op.aten, t)) return NULL;
  return ct__elem_is_complex(t) ? complex_part(t, 0) : ct__elem_self(t);
}

ct_tensor *ct_imag(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__OP_ACCEPTS(&imag_op, imag_op.aten, t)) return NULL;
  if (!ct__elem_is_complex(t)) {
    ct__error(CT_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
    return NULL;
  }
  return complex_part(t, 1);
}
