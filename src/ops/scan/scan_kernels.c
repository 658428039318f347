/* The typed scan kernels, written as PyTorch 1.13's CPU kernels compute them (ReduceOpsKernel.cpp and
   ReduceOps.cpp): one accumulator per line in at::acc_type (CT_ACC_T, the dtype list's column: int64 for
   integers, here its wrapping uint64_t, float for bfloat16, double for float32, complex<double> for
   complex64), updated element by element in increasing order
   and cast to the output type after every step. That order is kept exactly, so results are bit for bit
   PyTorch's; only independent lines are processed side by side (line-vector mode, see scan.h). */
#include <math.h>

#include "kernels/cpu/loops.h"
#include "kernels/cpu/math_scalar.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/scan/scan.h"

/* Lines processed together in line-vector mode by the selection scans (their best values and indices live
   on the stack). */
#define CH 256
/* The accumulating scans' lines per pass in line-vector mode: as many as 32 KiB of accumulators hold (on
   the stack, in L1), so that each row is walked over a long contiguous stretch (4096 float32 columns: a
   row of a 4096-wide matrix in one pass). With 256 a pass read 1 KiB per row at the row stride, a new
   page for every row: 2.3x slower on a 4096^2 cumsum along dim 0. */
#define CH_ACC(A) ((int64_t)(32768 / sizeof(A)))

/* ---- accumulating scans: cumsum, cumprod, logcumsumexp ---- */
/* M contiguous columns scanned down len rows, the accumulators (acc[0..M)) in registers: through the
   stack each row would wait on a store and a load of the previous row's accumulator */
#define SCAN_FEW(M, T, A, LOAD, STORE, STEP)                                                                \
  do {                                                                                                      \
    A r[M];                                                                                                 \
    for (int j = 0; j < (M); j++) r[j] = acc[j];                                                            \
    for (int64_t i = 0; i < len; i++) {                                                                     \
      T *restrict o = (T *)(o0 + i * st[0]);                                                                \
      const T *restrict x = (const T *)(x0 + i * st[1]);                                                    \
      for (int j = 0; j < (M); j++) {                                                                       \
        r[j] = STEP(r[j], LOAD(x[j]));                                                                      \
        o[j] = STORE(r[j]);                                                                                 \
      }                                                                                                     \
    }                                                                                                       \
  } while (0)
#define CT_SCAN_ACC_KERNEL(fname, T, A, LOAD, STORE, INIT, STEP)                                           \
  CT_KERNEL_CLONES static void fname(char *const *d, const int64_t *st, const int64_t *ls, int64_t len,    \
                                     int64_t nl, const void *ctx) {                                         \
    (void)ctx;                                                                                              \
    if (nl == 1) {                                                                                          \
      A acc = INIT;                                                                                         \
      for (int64_t i = 0; i < len; i++) {                                                                   \
        acc = STEP(acc, LOAD(*(const T *)(d[1] + i * st[1])));                                              \
        *(T *)(d[0] + i * st[0]) = STORE(acc);                                                              \
      }                                                                                                     \
      return;                                                                                               \
    }                                                                                                       \
    const int64_t sz = (int64_t)sizeof(T);                                                                  \
    for (int64_t j0 = 0; j0 < nl; j0 += CH_ACC(A)) {                                                        \
      int64_t m = nl - j0 < CH_ACC(A) ? nl - j0 : CH_ACC(A);                                                \
      A acc[CH_ACC(A)];                                                                                     \
      for (int64_t j = 0; j < m; j++) acc[j] = INIT;                                                        \
      char *o0 = d[0] + j0 * ls[0];                                                                         \
      const char *x0 = d[1] + j0 * ls[1];                                                                   \
      if (ls[0] == sz && ls[1] == sz && o0 != x0 && m <= 4) { /* a few columns: chains in registers */     \
        switch (m) {                                                                                        \
          case 1: SCAN_FEW(1, T, A, LOAD, STORE, STEP); break;                                              \
          case 2: SCAN_FEW(2, T, A, LOAD, STORE, STEP); break;                                              \
          case 3: SCAN_FEW(3, T, A, LOAD, STORE, STEP); break;                                              \
          default: SCAN_FEW(4, T, A, LOAD, STORE, STEP); break;                                             \
        }                                                                                                   \
      } else if (ls[0] == sz && ls[1] == sz && o0 != x0) {                                                  \
        for (int64_t i = 0; i < len; i++) {                                                                 \
          T *restrict o = (T *)(o0 + i * st[0]);                                                            \
          const T *restrict x = (const T *)(x0 + i * st[1]);                                                \
          for (int64_t j = 0; j < m; j++) {                                                                 \
            acc[j] = STEP(acc[j], LOAD(x[j]));                                                              \
            o[j] = STORE(acc[j]);                                                                           \
          }                                                                                                 \
        }                                                                                                   \
      } else if (ls[0] == sz && ls[1] == sz) { /* in place: output and input coincide */                    \
        for (int64_t i = 0; i < len; i++) {                                                                 \
          T *o = (T *)(o0 + i * st[0]);                                                                     \
          for (int64_t j = 0; j < m; j++) {                                                                 \
            acc[j] = STEP(acc[j], LOAD(o[j]));                                                              \
            o[j] = STORE(acc[j]);                                                                           \
          }                                                                                                 \
        }                                                                                                   \
      } else if (m == CT_SCAN_GROUP) { /* a group of lines, each walked in order: independent chains */    \
        for (int64_t i = 0; i < len; i++)                                                                   \
          for (int64_t j = 0; j < CT_SCAN_GROUP; j++) {                                                     \
            acc[j] = STEP(acc[j], LOAD(*(const T *)(x0 + i * st[1] + j * ls[1])));                          \
            *(T *)(o0 + i * st[0] + j * ls[0]) = STORE(acc[j]);                                             \
          }                                                                                                 \
      } else {                                                                                              \
        for (int64_t i = 0; i < len; i++)                                                                   \
          for (int64_t j = 0; j < m; j++) {                                                                 \
            acc[j] = STEP(acc[j], LOAD(*(const T *)(x0 + i * st[1] + j * ls[1])));                          \
            *(T *)(o0 + i * st[0] + j * ls[0]) = STORE(acc[j]);                                             \
          }                                                                                                 \
      }                                                                                                     \
    }                                                                                                       \
  }

/* Integers accumulate in int64 and wrap (computed in uint64: the same bits, no signed overflow). */
#define LOAD_I(v) ((uint64_t)(int64_t)(v))
#define ADD(a, v) ((a) + (v))
#define MUL(a, v) ((a) * (v))
#define TO_F32(a) ((float)(a))
#define TO_C64(a) ((ct_c64)(a))
#define LOAD_C128(v) ((ct_c128)(v))

/* Floating steps: acc + x, acc * x (which NaN a NaN result is, is not reproduced: docs/ARCHITECTURE.md). */
#define FADD(a, v) ((a) + (v))
#define FMUL(a, v) ((a) * (v))
static inline ct_c128 cadd(ct_c128 x, ct_c128 y) {
  return CMPLX(FADD(creal(x), creal(y)), FADD(cimag(x), cimag(y)));
}

#define DEF_INT(op, STEP, INIT)                                                                     \
  CT_SCAN_ACC_KERNEL(op##_u8, uint8_t, uint64_t, LOAD_I, (uint8_t), INIT, STEP)                     \
  CT_SCAN_ACC_KERNEL(op##_i8, int8_t, uint64_t, LOAD_I, (int8_t), INIT, STEP)                       \
  CT_SCAN_ACC_KERNEL(op##_i16, int16_t, uint64_t, LOAD_I, (int16_t), INIT, STEP)                    \
  CT_SCAN_ACC_KERNEL(op##_i32, int32_t, uint64_t, LOAD_I, (int32_t), INIT, STEP)                    \
  CT_SCAN_ACC_KERNEL(op##_i64, int64_t, uint64_t, LOAD_I, (int64_t), INIT, STEP)
DEF_INT(cumsum, ADD, 0)
DEF_INT(cumprod, MUL, 1)
CT_SCAN_ACC_KERNEL(cumsum_bf16, uint16_t, CT_ACC_T(CT_BFLOAT16), ct__bfloat16_to_float, ct__float_to_bfloat16,
                   0.0f, FADD)
CT_SCAN_ACC_KERNEL(cumprod_bf16, uint16_t, CT_ACC_T(CT_BFLOAT16), ct__bfloat16_to_float,
                   ct__float_to_bfloat16, 1.0f, FMUL)
CT_SCAN_ACC_KERNEL(cumsum_f32_generic, float, CT_ACC_T(CT_FLOAT32), (double), TO_F32, 0.0, FADD)
CT_SCAN_ACC_KERNEL(cumprod_f32, float, CT_ACC_T(CT_FLOAT32), (double), TO_F32, 1.0, FMUL)
CT_SCAN_ACC_KERNEL(cumsum_f64, double, CT_ACC_T(CT_FLOAT64), CT_ID, CT_ID, 0.0, FADD)
CT_SCAN_ACC_KERNEL(cumprod_f64, double, CT_ACC_T(CT_FLOAT64), CT_ID, CT_ID, 1.0, FMUL)
CT_SCAN_ACC_KERNEL(cumsum_c64, ct_c64, CT_ACC_T(CT_COMPLEX64), LOAD_C128, TO_C64, 0.0, cadd)
/* complex products: c10::complex's operator*= as torch's AVX2 build contracts it (math_scalar.h) */
CT_SCAN_ACC_KERNEL(cumprod_c64, ct_c64, CT_ACC_T(CT_COMPLEX64), LOAD_C128, TO_C64, 1.0, ct__c10_mul_d)
CT_SCAN_ACC_KERNEL(cumsum_c128, ct_c128, CT_ACC_T(CT_COMPLEX128), CT_ID, CT_ID, 0.0, cadd)
CT_SCAN_ACC_KERNEL(cumprod_c128, ct_c128, CT_ACC_T(CT_COMPLEX128), CT_ID, CT_ID, 1.0, ct__c10_mul_d)

/* float32 cumsum: a long contiguous line takes the blocked vector scan (scan_cumsum_f32.c); everything
   else PyTorch's loop. */
static void cumsum_f32(char *const *d, const int64_t *st, const int64_t *ls, int64_t len, int64_t nl,
                       const void *ctx) {
  if (nl == 1 && len >= CT_SCAN_LONG_LINE && st[0] == (int64_t)sizeof(float) && st[1] == (int64_t)sizeof(float) &&
      (d[0] == d[1] || d[0] + len * 4 <= d[1] || d[1] + len * 4 <= d[0])) {
    ct__cumsum_f32_line((float *)d[0], (const float *)d[1], len, 1);
    return;
  }
  cumsum_f32_generic(d, st, ls, len, nl, ctx);
}

const ct_scan_kernel ct__cumsum_kernels[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = cumsum_u8,     [CT_INT8] = cumsum_i8,       [CT_INT16] = cumsum_i16,
    [CT_INT32] = cumsum_i32,    [CT_INT64] = cumsum_i64,     [CT_BFLOAT16] = cumsum_bf16,
    [CT_FLOAT32] = cumsum_f32,  [CT_FLOAT64] = cumsum_f64,   [CT_COMPLEX64] = cumsum_c64,
    [CT_COMPLEX128] = cumsum_c128,
};
const ct_scan_kernel ct__cumprod_kernels[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = cumprod_u8,     [CT_INT8] = cumprod_i8,      [CT_INT16] = cumprod_i16,
    [CT_INT32] = cumprod_i32,    [CT_INT64] = cumprod_i64,    [CT_BFLOAT16] = cumprod_bf16,
    [CT_FLOAT32] = cumprod_f32,  [CT_FLOAT64] = cumprod_f64,  [CT_COMPLEX64] = cumprod_c64,
    [CT_COMPLEX128] = cumprod_c128,
};

/* logcumsumexp's log_add_exp(x, acc) (std::min/std::max take the first argument on NaN; equal
   infinities return x instead of inf - inf). */
#define DEF_LAE(name, T, LOG1P, EXP)                                    \
  static inline T name(T x, T y) {                                      \
    T mn = isnan(y) ? y : (y < x ? y : x);                              \
    T mx = isnan(y) ? y : (x < y ? y : x);                              \
    if (mn != mx || isfinite(mn)) return FADD(LOG1P(EXP(mn - mx)), mx); \
    return x;                                                           \
  }
DEF_LAE(lae, double, log1p, exp)
DEF_LAE(laef, float, log1pf, expf)
#define LAE(acc, x) lae((x), (acc))
#define LAEF(acc, x) laef((x), (acc))
CT_SCAN_ACC_KERNEL(lcse_bf16, uint16_t, CT_ACC_T(CT_BFLOAT16), ct__bfloat16_to_float, ct__float_to_bfloat16,
                   -INFINITY, LAEF)
CT_SCAN_ACC_KERNEL(lcse_f32, float, CT_ACC_T(CT_FLOAT32), (double), TO_F32, -INFINITY, LAE)
CT_SCAN_ACC_KERNEL(lcse_f64, double, CT_ACC_T(CT_FLOAT64), CT_ID, CT_ID, -INFINITY, LAE)

const ct_scan_kernel ct__logcumsumexp_kernels[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = lcse_bf16, [CT_FLOAT32] = lcse_f32, [CT_FLOAT64] = lcse_f64};

/* ---- cummax / cummin: operands values, indices (int64), input ----
   PyTorch's cummax_cummin_helper: a NaN always takes over (so the index follows the latest NaN), and a
   value equal to the running one moves the index (>= and <=). Values are copied, not converted. */
/* The rows of M lines, each line's running extreme and index updated in order (best[], at[] hold the
   first element's) */
#define EXT_ROWS(M, T, LOAD, ISNAN, CMP)                                                                    \
  do {                                                                                                      \
    T b[CH];                                                                                                \
    int64_t a[CH];                                                                                          \
    for (int64_t j = 0; j < (M); j++) b[j] = best[j], a[j] = at[j];                                         \
    for (int64_t i = 0; i < len; i++)                                                                       \
      for (int64_t j = 0; j < (M); j++) {                                                                   \
        T cur = *(const T *)(x0 + i * st[2] + j * ls[2]);                                                   \
        bool take = ISNAN(LOAD(cur)) || (!ISNAN(LOAD(b[j])) && CMP(LOAD(cur), LOAD(b[j])));                 \
        b[j] = take ? cur : b[j];                                                                           \
        a[j] = take ? i : a[j];                                                                             \
        *(T *)(v0 + i * st[0] + j * ls[0]) = b[j];                                                          \
        *(int64_t *)(i0 + i * st[1] + j * ls[1]) = a[j];                                                    \
      }                                                                                                     \
  } while (0)
#define CT_SCAN_EXT_KERNEL(fname, T, LOAD, ISNAN, CMP)                                                     \
  CT_KERNEL_CLONES static void fname(char *const *d, const int64_t *st, const int64_t *ls, int64_t len,    \
                                     int64_t nl, const void *ctx) {                                         \
    (void)ctx;                                                                                              \
    if (nl == 1) {                                                                                          \
      T best = *(const T *)d[2];                                                                            \
      int64_t at = 0;                                                                                       \
      for (int64_t i = 0; i < len; i++) {                                                                   \
        T cur = *(const T *)(d[2] + i * st[2]);                                                             \
        if (ISNAN(LOAD(cur)) || (!ISNAN(LOAD(best)) && CMP(LOAD(cur), LOAD(best)))) {                       \
          best = cur;                                                                                       \
          at = i;                                                                                           \
        }                                                                                                   \
        *(T *)(d[0] + i * st[0]) = best;                                                                    \
        *(int64_t *)(d[1] + i * st[1]) = at;                                                                \
      }                                                                                                     \
      return;                                                                                               \
    }                                                                                                       \
    for (int64_t j0 = 0; j0 < nl; j0 += CH) {                                                               \
      int64_t m = nl - j0 < CH ? nl - j0 : CH;                                                              \
      T best[CH];                                                                                           \
      int64_t at[CH];                                                                                       \
      char *v0 = d[0] + j0 * ls[0], *i0 = d[1] + j0 * ls[1];                                                \
      const char *x0 = d[2] + j0 * ls[2];                                                                   \
      for (int64_t j = 0; j < m; j++) {                                                                     \
        best[j] = *(const T *)(x0 + j * ls[2]);                                                             \
        at[j] = 0;                                                                                          \
      }                                                                                                     \
      switch (m) { /* a few lines: their running extremes in registers */                                 \
        case 1: EXT_ROWS(1, T, LOAD, ISNAN, CMP); break;                                                    \
        case 2: EXT_ROWS(2, T, LOAD, ISNAN, CMP); break;                                                    \
        case 3: EXT_ROWS(3, T, LOAD, ISNAN, CMP); break;                                                    \
        case 4: EXT_ROWS(4, T, LOAD, ISNAN, CMP); break;                                                    \
        default: EXT_ROWS(m, T, LOAD, ISNAN, CMP);                                                          \
      }                                                                                                     \
    }                                                                                                       \
  }

#define NO_NAN(x) ((void)(x), false)
#define GE(a, b) ((a) >= (b))
#define LE(a, b) ((a) <= (b))
#define DEF_EXT(op, CMP)                                                                          \
  CT_SCAN_EXT_KERNEL(op##_b, uint8_t, CT_LDB, NO_NAN, CMP) /* any nonzero byte is true */          \
  CT_SCAN_EXT_KERNEL(op##_u8, uint8_t, CT_ID, NO_NAN, CMP)                                        \
  CT_SCAN_EXT_KERNEL(op##_i8, int8_t, CT_ID, NO_NAN, CMP)                                         \
  CT_SCAN_EXT_KERNEL(op##_i16, int16_t, CT_ID, NO_NAN, CMP)                                       \
  CT_SCAN_EXT_KERNEL(op##_i32, int32_t, CT_ID, NO_NAN, CMP)                                       \
  CT_SCAN_EXT_KERNEL(op##_i64, int64_t, CT_ID, NO_NAN, CMP)                                       \
  CT_SCAN_EXT_KERNEL(op##_bf16, uint16_t, ct__bfloat16_to_float, isnan, CMP)                      \
  CT_SCAN_EXT_KERNEL(op##_f32, float, CT_ID, isnan, CMP)                                          \
  CT_SCAN_EXT_KERNEL(op##_f64, double, CT_ID, isnan, CMP)                                         \
  const ct_scan_kernel ct__##op##_kernels[CT_NUM_DTYPES + 1] = {                                  \
      [CT_BOOL] = op##_b,   [CT_UINT8] = op##_u8,     [CT_INT8] = op##_i8,                        \
      [CT_INT16] = op##_i16, [CT_INT32] = op##_i32,   [CT_INT64] = op##_i64,                      \
      [CT_BFLOAT16] = op##_bf16, [CT_FLOAT32] = op##_f32, [CT_FLOAT64] = op##_f64};
DEF_EXT(cummax, GE)
DEF_EXT(cummin, LE)
