/* autograd's leaf rules before autograd: in-place writes to a leaf that requires grad, or to a view of
   one, are refused with torch's message (every in-place family: pointwise, random, copy_, scans,
   set_item, set_); results of ops and their views may be written; requires_grad_ changes only leaves.
   Also torch's long dispatcher message for ops without a Meta kernel and bernoulli_'s expand message.
   Expected texts were printed by torch 1.13. */
#include "check.h"

#define NUM(x) ct_wrapped_scalar(CT_DOUBLE(x))

static const char *LEAF = "a leaf Variable that requires grad is being used in an in-place operation.";
static const char *VIEW = "a view of a leaf Variable that requires grad is being used in an in-place operation.";

/* Every in-place family refuses t with msg and leaves t's values alone. */
static void refused(ct_tensor *t, const char *msg) {
  float before[3];
  ct_copy_to_buffer(t, before, CT_FLOAT32, sizeof before);
  CHECK_EQ_INT(ct_add_(t, NUM(1), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_sqrt_(t), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_clamp_min_(t, NUM(0)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_uniform_(t, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_bernoulli_(t, 0.5, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_normal_(t, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_random_(t, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_copy_(t, ct_zeros(CT_SHAPE(3), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_cumsum_(t, 0, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_EQ_INT(ct_set_(t, ct_zeros(CT_SHAPE(2), NULL)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  float after[3];
  ct_copy_to_buffer(t, after, CT_FLOAT32, sizeof after);
  CHECK(memcmp(before, after, sizeof before) == 0);
  CHECK_EQ_INT(ct_numel(t), 3);
}

static void test_leaf_rules(void) {
  ct_scope_begin();
  ct_tensor *a = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.requires_grad = true});
  refused(a, LEAF);
  /* a[0] = 5 writes through a view; a 0-dim leaf is written as itself */
  CHECK_EQ_INT(ct_set_item(a, (int64_t[]){0}, CT_DOUBLE(5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, VIEW);
  ct_tensor *s = ct_ones(CT_SHAPE_SCALAR, &(ct_tensor_opts){.requires_grad = true});
  CHECK_EQ_INT(ct_set_item(s, NULL, CT_DOUBLE(5)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, LEAF);

  /* views of a leaf, and views of those */
  ct_tensor *v = ct_view(a, CT_SHAPE(3));
  CHECK(ct_requires_grad(v));
  refused(v, VIEW);
  refused(ct_view(ct_unsqueeze(a, 0), CT_SHAPE(3)), VIEW);
  CHECK_EQ_INT(ct_requires_grad_(v, false), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "you can only change requires_grad flags of leaf variables. If you want to use a "
                              "computed variable in a subgraph that doesn't require differentiation use var_no_grad "
                              "= var.detach().");
  CHECK_EQ_INT(ct_requires_grad_(v, true), CT_OK);

  /* results of ops (clone, to) and their views may be written, and stay non-leaves */
  ct_tensor *c = ct_clone(a, CT_MEMORY_FORMAT_UNSET);
  CHECK(ct_requires_grad(c));
  CHECK_EQ_INT(ct_add_(c, NUM(1), NULL), CT_OK);
  CHECK_EQ_INT(ct_add_(ct_view(c, CT_SHAPE(3)), NUM(1), NULL), CT_OK);
  CHECK_EQ_INT(ct_cumsum_(c, 0, NULL), CT_OK);
  CHECK_EQ_INT(ct_requires_grad_(c, false), CT_ERR_RUNTIME);
  ct_clear_error();
  ct_tensor *c64 = ct_to_dtype(a, CT_FLOAT64);
  CHECK(ct_requires_grad(c64));
  CHECK_EQ_INT(ct_uniform_(c64, 0, 1, NULL), CT_OK);

  /* detach leaves autograd; requires_grad_(false) makes a leaf writable again */
  CHECK_EQ_INT(ct_add_(ct_detach(a), NUM(1), NULL), CT_OK);
  ct_tensor *b = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.requires_grad = true});
  CHECK_EQ_INT(ct_requires_grad_(b, false), CT_OK);
  CHECK_EQ_INT(ct_add_(b, NUM(1), NULL), CT_OK);
  /* writing into a tensor that does not require grad, from one that does, is allowed */
  CHECK_EQ_INT(ct_add_(b, a, NULL), CT_OK);
  ct_scope_end();
}

static void test_meta_messages(void) {
  ct_scope_begin();
  ct_scalar s;
  CHECK_EQ_INT(ct_item(ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.device = CT_DEVICE_META}), &s),
               CT_ERR_NOT_IMPLEMENTED);
  const char *m = ct_last_error_message();
  /* torch's whole text: the list of backends and one registration line each (4696 characters) */
  CHECK_EQ_INT(strlen(m), 4696);
  CHECK(strstr(m, "'aten::_local_scalar_dense' is only available for these backends: [CPU, BackendSelect, ") != NULL);
  CHECK(strstr(m, "\n\nCPU: registered at ./build/aten/src/ATen/RegisterCPU.cpp:30798 [kernel]\n") != NULL);
  ct_clear_error();
  ct_scope_end();
}

static void test_bernoulli_expand_message(void) {
  ct_scope_begin();
  CHECK_EQ_INT(ct_bernoulli_tensor_(ct_zeros(CT_SHAPE(3), NULL), ct_full(CT_SHAPE(2, 3), CT_DOUBLE(0.5), NULL), NULL),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must "
                              "be greater or equal to the number of dimensions in the tensor (2)");
  ct_scope_end();
}

/* out= forms refuse arguments that require grad before writing (logsumexp's op sequence writes out in place) */
static void test_out_requires_grad(void) {
  ct_scope_begin();
  ct_tensor *x = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.requires_grad = true});
  ct_tensor *o = ct_full(CT_SHAPE_SCALAR, CT_DOUBLE(7), NULL);
  CHECK_EQ_INT(ct_logsumexp_out(o, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "logsumexp(): functions with out=... arguments don't support automatic "
                              "differentiation, but one of the arguments requires grad.");
  double v = 0;
  CHECK_EQ_INT(ct_item_double(o, &v), CT_OK);
  CHECK(v == 7);
  ct_tensor *og = ct_full(CT_SHAPE_SCALAR, CT_DOUBLE(7), &(ct_tensor_opts){.requires_grad = true});
  CHECK_EQ_INT(ct_logsumexp_out(og, ct_ones(CT_SHAPE(3), NULL), &(ct_reduce_opts){.dims = CT_DIMS(0)}),
               CT_ERR_RUNTIME);
  ct_clear_error();
  CHECK_EQ_INT(ct_item_double(og, &v), CT_OK);
  CHECK(v == 7);
  ct_scope_end();
}

/* bool tensors over bytes other than 0 and 1 (a uint8 tensor viewed as bool): reductions read any nonzero
   byte as true, as torch's loads do (torch 1.13: uint8 [2, 1, 0, 190] viewed as bool sums to 3, amax True) */
static void test_bool_bytes_reduce(void) {
  ct_scope_begin();
  static uint8_t bytes[4] = {2, 1, 0, 190};
  ct_tensor *b = ct_from_blob(bytes, CT_BOOL, CT_SHAPE(4), NULL, NULL, NULL, NULL);
  int64_t n = 0;
  CHECK_EQ_INT(ct_item_int64(ct_sum(b, NULL), &n), CT_OK);
  CHECK_EQ_INT(n, 3);
  CHECK_EQ_INT(ct_item_int64(ct_prod(ct_narrow(b, 0, 0, 2), NULL), &n), CT_OK);
  CHECK_EQ_INT(n, 1);
  bool t = false;
  CHECK_EQ_INT(ct_item_bool(ct_amax(b, NULL), &t), CT_OK);
  CHECK(t);
  CHECK_EQ_INT(ct_item_bool(ct_amin(ct_narrow(b, 0, 0, 2), NULL), &t), CT_OK);
  CHECK(t);
  ct_scope_end();
}

int main(void) {
  test_out_requires_grad();
  test_bool_bytes_reduce();
  test_leaf_rules();
  test_meta_messages();
  test_bernoulli_expand_message();
  return TEST_SUMMARY();
}
