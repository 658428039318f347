/* Unary elementary ops (abs, sign, rounding, reciprocal, square, deg2rad, nan_to_num, bitwise/logical not):
   values, dtypes, forms and error messages from torch 1.13. */
#include <math.h>

#include "check.h"

static ct_tensor *f32(const float *v, int64_t n) { return ct_tensor_from_data(v, CT_FLOAT32, (ct_shape){(int64_t[]){n}, 1}, NULL); }
static ct_tensor *of(const void *v, ct_dtype dt, int64_t n) { return ct_tensor_from_data(v, dt, (ct_shape){(int64_t[]){n}, 1}, NULL); }
static ct_tensor *conv(const void *v, ct_dtype src, ct_dtype dt, int64_t n) {
  return ct_tensor_from_data(v, src, (ct_shape){(int64_t[]){n}, 1}, &(ct_tensor_opts){.dtype = dt});
}
static ct_tensor *empty(ct_dtype dt, int64_t n) { return ct_empty((ct_shape){(int64_t[]){n}, 1}, &(ct_tensor_opts){.dtype = dt}); }

/* Values of t as doubles / int64 (NaN compared as NaN). */
static bool vals_d(const ct_tensor *t, const double *e, int64_t n) {
  double got[64];
  if (!t || ct_numel(t) != n || ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof(double) * (size_t)n) != CT_OK) return false;
  for (int64_t i = 0; i < n; i++) {
    if (isnan(e[i]) ? !isnan(got[i]) : (got[i] != e[i] || signbit(got[i]) != signbit(e[i]))) {
      fprintf(stderr, "  element %lld: got %.17g expected %.17g\n", (long long)i, got[i], e[i]);
      return false;
    }
  }
  return true;
}
static bool vals_i(const ct_tensor *t, const int64_t *e, int64_t n) {
  int64_t got[64];
  if (!t || ct_numel(t) != n || ct_copy_to_buffer(t, got, CT_INT64, sizeof(int64_t) * (size_t)n) != CT_OK) return false;
  for (int64_t i = 0; i < n; i++)
    if (got[i] != e[i]) {
      fprintf(stderr, "  element %lld: got %lld expected %lld\n", (long long)i, (long long)got[i], (long long)e[i]);
      return false;
    }
  return true;
}
#define VALS_D(t, ...) vals_d((t), (const double[]){__VA_ARGS__}, sizeof((double[]){__VA_ARGS__}) / sizeof(double))
#define VALS_I(t, ...) vals_i((t), (const int64_t[]){__VA_ARGS__}, sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

static void test_abs_sign(void) {
  ct_scope_begin();
  const int8_t i8[3] = {-128, -5, 7};
  ct_tensor *r = ct_abs(of(i8, CT_INT8, 3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT8);
  CHECK(VALS_I(r, -128, 5, 7));
  const int64_t i64[2] = {INT64_MIN, -3};
  CHECK(VALS_I(ct_absolute(of(i64, CT_INT64, 2)), INT64_MIN, 3));
  const float f[4] = {-0.0f, -1.5f, INFINITY, -NAN};
  CHECK(VALS_D(ct_abs(f32(f, 4)), 0.0, 1.5, INFINITY, NAN));
  ct_tensor *x = f32(f, 4);
  CHECK_EQ_INT(ct_abs_(x), CT_OK);
  CHECK(VALS_D(x, 0.0, 1.5, INFINITY, NAN));
  const bool b[2] = {true, false};
  CHECK(ct_abs(of(b, CT_BOOL, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"abs_cpu\" not implemented for 'Bool'");
  CHECK_EQ_INT(ct_abs_out(empty(CT_FLOAT64, 4), f32(f, 4)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Double but expected Float");

  /* sign: (0 < a) - (a < 0); NaN and -0.0 give +0; bool is the identity */
  const float s[5] = {-3.0f, -0.0f, NAN, 2.5f, -INFINITY};
  CHECK(VALS_D(ct_sign(f32(s, 5)), -1.0, 0.0, 0.0, 1.0, -1.0));
  CHECK(VALS_D(ct_sgn(f32(s, 5)), -1.0, 0.0, 0.0, 1.0, -1.0));
  r = ct_sign(of(b, CT_BOOL, 2));
  CHECK_EQ_INT(ct_dtype_of(r), CT_BOOL);
  CHECK(VALS_I(r, 1, 0));
  const uint8_t u8[3] = {0, 3, 255};
  CHECK(VALS_I(ct_sign(of(u8, CT_UINT8, 3)), 0, 1, 1));
  CHECK(VALS_I(ct_sign(of(i8, CT_INT8, 3)), -1, -1, 1));
  const float hv[3] = {-2, 0, 0.5f};
  ct_tensor *h = conv(hv, CT_FLOAT32, CT_FLOAT16, 3);
  CHECK_EQ_INT(ct_sign_(h), CT_OK);
  CHECK(VALS_D(h, -1.0, 0.0, 1.0));

  /* signbit: bool result, sign of -0.0 and of NaN; out must be bool */
  const float sb[5] = {-0.0f, 0.0f, NAN, -NAN, -1.0f};
  r = ct_signbit(f32(sb, 5));
  CHECK_EQ_INT(ct_dtype_of(r), CT_BOOL);
  CHECK(VALS_I(r, 1, 0, 0, 1, 1));
  CHECK(VALS_I(ct_signbit(conv(sb, CT_FLOAT32, CT_FLOAT16, 5)), 1, 0, 0, 1, 1));
  /* bfloat16 (the NaN a float -> bfloat16 conversion makes has no specified sign: docs/ARCHITECTURE.md) */
  const float sb4[4] = {-0.0f, 0.0f, -1.0f, 2.0f};
  CHECK(VALS_I(ct_signbit(conv(sb4, CT_FLOAT32, CT_BFLOAT16, 4)), 1, 0, 1, 0));
  CHECK(VALS_I(ct_signbit(conv(sb, CT_FLOAT32, CT_FLOAT64, 5)), 1, 0, 0, 1, 1));
  CHECK(VALS_I(ct_signbit(of(i8, CT_INT8, 3)), 1, 1, 0));
  CHECK(VALS_I(ct_signbit(of(u8, CT_UINT8, 3)), 0, 0, 0));
  CHECK(VALS_I(ct_signbit(of(b, CT_BOOL, 2)), 0, 0));
  CHECK_EQ_INT(ct_signbit_out(empty(CT_FLOAT32, 5), f32(sb, 5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "signbit does not support non-boolean outputs.");
  ct_tensor *o = empty(CT_BOOL, 0);
  CHECK_EQ_INT(ct_signbit_out(o, f32(sb, 5)), CT_OK);
  CHECK(VALS_I(o, 1, 0, 0, 1, 1));

  /* positive: the input itself; bool is an error */
  ct_tensor *p = f32(s, 5);
  int64_t rc = ct_refcount(p);
  ct_tensor *q = ct_positive(p);
  CHECK(q == p);
  CHECK_EQ_INT(ct_refcount(p), rc + 1);
  CHECK(ct_positive(of(b, CT_BOOL, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "The `+` operator, on a bool tensor is not supported.");
  ct_scope_end();
}

static void test_rounding(void) {
  ct_scope_begin();
  const float v[7] = {1.5f, -2.5f, 2.5f, 0.5f, -0.5f, -1.7f, NAN};
  CHECK(VALS_D(ct_round(f32(v, 7), NULL), 2.0, -2.0, 2.0, 0.0, -0.0, -2.0, NAN));
  CHECK(VALS_D(ct_ceil(f32(v, 7)), 2.0, -2.0, 3.0, 1.0, -0.0, -1.0, NAN));
  CHECK(VALS_D(ct_floor(f32(v, 7)), 1.0, -3.0, 2.0, 0.0, -1.0, -2.0, NAN));
  CHECK(VALS_D(ct_trunc(f32(v, 7)), 1.0, -2.0, 2.0, 0.0, -0.0, -1.0, NAN));
  CHECK(VALS_D(ct_fix(f32(v, 7)), 1.0, -2.0, 2.0, 0.0, -0.0, -1.0, NAN));
  ct_tensor *bf = conv(v, CT_FLOAT32, CT_BFLOAT16, 7);
  CHECK_EQ_INT(ct_floor_(bf), CT_OK);
  CHECK(VALS_D(bf, 1.0, -3.0, 2.0, 0.0, -1.0, -2.0, NAN));
  /* NaN stays NaN (torch's vectorized bfloat16 code packs it as 0xFFFF; NaN bits are not compared) */
  uint16_t bits[7];
  CHECK(ct_copy_to_buffer(bf, bits, CT_BFLOAT16, sizeof bits) == CT_OK && (bits[6] & 0x7FFF) > 0x7F80);

  /* integers are copied; bool and float16 have no kernel; complex inputs are rejected first */
  const int64_t iv[3] = {-3, 0, 7};
  ct_tensor *r = ct_ceil(of(iv, CT_INT64, 3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  CHECK(VALS_I(r, -3, 0, 7));
  CHECK(VALS_I(ct_round(of(iv, CT_INT64, 3), NULL), -3, 0, 7));
  const bool b[1] = {true};
  CHECK(ct_floor(of(b, CT_BOOL, 1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"floor_vml_cpu\" not implemented for 'Bool'");
  CHECK(ct_trunc(conv(v, CT_FLOAT32, CT_FLOAT16, 7)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"trunc_vml_cpu\" not implemented for 'Half'");
  CHECK(ct_round(conv(v, CT_FLOAT32, CT_FLOAT16, 7), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"round_vml_cpu\" not implemented for 'Half'");
  ct_tensor *cx = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK_EQ_INT(ct_ceil_out(empty(CT_FLOAT32, 2), cx), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "ceil is not supported for complex inputs");
  CHECK(ct_fix(cx) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "trunc is not supported for complex inputs");
  CHECK(ct_round(cx, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"round_vml_cpu\" not implemented for 'ComplexFloat'");
  CHECK_EQ_INT(ct_ceil_out(empty(CT_INT32, 3), of(iv, CT_INT64, 3)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Int but expected Long");

  /* round(decimals) */
  const float d[5] = {1.2345f, -2.5f, 2.5f, 1234.5f, 0.5f};
  CHECK(VALS_D(ct_round(f32(d, 5), &(ct_round_opts){2}), 1.2300000190734863, -2.5, 2.5, 1234.5, 0.5));
  const float d2[7] = {1.2345f, -2.5f, 2.5f, 1234.5f, 15, 25, -35};
  CHECK(VALS_D(ct_round(f32(d2, 7), &(ct_round_opts){-1}), 0.0, -0.0, 0.0, 1230.0, 20.0, 20.0, -40.0));
  CHECK(VALS_D(ct_round(conv(d, CT_FLOAT32, CT_BFLOAT16, 4), &(ct_round_opts){2}), 1.2421875, -2.5, 2.5, 1232.0));
  const double dd[4] = {1.2345, -2.5, 2.5, 1234.5};
  CHECK(VALS_D(ct_round(of(dd, CT_FLOAT64, 4), &(ct_round_opts){3}), 1.234, -2.5, 2.5, 1234.5));
  CHECK(VALS_D(ct_round(f32(d, 2), &(ct_round_opts){100}), NAN, NAN));
  ct_tensor *x = f32(d, 5);
  CHECK_EQ_INT(ct_round_(x, &(ct_round_opts){1}), CT_OK);
  CHECK(VALS_D(x, 1.2000000476837158, -2.5, 2.5, 1234.5, 0.5));
  CHECK(ct_round(of(iv, CT_INT64, 3), &(ct_round_opts){2}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"round_cpu\" not implemented for 'Long'");
  CHECK(ct_round(conv(d, CT_FLOAT32, CT_FLOAT16, 2), &(ct_round_opts){-2}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"round_cpu\" not implemented for 'Half'");

  /* frac: floating dtypes only */
  const float fr[5] = {1.5f, -2.25f, INFINITY, -0.0f, 7.0f};
  CHECK(VALS_D(ct_frac(f32(fr, 5)), 0.5, -0.25, NAN, 0.0, 0.0));
  CHECK(VALS_D(ct_frac(conv(fr, CT_FLOAT32, CT_FLOAT16, 2)), 0.5, -0.25));
  CHECK(ct_frac(of(iv, CT_INT64, 3)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"frac_cpu\" not implemented for 'Long'");
  ct_scope_end();
}

static void test_arith(void) {
  ct_scope_begin();
  /* reciprocal: integers and bool to the default float */
  const int64_t iv[3] = {0, 2, -4};
  ct_tensor *r = ct_reciprocal(of(iv, CT_INT64, 3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  CHECK(VALS_D(r, INFINITY, 0.5, -0.25));
  ct_tensor *o = empty(CT_FLOAT64, 0);
  CHECK_EQ_INT(ct_reciprocal_out(o, of(iv, CT_INT64, 3)), CT_OK);
  CHECK_EQ_INT(ct_dtype_of(o), CT_FLOAT64);
  CHECK(VALS_D(o, INFINITY, 0.5, -0.25));
  ct_tensor *l = of(iv, CT_INT64, 3);
  CHECK_EQ_INT(ct_reciprocal_(l), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  CHECK(VALS_I(l, 0, 2, -4));

  /* square: pow(t, 2); bool becomes int64, integers wrap */
  const bool b[2] = {true, false};
  r = ct_square(of(b, CT_BOOL, 2));
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  CHECK(VALS_I(r, 1, 0));
  ct_tensor *bt = of(b, CT_BOOL, 2);
  CHECK_EQ_INT(ct_square_(bt), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Bool but expected Long");
  const int8_t i8[3] = {100, -128, 11};
  CHECK(VALS_I(ct_square(of(i8, CT_INT8, 3)), 16, 0, 121));
  const int16_t i16[2] = {300, -200};
  CHECK(VALS_I(ct_square(of(i16, CT_INT16, 2)), 24464, -25536));
  const int64_t big[1] = {3037000500};
  CHECK(VALS_I(ct_square(of(big, CT_INT64, 1)), -9223372036709301616));
  CHECK_EQ_INT(ct_square_out(empty(CT_INT64, 3), of(i8, CT_INT8, 3)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Long but expected Char");

  /* deg2rad / rad2deg: a product with the constant in the dtype; integers give float32 */
  const int64_t deg[3] = {180, 90, -45};
  r = ct_deg2rad(of(deg, CT_INT64, 3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  CHECK(VALS_D(r, 3.1415927410125732, 1.5707963705062866, -0.7853981852531433));
  o = empty(CT_FLOAT64, 3);
  CHECK_EQ_INT(ct_deg2rad_out(o, of(deg, CT_INT64, 3)), CT_OK);
  CHECK(VALS_D(o, 3.1415927410125732, 1.5707963705062866, -0.7853981852531433));
  const float rad[2] = {1, 2};
  CHECK(VALS_D(ct_rad2deg(conv(rad, CT_FLOAT32, CT_FLOAT16, 2)), 57.28125, 114.5625));
  const double r3[1] = {3.0};
  CHECK(VALS_D(ct_rad2deg(of(r3, CT_FLOAT64, 1)), 171.88733853924697));
  CHECK_EQ_INT(ct_deg2rad_(of(deg, CT_INT64, 3)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  CHECK(ct_rad2deg(ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_COMPLEX64})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "rad2deg is not supported for complex tensors.");

  /* nan_to_num: the dtype's extremes by default */
  const float nv[4] = {NAN, INFINITY, -INFINITY, 1.5f};
  CHECK(VALS_D(ct_nan_to_num(f32(nv, 4), NULL), 0.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.5));
  CHECK(VALS_D(ct_nan_to_num(conv(nv, CT_FLOAT32, CT_BFLOAT16, 4), NULL), 0.0, 3.3895313892515355e+38,
               -3.3895313892515355e+38, 1.5));
  CHECK(VALS_D(ct_nan_to_num(conv(nv, CT_FLOAT32, CT_FLOAT16, 4), NULL), 0.0, 65504.0, -65504.0, 1.5));
  ct_nan_to_num_opts opt = {.nan = 1e10, .has_posinf = true, .posinf = 1e5, .has_neginf = true, .neginf = -70000.0};
  CHECK(VALS_D(ct_nan_to_num(conv(nv, CT_FLOAT32, CT_FLOAT16, 4), &opt), INFINITY, INFINITY, -INFINITY, 1.5));
  opt.nan = 1e300;
  CHECK(VALS_D(ct_nan_to_num(f32(nv, 4), &opt), INFINITY, 100000.0, -70000.0, 1.5));
  ct_tensor *x = f32(nv, 4);
  CHECK_EQ_INT(ct_nan_to_num_(x, &(ct_nan_to_num_opts){.nan = -1}), CT_OK);
  CHECK(VALS_D(x, -1.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.5));
  CHECK_EQ_INT(ct_nan_to_num_out(empty(CT_FLOAT32, 3), of(iv, CT_INT64, 3), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "nan_to_num: dtype of out: Float should be same as input: Long");
  o = empty(CT_INT64, 5);
  CHECK_EQ_INT(ct_nan_to_num_out(o, of(iv, CT_INT64, 3), NULL), CT_OK);
  CHECK_SHAPE(o, 3);
  CHECK(VALS_I(o, 0, 2, -4));
  CHECK(ct_nan_to_num(ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_COMPLEX64}), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"nan_to_num\" not implemented for 'ComplexFloat'");

  /* bitwise_not and logical_not */
  const uint8_t u8[2] = {0, 5};
  CHECK(VALS_I(ct_bitwise_not(of(u8, CT_UINT8, 2)), 255, 250));
  CHECK(VALS_I(ct_bitwise_not(of(b, CT_BOOL, 2)), 0, 1));
  CHECK(VALS_I(ct_bitwise_not(of(i8, CT_INT8, 3)), -101, 127, -12));
  CHECK(ct_bitwise_not(f32(nv, 4)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for 'Float'");
  const float lv[3] = {0.0f, 2.0f, NAN};
  r = ct_logical_not(f32(lv, 3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_BOOL);
  CHECK(VALS_I(r, 1, 0, 0));
  o = empty(CT_FLOAT32, 3);
  CHECK_EQ_INT(ct_logical_not_out(o, f32(lv, 3)), CT_OK);
  CHECK(VALS_D(o, 1.0, 0.0, 0.0));
  x = f32(lv, 3);
  CHECK_EQ_INT(ct_logical_not_(x), CT_OK);
  CHECK_EQ_INT(ct_dtype_of(x), CT_FLOAT32);
  CHECK(VALS_D(x, 1.0, 0.0, 0.0));
  ct_scope_end();
}

static void test_inplace_overlap(void) {
  ct_scope_begin();
  /* TensorIterator checks overlap before dtypes: an expanded int tensor reports the overlap */
  ct_tensor *e = ct_expand(ct_ones(CT_SHAPE(3, 1), &(ct_tensor_opts){.dtype = CT_INT64}), CT_SHAPE(3, 4));
  CHECK_EQ_INT(ct_reciprocal_(e), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor refers to a single "
                              "memory location. Please clone() the tensor before performing the operation.");
  /* transposed input: the result follows its layout */
  ct_tensor *t = ct_t(ct_ones(CT_SHAPE(3, 4), NULL));
  CHECK_STRIDES(ct_abs(t), 1, 4);
  CHECK_STRIDES(ct_deg2rad(ct_t(ct_ones(CT_SHAPE(3, 4), &(ct_tensor_opts){.dtype = CT_INT32}))), 1, 4);
  ct_scope_end();
}

int main(void) {
  test_abs_sign();
  test_rounding();
  test_arith();
  test_inplace_overlap();
  return TEST_SUMMARY();
}
