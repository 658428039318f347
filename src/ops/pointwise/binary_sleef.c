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

static void sl2_f32_elem(ct_sl2 fn, float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
  f2_fn f = (have_fma() ? f2_fma : f2_plain)[fn];
  for (int64_t k = 0; k < n; k++) o[k] = f(a[as ? k : 0], b[bs ? k : 0]);
}
static void sl2_f64_elem(ct_sl2 fn, double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
  d2_fn f = (have_fma() ? d2_fma : d2_plain)[fn];
  for (int64_t k = 0; k < n; k++) o[k] = f(a[as ? k : 0], b[bs ? k : 0]);
}

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

/* Loads 8 floats (or one broadcast value); a partial last block goes through a padded copy. */
CT_AVX2 static inline __m256 ldf(const float *p, bool step, int64_t k, int64_t m) {
  if (!step) return _mm256_set1_ps(p[0]);
  if (m == 8) return _mm256_loadu_ps(p + k);
  float t[8] = {0};
  memcpy(t, p + k, (size_t)m * sizeof(float));
  return _mm256_loadu_ps(t);
}
CT_AVX2 static inline void stf(float *p, int64_t k, int64_t m, __m256 v) {
  if (m == 8) {
    _mm256_storeu_ps(p + k, v);
    return;
  }
  float t[8];
  _mm256_storeu_ps(t, v);
  memcpy(p + k, t, (size_t)m * sizeof(float));
}
CT_AVX2 static inline __m256d ldd(const double *p, bool step, int64_t k, int64_t m) {
  if (!step) return _mm256_set1_pd(p[0]);
  if (m == 4) return _mm256_loadu_pd(p + k);
  double t[4] = {0};
  memcpy(t, p + k, (size_t)m * sizeof(double));
  return _mm256_loadu_pd(t);
}
CT_AVX2 static inline void std_(double *p, int64_t k, int64_t m, __m256d v) {
  if (m == 4) {
    _mm256_storeu_pd(p + k, v);
    return;
  }
  double t[4];
  _mm256_storeu_pd(t, v);
  memcpy(p + k, t, (size_t)m * sizeof(double));
}

CT_AVX2 static void sl2_f32_avx2(ct_sl2 fn, float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
  v2f_fn f = v2f[fn];
  for (int64_t k = 0; k < n; k += 8) {
    int64_t m = n - k < 8 ? n - k : 8;
    stf(o, k, m, f(ldf(a, as, k, m), ldf(b, bs, k, m)));
  }
}
CT_AVX2 static void sl2_f64_avx2(ct_sl2 fn, double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
  v2d_fn f = v2d[fn];
  for (int64_t k = 0; k < n; k += 4) {
    int64_t m = n - k < 4 ? n - k : 4;
    std_(o, k, m, f(ldd(a, as, k, m), ldd(b, bs, k, m)));
  }
}
CT_AVX2 static void sl1_f32_avx2(ct_sl1 fn, float *o, const float *a, int64_t n) {
  v1f_fn f = v1f[fn];
  for (int64_t k = 0; k < n; k += 8) {
    int64_t m = n - k < 8 ? n - k : 8;
    stf(o, k, m, f(ldf(a, true, k, m)));
  }
}
CT_AVX2 static void sl1_f64_avx2(ct_sl1 fn, double *o, const double *a, int64_t n) {
  v1d_fn f = v1d[fn];
  for (int64_t k = 0; k < n; k += 4) {
    int64_t m = n - k < 4 ? n - k : 4;
    std_(o, k, m, f(ldd(a, true, k, m)));
  }
}

/* at::vec::maximum, abs, neg, blendv as in vec256_float.h / vec256_double.h. */
CT_AVX2 static void logaddexp_f32_avx2(float *o, const float *a, bool as, const float *b, bool bs, int64_t n,
                                       bool base2) {
  const __m256 sign = _mm256_set1_ps(-0.f), one = _mm256_set1_ps(1.f), inf = _mm256_set1_ps(INFINITY),
               two = _mm256_set1_ps(2.f);
  for (int64_t k = 0; k < n; k += 8) {
    int64_t m = n - k < 8 ? n - k : 8;
    __m256 x = ldf(a, as, k, m), y = ldf(b, bs, k, m);
    __m256 mx = _mm256_or_ps(_mm256_max_ps(x, y), _mm256_cmp_ps(x, y, _CMP_UNORD_Q));
    __m256 t = _mm256_xor_ps(sign, _mm256_andnot_ps(sign, _mm256_sub_ps(x, y)));
    __m256 r;
    if (base2)
      r = _mm256_add_ps(mx, Sleef_log2f8_u10avx2(_mm256_add_ps(one, Sleef_powf8_u10avx2(two, t))));
    else
      r = _mm256_add_ps(mx, Sleef_logf8_u10avx2(_mm256_add_ps(one, Sleef_expf8_u10avx2(t))));
    __m256 mask = _mm256_and_ps(_mm256_cmp_ps(x, y, _CMP_EQ_OQ),
                                _mm256_cmp_ps(_mm256_andnot_ps(sign, x), inf, _CMP_EQ_OQ));
    stf(o, k, m, _mm256_blendv_ps(r, x, mask));
  }
}
CT_AVX2 static void logaddexp_f64_avx2(double *o, const double *a, bool as, const double *b, bool bs, int64_t n,
                                       bool base2) {
  const __m256d sign = _mm256_set1_pd(-0.), one = _mm256_set1_pd(1.), inf = _mm256_set1_pd(INFINITY),
                two = _mm256_set1_pd(2.);
  for (int64_t k = 0; k < n; k += 4) {
    int64_t m = n - k < 4 ? n - k : 4;
    __m256d x = ldd(a, as, k, m), y = ldd(b, bs, k, m);
    __m256d mx = _mm256_or_pd(_mm256_max_pd(x, y), _mm256_cmp_pd(x, y, _CMP_UNORD_Q));
    __m256d t = _mm256_xor_pd(sign, _mm256_andnot_pd(sign, _mm256_sub_pd(x, y)));
    __m256d r;
    if (base2)
      r = _mm256_add_pd(mx, Sleef_log2d4_u10avx2(_mm256_add_pd(one, Sleef_powd4_u10avx2(two, t))));
    else
      r = _mm256_add_pd(mx, Sleef_logd4_u10avx2(_mm256_add_pd(one, Sleef_expd4_u10avx2(t))));
    __m256d mask = _mm256_and_pd(_mm256_cmp_pd(x, y, _CMP_EQ_OQ),
                                 _mm256_cmp_pd(_mm256_andnot_pd(sign, x), inf, _CMP_EQ_OQ));
    std_(o, k, m, _mm256_blendv_pd(r, x, mask));
  }
}

/* Vectorized<c10::complex<float/double>>::operator/ (vec256_complex_float.h / _double.h). (torch's
   products take their operands in an order that decides which of two NaNs wins; NaN bits are not part
   of the contract, so plain products.) */
CT_AVX2 static void cdiv_c64_avx2(float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
  const __m256 sign_mask = _mm256_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f, -0.0f, 0.0f);
  const __m256 sa = _mm256_castpd_ps(_mm256_set1_pd(*(const double *)(const void *)a));
  const __m256 sb = _mm256_castpd_ps(_mm256_set1_pd(*(const double *)(const void *)b));
  for (int64_t k = 0; k < n; k += 4) {
    int64_t m = n - k < 4 ? n - k : 4; /* complex elements */
    __m256 x = as ? ldf(a, true, 2 * k, 2 * m) : sa, y = bs ? ldf(b, true, 2 * k, 2 * m) : sb;
    __m256 d_c = _mm256_xor_ps(sign_mask, _mm256_permute_ps(y, 0xB1));
    __m256 ac_bd = _mm256_mul_ps(x, y);
    __m256 ad_bc = _mm256_mul_ps(x, d_c);
    __m256 re_im = _mm256_permute_ps(_mm256_hadd_ps(ac_bd, ad_bc), 0xD8);
    __m256 y2 = _mm256_mul_ps(y, y);
    __m256 abs2 = _mm256_permute_ps(_mm256_hadd_ps(y2, y2), 0xD8);
    stf(o, 2 * k, 2 * m, _mm256_div_ps(re_im, abs2));
  }
}
CT_AVX2 static void cdiv_c128_avx2(double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
  const __m256d sign_mask = _mm256_setr_pd(-0.0, 0.0, -0.0, 0.0);
  const __m256d sa = _mm256_setr_pd(a[0], a[1], a[0], a[1]), sb = _mm256_setr_pd(b[0], b[1], b[0], b[1]);
  for (int64_t k = 0; k < n; k += 2) {
    int64_t m = n - k < 2 ? n - k : 2;
    __m256d x = as ? ldd(a, true, 2 * k, 2 * m) : sa, y = bs ? ldd(b, true, 2 * k, 2 * m) : sb;
    __m256d d_c = _mm256_xor_pd(sign_mask, _mm256_permute_pd(y, 0x05));
    __m256d ac_bd = _mm256_mul_pd(x, y);
    __m256d ad_bc = _mm256_mul_pd(x, d_c);
    __m256d re_im = _mm256_hadd_pd(ac_bd, ad_bc);
    __m256d y2 = _mm256_mul_pd(y, y);
    std_(o, 2 * k, 2 * m, _mm256_div_pd(re_im, _mm256_hadd_pd(y2, y2)));
  }
}
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
CT_NO_TREE_VECTORIZE static void cdiv_c64_elem(float *o, const float *a, bool as,
                                                                          const float *b, bool bs, int64_t n) {
  CDIV_ELEM(float)
}
CT_NO_TREE_VECTORIZE static void cdiv_c128_elem(double *o, const double *a, bool as,
                                                                           const double *b, bool bs, int64_t n) {
  CDIV_ELEM(double)
}

void ct__cdiv_c64(float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    cdiv_c64_avx2(o, a, as, b, bs, n);
    return;
  }
#endif
  cdiv_c64_elem(o, a, as, b, bs, n);
}

void ct__cdiv_c128(double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    cdiv_c128_avx2(o, a, as, b, bs, n);
    return;
  }
#endif
  cdiv_c128_elem(o, a, as, b, bs, n);
}

void ct__sl2_f32(ct_sl2 fn, float *o, const float *a, bool as, const float *b, bool bs, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    sl2_f32_avx2(fn, o, a, as, b, bs, n);
    return;
  }
#endif
  sl2_f32_elem(fn, o, a, as, b, bs, n);
}

void ct__sl2_f64(ct_sl2 fn, double *o, const double *a, bool as, const double *b, bool bs, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    sl2_f64_avx2(fn, o, a, as, b, bs, n);
    return;
  }
#endif
  sl2_f64_elem(fn, o, a, as, b, bs, n);
}

void ct__sl1_f32(ct_sl1 fn, float *o, const float *a, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    sl1_f32_avx2(fn, o, a, n);
    return;
  }
#endif
  f1_fn f = (have_fma() ? f1_fma : f1_plain)[fn];
  for (int64_t k = 0; k < n; k++) o[k] = f(a[k]);
}

void ct__sl1_f64(ct_sl1 fn, double *o, const double *a, int64_t n) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    sl1_f64_avx2(fn, o, a, n);
    return;
  }
#endif
  d1_fn f = (have_fma() ? d1_fma : d1_plain)[fn];
  for (int64_t k = 0; k < n; k++) o[k] = f(a[k]);
}

/* The element formula of the vectorized logaddexp, for CPUs without AVX2. */
#define LAE_ELEM(T, ABS, ISNAN, EXPF, LOGF, POWF, LOG2F)                                    \
  do {                                                                                       \
    T x = a[as ? k : 0], y = b[bs ? k : 0];                                                  \
    T mx = (ISNAN(x) || ISNAN(y)) ? (T)NAN : (x > y ? x : y);                                \
    T t = -ABS(x - y);                                                                       \
    T r = base2 ? mx + LOG2F((T)1 + POWF((T)2, t)) : mx + LOGF((T)1 + EXPF(t));              \
    o[k] = (x == y && ABS(x) == (T)INFINITY) ? x : r;                                        \
  } while (0)

void ct__logaddexp_f32(float *o, const float *a, bool as, const float *b, bool bs, int64_t n, bool base2) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    logaddexp_f32_avx2(o, a, as, b, bs, n, base2);
    return;
  }
#endif
  bool f = have_fma();
  f1_fn ex = f ? Sleef_expf1_u10purecfma : Sleef_expf1_u10purec, lg = f ? Sleef_logf1_u10purecfma : Sleef_logf1_u10purec,
        lg2 = f ? Sleef_log2f1_u10purecfma : Sleef_log2f1_u10purec;
  f2_fn pw = f ? Sleef_powf1_u10purecfma : Sleef_powf1_u10purec;
  for (int64_t k = 0; k < n; k++) LAE_ELEM(float, fabsf, isnan, ex, lg, pw, lg2);
}

void ct__logaddexp_f64(double *o, const double *a, bool as, const double *b, bool bs, int64_t n, bool base2) {
#if CT_HAVE_AVX2_PATH
  if (have_avx2()) {
    logaddexp_f64_avx2(o, a, as, b, bs, n, base2);
    return;
  }
#endif
  bool f = have_fma();
  d1_fn ex = f ? Sleef_expd1_u10purecfma : Sleef_expd1_u10purec, lg = f ? Sleef_logd1_u10purecfma : Sleef_logd1_u10purec,
        lg2 = f ? Sleef_log2d1_u10purecfma : Sleef_log2d1_u10purec;
  d2_fn pw = f ? Sleef_powd1_u10purecfma : Sleef_powd1_u10purec;
  for (int64_t k = 0; k < n; k++) LAE_ELEM(double, fabs, isnan, ex, lg, pw, lg2);
}
