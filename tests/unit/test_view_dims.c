/* Views that move, drop, add or merge dims: transpose, t, T, mT, permute, movedim, squeeze,
   unsqueeze, flatten, unflatten. Expected values were produced by PyTorch 1.13 (squeeze over a list
   of dims follows PyTorch 2.0, which introduced it). */
#include "view_test_util.h"

static void test_transpose_family(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(2, 3, 4));
  ct_tensor *r = ct_transpose(x, -1, 0);
  CHECK_GEOM(r, 0, L(4, 3, 2), L(1, 4, 12));
  CHECK_VALUES(r, 0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23);
  ct_release(r);
  r = ct_transpose(x, 1, 1); /* same dim: a fresh alias */
  CHECK(r != x);
  bool same = false;
  CHECK(ct_is_set_to(r, x, &same) == CT_OK && same);
  ct_release(r);
  CHECK(ct_transpose(x, 3, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  CHECK(ct_t(x) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is 3D");
  r = ct_T(x);
  CHECK_GEOM(r, 0, L(4, 3, 2), L(1, 4, 12));
  ct_release(r);
  r = ct_mT(x);
  CHECK_GEOM(r, 0, L(2, 4, 3), L(12, 1, 4));
  ct_release(r);
  ct_release(x);

  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_transpose(s, 0, -1);
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  CHECK(ct_transpose(s, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  r = ct_t(s);
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  r = ct_mT(s); /* PyTorch 1.13 returns a 0-dim tensor itself */
  CHECK(r == s);
  CHECK_EQ_INT(ct_refcount(s), 2);
  ct_release(r);
  ct_release(s);

  ct_tensor *v = ct_empty(CT_SHAPE(5), NULL);
  r = ct_t(v);
  CHECK_GEOM(r, 0, L(5), L(1));
  ct_release(r);
  r = ct_T(v);
  CHECK_GEOM(r, 0, L(5), L(1));
  ct_release(r);
  CHECK(ct_mT(v) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.");
  ct_release(v);
}

static void test_permute(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *r = ct_permute(x, CT_DIMS(2, 0, 1));
  CHECK_GEOM(r, 0, L(4, 2, 3), L(1, 12, 4));
  ct_release(r);
  r = ct_permute(x, CT_DIMS(-1, 0, 1));
  CHECK_GEOM(r, 0, L(4, 2, 3), L(1, 12, 4));
  ct_release(r);
  CHECK(ct_permute(x, CT_DIMS(0, 1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
              "desired ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2");
  CHECK(ct_permute(x, CT_DIMS(0, 1, 1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
  CHECK(ct_permute(x, CT_DIMS(0, 0, 5)) == NULL); /* the duplicate is met before the bad dim */
  CHECK_ERROR(CT_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
  CHECK(ct_permute(x, CT_DIMS(0, 1, -4)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_permute(s, CT_SHAPE_SCALAR);
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  CHECK(ct_permute(s, CT_DIMS(0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
              "desired ordering of dimensions i.e. input.dim() = 0 is not equal to len(dims) = 1");
  ct_release(s);
}

static void test_movedim(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *r = ct_movedim(x, CT_DIMS(0), CT_DIMS(2));
  CHECK_GEOM(r, 0, L(3, 4, 2), L(4, 1, 12));
  ct_release(r);
  r = ct_movedim(x, CT_DIMS(0, 1), CT_DIMS(2, 0));
  CHECK_GEOM(r, 0, L(3, 4, 2), L(4, 1, 12));
  ct_release(r);
  r = ct_movedim(x, CT_DIMS(-1), CT_DIMS(0));
  CHECK_GEOM(r, 0, L(4, 2, 3), L(1, 12, 4));
  ct_release(r);
  r = ct_movedim(x, CT_DIMS(0, 1, 2), CT_DIMS(2, 1, 0));
  CHECK_GEOM(r, 0, L(4, 3, 2), L(1, 4, 12));
  ct_release(r);
  r = ct_movedim(x, CT_SHAPE_SCALAR, CT_SHAPE_SCALAR);
  CHECK_GEOM(r, 0, L(2, 3, 4), L(12, 4, 1));
  ct_release(r);
  CHECK(ct_movedim(x, CT_DIMS(0, 1), CT_DIMS(2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of "
              "dims as destination ([2] dims)");
  CHECK(ct_movedim(x, CT_DIMS(0, -3), CT_DIMS(1, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "movedim: repeated dim in `source` ([0, -3])");
  CHECK(ct_movedim(x, CT_DIMS(0, 1), CT_DIMS(2, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "movedim: repeated dim in `destination` ([2, 2])");
  CHECK(ct_movedim(x, CT_DIMS(0, 0), CT_DIMS(1, 3)) == NULL); /* every dim is wrapped before repeats */
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_movedim(s, CT_DIMS(0), CT_DIMS(-1));
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  CHECK(ct_movedim(s, CT_DIMS(1), CT_DIMS(0)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(s);
}

static void test_squeeze_unsqueeze(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(1, 2, 1), NULL);
  ct_tensor *r = ct_squeeze(x);
  CHECK_GEOM(r, 0, L(2), L(1));
  ct_release(r);
  r = ct_squeeze_dim(x, 0);
  CHECK_GEOM(r, 0, L(2, 1), L(1, 1));
  ct_release(r);
  r = ct_squeeze_dim(x, 1); /* not size 1: unchanged */
  CHECK_GEOM(r, 0, L(1, 2, 1), L(2, 1, 1));
  ct_release(r);
  r = ct_squeeze_dim(x, -1);
  CHECK_GEOM(r, 0, L(1, 2), L(2, 1));
  ct_release(r);
  CHECK(ct_squeeze_dim(x, 3) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  /* PyTorch 2.0's squeeze(dims): each listed dim goes if it has size 1. */
  r = ct_squeeze_dims(x, CT_DIMS(0, 2));
  CHECK_GEOM(r, 0, L(2), L(1));
  ct_release(r);
  r = ct_squeeze_dims(x, CT_DIMS(1, -1));
  CHECK_GEOM(r, 0, L(1, 2), L(2, 1));
  ct_release(r);
  r = ct_squeeze_dims(x, CT_SHAPE_SCALAR);
  CHECK_GEOM(r, 0, L(1, 2, 1), L(2, 1, 1));
  ct_release(r);
  CHECK(ct_squeeze_dims(x, CT_DIMS(0, -3)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "dim 0 appears multiple times in the list of dims");
  CHECK(ct_squeeze_dims(x, CT_DIMS(0, 3)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");

  r = ct_unsqueeze(x, 0);
  CHECK_GEOM(r, 0, L(1, 1, 2, 1), L(2, 2, 1, 1));
  ct_release(r);
  r = ct_unsqueeze(x, -1);
  CHECK_GEOM(r, 0, L(1, 2, 1, 1), L(2, 1, 1, 1));
  ct_release(r);
  CHECK(ct_unsqueeze(x, 4) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-4, 3], but got 4)");
  CHECK(ct_unsqueeze(x, -5) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-4, 3], but got -5)");
  ct_release(x);

  /* The new dim's stride spans the dim it lands before. */
  ct_tensor *y = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *yt = ct_transpose(y, 0, 2);
  r = ct_unsqueeze(yt, 1);
  CHECK_GEOM(r, 0, L(4, 1, 3, 2), L(1, 12, 4, 12));
  ct_release(r);
  r = ct_unsqueeze(yt, 0);
  CHECK_STRIDES(r, 4, 1, 4, 12);
  ct_release(r);
  ct_release(yt);
  ct_tensor *col = ct_select(y, 2, 1);
  r = ct_unsqueeze(col, 2);
  CHECK_GEOM(r, 1, L(2, 3, 1), L(12, 4, 1));
  ct_release(r);
  ct_release(col);
  ct_release(y);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  r = ct_unsqueeze(e, 0);
  CHECK_STRIDES(r, 0, 3, 1);
  ct_release(r);
  ct_release(e);

  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_squeeze_dim(s, -1);
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  r = ct_squeeze_dims(s, CT_DIMS(0));
  CHECK_EQ_INT(ct_dim(r), 0);
  ct_release(r);
  CHECK(ct_squeeze_dim(s, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  r = ct_unsqueeze(s, -1);
  CHECK_GEOM(r, 0, L(1), L(1));
  ct_release(r);
  CHECK(ct_unsqueeze(s, -2) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  ct_release(s);
  ct_tensor *z = ct_empty(CT_SHAPE(1, 1, 0), NULL);
  r = ct_squeeze(z);
  CHECK_GEOM(r, 0, L(0), L(1));
  ct_release(r);
  ct_release(z);
}

static void test_flatten(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(2, 3, 4));
  ct_tensor *r = ct_flatten(x, 0, -1);
  CHECK_GEOM(r, 0, L(24), L(1));
  CHECK(ct_data_ptr(r) == ct_data_ptr(x));
  ct_release(r);
  r = ct_flatten(x, 0, 1);
  CHECK_GEOM(r, 0, L(6, 4), L(4, 1));
  ct_release(r);
  r = ct_flatten(x, 1, 1); /* PyTorch returns the input itself */
  CHECK(r == x);
  ct_release(r);
  CHECK(ct_flatten(x, 2, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
  CHECK(ct_flatten(x, 0, 3) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  /* Not viewable: flattening copies. */
  ct_tensor *xt = ct_transpose(x, 0, 2);
  r = ct_flatten(xt, 1, -1);
  CHECK_GEOM(r, 0, L(4, 6), L(6, 1));
  CHECK_VALUES(r, 0, 12, 4, 16, 8, 20, 1, 13, 5, 17, 9, 21, 2, 14, 6, 18, 10, 22, 3, 15, 7, 19, 11, 23);
  ct_release(r);
  ct_release(xt);
  ct_tensor *part = ct_slice(x, 1, 1, CT_END, 1);
  r = ct_flatten(part, 1, -1);
  CHECK_GEOM(r, 4, L(2, 8), L(12, 1));
  ct_release(r);
  ct_release(part);
  /* dims whose product passes 2^63 - 1 beside a 0 (no elements; torch 1.13 allows such a tensor):
     t.set_(x.storage(), 2, (5787354564543905791, 3, 1, 0, 0), (3, 1, 1, 1, 1)); t.flatten(0, 2) refuses
     the wrapped product as reshape does, t.flatten() is [0], t.flatten(1, 4) keeps the large dim (it
     returned a view of size -1084680380077834243: fuzz input F7) */
  ct_storage *xs = ct_untyped_storage(x);
  ct_tensor *big = ct_empty(CT_SHAPE(0), NULL);
  CHECK(ct_set_storage_(big, xs, 2, CT_SHAPE(5787354564543905791, 3, 1, 0, 0), CT_SHAPE(3, 1, 1, 1, 1)) ==
        CT_OK);
  CHECK(ct_flatten(big, 0, 2) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid shape dimension -1084680380077834243");
  r = ct_flatten(big, 0, -1);
  CHECK(r && ct_dim(r) == 1 && ct_sizes(r)[0] == 0);
  ct_release(r);
  r = ct_flatten(big, 1, 4);
  CHECK(r && ct_dim(r) == 2 && ct_sizes(r)[0] == 5787354564543905791 && ct_sizes(r)[1] == 0);
  ct_release(r);
  ct_release(big);
  ct_storage_release(xs);
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_flatten(s, -1, 0);
  CHECK_GEOM(r, 0, L(1), L(1));
  ct_release(r);
  CHECK(ct_flatten(s, 0, 2) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
  ct_release(s);
  /* The folded sizes multiply as they are: [0, 1, 3, 0] over dims 1..2 gives [0, 3, 0]. */
  ct_tensor *z = ct_empty(CT_SHAPE(0, 1, 3, 0), NULL);
  r = ct_flatten(z, 1, 2);
  CHECK_SHAPE(r, 0, 3, 0);
  ct_release(r);
  ct_release(z);
}

static void test_unflatten(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *r = ct_unflatten(x, 1, CT_SHAPE(3, 1));
  CHECK_GEOM(r, 0, L(2, 3, 1, 4), L(12, 4, 4, 1));
  ct_release(r);
  r = ct_unflatten(x, -1, CT_SHAPE(2, -1));
  CHECK_GEOM(r, 0, L(2, 3, 2, 2), L(12, 4, 2, 1));
  ct_release(r);
  CHECK(ct_unflatten(x, 1, CT_SHAPE(2, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor");
  CHECK(ct_unflatten(x, 1, CT_SHAPE(-1, -1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "unflatten got an unexpected error:\nonly one dimension can be inferred");
  CHECK(ct_unflatten(x, 1, CT_SHAPE(3, -2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid shape dimension -2");
  CHECK(ct_unflatten(x, 7, CT_SHAPE_SCALAR) == NULL); /* sizes are checked before the dim */
  CHECK_ERROR(CT_ERR_RUNTIME, "unflatten: sizes must be non-empty");
  CHECK(ct_unflatten(x, 3, CT_SHAPE(1)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ct_tensor *xt = ct_transpose(x, 0, 2);
  r = ct_unflatten(xt, 0, CT_SHAPE(2, 2));
  CHECK_GEOM(r, 0, L(2, 2, 3, 2), L(2, 1, 4, 12));
  ct_release(r);
  ct_release(xt);
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_unflatten(s, 0, CT_SHAPE(1)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
  ct_release(s);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  r = ct_unflatten(e, 0, CT_SHAPE(-1, 5));
  CHECK_GEOM(r, 0, L(0, 5, 3), L(15, 3, 1));
  ct_release(r);
  CHECK(ct_unflatten(e, 0, CT_SHAPE(-1, 0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 "
              "can be any value and is ambiguous");
  ct_release(e);
}

static void test_meta(void) {
  ct_tensor *m = empty_meta(CT_SHAPE(2, 3, 4));
  ct_tensor *a = ct_permute(m, CT_DIMS(2, 0, 1));
  ct_tensor *b = ct_flatten(a, 0, 1); /* needs a copy: still meta, no data */
  CHECK_GEOM(b, 0, L(8, 3), L(3, 1));
  CHECK(ct_is_meta(b) && ct_data_ptr(b) == NULL);
  ct_tensor *c = ct_movedim(m, CT_DIMS(0), CT_DIMS(-1));
  CHECK_GEOM(c, 0, L(3, 4, 2), L(4, 1, 12));
  ct_release(c);
  ct_release(b);
  ct_release(a);
  ct_release(m);
}

/* Sizes whose product passes 2^63 - 1 in 64 unsigned bits beside a 0, on z = zeros(0) (torch 1.13): view and
   unflatten refuse them as c10's numel does; reshape computes in SymInt arithmetic, whose own range a wrapped
   product below -2^62 reaches first. The views torch allows keep their huge offsets: sum of a piece of
   tensor_split reads no element (its byte offset wrapped in int64: UBSan, fuzz input F11). */
static void test_huge_empty_dims(void) {
  const int64_t big = 6908528427954061507, half = big / 2;
  ct_tensor *z = ct_zeros(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_COMPLEX128});
  CHECK(ct_view(z, CT_SHAPE(9, big, 0, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(ct_view(z, CT_SHAPE(9, big, -1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(ct_unflatten(z, 0, CT_SHAPE(9, big, 0, 2)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(ct_reshape(z, CT_SHAPE(big, big, 0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  static const char symbolic[] =
      "Expected !is_symbolic() to be true, but got false.  (Could this error message be "
      "improved?  If so, please report an enhancement request to PyTorch.)";
  CHECK(ct_reshape(z, CT_SHAPE(9, big, 0, 2)) == NULL); /* stride 2 * big wraps below -2^62 */
  CHECK_ERROR(CT_ERR_RUNTIME, symbolic);
  ct_tensor *v = ct_view(z, CT_SHAPE(3, half, 0)); /* allowed: strides (half, 1, 1) */
  CHECK_GEOM(v, 0, L(3, half, 0), L(half, 1, 1));
  CHECK(ct_reshape(v, CT_SHAPE(half, 3, 0)) == NULL); /* the old shape's product 3 * half wraps below -2^62 */
  CHECK_ERROR(CT_ERR_RUNTIME, symbolic);
  CHECK(ct_flatten(v, 0, 1) == NULL); /* the folded 3 * half, wrapped, made a SymInt by torch's reshape */
  CHECK_ERROR(CT_ERR_RUNTIME, symbolic);
  CHECK(ct_unsqueeze(v, 0) == NULL); /* as_strided's strides as SymInts: the new stride 3 * half, wrapped */
  CHECK_ERROR(CT_ERR_RUNTIME,
              "IntArrayRef contains an int that cannot be represented as a SymInt: -8083951431778459357");
  ct_tensor *r = ct_view(v, CT_SHAPE(half, 3, 0)); /* view's int64 arithmetic has no such check */
  CHECK_GEOM(r, 0, L(half, 3, 0), L(3, 1, 1));
  ct_release(r);
  ct_tensor_list *l = ct_tensor_split(v, 3, 1);
  CHECK(l && l->n == 3);
  if (l && l->n == 3) {
    CHECK_GEOM(l->items[2], 2302842809318020502, L(3, 1151421404659010251, 0), L(half, 1, 1));
    r = ct_sum(l->items[2], NULL);
    ct_complex128 c = {1, 1};
    CHECK(r && ct_dim(r) == 0 && ct_item_complex(r, &c) == CT_OK && c.re == 0.0 && c.im == 0.0);
    ct_release(r);
  }
  ct_tensor_list_release(l);
  ct_release(v);
  ct_release(z);
}

int main(void) {
  test_huge_empty_dims();
  test_transpose_family();
  test_permute();
  test_movedim();
  test_squeeze_unsqueeze();
  test_flatten();
  test_unflatten();
  test_meta();
  return TEST_SUMMARY();
}
