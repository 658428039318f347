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

/* Tensor.is_set_to, each answer torch 1.13's: a status call with the answer through out, which a failing call
   leaves as it was. */
static bool set_to(const ct_tensor *a, const ct_tensor *b) {
  bool r = false;
  CHECK_EQ_INT(ct_is_set_to(a, b, &r), CT_OK);
  return r;
}
static void test_is_set_to(void) {
  ct_tensor *a = ct_empty(CT_SHAPE(2, 3), NULL);
  /* a.is_set_to(a), a.view(2, 3), a.as_strided((2, 3), (3, 1), 0): True; a[1:] and
     a.as_strided((1, 3), (3, 1), 3): True */
  CHECK(set_to(a, a));
  CHECK(set_to(a, ct_view(a, CT_SHAPE(2, 3))));
  CHECK(set_to(a, ct_as_strided(a, CT_SHAPE(2, 3), CT_SHAPE(3, 1), &(int64_t){0})));
  CHECK(
      set_to(ct_slice(a, 0, 1, CT_END, 1), ct_as_strided(a, CT_SHAPE(1, 3), CT_SHAPE(3, 1), &(int64_t){3})));
  /* other strides (a.t()), offset (a[1:]), sizes (a.view(6)) or storage (torch.empty(2, 3)): False */
  CHECK(!set_to(a, ct_t(a)));
  CHECK(!set_to(a, ct_slice(a, 0, 1, CT_END, 1)));
  CHECK(!set_to(a, ct_view(a, CT_SHAPE(6))));
  CHECK(!set_to(a, ct_empty(CT_SHAPE(2, 3), NULL)));
  /* empty tensors: e.is_set_to(e) True, e.is_set_to(torch.empty(0)) False */
  ct_tensor *e = ct_empty(CT_SHAPE(0), NULL);
  CHECK(set_to(e, e) && !set_to(e, ct_empty(CT_SHAPE(0), NULL)));
  /* z.is_set_to(z.conj()) and z.conj().is_set_to(z.conj()) False (torch's fallback resolves the bit into a
     copy), z.is_set_to(z.conj().conj()) True */
  ct_tensor *z = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *zc = ct_conj(z);
  CHECK(!set_to(z, zc) && !set_to(zc, zc) && set_to(z, ct_conj(zc)));

  /* meta, alone or with a CPU tensor: NotImplementedError, torch's dispatcher message; out unchanged */
  ct_tensor *m = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.device = CT_DEVICE_META});
  const char *no_meta = "Could not run 'aten::is_set_to' with arguments from the 'Meta' backend.";
  const ct_tensor *pairs[3][2] = {{m, m}, {ct_empty(CT_SHAPE(2), NULL), m}, {m, ct_empty(CT_SHAPE(2), NULL)}};
  for (int i = 0; i < 3; i++) {
    bool r = true;
    CHECK_EQ_INT(ct_is_set_to(pairs[i][0], pairs[i][1], &r), CT_ERR_NOT_IMPLEMENTED);
    CHECK(strncmp(ct_last_error_message(), no_meta, strlen(no_meta)) == 0);
    CHECK(r);
    ct_clear_error();
  }
  /* NULL arguments: a ValueError naming the tensor, or ct_equal's for the result pointer */
  bool r = true;
  CHECK_EQ_INT(ct_is_set_to(NULL, a, &r), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'a' is NULL");
  CHECK_EQ_INT(ct_is_set_to(a, NULL, &r), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'b' is NULL");
  CHECK(r);
  CHECK_EQ_INT(ct_is_set_to(a, a, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_is_set_to: out is NULL");
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
  ct_scope_begin(); /* the tensors test_is_set_to makes */
  test_is_set_to();
  ct_scope_end();
  return TEST_SUMMARY();
}
