/* The float32 Box-Muller block of PyTorch's AVX2 normal fill (see boxmuller.h). Every multiply whose
   only use is an add or subtract in avx_mathfun.h is fused there by GCC; here those steps are written
   as explicit fmaf / _mm256_fmadd_ps and nothing else may be contracted, so both variants give the
   same bits. */
/* (Not contracted: CMakeLists.txt builds every file so, GCC in ISO C mode, clang with -ffp-contract=off.) */

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/half.h"
#include "random/boxmuller.h"

#include "core/cpu_isa.h"
#include "random/generator.h"
#if CT_ISA_X86
#include <immintrin.h>
#endif

/* avx_mathfun.h's constants: double literals rounded to float, as its float arrays store them. */
#define C(x) ((float)(x))
static const float SQRTHF = C(0.707106781186547524);
static const float LOG_P[9] = {C(7.0376836292E-2),  C(-1.1514610310E-1), C(1.1676998740E-1),
                               C(-1.2420140846E-1), C(+1.4249322787E-1), C(-1.6668057665E-1),
                               C(+2.0000714765E-1), C(-2.4999993993E-1), C(+3.3333331174E-1)};
static const float LOG_Q1 = C(-2.12194440e-4);
static const float LOG_Q2 = C(0.693359375);
static const float DP1 = C(-0.78515625);
static const float DP2 = C(-2.4187564849853515625e-4);
static const float DP3 = C(-3.77489497744594108e-8);
static const float SINCOF_P0 = C(-1.9515295891E-4);
static const float SINCOF_P1 = C(8.3321608736E-3);
static const float SINCOF_P2 = C(-1.6666654611E-1);
static const float COSCOF_P0 = C(2.443315711809948E-005);
static const float COSCOF_P1 = C(-1.388731625493765E-003);
static const float COSCOF_P2 = C(4.166664568298827E-002);
static const float FOPI = C(1.27323954473516);
/* _mm256_set1_ps(2.0f * c10::pi<double>) */
#define TWO_PI_F ((float)(2.0 * 3.14159265358979323846))
#undef C

/* _mm256_cvttps_epi32: truncation, with INT32_MIN for NaN and out-of-range values */
static inline int32_t cvtt(float y) { return y > -2147483904.0f && y < 2147483648.0f ? (int32_t)y : INT32_MIN; }

/* log256_ps for one lane. */
static float log_lane(float x) {
  bool invalid = x <= 0.0f;
  x = x > ct__bits_f32(0x00800000u) ? x : ct__bits_f32(0x00800000u); /* _mm256_max_ps(x, min_norm_pos) */
  int32_t imm0 = (int32_t)(ct__f32_bits(x) >> 23);
  x = ct__bits_f32((ct__f32_bits(x) & ~0x7f800000u) | ct__f32_bits(0.5f));
  imm0 -= 0x7f;
  float e = (float)imm0;
  e = e + 1.0f;
  bool mask = x < SQRTHF;
  float tmp = mask ? x : 0.0f;
  x = x - 1.0f;
  e = e - (mask ? 1.0f : 0.0f);
  x = x + tmp;
  float z = x * x;
  float y = LOG_P[0];
  for (int k = 1; k < 9; k++) y = fmaf(y, x, LOG_P[k]);
  y = y * x;
  float eq1 = e * LOG_Q1;
  y = fmaf(y, z, eq1);
  y = fmaf(-z, 0.5f, y);
  float xy = x + y;
  x = fmaf(e, LOG_Q2, xy);
  return invalid ? ct__bits_f32(ct__f32_bits(x) | 0xffffffffu) : x;
}

/* sincos256_ps for one lane. */
static void sincos_lane(float x, float *s, float *c) {
  uint32_t sign_bit_sin = ct__f32_bits(x) & 0x80000000u;
  x = ct__bits_f32(ct__f32_bits(x) & 0x7fffffffu);
  float y = x * FOPI;
  int32_t imm2 = cvtt(y);
  imm2 = (int32_t)(((uint32_t)imm2 + 1u) & ~1u);
  y = (float)imm2;
  uint32_t imm4 = (uint32_t)imm2;
  uint32_t swap_sign_bit_sin = ((uint32_t)imm2 & 4u) << 29;
  bool poly_mask = ((uint32_t)imm2 & 2u) == 0;
  x = fmaf(y, DP1, x);
  x = fmaf(y, DP2, x);
  x = fmaf(y, DP3, x);
  imm4 = imm4 - 2u;
  imm4 = ~imm4 & 4u;
  uint32_t sign_bit_cos = imm4 << 29;
  sign_bit_sin ^= swap_sign_bit_sin;
  float z = x * x;
  float yc = fmaf(COSCOF_P0, z, COSCOF_P1);
  yc = fmaf(yc, z, COSCOF_P2);
  yc = yc * z;
  float half_z = z * 0.5f;
  yc = fmaf(yc, z, -half_z);
  yc = yc + 1.0f;
  float ys = fmaf(SINCOF_P0, z, SINCOF_P1);
  ys = fmaf(ys, z, SINCOF_P2);
  ys = ys * z;
  ys = fmaf(ys, x, x);
  float ysin2 = poly_mask ? ys : 0.0f;
  float ysin1 = poly_mask ? 0.0f : yc;
  ys = ys - ysin2;
  yc = yc - ysin1;
  float sn = ysin1 + ysin2;
  float cs = yc + ys;
  *s = ct__bits_f32(ct__f32_bits(sn) ^ sign_bit_sin);
  *c = ct__bits_f32(ct__f32_bits(cs) ^ sign_bit_cos);
}

static void block_scalar(float *d, float mean, float std) {
  for (int j = 0; j < 8; j++) {
    float u1 = 1.0f - d[j];
    float u2 = d[j + 8];
    float lg = log_lane(u1);
    float radius = sqrtf(-2.0f * lg);
    float theta = TWO_PI_F * u2;
    float s, c;
    sincos_lane(theta, &s, &c);
    float n1 = radius * c, n2 = radius * s;
    d[j] = fmaf(n1, std, mean);
    d[j + 8] = fmaf(n2, std, mean);
  }
}

void ct__boxmuller_f32_scalar(float *d, int64_t nblocks, float mean, float std) {
  for (int64_t b = 0; b < nblocks; b++) block_scalar(d + 16 * b, mean, std);
}

#if CT_ISA_X86
#define AVX2_FN CT_TARGET_AVX2

AVX2_FN static inline __m256 log_avx2(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  __m256 invalid = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OS);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
  __m256i imm0 = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
  x = _mm256_or_ps(x, _mm256_set1_ps(0.5f));
  imm0 = _mm256_sub_epi32(imm0, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_cvtepi32_ps(imm0);
  e = _mm256_add_ps(e, one);
  __m256 mask = _mm256_cmp_ps(x, _mm256_set1_ps(SQRTHF), _CMP_LT_OS);
  __m256 tmp = _mm256_and_ps(x, mask);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, mask));
  x = _mm256_add_ps(x, tmp);
  __m256 z = _mm256_mul_ps(x, x);
  __m256 y = _mm256_set1_ps(LOG_P[0]);
  for (int k = 1; k < 9; k++) y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(LOG_P[k]));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, _mm256_set1_ps(LOG_Q1)));
  y = _mm256_fnmadd_ps(z, _mm256_set1_ps(0.5f), y);
  x = _mm256_fmadd_ps(e, _mm256_set1_ps(LOG_Q2), _mm256_add_ps(x, y));
  return _mm256_or_ps(x, invalid);
}

AVX2_FN static inline void sincos_avx2(__m256 x, __m256 *s, __m256 *c) {
  const __m256i i1 = _mm256_set1_epi32(1), i2 = _mm256_set1_epi32(2), i4 = _mm256_set1_epi32(4);
  __m256 sign_bit_sin = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u)));
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
  __m256 y = _mm256_mul_ps(x, _mm256_set1_ps(FOPI));
  __m256i imm2 = _mm256_cvttps_epi32(y);
  imm2 = _mm256_add_epi32(imm2, i1);
  imm2 = _mm256_and_si256(imm2, _mm256_set1_epi32(~1));
  y = _mm256_cvtepi32_ps(imm2);
  __m256i imm4 = imm2;
  __m256i imm0 = _mm256_slli_epi32(_mm256_and_si256(imm2, i4), 29);
  imm2 = _mm256_cmpeq_epi32(_mm256_and_si256(imm2, i2), _mm256_setzero_si256());
  __m256 swap_sign_bit_sin = _mm256_castsi256_ps(imm0);
  __m256 poly_mask = _mm256_castsi256_ps(imm2);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(DP1), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(DP2), x);
  x = _mm256_fmadd_ps(y, _mm256_set1_ps(DP3), x);
  imm4 = _mm256_sub_epi32(imm4, i2);
  imm4 = _mm256_andnot_si256(imm4, i4);
  imm4 = _mm256_slli_epi32(imm4, 29);
  __m256 sign_bit_cos = _mm256_castsi256_ps(imm4);
  sign_bit_sin = _mm256_xor_ps(sign_bit_sin, swap_sign_bit_sin);
  __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_fmadd_ps(_mm256_set1_ps(COSCOF_P0), z, _mm256_set1_ps(COSCOF_P1));
  yc = _mm256_fmadd_ps(yc, z, _mm256_set1_ps(COSCOF_P2));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, _mm256_set1_ps(0.5f)));
  yc = _mm256_add_ps(yc, _mm256_set1_ps(1.0f));
  __m256 ys = _mm256_fmadd_ps(_mm256_set1_ps(SINCOF_P0), z, _mm256_set1_ps(SINCOF_P1));
  ys = _mm256_fmadd_ps(ys, z, _mm256_set1_ps(SINCOF_P2));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  __m256 ysin2 = _mm256_and_ps(poly_mask, ys);
  __m256 ysin1 = _mm256_andnot_ps(poly_mask, yc);
  ys = _mm256_sub_ps(ys, ysin2);
  yc = _mm256_sub_ps(yc, ysin1);
  *s = _mm256_xor_ps(_mm256_add_ps(ysin1, ysin2), sign_bit_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(yc, ys), sign_bit_cos);
}

/* 8 uniforms at p: floats, or (raw) random() words made U24 on the way in: (r & 0xFFFFFF) * 2^-24,
   exact in float either way. */
AVX2_FN static inline __m256 load_u(const float *p, bool raw) {
  if (!raw) return _mm256_loadu_ps(p);
  __m256i r = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)p), _mm256_set1_epi32(0xFFFFFF));
  return _mm256_mul_ps(_mm256_cvtepi32_ps(r), _mm256_set1_ps(0x1p-24f));
}

CT_ALWAYS_INLINE AVX2_FN void blocks_avx2(float *d, int64_t nblocks, float mean, float std, bool raw) {
  for (int64_t b = 0; b < nblocks; b++) {
    float *p = d + 16 * b;
    const __m256 u1 = _mm256_sub_ps(_mm256_set1_ps(1.0f), load_u(p, raw));
    const __m256 u2 = load_u(p + 8, raw);
    const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(_mm256_set1_ps(-2.0f), log_avx2(u1)));
    const __m256 theta = _mm256_mul_ps(_mm256_set1_ps(TWO_PI_F), u2);
    __m256 sn, cs;
    sincos_avx2(theta, &sn, &cs);
    const __m256 n1 = _mm256_mul_ps(radius, cs);
    const __m256 n2 = _mm256_mul_ps(radius, sn);
    _mm256_storeu_ps(p, _mm256_fmadd_ps(n1, _mm256_set1_ps(std), _mm256_set1_ps(mean)));
    _mm256_storeu_ps(p + 8, _mm256_fmadd_ps(n2, _mm256_set1_ps(std), _mm256_set1_ps(mean)));
  }
}

AVX2_FN static void floats_avx2(float *d, int64_t nblocks, float mean, float std) {
  blocks_avx2(d, nblocks, mean, std, false);
}
AVX2_FN static void words_avx2(float *d, int64_t nblocks, float mean, float std) {
  blocks_avx2(d, nblocks, mean, std, true);
}

int ct__boxmuller_f32_uses_avx2(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }
#else
int ct__boxmuller_f32_uses_avx2(void) { return 0; }
#endif

void ct__boxmuller_f32(float *d, int64_t nblocks, float mean, float std) {
#if CT_ISA_X86
  if (ct__boxmuller_f32_uses_avx2()) {
    floats_avx2(d, nblocks, mean, std);
    return;
  }
#endif
  ct__boxmuller_f32_scalar(d, nblocks, mean, std);
}

void ct__boxmuller_f32_words(void *d, int64_t nblocks, float mean, float std) {
#if CT_ISA_X86
  if (ct__boxmuller_f32_uses_avx2()) {
    words_avx2(d, nblocks, mean, std);
    return;
  }
#endif
  ct__u24_inplace(d, 16 * nblocks);
  ct__boxmuller_f32_scalar(d, nblocks, mean, std);
}
