/* The pointwise engine: broadcasting, promotion, output layout (PyTorch's stride propagation), out= and
   in-place rules. Expected shapes, strides, dtypes and values come from torch 1.13. */
#include "check.h"
#include "core/internal.h"

/* A view of t with the given geometry (a stand-in for transpose/permute/slicing in these tests). */
static ct_tensor *geom(const ct_tensor *t, ct_shape sizes, ct_shape strides, int64_t offset) {
  return ct__own(ct__view(t, sizes.ndim, sizes.data, strides.data, offset));
}

static ct_tensor *arange_f(int64_t n, ct_dtype dt) {
  return ct_arange(CT_INT(0), CT_INT(n), CT_INT(1), &(ct_tensor_opts){.dtype = dt});
}

static void test_layouts(void) {
  ct_scope_begin();
  ct_tensor *base = arange_f(6, CT_FLOAT32);
  ct_tensor *a = geom(base, CT_SHAPE(2, 3), CT_SHAPE(1, 2), 0); /* arange(6).view(3,2).t() */
  ct_tensor *b = geom(base, CT_SHAPE(2, 3), CT_SHAPE(3, 1), 0); /* arange(6).view(2,3) */
  ct_tensor *r = ct_add(a, b, NULL);
  CHECK_SHAPE(r, 2, 3);
  CHECK_STRIDES(r, 1, 2);
  r = ct_add(b, a, NULL);
  CHECK_STRIDES(r, 3, 1);
  float vals[6];
  CHECK(ct_copy_to_buffer(r, vals, CT_FLOAT32, sizeof vals) == CT_OK);
  /* b + a = [[0,1,2],[3,4,5]] + [[0,2,4],[1,3,5]] */
  const float expect[6] = {0, 3, 6, 4, 7, 10};
  for (int i = 0; i < 6; i++) CHECK(vals[i] == expect[i]);
  r = ct_add(a, ct_ones(CT_SHAPE(3), NULL), NULL);
  CHECK_STRIDES(r, 1, 2);

  ct_tensor *base24 = arange_f(24, CT_FLOAT32);
  ct_tensor *x = geom(base24, CT_SHAPE(4, 2, 3), CT_SHAPE(1, 12, 4), 0); /* view(2,3,4).permute(2,0,1) */
  r = ct_add(x, ct_wrapped_scalar(ct_scalar_int(1)), NULL);
  CHECK_STRIDES(r, 1, 12, 4);
  r = ct_add(x, ct_to_dtype(x, CT_INT32), NULL);
  CHECK_STRIDES(r, 1, 12, 4);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);

  ct_tensor *cl = ct_ones(CT_SHAPE(2, 3, 4, 5), &(ct_tensor_opts){.memory_format = CT_CHANNELS_LAST});
  ct_tensor *c = ct_ones(CT_SHAPE(2, 3, 4, 5), NULL);
  CHECK_STRIDES(ct_add(cl, cl, NULL), 60, 1, 15, 3);
  CHECK_STRIDES(ct_add(cl, c, NULL), 60, 1, 15, 3);
  CHECK_STRIDES(ct_add(c, cl, NULL), 60, 20, 5, 1);

  ct_tensor *base12 = arange_f(12, CT_INT64);
  ct_tensor *s = geom(base12, CT_SHAPE(3, 2), CT_SHAPE(4, 2), 0); /* view(3,4)[:, ::2] */
  ct_tensor *ones23 = ct_ones(CT_SHAPE(2, 3), NULL);
  ct_tensor *t32 = geom(ones23, CT_SHAPE(3, 2), CT_SHAPE(1, 3), 0);
  r = ct_add(s, t32, NULL);
  CHECK_STRIDES(r, 2, 1);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  r = ct_add(s, s, NULL);
  CHECK_STRIDES(r, 2, 1);
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  int64_t iv[6];
  CHECK(ct_copy_to_buffer(r, iv, CT_INT64, sizeof iv) == CT_OK);
  CHECK(iv[0] == 0 && iv[1] == 4 && iv[2] == 8 && iv[3] == 12 && iv[5] == 20);

  ct_tensor *col = ct_ones(CT_SHAPE(3, 1), NULL);
  ct_tensor *e = geom(col, CT_SHAPE(3, 4), CT_SHAPE(1, 0), 0);
  ct_tensor *ones43 = ct_ones(CT_SHAPE(4, 3), NULL);
  CHECK_STRIDES(ct_add(e, geom(ones43, CT_SHAPE(3, 4), CT_SHAPE(1, 3), 0), NULL), 1, 3);
  ct_scope_end();
}

static void test_promotion_and_scalars(void) {
  ct_scope_begin();
  ct_tensor *r = ct_add(ct_scalar_tensor(ct_scalar_double(2), NULL),
                        ct_scalar_tensor(ct_scalar_int(3), &(ct_tensor_opts){.dtype = CT_INT64}), NULL);
  CHECK_EQ_INT(ct_dim(r), 0);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  r = ct_add(ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32}), ct_wrapped_scalar(ct_scalar_double(2.5)), NULL);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  uint8_t u = 250;
  r = ct_add(ct_tensor_from_data(&u, CT_UINT8, CT_SHAPE(1), NULL), ct_wrapped_scalar(ct_scalar_int(10)), NULL);
  int64_t v;
  CHECK(ct_item_int64(r, &v) == CT_OK && v == 4);
  int8_t i8 = 100;
  r = ct_add(ct_tensor_from_data(&i8, CT_INT8, CT_SHAPE(1), NULL), ct_wrapped_scalar(ct_scalar_int(1LL << 40)), NULL);
  CHECK(ct_item_int64(r, &v) == CT_OK && v == 100);
  const float xs[2] = {1, 2}, ys[2] = {3, 4};
  r = ct_add(ct_tensor_from_data(xs, CT_FLOAT32, CT_SHAPE(2), NULL), ct_tensor_from_data(ys, CT_FLOAT32, CT_SHAPE(2), NULL),
             &(ct_alpha_opts){ct_scalar_int(3)});
  float f[2];
  CHECK(ct_copy_to_buffer(r, f, CT_FLOAT32, sizeof f) == CT_OK && f[0] == 10 && f[1] == 14);
  /* fused a + alpha * b, as PyTorch's vectorized kernel */
  const float p[2] = {0x1p-30f, 1}, q[2] = {1, 1};
  r = ct_add(ct_tensor_from_data(p, CT_FLOAT32, CT_SHAPE(2), NULL), ct_tensor_from_data(q, CT_FLOAT32, CT_SHAPE(2), NULL),
             &(ct_alpha_opts){ct_scalar_double(1.0000001)});
  CHECK(ct_copy_to_buffer(r, f, CT_FLOAT32, sizeof f) == CT_OK);
  CHECK(f[0] == 1.0000001192092896f && f[1] == 2.0f);
  ct_scope_end();
}

static void test_errors_and_out(void) {
  ct_scope_begin();
  ct_tensor *b = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_BOOL});
  ct_tensor *i = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32});
  ct_tensor *f = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_neg(b) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                              "invert a mask, use the `~` or `logical_not()` operator instead.");
  CHECK_EQ_INT(ct_dtype_of(ct_add(b, b, NULL)), CT_BOOL);
  CHECK(ct_add(i, i, &(ct_alpha_opts){ct_scalar_double(2.5)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number.");
  CHECK(ct_sub(b, b, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                              "`logical_xor()` operator instead.");
  CHECK_EQ_INT(ct_neg_out(ct_empty(CT_SHAPE(2), NULL), i), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype Float but expected Int");
  ct_tensor *o = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK_EQ_INT(ct_add_out(o, ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_FLOAT16}), f, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Int");
  ct_tensor *x = ct_ones(CT_SHAPE(3), NULL);
  CHECK_EQ_INT(ct_add_(x, ct_ones(CT_SHAPE(2, 3), NULL), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [3] doesn't match the broadcast shape [2, 3]");
  CHECK_SHAPE(x, 3);
  CHECK(ct_add(ct_ones(CT_SHAPE(3), NULL), ct_ones(CT_SHAPE(4), NULL), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  /* out= of the wrong shape is resized with the computed layout */
  ct_tensor *base = arange_f(6, CT_FLOAT32);
  ct_tensor *at = geom(base, CT_SHAPE(2, 3), CT_SHAPE(1, 2), 0);
  ct_tensor *out = ct_empty(CT_SHAPE(5), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_add_out(out, at, geom(base, CT_SHAPE(2, 3), CT_SHAPE(3, 1), 0), NULL), CT_OK);
  CHECK_SHAPE(out, 2, 3);
  CHECK_STRIDES(out, 1, 2);
  /* in place: f32 += f64 is allowed, i64 += 2.5 is not and leaves the target unchanged */
  CHECK_EQ_INT(ct_add_(f, ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_FLOAT64}), NULL), CT_OK);
  ct_tensor *l = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK_EQ_INT(ct_mul_(l, ct_wrapped_scalar(ct_scalar_double(2.0))), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  ct_scalar e;
  CHECK(ct_get_item(l, (int64_t[]){1}, &e) == CT_OK && e.kind == CT_SCALAR_INT && e.v.i == 1);
  ct_scope_end();
}

static void test_threads_and_large(void) {
  ct_scope_begin();
  int64_t n = 1 << 20;
  ct_tensor *a = arange_f(n, CT_FLOAT64);
  ct_tensor *b = ct_to_dtype(a, CT_FLOAT32);
  ct_set_num_threads(1);
  ct_tensor *r1 = ct_add(a, b, NULL);
  ct_set_num_threads(2);
  ct_tensor *r2 = ct_add(a, b, NULL);
  ct_set_num_threads(0);
  bool eq = false;
  CHECK(ct_equal(r1, r2, &eq) == CT_OK && eq);
  ct_scalar last;
  CHECK(ct_get_item(r2, (int64_t[]){n - 1}, &last) == CT_OK && last.v.d == 2.0 * (double)(n - 1));
  ct_scope_end();
}

int main(void) {
  test_layouts();
  test_promotion_and_scalars();
  test_errors_and_out();
  test_threads_and_large();
  return TEST_SUMMARY();
}
