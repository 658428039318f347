/* Factories: empty/empty_strided, zeros/ones/full, scalar_tensor, wrapped numbers, tensor(data),
   from_blob, *_like and new_*. Expected shapes, strides, values and messages from torch 1.13. */
#include <math.h>

#include "check.h"
#include "core/internal.h" /* ct_debug_fail_allocation_at */

#define OPTS(...) (&(ct_tensor_opts){__VA_ARGS__})

static double at(const ct_tensor *t, int64_t i) {
  double v[64];
  if (ct_numel(t) > 64 || ct_copy_to_buffer(t, v, CT_FLOAT64, sizeof v) != CT_OK) return NAN;
  return v[i];
}

static void test_empty(void) {
  ct_scope_begin();
  ct_tensor *t = ct_empty(CT_SHAPE(2, 3, 2, 2), OPTS(.memory_format = CT_CHANNELS_LAST));
  CHECK_STRIDES(t, 12, 1, 6, 3);
  CHECK_EQ_INT(ct_storage_nbytes(ct_untyped_storage(t)), 24 * 4);
  t = ct_empty(CT_SHAPE(2, 3, 2, 2, 2), OPTS(.memory_format = CT_CHANNELS_LAST_3D));
  CHECK_STRIDES(t, 24, 1, 12, 6, 3);
  t = ct_empty(CT_SHAPE(2, 3), OPTS(.device = CT_DEVICE_META));
  CHECK(ct_is_meta(t) && ct_data_ptr(t) == NULL);
  CHECK(ct_requires_grad(ct_empty(CT_SHAPE_SCALAR, OPTS(.requires_grad = true))));
  CHECK(ct_requires_grad(ct_zeros(CT_SHAPE(2), OPTS(.dtype = CT_FLOAT16, .requires_grad = true))));
  ct_scope_end();
  CHECK(!ct_empty(CT_SHAPE(2, 3, 2, 2), OPTS(.memory_format = CT_PRESERVE_FORMAT)));
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported memory format Preserve");
  CHECK(!ct_empty(CT_SHAPE(2, 3, 2), OPTS(.memory_format = CT_CHANNELS_LAST)));
  CHECK_ERROR(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
  CHECK(!ct_empty(CT_SHAPE(2), OPTS(.device = CT_DEVICE_CUDA(0))));
  CHECK_ERROR(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
  CHECK(!ct_zeros(CT_SHAPE(2, 3), OPTS(.dtype = CT_INT32, .requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
  CHECK(!ct_empty(CT_SHAPE(1LL << 40, 1LL << 40), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]");
  /* sizes multiplied in 64 unsigned bits, an overflow sticky (c10's safe_multiply_u64): torch 1.13 makes
     empty((5787354564543905791, 3, 0)) and (3, 5787354564543905791, 0) (the running product stays below
     2^64; they failed as products past 2^63 - 1), and refuses (2^62, 5, 0) and (2^62, 4, 0) */
  ct_tensor *e1 = ct_empty(CT_SHAPE(5787354564543905791, 3, 0), NULL);
  CHECK(e1 && ct_numel(e1) == 0 && ct_sizes(e1)[0] == 5787354564543905791);
  ct_release(e1);
  e1 = ct_zeros(CT_SHAPE(3, 5787354564543905791, 0), OPTS(.dtype = CT_BOOL));
  CHECK(e1 && ct_numel(e1) == 0);
  ct_release(e1);
  CHECK(!ct_empty(CT_SHAPE(1LL << 62, 5, 0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[4611686018427387904, 5, 0]");
  CHECK(!ct_empty(CT_SHAPE(1LL << 62, 4, 0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[4611686018427387904, 4, 0]");
}

static void test_empty_strided(void) {
  ct_scope_begin();
  ct_tensor *t = ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1, 2), NULL);
  CHECK_STRIDES(t, 1, 2);
  /* storage: 1 + (2-1)*10 + (3-1)*1 = 13 elements; zero strides need 1; an empty tensor 0 */
  CHECK_EQ_INT(ct_storage_nbytes(ct_untyped_storage(ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(10, 1), NULL))), 13 * 4);
  CHECK_EQ_INT(ct_storage_nbytes(ct_untyped_storage(ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(0, 0), NULL))), 4);
  CHECK_EQ_INT(ct_storage_nbytes(ct_untyped_storage(ct_empty_strided(CT_SHAPE(2, 0), CT_SHAPE(10, 1), NULL))), 0);
  CHECK(ct_empty_strided(CT_SHAPE(0, 3), CT_SHAPE(-1, 1), NULL) != NULL);
  CHECK(ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1, -2), OPTS(.device = CT_DEVICE_META)) != NULL);
  ct_scope_end();
  CHECK(!ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1, 2, 3), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "dimensionality of sizes (2) must match dimensionality of strides (3)");
  CHECK(!ct_empty_strided(CT_SHAPE(2, -3), CT_SHAPE(1, 2, 3), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -3: [2, -3]");
  CHECK(!ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1, -2), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[2, 3] and strides=[1, -2]");
  CHECK(!ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1LL << 62, 1LL << 62), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Storage size calculation overflowed with sizes=[2, 3] and strides=[4611686018427387904, "
              "4611686018427387904]");
  /* torch's order: negative sizes, the dimensionality, the storage from the strides, then the numel */
  CHECK(!ct_empty_strided(CT_SHAPE(1LL << 62, 5, 0), CT_SHAPE(0, 0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "dimensionality of sizes (3) must match dimensionality of strides (2)");
  CHECK(!ct_empty_strided(CT_SHAPE(1LL << 62, 5, 0), CT_SHAPE(0, 0, 0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(!ct_empty_strided(CT_SHAPE(1LL << 62, 5, 1), CT_SHAPE(0, 0, 0), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  ct_tensor *e2 = ct_empty_strided(CT_SHAPE(5787354564543905791, 3, 0), CT_SHAPE(1, 1, 1), NULL);
  CHECK(e2 && ct_numel(e2) == 0);
  ct_release(e2);
}

static void test_fill_factories(void) {
  ct_scope_begin();
  ct_tensor *z = ct_zeros(CT_SHAPE(2, 3), OPTS(.dtype = CT_INT32));
  CHECK(at(z, 5) == 0 && ct_dtype_of(z) == CT_INT32);
  ct_tensor *o = ct_ones(CT_SHAPE(2), OPTS(.dtype = CT_COMPLEX64));
  ct_complex64 c[2];
  ct_copy_to_buffer(o, c, CT_COMPLEX64, sizeof c);
  CHECK(c[1].re == 1 && c[1].im == 0);
  /* full infers bool, int64, the default float, the default complex */
  CHECK_EQ_INT(ct_dtype_of(ct_full(CT_SHAPE(2), CT_BOOLV(true), NULL)), CT_BOOL);
  CHECK_EQ_INT(ct_dtype_of(ct_full(CT_SHAPE(2), CT_INT(5), NULL)), CT_INT64);
  CHECK_EQ_INT(ct_dtype_of(ct_full(CT_SHAPE(2), CT_DOUBLE(3.0), NULL)), CT_FLOAT32);
  CHECK_EQ_INT(ct_dtype_of(ct_full(CT_SHAPE(2), CT_COMPLEX(1, 1), NULL)), CT_COMPLEX64);
  CHECK(at(ct_full(CT_SHAPE(1), CT_DOUBLE(2.7), OPTS(.dtype = CT_INT32)), 0) == 2);
  CHECK(at(ct_full(CT_SHAPE(1), CT_DOUBLE(-2.7), OPTS(.dtype = CT_INT32)), 0) == -2);
  CHECK(at(ct_full(CT_SHAPE(1), CT_INT(-1), OPTS(.dtype = CT_UINT8)), 0) == 255);
  CHECK(at(ct_full(CT_SHAPE(1), CT_DOUBLE(2.5), OPTS(.dtype = CT_BOOL)), 0) == 1);
  CHECK(at(ct_full(CT_SHAPE(1), CT_COMPLEX(1, 2), OPTS(.dtype = CT_BOOL)), 0) == 1);
  CHECK(at(ct_full(CT_SHAPE(1), CT_COMPLEX(1, 0), OPTS(.dtype = CT_FLOAT32)), 0) == 1);
  CHECK(at(ct_full(CT_SHAPE(1), CT_INT(INT64_MAX), OPTS(.dtype = CT_FLOAT32)), 0) == 0x1p63);
  CHECK(isinf(at(ct_full(CT_SHAPE(1), CT_DOUBLE(INFINITY), OPTS(.dtype = CT_FLOAT16)), 0)));
  ct_tensor *cl = ct_full(CT_SHAPE(2, 3, 2, 2), CT_INT(7), OPTS(.memory_format = CT_CHANNELS_LAST));
  CHECK_STRIDES(cl, 12, 1, 6, 3);
  CHECK(at(cl, 23) == 7);
  /* meta: no data, so fill_ has nothing to check */
  CHECK(ct_full(CT_SHAPE(2), CT_INT(1000), OPTS(.dtype = CT_UINT8, .device = CT_DEVICE_META)) != NULL);
  ct_scope_end();
  CHECK(!ct_full(CT_SHAPE(1), CT_INT(1000), OPTS(.dtype = CT_UINT8)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(!ct_full(CT_SHAPE(1), CT_DOUBLE(3e9), OPTS(.dtype = CT_INT32)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int without overflow");
  CHECK(!ct_full(CT_SHAPE(1), CT_DOUBLE(1e5), OPTS(.dtype = CT_FLOAT16)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type at::Half without overflow");
  CHECK(!ct_full(CT_SHAPE(1), CT_COMPLEX(1, 2), OPTS(.dtype = CT_FLOAT32)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  CHECK(!ct_full(CT_SHAPE(-1), CT_INT(1000), OPTS(.dtype = CT_UINT8))); /* the shape is checked first */
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");
  CHECK(!ct_full(CT_SHAPE(2), CT_INT(1), OPTS(.requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
}

static void test_scalars(void) {
  ct_scope_begin();
  /* torch.scalar_tensor uses the default float dtype whatever the number */
  ct_tensor *s = ct_scalar_tensor(CT_BOOLV(true), NULL);
  CHECK(ct_dim(s) == 0 && ct_dtype_of(s) == CT_FLOAT32 && at(s, 0) == 1);
  CHECK_EQ_INT(ct_dtype_of(ct_scalar_tensor(CT_INT(5), NULL)), CT_FLOAT32);
  CHECK(at(ct_scalar_tensor(CT_DOUBLE(3.5), OPTS(.dtype = CT_INT32)), 0) == 3);
  CHECK(ct_scalar_tensor(CT_INT(1000), OPTS(.dtype = CT_UINT8, .device = CT_DEVICE_META)) != NULL);
  /* wrapped numbers keep the number's precision: bool, int64, float64, complex128 */
  ct_tensor *w = ct_wrapped_scalar(CT_DOUBLE(0.1));
  CHECK(ct_is_wrapped_number(w) && ct_dtype_of(w) == CT_FLOAT64 && ct_dim(w) == 0 && at(w, 0) == 0.1);
  CHECK_EQ_INT(ct_dtype_of(ct_wrapped_scalar(CT_INT(3))), CT_INT64);
  CHECK_EQ_INT(ct_dtype_of(ct_wrapped_scalar(CT_BOOLV(false))), CT_BOOL);
  CHECK_EQ_INT(ct_dtype_of(ct_wrapped_scalar(CT_COMPLEX(1, 2))), CT_COMPLEX128);
  CHECK(!ct_is_wrapped_number(ct_scalar_tensor(CT_INT(1), NULL)));
  CHECK(!ct_is_wrapped_number(NULL));
  ct_scope_end();
  CHECK(!ct_scalar_tensor(CT_INT(1000), OPTS(.dtype = CT_UINT8)));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(!ct_scalar_tensor(CT_COMPLEX(1, 2), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
}

static void test_tensor_from_data(void) {
  ct_scope_begin();
  const int64_t ints[] = {1000, -1, 300};
  /* a C array is cast like torch.tensor(numpy_array, dtype=...): wrapping, no range check */
  ct_tensor *u = ct_tensor_from_data(ints, CT_INT64, CT_SHAPE(3), OPTS(.dtype = CT_UINT8));
  CHECK(at(u, 0) == 232 && at(u, 1) == 255 && at(u, 2) == 44);
  const double ds[] = {2.7, -3.7, 1e10, 4, 5, 6};
  ct_tensor *i = ct_tensor_from_data(ds, CT_FLOAT64, CT_SHAPE(3), OPTS(.dtype = CT_INT32));
  CHECK(at(i, 0) == 2 && at(i, 1) == -3 && at(i, 2) == INT32_MIN);
  ct_tensor *d = ct_tensor_from_data(ds, CT_FLOAT64, CT_SHAPE(2, 3), NULL);
  CHECK(ct_dtype_of(d) == CT_FLOAT64 && at(d, 5) == 6 && ct_data_ptr(d) != (void *)ds);
  CHECK_SHAPE(d, 2, 3);
  ct_tensor *cl = ct_tensor_from_data(ds, CT_FLOAT64, CT_SHAPE(1, 2, 3, 1), OPTS(.memory_format = CT_CHANNELS_LAST));
  CHECK_STRIDES(cl, 6, 1, 2, 2);
  CHECK(at(cl, 1) == -3.7 && at(cl, 4) == 5);
  CHECK(ct_is_meta(ct_tensor_from_data(ds, CT_FLOAT64, CT_SHAPE(3), OPTS(.device = CT_DEVICE_META))));
  CHECK_EQ_INT(ct_numel(ct_tensor_from_data(NULL, CT_FLOAT32, CT_SHAPE(0), NULL)), 0);
  ct_scope_end();
  CHECK(!ct_tensor_from_data(NULL, CT_FLOAT32, CT_SHAPE(2), NULL));
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE);
  ct_clear_error();
}

static int deleter_calls;
static void *deleted_data, *deleted_ctx;
static void count_delete(void *ctx, void *data) {
  deleter_calls++;
  deleted_ctx = ctx;
  deleted_data = data;
}

static void test_from_blob(void) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  int ctx = 0;
  deleter_calls = 0;
  ct_tensor *t = ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2, 3), NULL, count_delete, &ctx, NULL);
  CHECK(t && ct_data_ptr(t) == (void *)buf);
  CHECK_STRIDES(t, 3, 1);
  ct_storage *st = ct_untyped_storage(t);
  CHECK(!ct_storage_resizable(st));
  ct_storage_release(st); /* drop the reference ct_untyped_storage gave */
  ct_tensor *t2 = ct_retain(t);
  ct_tensor *c = ct_clone(t, CT_MEMORY_FORMAT_UNSET); /* a copy does not hold the blob */
  buf[0] = 42; /* no copy was made: the tensor sees the caller's memory */
  CHECK(at(t, 0) == 42 && at(c, 0) == 0);
  ct_release(t);
  CHECK_EQ_INT(deleter_calls, 0);
  ct_release(t2);
  CHECK_EQ_INT(deleter_calls, 1); /* exactly once, with the caller's data and context */
  CHECK(deleted_data == (void *)buf && deleted_ctx == (void *)&ctx);
  ct_release(c);
  CHECK_EQ_INT(deleter_calls, 1);

  /* strides of the caller's choice (a transposed view of buf) */
  t = ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(3, 2), (const int64_t[]){1, 3}, NULL, NULL, NULL);
  CHECK_STRIDES(t, 1, 3);
  CHECK(at(t, 1) == 3 && at(t, 2) == 1);
  ct_release(t);

  /* failures leave the memory to the caller: the deleter is not called */
  CHECK(!ct_from_blob(buf, CT_INT32, CT_SHAPE(2), NULL, count_delete, NULL, OPTS(.requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
  CHECK(!ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2, -1), NULL, count_delete, NULL, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
  CHECK(!ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2), (const int64_t[]){-1}, count_delete, NULL, NULL));
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE);
  ct_clear_error();
  CHECK(!ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2), NULL, count_delete, NULL, OPTS(.device = CT_DEVICE_CUDA(0))));
  CHECK_ERROR(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
  CHECK_EQ_INT(deleter_calls, 1);

  /* allocation failure inside from_blob: no tensor, no deleter call */
  ct_debug_fail_allocation_at(0);
  CHECK(!ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2), NULL, count_delete, NULL, NULL));
  ct_debug_fail_allocation_at(-1);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
  ct_clear_error();
  CHECK_EQ_INT(deleter_calls, 1);
}

/* empty_like(preserve): dense inputs keep their strides, others get dense strides in the same order. */
static void like_strides(ct_shape shape, ct_shape strides, ct_shape want) {
  ct_scope_begin();
  ct_tensor *x = ct_empty_strided(shape, strides, NULL);
  ct_tensor *e = ct_empty_like(x, NULL);
  CHECK(e != NULL);
  CHECK_EQ_INT(ct_dim(e), want.ndim);
  for (int64_t i = 0; e && i < want.ndim; i++) CHECK_EQ_INT(ct_strides(e)[i], want.data[i]);
  ct_scope_end();
}

static void test_like(void) {
  like_strides(CT_SHAPE(4, 3), CT_SHAPE(1, 4), CT_SHAPE(1, 4));                 /* transposed */
  like_strides(CT_SHAPE(2, 3, 4, 5), CT_SHAPE(60, 1, 15, 3), CT_SHAPE(60, 1, 15, 3)); /* channels_last */
  like_strides(CT_SHAPE(4, 3), CT_SHAPE(1, 8), CT_SHAPE(1, 4));                 /* t()[:, ::2] */
  like_strides(CT_SHAPE(4, 3), CT_SHAPE(6, 2), CT_SHAPE(3, 1));                 /* [:, ::2] */
  like_strides(CT_SHAPE(3, 4), CT_SHAPE(1, 0), CT_SHAPE(4, 1));                 /* expanded */
  like_strides(CT_SHAPE(2, 3, 4, 3), CT_SHAPE(72, 1, 18, 6), CT_SHAPE(36, 1, 9, 3)); /* channels_last sliced */
  like_strides(CT_SHAPE(4, 2, 3), CT_SHAPE(2, 24, 8), CT_SHAPE(1, 12, 4));      /* permuted and sliced */
  like_strides(CT_SHAPE(2, 3, 4), CT_SHAPE(0, 1, 3), CT_SHAPE(12, 1, 3));       /* a broadcast dim keeps its place */
  like_strides(CT_SHAPE(3, 1, 2), CT_SHAPE(2, 7, 1), CT_SHAPE(2, 7, 1));        /* dense: exact strides, size-1 too */
  like_strides(CT_SHAPE(3, 0), CT_SHAPE(1, 3), CT_SHAPE(1, 3));                 /* empty is dense */

  ct_scope_begin();
  ct_tensor *x = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(1, 4), NULL);
  ct_tensor *e = ct_empty_like(x, OPTS(.memory_format = CT_CONTIGUOUS_FORMAT));
  CHECK_STRIDES(e, 3, 1);
  e = ct_empty_like(x, OPTS(.dtype = CT_FLOAT64));
  CHECK(ct_dtype_of(e) == CT_FLOAT64);
  CHECK_STRIDES(e, 1, 4);
  ct_tensor *z = ct_zeros_like(x, OPTS(.dtype = CT_INT64));
  CHECK(ct_dtype_of(z) == CT_INT64 && at(z, 11) == 0);
  ct_tensor *f = ct_full_like(x, CT_DOUBLE(2.5), OPTS(.dtype = CT_INT32));
  CHECK(at(f, 7) == 2);
  CHECK(at(ct_full_like(ct_zeros(CT_SHAPE(2), OPTS(.dtype = CT_INT64)), CT_BOOLV(true), NULL), 1) == 1);
  ct_tensor *ob = ct_ones_like(ct_zeros(CT_SHAPE(2), OPTS(.dtype = CT_BOOL)), NULL);
  CHECK(ct_dtype_of(ob) == CT_BOOL && at(ob, 1) == 1);
  ct_tensor *m = ct_empty_like(x, OPTS(.device = CT_DEVICE_META));
  CHECK(ct_is_meta(m));
  CHECK_STRIDES(m, 1, 4);
  ct_tensor *mz = ct_zeros_like(m, NULL);
  CHECK(ct_is_meta(mz));
  CHECK(ct_requires_grad(ct_zeros_like(x, OPTS(.requires_grad = true))));
  CHECK(!ct_requires_grad(ct_empty_like(ct_zeros(CT_SHAPE(2), OPTS(.requires_grad = true)), NULL)));
  ct_tensor *cl = ct_empty_like(ct_empty(CT_SHAPE(2, 3, 4, 5), NULL), OPTS(.memory_format = CT_CHANNELS_LAST));
  CHECK_STRIDES(cl, 60, 1, 15, 3);
  ct_scope_end();

  ct_scope_begin();
  ct_tensor *y = ct_empty(CT_SHAPE(3, 4), NULL);
  CHECK(!ct_empty_like(y, OPTS(.memory_format = CT_CHANNELS_LAST)));
  CHECK_ERROR(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
  CHECK(!ct_full_like(ct_zeros(CT_SHAPE(2), OPTS(.dtype = CT_UINT8)), CT_INT(1000), NULL));
  ct_clear_error();
  CHECK(!ct_full_like(y, CT_COMPLEX(1, 1), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  CHECK(!ct_zeros_like(ct_zeros(CT_SHAPE(2), OPTS(.dtype = CT_INT32)), OPTS(.requires_grad = true)));
  CHECK_ERROR(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
  CHECK(!ct_empty_like(NULL, NULL));
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
  ct_scope_end();
}

static void test_new(void) {
  ct_scope_begin();
  ct_tensor *x = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(1, 4), OPTS(.dtype = CT_INT32));
  ct_tensor *z = ct_new_zeros(x, CT_SHAPE(3, 4), NULL);
  CHECK(ct_dtype_of(z) == CT_INT32);
  CHECK_STRIDES(z, 4, 1); /* the new shape is laid out afresh */
  CHECK(at(ct_new_full(x, CT_SHAPE(2), CT_DOUBLE(3.7), NULL), 1) == 3);
  CHECK(at(ct_new_ones(x, CT_SHAPE(2), NULL), 0) == 1);
  CHECK_EQ_INT(ct_dtype_of(ct_new_zeros(x, CT_SHAPE(2), OPTS(.dtype = CT_FLOAT16))), CT_FLOAT16);
  CHECK_EQ_INT(ct_dtype_of(ct_new_empty(x, CT_SHAPE(2), OPTS(.dtype = CT_FLOAT64))), CT_FLOAT64);
  const double data[] = {1.5, 2};
  ct_tensor *n = ct_new_tensor(x, data, CT_FLOAT64, CT_SHAPE(2), NULL);
  CHECK(ct_dtype_of(n) == CT_INT32 && at(n, 0) == 1 && at(n, 1) == 2);
  ct_tensor *m = ct_new_zeros(ct_empty(CT_SHAPE(2), OPTS(.device = CT_DEVICE_META)), CT_SHAPE(3), NULL);
  CHECK(ct_is_meta(m));
  CHECK_SHAPE(m, 3);
  ct_scope_end();
  ct_tensor *y = ct_empty(CT_SHAPE(2), OPTS(.dtype = CT_INT32));
  CHECK(!ct_new_full(y, CT_SHAPE(2), CT_INT(300000000000LL), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int without overflow");
  CHECK(!ct_new_zeros(y, CT_SHAPE(2), OPTS(.device = CT_DEVICE_CUDA(0))));
  CHECK_ERROR(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
  ct_release(y);
}

/* Every allocation point of every factory can fail: the call then returns NULL with an out-of-memory
   error and leaks nothing (the sanitizer build checks leaks). */
static ct_tensor *make(int which) {
  static const double data[6] = {1, 2, 3, 4, 5, 6};
  ct_tensor *t = NULL, *base;
  switch (which) {
    case 0: return ct_zeros(CT_SHAPE(2, 3), NULL);
    case 1: return ct_full(CT_SHAPE(2, 3, 2, 2), CT_INT(3), OPTS(.memory_format = CT_CHANNELS_LAST));
    case 2: return ct_arange(CT_INT(0), CT_INT(100), CT_DOUBLE(0.5), NULL);
    case 3: return ct_linspace(CT_INT(0), CT_INT(1), 50, OPTS(.dtype = CT_INT16));
    case 4: return ct_logspace(CT_INT(0), CT_COMPLEX(1, 1), 5, 2.0, NULL);
    case 5: return ct_eye_m(3, 4, NULL);
    case 6: return ct_tensor_from_data(data, CT_FLOAT64, CT_SHAPE(2, 3), OPTS(.dtype = CT_INT8));
    case 7: return ct_wrapped_scalar(CT_DOUBLE(1.5));
    case 8:
      base = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(1, 8), NULL);
      if (base) t = ct_full_like(base, CT_INT(2), NULL);
      ct_release(base);
      return t;
    case 9:
      base = ct_empty_strided(CT_SHAPE(3, 4, 5, 6, 7, 8, 9, 2, 3, 2), CT_SHAPE(2, 6, 24, 120, 720, 5040, 40320, 362880, 725760, 1), NULL);
      if (base) t = ct_empty_like(base, NULL);
      ct_release(base);
      return t;
    default: return ct_scalar_tensor(CT_INT(7), NULL);
  }
}

static void test_allocation_failures(void) {
  for (int which = 0; which <= 10; which++) {
    for (int64_t k = 0; k < 40; k++) {
      ct_debug_fail_allocation_at(k);
      ct_tensor *t = make(which);
      ct_debug_fail_allocation_at(-1);
      if (t) {
        ct_release(t);
        break; /* past the last allocation point */
      }
      CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
    }
  }
}

int main(void) {
  test_empty();
  test_empty_strided();
  test_fill_factories();
  test_scalars();
  test_tensor_from_data();
  test_from_blob();
  test_like();
  test_new();
  test_allocation_failures();
  return TEST_SUMMARY();
}
