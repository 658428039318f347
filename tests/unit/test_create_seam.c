/* The creation and random ops' descriptors and entry guard (src/ops/create_internal.h: ct_create_op): a factory's
   requested layout and device, an in-place random op's target, NULL arguments named, and the meta rows (shape
   only). Every message was read from torch 1.13 (/usr/bin/python3) with the call in the comment above its check;
   for the dispatcher's messages ctorch keeps the first sentence (test_op_seam.c), for meta the whole text.
   Sparse tensors cannot be built yet: as in test_op_seam.c, a strided tensor's layout is marked, which is what
   an op's entry sees of a sparse one. */
#include "check.h"
#include "core/internal.h"

#define NO_KERNEL(ATEN, BACKEND)                                                                        \
  "Could not run '" ATEN "' with arguments from the '" BACKEND                                          \
  "' backend. This could be because the operator "                                                      \
  "doesn't exist for this backend, or was omitted during the selective/custom build process (if using " \
  "custom build)."
#define UNBUILT(OP, LAYOUT) \
  OP ": ctorch cannot build torch." LAYOUT " tensors yet (torch 1.13 returns one here)"

static const ct_tensor_opts COO = {.layout = CT_SPARSE_COO}, CSR = {.layout = CT_SPARSE_CSR},
                            BSR = {.layout = CT_SPARSE_BSR};
static const ct_random_opts RCOO = {.layout = CT_SPARSE_COO}, RCSR = {.layout = CT_SPARSE_CSR};

/* A factory asked for a sparse layout. */
static void test_factory_layouts(void) {
  /* torch.arange(3, layout=torch.sparse_coo): NotImplementedError, the dispatcher on arange's out= kernel */
  CHECK(ct_arange_end(3, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::arange.start_out", "SparseCPU"));
  /* torch.linspace(0, 1, 3, layout=torch.sparse_coo) / torch.logspace(...) / torch.eye(2, layout=...) */
  CHECK(ct_linspace(0, 1, 3, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::linspace.out", "SparseCPU"));
  CHECK(ct_logspace(0, 1, 3, 10.0, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::logspace.out", "SparseCPU"));
  CHECK(ct_eye(2, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::eye.m_out", "SparseCPU"));
  /* torch.empty_strided((2,), (1,), layout=torch.sparse_csr): the dispatcher names SparseCsrCPU */
  CHECK(ct_empty_strided(CT_SHAPE(2), CT_SHAPE(1), &CSR) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::empty_strided", "SparseCsrCPU"));
  /* torch.ones(2, layout=torch.sparse_coo) and torch.full((2,), 1., layout=...): RuntimeError */
  CHECK(ct_ones(CT_SHAPE(2), &COO) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "full(...) is not implemented for sparse layout");
  CHECK(ct_full(CT_SHAPE(2), 1.0, &COO) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "full(...) is not implemented for sparse layout");
  /* torch.zeros(2, layout=torch.sparse_csr), torch.arange(3, layout=torch.sparse_csr) (empty({0}) first),
     torch.linspace(0, 1, 3, layout=torch.sparse_csr): empty's sparse-compressed check */
  CHECK(ct_zeros(CT_SHAPE(2), &CSR) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got size [2]");
  CHECK(ct_arange_end(3, &CSR) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got size [0]");
  CHECK(ct_linspace(0, 1, 3, &CSR) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got size [3]");
  /* torch.empty(2, 3, layout=torch.sparse_bsr) */
  CHECK(ct_empty(CT_SHAPE(2, 3), &BSR) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "\"empty_sparse_compressed\" expected sparse compressed (non-block) tensor layout but got SparseBsr");
  /* torch.empty(2, 3, layout=torch.sparse_csr, device='meta') */
  ct_tensor_opts csr_meta = {.layout = CT_SPARSE_CSR, .device = CT_DEVICE_META};
  CHECK(ct_empty(CT_SHAPE(2, 3), &csr_meta) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Unsupported device type for SparseCsr layout: meta");
  /* torch.scalar_tensor(1, layout=torch.sparse_csr, device='meta') and torch.empty_like(torch.ones(2),
     layout=torch.sparse_csc, device='meta'): c10 refuses the options before any op */
  CHECK(ct_scalar_tensor(CT_INT(1), &csr_meta) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Unsupported device type for SparseCsr layout: meta");
  ct_tensor *two = ct_ones(CT_SHAPE(2), NULL);
  ct_tensor_opts csc_meta = {.layout = CT_SPARSE_CSC, .device = CT_DEVICE_META};
  CHECK(ct_empty_like(two, &csc_meta) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Unsupported device type for SparseCsc layout: meta");
  ct_release(two);
  /* torch.arange(3, layout=torch.sparse_coo, device='meta'): the SparseMeta backend */
  ct_tensor_opts coo_meta = {.layout = CT_SPARSE_COO, .device = CT_DEVICE_META};
  CHECK(ct_arange_end(3, &coo_meta) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::arange.start_out", "SparseMeta"));
  /* torch.zeros(2, layout=torch.sparse_coo) and torch.zeros(2, 3, layout=torch.sparse_csr) work in torch (sparse
     zeros): ctorch has no sparse tensors yet */
  CHECK(ct_zeros(CT_SHAPE(2), &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("zeros", "sparse_coo"));
  CHECK(ct_empty(CT_SHAPE(2, 3), &CSR) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("empty", "sparse_csr"));
  /* torch.scalar_tensor(1, layout=torch.sparse_coo): the layout is ignored, a strided 0-dim tensor */
  ct_tensor *s = ct_scalar_tensor(CT_INT(1), &COO);
  CHECK(s != NULL && ct_layout_of(s) == CT_STRIDED && ct_dim(s) == 0);
  ct_release(s);
  /* torch.tensor([1, 2], layout=torch.sparse_coo): TypeError, torch.tensor takes no layout */
  CHECK(ct_tensor_literal(CT_L(1, 2), &COO) == NULL);
  CHECK_ERROR(CT_ERR_TYPE, "tensor() got an unexpected keyword argument 'layout'");
  /* torch.empty_like(torch.ones(2), layout=torch.sparse_coo): empty_like goes through empty_strided;
     torch.zeros_like(torch.ones(2), layout=torch.sparse_coo) builds sparse zeros */
  ct_tensor *x = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_empty_like(x, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::empty_strided", "SparseCPU"));
  CHECK(ct_zeros_like(x, &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("zeros_like", "sparse_coo"));
  /* torch.ones(2).new_ones((2,), layout=torch.sparse_coo): new_empty + fill_, which has no SparseCPU kernel */
  CHECK(ct_new_ones(x, CT_SHAPE(2), &COO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::fill_.Scalar", "SparseCPU"));
  ct_release(x);
}

static void test_random_factory_layouts(void) {
  /* torch.rand(2, layout=torch.sparse_coo): empty (sparse) + uniform_, refused by uniform_ */
  CHECK(ct_rand(CT_SHAPE(2), &RCOO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::uniform_", "SparseCPU"));
  /* torch.rand(2, 3, layout=torch.sparse_csr) */
  CHECK(ct_rand(CT_SHAPE(2, 3), &RCSR) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::uniform_", "SparseCsrCPU"));
  /* torch.randn(2, layout=torch.sparse_coo); torch.randn(2, 3, layout=torch.sparse_csr) works in torch */
  CHECK(ct_randn(CT_SHAPE(2), &RCOO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::normal_", "SparseCPU"));
  CHECK(ct_randn(CT_SHAPE(2, 3), &RCSR) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("randn", "sparse_csr"));
  /* torch.randint(0, 3, (2,), layout=torch.sparse_coo); torch.randperm(3, layout=torch.sparse_coo) */
  CHECK(ct_randint(0, 3, CT_SHAPE(2), &RCOO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::random_.from", "SparseCPU"));
  CHECK(ct_randperm(3, &RCOO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::randperm.generator_out", "SparseCPU"));
  /* torch.randperm(3, layout=torch.sparse_csr): empty({3}) first */
  CHECK(ct_randperm(3, &RCSR) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got size [3]");
  /* torch.rand_like(torch.ones(2), layout=torch.sparse_coo): empty_like's empty_strided */
  ct_tensor *x = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_rand_like(x, &RCOO) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::empty_strided", "SparseCPU"));
  ct_release(x);
}

/* In-place random ops and random ops on a sparse tensor. */
static void test_sparse_inputs(void) {
  ct_tensor *x = ct_ones(CT_SHAPE(3), NULL);
  uint32_t version = x->storage->version;
  x->layout = CT_SPARSE_COO; /* torch.ones(3).to_sparse() as an op's entry sees it */
  /* torch.ones(3).to_sparse().uniform_() */
  CHECK(ct_uniform_(x, 0, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::uniform_", "SparseCPU"));
  /* .normal_(), .random_(), .random_(5), .random_(1, 5), .exponential_(), .geometric_(0.5), .log_normal_(),
     .cauchy_(), .bernoulli_(0.5), .bernoulli_(torch.ones(3) * 0.5) */
  CHECK(ct_normal_(x, 0, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::normal_", "SparseCPU"));
  CHECK(ct_random_(x, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::random_", "SparseCPU"));
  CHECK(ct_random_to_(x, 5, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::random_.to", "SparseCPU"));
  CHECK(ct_random_from_to_(x, 1, 5, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::random_.from", "SparseCPU"));
  CHECK(ct_exponential_(x, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::exponential_", "SparseCPU"));
  CHECK(ct_geometric_(x, 0.5, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::geometric_", "SparseCPU"));
  CHECK(ct_log_normal_(x, 1, 2, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::log_normal_", "SparseCPU"));
  CHECK(ct_cauchy_(x, 0, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::cauchy_", "SparseCPU"));
  CHECK(ct_bernoulli_(x, 0.5, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::bernoulli_.float", "SparseCPU"));
  ct_tensor *p = ct_full(CT_SHAPE(3), 0.5, NULL);
  CHECK(ct_bernoulli_tensor_(x, p, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::bernoulli_.Tensor", "SparseCPU"));
  CHECK(x->storage->version == version); /* nothing written */
  /* torch.bernoulli(torch.ones(3).to_sparse()): empty_like with a memory format first */
  CHECK(ct_bernoulli(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "memory format option is only supported by strided tensors");
  /* torch.multinomial(...to_sparse(), 2), torch.normal(...to_sparse(), 1.), torch.rand_like(...to_sparse()) */
  CHECK(ct_multinomial(x, 2, false, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::multinomial", "SparseCPU"));
  CHECK(ct_normal_tensor_scalar(x, 1.0, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::normal.Tensor_float", "SparseCPU"));
  CHECK(ct_rand_like(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::uniform_", "SparseCPU"));
  /* torch.ones_like(torch.ones(3).to_sparse()): fill_ refuses it; torch.empty_like(...) builds a sparse one */
  CHECK(ct_ones_like(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::fill_.Scalar", "SparseCPU"));
  CHECK(ct_empty_like(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("empty_like", "sparse_coo"));
  /* torch.ones(2, 3).to_sparse_csr(): .uniform_() is refused, .normal_() works in torch */
  x->layout = CT_SPARSE_CSR;
  CHECK(ct_uniform_(x, 0, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, NO_KERNEL("aten::uniform_", "SparseCsrCPU"));
  CHECK(ct_normal_(x, 0, 1, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, UNBUILT("normal_", "sparse_csr"));
  /* torch.ones(2, 3).to_sparse_csr().new_tensor([1, 2]) */
  CHECK(ct_new_tensor(x, NULL, CT_FLOAT32, CT_SHAPE(0), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Cannot map DispatchKey SparseCsrCPU to a unique layout.");
  CHECK(x->storage->version == version);
  x->layout = CT_STRIDED;
  ct_release(p);
  ct_release(x);
}

/* Meta factories: torch 1.13's shape, dtype and strides (torch.zeros(2, 3, device='meta').stride() == (3, 1), ...). */
static void test_meta_factories(void) {
  ct_tensor_opts m = {.device = CT_DEVICE_META};
  ct_random_opts rm = {.device = CT_DEVICE_META};
  ct_tensor *t = ct_zeros(CT_SHAPE(2, 3), &m);
  CHECK(t && ct_device_of(t).type == CT_META && ct_dtype_of(t) == CT_FLOAT32);
  CHECK_SHAPE(t, 2, 3);
  CHECK_STRIDES(t, 3, 1);
  ct_release(t);
  ct_tensor_opts mu8 = {.device = CT_DEVICE_META, .dtype = CT_UINT8};
  t = ct_full(CT_SHAPE(2), 300,
              &mu8); /* torch.full((2,), 300, dtype=torch.uint8, device='meta'): fill_ checks nothing */
  CHECK(t && ct_dtype_of(t) == CT_UINT8);
  ct_release(t);
  t = ct_arange_end(3, &m); /* torch.arange(3, device='meta'): int64 (3,) */
  CHECK(t && ct_dtype_of(t) == CT_INT64 && ct_device_of(t).type == CT_META);
  CHECK_SHAPE(t, 3);
  ct_release(t);
  t = ct_eye_m(2, 3, &m);
  CHECK_SHAPE(t, 2, 3);
  CHECK_STRIDES(t, 3, 1);
  ct_release(t);
  t = ct_empty_strided(CT_SHAPE(2, 3), CT_SHAPE(1, 2), &m);
  CHECK_STRIDES(t, 1, 2);
  ct_release(t);
  t = ct_linspace(0, 1, 5, &m);
  CHECK(t && ct_dtype_of(t) == CT_FLOAT32);
  CHECK_SHAPE(t, 5);
  ct_release(t);
  /* torch.rand(2, 3, device='meta', dtype=torch.float64).stride() == (3, 1) */
  ct_random_opts rm64 = {.device = CT_DEVICE_META, .dtype = CT_FLOAT64};
  t = ct_rand(CT_SHAPE(2, 3), &rm64);
  CHECK(t && ct_dtype_of(t) == CT_FLOAT64 && ct_device_of(t).type == CT_META);
  CHECK_STRIDES(t, 3, 1);
  ct_release(t);
  t = ct_randperm(3, &rm); /* torch.randperm(3, device='meta'): int64 (3,) */
  CHECK(t && ct_dtype_of(t) == CT_INT64);
  CHECK_SHAPE(t, 3);
  ct_release(t);
  t = ct_randint(0, 3, CT_SHAPE(2, 3), &rm);
  CHECK(t && ct_dtype_of(t) == CT_INT64);
  CHECK_SHAPE(t, 2, 3);
  /* in-place random ops on meta run the shape-only row: torch.ones(3, device='meta').uniform_() etc. */
  CHECK(ct_random_(t, NULL) == CT_OK && ct_bernoulli_(t, 0.5, NULL) == CT_OK);
  ct_release(t);
  /* torch.multinomial(torch.empty(3, device='meta'), 2): no Meta kernel in torch 1.13, its full message */
  ct_tensor *p = ct_empty(CT_SHAPE(3), &m);
  CHECK(ct_multinomial(p, 2, false, NULL) == NULL);
  CHECK(ct_last_error() == CT_ERR_NOT_IMPLEMENTED &&
        strstr(ct_last_error_message(),
               "Could not run 'aten::multinomial' with arguments from the 'Meta' backend. ") ==
            ct_last_error_message() &&
        strstr(ct_last_error_message(), "'aten::multinomial' is only available for these backends: [CPU, ") !=
            NULL);
  ct_clear_error();
  ct_release(p);
}

/* NULL arguments are named by the guard (the function that failed is named too where the library can tell it:
   test_error_origin; this static binary without -rdynamic cannot). */
static void test_null_args(void) {
  CHECK(ct_uniform_(NULL, 0, 1, NULL) == CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'self' is NULL");
  ct_tensor *x = ct_zeros(CT_SHAPE(2), NULL);
  CHECK(ct_bernoulli_tensor_(x, NULL, NULL) == CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'p' is NULL");
  CHECK(ct_normal(x, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'std' is NULL");
  CHECK(ct_zeros_like(NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "argument 't' is NULL");
  CHECK(ct_new_full(NULL, CT_SHAPE(2), 1, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'self' is NULL");
  CHECK(ct_multinomial(NULL, 1, false, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'input' is NULL");
  ct_release(x);
}

int main(void) {
  test_factory_layouts();
  test_random_factory_layouts();
  test_sparse_inputs();
  test_meta_factories();
  test_null_args();
  return TEST_SUMMARY();
}
