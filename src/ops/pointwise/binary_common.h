/* Shared by the binary arithmetic ops (binary_*.c): PyTorch's split of a row between its vectorized and
   its scalar formula, the SLEEF blocks that reproduce its vectorized transcendentals bit for bit, and the
   reduced-float rounding helpers.

   Why the split matters: torch 1.13's cpu_kernel_vec runs a row through the op's Vectorized formula when
   the output and both inputs are contiguous (or one input is a broadcast scalar), in blocks of
   2 * Vectorized<T>::size() elements (AVX2 on x86: 16 floats, 8 doubles, 32 bfloat16/float16, 8
   complex64, 4 complex128), and through the scalar formula for the rest of the row and for every other
   row. The two formulas differ for many ops (SLEEF vs glibc, bfloat16 NaN bits, FMA contraction in
   complex division, std::max vs _mm256_max_ps on signed zeros), so each loop here does the same. */
#ifndef CTORCH_OPS_BINARY_COMMON_H
#define CTORCH_OPS_BINARY_COMMON_H

#include <math.h>

#include "kernels/cpu/loops.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/pointwise/pw.h"

/* ---- SLEEF blocks (binary_sleef.c): AVX2 SLEEF, the functions torch's Vectorized<float/double> call,
   so non-NaN results match bit for bit; per-element SLEEF on CPUs without AVX2.
   `as`/`bs` false: that input is one broadcast value. Any n. ---- */
typedef enum { CT_SL_FMOD, CT_SL_ATAN2, CT_SL_HYPOT, CT_SL_POW, CT_SL_NEXTAFTER, CT_SL_N2 } ct_sl2;
typedef enum { CT_SL_EXP, CT_SL_LOG, CT_SL_LOG2, CT_SL_N1 } ct_sl1;
void ct__sl2_f32(ct_sl2 fn, float *o, const float *a, bool as, const float *b, bool bs, int64_t n);
void ct__sl2_f64(ct_sl2 fn, double *o, const double *a, bool as, const double *b, bool bs, int64_t n);
void ct__sl1_f32(ct_sl1 fn, float *o, const float *a, int64_t n);
void ct__sl1_f64(ct_sl1 fn, double *o, const double *a, int64_t n);
/* torch's vectorized logaddexp / logaddexp2 (maximum, blendv and all) for float and double. */
void ct__logaddexp_f32(float *o, const float *a, bool as, const float *b, bool bs, int64_t n, bool base2);
void ct__logaddexp_f64(double *o, const double *a, bool as, const double *b, bool bs, int64_t n, bool base2);

/* Vectorized<c10::complex<T>>::operator/ over n complex elements (interleaved re, im). */
void ct__cdiv_c64(float *o, const float *a, bool as, const float *b, bool bs, int64_t n);
void ct__cdiv_c128(double *o, const double *a, bool as, const double *b, bool bs, int64_t n);

/* ---- rounding to the reduced floats and back ---- */
/* c10::BFloat16(float): NaN becomes 0x7FC0. */
static inline float ct__rb(float x) { return ct__bfloat16_to_float(ct__float_to_bfloat16(x)); }
/* c10::Half(float). */
static inline float ct__rh(float x) { return ct__half_to_float(ct__float_to_half(x)); }

/* ---- the row split ---- */
/* True when torch vectorizes a binary row: output contiguous, inputs contiguous or one of them a
   broadcast scalar (stride 0). */

/* The kind of a binary row as torch's AVX2 build runs it: vectorized with every operand contiguous, with
   b or a a broadcast scalar (the row's tail then goes through GCC's auto-vectorized scalar loop, whose
   blocks depend on the kind), or not vectorized at all: GCC's strided loop, or its plain fallback when
   the output is one of the inputs (the loop's runtime alias check fails) or has a zero stride (a 0-dim
   operation). */
typedef enum { CT_ROW_CONTIG, CT_ROW_SCALAR_B, CT_ROW_SCALAR_A, CT_ROW_STRIDED, CT_ROW_FALLBACK } ct_row_kind;
static inline ct_row_kind ct__row_kind2(char *const *d, const int64_t *s, int64_t z) {
  if (!CT_TORCH_COMPAT) return CT_ROW_FALLBACK; /* kernels/cpu/torch_compat.h: one form everywhere */
  if (s[0] == z) {
    if (s[1] == z && s[2] == z) return CT_ROW_CONTIG;
    if (s[1] == z && s[2] == 0) return CT_ROW_SCALAR_B;
    if (s[1] == 0 && s[2] == z) return CT_ROW_SCALAR_A;
  }
  return (d[0] == d[1] || d[0] == d[2] || s[0] == 0) ? CT_ROW_FALLBACK : CT_ROW_STRIDED;
}

/* A binary loop split like torch's: VBLOCK(o, a, as, b, bs, k, ctx) takes the first k = n - n % W
   elements of a vectorizable row, SFN(a, b, ctx) -> T every other element (storage values). Declared
   elementwise to the engine (one T per operand address, the split decided by the strides alone), so a
   transposed input may come through the engine's tile buffer, which keeps the row unvectorizable. */
#define CT_VS_LOOP2(fname, T, W, VBLOCK, SFN)                                                          \
  static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {                          \
    int64_t k_ = ct__torch_vec_prefix2(s, 3, (int64_t)sizeof(T), (int64_t)sizeof(T), n, (W));         \
    if (k_ > 0) VBLOCK((T *)d[0], (const T *)d[1], s[1] != 0, (const T *)d[2], s[2] != 0, k_, ctx);   \
    for (; k_ < n; k_++) CT_OUT(T, d[0], s[0], k_) = SFN(CT_AT(T, d[1], s[1], k_), CT_AT(T, d[2], s[2], k_), ctx); \
  }                                                                                                     \
  CT_LOOP_DECLARE(fname, T, NULL)

/* A vector block from an element function ELEM(a, b, ctx) -> T (compiled for the CPU clones). */
#define CT_VBLOCK_ELEM(name, T, ELEM)                                                                   \
  CT_KERNEL_CLONES static void name(T *restrict o, const T *restrict a, bool as, const T *restrict b, bool bs, \
                                    int64_t n, const void *ctx) {                                      \
    (void)ctx;                                                                                          \
    if (as && bs) {                                                                                     \
      for (int64_t k = 0; k < n; k++) o[k] = ELEM(a[k], b[k], ctx);                                     \
    } else if (bs) {                                                                                    \
      const T x = a[0];                                                                                 \
      for (int64_t k = 0; k < n; k++) o[k] = ELEM(x, b[k], ctx);                                        \
    } else {                                                                                            \
      const T y = b[0];                                                                                 \
      for (int64_t k = 0; k < n; k++) o[k] = ELEM(a[k], y, ctx);                                        \
    }                                                                                                   \
  }

/* Elements per pass of the blocks that go through float scratch buffers (bfloat16 with SLEEF). */
#define CT_BIN_CHUNK 256

/* A binary op's SLEEF function FN (ct_sl2) as the vector blocks of CT_VS_LOOP2 (name_f32_vb, name_f64_vb,
   name_bf_vb), and its glibc function (FF float, FD double) as the scalar ones (name_f32_s, ...). */
#define CT_SL2_BLOCKS(name, FN)                                                                            \
  static void name##_f32_vb(float *o, const float *a, bool as, const float *b, bool bs, int64_t n,         \
                            const void *c) {                                                               \
    (void)c;                                                                                               \
    ct__sl2_f32(FN, o, a, as, b, bs, n);                                                                   \
  }                                                                                                        \
  static void name##_f64_vb(double *o, const double *a, bool as, const double *b, bool bs, int64_t n,      \
                            const void *c) {                                                               \
    (void)c;                                                                                               \
    ct__sl2_f64(FN, o, a, as, b, bs, n);                                                                   \
  }                                                                                                        \
  /* Vectorized<BFloat16>: widen, SLEEF in float, round back */                                            \
  __attribute__((unused)) static void name##_bf_vb(uint16_t *o, const uint16_t *a, bool as,                \
                                                   const uint16_t *b, bool bs, int64_t n, const void *c) { \
    (void)c;                                                                                               \
    float fa[CT_BIN_CHUNK], fb[CT_BIN_CHUNK], r[CT_BIN_CHUNK];                                             \
    for (int64_t k0 = 0; k0 < n; k0 += CT_BIN_CHUNK) {                                                     \
      int64_t m = n - k0 < CT_BIN_CHUNK ? n - k0 : CT_BIN_CHUNK;                                           \
      for (int64_t k = 0; k < m; k++) {                                                                    \
        fa[k] = ct__bfloat16_to_float(a[as ? k0 + k : 0]);                                                 \
        fb[k] = ct__bfloat16_to_float(b[bs ? k0 + k : 0]);                                                 \
      }                                                                                                    \
      ct__sl2_f32(FN, r, fa, true, fb, true, m);                                                           \
      for (int64_t k = 0; k < m; k++) o[k0 + k] = ct__float_to_bfloat16(r[k]);                             \
    }                                                                                                      \
  }

#define CT_SL2_SCALAR_FNS(name, FF, FD)                                                   \
  static inline float name##_f32_s(float a, float b, const void *c) {                     \
    (void)c;                                                                              \
    return FF(a, b);                                                                      \
  }                                                                                       \
  static inline double name##_f64_s(double a, double b, const void *c) {                  \
    (void)c;                                                                              \
    return FD(a, b);                                                                      \
  }                                                                                       \
  static inline uint16_t name##_bf_s(uint16_t a, uint16_t b, const void *c) {             \
    (void)c;                                                                              \
    return ct__float_to_bfloat16(FF(ct__bfloat16_to_float(a), ct__bfloat16_to_float(b))); \
  }

/* torch's vector widths (2 * Vectorized<T>::size() under AVX2). */
#define CT_W_F32 16
#define CT_W_F64 8
#define CT_W_R16 32 /* float16 (generic Vectorized) and bfloat16 */
#define CT_W_C64 8
#define CT_W_C128 4
#define CT_W_I64 8
#define CT_W_I32 16
#define CT_W_I16 32
#define CT_W_I8 64

/* ---- torch's casting route (binary_cast.c) ----
   Inputs of another dtype than `common` become converted temporaries (Tensor.to's layout) and an output
   of another dtype is computed into a contiguous temporary and copied back, as torch 1.13's CPU
   TensorIterator does, so rows split between the vectorized and scalar formulas as in torch. */
typedef ct_status (*ct_bin_fn)(const void *arg, ct_tensor *out, const ct_tensor *const *in, bool inplace,
                               ct_tensor **result);
ct_status ct__bin_cast_run(ct_bin_fn fn, const void *arg, ct_dtype common, ct_tensor *out, const ct_tensor *const *in,
                           int n_in, bool inplace, ct_tensor **result);
/* ct__pw_run through that route (the compute dtype from the op's promotion kind). */
ct_status ct__bin_pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                         const void *args, ct_tensor **result);

/* ---- ZeroDivisionError: integer division, remainder and fmod check the divisor before writing ---- */
/* True (and PyTorch's "ZeroDivisionError" recorded) when some element of t, converted to the integral
   dtype `common`, is zero. Empty broadcasts never fail. */
bool ct__bin_has_zero_divisor(const ct_tensor *a, const ct_tensor *t, ct_dtype common);

#endif
