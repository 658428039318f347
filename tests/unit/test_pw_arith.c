/* The arithmetic core (add/sub/mul/neg): the bit patterns where torch 1.13's vectorized rows, its scalar
   tails and its strided or one-element rows differ, and the errors its meta functions raise first.
   Every expected value was printed by torch 1.13 on this machine (/usr/bin/python3, the command next
   to each case; torch.set_num_threads(1)). */
#include <math.h>

#include "check.h"
#include "compat.h"

#define N40 40
#define F16_ADD3 0x3FA4
/* torch 1.13's int16 results (test_int16_wrap) */
#define I16_MUL0 1
#define I16_MUL1 0
#define I16_MUL2 1
#define I16_MUL3 24464
#define I16_ADD0 (-32768)
#define I16_ADD1 0
#define I16_ADD2 (-32768)
#define I16_ADD3 0
#define I16_ACM0 (-2)
#define I16_ACM1 (-32768)
#define I16_ACM2 32766
#define I16_ACM3 (-24164)

static uint16_t bf16_bits(float f) { /* exact for the values used here */
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

/* NaN by class (the NaN policy, docs/ARCHITECTURE.md: a NaN's sign and payload are not compared) */
static bool nan_bf16(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }
static bool nan_f16(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
static bool nan_f32(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u; }
static bool nan_f64(uint64_t u) { return (u & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF0000000000000); }

/* n raw elements of t (its own dtype) */
static void raw(const ct_tensor *t, void *out, size_t bytes) {
  CHECK(ct_copy_to_buffer(t, out, ct_dtype_of(t), bytes) == CT_OK);
}

static ct_tensor *full_bits16(uint16_t v, ct_dtype dt, int64_t n) {
  uint16_t buf[N40];
  for (int64_t i = 0; i < n; i++) buf[i] = v;
  return ct_tensor_from_data(buf, dt, CT_SHAPE(n), NULL);
}

/* bfloat16: the vectorized blocks (32 elements) compute fma in float; the tail rounds alpha * other to
   bfloat16 first (torch's NaNs differ too, 0xFFFF and 0x7FC0: only NaN-ness is compared).
   x = torch.full((40,), 1.2578125, dtype=torch.bfloat16); y = torch.full((40,), -1.3203125, dtype=torch.bfloat16)
   torch.add(x, y, alpha=3).view(torch.int16)  -> 0xc02d at [0..31], 0xc02e at [32..39]
   (torch.full((40,), nan, dtype=torch.bfloat16) + 1).view(torch.int16) -> 0xffff at [0..31], 0x7fc0 after */
static void test_bfloat16(void) {
  ct_scope_begin();
  ct_tensor *x = full_bits16(bf16_bits(1.2578125f), CT_BFLOAT16, N40);
  ct_tensor *y = full_bits16(bf16_bits(-1.3203125f), CT_BFLOAT16, N40);
  uint16_t h[N40];
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(3)}), h, sizeof h);
  /* the switch off (compat.h): every element by the scalar formula, x + BFloat16(alpha * y) in float */
  const uint16_t plain = compat_to_bf16(1.2578125f + compat_from_bf16(compat_to_bf16(3.0f * -1.3203125f)));
  CHECK(COMPAT_PICK(h[0] == 0xC02D && h[31] == 0xC02D && h[32] == 0xC02E && h[39] == 0xC02E,
                    h[0] == plain && h[31] == plain && h[32] == plain && h[39] == plain));
  ct_tensor *nanx = full_bits16(0x7FC0, CT_BFLOAT16, N40);
  raw(ct_add(nanx, ct_wrapped_scalar(ct_scalar_int(1)), NULL), h, sizeof h);
  CHECK(nan_bf16(h[0]) && nan_bf16(h[31]) && nan_bf16(h[32]) && nan_bf16(h[39]));
  raw(ct_neg(nanx), h, sizeof h);
  CHECK(nan_bf16(h[0]) && nan_bf16(h[31]) && nan_bf16(h[32]));
  ct_scope_end();
}

/* float16 add: NaN + 0 * inf is NaN in every row form (torch: 0xfe00 vectorized, 0x7e00 in the tail).
   torch.add(torch.full((40,), nan, dtype=torch.float16), torch.full((40,), inf, dtype=torch.float16),
             alpha=0).view(torch.int16) -> 0xfe00 at [0..31], 0x7e00 at [32..39] */
static void test_float16(void) {
  ct_scope_begin();
  ct_tensor *x = full_bits16(0x7E00, CT_FLOAT16, N40), *y = full_bits16(0x7C00, CT_FLOAT16, N40);
  uint16_t h[N40];
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(0)}), h, sizeof h);
  CHECK(nan_f16(h[0]) && nan_f16(h[31]) && nan_f16(h[32]) && nan_f16(h[39]));
  /* and every non-NaN bit: alpha * other rounded to half before the sum.
     torch.add(torch.full((40,), -0.25048828125, dtype=torch.float16), torch.full((40,), 0.7197265625,
               dtype=torch.float16), alpha=3).view(torch.int16) -> 0x3fa4 (one rounding would give 0x3fa2) */
  x = full_bits16(0xB402, CT_FLOAT16, N40), y = full_bits16(0x39C2, CT_FLOAT16, N40);
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(3)}), h, sizeof h);
  CHECK(h[0] == F16_ADD3 && h[31] == F16_ADD3 && h[32] == F16_ADD3 && h[39] == F16_ADD3);
  ct_scope_end();
}

/* float add with a broadcast other: GCC hoists alpha * other out of the tail's blocks and rounds it.
   torch.add(torch.full((21,), 0.6404226422309875), torch.tensor(0.10490011423826218), alpha=3)
     .view(torch.int32) -> 0x3f7482f1 at [0..16], 0x3f7482f0 at [17..20] */
static void test_float_hoisted(void) {
  ct_scope_begin();
  float xv[21];
  for (int i = 0; i < 21; i++) xv[i] = 0.6404226422309875f;
  const float yv = 0.10490011423826218f;
  ct_tensor *x = ct_tensor_from_data(xv, CT_FLOAT32, CT_SHAPE(21), NULL);
  ct_tensor *y = ct_tensor_from_data(&yv, CT_FLOAT32, CT_SHAPE_SCALAR, NULL);
  uint32_t u[21];
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(3)}), u, sizeof u);
  /* the switch off: x + alpha * y rounded twice, everywhere */
  const uint32_t plain = compat_fbits(xv[0] + 3.0f * yv);
  CHECK(
      COMPAT_PICK(u[0] == 0x3F7482F1u && u[16] == 0x3F7482F1u && u[17] == 0x3F7482F0u && u[20] == 0x3F7482F0u,
                  u[0] == plain && u[16] == plain && u[17] == plain && u[20] == plain));
  ct_scope_end();
}

/* float mul, two NaN operands: torch picks other's NaN or self's by row position; any NaN will do.
   a = np.full(21, np.uint32(0xffc00001).view(np.float32)); b = np.full(21, np.uint32(0x7fc00002).view(np.float32)) */
static void test_float_mul_nan(void) {
  ct_scope_begin();
  uint32_t a[21], b[21], u[21];
  for (int i = 0; i < 21; i++) a[i] = 0xFFC00001u, b[i] = 0x7FC00002u;
  ct_tensor *x = ct_tensor_from_data(a, CT_FLOAT32, CT_SHAPE(21), NULL);
  ct_tensor *y = ct_tensor_from_data(b, CT_FLOAT32, CT_SHAPE(21), NULL);
  raw(ct_mul(x, y), u, sizeof u);
  for (int i = 0; i < 21; i++) CHECK(nan_f32(u[i]));
  ct_scope_end();
}

/* complex forms.
   x = torch.full((9,), complex(inf, nan), dtype=torch.complex64); y = torch.full((9,), complex(nan, inf), dtype=torch.complex64)
   torch.view_as_real(x * y) -> [0]: (nan, nan), [8]: (nan, nan)
   x = torch.full((9,), complex(0.0, -0.0), dtype=torch.complex64)
   torch.view_as_real(-x).view(torch.int32) -> [0]: (0, 0) (Vectorized's 0 - z), [8]: (0x80000000, 0)
   torch.view_as_real(torch.tensor(1+2j, dtype=torch.complex128) + torch.tensor(complex(3, inf), dtype=torch.complex128))
     -> (nan, inf): 1 * 3 - 0 * inf is NaN */
static void test_complex(void) {
  ct_scope_begin();
  float xv[18], yv[18], o[18];
  for (int i = 0; i < 9; i++) xv[2 * i] = INFINITY, xv[2 * i + 1] = NAN, yv[2 * i] = NAN, yv[2 * i + 1] = INFINITY;
  ct_tensor *x = ct_tensor_from_data(xv, CT_COMPLEX64, CT_SHAPE(9), NULL);
  ct_tensor *y = ct_tensor_from_data(yv, CT_COMPLEX64, CT_SHAPE(9), NULL);
  raw(ct_mul(x, y), o, sizeof o);
  uint32_t u[18];
  memcpy(u, o, sizeof u);
  CHECK(nan_f32(u[0]) && nan_f32(u[1]) && nan_f32(u[16]) && nan_f32(u[17]));

  for (int i = 0; i < 9; i++) xv[2 * i] = 0.0f, xv[2 * i + 1] = -0.0f;
  raw(ct_neg(ct_tensor_from_data(xv, CT_COMPLEX64, CT_SHAPE(9), NULL)), u, sizeof u);
  /* the switch off: the scalar -z everywhere */
  CHECK(COMPAT_PICK(u[0] == 0 && u[1] == 0 && u[16] == 0x80000000u && u[17] == 0,
                    u[0] == compat_fbits(-xv[0]) && u[1] == compat_fbits(-xv[1]) &&
                        u[16] == compat_fbits(-xv[16]) && u[17] == compat_fbits(-xv[17])));

  const double a[2] = {1, 2}, b[2] = {3, INFINITY};
  uint64_t r[2];
  raw(ct_add(ct_tensor_from_data(a, CT_COMPLEX128, CT_SHAPE_SCALAR, NULL), ct_tensor_from_data(b, CT_COMPLEX128, CT_SHAPE_SCALAR, NULL),
             NULL),
      r, sizeof r);
  CHECK(nan_f64(r[0]) && r[1] == UINT64_C(0x7FF0000000000000));
  ct_scope_end();
}

/* A one-element strided view is contiguous for TensorIterator (its fast setup): the loop gets element
   strides and the kernel the contiguous row's form, unlike a 0-dim operation.
   p = np.array([2.0, 0, 0, 0], ...) with p[1] the NaN 0x7ff8000000000001, q likewise [3.0, 0x7ff8000000000002]
   xv = torch.from_numpy(p).view(torch.complex128)[::2][:1]; yv = ... from q
   torch.view_as_real(xv * yv) and the same of xv.reshape(()) * yv.reshape(()) -> (nan, nan) (torch's
   payloads differ between the two: only NaN-ness is compared) */
static void test_one_element(void) {
  ct_scope_begin();
  uint64_t p[4] = {0, UINT64_C(0x7FF8000000000001), 0, 0}, q[4] = {0, UINT64_C(0x7FF8000000000002), 0, 0};
  double two = 2.0, three = 3.0;
  memcpy(&p[0], &two, 8);
  memcpy(&q[0], &three, 8);
  ct_tensor *xb = ct_tensor_from_data(p, CT_COMPLEX128, CT_SHAPE(2), NULL);
  ct_tensor *yb = ct_tensor_from_data(q, CT_COMPLEX128, CT_SHAPE(2), NULL);
  ct_tensor *xv = ct_narrow(ct_slice(xb, 0, 0, 2, 2), 0, 0, 1), *yv = ct_narrow(ct_slice(yb, 0, 0, 2, 2), 0, 0, 1);
  uint64_t r[2];
  raw(ct_mul(xv, yv), r, sizeof r);
  CHECK(nan_f64(r[0]) && nan_f64(r[1]));
  raw(ct_mul(ct_view(xv, CT_SHAPE_SCALAR), ct_view(yv, CT_SHAPE_SCALAR)), r, sizeof r);
  CHECK(nan_f64(r[0]) && nan_f64(r[1]));
  ct_scope_end();
}

/* sub's and neg's meta functions reject bool before TensorIterator looks at dtypes or outputs.
   torch.zeros(2, dtype=torch.bool).sub_(torch.ones(2)) and
   torch.neg(torch.zeros(2, dtype=torch.bool), out=torch.empty(2)) */
static void test_errors(void) {
  ct_scope_begin();
  ct_tensor *b = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_BOOL}), *f = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_sub_(b, f, NULL) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                              "invert a mask, use the `~` or `logical_not()` operator instead.");
  CHECK(ct_neg_out(ct_empty(CT_SHAPE(2), NULL), b) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                              "invert a mask, use the `~` or `logical_not()` operator instead.");
  CHECK(ct_add(f, f, &(ct_alpha_opts){ct_scalar_bool(true)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.");
  ct_scope_end();
}

/* alpha converts to the common dtype with c10's overflow check (sub: -alpha), before anything is written.
   torch.add(i8, i8, alpha=1000), torch.sub(i8, i8, alpha=-128), torch.add(u8, u8, alpha=256),
   torch.add(h, h, alpha=65520), torch.add(f, f, alpha=1e300), torch.add(bf, bf, alpha=3.4e38),
   torch.add(c64, c64, alpha=1e300j) raise "value cannot be converted to type <T> without overflow";
   torch.add(u8, u8, alpha=-255), torch.sub(i8, i8, alpha=128), torch.add(h, h, alpha=inf),
   torch.sub(i64, i64, alpha=-2**63) succeed: [2, 2], [-127, -127], inf, [1 - 2**63] * 2. */
static void test_alpha_overflow(void) {
  ct_scope_begin();
  ct_tensor_opts o8 = {.dtype = CT_INT8}, ou8 = {.dtype = CT_UINT8}, oh = {.dtype = CT_FLOAT16}, obf = {.dtype = CT_BFLOAT16},
                 oc = {.dtype = CT_COMPLEX64}, o64 = {.dtype = CT_INT64};
  ct_tensor *i8 = ct_ones(CT_SHAPE(2), &o8), *u8 = ct_ones(CT_SHAPE(2), &ou8), *h = ct_ones(CT_SHAPE(2), &oh);
  ct_tensor *f = ct_ones(CT_SHAPE(2), NULL), *bf = ct_ones(CT_SHAPE(2), &obf), *c = ct_ones(CT_SHAPE(2), &oc);
  ct_tensor *i64 = ct_ones(CT_SHAPE(2), &o64);
  CHECK(ct_add(i8, i8, &(ct_alpha_opts){ct_scalar_int(1000)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  CHECK(ct_sub(i8, i8, &(ct_alpha_opts){ct_scalar_int(-128)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  CHECK(ct_add(u8, u8, &(ct_alpha_opts){ct_scalar_int(256)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(ct_add(h, h, &(ct_alpha_opts){ct_scalar_int(65520)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type at::Half without overflow");
  CHECK(ct_add(f, f, &(ct_alpha_opts){ct_scalar_double(1e300)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  CHECK(ct_add(bf, bf, &(ct_alpha_opts){ct_scalar_double(3.4e38)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type at::BFloat16 without overflow");
  CHECK(ct_add(c, c, &(ct_alpha_opts){ct_scalar_complex(0, 1e300)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type c10::complex<float> without overflow");
  /* in place and out=: the target is left alone */
  ct_tensor *out = ct_zeros(CT_SHAPE(3), &o8);
  CHECK(ct_add_(i8, i8, &(ct_alpha_opts){ct_scalar_int(1000)}) != CT_OK);
  CHECK(ct_add_out(out, i8, i8, &(ct_alpha_opts){ct_scalar_int(1000)}) != CT_OK);
  CHECK(ct_numel(out) == 3);
  int64_t v[3];
  CHECK(ct_copy_to_buffer(i8, v, CT_INT64, 16) == CT_OK && v[0] == 1 && v[1] == 1);
  /* the limits themselves pass */
  CHECK(ct_copy_to_buffer(ct_add(u8, u8, &(ct_alpha_opts){ct_scalar_int(-255)}), v, CT_INT64, 16) == CT_OK && v[0] == 2);
  CHECK(ct_copy_to_buffer(ct_sub(i8, i8, &(ct_alpha_opts){ct_scalar_int(128)}), v, CT_INT64, 16) == CT_OK && v[0] == -127);
  CHECK(ct_add(h, h, &(ct_alpha_opts){ct_scalar_double(INFINITY)}) != NULL);
  CHECK(ct_copy_to_buffer(ct_sub(i64, i64, &(ct_alpha_opts){ct_scalar_int(INT64_MIN)}), v, CT_INT64, 16) == CT_OK &&
        v[0] == INT64_MIN + 1);
  ct_scope_end();
}

/* int16 products wrap modulo 2^16 (computed without int overflow, which UBSan reports):
   x = torch.tensor([-1, -32768, 32767, 300], dtype=torch.int16)
   x * x -> [1, 0, 1, 24464]; torch.add(x, x, alpha=32767) -> [-32768, 0, -32768, 0];
   torch.addcmul(x, x, x, value=-1) -> [-2, -32768, 32766, -24164] */
static void test_int16_wrap(void) {
  ct_scope_begin();
  const int16_t xs[4] = {-1, -32768, 32767, 300};
  ct_tensor *x = ct_tensor_from_data(xs, CT_INT16, CT_SHAPE(4), NULL);
  int64_t v[4];
  CHECK(ct_copy_to_buffer(ct_mul(x, x), v, CT_INT64, sizeof v) == CT_OK);
  CHECK(v[0] == I16_MUL0 && v[1] == I16_MUL1 && v[2] == I16_MUL2 && v[3] == I16_MUL3);
  CHECK(ct_copy_to_buffer(ct_add(x, x, &(ct_alpha_opts){ct_scalar_int(32767)}), v, CT_INT64, sizeof v) == CT_OK);
  CHECK(v[0] == I16_ADD0 && v[1] == I16_ADD1 && v[2] == I16_ADD2 && v[3] == I16_ADD3);
  CHECK(ct_copy_to_buffer(ct_addcmul(x, x, x, &(ct_addc_opts){ct_scalar_int(-1)}), v, CT_INT64, sizeof v) == CT_OK);
  CHECK(v[0] == I16_ACM0 && v[1] == I16_ACM1 && v[2] == I16_ACM2 && v[3] == I16_ACM3);
  ct_scope_end();
}

int main(void) {
  test_alpha_overflow();
  test_int16_wrap();
  test_bfloat16();
  test_float16();
  test_float_hoisted();
  test_float_mul_nan();
  test_complex();
  test_one_element();
  test_errors();
  return TEST_SUMMARY();
}
