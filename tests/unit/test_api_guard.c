/* The public API against caller mistakes found by fuzzing (issue 13, items 14-19, 21, 22): negative
   sizes hidden by a zero, malformed ct_shape / ct_dims lists, NULL data and result pointers, storage-size
   overflow, status/error agreement, storages shrunk under live views, geometry arithmetic that
   overflowed int64, and mvlgamma's bound. Messages and results are PyTorch 1.13's where PyTorch has the
   same mistake; C-only mistakes (NULL pointers, negative lengths) are ValueErrors. Run under UBSan too:
   several cases were undefined behaviour, not wrong answers. */
#include <stdlib.h>

#include "view_test_util.h"

#define NEG_DIM_ERR "Trying to create tensor with negative dimension -2: [0, -2]"

/* ---- item 14: a negative size next to a zero ---- */
static void test_negative_size_with_zero(void) {
  ct_tensor *s = ct_ones(CT_SHAPE_SCALAR, NULL);
  /* torch 1.13 returns a tensor of size [0, -2] for these four; unbind/split/chunk then overflowed */
  CHECK(ct_expand(s, CT_SHAPE(0, -2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_broadcast_to(s, CT_SHAPE(0, -2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_expand(s, CT_SHAPE(0, -1)) == NULL); /* a 0-dim tensor takes -1 literally */
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [0, -1]");
  /* the fuzzer's chain: the first cause comes out, no list is made */
  CHECK(ct_unbind(ct_expand(s, CT_SHAPE(0, -2)), 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_chunk(ct_expand(s, CT_SHAPE(0, -2)), 2, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_split(ct_expand(s, CT_SHAPE(0, -2)), 2, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);

  ct_tensor *t = arange_f32(CT_SHAPE(3));
  ct_tensor *one = ct_ones(CT_SHAPE(1, 3), NULL);
  /* where PyTorch refuses, its message stays */
  CHECK(ct_expand(t, CT_SHAPE(-2, 3)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(ct_expand(one, CT_SHAPE(-2, 0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "The expanded size of the tensor (0) must match the existing size (3) at non-singleton dimension 1.  "
              "Target sizes: [-2, 0].  Tensor sizes: [1, 3]");
  CHECK(ct_as_strided(t, CT_SHAPE(0, -2), CT_SHAPE(1, 1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_as_strided(t, CT_SHAPE(-2), CT_SHAPE(1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[-2] and strides=[1]");

  /* in place: refused, and self is untouched */
  CHECK_EQ_INT(ct_resize_(t, CT_SHAPE(0, -2), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK_EQ_INT(ct_resize_(t, CT_SHAPE(-2), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  ct_storage *st = ct_untyped_storage(t);
  CHECK_EQ_INT(ct_set_storage_(t, st, 0, CT_SHAPE(0, -2), CT_SHAPE(1, 1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK_EQ_INT(ct_set_storage_(t, st, 0, CT_SHAPE(0, -2), CT_SHAPE_SCALAR), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK_GEOM(t, 0, L(3), L(1));
  CHECK_VALUES(t, 0, 1, 2);
  ct_tensor *m = empty_meta(CT_SHAPE(3));
  ct_storage *ms = ct_untyped_storage(m);
  CHECK_EQ_INT(ct_set_storage_(m, ms, 0, CT_SHAPE(0, -2), CT_SHAPE(1, 1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK_GEOM(m, 0, L(3), L(1));
  /* the entries that always refused keep their messages */
  CHECK(ct_empty(CT_SHAPE(0, -2), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, NEG_DIM_ERR);
  CHECK(ct_view(ct_empty(CT_SHAPE(0), NULL), CT_SHAPE(0, -2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid shape dimension -2");
}

/* ---- item 15: ct_shape / ct_dims lists ---- */
static void test_malformed_lists(void) {
  static const int64_t vals[] = {1, 2, 3};
  const ct_shape neg = {vals, -1}, none = {NULL, 2};
  ct_tensor *t = arange_f32(CT_SHAPE(2, 3));
  ct_storage *st = ct_untyped_storage(t);
#define NEG_ERR(what) CHECK_ERROR(CT_ERR_VALUE, what ": a list of negative length -1")
#define NULL_ERR(what) CHECK_ERROR(CT_ERR_VALUE, what ": a list of 2 entries with data NULL")
  /* creation */
  CHECK(ct_empty(neg, NULL) == NULL);
  NEG_ERR("shape");
  CHECK(ct_empty(none, NULL) == NULL);
  NULL_ERR("shape");
  CHECK(ct_zeros(none, NULL) == NULL);
  NULL_ERR("shape");
  CHECK(ct_full(neg, CT_INT(1), NULL) == NULL);
  NEG_ERR("shape");
  CHECK(ct_new_ones(t, none, NULL) == NULL);
  NULL_ERR("shape");
  CHECK(ct_rand(neg, NULL) == NULL);
  NEG_ERR("shape");
  CHECK(ct_tensor_from_data(vals, CT_INT64, neg, NULL) == NULL);
  NEG_ERR("shape");
  CHECK(ct_empty_strided(none, CT_SHAPE(1, 1), NULL) == NULL);
  NULL_ERR("shape");
  CHECK(ct_empty_strided(CT_SHAPE(1, 1), none, NULL) == NULL);
  NULL_ERR("strides");
  float buf[4] = {0};
  CHECK(ct_from_blob(buf, CT_FLOAT32, neg, NULL, NULL, NULL, NULL) == NULL);
  NEG_ERR("shape");
  /* views */
  CHECK(ct_view(t, none) == NULL);
  NULL_ERR("shape");
  CHECK(ct_reshape(t, neg) == NULL);
  NEG_ERR("shape");
  CHECK(ct_expand(t, none) == NULL);
  NULL_ERR("shape");
  CHECK(ct_broadcast_to(t, neg) == NULL);
  NEG_ERR("shape");
  CHECK(ct_as_strided(t, none, CT_SHAPE(1, 1), NULL) == NULL);
  NULL_ERR("size");
  CHECK(ct_as_strided(t, CT_SHAPE(1, 1), none, NULL) == NULL);
  NULL_ERR("stride");
  CHECK(ct_permute(t, none) == NULL);
  NULL_ERR("dims");
  CHECK(ct_movedim(t, neg, neg) == NULL);
  NEG_ERR("source");
  CHECK(ct_movedim(t, CT_DIMS(0), (ct_dims){NULL, 1}) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "destination: a list of 1 entries with data NULL");
  CHECK(ct_squeeze_dims(t, none) == NULL);
  NULL_ERR("dims");
  CHECK(ct_unflatten(t, 0, neg) == NULL);
  NEG_ERR("sizes");
  CHECK(ct_split_with_sizes(t, none, 1) == NULL);
  NULL_ERR("split_sizes");
  CHECK(ct_tensor_split_indices(t, neg, 1) == NULL); /* was a heap overflow: a list of 0 pieces written */
  NEG_ERR("indices");
  CHECK_EQ_INT(ct_resize_(t, neg, CT_MEMORY_FORMAT_UNSET), CT_ERR_VALUE);
  NEG_ERR("size");
  CHECK_EQ_INT(ct_resize_(t, none, CT_MEMORY_FORMAT_UNSET), CT_ERR_VALUE);
  NULL_ERR("size");
  CHECK_EQ_INT(ct_set_storage_(t, st, 0, none, CT_SHAPE_SCALAR), CT_ERR_VALUE);
  NULL_ERR("size");
  CHECK_EQ_INT(ct_set_storage_(t, st, 0, CT_SHAPE(6), neg), CT_ERR_VALUE);
  NEG_ERR("stride");
  CHECK_GEOM(t, 0, L(2, 3), L(3, 1));
  /* reductions (their lists were half checked: a negative length reduced over no dim) */
  CHECK(ct_sum(t, &(ct_reduce_opts){.dims = neg}) == NULL);
  NEG_ERR("dims");
  CHECK(ct_sum(t, &(ct_reduce_opts){.dims = none}) == NULL);
  NULL_ERR("dims");
  CHECK(ct_norm(t, &(ct_norm_opts){.dims = none}) == NULL);
  NULL_ERR("dims");
  /* torch.Size helpers */
  CHECK_EQ_INT(ct_shape_numel(neg), -1);
  NEG_ERR("shape");
  CHECK_EQ_INT(ct_shape_count(none, 1), -1);
  NULL_ERR("shape");
  CHECK_EQ_INT(ct_shape_index(none, 1), -1);
  NULL_ERR("shape");
  char s[64];
  CHECK_EQ_INT(ct_shape_str(none, s, sizeof s), -1);
  NULL_ERR("shape");
  /* torch.Size([2**62, 4]).numel() wraps to 0 */
  CHECK_EQ_INT(ct_shape_numel(CT_SHAPE(INT64_C(1) << 62, 4)), 0);
  /* the empty list is fine with or without data */
  ct_tensor *e = ct_empty((ct_shape){NULL, 0}, NULL);
  CHECK(e != NULL && ct_dim(e) == 0);
#undef NEG_ERR
#undef NULL_ERR
}

/* ---- item 16: from_blob ---- */
static void test_from_blob(void) {
  CHECK(ct_from_blob(NULL, CT_FLOAT32, CT_SHAPE(3), NULL, NULL, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "from_blob: data is NULL for a tensor of 3 elements");
  ct_tensor *e = ct_from_blob(NULL, CT_FLOAT32, CT_SHAPE(0, 3), NULL, NULL, NULL, NULL);
  CHECK(e != NULL);
  CHECK_SHAPE(e, 0, 3);
  float buf[4] = {1, 2, 3, 4};
  const int64_t huge[] = {INT64_MAX - 1};
  CHECK(ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(5), huge, NULL, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[5] and strides=[9223372036854775806]");
  CHECK(ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(INT64_C(1) << 61, 2), NULL, NULL, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[2305843009213693952, 2]");
  /* the storage spans exactly the geometry */
  const int64_t st[] = {3};
  ct_tensor *t = ct_from_blob(buf, CT_FLOAT32, CT_SHAPE(2), st, NULL, NULL, NULL);
  ct_storage *s = ct_untyped_storage(t);
  CHECK_EQ_INT(ct_storage_nbytes(s), 16);
  CHECK_VALUES(t, 1, 4);
}

/* ---- items 17 and 19: NULL results, NULL buffers, status = recorded kind ---- */
static void test_null_results(void) {
  ct_tensor *one = ct_full(CT_SHAPE(1), CT_DOUBLE(2.5), NULL);
  ct_tensor *many = ct_ones(CT_SHAPE(3, 3), NULL);
  CHECK_EQ_INT(ct_item(one, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item: out is NULL");
  CHECK_EQ_INT(ct_item_double(one, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item_double: out is NULL");
  CHECK_EQ_INT(ct_item_int64(one, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item_int64: out is NULL");
  CHECK_EQ_INT(ct_item_bool(one, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item_bool: out is NULL");
  CHECK_EQ_INT(ct_item_complex(one, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item_complex: out is NULL");
  CHECK_EQ_INT(ct_get_item(one, (const int64_t[]){0}, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_get_item: out is NULL");
  CHECK_EQ_INT(ct_equal(one, many, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_equal: out is NULL");
  CHECK_EQ_INT(ct_result_type(one, many, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_result_type: out is NULL");
  /* a NULL tensor passes the chain's first cause on; with none recorded, it is itself the first cause (the
     status and ct_last_error() agree) */
  CHECK_EQ_INT(ct_item(NULL, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 't' is NULL");
  ct_empty(CT_SHAPE(-1), NULL);
  CHECK_EQ_INT(ct_item(NULL, NULL), CT_ERR_RUNTIME);
  CHECK_EQ_INT(ct_uniform_(NULL, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_EQ_INT(ct_add_(NULL, NULL, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");

  /* item 19: torch raises ValueError for item() of 9 elements; the status says the same */
  double d = 0;
  ct_scalar sc;
  CHECK_EQ_INT(ct_item(many, &sc), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  CHECK_EQ_INT(ct_item_double(many, &d), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  CHECK_EQ_INT(ct_item_double(one, &d), CT_OK);
  CHECK(d == 2.5);

  /* buffers: NULL only with n = 0 (snprintf's length query) */
  char buf[64];
  CHECK_EQ_INT(ct_device_str(CT_DEVICE_CPU, NULL, 8), -1);
  CHECK_ERROR(CT_ERR_VALUE, "ct_device_str: buf is NULL but n is 8");
  CHECK_EQ_INT(ct_device_repr(CT_DEVICE_CPU, NULL, 8), -1);
  CHECK_ERROR(CT_ERR_VALUE, "ct_device_repr: buf is NULL but n is 8");
  CHECK_EQ_INT(ct_shape_str(CT_SHAPE(2, 3), NULL, 8), -1);
  CHECK_ERROR(CT_ERR_VALUE, "ct_shape_str: buf is NULL but n is 8");
  CHECK_EQ_INT(ct_device_str(CT_DEVICE_CPU, NULL, 0), 3);
  CHECK_EQ_INT(ct_device_repr(CT_DEVICE_CUDA(1), NULL, 0), (int)strlen("device(type='cuda', index=1)"));
  CHECK_EQ_INT(ct_shape_str(CT_SHAPE(2, 3), NULL, 0), (int)strlen("torch.Size([2, 3])"));
  CHECK_EQ_INT(ct_shape_str(CT_SHAPE(2, 3), buf, sizeof buf), (int)strlen("torch.Size([2, 3])"));
  CHECK_STR(buf, "torch.Size([2, 3])");
  CHECK_EQ_INT(ct_last_error(), CT_OK);
}

/* ---- item 22: a storage shrunk under live views ---- */
static void test_shrunk_storage(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(12));
  ct_tensor *v = ct_view(x, CT_SHAPE(3, 4));
  ct_tensor *head = ct_slice(x, 0, 0, 4, 1); /* still inside 16 bytes */
  ct_tensor *last = ct_select(ct_select(v, 0, 2), 0, 3);
  ct_storage *s = ct_untyped_storage(x);
  CHECK_EQ_INT(ct_storage_resize_(s, 16), CT_OK);
#define OOB_V                                                                                                \
  "setStorage: sizes [3, 4], strides [4, 1], storage offset 0, and itemsize 4 requiring a storage size of 48 " \
  "are out of bounds for storage of size 16"
  CHECK(ct_sum(v, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_add(v, v, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_neg(v) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_cumsum(v, 1, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_clone(v, CT_MEMORY_FORMAT_UNSET) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_contiguous(ct_t(v), CT_MEMORY_FORMAT_UNSET) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "setStorage: sizes [4, 3], strides [1, 4], storage offset 0, and itemsize 4 requiring a storage size of "
              "48 are out of bounds for storage of size 16");
  ct_tensor *dst = ct_zeros(CT_SHAPE(3, 4), NULL);
  CHECK_EQ_INT(ct_copy_(dst, v), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK_EQ_INT(ct_copy_(v, dst), CT_ERR_RUNTIME); /* writes too */
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  float out[12];
  CHECK_EQ_INT(ct_copy_to_buffer(v, out, CT_FLOAT32, sizeof out), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  CHECK(ct_to_string(v) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  /* random fills write directly */
#define OOB_X                                                                                                \
  "setStorage: sizes [12], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 48 are " \
  "out of bounds for storage of size 16"
  CHECK_EQ_INT(ct_uniform_(x, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_X);
  CHECK_EQ_INT(ct_normal_(x, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_X);
  CHECK_EQ_INT(ct_bernoulli_(x, 0.5, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_X);
  CHECK_EQ_INT(ct_exponential_(x, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_X);
  CHECK_EQ_INT(ct_random_(x, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_X);
#undef OOB_X
  double d;
  CHECK_EQ_INT(ct_item_double(last, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "setStorage: sizes [], strides [], storage offset 11, and itemsize 4 requiring a storage size of 48 are "
              "out of bounds for storage of size 16");
  ct_scalar sc;
  CHECK_EQ_INT(ct_get_item(v, (const int64_t[]){0, 0}, &sc), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  bool eq;
  CHECK_EQ_INT(ct_equal(v, dst, &eq), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OOB_V);
  /* views are metadata: making one is fine, using it is not */
  ct_tensor *row = ct_select(v, 0, 2);
  CHECK(row != NULL);
  CHECK(ct_sum(row, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "setStorage: sizes [4], strides [1], storage offset 8, and itemsize 4 requiring a storage size of 48 "
              "are out of bounds for storage of size 16");
  /* what still fits works; growing the storage back makes the views usable again */
  ct_tensor *hs = ct_sum(head, NULL);
  CHECK(hs && ct_item_double(hs, &d) == CT_OK && d == 6);
  CHECK_EQ_INT(ct_storage_resize_(s, 48), CT_OK);
  ct_tensor *vs = ct_sum(v, NULL);
  CHECK(vs != NULL);
  CHECK_EQ_INT(ct_item_double(last, &d), CT_OK);
  CHECK_EQ_INT(ct_last_error(), CT_OK);
#undef OOB_V
}

/* ---- item 18: geometry arithmetic past int64 (UBSan found these) ---- */
static void test_geometry_overflow(void) {
  /* torch 1.13: empty((0, 2**62, 4)).stride() == (0, 4, 1); (0, 2**62, 2): the first stride is 2**63, wrapped */
  ct_tensor *e = ct_empty(CT_SHAPE(0, INT64_C(1) << 62, 4), NULL);
  CHECK_STRIDES(e, 0, 4, 1);
  ct_tensor *c = ct_clone(e, CT_MEMORY_FORMAT_UNSET);
  CHECK_STRIDES(c, 0, 4, 1);
  ct_tensor *e2 = ct_empty(CT_SHAPE(0, INT64_C(1) << 62, 2), NULL);
  CHECK_STRIDES(e2, INT64_MIN, 2, 1);
  /* empty_strided's fix-up of negative strides: 4 * 2**62 wraps to 0 (torch 1.13 on meta) */
  ct_tensor *es = ct_empty_strided(CT_SHAPE(1, 4), CT_SHAPE(-1, INT64_C(1) << 62), &(ct_tensor_opts){.device = CT_DEVICE_META});
  CHECK_STRIDES(es, 0, INT64_C(1) << 62);
  ct_tensor *es2 = ct_empty_strided(CT_SHAPE(0, INT64_C(1) << 62, 4), CT_SHAPE(-1, -1, -1), NULL);
  CHECK_STRIDES(es2, 0, 4, 1);
  /* an empty tensor with strides that multiply past int64: channels_last tests, empty_like, clone */
  ct_tensor *z = ct_empty(CT_SHAPE(0), NULL);
  const int64_t big = INT64_C(1) << 62;
  ct_tensor *x = ct_as_strided(z, CT_SHAPE(0, 2, 2, 2), CT_SHAPE(1, big, big, big), NULL);
  CHECK(!ct_is_contiguous(x, CT_CHANNELS_LAST));
  ct_tensor *xc = ct_clone(x, CT_MEMORY_FORMAT_UNSET);
  CHECK_STRIDES(xc, 1, big, big, big);
  ct_tensor *xl = ct_empty_like(x, NULL);
  CHECK_STRIDES(xl, 1, big, big, big);
  /* a size-1 dim with a stride whose byte stride overflows: copy, pointwise, reduction, scan, print */
  ct_tensor *o = ct_ones(CT_SHAPE(3), NULL);
  ct_tensor *y = ct_as_strided(o, CT_SHAPE(1, 3), CT_SHAPE(big, 1), NULL);
  ct_tensor *yc = ct_clone(y, CT_MEMORY_FORMAT_UNSET);
  CHECK_STRIDES(yc, big, 1); /* torch keeps them: a size-1 dim's stride does not matter */
  CHECK_VALUES(yc, 1, 1, 1);
  ct_tensor *ya = ct_add(y, y, NULL);
  CHECK_STRIDES(ya, 3, 1);
  CHECK_VALUES(ya, 2, 2, 2);
  ct_tensor *ys = ct_sum(y, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK_VALUES(ys, 1, 1, 1);
  ct_tensor *yt = ct_sum(y, NULL);
  double d = 0;
  CHECK(yt && ct_item_double(yt, &d) == CT_OK && d == 3);
  ct_tensor *yk = ct_cumsum(y, 1, NULL);
  CHECK_VALUES(yk, 1, 2, 3);
  ct_tensor *w = ct_as_strided(o, CT_SHAPE(3, 1), CT_SHAPE(1, big), NULL);
  ct_tensor *ws = ct_sum(w, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK_VALUES(ws, 3);
  CHECK(ct_is_contiguous(w, CT_CONTIGUOUS_FORMAT));
  char *str = ct_to_string(y);
  CHECK_STR(str, "tensor([[1., 1., 1.]])");
  free(str);

  /* arange of 2**63 elements: (double)INT64_MAX is 2**63; torch's cast gives INT64_MIN, refused as a SymInt */
  CHECK(ct_arange(CT_INT(0), CT_INT(INT64_MAX), CT_INT(1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
  CHECK(ct_arange(CT_DOUBLE(0), CT_DOUBLE(9223372036854775808.0), CT_DOUBLE(1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
  CHECK(ct_arange(CT_INT(-(INT64_C(1) << 62)), CT_INT(INT64_C(1) << 62), CT_INT(1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid size, possible overflow?");

  /* printing at the ends of linewidth's range (torch: one element per line at -2**63) */
  ct_print_options saved;
  ct_get_printoptions(&saved);
  CHECK_EQ_INT(ct_set_printoptions(&(ct_print_options){.linewidth = CT_PRINT_SET(INT64_MIN)}), CT_OK);
  ct_print_options now;
  ct_get_printoptions(&now);
  CHECK(now.linewidth.value == INT64_MIN);
  ct_tensor *r = ct_arange(CT_DOUBLE(0), CT_DOUBLE(3), CT_DOUBLE(1), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *rf = ct_arange(CT_DOUBLE(0), CT_DOUBLE(3), CT_DOUBLE(1), NULL);
  str = ct_to_string(r);
  CHECK_STR(str, "tensor([0.,\n        1.,\n        2.],\n       dtype=torch.float64)");
  free(str);
  ct_tensor *rv = ct_view(rf, CT_SHAPE(3, 1));
  str = ct_to_string(rv);
  CHECK_STR(str, "tensor([[0.],\n        [1.],\n        [2.]])");
  free(str);
  CHECK_EQ_INT(ct_set_printoptions(&(ct_print_options){.linewidth = CT_PRINT_SET(INT64_MAX)}), CT_OK);
  str = ct_to_string(r);
  CHECK_STR(str, "tensor([0., 1., 2.], dtype=torch.float64)");
  free(str);
  saved.sci_mode = CT_SCI_MODE_KEEP;
  ct_set_printoptions(&saved);

}

/* ---- item 21: mvlgamma's p is bounded by the blocks PyTorch's composite allocates ---- */
#define OOM(n)                                                                                                 \
  "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate " \
  n " bytes. Error code 12 (Cannot allocate memory)"
static void test_mvlgamma_bound(void) {
  ct_tensor *one = ct_ones(CT_SHAPE(1), NULL);
  /* arange(p): 2**46 floats (256 TiB, past any address space) */
  CHECK(ct_mvlgamma(one, INT64_C(1) << 46) == NULL);
  CHECK_ERROR(CT_ERR_OUT_OF_MEMORY, OOM("281474976710656"));
  CHECK(ct_mvlgamma(one, INT64_C(1) << 61) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[2305843009213693952]");
  CHECK(ct_mvlgamma(one, INT64_MAX - 599) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[9223372036854774784]");
  CHECK(ct_mvlgamma(one, INT64_MAX) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
  /* args = arange(p) + t.unsqueeze(-1): [2**30, 2**20] floats */
  ct_tensor *wide = ct_expand(one, CT_SHAPE(INT64_C(1) << 30));
  CHECK(ct_mvlgamma(wide, INT64_C(1) << 20) == NULL);
  CHECK_ERROR(CT_ERR_OUT_OF_MEMORY, OOM("4503599627370496"));
  ct_tensor *h = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  ct_tensor *hw = ct_expand(h, CT_SHAPE(INT64_C(1) << 30));
  CHECK(ct_mvlgamma(hw, INT64_C(1) << 20) == NULL); /* the block fails before lgamma's dtype check */
  CHECK_ERROR(CT_ERR_OUT_OF_MEMORY, OOM("2251799813685248"));
  CHECK(ct_mvlgamma(h, 2) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lgamma_vml_cpu\" not implemented for 'Half'");
  ct_tensor *cx = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_mvlgamma(cx, INT64_C(1) << 46) == NULL); /* arange's dispatch comes first */
  CHECK_ERROR(CT_ERR_RUNTIME, "\"arange_cpu\" not implemented for 'ComplexFloat'");
  ct_tensor *meta = ct_expand(empty_meta(CT_SHAPE(1)), CT_SHAPE(INT64_C(1) << 30));
  CHECK(ct_mvlgamma(meta, INT64_C(1) << 40) == NULL); /* meta allocates nothing but checks the sizes */
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[1073741824, 1099511627776]");
  ct_tensor *i32 = ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK_EQ_INT(ct_mvlgamma_(i32, INT64_C(1) << 62), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "step must be nonzero");
  /* torch.arange(5).mvlgamma(1) = [inf, 0, 0, 0.6931, 1.7918] (lgamma) */
  ct_tensor *a = ct_arange(CT_INT(0), CT_INT(5), CT_INT(1), NULL);
  ct_tensor *m = ct_mvlgamma(a, 1);
  CHECK(m != NULL && ct_dtype_of(m) == CT_FLOAT32);
  double d = 0;
  ct_tensor *m4 = m ? ct_select(m, 0, 4) : NULL;
  CHECK(m4 && ct_item_double(m4, &d) == CT_OK && d > 1.79175 && d < 1.79176);
}

/* Each test runs in a scope, which owns every tensor and storage it makes. */
static void scoped(void (*test)(void)) {
  ct_scope_begin();
  test();
  ct_scope_end();
}

/* With an argument, only the test of that name runs (each of them crashed some build before its fix). */
int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*fn)(void);
  } tests[] = {{"negative_size_with_zero", test_negative_size_with_zero}, {"malformed_lists", test_malformed_lists},
               {"from_blob", test_from_blob},         {"null_results", test_null_results},
               {"shrunk_storage", test_shrunk_storage}, {"geometry_overflow", test_geometry_overflow},
               {"mvlgamma_bound", test_mvlgamma_bound}};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
    if (argc < 2 || strcmp(argv[1], tests[i].name) == 0) scoped(tests[i].fn);
  return TEST_SUMMARY();
}
