/* Conversion and copying: to, the dtype shorthands, contiguous, clone, copy_, item, element access,
   copy_to_buffer and equal. Expected values and messages from torch 1.13. Views are made with the
   internal ct__view (the view ops live elsewhere). */
#include <math.h>

#include "check.h"
#include "core/internal.h"

#define OPTS(...) (&(ct_tensor_opts){__VA_ARGS__})

static ct_tensor *view(const ct_tensor *base, ct_shape sizes, ct_shape strides, int64_t offset) {
  return ct__own(ct__view(base, sizes.ndim, sizes.data, strides.data, offset));
}

/* arange(n) as float32 (values 0..n-1 written through set_item) */
static ct_tensor *iota(int64_t n, ct_dtype dt) {
  ct_tensor *t = ct_empty((ct_shape){&n, 1}, OPTS(.dtype = dt));
  for (int64_t i = 0; i < n; i++) ct_set_item(t, &i, ct_scalar_int(i));
  return t;
}

static void values(const ct_tensor *t, double *out, size_t n) { ct_copy_to_buffer(t, out, CT_FLOAT64, n * sizeof *out); }

static void test_to(void) {
  ct_scope_begin();
  ct_tensor *x = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(1, 4), NULL); /* torch.empty(3, 4).t() */
  /* nothing changes: the same handle, one more reference */
  ct_tensor *same = ct_to(x, NULL);
  CHECK(same == x && ct_refcount(x) == 2);
  CHECK(ct_to_dtype(x, CT_FLOAT32) == x);
  /* suggest_memory_format() of a transposed matrix is contiguous_format, so this aliases too */
  CHECK(ct_to(x, &(ct_to_opts){.memory_format = CT_CONTIGUOUS_FORMAT}) == x);
  ct_tensor *c = ct_to(x, &(ct_to_opts){.copy = true});
  CHECK(c != x);
  CHECK_STRIDES(c, 1, 4);
  ct_tensor *d = ct_to_dtype(x, CT_FLOAT64);
  CHECK(ct_dtype_of(d) == CT_FLOAT64);
  CHECK_STRIDES(d, 1, 4);
  ct_tensor *s = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(6, 2), NULL); /* empty(4, 6)[:, ::2] */
  CHECK_STRIDES(ct_to_dtype(s, CT_FLOAT64), 3, 1);
  ct_tensor *cl = ct_empty(CT_SHAPE(2, 3, 4, 5), OPTS(.memory_format = CT_CHANNELS_LAST));
  CHECK(ct_to(cl, &(ct_to_opts){.memory_format = CT_CHANNELS_LAST}) == cl);
  ct_tensor *clc = ct_to(cl, &(ct_to_opts){.memory_format = CT_CONTIGUOUS_FORMAT});
  CHECK(clc != cl);
  CHECK_STRIDES(clc, 60, 20, 5, 1);
  CHECK_STRIDES(ct_int(cl), 60, 1, 15, 3);
  ct_tensor *m = ct_to(x, &(ct_to_opts){.device = CT_DEVICE_META});
  CHECK(ct_is_meta(m));
  CHECK_STRIDES(m, 1, 4);
  CHECK_EQ_INT(ct_dtype_of(ct_type_as(ct_int(x), ct_empty(CT_SHAPE(1), OPTS(.dtype = CT_FLOAT16)))), CT_FLOAT16);
  const ct_dtype want[] = {CT_FLOAT32, CT_FLOAT64, CT_FLOAT16, CT_BFLOAT16, CT_INT32, CT_INT64, CT_INT16, CT_INT8, CT_UINT8, CT_BOOL};
  ct_tensor *(*const fns[])(const ct_tensor *) = {ct_float, ct_double, ct_half, ct_bfloat16, ct_int,
                                                  ct_long, ct_short, ct_char, ct_byte, ct_bool};
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) CHECK_EQ_INT(ct_dtype_of(fns[i](x)), want[i]);
  /* values convert with the cast rules: -3.7 -> uint8 253 */
  double v = -3.7, got;
  ct_tensor *t = ct_tensor_from_data(&v, CT_FLOAT64, CT_SHAPE(1), NULL);
  values(ct_byte(t), &got, 1);
  CHECK(got == 253);
  /* requires_grad survives a floating conversion only */
  ct_tensor *g = ct_ones(CT_SHAPE(1), OPTS(.requires_grad = true));
  CHECK(ct_requires_grad(ct_double(g)) && !ct_requires_grad(ct_int(g)) && ct_requires_grad(ct_clone(g, 0)));
  ct_scope_end();

  ct_tensor *y = ct_empty(CT_SHAPE(3, 4), NULL);
  CHECK(!ct_to(y, &(ct_to_opts){.memory_format = CT_CHANNELS_LAST}));
  CHECK_ERROR(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
  CHECK(!ct_to(y, &(ct_to_opts){.device = CT_DEVICE_CUDA(0)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
  ct_tensor *ym = ct_empty(CT_SHAPE(2), OPTS(.device = CT_DEVICE_META));
  CHECK(!ct_to(ym, &(ct_to_opts){.device = CT_DEVICE_CPU}));
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  CHECK(!ct_to(NULL, NULL));
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
  ct_release(y);
  ct_release(ym);
}

static void test_contiguous_clone(void) {
  ct_scope_begin();
  ct_tensor *a = iota(12, CT_FLOAT32);
  CHECK(ct_contiguous(a, CT_MEMORY_FORMAT_UNSET) == a);
  CHECK(ct_contiguous(a, CT_PRESERVE_FORMAT) == a); /* is_contiguous(preserve) checks the default format */
  ct_tensor *t = view(a, CT_SHAPE(4, 3), CT_SHAPE(1, 4), 0); /* a.view(3, 4).t() */
  ct_tensor *c = ct_contiguous(t, CT_MEMORY_FORMAT_UNSET);
  CHECK(c != t);
  CHECK_STRIDES(c, 3, 1);
  double v[12];
  values(c, v, 12);
  CHECK(v[0] == 0 && v[1] == 4 && v[2] == 8 && v[3] == 1 && v[11] == 11);
  ct_tensor *k = ct_clone(t, CT_MEMORY_FORMAT_UNSET);
  CHECK_STRIDES(k, 1, 4);
  values(k, v, 12);
  CHECK(v[1] == 4 && v[3] == 1);
  ct_tensor *z = ct_empty_strided(CT_SHAPE(3, 0), CT_SHAPE(1, 3), NULL); /* empty(0, 3).t(): contiguous */
  CHECK(ct_contiguous(z, 0) == z);
  ct_tensor *x4 = ct_empty(CT_SHAPE(2, 3, 4, 5), NULL);
  ct_tensor *x4c = ct_contiguous(x4, CT_CHANNELS_LAST);
  CHECK_STRIDES(x4c, 60, 1, 15, 3);
  CHECK(ct_contiguous(x4c, CT_CHANNELS_LAST) == x4c);
  CHECK_STRIDES(ct_clone(x4c, CT_CONTIGUOUS_FORMAT), 60, 20, 5, 1);
  CHECK(ct_is_meta(ct_clone(ct_empty(CT_SHAPE(2), OPTS(.device = CT_DEVICE_META)), 0)));
  ct_scope_end();
  ct_tensor *y = ct_empty_strided(CT_SHAPE(4, 3), CT_SHAPE(1, 4), NULL);
  CHECK(!ct_contiguous(y, CT_PRESERVE_FORMAT));
  CHECK_ERROR(CT_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
  CHECK(!ct_clone(y, CT_CHANNELS_LAST));
  CHECK_ERROR(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
  ct_release(y);
}

static void test_copy(void) {
  ct_scope_begin();
  /* broadcast a row into a matrix, converting float32 -> int32 */
  const float row[3] = {1.5f, -2.5f, 300.7f};
  ct_tensor *src = ct_tensor_from_data(row, CT_FLOAT32, CT_SHAPE(3), NULL);
  ct_tensor *dst = ct_zeros(CT_SHAPE(2, 3), OPTS(.dtype = CT_INT32));
  CHECK_EQ_INT(ct_copy_(dst, src), CT_OK);
  double v[12];
  values(dst, v, 6);
  CHECK(v[0] == 1 && v[1] == -2 && v[2] == 300 && v[3] == 1 && v[5] == 300);
  /* a 0-dim source fills everything */
  CHECK_EQ_INT(ct_copy_(dst, ct_scalar_tensor(CT_INT(5), NULL)), CT_OK);
  values(dst, v, 6);
  CHECK(v[0] == 5 && v[5] == 5);
  /* into a transposed destination from a transposed source */
  ct_tensor *a = iota(6, CT_FLOAT64);
  ct_tensor *at = view(a, CT_SHAPE(3, 2), CT_SHAPE(1, 3), 0);
  ct_tensor *b = ct_zeros(CT_SHAPE(2, 3), OPTS(.dtype = CT_INT16));
  ct_tensor *bt = view(b, CT_SHAPE(3, 2), CT_SHAPE(1, 3), 0);
  CHECK_EQ_INT(ct_copy_(bt, at), CT_OK);
  values(b, v, 6);
  CHECK(v[0] == 0 && v[1] == 1 && v[4] == 4 && v[5] == 5);
  /* same handle, and a same-data view: nothing to do */
  CHECK_EQ_INT(ct_copy_(a, a), CT_OK);
  CHECK_EQ_INT(ct_copy_(a, view(a, CT_SHAPE(6), CT_SHAPE(1), 0)), CT_OK);
  /* a written-to tensor with repeated elements along a size-1 dim is fine */
  ct_tensor *e1 = view(ct_zeros(CT_SHAPE(3), NULL), CT_SHAPE(1, 3), CT_SHAPE(0, 1), 0);
  CHECK_EQ_INT(ct_copy_(e1, ct_ones(CT_SHAPE(1, 3), NULL)), CT_OK);
  /* copies into meta tensors are ignored, even with a mismatching shape */
  CHECK_EQ_INT(ct_copy_(ct_empty(CT_SHAPE(2, 3), OPTS(.device = CT_DEVICE_META)), ct_zeros(CT_SHAPE(2, 4), NULL)), CT_OK);
  /* an empty destination accepts a broadcastable source */
  CHECK_EQ_INT(ct_copy_(ct_zeros(CT_SHAPE(0, 3), NULL), ct_zeros(CT_SHAPE(1, 3), NULL)), CT_OK);
  /* views of one buffer that do not overlap: x[::2].copy_(x[1::2]) */
  ct_tensor *x = iota(10, CT_FLOAT32);
  CHECK_EQ_INT(ct_copy_(view(x, CT_SHAPE(5), CT_SHAPE(2), 0), view(x, CT_SHAPE(5), CT_SHAPE(2), 1)), CT_OK);
  values(x, v, 10);
  CHECK(v[0] == 1 && v[1] == 1 && v[2] == 3 && v[8] == 9 && v[9] == 9);
  /* x[1:4].copy_(x[0]): a 0-dim source outside the written range */
  x = iota(10, CT_FLOAT32);
  CHECK_EQ_INT(ct_copy_(view(x, CT_SHAPE(3), CT_SHAPE(1), 1), view(x, CT_SHAPE_SCALAR, CT_SHAPE_SCALAR, 0)), CT_OK);
  values(x, v, 10);
  CHECK(v[0] == 0 && v[1] == 0 && v[3] == 0 && v[4] == 4);
  /* overlapping strided views PyTorch does not classify: copied in its iterator's order, each element read
     just before it is written (rows of 3: no vector block). torch 1.13:
     x = torch.arange(12.); x.as_strided((3, 3), (4, 1), 1).copy_(x.as_strided((3, 3), (4, 1), 0))
     gives [0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8] */
  x = iota(12, CT_FLOAT32);
  ct_tensor *right = view(x, CT_SHAPE(3, 3), CT_SHAPE(4, 1), 1), *left = view(x, CT_SHAPE(3, 3), CT_SHAPE(4, 1), 0);
  CHECK_EQ_INT(ct_copy_(right, left), CT_OK);
  values(x, v, 12);
  for (int i = 0; i < 12; i++) CHECK(v[i] == (double)(i / 4 * 4));
  /* rows of 19: one block of 16 loaded before it is stored, then element by element. torch 1.13:
     y = torch.arange(40.).view(2, 20); y[:, 1:].copy_(y[:, :-1]) gives rows [0, 0, 1, ..., 15, 15, 15, 15]
     and [20, 20, 21, ..., 35, 35, 35, 35] */
  double w[40];
  x = iota(40, CT_FLOAT32);
  CHECK_EQ_INT(
      ct_copy_(view(x, CT_SHAPE(2, 19), CT_SHAPE(20, 1), 1), view(x, CT_SHAPE(2, 19), CT_SHAPE(20, 1), 0)),
      CT_OK);
  values(x, w, 40);
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < 20; i++)
      CHECK(w[r * 20 + i] == (double)(r * 20 + (i == 0 ? 0 : i <= 16 ? i - 1 : 15)));
  /* a destination that writes an address twice keeps the last write in torch's order. torch 1.13:
     x = torch.arange(64) % 100 - 50 (int8); x.as_strided((2, 2), (1, 1), 33).copy_(x.as_strided((2, 2), (0, 1), 25))
     leaves x[34] == -25 (the row-major walk: (1, 0) after (0, 1)) */
  x = iota(64, CT_FLOAT32);
  CHECK_EQ_INT(
      ct_copy_(view(x, CT_SHAPE(2, 2), CT_SHAPE(1, 1), 33), view(x, CT_SHAPE(2, 2), CT_SHAPE(0, 1), 25)),
      CT_OK);
  double u[64];
  values(x, u, 64);
  CHECK(u[33] == 25 && u[34] == 25 && u[35] == 26);
  /* the in-place write bumps the storage version */
  ct_storage *st = ct_untyped_storage(x);
  uint32_t ver = atomic_load(&st->version);
  ct_copy_(x, ct_scalar_tensor(CT_INT(0), NULL));
  CHECK(atomic_load(&st->version) == ver + 1);
  ct_scope_end();
}

static void test_copy_errors(void) {
  ct_scope_begin();
  ct_tensor *m = ct_zeros(CT_SHAPE(2, 3), NULL);
  CHECK_EQ_INT(ct_copy_(m, ct_zeros(CT_SHAPE(2, 4), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  CHECK_EQ_INT(ct_copy_(m, ct_zeros(CT_SHAPE(4, 3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0");
  CHECK_EQ_INT(ct_copy_(m, ct_zeros(CT_SHAPE(0, 3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (2) must match the size of tensor b (0) at non-singleton dimension 0");
  CHECK_EQ_INT(ct_copy_(m, ct_zeros(CT_SHAPE(2, 1, 3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [2, 3] doesn't match the broadcast shape [2, 2, 3]");
  CHECK_EQ_INT(ct_copy_(m, ct_zeros(CT_SHAPE(1, 2, 3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [2, 3] doesn't match the broadcast shape [1, 2, 3]");
  CHECK_EQ_INT(ct_copy_(ct_zeros(CT_SHAPE_SCALAR, NULL), ct_zeros(CT_SHAPE(1), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape [1]");
  ct_tensor *expanded = view(ct_zeros(CT_SHAPE(3), NULL), CT_SHAPE(2, 3), CT_SHAPE(0, 1), 0);
  CHECK_EQ_INT(ct_copy_(expanded, ct_ones(CT_SHAPE(2, 3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "unsupported operation: more than one element of the written-to tensor refers to a single memory "
              "location. Please clone() the tensor before performing the operation.");
  ct_tensor *x = iota(10, CT_FLOAT32);
  const char *partial = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                        "single memory location. Please clone() the tensor before performing the operation.";
  CHECK_EQ_INT(ct_copy_(view(x, CT_SHAPE(9), CT_SHAPE(1), 1), view(x, CT_SHAPE(9), CT_SHAPE(1), 0)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, partial);
  ct_tensor *sq = view(x, CT_SHAPE(3, 3), CT_SHAPE(3, 1), 0);
  CHECK_EQ_INT(ct_copy_(sq, view(x, CT_SHAPE(3, 3), CT_SHAPE(1, 3), 0)), CT_ERR_RUNTIME); /* x.copy_(x.t()) */
  CHECK_ERROR(CT_ERR_RUNTIME, partial);
  CHECK_EQ_INT(ct_copy_(view(x, CT_SHAPE(3), CT_SHAPE(1), 0), view(x, CT_SHAPE_SCALAR, CT_SHAPE_SCALAR, 0)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, partial);
  double v[10];
  values(x, v, 10);
  CHECK(v[0] == 0 && v[1] == 1 && v[9] == 9); /* failed copies wrote nothing */
  CHECK_EQ_INT(ct_copy_(m, ct_empty(CT_SHAPE(2, 3), OPTS(.device = CT_DEVICE_META))), CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  CHECK(ct_copy_(NULL, m) != CT_OK);
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 'self' is NULL");
  ct_scope_end();
}

static void test_item(void) {
  /* tensor([-3.7]).to(d).item() (complex: tensor([3.7+1j])) */
  ct_scope_begin();
  double m37 = -3.7;
  ct_tensor *base = ct_tensor_from_data(&m37, CT_FLOAT64, CT_SHAPE(1), NULL);
  struct {
    ct_dtype d;
    ct_scalar_kind kind;
    double value;
  } cases[] = {{CT_BOOL, CT_SCALAR_BOOL, 1},          {CT_UINT8, CT_SCALAR_INT, 253},
               {CT_INT8, CT_SCALAR_INT, -3},          {CT_INT16, CT_SCALAR_INT, -3},
               {CT_INT32, CT_SCALAR_INT, -3},         {CT_INT64, CT_SCALAR_INT, -3},
               {CT_FLOAT16, CT_SCALAR_DOUBLE, -3.69921875}, {CT_BFLOAT16, CT_SCALAR_DOUBLE, -3.703125},
               {CT_FLOAT32, CT_SCALAR_DOUBLE, -3.700000047683716}, {CT_FLOAT64, CT_SCALAR_DOUBLE, -3.7}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_scalar s;
    CHECK_EQ_INT(ct_item(ct_to_dtype(base, cases[i].d), &s), CT_OK);
    CHECK_EQ_INT(s.kind, cases[i].kind);
    double got = s.kind == CT_SCALAR_BOOL ? s.v.b : s.kind == CT_SCALAR_INT ? (double)s.v.i : s.v.d;
    CHECK(got == cases[i].value);
  }
  ct_tensor *c = ct_full(CT_SHAPE_SCALAR, CT_COMPLEX(3.7, 1), NULL); /* complex64 */
  ct_scalar s;
  CHECK_EQ_INT(ct_item(c, &s), CT_OK);
  CHECK(s.kind == CT_SCALAR_COMPLEX && s.v.c.re == (double)3.7f && s.v.c.im == 1);
  ct_complex128 z;
  CHECK(ct_item_complex(c, &z) == CT_OK && z.im == 1);
  double d;
  int64_t i64;
  bool b;
  CHECK(ct_item_double(ct_to_dtype(base, CT_FLOAT16), &d) == CT_OK && d == -3.69921875);
  CHECK(ct_item_int64(base, &i64) == CT_OK && i64 == -3);
  CHECK(ct_item_int64(ct_to_dtype(base, CT_UINT8), &i64) == CT_OK && i64 == 253);
  CHECK(ct_item_bool(base, &b) == CT_OK && b);
  CHECK(ct_item_bool(ct_full(CT_SHAPE(1), CT_COMPLEX(0, 1), NULL), &b) == CT_OK && b); /* bool(0+1j) */
  CHECK(ct_item_bool(ct_zeros(CT_SHAPE(1, 1), NULL), &b) == CT_OK && !b);
  CHECK(ct_item_double(ct_full(CT_SHAPE(1), CT_BOOLV(true), NULL), &d) == CT_OK && d == 1.0);
  CHECK_EQ_INT(ct_item_double(c, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type double without overflow");
  CHECK_EQ_INT(ct_item_int64(c, &i64), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int64_t without overflow");
  CHECK_EQ_INT(ct_item_int64(ct_full(CT_SHAPE(1), CT_DOUBLE(NAN), NULL), &i64), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int64_t without overflow");
  /* the status is the recorded kind (issue 13, item 19) */
  CHECK_EQ_INT(ct_item(ct_zeros(CT_SHAPE(2, 3), NULL), &s), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  CHECK_EQ_INT(ct_item(ct_zeros(CT_SHAPE(0), NULL), &s), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  CHECK_EQ_INT(ct_item(ct_zeros(CT_SHAPE(1), OPTS(.device = CT_DEVICE_META)), &s), CT_ERR_NOT_IMPLEMENTED);
  CHECK(strstr(ct_last_error_message(), "Could not run 'aten::_local_scalar_dense' with arguments from the 'Meta' backend.") ==
        ct_last_error_message());
  ct_clear_error();
  ct_scope_end();
}

static void test_element_access(void) {
  ct_scope_begin();
  ct_tensor *t = ct_zeros(CT_SHAPE(2, 3), OPTS(.dtype = CT_INT32));
  CHECK_EQ_INT(ct_set_item(t, (const int64_t[]){1, -1}, CT_DOUBLE(2.7)), CT_OK); /* -> 2 */
  CHECK_EQ_INT(ct_set_item(t, (const int64_t[]){0, 0}, CT_INT(-1)), CT_OK);
  ct_scalar s;
  CHECK(ct_get_item(t, (const int64_t[]){1, 2}, &s) == CT_OK && s.kind == CT_SCALAR_INT && s.v.i == 2);
  CHECK(ct_get_item(t, (const int64_t[]){-2, -3}, &s) == CT_OK && s.v.i == -1);
  ct_tensor *b = ct_zeros(CT_SHAPE(3), OPTS(.dtype = CT_BOOL));
  CHECK_EQ_INT(ct_set_item(b, (const int64_t[]){0}, CT_INT(5)), CT_OK);
  CHECK_EQ_INT(ct_set_item(b, (const int64_t[]){1}, CT_DOUBLE(0.5)), CT_OK);
  CHECK(ct_get_item(b, (const int64_t[]){1}, &s) == CT_OK && s.kind == CT_SCALAR_BOOL && s.v.b);
  ct_tensor *z = ct_scalar_tensor(CT_DOUBLE(1.5), NULL); /* a 0-dim tensor takes an empty index */
  CHECK(ct_get_item(z, NULL, &s) == CT_OK && s.v.d == 1.5);
  /* element access on a transposed view */
  double vals[6] = {0, 1, 2, 3, 4, 5};
  ct_tensor *m = ct_from_blob(vals, CT_FLOAT64, CT_SHAPE(3, 2), (const int64_t[]){1, 3}, NULL, NULL, NULL);
  CHECK(ct_get_item(m, (const int64_t[]){2, 1}, &s) == CT_OK && s.v.d == 5);
  CHECK(ct_get_item(m, (const int64_t[]){1, 0}, &s) == CT_OK && s.v.d == 1);
  ct_tensor *u = ct_zeros(CT_SHAPE(3), OPTS(.dtype = CT_UINT8));
  CHECK_EQ_INT(ct_set_item(u, (const int64_t[]){0}, CT_INT(1000)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(ct_get_item(u, (const int64_t[]){0}, &s) == CT_OK && s.v.i == 0); /* unchanged */
  CHECK_EQ_INT(ct_set_item(t, (const int64_t[]){0, 0}, CT_COMPLEX(1, 1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int without overflow");
  ct_tensor *r = ct_zeros(CT_SHAPE(3), NULL);
  CHECK_EQ_INT(ct_get_item(r, (const int64_t[]){5}, &s), CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index 5 is out of bounds for dimension 0 with size 3");
  CHECK_EQ_INT(ct_get_item(r, (const int64_t[]){-4}, &s), CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index -4 is out of bounds for dimension 0 with size 3");
  CHECK_EQ_INT(ct_set_item(ct_zeros(CT_SHAPE(1, 3), NULL), (const int64_t[]){0, 3}, CT_INT(1)), CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index 3 is out of bounds for dimension 1 with size 3");
  ct_scope_end();
}

static void test_copy_to_buffer(void) {
  ct_scope_begin();
  double vals[6] = {0.5, 1, 2, 3, 4, 300.7};
  ct_tensor *m = ct_from_blob(vals, CT_FLOAT64, CT_SHAPE(3, 2), (const int64_t[]){1, 3}, NULL, NULL, NULL);
  int8_t out[6];
  CHECK_EQ_INT(ct_copy_to_buffer(m, out, CT_INT8, sizeof out), CT_OK); /* row-major order of the view */
  CHECK(out[0] == 0 && out[1] == 3 && out[2] == 1 && out[3] == 4 && out[5] == 44);
  CHECK_EQ_INT(ct_copy_to_buffer(m, out, CT_INT8, 5), CT_ERR_VALUE);
  ct_clear_error();
  CHECK_EQ_INT(ct_copy_to_buffer(ct_zeros(CT_SHAPE(2), OPTS(.device = CT_DEVICE_META)), out, CT_INT8, 6),
               CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  CHECK_EQ_INT(ct_copy_to_buffer(ct_zeros(CT_SHAPE(0), NULL), NULL, CT_INT8, 0), CT_OK);
  ct_scope_end();
}

static bool eq(const ct_tensor *a, const ct_tensor *b) {
  bool r = false;
  CHECK_EQ_INT(ct_equal(a, b, &r), CT_OK);
  return r;
}

static ct_tensor *vec(ct_dtype dt, int n, const double *v) {
  return ct_to_dtype(ct_tensor_from_data(v, CT_FLOAT64, (ct_shape){(const int64_t[]){n}, 1}, NULL), dt);
}

static void test_equal(void) {
  ct_scope_begin();
  const double one_two[] = {1, 2}, nan1[] = {NAN, 1}, m1[] = {-1}, p255[] = {255}, tf[] = {1, 0}, two0[] = {2, 0};
  CHECK(eq(vec(CT_INT64, 2, one_two), vec(CT_FLOAT32, 2, one_two))); /* True: compared after promotion */
  CHECK(!eq(vec(CT_INT64, 2, one_two), ct_zeros(CT_SHAPE(3), NULL)));
  CHECK(!eq(vec(CT_INT64, 2, one_two), ct_zeros(CT_SHAPE(1, 2), NULL)));
  ct_tensor *n = vec(CT_FLOAT32, 2, nan1);
  CHECK(!eq(n, n)); /* NaN != NaN, even for the same tensor */
  CHECK(!eq(vec(CT_INT8, 1, m1), vec(CT_UINT8, 1, p255))); /* promoted to int16: -1 vs 255 */
  CHECK(!eq(vec(CT_BOOL, 2, tf), vec(CT_INT64, 2, two0)));
  CHECK(eq(vec(CT_BOOL, 2, tf), vec(CT_INT64, 2, tf)));
  const double tenth[] = {0.1};
  CHECK(!eq(vec(CT_FLOAT32, 1, tenth), vec(CT_FLOAT64, 1, tenth)));
  CHECK(!eq(vec(CT_FLOAT16, 1, tenth), vec(CT_BFLOAT16, 1, tenth)));
  const double big[] = {16777217}, big_f[] = {16777216};
  CHECK(eq(vec(CT_INT64, 1, big), vec(CT_FLOAT32, 1, big_f))); /* 16777217 rounds to float32 first */
  CHECK(eq(ct_zeros(CT_SHAPE(0), NULL), ct_zeros(CT_SHAPE(0), OPTS(.dtype = CT_INT32))));
  const double mz[] = {-0.0}, pz[] = {0.0};
  CHECK(eq(vec(CT_FLOAT32, 1, mz), vec(CT_FLOAT32, 1, pz)));
  CHECK(eq(ct_full(CT_SHAPE(1), CT_COMPLEX(1, 0), NULL), vec(CT_INT64, 1, one_two)));
  CHECK(!eq(ct_scalar_tensor(CT_INT(1), NULL), ct_ones(CT_SHAPE(1), NULL)));
  /* strided inputs */
  double vals[6] = {0, 1, 2, 3, 4, 5}, tvals[6] = {0, 3, 1, 4, 2, 5};
  ct_tensor *t = ct_from_blob(vals, CT_FLOAT64, CT_SHAPE(3, 2), (const int64_t[]){1, 3}, NULL, NULL, NULL);
  CHECK(eq(t, ct_tensor_from_data(tvals, CT_FLOAT64, CT_SHAPE(3, 2), OPTS(.dtype = CT_INT32))));
  bool r;
  CHECK_EQ_INT(ct_equal(ct_zeros(CT_SHAPE(2), NULL), ct_zeros(CT_SHAPE(2), OPTS(.device = CT_DEVICE_META)), &r),
               CT_ERR_NOT_IMPLEMENTED);
  CHECK(strstr(ct_last_error_message(), "Could not run 'aten::equal' with arguments from the 'Meta' backend.") ==
        ct_last_error_message());
  ct_clear_error();
  CHECK(ct_equal(NULL, t, &r) != CT_OK);
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 'a' is NULL");
  ct_scope_end();
}

/* Every allocation inside clone/copy can fail: the call reports it and leaks nothing (LSan checks). */
static void test_allocation_failures(void) {
  ct_tensor *src = ct_empty_strided(CT_SHAPE(3, 4, 5, 6, 7, 8, 9, 2, 3), CT_SHAPE(1, 3, 12, 60, 360, 2520, 20160, 181440, 362880), NULL);
  for (int64_t k = 0; k < 12; k++) {
    ct_debug_fail_allocation_at(k);
    ct_tensor *c = ct_clone(src, CT_CONTIGUOUS_FORMAT);
    ct_debug_fail_allocation_at(-1);
    if (c) ct_release(c);
    else CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
  }
  ct_release(src);
}

int main(void) {
  test_to();
  test_contiguous_clone();
  test_copy();
  test_copy_errors();
  test_item();
  test_element_access();
  test_copy_to_buffer();
  test_equal();
  test_allocation_failures();
  return TEST_SUMMARY();
}
