/* The entry guard of the views and conversions (src/ops/view_op.h over src/core/op.h): named NULL
   arguments, the layout and device rows of each op's descriptor, and what torch 1.13 does with a sparse
   tensor its dispatcher lets into the op. Sparse tensors cannot be built yet: the tests mark a strided
   tensor's layout, which is what an op's entry sees of a sparse one. Every message is torch 1.13's, from
   the call in the comment above it (x = torch.eye(2), .to_sparse() for COO, .to_sparse_csr() for CSR);
   the dispatcher's ("Could not run ...") is compared up to the end of its second sentence, where ctorch's
   ends (torch goes on with the list of backends that have kernels). */
#include "check.h"
#include "core/op.h"

#define DISPATCH(ATEN, BACKEND)                                                                         \
  "Could not run '" ATEN "' with arguments from the '" BACKEND                                          \
  "' backend. This could be because the operator "                                                      \
  "doesn't exist for this backend, or was omitted during the selective/custom build process (if using " \
  "custom "                                                                                             \
  "build)."

/* A 2x2 float tensor marked with a layout (CT_STRIDED: a plain one). */
static ct_tensor *marked(ct_layout layout) {
  ct_tensor *x = ct_eye(2, NULL);
  x->layout = layout;
  return x;
}

/* Releases a tensor marked sparse: its metadata is a strided tensor's. */
static void unmark(ct_tensor *x) {
  x->layout = CT_STRIDED;
  ct_release(x);
}

/* The last call failed with ctorch's refusal of a layout torch computes (no sparse tensors yet). */
static void check_pending(void) {
  CHECK_EQ_INT(ct_last_error(), CT_ERR_NOT_IMPLEMENTED);
  CHECK(strstr(ct_last_error_message(), "not implemented in ctorch yet") != NULL);
  ct_clear_error();
}

static void test_views_refuse_sparse(void) {
  ct_tensor *coo = marked(CT_SPARSE_COO), *csr = marked(CT_SPARSE_CSR), *dense = marked(CT_STRIDED);
  /* x.to_sparse().view(4): aten::view has no sparse kernel */
  CHECK(ct_view(coo, CT_SHAPE(4)) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::view", "SparseCPU"));
  /* x.to_sparse_csr().view_as(torch.empty(4)): view_as runs aten::view */
  CHECK(ct_view_as(csr, dense) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::view", "SparseCsrCPU"));
  /* x.to_sparse().reshape(4) / .flatten(): reshape's own check */
  CHECK(ct_reshape(coo, CT_SHAPE(4)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "reshape is not implemented for sparse tensors");
  CHECK(ct_flatten(coo, 0, -1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "reshape is not implemented for sparse tensors");
  /* x.to_sparse_csr().reshape(4), x.to_sparse_csc().squeeze(): the composite reads the strides */
  CHECK(ct_reshape(csr, CT_SHAPE(4)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Sparse CSR tensors do not have strides");
  csr->layout = CT_SPARSE_CSC;
  CHECK(ct_squeeze(csr) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Sparse CSC tensors do not have strides");
  csr->layout = CT_SPARSE_CSR;
  /* x.to_sparse().squeeze(0), .narrow(0, 0, 1), .split(1): the composite dispatches as_strided */
  CHECK(ct_squeeze_dim(coo, 0) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::as_strided", "SparseCPU"));
  CHECK(ct_narrow(coo, 0, 0, 1) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::as_strided", "SparseCPU"));
  CHECK(ct_split(coo, 1, 0) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::as_strided", "SparseCPU"));
  /* x.to_sparse_csr().T, .permute(1, 0): COO tensors permute, compressed ones reach as_strided */
  CHECK(ct_T(csr) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::as_strided", "SparseCsrCPU"));
  CHECK(ct_permute(csr, CT_DIMS(1, 0)) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::as_strided", "SparseCsrCPU"));
  /* x.to_sparse().unfold(0, 1, 1) */
  CHECK(ct_unfold(coo, 0, 1, 1) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::unfold", "SparseCPU"));
  /* torch.ops.aten.alias(x.to_sparse()): NotImplementedError */
  CHECK(ct_alias(coo) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot access storage of SparseTensorImpl");
  /* torch computes these (x.to_sparse().transpose(0, 1), .permute(1, 0), .select(0, 0), .unbind(0),
     .detach(), x.to_sparse_csr().t()): refused cleanly until ctorch has sparse tensors */
  CHECK(ct_transpose(coo, 0, 1) == NULL);
  check_pending();
  CHECK(ct_permute(coo, CT_DIMS(1, 0)) == NULL);
  check_pending();
  CHECK(ct_select(coo, 0, 0) == NULL);
  check_pending();
  CHECK(ct_unbind(coo, 0) == NULL);
  check_pending();
  CHECK(ct_detach(coo) == NULL);
  check_pending();
  CHECK(ct_t(csr) == NULL);
  check_pending();
  /* torch.empty(4).set_(x.to_sparse()): the dispatcher sees both tensors; self is unchanged */
  ct_tensor *e = ct_empty(CT_SHAPE(4), NULL);
  CHECK(ct_set_(e, coo) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::set_.source_Tensor", "SparseCPU"));
  CHECK_SHAPE(e, 4);
  /* x.to_sparse().resize_(3), .resize_as_(torch.empty(3)) */
  CHECK(ct_resize_(coo, CT_SHAPE(3), CT_MEMORY_FORMAT_UNSET) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::resize_", "SparseCPU"));
  CHECK(ct_resize_as_(coo, e) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::resize_", "SparseCPU"));
  CHECK_SHAPE(coo, 2, 2);
  /* a sparse `other` only lends its sizes: torch.eye(2).view_as(x.to_sparse()) works */
  ct_tensor *v = ct_view_as(dense, coo);
  CHECK(v != NULL && v->layout == CT_STRIDED);
  ct_release(v);
  ct_release(e);
  unmark(coo);
  unmark(csr);
  ct_release(dense);
}

static void test_conversions_refuse_sparse(void) {
  ct_tensor *coo = marked(CT_SPARSE_COO), *csr = marked(CT_SPARSE_CSR), *dense = marked(CT_STRIDED);
  /* x.to_sparse_csr().contiguous() */
  CHECK(ct_contiguous(csr, CT_MEMORY_FORMAT_UNSET) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Sparse CSR tensors do not have is_contiguous");
  /* torch.eye(2).type_as(x.to_sparse()) and x.to_sparse().type_as(torch.eye(2)): to(options) */
  CHECK(ct_type_as(dense, coo) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "to(options) doesn't support converting to a different layout, but got self.layout "
              "being Strided and options.layout set as Sparse");
  CHECK(ct_type_as(csr, dense) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "to(options) doesn't support converting to a different layout, but got self.layout "
              "being SparseCsr and options.layout set as Strided");
  /* torch.equal(torch.eye(2), x.to_sparse()): the dispatcher sees both tensors */
  bool eq = true;
  CHECK(ct_equal(dense, coo, &eq) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::equal", "SparseCPU"));
  CHECK(ct_equal(csr, dense, &eq) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::equal", "SparseCsrCPU"));
  /* x.to_sparse().fill_(1): no COO kernel (torch fills a CSR tensor: pending) */
  CHECK(ct_fill_(coo, CT_INT(1)) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::fill_.Scalar", "SparseCPU"));
  CHECK(ct_fill_(csr, CT_INT(1)) == CT_ERR_NOT_IMPLEMENTED);
  check_pending();
  /* torch.tensor([[1.]]).to_sparse_csr().item(): item's dispatch point */
  ct_tensor *one = ct_ones(CT_SHAPE(1, 1), NULL);
  one->layout = CT_SPARSE_CSR;
  ct_scalar s;
  CHECK(ct_item(one, &s) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::_local_scalar_dense", "SparseCsrCPU"));
  unmark(one);
  /* x.to_sparse().tolist() */
  float buf[4];
  CHECK(ct_copy_to_buffer(coo, buf, CT_FLOAT32, sizeof buf) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Cannot access data pointer of Tensor that doesn't have storage");
  /* torch computes x.to_sparse().to(torch.float64), .clone(), .double(), .cpu(), .zero_(): pending */
  CHECK(ct_to_dtype(coo, CT_FLOAT64) == NULL);
  check_pending();
  CHECK(ct_clone(coo, CT_MEMORY_FORMAT_UNSET) == NULL);
  check_pending();
  CHECK(ct_double(coo) == NULL);
  check_pending();
  CHECK(ct_cpu(csr) == NULL);
  check_pending();
  CHECK(ct_zero_(coo) == CT_ERR_NOT_IMPLEMENTED);
  check_pending();
  unmark(coo);
  unmark(csr);
  ct_release(dense);
}

static void test_copy_refuses_mixed_layouts(void) {
  ct_tensor *coo = marked(CT_SPARSE_COO), *csr = marked(CT_SPARSE_CSR),
            *dense = ct_ones(CT_SHAPE(2, 2), NULL);
  ct_tensor *bools = ct_ones(CT_SHAPE(2, 2), &(ct_tensor_opts){.dtype = CT_BOOL});
  bools->layout = CT_SPARSE_COO;
  const struct {
    ct_tensor *self;
    const ct_tensor *src;
    const char *msg;
  } cases[] = {
      /* x.to_sparse().copy_(torch.ones(2, 2)) */
      {coo, dense,
       "copy_() between dense and sparse Tensors is not implemented! Found self type = "
       "torch.sparse.FloatTensor "
       "and src type = torch.FloatTensor"},
      /* torch.ones(2, 2).copy_(torch.ones(2, 2, dtype=torch.bool).to_sparse()) */
      {dense, bools,
       "copy_() between dense and sparse Tensors is not implemented! Found self type = torch.FloatTensor and "
       "src "
       "type = SparseCPUBoolType"},
      /* x.to_sparse_csr().copy_(torch.ones(2, 2)) */
      {csr, dense,
       "torch.copy_: copy of sparse compressed tensors having different layouts is not supported. self "
       "layout is "
       "SparseCsr and src layout is Strided"},
      /* x.to_sparse_csr().copy_(x.to_sparse()) */
      {csr, coo,
       "torch.copy_: copy of sparse compressed tensors having different layouts is not supported. self "
       "layout is "
       "SparseCsr and src layout is Sparse"},
      /* torch.ones(2, 2).copy_(x.to_sparse_csr()) */
      {dense, csr, "\"copy_sparse_compressed_\" expected sparse compressed tensor layout but got Strided"},
      /* x.to_sparse().copy_(x.to_sparse_csr()) */
      {coo, csr, "\"copy_sparse_compressed_\" expected sparse compressed tensor layout but got Sparse"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK(ct_copy_(cases[i].self, cases[i].src) == CT_ERR_RUNTIME);
    CHECK_ERROR(CT_ERR_RUNTIME, cases[i].msg);
  }
  /* torch copies COO to COO and CSR to CSR: pending */
  CHECK(ct_copy_(coo, coo) == CT_ERR_NOT_IMPLEMENTED);
  check_pending();
  /* self untouched by every refusal */
  float vals[4] = {0};
  CHECK(ct_copy_to_buffer(dense, vals, CT_FLOAT32, sizeof vals) == CT_OK);
  CHECK(vals[0] == 1 && vals[1] == 1 && vals[2] == 1 && vals[3] == 1);
  unmark(bools);
  unmark(coo);
  unmark(csr);
  ct_release(dense);
}

/* The first NULL argument is named (with the function's name where the library's symbols can be read). */
static void check_null(const char *arg) {
  char want[64];
  snprintf(want, sizeof want, "argument '%s' is NULL", arg);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE);
  CHECK(strstr(ct_last_error_message(), want) != NULL);
  ct_clear_error();
}

static void test_null_arguments(void) {
  ct_tensor *x = ct_ones(CT_SHAPE(2, 2), NULL);
  ct_clear_error();
  CHECK(ct_transpose(NULL, 0, 1) == NULL);
  check_null("t");
  CHECK(ct_view_as(x, NULL) == NULL);
  check_null("other");
  CHECK(ct_unbind(NULL, 0) == NULL);
  check_null("t");
  CHECK(ct_to_other(NULL, x) == NULL);
  check_null("t");
  CHECK(ct_copy_(x, NULL) == CT_ERR_VALUE);
  check_null("src");
  CHECK(ct_fill_(NULL, CT_INT(0)) == CT_ERR_VALUE);
  check_null("self");
  bool eq;
  CHECK(ct_equal(x, NULL, &eq) == CT_ERR_VALUE);
  check_null("b");
  CHECK(ct_set_(x, NULL) == CT_ERR_VALUE);
  check_null("source");
  ct_release(x);
}

/* torch's views, to, clone, contiguous, copy_ and fill_ all run on the meta device (shapes only); item and
   equal have no Meta kernel. */
static void test_meta_runs(void) {
  ct_scope_begin();
  ct_tensor *m = ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.device = CT_DEVICE_META});
  ct_tensor *t = ct_transpose(m, 0, 1);
  CHECK(t != NULL && ct_is_meta(t));
  CHECK_SHAPE(t, 3, 2);
  CHECK_STRIDES(t, 1, 3);
  ct_tensor *r = ct_reshape(t, CT_SHAPE(6)); /* a copy on the meta device: no view of these strides */
  CHECK(r != NULL && ct_is_meta(r));
  CHECK_SHAPE(r, 6);
  CHECK(ct_view(m, CT_SHAPE(3, 2)) != NULL);
  CHECK(ct_expand(ct_unsqueeze(m, 0), CT_SHAPE(4, 2, 3)) != NULL);
  ct_tensor_list *l = ct_unbind(m, 1);
  CHECK(l != NULL && l->n == 3);
  ct_tensor *d = ct_to_dtype(m, CT_FLOAT64);
  CHECK(d != NULL && ct_is_meta(d) && ct_dtype_of(d) == CT_FLOAT64);
  ct_tensor *c = ct_contiguous(t, CT_MEMORY_FORMAT_UNSET);
  CHECK(c != NULL && ct_is_meta(c));
  CHECK_STRIDES(c, 2, 1);
  CHECK(ct_clone(m, CT_MEMORY_FORMAT_UNSET) != NULL);
  CHECK(ct_copy_(c, t) == CT_OK);
  CHECK(ct_fill_(m, CT_INT(1)) == CT_OK);
  /* torch.empty(1, device='meta').item(): "Could not run 'aten::_local_scalar_dense' with arguments from
     the 'Meta' backend..." (word for word in ctorch: scripts/gen_meta_messages.py) */
  ct_scalar s;
  CHECK(ct_item(ct_empty(CT_SHAPE(1), &(ct_tensor_opts){.device = CT_DEVICE_META}), &s) ==
        CT_ERR_NOT_IMPLEMENTED);
  CHECK(strstr(ct_last_error_message(), DISPATCH("aten::_local_scalar_dense", "Meta")) ==
        ct_last_error_message());
  bool eq;
  ct_tensor *x = ct_zeros(CT_SHAPE(2, 3), NULL);
  /* torch.equal(torch.zeros(2, 3), torch.empty(2, 3, device='meta')) */
  CHECK(ct_equal(x, m, &eq) == CT_ERR_NOT_IMPLEMENTED);
  CHECK(strstr(ct_last_error_message(), DISPATCH("aten::equal", "Meta")) == ct_last_error_message());
  ct_clear_error();
  ct_scope_end();
}

/* The device rows: a view touches no memory, so it has a row on every device (a CUDA backend adds nothing
   for views); a conversion runs the copy engine, which has no CUDA kernels yet: the dispatcher's error. CUDA
   tensors cannot be built here: the test marks a CPU tensor's device, as with the layouts above. */
static void test_device_rows(void) {
  ct_tensor *x = ct_ones(CT_SHAPE(2, 2), NULL);
  x->device_type = CT_CUDA;
  x->device_index = 0;
  ct_tensor *t = ct_transpose(x, 0, 1); /* the guard lets it through (the view's device is its storage's) */
  CHECK(t != NULL);
  ct_release(t);
  CHECK(ct_clone(x, CT_MEMORY_FORMAT_UNSET) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, DISPATCH("aten::clone", "CUDA"));
  x->device_type = CT_CPU;
  x->device_index = -1;
  ct_release(x);
}

int main(void) {
  test_views_refuse_sparse();
  test_conversions_refuse_sparse();
  test_copy_refuses_mixed_layouts();
  test_null_arguments();
  test_meta_runs();
  test_device_rows();
  return TEST_SUMMARY();
}
