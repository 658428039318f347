/* set_ (from a tensor or a storage), resize_, resize_as_, detach and alias. Expected geometry,
   storage sizes and messages were produced by PyTorch 1.13. */
#include "view_test_util.h"

static size_t storage_nbytes_of(const ct_tensor *t) {
  ct_storage *s = ct_untyped_storage(t);
  size_t n = ct_storage_nbytes(s);
  ct_storage_release(s);
  return n;
}

/* A CPU storage of n float32 elements (from a tensor that is then dropped). */
static ct_storage *float_storage(int64_t n, bool meta) {
  ct_tensor *t = meta ? empty_meta(CT_SHAPE(n)) : ct_empty(CT_SHAPE(n), NULL);
  ct_storage *s = ct_untyped_storage(t);
  ct_release(t);
  return s;
}

static void test_set_from_tensor(void) {
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  ct_tensor *b = arange_f32(CT_SHAPE(4, 5));
  ct_tensor *rows = ct_slice(b, 0, 1, CT_END, 1);
  ct_tensor *src = ct_slice(rows, 1, 0, CT_END, 2); /* b[1:, ::2] */
  CHECK_EQ_INT(ct_set_(a, src), CT_OK);
  CHECK_GEOM(a, 5, L(3, 3), L(5, 2));
  CHECK(ct_data_ptr(a) == ct_data_ptr(src));
  bool same = false;
  CHECK(ct_is_set_to(a, src, &same) == CT_OK && same);
  CHECK_VALUES(a, 5, 7, 9, 10, 12, 14, 15, 17, 19);
  CHECK_EQ_INT(ct_set_(a, a), CT_OK); /* itself: nothing changes */
  CHECK_GEOM(a, 5, L(3, 3), L(5, 2));
  ct_release(src);
  ct_release(rows);

  ct_tensor *d = ct_empty(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_set_(a, d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "source.dtype() == self.dtype() INTERNAL ASSERT FAILED at "
              "\"./torch/csrc/autograd/generated/python_variable_methods.cpp\":16761, please report a bug to "
              "PyTorch. ");
  ct_release(d);
  ct_tensor *m = empty_meta(CT_SHAPE(2));
  CHECK_EQ_INT(ct_set_(a, m), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempted to set the storage of a tensor on device \"cpu\" to a storage on different device \"meta\".  "
              "This is no longer allowed; the devices must match.");
  CHECK_GEOM(a, 5, L(3, 3), L(5, 2)); /* unchanged by the failures */
  ct_release(m);

  /* Autograd: a leaf that requires grad refuses; a source that requires grad passes it on. */
  ct_tensor *g = ct_empty(CT_SHAPE(3), NULL);
  ct_requires_grad_(g, true);
  CHECK_EQ_INT(ct_set_(g, b), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
  ct_tensor *c = ct_empty(CT_SHAPE(3), NULL);
  CHECK_EQ_INT(ct_set_(c, g), CT_OK);
  CHECK(ct_requires_grad(c));
  ct_release(c);
  ct_release(g);
  CHECK(ct_set_(NULL, b) != CT_OK);
  CHECK(ct_set_(a, NULL) != CT_OK);
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 'self' is NULL");
  ct_release(b);
  ct_release(a);
}

static void test_set_from_storage(void) {
  ct_storage *st = float_storage(10, false);
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  CHECK_EQ_INT(ct_set_storage_(a, st, 2, CT_SHAPE(2, 2), CT_SHAPE(3, 1)), CT_OK);
  CHECK_GEOM(a, 2, L(2, 2), L(3, 1));
  CHECK_EQ_INT(ct_storage_nbytes(st), 40);
  CHECK((char *)ct_data_ptr(a) == (char *)ct_storage_data_ptr(st) + 8);
  CHECK_EQ_INT(ct_set_storage_(a, st, 2, CT_SHAPE(3, 3), CT_SHAPE(3, 1)), CT_OK); /* grows the storage */
  CHECK_EQ_INT(ct_storage_nbytes(st), 44);
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(4, 3), (ct_shape){NULL, 0}), CT_OK); /* no stride: contiguous */
  CHECK_GEOM(a, 0, L(4, 3), L(3, 1));
  CHECK_EQ_INT(ct_storage_nbytes(st), 48);
  CHECK_EQ_INT(ct_set_storage_(a, st, 100, CT_SHAPE(0), CT_SHAPE(1)), CT_OK); /* empty: no resize */
  CHECK_GEOM(a, 100, L(0), L(1));
  CHECK_EQ_INT(ct_storage_nbytes(st), 48);
  CHECK_EQ_INT(ct_set_storage_(a, st, 20, CT_SHAPE_SCALAR, CT_SHAPE_SCALAR), CT_OK);
  CHECK_EQ_INT(ct_dim(a), 0);
  CHECK_EQ_INT(ct_storage_nbytes(st), 84);
  /* PyTorch 1.13 accepts a negative size next to a zero; ctorch refuses it (issue 13, item 14) */
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(0, -2), CT_SHAPE(1, 2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -2: [0, -2]");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(0, 2), CT_SHAPE(1, 2)), CT_OK);
  CHECK_SHAPE(a, 0, 2);

  CHECK_EQ_INT(ct_set_storage_(a, st, -1, CT_SHAPE(2), CT_SHAPE(1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Tensor: invalid storage offset -1");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(2), CT_SHAPE(1, 2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "unequal size length (1) and stride length (2)");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(2, 2), CT_SHAPE(1, -2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[2, 2] and strides=[1, -2]");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(2, -2), CT_SHAPE(1, 2)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(2, -2), (ct_shape){NULL, 0}), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK_SHAPE(a, 0, 2); /* unchanged by the failures */

  ct_storage *ms = float_storage(2, true);
  CHECK_EQ_INT(ct_set_storage_(a, ms, 0, CT_SHAPE(1), CT_SHAPE(1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempted to set the storage of a tensor on device \"cpu\" to a storage on different device \"meta\".  "
              "This is no longer allowed; the devices must match.");
  ct_storage_release(ms);

  /* A storage that may not grow refuses only when it would have to. */
  st->flags &= (uint16_t)~CT_STORAGE_RESIZABLE;
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(100), CT_SHAPE(1)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(21), CT_SHAPE(1)), CT_OK);
  CHECK_EQ_INT(ct_storage_nbytes(st), 84);
  ct_release(a);
  ct_storage_release(st);
}

static void test_set_meta(void) {
  /* On meta, set_ makes the storage exactly as large as the geometry spans (it may shrink). */
  ct_storage *st = float_storage(10, true);
  ct_tensor *a = empty_meta(CT_SHAPE(2, 3));
  CHECK_EQ_INT(ct_set_storage_(a, st, 2, CT_SHAPE(5, 5), CT_SHAPE(3, 1)), CT_OK);
  CHECK_GEOM(a, 2, L(5, 5), L(3, 1));
  CHECK_EQ_INT(ct_storage_nbytes(st), 76);
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(1, 2), CT_SHAPE(5, 1)), CT_OK);
  CHECK_EQ_INT(ct_storage_nbytes(st), 8);
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(2, 3), (ct_shape){NULL, 0}), CT_OK);
  CHECK_STRIDES(a, 3, 1);
  CHECK_EQ_INT(ct_storage_nbytes(st), 24);
  CHECK_EQ_INT(ct_set_storage_(a, st, 0, CT_SHAPE(0, 3), CT_SHAPE(1, 1)), CT_OK); /* empty: size kept */
  CHECK_EQ_INT(ct_storage_nbytes(st), 24);
  CHECK(ct_data_ptr(a) == NULL);
  ct_release(a);
  ct_storage_release(st);
}

static void test_resize(void) {
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(4, 5), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_GEOM(a, 0, L(4, 5), L(5, 1));
  CHECK_EQ_INT(storage_nbytes_of(a), 80);
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2), CT_MEMORY_FORMAT_UNSET), CT_OK); /* shrinking keeps the storage */
  CHECK_GEOM(a, 0, L(2), L(1));
  CHECK_EQ_INT(storage_nbytes_of(a), 80);
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(0, -1), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME); /* torch 1.13 accepts it */
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [0, -1]");
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(0, 1), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_GEOM(a, 0, L(0, 1), L(1, 1));
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, -1), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  /* The resize's errors come before the memory format's. */
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, -1), CT_CHANNELS_LAST), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, 3, 4), CT_CHANNELS_LAST), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, 3), CT_PRESERVE_FORMAT), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Unsupported memory formatPreserve");
  CHECK_GEOM(a, 0, L(0, 1), L(1, 1)); /* unchanged by the failures */
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, 3, 4, 5), CT_CHANNELS_LAST), CT_OK);
  CHECK_STRIDES(a, 60, 1, 15, 3);
  CHECK_EQ_INT(storage_nbytes_of(a), 480);
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, 0, 4, 5), CT_CHANNELS_LAST), CT_OK);
  CHECK_STRIDES(a, 0, 1, 0, 0);
  CHECK_EQ_INT(ct_resize_(a, CT_SHAPE(2, 3, 4, 5, 6), CT_CHANNELS_LAST_3D), CT_OK);
  CHECK_STRIDES(a, 360, 1, 90, 18, 3);
  CHECK_EQ_INT(storage_nbytes_of(a), 2880);
  ct_release(a);

  /* Unchanged sizes keep their strides unless a memory format is asked for. */
  ct_tensor *b = ct_empty(CT_SHAPE(2, 3), NULL);
  ct_tensor *bt = ct_t(b);
  CHECK_EQ_INT(ct_resize_(bt, CT_SHAPE(3, 2), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_STRIDES(bt, 1, 3);
  CHECK_EQ_INT(ct_resize_(bt, CT_SHAPE(3, 2), CT_CONTIGUOUS_FORMAT), CT_OK);
  CHECK_STRIDES(bt, 2, 1);
  ct_release(bt);
  /* A view's offset counts: b[1] resized to 5 needs 3 + 5 elements. */
  ct_tensor *row = ct_select(b, 0, 1);
  CHECK_EQ_INT(ct_resize_(row, CT_SHAPE(5), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_GEOM(row, 3, L(5), L(1));
  CHECK_EQ_INT(storage_nbytes_of(b), 32);
  ct_release(row);
  ct_release(b);

  ct_tensor *g = ct_empty(CT_SHAPE(3), NULL);
  ct_requires_grad_(g, true);
  CHECK_EQ_INT(ct_resize_(g, CT_SHAPE(5), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "cannot resize variables that require grad");
  CHECK_EQ_INT(ct_resize_as_(g, g), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "cannot resize variables that require grad");
  ct_release(g);

  ct_tensor *m = empty_meta(CT_SHAPE(10));
  CHECK_EQ_INT(ct_resize_(m, CT_SHAPE(40, 50), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_EQ_INT(storage_nbytes_of(m), 8000);
  CHECK(ct_data_ptr(m) == NULL);
  ct_release(m);

  /* A storage that may not grow. */
  ct_tensor *f = ct_empty(CT_SHAPE(4), NULL);
  ct_storage *fs = ct_untyped_storage(f);
  fs->flags &= (uint16_t)~CT_STORAGE_RESIZABLE;
  CHECK_EQ_INT(ct_resize_(f, CT_SHAPE(5), CT_MEMORY_FORMAT_UNSET), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  CHECK_EQ_INT(ct_resize_(f, CT_SHAPE(2, 2), CT_MEMORY_FORMAT_UNSET), CT_OK);
  CHECK_STRIDES(f, 2, 1);
  ct_storage_release(fs);
  ct_release(f);
}

static void test_resize_as(void) {
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  ct_tensor *o = ct_empty(CT_SHAPE(4, 5), NULL);
  ct_tensor *ot = ct_t(o);
  CHECK_EQ_INT(ct_resize_as_(a, ot), CT_OK); /* sizes only: contiguous */
  CHECK_GEOM(a, 0, L(5, 4), L(4, 1));
  CHECK_EQ_INT(storage_nbytes_of(a), 80);
  ct_tensor *m = empty_meta(CT_SHAPE_SCALAR);
  CHECK_EQ_INT(ct_resize_as_(a, m), CT_OK); /* any device, any dtype */
  CHECK_EQ_INT(ct_dim(a), 0);
  CHECK(ct_resize_as_(a, NULL) != CT_OK);
  ct_release(m);
  ct_release(ot);
  ct_release(o);
  ct_release(a);
}

/* An allocation failing anywhere in resize_ or set_ leaves the tensor exactly as it was. */
static void test_failures_leave_tensor(void) {
  for (int64_t n = 0; n < 6; n++) {
    ct_tensor *a = arange_f32(CT_SHAPE(2, 3));
    void *data = ct_data_ptr(a);
    ct_debug_fail_allocation_at(n);
    ct_status st = ct_resize_(a, CT_SHAPE(2, 3, 4, 5, 6), CT_CHANNELS_LAST_3D);
    ct_debug_fail_allocation_at(-1);
    if (st != CT_OK) {
      CHECK_EQ_INT(st, CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
      CHECK_GEOM(a, 0, L(2, 3), L(3, 1));
      CHECK(ct_data_ptr(a) == data);
      CHECK_EQ_INT(storage_nbytes_of(a), 24);
      CHECK_VALUES(a, 0, 1, 2, 3, 4, 5);
    } else {
      CHECK_STRIDES(a, 360, 1, 90, 18, 3);
      CHECK(((float *)ct_data_ptr(a))[5] == 5.0f); /* the old bytes were kept */
    }
    ct_release(a);

    ct_tensor *b = ct_empty(CT_SHAPE(2), NULL);
    ct_tensor *src = ct_empty(CT_SHAPE(1, 2, 1, 3), NULL);
    ct_debug_fail_allocation_at(n);
    st = ct_set_(b, src);
    ct_debug_fail_allocation_at(-1);
    if (st != CT_OK) {
      ct_clear_error();
      CHECK_GEOM(b, 0, L(2), L(1));
      CHECK(ct_data_ptr(b) != ct_data_ptr(src));
    } else {
      bool same = false;
      CHECK(ct_is_set_to(b, src, &same) == CT_OK && same);
    }
    ct_release(src);
    ct_release(b);
  }
}

static void test_detach_alias(void) {
  ct_tensor *x = ct_empty(CT_SHAPE(3), NULL);
  ct_requires_grad_(x, true);
  ct_tensor *tail = ct_slice(x, 0, 1, CT_END, 1);
  ct_tensor *al = ct_alias(tail);
  CHECK_GEOM(al, 1, L(2), L(1));
  CHECK(ct_requires_grad(al));
  bool same = false;
  CHECK(ct_is_set_to(al, tail, &same) == CT_OK && same);
  ct_tensor *d = ct_detach(x);
  CHECK(!ct_requires_grad(d));
  CHECK(ct_data_ptr(d) == ct_data_ptr(x));
  CHECK(d != x);
  CHECK(ct_alias(NULL) == NULL && ct_detach(NULL) == NULL);
  ct_release(d);
  ct_release(al);
  ct_release(tail);
  ct_release(x);
}

int main(void) {
  test_set_from_tensor();
  test_set_from_storage();
  test_set_meta();
  test_resize();
  test_resize_as();
  test_failures_leave_tensor();
  test_detach_alias();
  return TEST_SUMMARY();
}
