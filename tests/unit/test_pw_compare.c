/* Comparison, logical, bitwise and ternary ops. Expected values, dtypes and messages come from torch 1.13
   (its AVX2 CPU build: vector and scalar code paths included). */
#include <math.h>

#include "check.h"
#include "compat.h"
#include "core/internal.h"

#define F32(...) ct_tensor_from_data((const float[]){__VA_ARGS__}, CT_FLOAT32, CT_SHAPE(sizeof((float[]){__VA_ARGS__}) / 4), NULL)
#define I64(...) \
  ct_tensor_from_data((const int64_t[]){__VA_ARGS__}, CT_INT64, CT_SHAPE(sizeof((int64_t[]){__VA_ARGS__}) / 8), NULL)
#define NUM_I(v) ct_wrapped_scalar(ct_scalar_int(v))
#define NUM_D(v) ct_wrapped_scalar(ct_scalar_double(v))

static ct_tensor *typed(ct_tensor *t, ct_dtype dt) { return ct_to_dtype(t, dt); }

/* The elements of t as int64 / double / bool / raw float32 bits. */
static void ints(const ct_tensor *t, int64_t *out, size_t n) { CHECK(ct_copy_to_buffer(t, out, CT_INT64, n * 8) == CT_OK); }
static void dbls(const ct_tensor *t, double *out, size_t n) { CHECK(ct_copy_to_buffer(t, out, CT_FLOAT64, n * 8) == CT_OK); }
static void f32bits(const ct_tensor *t, int32_t *out, size_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_FLOAT32, n * 4) == CT_OK);
}
#define CHECK_INTS(t, ...)                                                        \
  do {                                                                            \
    const int64_t e_[] = {__VA_ARGS__};                                           \
    int64_t g_[sizeof e_ / 8];                                                    \
    ints((t), g_, sizeof e_ / 8);                                                 \
    for (size_t i_ = 0; i_ < sizeof e_ / 8; i_++) CHECK_EQ_INT(g_[i_], e_[i_]);   \
  } while (0)
#define CHECK_F32BITS(t, ...)                                                     \
  do {                                                                            \
    const int32_t e_[] = {__VA_ARGS__};                                           \
    int32_t g_[sizeof e_ / 4];                                                    \
    f32bits((t), g_, sizeof e_ / 4);                                              \
    for (size_t i_ = 0; i_ < sizeof e_ / 4; i_++) CHECK_EQ_INT(g_[i_], e_[i_]);   \
  } while (0)

static void test_comparisons(void) {
  ct_scope_begin();
  ct_tensor *u8 = typed(I64(0, 1, 255), CT_UINT8);
  /* the number wraps into uint8: -1 is 255, 256 is 0 */
  ct_tensor *r = ct_lt(u8, NUM_I(-1));
  CHECK_EQ_INT(ct_dtype_of(r), CT_BOOL);
  CHECK_INTS(r, 1, 1, 0);
  CHECK_INTS(ct_eq(u8, NUM_I(256)), 1, 0, 0);
  CHECK_INTS(ct_lt(u8, NUM_I(256)), 0, 0, 0);
  /* int == 2.5 compares in float32: 16777217 is 16777216 there */
  ct_tensor *i32 = typed(I64(16777217, 2, 3), CT_INT32);
  CHECK_INTS(ct_eq(i32, NUM_D(16777216.0)), 1, 0, 0);
  CHECK_INTS(ct_eq(typed(I64(1, 2), CT_INT8), NUM_I(257)), 1, 0);
  /* NaN compares false except ne */
  ct_tensor *nan = F32(NAN, 1);
  CHECK_INTS(ct_eq(nan, nan), 0, 1);
  CHECK_INTS(ct_ne(nan, nan), 1, 0);
  CHECK_INTS(ct_not_equal(nan, nan), 1, 0);
  CHECK_INTS(ct_le(nan, NUM_D(INFINITY)), 0, 1);
  CHECK_INTS(ct_greater_equal(F32(1, 2), NUM_I(2)), 0, 1);
  CHECK_INTS(ct_less(F32(1, 2), NUM_I(2)), 1, 0);
  /* in place: the result in self's dtype, no can_cast check */
  ct_tensor *f = F32(1, 2);
  CHECK_EQ_INT(ct_eq_(f, F32(1, 3)), CT_OK);
  double d[3];
  dbls(f, d, 2);
  CHECK(d[0] == 1.0 && d[1] == 0.0);
  ct_tensor *l = I64(1, 2);
  CHECK_EQ_INT(ct_lt_(l, NUM_D(2.5)), CT_OK);
  CHECK_INTS(l, 1, 1);
  /* out= of another dtype receives the cast */
  ct_tensor *o = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT8});
  CHECK_EQ_INT(ct_eq_out(o, I64(1, 2), NUM_I(2)), CT_OK);
  CHECK_INTS(o, 0, 1);
  /* complex: eq / ne only */
  ct_tensor *c = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_lt(c, c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lt_cpu\" not implemented for 'ComplexFloat'");
  CHECK(ct_greater(c, typed(c, CT_COMPLEX128)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"gt_cpu\" not implemented for 'ComplexDouble'");
  /* complex eq into a complex out: PyTorch's vector code compares the parts separately (first 8), the
     scalar code gives 1 / 0 */
  ct_tensor *x = ct_full(CT_SHAPE(10), ct_scalar_complex(1, 2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *y = ct_full(CT_SHAPE(10), ct_scalar_complex(1, 3), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *oc = ct_empty(CT_SHAPE(10), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK_EQ_INT(ct_eq_out(oc, x, y), CT_OK);
  float cv[20];
  CHECK(ct_copy_to_buffer(oc, cv, CT_COMPLEX64, sizeof cv) == CT_OK);
  CHECK(cv[0] == 1 && cv[1] == 0 && cv[14] == 1 && cv[15] == 0 && cv[16] == 0 && cv[17] == 0 && cv[19] == 0);
  /* shapes */
  CHECK(ct_eq_(typed(I64(1, 2), CT_UINT8), ct_ones(CT_SHAPE(3, 1), NULL)) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [2] doesn't match the broadcast shape [3, 2]");
  ct_scope_end();
}

static void test_logical_bitwise(void) {
  ct_scope_begin();
  ct_tensor *f = F32(0, 1.5f, NAN);
  ct_tensor *i = I64(0, 2, -3);
  CHECK_INTS(ct_logical_and(f, i), 0, 1, 1);
  CHECK_INTS(ct_logical_or(f, F32(0, 0, 0)), 0, 1, 1);
  CHECK_INTS(ct_logical_xor(f, i), 0, 0, 0);
  ct_tensor *o = ct_empty(CT_SHAPE(3), NULL);
  CHECK_EQ_INT(ct_logical_and_out(o, f, i), CT_OK);
  CHECK_EQ_INT(ct_dtype_of(o), CT_FLOAT32);
  /* promoted to the common dtype: 1e-300 is 0 in float32 */
  double tiny = 1e-300;
  ct_tensor *t0 = ct_tensor_from_data(&tiny, CT_FLOAT64, (ct_shape){NULL, 0}, NULL);
  CHECK_INTS(ct_logical_and(F32(0.1f), t0), 0);
  /* bitwise */
  CHECK_INTS(ct_bitwise_and(typed(I64(255), CT_UINT8), NUM_I(-2)), 254);
  CHECK_INTS(ct_bitwise_xor(typed(I64(1, 0), CT_BOOL), NUM_I(1)), 0, 1);
  CHECK_EQ_INT(ct_dtype_of(ct_bitwise_xor(typed(I64(1, 0), CT_BOOL), NUM_I(1))), CT_INT64);
  CHECK(ct_bitwise_and(F32(1), F32(1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bitwise_and_cpu\" not implemented for 'Float'");
  CHECK(ct_bitwise_or(I64(3), NUM_D(1.5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bitwise_or_cpu\" not implemented for 'Float'");
  ct_tensor *i8 = typed(I64(3), CT_INT8);
  CHECK_EQ_INT(ct_bitwise_and_(i8, NUM_D(1.0)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Char");
  CHECK_EQ_INT(ct_bitwise_and_out(ct_empty(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_BOOL}), I64(3), I64(1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Long can't be cast to the desired output type Bool");
  /* shifts: 32-bit below int64, count mod the width, arithmetic right shift */
  ct_tensor *a8 = typed(I64(1, 5, -8, 127, 100), CT_INT8);
  CHECK_INTS(ct_bitwise_left_shift(a8, typed(I64(1), CT_INT8)), 2, 10, -16, -2, -56);
  CHECK_INTS(ct_bitwise_left_shift(a8, typed(I64(33), CT_INT8)), 2, 10, -16, -2, -56);
  CHECK_INTS(ct_bitwise_right_shift(a8, typed(I64(9), CT_INT8)), 0, 0, -1, 0, 0);
  CHECK_INTS(ct_bitwise_right_shift(a8, typed(I64(100), CT_INT8)), 0, 0, -1, 7, 6);
  ct_tensor *a32 = typed(I64(1, 5, -8, 127, 100), CT_INT32);
  CHECK_INTS(ct_bitwise_left_shift(a32, typed(I64(-2), CT_INT32)), 1073741824, 1073741824, 0, -1073741824, 0);
  CHECK_INTS(ct_bitwise_left_shift(I64(1, -8), NUM_I(100)), 68719476736LL, -549755813888LL);
  CHECK_INTS(ct_bitwise_right_shift(I64(-8, -8, -8), I64(63, 64, -1)), -1, -8, -1);
  CHECK_INTS(ct_bitwise_right_shift(typed(I64(5, -7), CT_UINT8), typed(I64(1, 2), CT_UINT8)), 2, 62);
  CHECK_INTS(ct_bitwise_left_shift(NUM_I(3), I64(1, 2)), 6, 12);
  CHECK(ct_bitwise_left_shift(F32(1), NUM_I(1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lshift_cpu\" not implemented for 'Float'");
  CHECK(ct_bitwise_right_shift(typed(I64(1), CT_BOOL), typed(I64(1), CT_BOOL)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"rshift_cpu\" not implemented for 'Bool'");
  ct_scope_end();
}

static void test_isclose(void) {
  ct_scope_begin();
  ct_tensor *a = F32(1, 2, NAN, INFINITY, -INFINITY, 1e-9f, 0);
  ct_tensor *b = F32(1.00001f, 2.1f, NAN, INFINITY, INFINITY, 0, -0.0f);
  CHECK_INTS(ct_isclose(a, b, NULL), 0, 0, 0, 1, 0, 1, 1);
  CHECK_INTS(ct_isclose(a, b, &(ct_isclose_opts){.equal_nan = true}), 0, 0, 1, 1, 0, 1, 1);
  CHECK_INTS(ct_isclose(a, b, &(ct_isclose_opts){.rtol = CT_DOUBLE(0.1)}), 1, 1, 0, 1, 0, 1, 1);
  CHECK_INTS(ct_isclose(a, b, &(ct_isclose_opts){.rtol = CT_INT(0), .atol = CT_INT(0)}), 0, 0, 0, 1, 0, 0, 1);
  CHECK(ct_isclose(a, b, &(ct_isclose_opts){.rtol = CT_DOUBLE(-1)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got -1");
  CHECK(ct_isclose(a, b, &(ct_isclose_opts){.atol = CT_DOUBLE(-0.5)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "atol must be greater than or equal to zero, but got -0.5");
  CHECK(ct_isclose(a, typed(b, CT_FLOAT64), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Float did not match Double");
  /* integers compare in the default dtype: 2^40 + 1 is 2^40 in float32 */
  ct_tensor *big = I64(1099511627776LL), *big1 = I64(1099511627777LL);
  ct_isclose_opts half = {.rtol = CT_INT(0), .atol = CT_DOUBLE(0.5)};
  CHECK_INTS(ct_isclose(big, big1, &half), 1);
  CHECK_INTS(ct_isclose(typed(I64(1), CT_UINT8), typed(I64(3), CT_UINT8), &(ct_isclose_opts){.rtol = CT_INT(0), .atol = CT_INT(2)}), 1);
  CHECK_INTS(ct_isclose(typed(I64(100), CT_INT8), typed(I64(-100), CT_INT8), &(ct_isclose_opts){.rtol = CT_INT(1), .atol = CT_INT(0)}), 0);
  /* float16: every intermediate rounds to float16 */
  ct_tensor *h1 = typed(F32(1.0f, 1.001f, 100.0f, 1e-3f), CT_FLOAT16), *h2 = typed(F32(1.0009f, 1.0f, 100.1f, 0), CT_FLOAT16);
  CHECK_INTS(ct_isclose(h1, h2, &(ct_isclose_opts){.rtol = CT_DOUBLE(1e-3), .atol = CT_DOUBLE(1e-4)}), 1, 1, 0, 0);
  bool all = true;
  CHECK_EQ_INT(ct_allclose(a, b, &all, NULL), CT_OK);
  CHECK(!all);
  CHECK_EQ_INT(ct_allclose(a, a, &all, &(ct_isclose_opts){.equal_nan = true}), CT_OK);
  CHECK(all);
  CHECK_EQ_INT(ct_allclose(ct_empty(CT_SHAPE(0), NULL), ct_empty(CT_SHAPE(3, 0), NULL), &all, NULL), CT_OK);
  CHECK(all);
  CHECK_EQ_INT(ct_allclose(a, F32(1, 2), &all, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (7) must match the size of tensor b (2) at non-singleton dimension 0");
  ct_scope_end();
}

static void test_where_masked_fill(void) {
  ct_scope_begin();
  ct_tensor *c = typed(I64(1, 0, 1), CT_BOOL);
  ct_tensor *r = ct_where(c, NUM_I(1), NUM_D(2));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  CHECK_INTS(r, 1, 2, 1);
  CHECK_EQ_INT(ct_dtype_of(ct_where(c, NUM_I(1), NUM_I(2))), CT_INT64);
  CHECK_INTS(ct_where(typed(I64(2, 0, 1), CT_UINT8), NUM_D(1), NUM_D(2)), 1, 2, 1);
  CHECK(ct_where(I64(1, 0, 1), NUM_D(1), NUM_D(2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype Long");
  CHECK(ct_where(I64(1, 0, 1), typed(I64(1, 2, 3), CT_INT8), NUM_I(200)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  /* a 0-dim int64 tensor is no Python number: it wraps */
  ct_tensor *m1 = ct_scalar_tensor(ct_scalar_int(-1), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK_INTS(ct_where(c, typed(I64(1, 2, 3), CT_UINT8), m1), 1, 255, 3);
  ct_tensor *o = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_where_out(o, c, F32(1, 2, 3), F32(4, 5, 6)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/cpu/Loops.h\":308, please report a bug to PyTorch. ");
  CHECK_EQ_INT(ct_where_out(o, c, typed(F32(1, 2, 3), CT_FLOAT64), NUM_D(0.5)), CT_OK);
  dbls(o, (double[3]){0}, 3);

  /* masked_fill */
  ct_tensor *a = F32(1, 2, 3);
  CHECK_INTS(ct_masked_fill(a, c, NUM_D(5.5)), 5, 2, 5);
  CHECK_INTS(ct_masked_fill(I64(1, 2, 3), c, NUM_D(5.5)), 5, 2, 5);
  CHECK(ct_masked_fill(typed(I64(1, 2, 3), CT_INT32), c, NUM_I(1LL << 40)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int without overflow");
  CHECK(ct_masked_fill(I64(1, 2, 3), c, NUM_D(NAN)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int64_t without overflow");
  CHECK_INTS(ct_masked_fill(typed(I64(1, 2, 3), CT_UINT8), c, NUM_I(-1)), 255, 2, 255);
  /* a non-bool mask is read by its first byte, which must be 0 or 1 */
  CHECK_INTS(ct_masked_fill(a, I64(1, 0, 1), NUM_I(5)), 5, 2, 5);
  CHECK_INTS(ct_masked_fill(a, typed(I64(256, 1, 0), CT_INT32), NUM_I(5)), 1, 5, 3);
  CHECK_INTS(ct_masked_fill(a, F32(1, 0, 1), NUM_I(5)), 1, 2, 3);
  CHECK(ct_masked_fill(a, I64(1, 2, 3), NUM_I(5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Mask tensor can take 0 and 1 values only");
  CHECK(ct_masked_fill(a, c, F32(5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  CHECK(ct_masked_fill(a, typed(I64(1, 0), CT_BOOL), NUM_I(5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
  /* broadcast result, contiguous */
  ct_tensor *col = ct_view(a, CT_SHAPE(3, 1));
  r = ct_masked_fill(col, c, NUM_I(5));
  CHECK_SHAPE(r, 3, 3);
  CHECK_STRIDES(r, 3, 1);
  CHECK_INTS(r, 5, 1, 5, 5, 2, 5, 5, 3, 5);
  /* in place: the mask broadcasts to self, never the other way; a failure leaves self alone */
  ct_tensor *s = F32(1, 2, 3);
  CHECK_EQ_INT(ct_masked_fill_(s, ct_view(c, CT_SHAPE(3, 1)), NUM_I(5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [3] doesn't match the broadcast shape [3, 3]");
  CHECK_EQ_INT(ct_masked_fill_(s, I64(1, 2, 1), NUM_I(5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Mask tensor can take 0 and 1 values only");
  CHECK_INTS(s, 1, 2, 3);
  CHECK_EQ_INT(ct_masked_fill_(s, c, ct_scalar_tensor(ct_scalar_double(7.25), NULL)), CT_OK);
  dbls(s, (double[3]){0}, 3);
  double d[3];
  dbls(s, d, 3);
  CHECK(d[0] == 7.25 && d[1] == 2 && d[2] == 7.25);
  ct_scope_end();
}

/* bits of a float, and the scalar formulas the switch off computes (compat.h), one rounding per operation */
static int32_t fb(float f) { return (int32_t)compat_fbits(f); }
static float lerp_plain(float s, float e, float w) {
  return w < 0.5f ? s + w * (e - s) : e - (e - s) * (1 - w);
}

static void test_lerp_addc(void) {
  ct_scope_begin();
  ct_tensor *a = F32(1, 2, 3), *b = F32(4, 6, 9);
  CHECK_F32BITS(ct_lerp(a, b, F32(0.1f, 0.5f, 0.9f)), 1067869798, 1082130432, 1090938470);
  /* PyTorch's test is weight < 0.5 (not |weight|): -1 takes self + w * (end - self); both forms fused */
  ct_tensor *s = F32(0.1f, 1e8f, -3.3f), *e = F32(7.7f, -1e-3f, 2.2f);
  CHECK_F32BITS(ct_lerp(s, e, NUM_D(-1.0)), -1058013184, 1295957024, -1056125747);
  CHECK_F32BITS(ct_lerp(s, e, NUM_D(0.7)), COMPAT_PICK(1085108387, fb(lerp_plain(0.1f, 7.7f, 0.7f))),
                COMPAT_PICK(1273291201, fb(lerp_plain(1e8f, -1e-3f, 0.7f))),
                COMPAT_PICK(1057803468, fb(lerp_plain(-3.3f, 2.2f, 0.7f))));
  int16_t bf[3];
  CHECK(ct_copy_to_buffer(ct_lerp(typed(a, CT_BFLOAT16), typed(b, CT_BFLOAT16), NUM_D(0.3)), bf, CT_BFLOAT16, 6) == CT_OK);
  CHECK(bf[0] == 16371 && bf[1] == 16461 && bf[2] == 16538);
  CHECK(ct_lerp(a, typed(b, CT_FLOAT64), NUM_D(0.5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected dtype float for `end` but got dtype double");
  CHECK(ct_lerp(a, b, I64(2, 3, 4)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected dtype float for `weight` but got dtype long int");
  CHECK(ct_lerp(typed(a, CT_FLOAT16), typed(b, CT_FLOAT16), NUM_D(0.5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lerp_kernel_scalar\" not implemented for 'Half'");
  CHECK(ct_lerp(typed(a, CT_INT32), typed(b, CT_INT32), typed(a, CT_INT32)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lerp_kernel_tensor\" not implemented for 'Int'");
  CHECK(ct_lerp(a, b, NUM_D(1e40)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  CHECK_EQ_INT(ct_lerp_out(ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64}), a, b, F32(0.5f)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Double but expected Float");

  /* addcmul: fma(value * t1, t2, self); addcdiv: self + value * t1 / t2 */
  ct_tensor *t2 = F32(1.1f, 3.3f, 1.0f / 3);
  ct_addc_opts v = {ct_scalar_double(0.37)};
  /* the switch off: self + value * t1 * t2 */
  CHECK_F32BITS(ct_addcmul(s, e, t2, &v), COMPAT_PICK(1078917176, fb(0.1f + 0.37f * 7.7f * 1.1f)),
                COMPAT_PICK(1287568416, fb(1e8f + 0.37f * -1e-3f * 3.3f)),
                COMPAT_PICK(-1069427284, fb(-3.3f + 0.37f * 2.2f * (1.0f / 3))));
  CHECK_F32BITS(ct_addcdiv(s, e, t2, &v), 1076635893, 1287568416, -1084512796);
  ct_tensor *u = typed(I64(1, 2, 3), CT_UINT8);
  CHECK_INTS(ct_addcmul(u, u, u, &(ct_addc_opts){ct_scalar_int(-1)}), 0, 254, 250);
  CHECK(ct_addcmul(u, u, u, &(ct_addc_opts){ct_scalar_int(300)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK_INTS(ct_addcmul(I64(1, 2, 3), I64(1, 2, 3), I64(1, 2, 3), &(ct_addc_opts){ct_scalar_double(2.5)}), 3, 10, 21);
  CHECK(ct_addcmul(typed(a, CT_FLOAT16), typed(a, CT_FLOAT16), typed(a, CT_FLOAT16), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"addcmul_cpu_out\" not implemented for 'Half'");
  CHECK_EQ_INT(ct_addcmul_out(ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64}), a, a, a, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/cpu/Loops.h\":347, please report a bug to PyTorch. ");
  CHECK(ct_addcdiv(a, I64(1, 2, 3), typed(I64(1, 2, 3), CT_BOOL), NULL) == NULL);
  CHECK(strncmp(ct_last_error_message(), "Integer division with addcdiv is no longer supported", 52) == 0);
  ct_clear_error();
  ct_tensor *l = I64(1, 2, 3);
  CHECK_EQ_INT(ct_addcdiv_(l, a, a, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  /* complex64: 8 elements by the vector formula, the ninth by GCC's leftover form */
  ct_tensor *cs = ct_full(CT_SHAPE(9), ct_scalar_complex(1, 2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *c1 = ct_full(CT_SHAPE(9), ct_scalar_complex(0.3, -0.7), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *c2 = ct_full(CT_SHAPE(9), ct_scalar_complex(1.7, 0.1), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  int32_t cb[18];
  CHECK(ct_copy_to_buffer(ct_addcmul(cs, c1, c2, &(ct_addc_opts){ct_scalar_complex(0.37, -1.3)}), cb, CT_COMPLEX64,
                          sizeof cb) == CT_OK);
  /* the switch off: self + (value * t1) * t2 everywhere, c10::complex's products rounded per operation */
  const float vr = 0.37f, vi = -1.3f, pr = vr * 0.3f - vi * -0.7f, pi = vr * -0.7f + vi * 0.3f;
  const float qr = pr * 1.7f - pi * 0.1f, qi = pr * 0.1f + pi * 1.7f;
  CHECK(COMPAT_PICK(
      cb[0] == -1097451388 && cb[1] == 1062279628 && cb[16] == -1097451388 && cb[17] == 1062279630,
      cb[0] == fb(1 + qr) && cb[1] == fb(2 + qi) && cb[16] == fb(1 + qr) && cb[17] == fb(2 + qi)));
  ct_scope_end();
}

static void test_clamp(void) {
  ct_scope_begin();
  ct_tensor *a = F32(1, 2, 3);
  ct_tensor *i = I64(1, 2, 3);
  CHECK(ct_clamp(a, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.clamp: At least one of 'min' or 'max' must not be None");
  ct_tensor *r = ct_clamp(i, NUM_D(1.5), NUM_I(2));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  double d[3];
  dbls(r, d, 3);
  CHECK(d[0] == 1.5 && d[1] == 2 && d[2] == 2);
  CHECK_INTS(ct_clamp(typed(i, CT_UINT8), NUM_I(-1), NULL), 255, 255, 255);
  CHECK(ct_clamp(typed(i, CT_UINT8), NUM_I(-1), NUM_I(300)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(ct_clamp(a, ct_wrapped_scalar(ct_scalar_complex(0, 1)), NUM_I(2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type double without overflow");
  CHECK(ct_clamp_max(a, ct_wrapped_scalar(ct_scalar_complex(0, 1))) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "clamp is not supported for complex types");
  CHECK(ct_clamp(typed(a, CT_FLOAT16), NUM_D(1.5), NUM_D(2.5)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"clamp_scalar_cpu\" not implemented for 'Half'");
  CHECK(ct_clamp(typed(a, CT_FLOAT16), NUM_D(1.5), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"clamp_min_cpu\" not implemented for 'Half'");
  CHECK(ct_clamp_max(typed(a, CT_BOOL), ct_wrapped_scalar(ct_scalar_bool(false))) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"clamp_max_scalar_cpu\" not implemented for 'Bool'");
  /* NaN bounds: clamp with both and clamp_min / clamp_max fill with NaN; clamp with one does not */
  dbls(ct_clamp(typed(a, CT_FLOAT16), NUM_D(NAN), NUM_I(1)), d, 3);
  CHECK(isnan(d[0]) && isnan(d[2]));
  dbls(ct_clamp(a, NUM_D(NAN), NULL), d, 3);
  CHECK(d[0] == 1 && d[2] == 3);
  dbls(ct_clamp_min(i, NUM_D(NAN)), d, 3);
  CHECK(isnan(d[0]) && isnan(d[1]));
  /* in place keeps self's dtype (TypeMeta name in the message), out= must have the result dtype */
  ct_tensor *l = I64(1, 2, 3);
  CHECK_EQ_INT(ct_clamp_(l, NUM_D(1.5), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type long int");
  CHECK_EQ_INT(ct_clamp_(l, F32(1.5f), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  CHECK_EQ_INT(ct_clip_out(ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64}), a, NUM_D(1.5), NULL),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Double but expected Float");
  /* Tensor bounds: int8 with 0-dim int64 bounds stays int8 (300 wraps to 44) */
  ct_tensor *b100 = ct_scalar_tensor(ct_scalar_int(100), &(ct_tensor_opts){.dtype = CT_INT64});
  ct_tensor *b300 = ct_scalar_tensor(ct_scalar_int(300), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK_INTS(ct_clamp(typed(i, CT_INT8), b100, b300), 44, 44, 44);
  /* ...but with a Python number the 0-dim bound is a number too: int8 and 300 do not fit */
  CHECK(ct_clamp(typed(i, CT_INT8), NUM_I(100), b300) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  CHECK(ct_clamp(typed(a, CT_FLOAT16), typed(a, CT_FLOAT16), typed(a, CT_FLOAT16)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"clamp_cpu\" not implemented for 'Half'");
  CHECK(ct_clamp_max(typed(a, CT_COMPLEX64), F32(1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"minimum_cpu\" not implemented for 'ComplexFloat'");
  CHECK_INTS(ct_clamp_min(typed(a, CT_BOOL), typed(I64(1), CT_BOOL)), 1, 1, 1);
  /* ties and NaN: the first 16 float32 elements of a contiguous row take PyTorch's vector form
     (max(-0, +0) is +0), the 17th its scalar form (-0); NaN everywhere (torch: all ones, then quiet NaN) */
  float z[17], nan17[17];
  for (int k = 0; k < 17; k++) z[k] = -0.0f, nan17[k] = NAN;
  ct_tensor *zt = ct_tensor_from_data(z, CT_FLOAT32, CT_SHAPE(17), NULL);
  int32_t bits[17];
  f32bits(ct_clamp(zt, ct_zeros(CT_SHAPE(17), NULL), NULL), bits, 17);
  /* the switch off: the scalar form, std::max(-0, +0) = -0, everywhere */
  CHECK(COMPAT_PICK(bits[0] == 0 && bits[15] == 0 && bits[16] == INT32_MIN,
                    bits[0] == fb(z[0] < 0 ? 0.0f : z[0]) && bits[15] == bits[0] && bits[16] == bits[0]));
  f32bits(ct_clamp(ct_tensor_from_data(nan17, CT_FLOAT32, CT_SHAPE(17), NULL), ct_zeros(CT_SHAPE(17), NULL), NULL), bits,
          17);
  for (int k = 0; k < 17; k++) CHECK((bits[k] & 0x7FFFFFFF) > 0x7F800000);
  /* the Scalar forms agree: -0 stays */
  f32bits(ct_clamp(zt, NUM_D(0.0), NULL), bits, 17);
  CHECK(bits[0] == INT32_MIN && bits[16] == INT32_MIN);
  ct_scope_end();
}

static void test_null_inputs(void) {
  ct_scope_begin();
  ct_tensor *a = F32(1);
  ct_clear_error();
  CHECK(ct_eq(NULL, a) == NULL);
  CHECK(ct_where(a, NULL, a) == NULL);
  CHECK(ct_lerp(a, a, NULL) == NULL);
  CHECK(ct_addcmul(a, NULL, a, NULL) == NULL);
  CHECK(ct_clamp(NULL, a, NULL) == NULL);
  CHECK(ct_clamp_min(a, NULL) == NULL);
  CHECK(ct_masked_fill(a, NULL, a) == NULL);
  CHECK(ct_isclose(a, NULL, NULL) == NULL);
  bool all;
  CHECK(ct_allclose(NULL, a, &all, NULL) != CT_OK);
  /* NULL inputs keep a recorded error; with none, the first (ct_eq's) records a ValueError naming the
     argument (and, where the library's symbols can be read, the function: not in this static test) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 'input' (position 1) is NULL");
  ct_scope_end();
}

/* lerp with a NaN weight where end - self is NaN too (-inf, -inf): NaN in every row form, scalar and
   tensor weights, in place or not (torch 1.13's signs differ between its vector and scalar code: "-nan" /
   "+nan"; NaN bits are not compared, docs/ARCHITECTURE.md). torch.full((4,), -inf).lerp(torch.full((4,),
   -inf), nan) -> nan x4 */
static bool all_nan(const ct_tensor *t) {
  double v[32];
  CHECK(ct_copy_to_buffer(t, v, CT_FLOAT64, (size_t)ct_numel(t) * sizeof(double)) == CT_OK);
  bool all = true;
  for (int64_t i = 0; i < ct_numel(t); i++) all = all && isnan(v[i]);
  return all;
}
static void test_lerp_nan_weight(void) {
  ct_scope_begin();
  for (ct_dtype dt = CT_FLOAT32; dt <= CT_FLOAT64; dt++) {
    ct_tensor_opts o = {.dtype = dt};
    ct_tensor *w = ct_wrapped_scalar(CT_DOUBLE(NAN)); /* a Python float weight */
    for (int64_t n = 1; n <= 17; n += 4) {
      ct_tensor *s = ct_full(CT_SHAPE(n), CT_DOUBLE(-INFINITY), &o), *e = ct_full(CT_SHAPE(n), CT_DOUBLE(-INFINITY), &o);
      ct_tensor *wt = ct_full(CT_SHAPE(n), CT_DOUBLE(NAN), &o);
      CHECK(all_nan(ct_lerp(s, e, w)));
      CHECK(all_nan(ct_lerp(s, e, wt)));
      CHECK_EQ_INT(ct_lerp_(s, e, w), CT_OK);
      CHECK(all_nan(s));
    }
  }
  ct_scope_end();
}

/* A bool tensor over bytes other than 0 and 1 (a uint8 tensor viewed as bool): torch's loops load bool as
   "byte != 0", and reading such a byte as C bool is undefined behaviour. torch 1.13:
   b = torch.tensor([2, 1, 0, 255], dtype=torch.uint8).view(torch.bool); t = torch.tensor([True, True, False, True])
   b == t -> [1,1,1,1]; b != t, b < t, b > t -> 0s; logical_and(b, t) -> [1,1,0,1]; logical_xor -> 0s;
   ~b, logical_not(b) -> [0,0,1,0]; b & t, b | t, b * t, b + t, maximum, minimum, sign(b), where(b, 1, 0)
   -> [1,1,0,1]; b ^ t -> 0s; isclose(b, t) -> 1s */
static void test_bool_bytes(void) {
  ct_scope_begin();
  static uint8_t bytes[4] = {2, 1, 0, 255};
  ct_tensor *b = ct_from_blob(bytes, CT_BOOL, CT_SHAPE(4), NULL, NULL, NULL, NULL);
  ct_tensor *t = ct_tensor_from_data((const bool[]){true, true, false, true}, CT_BOOL, CT_SHAPE(4), NULL);
  CHECK_INTS(ct_eq(b, t), 1, 1, 1, 1);
  CHECK_INTS(ct_ne(b, t), 0, 0, 0, 0);
  CHECK_INTS(ct_lt(b, t), 0, 0, 0, 0);
  CHECK_INTS(ct_gt(b, t), 0, 0, 0, 0);
  CHECK_INTS(ct_logical_and(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_logical_xor(b, t), 0, 0, 0, 0);
  CHECK_INTS(ct_logical_not(b), 0, 0, 1, 0);
  CHECK_INTS(ct_bitwise_not(b), 0, 0, 1, 0);
  CHECK_INTS(ct_bitwise_and(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_bitwise_or(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_bitwise_xor(b, t), 0, 0, 0, 0);
  CHECK_INTS(ct_mul(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_add(b, t, NULL), 1, 1, 0, 1);
  CHECK_INTS(ct_maximum(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_minimum(b, t), 1, 1, 0, 1);
  CHECK_INTS(ct_sign(b), 1, 1, 0, 1);
  CHECK_INTS(ct_where(b, NUM_I(1), NUM_I(0)), 1, 1, 0, 1);
  CHECK_INTS(ct_isclose(b, t, NULL), 1, 1, 1, 1);
  ct_scope_end();
}

int main(void) {
  test_bool_bytes();
  test_lerp_nan_weight();
  test_comparisons();
  test_logical_bitwise();
  test_isclose();
  test_where_masked_fill();
  test_lerp_addc();
  test_clamp();
  test_null_inputs();
  return TEST_SUMMARY();
}
