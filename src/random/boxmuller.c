/* Box-Muller blocks for float64, float16 and bfloat16 (see boxmuller.h): PyTorch's scalar
   normal_fill_16 with c10's operator semantics for the reduced types. */
/* Nothing here may be contracted: CMakeLists.txt builds every file without contraction (GCC in ISO C
   mode, clang with -ffp-contract=off). */

#include <math.h>

#include "core/half.h"
#include "random/boxmuller.h"
#include "core/cpu_isa.h"

#define TWO_PI (2.0 * 3.14159265358979323846)

/* PyTorch's normal_fill_16 writes std::cos(theta) and std::sin(theta); GCC (which built torch 1.13)
   merges the two into one glibc sincos / sincosf call (for Half and BFloat16 too, whose cos and sin
   are the float ones), and that call is what gives torch's bits. Call it by name, so the result does
   not hang on this compiler making the same merge. */
static inline void sin_cos(double x, double *s, double *c) {
#ifdef __GLIBC__
  sincos(x, s, c);
#else
  *s = sin(x);
  *c = cos(x);
#endif
}
static inline void sin_cos_f(float x, float *s, float *c) {
#ifdef __GLIBC__
  sincosf(x, s, c);
#else
  *s = sinf(x);
  *c = cosf(x);
#endif
}

CT_ALWAYS_INLINE void block_f64(double *d, double mean, double std) {
  for (int j = 0; j < 8; j++) {
    double u1 = 1.0 - d[j];
    double u2 = d[j + 8];
    double radius = sqrt(-2.0 * log(u1));
    double theta = TWO_PI * u2;
    double s, c;
    sin_cos(theta, &s, &c);
    double rc = radius * c, rs = radius * s;
    d[j] = fma(rc, std, mean); /* radius * cos * std + mean, contracted in PyTorch's AVX2 build */
    d[j + 8] = fma(rs, std, mean);
  }
}

/* ct__boxmuller_S over whole blocks of block_S: an AVX2 + FMA copy where the CPU has it. fma / fmaf are
   correctly rounded either way: the FMA copy only saves the libm call. */
#if CT_ISA_X86
#define BOXMULLER_FMA_COPY(S, T, MT)                                           \
  CT_TARGET_AVX2 static void S##_fma(T *d, int64_t nblocks, MT mean, MT std) { \
    for (int64_t b = 0; b < nblocks; b++) block_##S(d + 16 * b, mean, std);    \
  }
#define BOXMULLER_FMA_CALL(S)         \
  if (ct__cpu_isa() >= CT_ISA_AVX2) { \
    S##_fma(d, nblocks, mean, std);   \
    return;                           \
  }
#else
#define BOXMULLER_FMA_COPY(S, T, MT)
#define BOXMULLER_FMA_CALL(S)
#endif
#define DEF_BOXMULLER(S, T, MT)                                             \
  BOXMULLER_FMA_COPY(S, T, MT)                                              \
  void ct__boxmuller_##S(T *d, int64_t nblocks, MT mean, MT std) {          \
    BOXMULLER_FMA_CALL(S)                                                   \
    for (int64_t b = 0; b < nblocks; b++) block_##S(d + 16 * b, mean, std); \
  }
DEF_BOXMULLER(f64, double, double)

static inline float h2f(uint16_t h) { return ct__half_to_float(h); }
static inline float hround(float f) { return ct__half_to_float(ct__float_to_half(f)); }

/* Half: `1 - x` is Half - Half (rounded to half); log, sqrt, cos, sin are the float functions; the
   Half radius and theta are rounded; the output arithmetic is float (Half * float is float). */
CT_ALWAYS_INLINE void block_f16(uint16_t *d, float mean, float std) {
  for (int j = 0; j < 8; j++) {
    float u1 = hround(1.0f - h2f(d[j]));
    float u2 = h2f(d[j + 8]);
    float radius = hround(sqrtf(-2.0f * logf(u1)));
    float theta = hround((float)(TWO_PI * (double)u2));
    float sn, cs;
    sin_cos_f(theta, &sn, &cs);
    float rc = radius * cs, rs = radius * sn;
    d[j] = ct__float_to_half(fmaf(rc, std, mean));
    d[j + 8] = ct__float_to_half(fmaf(rs, std, mean));
  }
}

DEF_BOXMULLER(f16, uint16_t, float)

static inline float b2f(uint16_t b) { return ct__bfloat16_to_float(b); }
static inline float bround(float f) { return ct__bfloat16_to_float(ct__float_to_bfloat16(f)); }

/* BFloat16 has its own log/sqrt/cos/sin returning BFloat16, and BFloat16 * BFloat16 is BFloat16:
   every step rounds. */
static void block_bf16(uint16_t *d, float mean, float std) {
  for (int j = 0; j < 8; j++) {
    float u1 = bround(1.0f - b2f(d[j]));
    float u2 = b2f(d[j + 8]);
    float lg = bround(logf(u1));
    float radius = bround(sqrtf(bround(-2.0f * lg)));
    float theta = bround((float)(TWO_PI * (double)u2));
    float sn, cs;
    sin_cos_f(theta, &sn, &cs);
    float c = bround(cs), s = bround(sn);
    d[j] = ct__float_to_bfloat16(bround(bround(radius * c) * std) + mean);
    d[j + 8] = ct__float_to_bfloat16(bround(bround(radius * s) * std) + mean);
  }
}

void ct__boxmuller_bf16(uint16_t *d, int64_t nblocks, float mean, float std) {
  for (int64_t b = 0; b < nblocks; b++) block_bf16(d + 16 * b, mean, std);
}
