/* The arithmetic core (add/sub/mul/neg): the bit patterns where torch 1.13's vectorized rows, its scalar
   tails and its strided or one-element rows differ, and the errors its meta functions raise first.
   Every expected value was printed by torch 1.13 on this machine (/usr/bin/python3, the command next
   to each case; torch.set_num_threads(1)). */
#include <math.h>

#include "check.h"

#define N40 40

static uint16_t bf16_bits(float f) { /* exact for the values used here */
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

/* n raw elements of t (its own dtype) */
static void raw(const ct_tensor *t, void *out, size_t bytes) {
  CHECK(ct_copy_to_buffer(t, out, ct_dtype_of(t), bytes) == CT_OK);
}

static ct_tensor *full_bits16(uint16_t v, ct_dtype dt, int64_t n) {
  uint16_t buf[N40];
  for (int64_t i = 0; i < n; i++) buf[i] = v;
  return ct_tensor_from_data(buf, dt, CT_SHAPE(n), NULL);
}

/* bfloat16: the vectorized blocks (32 elements) compute fma in float and store NaN as 0xFFFF; the tail
   rounds alpha * other to bfloat16 first and stores NaN as 0x7FC0.
   x = torch.full((40,), 1.2578125, dtype=torch.bfloat16); y = torch.full((40,), -1.3203125, dtype=torch.bfloat16)
   torch.add(x, y, alpha=3).view(torch.int16)  -> 0xc02d at [0..31], 0xc02e at [32..39]
   (torch.full((40,), nan, dtype=torch.bfloat16) + 1).view(torch.int16) -> 0xffff at [0..31], 0x7fc0 after */
static void test_bfloat16(void) {
  ct_scope_begin();
  ct_tensor *x = full_bits16(bf16_bits(1.2578125f), CT_BFLOAT16, N40);
  ct_tensor *y = full_bits16(bf16_bits(-1.3203125f), CT_BFLOAT16, N40);
  uint16_t h[N40];
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(3)}), h, sizeof h);
  CHECK(h[0] == 0xC02D && h[31] == 0xC02D && h[32] == 0xC02E && h[39] == 0xC02E);
  ct_tensor *nanx = full_bits16(0x7FC0, CT_BFLOAT16, N40);
  raw(ct_add(nanx, ct_wrapped_scalar(ct_scalar_int(1)), NULL), h, sizeof h);
  CHECK(h[0] == 0xFFFF && h[31] == 0xFFFF && h[32] == 0x7FC0 && h[39] == 0x7FC0);
  /* neg: Vectorized's neg packs NaN as 0xFFFF as well */
  raw(ct_neg(nanx), h, sizeof h);
  CHECK(h[0] == 0xFFFF && h[31] == 0xFFFF && h[32] == 0x7FC0);
  ct_scope_end();
}

/* float16 add: (alpha * other) + self in the vectorized blocks, self + (alpha * other) in the tail, so a
   NaN self loses to the default NaN of 0 * inf there and wins here.
   torch.add(torch.full((40,), nan, dtype=torch.float16), torch.full((40,), inf, dtype=torch.float16),
             alpha=0).view(torch.int16) -> 0xfe00 at [0..31], 0x7e00 at [32..39] */
static void test_float16(void) {
  ct_scope_begin();
  ct_tensor *x = full_bits16(0x7E00, CT_FLOAT16, N40), *y = full_bits16(0x7C00, CT_FLOAT16, N40);
  uint16_t h[N40];
  raw(ct_add(x, y, &(ct_alpha_opts){ct_scalar_int(0)}), h, sizeof h);
  CHECK(h[0] == 0xFE00 && h[31] == 0xFE00 && h[32] == 0x7E00 && h[39] == 0x7E00);
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
  CHECK(u[0] == 0x3F7482F1u && u[16] == 0x3F7482F1u && u[17] == 0x3F7482F0u && u[20] == 0x3F7482F0u);
  ct_scope_end();
}

/* float mul, two NaN operands: other's NaN in the vectorized rows, self's in the tail's 4-block.
   a = np.full(21, np.uint32(0xffc00001).view(np.float32)); b = np.full(21, np.uint32(0x7fc00002).view(np.float32))
   (torch.from_numpy(a) * torch.from_numpy(b)).view(torch.int32)
     -> 0x7fc00002 at [0..15], 0xffc00001 at [16..19], 0x7fc00002 at [20] */
static void test_float_mul_nan(void) {
  ct_scope_begin();
  uint32_t a[21], b[21], u[21];
  for (int i = 0; i < 21; i++) a[i] = 0xFFC00001u, b[i] = 0x7FC00002u;
  ct_tensor *x = ct_tensor_from_data(a, CT_FLOAT32, CT_SHAPE(21), NULL);
  ct_tensor *y = ct_tensor_from_data(b, CT_FLOAT32, CT_SHAPE(21), NULL);
  raw(ct_mul(x, y), u, sizeof u);
  CHECK(u[0] == 0x7FC00002u && u[15] == 0x7FC00002u && u[16] == 0xFFC00001u && u[19] == 0xFFC00001u &&
        u[20] == 0x7FC00002u);
  ct_scope_end();
}

/* complex forms.
   x = torch.full((9,), complex(inf, nan), dtype=torch.complex64); y = torch.full((9,), complex(nan, inf), dtype=torch.complex64)
   torch.view_as_real(x * y).view(torch.int32) -> [0]: (0x7fc00000, 0xffc00000), [8]: (0x7fc00000, 0x7fc00000)
   x = torch.full((9,), complex(0.0, -0.0), dtype=torch.complex64)
   torch.view_as_real(-x).view(torch.int32) -> [0]: (0, 0) (Vectorized's 0 - z), [8]: (0x80000000, 0)
   torch.view_as_real(torch.tensor(1+2j, dtype=torch.complex128) + torch.tensor(complex(3, inf), dtype=torch.complex128))
     .view(torch.int64) -> (0xfff8000000000000, 0x7ff0000000000000): 1 * 3 - 0 * inf is the default NaN */
static void test_complex(void) {
  ct_scope_begin();
  float xv[18], yv[18], o[18];
  for (int i = 0; i < 9; i++) xv[2 * i] = INFINITY, xv[2 * i + 1] = NAN, yv[2 * i] = NAN, yv[2 * i + 1] = INFINITY;
  ct_tensor *x = ct_tensor_from_data(xv, CT_COMPLEX64, CT_SHAPE(9), NULL);
  ct_tensor *y = ct_tensor_from_data(yv, CT_COMPLEX64, CT_SHAPE(9), NULL);
  raw(ct_mul(x, y), o, sizeof o);
  uint32_t u[18];
  memcpy(u, o, sizeof u);
  CHECK(u[0] == 0x7FC00000u && u[1] == 0xFFC00000u && u[16] == 0x7FC00000u && u[17] == 0x7FC00000u);

  for (int i = 0; i < 9; i++) xv[2 * i] = 0.0f, xv[2 * i + 1] = -0.0f;
  raw(ct_neg(ct_tensor_from_data(xv, CT_COMPLEX64, CT_SHAPE(9), NULL)), u, sizeof u);
  CHECK(u[0] == 0 && u[1] == 0 && u[16] == 0x80000000u && u[17] == 0);

  const double a[2] = {1, 2}, b[2] = {3, INFINITY};
  uint64_t r[2];
  raw(ct_add(ct_tensor_from_data(a, CT_COMPLEX128, CT_SHAPE_SCALAR, NULL), ct_tensor_from_data(b, CT_COMPLEX128, CT_SHAPE_SCALAR, NULL),
             NULL),
      r, sizeof r);
  CHECK(r[0] == UINT64_C(0xFFF8000000000000) && r[1] == UINT64_C(0x7FF0000000000000));
  ct_scope_end();
}

/* A one-element strided view is contiguous for TensorIterator (its fast setup): the loop gets element
   strides and the kernel the contiguous row's form, unlike a 0-dim operation.
   p = np.array([2.0, 0, 0, 0], ...) with p[1] the NaN 0x7ff8000000000001, q likewise [3.0, 0x7ff8000000000002]
   xv = torch.from_numpy(p).view(torch.complex128)[::2][:1]; yv = ... from q
   torch.view_as_real(xv * yv).view(torch.int64) -> (0x7ff8000000000001, 0x7ff8000000000002)
   torch.view_as_real(xv.reshape(()) * yv.reshape(())).view(torch.int64) -> (0x7ff8000000000002, 0x7ff8000000000002) */
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
  CHECK(r[0] == UINT64_C(0x7FF8000000000001) && r[1] == UINT64_C(0x7FF8000000000002));
  raw(ct_mul(ct_view(xv, CT_SHAPE_SCALAR), ct_view(yv, CT_SHAPE_SCALAR)), r, sizeof r);
  CHECK(r[0] == UINT64_C(0x7FF8000000000002) && r[1] == UINT64_C(0x7FF8000000000002));
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

int main(void) {
  test_bfloat16();
  test_float16();
  test_float_hoisted();
  test_float_mul_nan();
  test_complex();
  test_one_element();
  test_errors();
  return TEST_SUMMARY();
}
