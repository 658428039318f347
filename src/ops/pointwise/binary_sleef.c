/* SLEEF blocks for the binary ops: the AVX2 functions torch 1.13's Vectorized<float> / Vectorized<double>
   call (Sleef_fmodf8, Sleef_atan2f8_u10, ...), so the vectorized part of a row matches torch bit for bit,
   NaN payloads included. SLEEF's AVX2, AVX-512 and FMA scalar variants agree on values but not always on
   NaN payloads, so the AVX2 ones are used wherever the CPU has them; other CPUs get SLEEF's per-element
   functions (same values). */
#include "ops/pointwise/binary_common.h"

#include "kernels/cpu/sleef_x86.h"

#define CT_HAVE_AVX2_PATH CT_ISA_X86
#define CT_AVX2 CT_TARGET_AVX2

static bool have_avx2(void) { return ct__cpu_isa() >= CT_ISA_AVX2; }

static bool have_fma(void) { return ct__cpu_fma(); }

/* ---- per-element fallbacks ---- */
typedef float (*f2_fn)(float, float);
typedef double (*d2_fn)(double, double);
typedef float (*f1_fn)(float);
typedef double (*d1_fn)(double);

static const f2_fn f2_fma[CT_SL_N2] = {Sleef_fmodf1_purecfma, Sleef_atan2f1_u10purecfma, Sleef_hypotf1_u05purecfma,
                                       Sleef_powf1_u10purecfma, Sleef_nextafterf1_purecfma};
static const f2_fn f2_plain[CT_SL_N2] = {Sleef_fmodf1_purec, Sleef_atan2f1_u10purec, Sleef_hypotf1_u05purec,
                                         Sleef_powf1_u10purec, Sleef_nextafterf1_purec};
static const d2_fn d2_fma[CT_SL_N2] = {Sleef_fmodd1_purecfma, Sleef_atan2d1_u10purecfma, Sleef_hypotd1_u05purecfma,
                                       Sleef_powd1_u10purecfma, Sleef_nextafterd1_purecfma};
static const d2_fn d2_plain[CT_SL_N2] = {Sleef_fmodd1_purec, Sleef_atan2d1_u10purec, Sleef_hypotd1_u05purec,
                                         Sleef_powd1_u10purec, Sleef_nextafterd1_purec};
static const f1_fn f1_fma[CT_SL_N1] = {Sleef_expf1_u10purecfma, Sleef_logf1_u10purecfma, Sleef_log2f1_u10purecfma};
static const f1_fn f1_plain[CT_SL_N1] = {Sleef_expf1_u10purec, Sleef_logf1_u10purec, Sleef_log2f1_u10purec};
static const d1_fn d1_fma[CT_SL_N1] = {Sleef_expd1_u10purecfma, Sleef_logd1_u10purecfma, Sleef_log2d1_u10purecfma};
static const d1_fn d1_plain[CT_SL_N1] = {Sleef_expd1_u10purec, Sleef_logd1_u10purec, Sleef_log2d1_u10purec};

#define SL2_ELEM(S, T)                                                                               \
  static void sl2_##S##_elem(ct_sl2 fn, T *o, const T *a, bool as, const T *b, bool bs, int64_t n) { \
    S##2_fn f = (have_fma() ? S##2_fma : S##2_plain)[fn];                                            \
    for (int64_t k = 0; k < n; k++) o[k] = f(a[as ? k : 0], b[bs ? k : 0]);                          \
  }
SL2_ELEM(f, float)
SL2_ELEM(d, double)

#if CT_HAVE_AVX2_PATH
typedef __m256 (*v2f_fn)(__m256, __m256);
typedef __m256d (*v2d_fn)(__m256d, __m256d);
typedef __m256 (*v1f_fn)(__m256);
typedef __m256d (*v1d_fn)(__m256d);
static const v2f_fn v2f[CT_SL_N2] = {Sleef_fmodf8_avx2, Sleef_atan2f8_u10avx2, Sleef_hypotf8_u05avx2,
                                     Sleef_powf8_u10avx2, Sleef_nextafterf8_avx2};
static const v2d_fn v2d[CT_SL_N2] = {Sleef_fmodd4_avx2, Sleef_atan2d4_u10avx2, Sleef_hypotd4_u05avx2,
                                     Sleef_powd4_u10avx2, Sleef_nextafterd4_avx2};
static const v1f_fn v1f[CT_SL_N1] = {Sleef_expf8_u10avx2, Sleef_logf8_u10avx2, Sleef_log2f8_u10avx2};
static const v1d_fn v1d[CT_SL_N1] = {Sleef_expd4_u10avx2, Sleef_logd4_u10avx2, Sleef_log2d4_u10avx2};

/* The AVX2 blocks of one element type: S (f, d) names it, V is its 256-bit vector of W lanes, PS the
   intrinsics' suffix (ps, pd), SL SLEEF's (f8, d4).
   ld_S loads W elements (or one broadcast value), st_S stores them; a partial last block goes through a
   padded copy. logaddexp: at::vec::maximum, abs, neg, blendv as in vec256_float.h / vec256_double.h. */
#define SLEEF_AVX2(S, T, V, W, PS, SL)                                                                       \
  CT_AVX2 static inline V ld_##S(const T *p, bool step, int64_t k, int64_t m) {                              \
    if (!step) return _mm256_set1_##PS(p[0]);                                                                \
    if (m == W) return _mm256_loadu_##PS(p + k);                                                             \
    T t[W] = {0};                                                                                            \
    memcpy(t, p + k, (size_t)m * sizeof(T));                                                                 \
    return _mm256_loadu_##PS(t);                                                                             \
  }                                                                                                          \
  CT_AVX2 static inline void st_##S(T *p, int64_t k, int64_t m, V v) {                                       \
    if (m == W) {                                                                                            \
      _mm256_storeu_##PS(p + k, v);                                                                          \
      return;                                                                                                \
    }                                                                                                        \
    T t[W];                                                                                                  \
    _mm256_storeu_##PS(t, v);                                                                                \
    memcpy(p + k, t, (size_t)m * sizeof(T));                                                                 \
  }                                                                                                          \
  CT_AVX2 static void sl2_##S##_avx2(ct_sl2 fn, T *o, const T *a, bool as, const T *b, bool bs, int64_t n) { \
    v2##S##_fn f = v2##S[fn];                                                                                \
    for (int64_t k = 0; k < n; k += W) {                                                                     \
      int64_t m = n - k < W ? n - k : W;                                                                     \
      st_##S(o, k, m, f(ld_##S(a, as, k, m), ld_##S(b, bs, k, m)));                                          \
    }                                                                                                        \
  }                                                                                                          \
  CT_AVX2 static void sl1_##S##_avx2(ct_sl1 fn, T *o, const T *a, int64_t n) {                               \
    v1##S##_fn f = v1##S[fn];                                                                                \
    for (int64_t k = 0; k < n; k += W) {                                                                     \
      int64_t m = n - k < W ? n - k : W;                                                                     \
      st_##S(o, k, m, f(ld_##S(a, true, k, m)));                                                             \
    }                                                                                                        \
  }                                                                                                          \
  CT_AVX2 static void logaddexp_##S##_avx2(T *o, const T *a, bool as, const T *b, bool bs, int64_t n,        \
                                           bool base2) {                                                     \
    const V sign = _mm256_set1_##PS((T)-0.), one = _mm256_set1_##PS((T)1),                                   \
            inf = _mm256_set1_##PS((T)INFINITY), two = _mm256_set1_##PS((T)2);                               \
    for (int64_t k = 0; k < n; k += W) {                                                                     \
      int64_t m = n - k < W ? n - k : W;                                                                     \
      V x = ld_##S(a, as, k, m), y = ld_##S(b, bs, k, m);                                                    \
      V mx = _mm256_or_##PS(_mm256_max_##PS(x, y), _mm256_cmp_##PS(x, y, _CMP_UNORD_Q));                     \
      V t = _mm256_xor_##PS(sign, _mm256_andnot_##PS(sign, _mm256_sub_##PS(x, y)));                          \
      V r;                                                                                                   \
      if (base2)                                                                                             \
        r = _mm256_add_##PS(                                                                                 \
            mx, Sleef_log2##SL##_u10avx2(_mm256_add_##PS(one, Sleef_pow##SL##_u10avx2(two, t))));            \
      else                                                                                                   \
        r = _mm256_add_##PS(mx, Sleef_log##SL##_u10avx2(_mm256_add_##PS(one, Sleef_exp##SL##_u10avx2(t))));  \
      V mask = _mm256_and_##PS(_mm256_cmp_##PS(x, y, _CMP_EQ_OQ),                                            \
                               _mm256_cmp_##PS(_mm256_andnot_##PS(sign, x), inf, _CMP_EQ_OQ));               \
      st_##S(o, k, m, _mm256_blendv_##PS(r, x, mask));                                                       \
    }                                                                                                        \
  }
SLEEF_AVX2(f, float, __m256, 8, ps, f8)
SLEEF_AVX2(d, double, __m256d, 4, pd, d4)

/* Vectorized<c10::complex<float/double>>::operator/ (vec256_complex_float.h / _double.h). (torch's
   products take their operands in an order that decides which of two NaNs wins; NaN bits are not part
   of the contract, so plain products.) */
CT_AVX2 static void cdiv_c64_avx2(float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
  const __m256 sign_mask = _mm256_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f);
  const __m256 sa = _mm256_castpd_ps(_mm256_set1_pd(*(const double *)(const void *)a));
  const __m256 sb = _mm256_castpd_ps(_mm256_set1_pd(*(const double *)(const void *)b));
  for (int64_t k = 0; k < n; k += 4) {
    int64_t m = n - k < 4 ? n - k : 4; /* complex elements */
    __m256 x = as ? ld_f(a, true, 2 * k, 2 * m) : sa, y = bs ? ld_f(b, true, 2 * k, 2 * m) : sb;
    __m256 d_c = _mm256_xor_ps(sign_mask, _mm256_permute_ps(y, 0xB1));
    __m256 ac_bd = _mm256_mul_ps(x, y);
    __m256 ad_bc = _mm256_mul_ps(x, d_c);
    __m256 re_im = _mm256_permute_ps(_mm256_hadd_ps(ac_bd, ad_bc), 0xD8);
    __m256 y2 = _mm256_mul_ps(y, y);
    __m256 abs2 = _mm256_permute_ps(_mm256_hadd_ps(y2, y2), 0xD8);
    st_f(o, 2 * k, 2 * m, _mm256_div_ps(re_im, abs2));
  }
}
CT_AVX2 static void cdiv_c128_avx2(double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
  const __m256d sign_mask = _mm256_setr_pd(-0.0, 0.0, -0.0, 0.0);
  const __m256d sa = _mm256_setr_pd(a[0], a[1], a[0], a[1]), sb = _mm256_setr_pd(b[0], b[1], b[0], b[1]);
  for (int64_t k = 0; k < n; k += 2) {
    int64_t m = n - k < 2 ? n - k : 2;
    __m256d x = as ? ld_d(a, true, 2 * k, 2 * m) : sa, y = bs ? ld_d(b, true, 2 * k, 2 * m) : sb;
    __m256d d_c = _mm256_xor_pd(sign_mask, _mm256_permute_pd(y, 0x05));
    __m256d ac_bd = _mm256_mul_pd(x, y);
    __m256d ad_bc = _mm256_mul_pd(x, d_c);
    __m256d re_im = _mm256_hadd_pd(ac_bd, ad_bc);
    __m256d y2 = _mm256_mul_pd(y, y);
    st_d(o, 2 * k, 2 * m, _mm256_div_pd(re_im, _mm256_hadd_pd(y2, y2)));
  }
}
#endif

/* An entry point: the AVX2 blocks where the CPU has them, else what follows (per element). */
#if CT_HAVE_AVX2_PATH
#define AVX2_OR_ELSE(call) \
  if (have_avx2()) {       \
    call;                  \
    return;                \
  }
#else
#define AVX2_OR_ELSE(call)
#endif

/* The same formula element by element, kept away from GCC's vectorizer (it fuses mul + addsub into
   vfmsubadd even under -ffp-contract=off). */
#define CDIV_ELEM(T)                                                           \
  for (int64_t k = 0; k < n; k++) {                                            \
    const T *x = as ? a + 2 * k : a, *y = bs ? b + 2 * k : b;                 \
    T den = y[0] * y[0] + y[1] * y[1];                                         \
    T re = x[0] * y[0] + x[1] * y[1], im = x[0] * -y[1] + x[1] * y[0];         \
    o[2 * k] = re / den;                                                       \
    o[2 * k + 1] = im / den;                                                   \
  }
#define CDIV_ENTRY(SUF, T)                                                                           \
  CT_NO_TREE_VECTORIZE static void cdiv_##SUF##_elem(T *o, const T *a, bool as, const T *b, bool bs, \
                                                     int64_t n) {                                    \
    CDIV_ELEM(T)                                                                                     \
  }                                                                                                  \
  void ct__cdiv_##SUF(T *o, const T *a, bool as, const T *b, bool bs, int64_t n) {                   \
    AVX2_OR_ELSE(cdiv_##SUF##_avx2(o, a, as, b, bs, n))                                              \
    cdiv_##SUF##_elem(o, a, as, b, bs, n);                                                           \
  }
CDIV_ENTRY(c64, float)
CDIV_ENTRY(c128, double)

/* The element formula of the vectorized logaddexp, for CPUs without AVX2. */
#define LAE_ELEM(T, ABS, ISNAN, EXPF, LOGF, POWF, LOG2F)                                    \
  do {                                                                                       \
    T x = a[as ? k : 0], y = b[bs ? k : 0];                                                  \
    T mx = (ISNAN(x) || ISNAN(y)) ? (T)NAN : (x > y ? x : y);                                \
    T t = -ABS(x - y);                                                                       \
    T r = base2 ? mx + LOG2F((T)1 + POWF((T)2, t)) : mx + LOGF((T)1 + EXPF(t));              \
    o[k] = (x == y && ABS(x) == (T)INFINITY) ? x : r;                                        \
  } while (0)

/* The entry points of one element type. */
#define SLEEF_ENTRY(S, SUF, T, ABS)                                                                 \
  void ct__sl2_##SUF(ct_sl2 fn, T *o, const T *a, bool as, const T *b, bool bs, int64_t n) {        \
    AVX2_OR_ELSE(sl2_##S##_avx2(fn, o, a, as, b, bs, n))                                            \
    sl2_##S##_elem(fn, o, a, as, b, bs, n);                                                         \
  }                                                                                                 \
  void ct__sl1_##SUF(ct_sl1 fn, T *o, const T *a, int64_t n) {                                      \
    AVX2_OR_ELSE(sl1_##S##_avx2(fn, o, a, n))                                                       \
    S##1_fn f = (have_fma() ? S##1_fma : S##1_plain)[fn];                                           \
    for (int64_t k = 0; k < n; k++) o[k] = f(a[k]);                                                 \
  }                                                                                                 \
  void ct__logaddexp_##SUF(T *o, const T *a, bool as, const T *b, bool bs, int64_t n, bool base2) { \
    AVX2_OR_ELSE(logaddexp_##S##_avx2(o, a, as, b, bs, n, base2))                                   \
    const S##1_fn *f1 = have_fma() ? S##1_fma : S##1_plain;                                         \
    S##1_fn ex = f1[CT_SL_EXP], lg = f1[CT_SL_LOG], lg2 = f1[CT_SL_LOG2];                           \
    S##2_fn pw = (have_fma() ? S##2_fma : S##2_plain)[CT_SL_POW];                                   \
    for (int64_t k = 0; k < n; k++) LAE_ELEM(T, ABS, isnan, ex, lg, pw, lg2);                       \
  }
SLEEF_ENTRY(f, f32, float, fabsf)
SLEEF_ENTRY(d, f64, double, fabs)
