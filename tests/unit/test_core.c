/* The core: dtype traits, errors, ownership and scopes, tensor queries. */
#include "check.h"
#include "core/internal.h"

static void test_dtype_traits(void) {
  CHECK_EQ_INT(ct_dtype_itemsize(CT_BOOL), 1);
  CHECK_EQ_INT(ct_dtype_itemsize(CT_BFLOAT16), 2);
  CHECK_EQ_INT(ct_dtype_itemsize(CT_COMPLEX128), 16);
  CHECK(ct_dtype_is_floating_point(CT_FLOAT16));
  CHECK(!ct_dtype_is_floating_point(CT_COMPLEX64));
  CHECK(ct_dtype_is_complex(CT_COMPLEX64));
  CHECK(!ct_dtype_is_signed(CT_UINT8));
  CHECK(!ct_dtype_is_signed(CT_BOOL));
  CHECK(ct_dtype_is_signed(CT_INT8));
  CHECK_STR(ct_dtype_name(CT_FLOAT32), "torch.float32");
  CHECK_STR(ct_dtype_legacy_type_name(CT_FLOAT32), "torch.FloatTensor");
  CHECK_STR(ct_dtype_legacy_type_name(CT_INT8), "torch.CharTensor");
  CHECK_STR(ct_dtype_legacy_type_name(CT_COMPLEX128), "torch.ComplexDoubleTensor");
  ct_dtype d = CT_DTYPE_UNSET;
  CHECK(ct_dtype_parse("torch.double", &d) == CT_OK && d == CT_FLOAT64);
  CHECK(ct_dtype_parse("bfloat16", &d) == CT_OK && d == CT_BFLOAT16);
}

static void test_default_dtype(void) {
  CHECK_EQ_INT(ct_get_default_dtype(), CT_FLOAT32);
  CHECK_EQ_INT(ct_set_default_dtype(CT_INT32), CT_ERR_TYPE);
  CHECK_ERROR(CT_ERR_TYPE, "only floating-point types are supported as the default type");
  CHECK_EQ_INT(ct_set_default_dtype(CT_FLOAT64), CT_OK);
  CHECK_EQ_INT(ct_get_default_dtype(), CT_FLOAT64);
  CHECK_EQ_INT(ct_set_default_dtype(CT_FLOAT32), CT_OK);
}

static void test_scopes(void) {
  ct_tensor *kept;
  ct_scope_begin();
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  CHECK_EQ_INT(ct_refcount(a), 1);
  kept = ct_keep(a);
  CHECK_EQ_INT(ct_refcount(a), 2);
  ct_scope_end();
  CHECK_EQ_INT(ct_refcount(kept), 1);
  ct_release(kept);
}

static void test_queries(void) {
  ct_tensor *t = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  CHECK_SHAPE(t, 2, 3, 4);
  CHECK_STRIDES(t, 12, 4, 1);
  CHECK_EQ_INT(ct_size(t, -1), 4);
  CHECK_EQ_INT(ct_size(t, 3), -1);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  CHECK_EQ_INT(ct_numel(t), 24);
  CHECK_EQ_INT(ct_nbytes(t), 96);
  CHECK(ct_is_contiguous(t, CT_CONTIGUOUS_FORMAT));
  ct_release(t);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK_EQ_INT(ct_size(s, 0), -1);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
  ct_release(s);
  CHECK(ct_empty(CT_SHAPE(2, -1), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [2, -1]");
}

static void ct_free_test_part(void *p) { ct__free(p); }

/* The header's extension pointer: NULL for plain tensors and views, freed (its release first) with the
   tensor whether the struct lives in its storage's block (a small ct_empty) or on its own (a view). */
static int ext_released;
static void count_release(ct_tensor_ext *ext) {
  ext_released++;
  ct_free_test_part(ext->parts);
}
static void test_tensor_ext(void) {
  CHECK(sizeof(ct_tensor) <= 64);
  ct_tensor *t = ct_empty(CT_SHAPE(2, 3), NULL);
  ct_tensor *v = ct_transpose(t, 0, 1);
  CHECK(t->ext == NULL && v->ext == NULL);
  ct_tensor *ts[2] = {t, v};
  for (int i = 0; i < 2; i++) {
    ct_tensor_ext *ext = ct__calloc(1, sizeof *ext);
    ext->parts = ct__malloc(16); /* owned by the ext: LSan sees a leak unless release frees it */
    ext->release = count_release;
    ts[i]->ext = ext;
  }
  ct_release(v);
  CHECK_EQ_INT(ext_released, 1);
  ct_release(t);
  CHECK_EQ_INT(ext_released, 2);
}

int main(void) {
  test_tensor_ext();
  test_dtype_traits();
  test_default_dtype();
  test_scopes();
  test_queries();
  return TEST_SUMMARY();
}
