/* Views of part of a tensor: slice, narrow, select, unfold, diagonal. Expected values were produced
   by PyTorch 1.13 (slice through torch.ops.aten.slice, which is what t[a:b:c] calls). */
#include "view_test_util.h"

static void test_slice(void) {
  ct_tensor *v = arange_f32(CT_SHAPE(10));
  ct_tensor *r = ct_slice(v, 0, 3, 7, 2); /* v[3:7:2] */
  CHECK_GEOM(r, 3, L(2), L(2));
  CHECK_VALUES(r, 3, 5);
  ct_release(r);
  r = ct_slice(v, 0, -3, CT_END, 1); /* v[-3:] */
  CHECK_GEOM(r, 7, L(3), L(1));
  ct_release(r);
  r = ct_slice(v, 0, -30, 4, 1); /* clamped start */
  CHECK_GEOM(r, 0, L(4), L(1));
  ct_release(r);
  r = ct_slice(v, 0, 5, 2, 1); /* end before start: empty at start */
  CHECK_GEOM(r, 5, L(0), L(1));
  ct_release(r);
  r = ct_slice(v, 0, 20, CT_END, 1);
  CHECK_GEOM(r, 10, L(0), L(1));
  ct_release(r);
  r = ct_slice(v, 0, 2, -1, 3);
  CHECK_GEOM(r, 2, L(3), L(3));
  CHECK_VALUES(r, 2, 5, 8);
  ct_release(r);
  r = ct_slice(v, 0, 8, 100, 5);
  CHECK_GEOM(r, 8, L(1), L(5));
  ct_release(r);
  r = ct_slice(v, 0, -100, -50, 1);
  CHECK_GEOM(r, 0, L(0), L(1));
  ct_release(r);
  r = ct_slice(v, 0, CT_END, CT_END, 1); /* a start past the end clamps to the size */
  CHECK_GEOM(r, 10, L(0), L(1));
  ct_release(r);
  CHECK(ct_slice(v, 0, 3, 7, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "slice step must be positive");
  CHECK(ct_slice(v, 0, 3, 7, -1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "slice step must be positive");
  CHECK(ct_slice(v, 1, 3, 7, 0) == NULL); /* the dim is checked before the step */
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(v);

  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  r = ct_slice(x, -1, -2, CT_END, 1);
  CHECK_GEOM(r, 2, L(2, 3, 2), L(12, 4, 1));
  ct_release(r);
  r = ct_slice(x, 2, 1, 3, 2);
  CHECK_GEOM(r, 1, L(2, 3, 1), L(12, 4, 2));
  ct_release(r);
  ct_release(x);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  r = ct_slice(e, 0, 1, 3, 2);
  CHECK_GEOM(r, 0, L(0, 3), L(6, 1));
  ct_release(r);
  ct_release(e);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_slice(s, 0, 0, 1, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
  ct_release(s);
}

static void test_narrow(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *r = ct_narrow(x, 1, 1, 2);
  CHECK_GEOM(r, 4, L(2, 2, 4), L(12, 4, 1));
  ct_release(r);
  r = ct_narrow(x, 1, -1, 1);
  CHECK_GEOM(r, 8, L(2, 1, 4), L(12, 4, 1));
  ct_release(r);
  r = ct_narrow(x, 1, 3, 0); /* start == size is allowed */
  CHECK_GEOM(r, 12, L(2, 0, 4), L(12, 4, 1));
  ct_release(r);
  r = ct_narrow(x, -1, 1, 3);
  CHECK_GEOM(r, 1, L(2, 3, 3), L(12, 4, 1));
  ct_release(r);
  CHECK(ct_narrow(x, 1, -4, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  CHECK(ct_narrow(x, 1, 4, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 4)");
  CHECK(ct_narrow(x, 1, 2, 2) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "start (2) + length (2) exceeds dimension size (3).");
  CHECK(ct_narrow(x, 1, 0, -1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "start (0) + length (-1) exceeds dimension size (3).");
  CHECK(ct_narrow(x, 3, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_narrow(s, 0, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
  ct_release(s);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  r = ct_narrow(e, 0, -1, 0);
  CHECK_GEOM(r, 0, L(0, 3), L(3, 1));
  ct_release(r);
  CHECK(ct_narrow(e, 0, 1, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(e);
}

static void test_select(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(2, 3, 4));
  ct_tensor *r = ct_select(x, 1, 2);
  CHECK_GEOM(r, 8, L(2, 4), L(12, 1));
  CHECK_VALUES(r, 8, 9, 10, 11, 20, 21, 22, 23);
  ct_release(r);
  r = ct_select(x, 1, -1);
  CHECK_GEOM(r, 8, L(2, 4), L(12, 1));
  ct_release(r);
  r = ct_select(x, -1, 1);
  CHECK_GEOM(r, 1, L(2, 3), L(12, 4));
  ct_release(r);
  CHECK(ct_select(x, 1, 3) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "select(): index 3 out of range for tensor of size [2, 3, 4] at dimension 1");
  CHECK(ct_select(x, -2, -4) == NULL); /* the message names the wrapped dim */
  CHECK_ERROR(CT_ERR_INDEX, "select(): index -4 out of range for tensor of size [2, 3, 4] at dimension 1");
  CHECK(ct_select(x, 3, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ct_tensor *row = ct_select(x, 0, 1);
  ct_tensor *vec = ct_select(row, 0, 2);
  ct_tensor *el = ct_select(vec, 0, 1); /* x[1][2][1]: 0-dim */
  CHECK_EQ_INT(ct_dim(el), 0);
  CHECK_EQ_INT(ct_storage_offset(el), 21);
  CHECK(*(float *)ct_data_ptr(el) == 21.0f);
  ct_release(el);
  ct_release(vec);
  ct_release(row);
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_select(s, 0, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
  ct_release(s);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  CHECK(ct_select(e, 0, 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "select(): index 0 out of range for tensor of size [0, 3] at dimension 0");
  r = ct_select(e, 1, 2);
  CHECK_GEOM(r, 2, L(0), L(3));
  ct_release(r);
  ct_release(e);
}

static void test_unfold(void) {
  ct_tensor *v = arange_f32(CT_SHAPE(10));
  ct_tensor *r = ct_unfold(v, 0, 3, 2);
  CHECK_GEOM(r, 0, L(4, 3), L(2, 1));
  CHECK_VALUES(r, 0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8);
  ct_release(r);
  r = ct_unfold(v, 0, 10, 1);
  CHECK_GEOM(r, 0, L(1, 10), L(1, 1));
  ct_release(r);
  r = ct_unfold(v, 0, 0, 1);
  CHECK_GEOM(r, 0, L(11, 0), L(1, 1));
  ct_release(r);
  CHECK(ct_unfold(v, 0, 11, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "maximum size for tensor at dimension 0 is 10 but size is 11");
  CHECK(ct_unfold(v, 0, 3, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "step is 0 but must be > 0");
  CHECK(ct_unfold(v, 0, -1, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[12, -1] and strides=[1, 1]");
  ct_release(v);
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  r = ct_unfold(x, 1, 2, 1);
  CHECK_GEOM(r, 0, L(2, 2, 4, 2), L(12, 4, 1, 4));
  ct_release(r);
  r = ct_unfold(x, 1, 3, 5);
  CHECK_GEOM(r, 0, L(2, 1, 4, 3), L(12, 20, 1, 4));
  ct_release(r);
  ct_tensor *xt = ct_transpose(x, 0, 2);
  r = ct_unfold(xt, 0, 3, 1);
  CHECK_GEOM(r, 0, L(2, 3, 2, 3), L(1, 4, 12, 1));
  ct_release(r);
  ct_release(xt);
  ct_release(x);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  r = ct_unfold(s, -1, 1, 5);
  CHECK_GEOM(r, 0, L(1), L(1));
  ct_release(r);
  CHECK(ct_unfold(s, 0, 2, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "maximum size for tensor at dimension 0 is 1 but size is 2");
  ct_release(s);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  r = ct_unfold(e, 0, 0, 1);
  CHECK_GEOM(r, 0, L(1, 3, 0), L(3, 1, 3));
  ct_release(r);
  ct_release(e);
}

static void test_diagonal(void) {
  ct_tensor *m = arange_f32(CT_SHAPE(3, 4));
  ct_tensor *r = ct_diagonal(m, 0, 0, 1);
  CHECK_GEOM(r, 0, L(3), L(5));
  CHECK_VALUES(r, 0, 5, 10);
  ct_release(r);
  r = ct_diagonal(m, 1, 0, 1);
  CHECK_GEOM(r, 1, L(3), L(5));
  CHECK_VALUES(r, 1, 6, 11);
  ct_release(r);
  r = ct_diagonal(m, -1, 0, 1);
  CHECK_GEOM(r, 4, L(2), L(5));
  CHECK_VALUES(r, 4, 9);
  ct_release(r);
  r = ct_diagonal(m, 4, 0, 1); /* off the end: empty, offset untouched */
  CHECK_GEOM(r, 0, L(0), L(5));
  ct_release(r);
  r = ct_diagonal(m, 1, 1, 0);
  CHECK_GEOM(r, 4, L(2), L(5));
  ct_release(r);
  CHECK(ct_diagonal(m, 0, -2, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "diagonal dimensions cannot be identical -2, 0");
  CHECK(ct_diagonal(m, 0, 0, 2) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  ct_release(m);
  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  r = ct_diagonal(x, 0, 0, 1);
  CHECK_GEOM(r, 0, L(4, 2), L(1, 16));
  ct_release(r);
  r = ct_diagonal(x, 1, -1, 0);
  CHECK_GEOM(r, 12, L(3, 1), L(4, 13));
  ct_release(r);
  r = ct_diagonal(x, -1, 2, 1);
  CHECK_GEOM(r, 1, L(2, 3), L(12, 5));
  ct_release(r);
  ct_release(x);
  ct_tensor *v = ct_empty(CT_SHAPE(10), NULL);
  CHECK(ct_diagonal(v, 0, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(v);
  ct_tensor *e = ct_empty(CT_SHAPE(3, 0), NULL);
  r = ct_diagonal(e, -1, 0, 1);
  CHECK_GEOM(r, 0, L(0), L(2));
  ct_release(r);
  ct_release(e);
}

static void test_meta_and_null(void) {
  ct_tensor *m = empty_meta(CT_SHAPE(3, 4));
  ct_tensor *d = ct_diagonal(m, 1, 0, 1);
  CHECK_GEOM(d, 1, L(3), L(5));
  CHECK(ct_is_meta(d));
  ct_tensor *u = ct_unfold(m, 1, 2, 2);
  CHECK_GEOM(u, 0, L(3, 2, 2), L(4, 2, 1));
  CHECK(ct_unfold(m, 1, 5, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "maximum size for tensor at dimension 1 is 4 but size is 5");
  ct_release(u);
  ct_release(d);
  ct_release(m);
  CHECK(ct_slice(NULL, 0, 0, 1, 1) == NULL);
  CHECK(ct_narrow(NULL, 0, 0, 1) == NULL);
  CHECK(ct_select(NULL, 0, 0) == NULL);
  CHECK(ct_unfold(NULL, 0, 1, 1) == NULL);
  CHECK(ct_diagonal(NULL, 0, 0, 1) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
}

int main(void) {
  test_slice();
  test_narrow();
  test_select();
  test_unfold();
  test_diagonal();
  test_meta_and_null();
  return TEST_SUMMARY();
}
