/* arange, linspace, logspace and eye against torch 1.13: values bit for bit (float error accumulation
   included), lengths, dtype inference and errors. Expected bits were printed by torch 1.13
   (e.g. torch.arange(0, 1, 0.1).view(torch.int32)). */
#include <math.h>

#include "check.h"
#include "compat.h"

typedef struct {
  int linspace; /* 0: arange(a, b, c); 1: linspace(a, b, (int)c) */
  double a[3];
  ct_dtype dtype;
  int64_t n, index;
  uint64_t bits; /* the element's bits; integers as two's complement */
} range_case;


/* ar_0_1: [0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5, 0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.8999999761581421] */
static const uint64_t ar_0_1[] = {0x0, 0x3dcccccd, 0x3e4ccccd, 0x3e99999a, 0x3ecccccd, 0x3f000000, 0x3f19999a, 0x3f333333, 0x3f4ccccd, 0x3f666666};

/* ar_0_10 */
static const uint64_t ar_0_10[] = {0x0, 0x3dcccccd, 0x3e4ccccd, 0x3e99999a, 0x3ecccccd, 0x3f000000, 0x3f19999a, 0x3f333333, 0x3f4ccccd, 0x3f666667, 0x3f800000, 0x3f8ccccd, 0x3f99999a, 0x3fa66666, 0x3fb33333, 0x3fc00000, 0x3fcccccd, 0x3fd9999a, 0x3fe66667, 0x3ff33333, 0x40000000, 0x40066666, 0x400ccccd, 0x40133333, 0x4019999a, 0x40200000, 0x40266667, 0x402ccccd, 0x40333334, 0x4039999a, 0x40400000, 0x40466667, 0x404ccccd, 0x40533333, 0x4059999a, 0x40600000, 0x40666667, 0x406ccccd, 0x40733333, 0x4079999a, 0x40800000, 0x40833333, 0x40866666, 0x4089999a, 0x408ccccd, 0x40900000, 0x40933333, 0x40966666, 0x4099999a, 0x409ccccd, 0x40a00000, 0x40a33334, 0x40a66667, 0x40a9999a, 0x40accccd, 0x40b00000, 0x40b33333, 0x40b66666, 0x40b99999, 0x40bccccd, 0x40c00000, 0x40c33333, 0x40c66666, 0x40c99999, 0x40cccccd, 0x40d00000, 0x40d33333, 0x40d66667, 0x40d9999a, 0x40dccccd, 0x40e00000, 0x40e33333, 0x40e66666, 0x40e99999, 0x40eccccc, 0x40f00000, 0x40f33333, 0x40f66666, 0x40f99999, 0x40fccccc, 0x41000000, 0x4101999a, 0x41033333, 0x4104cccd, 0x41066666, 0x41080000, 0x4109999a, 0x410b3333, 0x410ccccd, 0x410e6667, 0x41100000, 0x4111999a, 0x41133333, 0x4114cccd, 0x41166667, 0x41180000, 0x4119999a, 0x411b3333, 0x411ccccd, 0x411e6666};

/* ls_0_1_7: [0.0, 0.1666666716337204, 0.3333333432674408, 0.5, 0.6666666269302368, 0.8333333134651184, 1.0] */
static const uint64_t ls_0_1_7[] = {0x0, 0x3e2aaaab, 0x3eaaaaab, 0x3f000000, 0x3f2aaaaa, 0x3f555555, 0x3f800000};

/* ls_0_1_7_d: [0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666667, 0.8333333333333334, 1.0] */
static const uint64_t ls_0_1_7_d[] = {0x0, 0x3fc5555555555555, 0x3fd5555555555555, 0x3fe0000000000000, 0x3fe5555555555556, 0x3feaaaaaaaaaaaab, 0x3ff0000000000000};

/* ls_h */
static const uint64_t ls_h[] = {0xc29a, 0xc1fb, 0xc15b, 0xc0bc, 0xc01c, 0xbefa, 0xbdbc, 0xbc7c, 0xba7c, 0xb800, 0xb200, 0x2fe0, 0x36f0, 0x39f8, 0x3c3c, 0x3d78, 0x3eb8, 0x3ff7, 0x409b, 0x413a, 0x41da, 0x4279, 0x4318, 0x43b8, 0x442c, 0x447b, 0x44cb, 0x451a, 0x456a, 0x45ba, 0x460a, 0x4659, 0x46a7, 0x46f7, 0x4747, 0x4796, 0x47e6};

/* ls_bf */
static const uint64_t ls_bf[] = {0xc053, 0xc03f, 0xc02b, 0xc018, 0xc004, 0xbfdf, 0xbfb8, 0xbf90, 0xbf50, 0xbf00, 0xbe40, 0x3e00, 0x3ed8, 0x3f3c, 0x3f86, 0x3fae, 0x3fd6, 0x3ffe, 0x4013, 0x4026, 0x403a, 0x404e, 0x4062, 0x4076, 0x4085, 0x408f, 0x4099, 0x40a3, 0x40ac, 0x40b6, 0x40c0, 0x40ca, 0x40d5, 0x40df, 0x40e9, 0x40f3, 0x40fd};

/* ls_c64: [0j, (0.1111111119389534+0.1111111119389534j), (0.2222222238779068+0.2222222238779068j), (0.3333333432674408+0.3333333432674408j), (0.4444444477558136+0.4444444477558136j), (0.5555555820465088+0.5555555820465088j), (0.6666666865348816+0.6666666865348816j), (0.7777777910232544+0.7777777910232544j), (0.8888888955116272+0.8888888955116272j), (1+1j)] */
static const uint64_t ls_c64[] = {0x0, 0x0, 0x3de38e39, 0x3de38e39, 0x3e638e39, 0x3e638e39, 0x3eaaaaab, 0x3eaaaaab, 0x3ee38e39, 0x3ee38e39, 0x3f0e38e4, 0x3f0e38e4, 0x3f2aaaab, 0x3f2aaaab, 0x3f471c72, 0x3f471c72, 0x3f638e39, 0x3f638e39, 0x3f800000, 0x3f800000};

/* ls_c128: [(-2.5+1j), (-1.775-0.012499999999999956j), (-1.05-1.025j), (-0.32500000000000007-2.0374999999999996j), (0.3999999999999999-3.05j), (1.125-4.0625j), (1.8499999999999999-5.074999999999999j), (2.5749999999999997-6.0874999999999995j), (3.3-7.1j)] */
static const uint64_t ls_c128[] = {0xc004000000000000, 0x3ff0000000000000, 0xbffc666666666666, 0xbf89999999999980, 0xbff0cccccccccccd, 0xbff0666666666666, 0xbfd4ccccccccccce, 0xc0004ccccccccccc, 0x3fd9999999999998, 0xc008666666666666, 0x3ff2000000000000, 0xc010400000000000, 0x3ffd999999999999, 0xc0144ccccccccccc, 0x4004999999999999, 0xc018599999999999, 0x400a666666666666, 0xc01c666666666666};

/* lg_f: [0.0005011872854083776, 0.0020892962347716093, 0.008709636516869068, 0.03630780428647995, 0.15135611593723297, 0.6309576034545898, 2.6302690505981445, 10.9647855758667, 45.708831787109375, 190.54612731933594, 794.3284301757812] */
static const uint64_t lg_f[] = {0x3a03621c, 0x3b08ec93, 0x3c0eb2dd, 0x3d14b77e, 0x3e1afd19, 0x3f218670, 0x40285654, 0x412f6fc3, 0x4236d5d8, 0x433e8bcf, 0x44469505};

/* lg_bf: [1.0703125, 1.234375, 1.4140625, 1.625, 1.8671875, 2.140625, 2.46875, 2.828125, 3.25] */
static const uint64_t lg_bf[] = {0x3f89, 0x3f9e, 0x3fb5, 0x3fd0, 0x3fef, 0x4009, 0x401e, 0x4035, 0x4050};

/* lg_c64: [(1+0j), (1.491693139076233+0.968054473400116j), (1.288018822669983+2.888080358505249j), (-0.8744903802871704+5.555002212524414j), (-6.682015419006348+7.439803123474121j)] */
static const uint64_t lg_c64[] = {0x3f800000, 0x0, 0x3fbeefcd, 0x3f77d26b, 0x3fa4ddcd, 0x4038d64f, 0xbf5fde9a, 0x40b1c294, 0xc0d5d312, 0x40ee12de};

/* lg_c128: [(0.2842956621026202-0.1740318580626659j), (1+0j), (2.5586609589235825+1.5662867225639936j), (4.093491805439488+8.015193375009725j)] */
static const uint64_t lg_c128[] = {0x3fd231e66ec806e3, 0xbfc646ad096bae8a, 0x3ff0000000000000, 0x0, 0x400478233ca107c1, 0x3ff90f82aa99245d, 0x40105fbc50db39f4, 0x402007c76d1190b5};

/* lg_c1: [(-6.6820149421691895+7.439803600311279j)] */
static const uint64_t lg_c1[] = {0xc0d5d311, 0x40ee12df};

/* ar_h */
static const uint64_t ar_h[] = {0x0, 0x34cd, 0x38cd, 0x3b33, 0x3ccd, 0x3e00, 0x3f33, 0x4033, 0x40cd, 0x4166, 0x4200, 0x429a, 0x4333, 0x43cd, 0x4433, 0x4480, 0x44cd};
static const range_case cases[] = {
    {0, {-10.7, 24.5, 1.1}, CT_FLOAT32, 32, 13, 0x40666667u}, /* 3.6000001430511475 */
    {0, {3.5, -13.3, -0.7}, CT_FLOAT32, 25, 5, 0x25800000u}, /* 2.220446049250313e-16 */
    {0, {-2.7, -0.6, 0.1}, CT_FLOAT64, 21, 7, 0xc000000000000001u}, /* -2.0000000000000004 */
    {0, {2.0, 5.0, 0.1}, CT_FLOAT64, 30, 7, 0x4005999999999999u}, /* 2.6999999999999997 */
    {0, {4.5, -8.7, -0.3}, CT_FLOAT16, 44, 15, 0x0u}, /* 0.0 */
    {0, {1.5, -1.9, -0.1}, CT_FLOAT16, 34, 15, 0x0u}, /* 0.0 */
    {0, {4.5, -8.7, -0.3}, CT_BFLOAT16, 44, 15, 0x0u}, /* 0.0 */
    {0, {1.5, -1.9, -0.1}, CT_BFLOAT16, 34, 15, 0x0u}, /* 0.0 */
    {1, {20, 0, 66}, CT_INT8, 66, 58, 0x2u}, /* 2 */
    {1, {20, 0, 66}, CT_UINT8, 66, 58, 0x1u}, /* 1 */
    {1, {20, 0, 66}, CT_INT16, 66, 61, 0x1u}, /* 1 */
    {1, {-895, 669.3519899543846, 162}, CT_INT32, 162, 95, 0x1cu}, /* 28 */
    {1, {-77, 229.8281453947427, 86}, CT_INT32, 86, 21, 0xffffffffffffffffu}, /* -1 */
    {1, {405, -350.1146792230296, 16}, CT_INT64, 16, 7, 0x34u}, /* 52 */
    {1, {-8.8, 1.3, 70}, CT_FLOAT32, 70, 61, 0x3e0414c0u}, /* 0.12898540496826172 */
    {1, {1.5, -2.1, 23}, CT_FLOAT32, 23, 7, 0x3eb586fcu}, /* 0.3545454740524292 */
    {1, {-8.8, 1.3, 70}, CT_FLOAT64, 70, 43, 0xc0040bdf59c91702u}, /* -2.505797101449276 */
    {1, {2.4, -0.1, 23}, CT_FLOAT64, 23, 15, 0x3fe64129e4129e42u}, /* 0.6954545454545455 */
    {1, {1.7, 8.2, 62}, CT_FLOAT32, 62, 32, 0x40a383c7u}, /* 5.109836101531982 */
    {1, {-8.8, 1.3, 70}, CT_FLOAT32, 70, 40, 0xc03c79b2u}, /* -2.94492769241333 */
};

/* Raw bits of element i, zero-extended (integers sign-extended). */
static uint64_t elem_bits(const ct_tensor *t, int64_t i) {
  ct_dtype d = ct_dtype_of(t);
  if (d >= CT_UINT8 && d <= CT_INT64) {
    ct_scalar s;
    ct_get_item(t, &i, &s);
    return (uint64_t)s.v.i;
  }
  uint64_t b = 0;
  memcpy(&b, (const char *)ct_data_ptr(t) + i * ct_element_size(t), (size_t)ct_element_size(t));
  return b;
}

/* Every element of t (complex: re, im pairs) equals the expected bits. */
static int check_bits(const ct_tensor *t, const uint64_t *want, int64_t nwant) {
  if (!t) return -1;
  int64_t per = ct_is_complex(t) ? 2 : 1, n = ct_numel(t) * per;
  if (n != nwant) {
    fprintf(stderr, "  numel %lld, want %lld\n", (long long)n, (long long)nwant);
    return -1;
  }
  int bad = 0;
  size_t part = (size_t)ct_element_size(t) / (size_t)per;
  for (int64_t i = 0; i < n; i++) {
    uint64_t b = 0;
    if (per == 1) b = elem_bits(t, i);
    else memcpy(&b, (const char *)ct_data_ptr(t) + (size_t)i * part, part);
    if (b != want[i]) {
      bad++;
      fprintf(stderr, "  element %lld: got %llx, want %llx\n", (long long)i, (unsigned long long)b,
              (unsigned long long)want[i]);
    }
  }
  return bad;
}
#define CHECK_BITS(t, arr) CHECK_EQ_INT(check_bits((t), (arr), (int64_t)(sizeof(arr) / sizeof(arr)[0])), 0)

/* ---- the switch off (compat.h): every element by torch's scalar formula, one rounding per operation,
   written here from the formulas (RangeFactoriesKernel.cpp), never read back from ctorch ---- */
/* float -> float16 / bfloat16 bits, round to nearest even (finite values in the half range) */
static uint16_t to_half(float f) {
  uint32_t x = compat_fbits(f);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  float a = fabsf(f);
  if (a < 6.103515625e-05f) return (uint16_t)(sign | (uint16_t)nearbyintf(a * 16777216.0f)); /* subnormal */
  uint32_t m = x & 0x7FFFFFFFu;
  m += 0x0FFFu + ((m >> 13) & 1u);
  return (uint16_t)(sign | ((m - (112u << 23)) >> 13));
}
static float from_half(uint16_t h) {
  float v = (h & 0x7C00) ? ldexpf((float)((h & 0x3FF) | 0x400), ((h >> 10) & 0x1F) - 25)
                         : (float)(h & 0x3FF) * 5.9604644775390625e-08f;
  return (h & 0x8000) ? -v : v;
}
static uint16_t r16(float f, bool bf) { return bf ? compat_to_bf16(f) : to_half(f); }
static float f16(uint16_t h, bool bf) { return bf ? compat_from_bf16(h) : from_half(h); }

/* element i of arange(a0, a1, a2) / linspace(a0, a1, a2 steps) of dt by the scalar formula */
static uint64_t plain_range(const range_case *c, int64_t i) {
  double a = c->a[0], b = c->a[1];
  if (!c->linspace) {
    if (c->dtype == CT_FLOAT32) return compat_fbits((float)(a + c->a[2] * (double)i));
    if (c->dtype == CT_FLOAT64) return compat_dbits(a + c->a[2] * (double)i);
    bool bf = c->dtype == CT_BFLOAT16;
    return r16((float)a + (float)c->a[2] * (float)i, bf);
  }
  int64_t n = (int64_t)c->a[2], half = n / 2;
  if (c->dtype == CT_FLOAT32) {
    float s = (float)a, e = (float)b, st = (e - s) / (float)(n - 1);
    return compat_fbits(i < half ? s + st * (float)i : e - st * (float)(n - i - 1));
  }
  if (c->dtype == CT_FLOAT64) {
    double st = (b - a) / (double)(n - 1);
    return compat_dbits(i < half ? a + st * (double)i : b - st * (double)(n - i - 1));
  }
  /* integers: the endpoints in the dtype, the steps in double, truncated */
  int64_t s = (int64_t)a, e = (int64_t)b;
  double st = ((double)e - (double)s) / (double)(n - 1);
  double v = i < half ? (double)s + st * (double)i : (double)e - st * (double)(n - i - 1);
  int64_t t = (int64_t)v;
  switch (c->dtype) {
    case CT_UINT8: return (uint64_t)(int64_t)(uint8_t)t;
    case CT_INT8: return (uint64_t)(int64_t)(int8_t)t;
    case CT_INT16: return (uint64_t)(int64_t)(int16_t)t;
    case CT_INT32: return (uint64_t)(int64_t)(int32_t)t;
    default: return (uint64_t)t;
  }
}

/* linspace of float16 / bfloat16, n steps: every operation rounds to the 16-bit type (c10::Half) */
static void plain_linspace16(uint64_t *o, double a, double b, int64_t n, bool bf) {
  const uint16_t s = r16((float)a, bf), e = r16((float)b, bf);
  const uint16_t st = r16(f16(r16(f16(e, bf) - f16(s, bf), bf), bf) / f16(r16((float)(n - 1), bf), bf), bf);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = i < n / 2 ? i : n - i - 1;
    float p = f16(r16(f16(st, bf) * f16(r16((float)k, bf), bf), bf), bf);
    o[i] = r16(i < n / 2 ? f16(s, bf) + p : f16(e, bf) - p, bf);
  }
}
/* linspace of complex (re, im pairs): the real formula per component */
static void plain_linspace_c(uint64_t *o, const double *a, const double *b, int64_t n, bool dbl) {
  for (int p = 0; p < 2; p++)
    for (int64_t i = 0; i < n; i++) {
      int64_t k = i < n / 2 ? i : n - i - 1;
      if (dbl) {
        double st = (b[p] - a[p]) / (double)(n - 1);
        o[2 * i + p] = compat_dbits(i < n / 2 ? a[p] + st * (double)k : b[p] - st * (double)k);
      } else {
        float s = (float)a[p], e = (float)b[p], st = (e - s) / (float)(n - 1);
        o[2 * i + p] = compat_fbits(i < n / 2 ? s + st * (float)k : e - st * (float)k);
      }
    }
}
#define OPTS(...) (&(ct_tensor_opts){__VA_ARGS__})

static void test_arange_values(void) {
  ct_scope_begin();
  CHECK_BITS(ct_arange(CT_INT(0), CT_INT(1), CT_DOUBLE(0.1), NULL), ar_0_1);
  uint64_t p_0_10[100]; /* the switch off: start + step * i in double, rounded to float */
  for (int i = 0; i < 100; i++) p_0_10[i] = compat_fbits((float)(0.0 + 0.1 * (double)i));
  CHECK_EQ_INT(
      check_bits(ct_arange(CT_INT(0), CT_INT(10), CT_DOUBLE(0.1), NULL), COMPAT_PICK(ar_0_10, p_0_10), 100),
      0);
  CHECK_BITS(ct_arange(CT_INT(0), CT_INT(5), CT_DOUBLE(0.3), OPTS(.dtype = CT_FLOAT16)), ar_h);
  /* elements that tell apart the fused and unfused forms of each kernel */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const range_case *c = &cases[i];
    ct_tensor *t = c->linspace ? ct_linspace(CT_DOUBLE(c->a[0]), CT_DOUBLE(c->a[1]), (int64_t)c->a[2], OPTS(.dtype = c->dtype))
                               : ct_arange(CT_DOUBLE(c->a[0]), CT_DOUBLE(c->a[1]), CT_DOUBLE(c->a[2]), OPTS(.dtype = c->dtype));
    CHECK(t && ct_numel(t) == c->n);
    if (!t || ct_numel(t) != c->n) continue;
    uint64_t got = elem_bits(t, c->index), want = COMPAT_PICK(c->bits, plain_range(c, c->index));
    if (got != want)
      fprintf(stderr, "  case %zu (%s %s) element %lld: got %llx want %llx\n", i,
              c->linspace ? "linspace" : "arange", ct_dtype_name(c->dtype), (long long)c->index,
              (unsigned long long)got, (unsigned long long)want);
    CHECK(got == want);
  }
  ct_scope_end();
}

static void check_ints(ct_tensor *t, const int64_t *want, int64_t n) {
  CHECK_EQ_INT(ct_numel(t), n);
  for (int64_t i = 0; t && i < n && i < ct_numel(t); i++) CHECK_EQ_INT((int64_t)elem_bits(t, i), want[i]);
}
#define CHECK_INTS(t, ...)                                                                   \
  do {                                                                                       \
    const int64_t w_[] = {__VA_ARGS__};                                                      \
    check_ints((t), w_, (int64_t)(sizeof w_ / sizeof w_[0]));                                \
  } while (0)

static void test_arange_lengths_and_dtypes(void) {
  ct_scope_begin();
  ct_tensor *t = ct_arange(CT_INT(0), CT_INT(10), CT_INT(3), NULL); /* int64 */
  CHECK_EQ_INT(ct_dtype_of(t), CT_INT64);
  CHECK_INTS(t, 0, 3, 6, 9);
  CHECK_INTS(ct_arange(CT_INT(0), CT_INT(-10), CT_INT(-3), NULL), 0, -3, -6, -9);
  CHECK_EQ_INT(ct_dtype_of(ct_arange(CT_DOUBLE(0.0), CT_INT(5), CT_INT(1), NULL)), CT_FLOAT32);
  CHECK_INTS(ct_arange(CT_INT(0), CT_INT(5), CT_BOOLV(true), NULL), 0, 1, 2, 3, 4); /* bools count as integers */
  /* start/end/step become the int64 accumulate type first; the length comes from the doubles */
  CHECK_INTS(ct_arange(CT_DOUBLE(0.5), CT_INT(3), CT_INT(1), OPTS(.dtype = CT_INT32)), 0, 1, 2);
  CHECK_INTS(ct_arange(CT_DOUBLE(-0.5), CT_INT(3), CT_INT(1), OPTS(.dtype = CT_INT32)), 0, 1, 2, 3);
  CHECK_INTS(ct_arange(CT_INT(10), CT_INT(0), CT_INT(-3), OPTS(.dtype = CT_UINT8)), 10, 7, 4, 1);
  CHECK_INTS(ct_arange(CT_INT(0), CT_INT(300), CT_INT(100), OPTS(.dtype = CT_INT8)), 0, 100, -56);
  CHECK_INTS(ct_arange(CT_DOUBLE(-1.5), CT_INT(2), CT_INT(1), OPTS(.dtype = CT_UINT8)), 255, 0, 1, 2);
  CHECK_INTS(ct_arange(CT_INT(9007199254740992LL), CT_INT(9007199254740995LL), CT_INT(1), NULL), 9007199254740992LL,
             9007199254740993LL, 9007199254740994LL);
  /* int64 length in integer arithmetic, wrapping like the C++: (2^63-1 - -2^63) wraps to -1 -> empty */
  CHECK_EQ_INT(ct_numel(ct_arange(CT_INT(INT64_MIN), CT_INT(INT64_MAX), CT_INT(1LL << 62), NULL)), 0);
  CHECK_EQ_INT(ct_numel(ct_arange(CT_INT(0), CT_DOUBLE(1.0), CT_DOUBLE(0.1), OPTS(.dtype = CT_FLOAT64))), 10);
  /* meta: shape only, and no dtype dispatch */
  t = ct_arange(CT_INT(0), CT_DOUBLE(5), CT_DOUBLE(1.5), OPTS(.device = CT_DEVICE_META));
  CHECK(ct_is_meta(t));
  CHECK_SHAPE(t, 4);
  CHECK_EQ_INT(ct_dtype_of(ct_arange(CT_INT(0), CT_INT(3), CT_INT(1), OPTS(.dtype = CT_BOOL, .device = CT_DEVICE_META))), CT_BOOL);
  t = ct_arange(CT_INT(0), CT_DOUBLE(3), CT_INT(1), OPTS(.requires_grad = true));
  CHECK(ct_requires_grad(t));
  ct_scope_end();
}

static void test_arange_errors(void) {
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_INT(0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "step must be nonzero");
  CHECK(!ct_arange(CT_INT(0), CT_DOUBLE(2.5), CT_DOUBLE(0.5), OPTS(.dtype = CT_INT64))); /* step 0.5 -> 0 */
  CHECK_ERROR(CT_ERR_RUNTIME, "step must be nonzero");
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_DOUBLE(NAN), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "step must be nonzero");
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_INT(-1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
  CHECK(!ct_arange(CT_INT(5), CT_INT(0), CT_INT(1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
  CHECK(!ct_arange(CT_INT(0), CT_DOUBLE(NAN), CT_INT(1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported range: 0 -> nan");
  CHECK(!ct_arange(CT_DOUBLE(-INFINITY), CT_INT(0), CT_INT(1), OPTS(.dtype = CT_FLOAT16)));
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported range: -inf -> 0");
  CHECK(!ct_arange(CT_DOUBLE(1.23456789), CT_DOUBLE(INFINITY), CT_INT(1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported range: 1.23457 -> inf");
  CHECK(!ct_arange(CT_INT(0), CT_DOUBLE(1e20), CT_DOUBLE(1e-10), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid size, possible overflow?");
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_DOUBLE(1e-320), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid size, possible overflow?");
  CHECK(!ct_arange(CT_INT(0), CT_COMPLEX(1, 2), CT_INT(1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type double without overflow");
  CHECK(!ct_arange(CT_INT(0), CT_DOUBLE(1e40), CT_INT(1), OPTS(.dtype = CT_FLOAT16)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  CHECK(!ct_arange(CT_INT(0), CT_DOUBLE(1e19), CT_DOUBLE(1e18), OPTS(.dtype = CT_INT64)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int64_t without overflow");
  CHECK(!ct_arange(CT_INT(0), CT_INT(10), CT_INT(1), OPTS(.dtype = CT_BOOL)));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"arange_cpu\" not implemented for 'Bool'");
  CHECK(!ct_arange(CT_INT(0), CT_INT(10), CT_INT(1), OPTS(.dtype = CT_COMPLEX64)));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"arange_cpu\" not implemented for 'ComplexFloat'");
  CHECK(!ct_arange(CT_INT(0), CT_INT(3), CT_INT(1), OPTS(.requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
  /* the op's own errors come before the requires_grad check */
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_INT(0), OPTS(.requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "step must be nonzero");
  CHECK(!ct_arange(CT_INT(0), CT_INT(5), CT_INT(1), OPTS(.device = CT_DEVICE_CUDA(0))));
  CHECK_ERROR(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
}

static void test_linspace(void) {
  ct_scope_begin();
  CHECK_BITS(ct_linspace(CT_INT(0), CT_INT(1), 7, NULL), ls_0_1_7);
  CHECK_BITS(ct_linspace(CT_INT(0), CT_INT(1), 7, OPTS(.dtype = CT_FLOAT64)), ls_0_1_7_d);
  /* the switch off: the scalar formula for every element (torch's vector lanes differ in last bits) */
  uint64_t p_h[37], p_bf[37], p_c64[20], p_c128[18];
  plain_linspace16(p_h, -3.3, 7.9, 37, false);
  plain_linspace16(p_bf, -3.3, 7.9, 37, true);
  plain_linspace_c(p_c64, (const double[]){0, 0}, (const double[]){1, 1}, 10, false);
  plain_linspace_c(p_c128, (const double[]){-2.5, 1}, (const double[]){3.3, -7.1}, 9, true);
  CHECK_EQ_INT(check_bits(ct_linspace(CT_DOUBLE(-3.3), CT_DOUBLE(7.9), 37, OPTS(.dtype = CT_FLOAT16)),
                          COMPAT_PICK(ls_h, p_h), 37),
               0);
  CHECK_EQ_INT(check_bits(ct_linspace(CT_DOUBLE(-3.3), CT_DOUBLE(7.9), 37, OPTS(.dtype = CT_BFLOAT16)),
                          COMPAT_PICK(ls_bf, p_bf), 37),
               0);
  ct_tensor *c = ct_linspace(CT_INT(0), CT_COMPLEX(1, 1), 10, NULL); /* complex endpoints -> complex64 */
  CHECK_EQ_INT(ct_dtype_of(c), CT_COMPLEX64);
  CHECK_EQ_INT(check_bits(c, COMPAT_PICK(ls_c64, p_c64), 20), 0);
  CHECK_EQ_INT(
      check_bits(ct_linspace(CT_COMPLEX(-2.5, 1), CT_COMPLEX(3.3, -7.1), 9, OPTS(.dtype = CT_COMPLEX128)),
                 COMPAT_PICK(ls_c128, p_c128), 18),
      0);
  CHECK_EQ_INT(ct_dtype_of(ct_linspace(CT_INT(0), CT_INT(1), 5, NULL)), CT_FLOAT32);
  CHECK_INTS(ct_linspace(CT_INT(0), CT_INT(10), 5, OPTS(.dtype = CT_INT64)), 0, 2, 5, 7, 10);
  CHECK_INTS(ct_linspace(CT_INT(-9), CT_INT(0), 5, OPTS(.dtype = CT_INT64)), -9, -6, -4, -2, 0);
  CHECK_INTS(ct_linspace(CT_INT(0), CT_INT(255), 4, OPTS(.dtype = CT_UINT8)), 0, 85, 170, 255);
  /* -2^63 .. 2^63-1 in 3 steps: the end as a double is 2^63, which converts to INT64_MIN */
  CHECK_INTS(ct_linspace(CT_INT(INT64_MIN), CT_INT(INT64_MAX), 3, OPTS(.dtype = CT_INT64)), INT64_MIN, 0, INT64_MIN);
  CHECK_EQ_INT(ct_numel(ct_linspace(CT_INT(0), CT_INT(1), 0, NULL)), 0);
  CHECK_INTS(ct_linspace(CT_DOUBLE(2.7), CT_INT(5), 1, OPTS(.dtype = CT_INT32)), 2);
  CHECK_INTS(ct_linspace(CT_INT(0), CT_INT(1), 1, OPTS(.dtype = CT_BOOL)), 0); /* one step is a fill: no kernel */
  ct_tensor *inf = ct_linspace(CT_DOUBLE(INFINITY), CT_INT(1), 3, NULL);
  float v[3];
  ct_copy_to_buffer(inf, v, CT_FLOAT32, sizeof v);
  CHECK(isnan(v[0]) && v[1] == INFINITY && isnan(v[2])); /* torch: [nan, inf, nan] */
  CHECK(ct_is_meta(ct_linspace(CT_INT(0), CT_INT(10), 3, OPTS(.dtype = CT_BOOL, .device = CT_DEVICE_META))));
  ct_scope_end();

  CHECK(!ct_linspace(CT_INT(0), CT_INT(1), -1, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "number of steps must be non-negative");
  CHECK(!ct_linspace(CT_INT(0), CT_INT(10), 5, OPTS(.dtype = CT_BOOL)));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"linspace_cpu\" not implemented for 'Bool'");
  CHECK(!ct_linspace(CT_INT(0), CT_COMPLEX(1, 2), 3, OPTS(.dtype = CT_FLOAT32)));
  CHECK_ERROR(CT_ERR_RUNTIME,
              "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast to passed dtype Float");
  CHECK(!ct_linspace(CT_INT(0), CT_INT(1000), 5, OPTS(.dtype = CT_INT8)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  CHECK(!ct_linspace(CT_INT(300), CT_INT(5), 1, OPTS(.dtype = CT_UINT8)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(!ct_linspace(CT_INT(0), CT_INT(5), 3, OPTS(.dtype = CT_INT32, .requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
}

static void test_logspace(void) {
  ct_scope_begin();
  CHECK_BITS(ct_logspace(CT_DOUBLE(-3.3), CT_DOUBLE(2.9), 11, 10.0, NULL), lg_f);
  CHECK_BITS(ct_logspace(CT_DOUBLE(0.1), CT_DOUBLE(1.7), 9, 2.0, OPTS(.dtype = CT_BFLOAT16)), lg_bf);
  CHECK_BITS(ct_logspace(CT_INT(0), CT_COMPLEX(1, 1), 5, 10.0, NULL), lg_c64);
  CHECK_BITS(ct_logspace(CT_COMPLEX(-1, -0.5), CT_COMPLEX(2, 1), 4, 3.0, OPTS(.dtype = CT_COMPLEX128)), lg_c128);
  CHECK_BITS(ct_logspace(CT_COMPLEX(1, 1), CT_INT(2), 1, 10.0, NULL), lg_c1);
  CHECK_INTS(ct_logspace(CT_INT(0), CT_INT(2), 3, 10.0, OPTS(.dtype = CT_INT64)), 1, 10, 100);
  CHECK_INTS(ct_logspace(CT_INT(0), CT_INT(10), 3, 10.0, OPTS(.dtype = CT_INT8)), 1, -96, 0);
  CHECK_INTS(ct_logspace(CT_INT(0), CT_INT(3), 4, 2.0, OPTS(.dtype = CT_UINT8)), 1, 2, 4, 8);
  /* 2^31.5 stored into uint8 goes through a 32-bit conversion (-> 0), as the C++ store does */
  CHECK_INTS(ct_logspace(CT_INT(0), CT_DOUBLE(31.5), 2, 2.0, OPTS(.dtype = CT_UINT8)), 1, 0);
  CHECK_INTS(ct_logspace(CT_INT(0), CT_DOUBLE(33.5), 2, 2.0, OPTS(.dtype = CT_INT32)), 1, INT32_MIN);
  CHECK_INTS(ct_logspace(CT_INT(0), CT_INT(1), 3, -2.0, OPTS(.dtype = CT_INT64)), 1, INT64_MIN, -2);
  CHECK_INTS(ct_logspace(CT_DOUBLE(0.5), CT_INT(2), 1, 10.0, OPTS(.dtype = CT_INT32)), 3);
  double d[3];
  ct_copy_to_buffer(ct_logspace(CT_INT(0), CT_INT(1), 3, -2.0, NULL), d, CT_FLOAT64, sizeof d);
  CHECK(d[0] == 1 && isnan(d[1]) && d[2] == -2); /* torch: [1., nan, -2.] */
  CHECK_EQ_INT(ct_numel(ct_logspace(CT_INT(0), CT_INT(2), 0, 10.0, NULL)), 0);
  CHECK(ct_logspace(CT_INT(0), CT_INT(1), 1, 10.0, OPTS(.dtype = CT_FLOAT16)) != NULL); /* one step: a fill */
  ct_scope_end();
  CHECK(!ct_logspace(CT_INT(0), CT_INT(2), 3, 10.0, OPTS(.dtype = CT_FLOAT16)));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"logspace_cpu\" not implemented for 'Half'");
  CHECK(!ct_logspace(CT_INT(0), CT_INT(2), 3, 10.0, OPTS(.dtype = CT_BOOL)));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"logspace_cpu\" not implemented for 'Bool'");
  CHECK(!ct_logspace(CT_INT(0), CT_INT(2), -2, 10.0, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "number of steps must be non-negative");
  CHECK(!ct_logspace(CT_INT(0), CT_COMPLEX(1, 2), 3, 10.0, OPTS(.dtype = CT_FLOAT32)));
  CHECK_ERROR(CT_ERR_RUNTIME,
              "torch.logspace(): inferred dtype c10::complex<float> can't be safely cast to passed dtype Float");
  CHECK(!ct_logspace(CT_INT(0), CT_DOUBLE(1e10), 2, 10.0, OPTS(.dtype = CT_INT32)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int without overflow");
}

static void test_eye(void) {
  ct_scope_begin();
  ct_tensor *e = ct_eye_m(3, 2, NULL);
  CHECK_SHAPE(e, 3, 2);
  float v[6];
  ct_copy_to_buffer(e, v, CT_FLOAT32, sizeof v);
  const float want[6] = {1, 0, 0, 1, 0, 0};
  CHECK(memcmp(v, want, sizeof v) == 0);
  ct_tensor *b = ct_eye(2, OPTS(.dtype = CT_BOOL));
  uint8_t bv[4];
  ct_copy_to_buffer(b, bv, CT_BOOL, sizeof bv);
  CHECK(bv[0] == 1 && bv[1] == 0 && bv[2] == 0 && bv[3] == 1);
  ct_tensor *z = ct_eye(0, NULL);
  CHECK_SHAPE(z, 0, 0);
  ct_tensor *m = ct_eye(3, OPTS(.device = CT_DEVICE_META));
  CHECK(ct_is_meta(m));
  CHECK_STRIDES(m, 3, 1);
  CHECK(ct_requires_grad(ct_eye_m(2, 3, OPTS(.requires_grad = true))));
  ct_complex64 c[4];
  ct_copy_to_buffer(ct_eye(2, OPTS(.dtype = CT_COMPLEX64)), c, CT_COMPLEX64, sizeof c);
  CHECK(c[0].re == 1 && c[0].im == 0 && c[1].re == 0 && c[3].re == 1);
  ct_scope_end();
  CHECK(!ct_eye(-1, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "n must be greater or equal to 0, got -1");
  CHECK(!ct_eye_m(2, -1, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "m must be greater or equal to 0, got -1");
  CHECK(!ct_eye_m(-1, -2, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "n must be greater or equal to 0, got -1");
  CHECK(!ct_eye_m(2, 3, OPTS(.dtype = CT_INT32, .requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
}

int main(void) {
  test_arange_values();
  test_arange_lengths_and_dtypes();
  test_arange_errors();
  test_linspace();
  test_logspace();
  test_eye();
  return TEST_SUMMARY();
}
