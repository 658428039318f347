/* Views returned as lists: unbind, split, split_with_sizes, chunk, tensor_split. Expected pieces and
   messages were produced by PyTorch 1.13. */
#include "view_test_util.h"

/* Asserts a list's length and each piece's size along dim and storage offset. */
static void check_pieces(ct_tensor_list *l, int64_t dim, int64_t n, const int64_t *sizes, const int64_t *offsets) {
  CHECK(l != NULL);
  if (!l) return;
  CHECK_EQ_INT(l->n, n);
  for (int64_t i = 0; i < n && i < l->n; i++) {
    CHECK_EQ_INT(ct_sizes(l->items[i])[dim], sizes[i]);
    CHECK_EQ_INT(ct_storage_offset(l->items[i]), offsets[i]);
  }
}
#define CHECK_PIECES(l, dim, SIZES, OFFSETS)                                                         \
  do {                                                                                              \
    const int64_t ct_s_[] = {SIZES}, ct_o_[] = {OFFSETS};                                           \
    check_pieces((l), (dim), (int64_t)(sizeof ct_s_ / sizeof ct_s_[0]), ct_s_, ct_o_);              \
  } while (0)

static void test_unbind(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(2, 3, 4));
  ct_tensor_list *l = ct_unbind(x, 1);
  CHECK_EQ_INT(l->n, 3);
  for (int64_t i = 0; i < 3; i++) {
    CHECK_SHAPE(l->items[i], 2, 4);
    CHECK_STRIDES(l->items[i], 12, 1);
    CHECK_EQ_INT(ct_storage_offset(l->items[i]), 4 * i);
  }
  CHECK_VALUES(l->items[2], 8, 9, 10, 11, 20, 21, 22, 23);
  ct_tensor_list_release(l);
  l = ct_unbind(x, -1);
  CHECK_EQ_INT(l->n, 4);
  CHECK_SHAPE(l->items[3], 2, 3);
  CHECK_STRIDES(l->items[3], 12, 4);
  CHECK_EQ_INT(ct_storage_offset(l->items[3]), 3);
  ct_tensor_list_release(l);
  CHECK(ct_unbind(x, 3) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  ct_release(x);

  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_unbind(s, -1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
  CHECK(ct_unbind(s, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(s);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  l = ct_unbind(e, 0);
  CHECK_EQ_INT(l->n, 0);
  ct_tensor_list_release(l);
  l = ct_unbind(e, 1);
  CHECK_EQ_INT(l->n, 3);
  CHECK_SHAPE(l->items[1], 0);
  CHECK_STRIDES(l->items[1], 3);
  ct_tensor_list_release(l);
  ct_release(e);
}

static void test_split(void) {
  ct_tensor *v = ct_empty(CT_SHAPE(10), NULL);
  ct_tensor_list *l = ct_split(v, 3, 0);
  CHECK_PIECES(l, 0, L(3, 3, 3, 1), L(0, 3, 6, 9));
  ct_tensor_list_release(l);
  l = ct_split(v, 20, 0);
  CHECK_PIECES(l, 0, L(10), L(0));
  ct_tensor_list_release(l);
  /* torch rounds up as (size + split_size - 1) / split_size in int64: past 2^63 - 1 that wraps, and the
     max with 1 makes one piece, the whole tensor (it was two, the second failing at offset 3 * 2^62) */
  ct_tensor *huge = ct_zeros(CT_SHAPE(5787354564543905791, 3, 0), NULL);
  l = ct_split(huge, INT64_C(1) << 62, 0);
  CHECK(l && l->n == 1 && ct_sizes(l->items[0])[0] == 5787354564543905791);
  ct_tensor_list_release(l);
  ct_release(huge);
  CHECK(ct_split(v, 0, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "split_size can only be 0 if dimension size is 0, but got dimension size of 10");
  CHECK(ct_split(v, -1, 5) == NULL); /* split_size is checked before the dim */
  CHECK_ERROR(CT_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=-1");
  CHECK(ct_split(v, 0, 5) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 5)");

  l = ct_split_with_sizes(v, CT_SHAPE(3, 7), 0);
  CHECK_PIECES(l, 0, L(3, 7), L(0, 3));
  ct_tensor_list_release(l);
  l = ct_split_with_sizes(v, CT_SHAPE(0, 10, 0), 0);
  CHECK_PIECES(l, 0, L(0, 10, 0), L(0, 0, 10));
  ct_tensor_list_release(l);
  CHECK(ct_split_with_sizes(v, CT_SHAPE(3, 6), 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "split_with_sizes expects split_sizes to sum exactly to 10 (input tensor's size at dimension 0), but "
              "got split_sizes=[3, 6]");
  CHECK(ct_split_with_sizes(v, CT_SHAPE(3, -1, 8), 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[3, -1, 8]");
  CHECK(ct_split_with_sizes(v, CT_SHAPE_SCALAR, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "split_with_sizes expects split_sizes to sum exactly to 10 (input tensor's size at dimension 0), but "
              "got split_sizes=[]");
  ct_release(v);

  ct_tensor *x = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  l = ct_split(x, 3, -1);
  CHECK_PIECES(l, 2, L(3, 1), L(0, 3));
  CHECK_STRIDES(l->items[1], 12, 4, 1);
  ct_tensor_list_release(l);
  /* The message names the dim as given. */
  CHECK(ct_split_with_sizes(x, CT_SHAPE(1, 1), -2) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at dimension -2), but "
              "got split_sizes=[1, 1]");
  ct_release(x);

  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  l = ct_split(e, 0, 0);
  CHECK_PIECES(l, 0, L(0), L(0));
  ct_tensor_list_release(l);
  l = ct_split_with_sizes(e, CT_SHAPE_SCALAR, 0);
  CHECK_EQ_INT(l->n, 0);
  ct_tensor_list_release(l);
  ct_release(e);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_split(s, 1, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
  CHECK(ct_split_with_sizes(s, CT_SHAPE(1), 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
  ct_release(s);
}

static void test_chunk(void) {
  ct_tensor *v = ct_empty(CT_SHAPE(10), NULL);
  ct_tensor_list *l = ct_chunk(v, 3, 0);
  CHECK_PIECES(l, 0, L(4, 4, 2), L(0, 4, 8));
  ct_tensor_list_release(l);
  l = ct_chunk(v, 6, 0); /* fewer pieces than asked, as in PyTorch */
  CHECK_PIECES(l, 0, L(2, 2, 2, 2, 2), L(0, 2, 4, 6, 8));
  ct_tensor_list_release(l);
  CHECK(ct_chunk(v, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: 0");
  CHECK(ct_chunk(v, 3, 1) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_release(v);
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  l = ct_chunk(e, 3, 0); /* an empty dim still gives every chunk */
  CHECK_PIECES(l, 0, L(0, 0, 0), L(0, 0, 0));
  ct_tensor_list_release(l);
  l = ct_chunk(e, 2, 1);
  CHECK_PIECES(l, 1, L(2, 1), L(0, 2));
  ct_tensor_list_release(l);
  ct_release(e);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_chunk(s, 1, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
  ct_release(s);
}

static void test_tensor_split(void) {
  ct_tensor *v = ct_empty(CT_SHAPE(10), NULL);
  ct_tensor_list *l = ct_tensor_split(v, 3, 0);
  CHECK_PIECES(l, 0, L(4, 3, 3), L(0, 4, 7));
  ct_tensor_list_release(l);
  l = ct_tensor_split(v, 11, 0);
  CHECK_EQ_INT(l->n, 11);
  CHECK_SHAPE(l->items[10], 0);
  CHECK_EQ_INT(ct_storage_offset(l->items[10]), 10);
  ct_tensor_list_release(l);
  CHECK(ct_tensor_split(v, 0, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "number of sections must be larger than 0, got 0");
  CHECK(ct_tensor_split(v, 0, 1) == NULL); /* the dim is checked before the sections */
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");

  l = ct_tensor_split_indices(v, CT_SHAPE(2, 5), 0);
  CHECK_PIECES(l, 0, L(2, 3, 5), L(0, 2, 5));
  ct_tensor_list_release(l);
  l = ct_tensor_split_indices(v, CT_SHAPE(5, 2), 0); /* indices going back: an empty piece */
  CHECK_PIECES(l, 0, L(5, 0, 8), L(0, 5, 2));
  ct_tensor_list_release(l);
  l = ct_tensor_split_indices(v, CT_SHAPE(-3, 12), 0);
  CHECK_PIECES(l, 0, L(7, 3, 0), L(0, 7, 10));
  ct_tensor_list_release(l);
  l = ct_tensor_split_indices(v, CT_SHAPE_SCALAR, 0);
  CHECK_PIECES(l, 0, L(10), L(0));
  ct_tensor_list_release(l);
  ct_release(v);
  ct_tensor *s = ct_empty(CT_SHAPE_SCALAR, NULL);
  CHECK(ct_tensor_split(s, 1, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  CHECK(ct_tensor_split_indices(s, CT_SHAPE(1), 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  ct_release(s);
  /* More pieces than a std::vector may hold. */
  ct_tensor *w = ct_empty(CT_SHAPE(4), NULL);
  CHECK(ct_tensor_split(w, (int64_t)1 << 61, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "cannot create std::vector larger than max_size()");
  ct_release(w);
}

static void test_ownership(void) {
  ct_tensor *x = arange_f32(CT_SHAPE(6));
  /* The pieces share x's storage: the list holds one reference each, x keeps its own. */
  ct_scope_begin();
  ct_tensor_list *l = ct_chunk(x, 2, 0);
  CHECK_EQ_INT(l->n, 2);
  CHECK_EQ_INT(ct_refcount(l->items[0]), 1);
  CHECK(ct_data_ptr(l->items[1]) == (float *)ct_data_ptr(x) + 3);
  CHECK_VALUES(l->items[1], 3, 4, 5);
  ct_tensor *kept = ct_keep(l->items[0]);
  ct_scope_end(); /* frees the list and the pieces, except the kept one */
  CHECK_EQ_INT(ct_refcount(kept), 1);
  CHECK_VALUES(kept, 0, 1, 2);
  ct_release(kept);
  CHECK_EQ_INT(ct_refcount(x), 1);

  /* A failed allocation anywhere in the call gives NULL and leaks nothing. */
  for (int64_t n = 0; n < 6; n++) {
    ct_debug_fail_allocation_at(n);
    ct_tensor_list *f = ct_split(x, 2, 0);
    ct_debug_fail_allocation_at(-1);
    if (f) {
      CHECK_EQ_INT(f->n, 3);
      ct_tensor_list_release(f);
    } else {
      CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
    }
    ct_scope_begin();
    ct_debug_fail_allocation_at(n);
    f = ct_unbind(x, 0);
    ct_debug_fail_allocation_at(-1);
    if (!f) {
      CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
    }
    ct_scope_end();
  }
  CHECK_EQ_INT(ct_refcount(x), 1);
  CHECK(ct_unbind(NULL, 0) == NULL);
  CHECK(ct_chunk(NULL, 2, 0) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
  ct_release(x);
}

static void test_meta(void) {
  ct_tensor *m = empty_meta(CT_SHAPE(5, 2));
  ct_tensor_list *l = ct_tensor_split(m, 2, 0);
  CHECK_PIECES(l, 0, L(3, 2), L(0, 6));
  CHECK(ct_is_meta(l->items[1]));
  ct_tensor_list_release(l);
  ct_release(m);
}

int main(void) {
  test_unbind();
  test_split();
  test_chunk();
  test_tensor_split();
  test_ownership();
  test_meta();
  return TEST_SUMMARY();
}
