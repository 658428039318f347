/* Loops over complex inputs that reproduce torch's AVX2 vector/scalar split (see elem_internal.h):
   VEC and SCA are statements that read `re`, `im` (type T) and write o[0] (and o[1] for complex
   outputs, OUTC == 2). */
#ifndef CTORCH_OPS_ELEM_CPLX_H
#define CTORCH_OPS_ELEM_CPLX_H

#include "ops/pointwise/elem_internal.h"

#define CT_ELEM_CLOOP(fname, T, OUTC, BLOCK, VEC, SCA)                                                       \
  CT_KERNEL_CLONES static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {               \
    (void)ctx;                                                                                              \
    const int64_t os_ = (OUTC) * (int64_t)sizeof(T), is_ = 2 * (int64_t)sizeof(T);                          \
    int64_t nv_ = ct__elem_vec_count(s, os_, is_, n, (BLOCK));                                              \
    if (s[0] == os_ && s[1] == is_) {                                                                       \
      T *restrict o_ = (T *)d[0];                                                                           \
      const T *restrict x_ = (const T *)d[1];                                                               \
      for (int64_t k = 0; k < nv_; k++) {                                                                   \
        T re = x_[2 * k], im = x_[2 * k + 1];                                                               \
        T *o = o_ + (OUTC) * k;                                                                             \
        VEC;                                                                                                \
      }                                                                                                     \
      for (int64_t k = nv_; k < n; k++) {                                                                   \
        T re = x_[2 * k], im = x_[2 * k + 1];                                                               \
        T *o = o_ + (OUTC) * k;                                                                             \
        SCA;                                                                                                \
      }                                                                                                     \
    } else {                                                                                                \
      for (int64_t k = 0; k < n; k++) {                                                                     \
        const T *x = (const T *)(d[1] + k * s[1]);                                                          \
        T re = x[0], im = x[1];                                                                             \
        T *o = (T *)(d[0] + k * s[0]);                                                                      \
        if (k < nv_) {                                                                                      \
          VEC;                                                                                              \
        } else {                                                                                            \
          SCA;                                                                                              \
        }                                                                                                   \
      }                                                                                                     \
    }                                                                                                       \
  } \
  CT_LOOP_PLAIN(fname)

/* Both complex dtypes at once: name_c64 / name_c128 with the float / double spellings (SUF picks the
   elem_cscalar.c function: f or d). */
#define CT_ELEM_CLOOPS(name, OUTC, VEC, SCA)                                                      \
  CT_ELEM_CLOOP(name##_c64, float, OUTC, CT_ELEM_BLOCK_C64, VEC(float, sqrtf, hypotf, f),       \
                SCA(float, sqrtf, hypotf, f))                                                   \
  CT_ELEM_CLOOP(name##_c128, double, OUTC, CT_ELEM_BLOCK_C128, VEC(double, sqrt, hypot, d), SCA(double, sqrt, hypot, d))

#endif
