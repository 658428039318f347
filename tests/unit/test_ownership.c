/* Ownership misuse is refused loudly instead of freeing twice or leaking: releasing what a scope owns
   (a tensor written through an out-pointer, a storage, a list), always for the last reference and, in
   debug mode, for every reference this thread's scopes hold. And the loop helper ct_scope_end_replace.
   Run under ASan in make check: a refused release that freed anyway would be a double free there. */
#include "check.h"

#define OWNED_MSG                                                                                            \
  "ct_release: the tensor is owned by a scope, which releases it at ct_scope_end (releasing it here too would " \
  "free it twice); hand it out of the scope with ct_keep to own a reference"

static void test_out_pointer_results(void) {
  ct_tensor *x = ct_arange(CT_INT(0), CT_INT(6), CT_INT(1), NULL);
  ct_scope_begin();
  ct_tensor *v = NULL, *i = NULL;
  CHECK_EQ_INT(ct_max_dim(ct_view(x, CT_SHAPE(2, 3)), 1, &v, &i, NULL), CT_OK);
  /* the scope owns them: a release is refused, the tensor stays usable */
  ct_release(v);
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  ct_release(i);
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  CHECK_EQ_INT(ct_refcount(v), 1);
  int64_t last;
  CHECK_EQ_INT(ct_item_int64(ct_select(i, 0, 1), &last), CT_OK);
  CHECK_EQ_INT(last, 2);
  /* a reference the caller took itself is the caller's to drop */
  ct_retain(v);
  CHECK_EQ_INT(ct_refcount(v), 2);
  ct_release(v);
  CHECK_EQ_INT(ct_last_error(), CT_OK);
  ct_release(v);
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  ct_scope_end(); /* frees v and i once (ASan: no double free) */
  /* outside a scope the caller owns them */
  ct_tensor *x23 = ct_view(x, CT_SHAPE(2, 3));
  CHECK_EQ_INT(ct_max_dim(x23, 1, &v, &i, NULL), CT_OK);
  ct_release(x23);
  ct_release(v);
  ct_release(i);
  CHECK_EQ_INT(ct_last_error(), CT_OK);
  ct_release(x);
}

/* ct_keep hands a reference out: no scope holds it once its scope ended, so it is released normally. */
static void test_keep(void) {
  ct_scope_begin();
  ct_tensor *k = ct_keep(ct_zeros(CT_SHAPE(2), NULL));
  ct_scope_end();
  CHECK_EQ_INT(ct_refcount(k), 1);
  ct_release(k);
  CHECK_EQ_INT(ct_last_error(), CT_OK);
  /* kept into an enclosing scope: that scope owns it now */
  ct_scope_begin();
  ct_scope_begin();
  k = ct_keep(ct_zeros(CT_SHAPE(2), NULL));
  ct_scope_end();
  ct_release(k);
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  ct_scope_end();
}

static void test_storage_and_list(void) {
  ct_tensor *x = ct_zeros(CT_SHAPE(4), NULL); /* the caller's */
  ct_scope_begin();
  ct_storage *s = ct_untyped_storage(x); /* the scope's */
  CHECK_EQ_INT(ct_storage_refcount(s), 2);
  ct_release(x); /* now the scope holds the storage's only reference */
  CHECK_EQ_INT(ct_storage_refcount(s), 1);
  ct_storage_release(s);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "ct_storage_release: the storage is owned by a scope, which releases it at ct_scope_end (releasing it "
              "here too would free it twice); hand it out of the scope with ct_keep to own a reference");
  CHECK_EQ_INT(ct_storage_refcount(s), 1);
  ct_tensor_list *l = ct_split(ct_zeros(CT_SHAPE(4), NULL), 2, 0);
  CHECK(l != NULL);
  ct_tensor_list_release(l);
  CHECK_ERROR(CT_ERR_RUNTIME, "ct_tensor_list_release: the list is owned by a scope, which releases it (and its "
                              "tensors) at ct_scope_end");
  ct_scope_end(); /* frees the storage and the list once */
}

/* In debug mode every reference the calling thread's scopes hold is protected, not only the last. */
static void test_debug_mode(void) {
  ct_tensor *x = ct_zeros(CT_SHAPE(3), NULL);
  ct_scope_begin();
  ct_tensor *c1 = ct_contiguous(x, CT_MEMORY_FORMAT_UNSET); /* x itself: the scope holds a reference */
  CHECK(c1 == x);
  ct_set_debug(true);
  ct_release(x); /* the caller's own reference is still the caller's */
  CHECK_EQ_INT(ct_last_error(), CT_OK);
  ct_release(x); /* now only the scope's is left */
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  ct_tensor *y = ct_zeros(CT_SHAPE(2), NULL);
  ct_tensor *y2 = ct_contiguous(y, CT_MEMORY_FORMAT_UNSET); /* the scope holds y twice */
  CHECK(y2 == y);
  ct_release(y); /* refused in debug mode: both references are the scope's */
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  CHECK_EQ_INT(ct_refcount(y), 2);
  ct_set_debug(false);
  ct_scope_end();
}

/* ema = 0.9 * ema + 0.1 * x, three times from zeros, x = [1, 2, 4] (float32). torch 1.13 gives
   [0.2709999978542328, 0.5419999957084656, 1.0839999914169312]. */
static void test_scope_end_replace(void) {
  ct_tensor *x = ct_tensor_from_data((const float[]){1, 2, 4}, CT_FLOAT32, CT_SHAPE(3), NULL);
  ct_tensor *ema = ct_zeros(CT_SHAPE(3), NULL);
  for (int it = 0; it < 3; it++) {
    ct_scope_begin();
    ct_tensor *next = ct_add(ct_mul(ema, ct_wrapped_scalar(CT_DOUBLE(0.9))), ct_mul(x, ct_wrapped_scalar(CT_DOUBLE(0.1))),
                             NULL);
    CHECK_EQ_INT(ct_scope_end_replace(&ema, next), CT_OK);
  }
  CHECK_EQ_INT(ct_refcount(ema), 1);
  float got[3];
  CHECK_EQ_INT(ct_copy_to_buffer(ema, got, CT_FLOAT32, sizeof got), CT_OK);
  CHECK(got[0] == 0.2709999978542328f && got[1] == 0.5419999957084656f && got[2] == 1.0839999914169312f);
  /* a failed iteration keeps the last good value and reports the failure */
  ct_tensor *before = ema;
  ct_scope_begin();
  CHECK_EQ_INT(ct_scope_end_replace(&ema, ct_add(ema, ct_zeros(CT_SHAPE(4), NULL), NULL)), CT_ERR_RUNTIME);
  CHECK(ema == before);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  ct_scope_begin();
  CHECK_EQ_INT(ct_scope_end_replace(NULL, x), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'carried' (position 1) is NULL");
  CHECK_EQ_INT(ct_refcount(x), 1);
  /* a first value owned by an enclosing scope is left to that scope, and said so */
  ct_scope_begin();
  ct_tensor *carried = ct_zeros(CT_SHAPE(1), NULL);
  ct_scope_begin();
  CHECK_EQ_INT(ct_scope_end_replace(&carried, ct_ones(CT_SHAPE(1), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, OWNED_MSG);
  ct_scope_end();
  ct_release(carried);
  CHECK_EQ_INT(ct_last_error(), CT_OK);
  ct_release(ema);
  ct_release(x);
}

int main(void) {
  test_out_pointer_results();
  test_keep();
  test_storage_and_list();
  test_debug_mode();
  test_scope_end_replace();
  return TEST_SUMMARY();
}
