/* Binary arithmetic ops: div (rounding modes), true_divide, floor_divide, remainder, fmod, pow,
   float_power, atan2, hypot, logaddexp(2), nextafter, copysign, xlogy, maximum/minimum, fmax/fmin.
   Expected values, bits, dtypes, strides and messages come from torch 1.13 on this machine. */
#include <math.h>

#include "check.h"
#include "compat.h"
#include "core/internal.h"

static ct_tensor *f32(const float *v, int64_t n) { return ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(n), NULL); }
static ct_tensor *i64(const int64_t *v, int64_t n) { return ct_tensor_from_data(v, CT_INT64, CT_SHAPE(n), NULL); }
static ct_tensor *i32(const int32_t *v, int64_t n) { return ct_tensor_from_data(v, CT_INT32, CT_SHAPE(n), NULL); }
static ct_tensor *num_i(int64_t v) { return ct_wrapped_scalar(ct_scalar_int(v)); }
static ct_tensor *num_d(double v) { return ct_wrapped_scalar(ct_scalar_double(v)); }
static const ct_div_opts TRUNC = {"trunc"}, FLOOR = {"floor"};

static uint32_t bits32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* The elements of t as doubles / int64 / raw 32-bit words (n of them). */
static void get_d(const ct_tensor *t, double *out, int64_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_FLOAT64, (size_t)n * sizeof(double)) == CT_OK);
}
static void get_i(const ct_tensor *t, int64_t *out, int64_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_INT64, (size_t)n * sizeof(int64_t)) == CT_OK);
}
static void get_u32(const ct_tensor *t, uint32_t *out, int64_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_FLOAT32, (size_t)n * sizeof(float)) == CT_OK);
}

#define CHECK_I(t, ...)                                                     \
  do {                                                                      \
    const int64_t e_[] = {__VA_ARGS__};                                     \
    int64_t g_[sizeof e_ / sizeof e_[0]];                                   \
    get_i((t), g_, (int64_t)(sizeof e_ / sizeof e_[0]));                    \
    for (size_t k_ = 0; k_ < sizeof e_ / sizeof e_[0]; k_++) CHECK_EQ_INT(g_[k_], e_[k_]); \
  } while (0)

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static void test_division(void) {
  ct_scope_begin();
  const int64_t a[4] = {7, -7, 7, -7}, b[4] = {2, 2, -2, -2};
  ct_tensor *x = i64(a, 4), *y = i64(b, 4);
  ct_tensor *r = ct_div(x, y, NULL);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  double d[4];
  get_d(r, d, 4);
  CHECK(d[0] == 3.5 && d[1] == -3.5 && d[2] == -3.5 && d[3] == 3.5);
  CHECK_I(ct_div(x, y, &TRUNC), 3, -3, -3, 3);
  CHECK_I(ct_div(x, y, &FLOOR), 3, -4, -4, 3);
  CHECK_I(ct_floor_divide(x, y), 3, -4, -4, 3);
  CHECK_I(ct_remainder(x, y), 1, 1, -1, -1);
  CHECK_I(ct_fmod(x, y), 1, -1, 1, -1);
  CHECK_EQ_INT(ct_dtype_of(ct_div(x, y, &FLOOR)), CT_INT64);
  CHECK_EQ_INT(ct_dtype_of(ct_true_divide(i32((const int32_t[]){1, 2}, 2), num_i(4))), CT_FLOAT32);
  CHECK_I(ct_remainder(num_i(5), i32((const int32_t[]){7, -7}, 2)), 5, -2);

  /* Python's float floor division and remainder, signed zeros */
  const float one = 1.0f, zero = 0.0f, m1 = -1.0f, m4 = -4.0f, m55 = -5.5f;
  get_d(ct_div(f32(&one, 1), num_d(0.1), &FLOOR), d, 1);
  CHECK(d[0] == 9.0);
  get_d(ct_div(f32(&zero, 1), num_d(-3.0), &FLOOR), d, 1);
  CHECK(same_bits(d[0], -0.0));
  get_d(ct_div(f32(&m1, 1), num_d(3.0), &TRUNC), d, 1);
  CHECK(same_bits(d[0], -0.0));
  get_d(ct_remainder(f32(&m4, 1), num_d(2.0)), d, 1);
  CHECK(same_bits(d[0], -0.0));
  get_d(ct_remainder(f32(&m55, 1), num_d(INFINITY)), d, 1);
  CHECK(d[0] == INFINITY);
  const float fz[3] = {5, -5, 0}, zz[3] = {0, 0, 0};
  get_d(ct_floor_divide(f32(fz, 3), f32(zz, 3)), d, 3);
  CHECK(d[0] == INFINITY && d[1] == -INFINITY && isnan(d[2]));
  get_d(ct_remainder(f32(fz, 3), f32(zz, 3)), d, 3);
  CHECK(isnan(d[0]) && isnan(d[1]) && isnan(d[2]));

  /* rounding_mode strings as PyTorch checks them, before anything else */
  CHECK(ct_div(x, ct_ones(CT_SHAPE(3), NULL), &(ct_div_opts){"xx"}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'xx'");
  CHECK(ct_div(x, ct_zeros(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_BOOL}), &TRUNC) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  ct_tensor *bt = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK(ct_div(bt, bt, &TRUNC) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"div_trunc_cpu\" not implemented for 'Bool'");
  ct_tensor *c = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_remainder(c, c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"remainder_cpu\" not implemented for 'ComplexFloat'");
  CHECK_EQ_INT(ct_div_(i64(a, 4), num_i(2), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  ct_scope_end();
}

static void test_zero_division(void) {
  ct_scope_begin();
  const int32_t a[3] = {5, -5, 9}, z[3] = {1, 0, 2};
  ct_tensor *x = i32(a, 3);
  CHECK(ct_floor_divide(x, num_i(0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  CHECK(ct_remainder(x, i32(z, 3)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  CHECK(ct_fmod(x, ct_scalar_tensor(ct_scalar_int(0), &(ct_tensor_opts){.dtype = CT_INT64})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  CHECK(ct_div(x, num_i(0), &TRUNC) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  /* a Python 256 becomes uint8 0 */
  const uint8_t u[2] = {5, 200};
  CHECK(ct_floor_divide(ct_tensor_from_data(u, CT_UINT8, CT_SHAPE(2), NULL), num_i(256)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  CHECK(ct_floor_divide(x, ct_wrapped_scalar(ct_scalar_bool(false))) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "ZeroDivisionError");
  /* true division gives inf; an empty broadcast never divides */
  double d[3];
  get_d(ct_div(x, num_i(0), NULL), d, 3);
  CHECK(d[0] == INFINITY && d[1] == -INFINITY);
  CHECK(ct_remainder(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT32}), num_i(0)) != NULL);
  /* the in-place target and out= stay as they were */
  CHECK_EQ_INT(ct_remainder_(x, i32(z, 3)), CT_ERR_RUNTIME);
  ct_clear_error();
  CHECK_I(x, 5, -5, 9);
  ct_tensor *out = ct_full(CT_SHAPE(2), ct_scalar_int(42), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK_EQ_INT(ct_fmod_out(out, x, i32(z, 3)), CT_ERR_RUNTIME);
  ct_clear_error();
  CHECK_SHAPE(out, 2);
  CHECK_I(out, 42, 42);
  ct_scope_end();
}

static void test_int_min(void) {
  ct_scope_begin();
  /* PyTorch dies of SIGFPE here (int32/int64); ctorch returns the wrapped value */
  const int32_t a32[2] = {INT32_MIN, 7};
  const int64_t a64[2] = {INT64_MIN, 7};
  ct_tensor *x32 = i32(a32, 2), *x64 = i64(a64, 2), *m1 = num_i(-1);
  CHECK_I(ct_div(x32, m1, &TRUNC), INT32_MIN, -7);
  CHECK_I(ct_div(x32, m1, &FLOOR), INT32_MIN, -7);
  CHECK_I(ct_remainder(x32, m1), 0, 0);
  CHECK_I(ct_fmod(x32, m1), 0, 0);
  CHECK_I(ct_div(x64, m1, &TRUNC), INT64_MIN, -7);
  CHECK_I(ct_floor_divide(x64, m1), INT64_MIN, -7);
  CHECK_I(ct_remainder(x64, m1), 0, 0);
  /* as int8 does in PyTorch */
  const int8_t a8 = INT8_MIN;
  ct_tensor *x8 = ct_tensor_from_data(&a8, CT_INT8, CT_SHAPE(1), NULL);
  CHECK_I(ct_div(x8, m1, &TRUNC), -128);
  CHECK_I(ct_remainder(x8, m1), 0);
  ct_scope_end();
}

static void test_pow(void) {
  ct_scope_begin();
  const int64_t base[5] = {1, -1, -1, 2, 0}, ex[5] = {-3, -3, -2, -1, -1};
  CHECK_I(ct_pow(i64(base, 5), i64(ex, 5)), 1, -1, 1, 0, 0);
  CHECK_I(ct_pow(num_i(2), i64((const int64_t[]){-1, 3}, 2)), 0, 8);
  CHECK_I(ct_pow(i64((const int64_t[]){3}, 1), num_i(40)), -6289078614652622815LL);
  const uint8_t two = 2;
  CHECK_I(ct_pow(ct_tensor_from_data(&two, CT_UINT8, CT_SHAPE(1), NULL), num_i(9)), 0);
  CHECK_I(ct_pow(i64((const int64_t[]){0}, 1), num_i(0)), 1);
  CHECK_I(ct_pow(i64((const int64_t[]){0}, 1), i64((const int64_t[]){0}, 1)), 1);
  CHECK(ct_pow(i64(base, 5), num_i(-1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
  ct_tensor *r = ct_pow(i32((const int32_t[]){2, 3}, 2), num_d(2.0));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  double d[4];
  get_d(r, d, 2);
  CHECK(d[0] == 4 && d[1] == 9);
  const int8_t i8 = 2;
  CHECK(ct_pow(ct_tensor_from_data(&i8, CT_INT8, CT_SHAPE(1), NULL), num_i(300)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  ct_tensor *bt = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK(ct_pow(bt, bt) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"pow\" not implemented for 'Bool'");
  CHECK_EQ_INT(ct_dtype_of(ct_pow(bt, num_i(0))), CT_INT64);
  /* pow(Tensor, Scalar)'s out= must have the result dtype exactly */
  const float fv[4] = {1.0000001f, 3.3f, -2.5f, 1e20f};
  ct_tensor *xf = f32(fv, 4);
  CHECK_EQ_INT(ct_pow_out(ct_empty(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_FLOAT64}), xf, num_i(2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Double but expected Float");
  CHECK_EQ_INT(ct_pow_(i32((const int32_t[]){2, 3}, 2), num_d(2.5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Int but expected Float");
  /* x^3 is x*x*x, not a correctly rounded pow */
  get_d(ct_pow(xf, num_i(3)), d, 4);
  CHECK((float)d[0] == 1.0000004f && (float)d[1] == 35.936996f && d[2] == -15.625 && d[3] == INFINITY);
  uint32_t u[3];
  const float p[3] = {1.1f, 2.2f, 3.3f};
  get_u32(ct_pow(f32(p, 3), num_d(2.5)), u, 3);
  CHECK(u[0] == 1067610245u && u[1] == 1088797028u && u[2] == 1100890855u);
  /* pow(Scalar, Tensor): contiguous result; base 1 is ones */
  ct_tensor *m = ct_view(ct_arange(CT_INT(0), CT_INT(6), CT_INT(1), &(ct_tensor_opts){.dtype = CT_FLOAT32}),
                         CT_SHAPE(2, 3));
  ct_tensor *mt = ct_transpose(m, 0, 1);
  CHECK_STRIDES(ct_pow(num_i(2), mt), 2, 1);
  CHECK_STRIDES(ct_pow(mt, mt), 1, 3);
  get_d(ct_pow(num_i(1), f32((const float[]){NAN}, 1)), d, 1);
  CHECK(d[0] == 1.0);
  /* complex */
  ct_tensor *cz = ct_full(CT_SHAPE(1), ct_scalar_complex(1, 2), &(ct_tensor_opts){.dtype = CT_COMPLEX128});
  ct_complex128 cv;
  CHECK(ct_item_complex(ct_pow(cz, num_i(2)), &cv) == CT_OK && cv.re == -3 && cv.im == 4);
  ct_scope_end();
}

static void test_float_power(void) {
  ct_scope_begin();
  ct_tensor *x = i32((const int32_t[]){2}, 1);
  ct_tensor *r = ct_float_power(x, num_i(3));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT64);
  double d;
  CHECK(ct_item_double(r, &d) == CT_OK && d == 8.0);
  CHECK_EQ_INT(ct_dtype_of(ct_float_power(x, ct_wrapped_scalar(ct_scalar_complex(0, 1)))), CT_COMPLEX128);
  ct_tensor *f = ct_ones(CT_SHAPE(2), NULL);
  CHECK_EQ_INT(ct_float_power_(f, num_i(2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "the base given to float_power_ has dtype Float but the operation's result requires dtype Double");
  CHECK_EQ_INT(ct_float_power_out(ct_empty(CT_SHAPE(2), NULL), f, f), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "the output given to float_power has dtype Float but the operation's result requires dtype Double");
  ct_scope_end();
}

static void test_math(void) {
  ct_scope_begin();
  uint32_t u[4];
  ct_tensor *r = ct_atan2(i64((const int64_t[]){1, -1}, 2), i64((const int64_t[]){2, 0}, 2));
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  get_u32(r, u, 2);
  CHECK(u[0] == 1055744824u && u[1] == 3217625051u);
  CHECK(ct_hypot(i64((const int64_t[]){3}, 1), i64((const int64_t[]){4}, 1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"hypot_cpu\" not implemented for 'Long'");
  double d[4];
  get_d(ct_hypot(i64((const int64_t[]){3}, 1), f32((const float[]){4}, 1)), d, 1);
  CHECK(d[0] == 5.0);
  const float la[4] = {INFINITY, -INFINITY, 1, NAN}, lb[4] = {INFINITY, -INFINITY, 2, 1};
  get_u32(ct_logaddexp(f32(la, 4), f32(lb, 4)), u, 4);
  /* torch: inf, -inf, 2.3132617 (bits 1075055739), nan: a NaN by class (its sign is the compiler's) */
  CHECK(u[0] == 2139095040u && u[1] == 4286578688u && u[2] == 1075055739u &&
        (u[3] & 0x7fffffffu) > 0x7f800000u);
  get_d(ct_logaddexp2(f32((const float[]){1, 0}, 2), f32((const float[]){1, -1}, 2)), d, 2);
  CHECK(d[0] == 2.0 && (float)d[1] == 0.5849625f);
  CHECK(ct_logaddexp(i64((const int64_t[]){1}, 1), i64((const int64_t[]){2}, 1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"logaddexp_cpu\" not implemented for 'Long'");
  get_d(ct_xlogy(f32((const float[]){0, 0, 2, 3}, 4), f32((const float[]){NAN, 0, 0, 1}, 4)), d, 4);
  CHECK(isnan(d[0]) && d[1] == 0 && d[2] == -INFINITY && d[3] == 0);
  get_d(ct_special_xlogy(num_i(2), i64((const int64_t[]){1, 2}, 2)), d, 2);
  CHECK(d[0] == 0 && (float)d[1] == 1.3862944f);
  get_u32(ct_nextafter(f32((const float[]){1, 0, -0.0f}, 3), f32((const float[]){2, -1, 1}, 3)), u, 3);
  CHECK(u[0] == 1065353217u && u[1] == 2147483649u && u[2] == 1u);
  get_d(ct_copysign(i64((const int64_t[]){3}, 1), num_d(-0.0)), d, 1);
  CHECK(d[0] == -3.0);
  ct_tensor *c = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_copysign(c, c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"copysign_cpu\" not implemented for 'ComplexFloat'");
  CHECK_EQ_INT(ct_atan2_(i64((const int64_t[]){1}, 1), i64((const int64_t[]){1}, 1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  ct_tensor *h = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  CHECK(ct_atan2(h, h) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"atan2_cpu\" not implemented for 'Half'");
  ct_scope_end();
}

static void test_minmax(void) {
  ct_scope_begin();
  /* 17 elements: 16 through torch's vectorized formula, the last through its scalar one */
  float nan17[17], one17[17], mz[17], pz[17];
  for (int i = 0; i < 17; i++) {
    nan17[i] = NAN;
    one17[i] = 1;
    mz[i] = -0.0f;
    pz[i] = 0.0f;
  }
  uint32_t u[17];
  get_u32(ct_maximum(f32(nan17, 17), f32(one17, 17)), u, 17);
  for (int i = 0; i < 17; i++) CHECK(isnan(((float *)(void *)u)[i])); /* NaN by class (docs/ARCHITECTURE.md) */
  get_u32(ct_maximum(f32(mz, 17), f32(pz, 17)), u, 17);
  /* the switch off (compat.h): every element by the scalar formula, std::max(a, b) (a unless a < b) */
  const float mx = mz[0] < pz[0] ? pz[0] : mz[0];
  uint32_t mxb;
  memcpy(&mxb, &mx, 4);
  CHECK(COMPAT_PICK(u[15] == 0 && u[16] == 0x80000000u, u[0] == mxb && u[15] == mxb && u[16] == mxb));
  double d[2];
  get_d(ct_fmax(f32((const float[]){NAN, 1}, 2), f32((const float[]){2, NAN}, 2)), d, 2);
  CHECK(d[0] == 2 && d[1] == 1);
  get_d(ct_minimum(f32((const float[]){NAN, 1}, 2), f32((const float[]){2, 0}, 2)), d, 2);
  CHECK(isnan(d[0]) && d[1] == 0);
  CHECK_I(ct_maximum(ct_tensor_from_data((const bool[]){true, false}, CT_BOOL, CT_SHAPE(2), NULL),
                     i64((const int64_t[]){2, 1}, 2)),
          2, 1);
  ct_tensor *c = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  /* checked before the shapes */
  CHECK(ct_maximum(ct_ones(CT_SHAPE(3), NULL), c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "maximum not implemented for complex tensors.");
  CHECK(ct_fmin(c, ct_ones(CT_SHAPE(4), NULL)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "fmin not implemented for complex tensors.");
  ct_scope_end();
}

static void test_reduced_and_complex(void) {
  ct_scope_begin();
  /* bfloat16 0/0 is NaN in the vectorized rows and in the scalar tail (torch: 0xFFFF and 0x7FC0; NaN bits
     are not compared, docs/ARCHITECTURE.md) */
  ct_tensor *z = ct_zeros(CT_SHAPE(40), &(ct_tensor_opts){.dtype = CT_BFLOAT16});
  ct_tensor *q = ct_div(z, z, NULL);
  uint16_t h[40];
  CHECK(ct_copy_to_buffer(q, h, CT_BFLOAT16, sizeof h) == CT_OK);
  for (int i = 0; i < 40; i++) CHECK((h[i] & 0x7FFF) > 0x7F80);
  /* complex division */
  ct_tensor *a = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *b = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_set_item(a, (int64_t[]){0}, ct_scalar_complex(1, 2)) == CT_OK);
  CHECK(ct_set_item(a, (int64_t[]){1}, ct_scalar_complex(3, -1)) == CT_OK);
  CHECK(ct_set_item(b, (int64_t[]){0}, ct_scalar_complex(0.5, -1)) == CT_OK);
  CHECK(ct_set_item(b, (int64_t[]){1}, ct_scalar_complex(2, 2)) == CT_OK);
  ct_scalar s;
  ct_tensor *r = ct_div(a, b, NULL);
  CHECK(ct_get_item(r, (int64_t[]){0}, &s) == CT_OK && (float)s.v.c.re == -1.2f && (float)s.v.c.im == 1.6f);
  CHECK(ct_get_item(r, (int64_t[]){1}, &s) == CT_OK && s.v.c.re == 0.5 && s.v.c.im == -1.0);
  (void)bits32;
  ct_scope_end();
}

static void test_large_and_threads(void) {
  ct_scope_begin();
  int64_t n = 1 << 17;
  ct_tensor *x = ct_arange(CT_DOUBLE(-3000), CT_DOUBLE(3000), CT_DOUBLE(6000.0 / (double)n), NULL);
  ct_tensor *xp = ct_arange(CT_DOUBLE(0.5), CT_DOUBLE(3000.5), CT_DOUBLE(3000.0 / (double)n), NULL);
  ct_tensor *y = ct_full(CT_SHAPE(n), ct_scalar_double(0.37), NULL);
  ct_set_num_threads(1);
  ct_tensor *r1 = ct_remainder(x, y), *p1 = ct_pow(xp, num_d(1.7));
  ct_set_num_threads(2);
  ct_tensor *r2 = ct_remainder(x, y), *p2 = ct_pow(xp, num_d(1.7));
  ct_set_num_threads(0);
  bool eq = false;
  CHECK(ct_equal(r1, r2, &eq) == CT_OK && eq);
  CHECK(ct_equal(p1, p2, &eq) == CT_OK && eq);
  ct_scope_end();
}

/* heaviside of a bool tensor whose bytes are not all 0/1 (a uint8 tensor's bool view): torch 1.13,
   torch.heaviside(torch.tensor([0, 190, 2, 0], dtype=torch.uint8).view(torch.bool),
                   torch.tensor([True, False, True, False])) is [True, True, True, False]. Fuzz input
   tests/fuzz/crashes/heaviside-bool-byte-bd8abb70 (reading 190 as C bool is undefined behaviour). */
static void test_heaviside_bool_bytes(void) {
  uint8_t bytes[4] = {0, 190, 2, 0};
  ct_tensor *x = ct_from_blob(bytes, CT_BOOL, CT_SHAPE(4), NULL, NULL, NULL, NULL);
  ct_tensor *v = CT_TENSOR((bool)1, (bool)0, (bool)1, (bool)0);
  ct_tensor *r = ct_heaviside(x, v);
  uint8_t got[4] = {9, 9, 9, 9};
  CHECK(r && ct_copy_to_buffer(r, got, CT_UINT8, sizeof got) == CT_OK);
  CHECK(got[0] == 1 && got[1] == 1 && got[2] == 1 && got[3] == 0);
  ct_release(r);
  ct_release(v);
  ct_release(x);
}

int main(void) {
  test_heaviside_bool_bytes();
  test_division();
  test_zero_division();
  test_int_min();
  test_pow();
  test_float_power();
  test_math();
  test_minmax();
  test_reduced_and_complex();
  test_large_and_threads();
  return TEST_SUMMARY();
}
