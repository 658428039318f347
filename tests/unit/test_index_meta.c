/* The index and join ops' meta kernels (issue 16, the dispatch seam of issue 14): on the meta device ctorch
   runs what torch 1.13 runs there, which is not the CPU kernel without values. Every expectation below is
   torch 1.13's, from `t = lambda *s, dtype=torch.float32: torch.empty(*s, dtype=dtype, device="meta")`; the
   CPU lines show that the CPU path keeps its own checks. */
#include "check.h"

static ct_tensor *meta(ct_shape shape, ct_dtype dt) {
  return ct_empty(shape, &(ct_tensor_opts){.dtype = dt, .device = CT_DEVICE_META});
}

static void check_meta_result(const ct_tensor *r, ct_dtype dt) {
  CHECK(r != NULL);
  if (r) CHECK(ct_device_of(r).type == CT_META && ct_dtype_of(r) == dt);
}

/* torch's Python meta_index_select: any index, dim read as a Python list index */
static void test_index_select(void) {
  /* torch.index_select(t(3, 4), -2, t(2, 2)): shape (4, 4), strides (4, 1) */
  ct_tensor *r = ct_index_select(meta(CT_SHAPE(3, 4), CT_FLOAT32), -2, meta(CT_SHAPE(2, 2), CT_FLOAT32));
  check_meta_result(r, CT_FLOAT32);
  CHECK_SHAPE(r, 4, 4);
  CHECK_STRIDES(r, 4, 1);
  /* torch.index_select(t(3, 4), 5, t(2, dtype=torch.long)): IndexError 'list assignment index out of range' */
  CHECK(ct_index_select(meta(CT_SHAPE(3, 4), CT_FLOAT32), 5, meta(CT_SHAPE(2), CT_INT64)) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "list assignment index out of range");
  /* out=: o = t(2, dtype=torch.long); torch.index_select(t(3, 4), 7, ..., out=o) fails the same way after
     _resize_output_ made o.shape (3, 4) */
  ct_tensor *o = meta(CT_SHAPE(2), CT_INT64);
  CHECK(ct_index_select_out(o, meta(CT_SHAPE(3, 4), CT_FLOAT32), 7, meta(CT_SHAPE(2), CT_INT64)) ==
        CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "list assignment index out of range");
  CHECK_SHAPE(o, 3, 4);
  /* the CPU kernel keeps its checks: torch.index_select(torch.empty(3, 4), 0, torch.empty(2)):
     RuntimeError 'index_select(): Expected dtype int32 or int64 for index' */
  CHECK(ct_index_select(ct_zeros(CT_SHAPE(3, 4), NULL), 0, ct_zeros(CT_SHAPE(2), NULL)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
}

/* index_func_meta_impl (index_add, index_reduce) and scatter_meta_impl: no dtype dispatch */
static void test_structured_meta(void) {
  /* t(2, 3).index_add(1, t(0, dtype=torch.long), t(2, 0)): the meta function's source.select(dim, 0) fails
     (the CPU returns early for an empty index) */
  CHECK(ct_index_add(meta(CT_SHAPE(2, 3), CT_FLOAT32), 1, meta(CT_SHAPE(0), CT_INT64),
                     meta(CT_SHAPE(2, 0), CT_FLOAT32), NULL) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "select(): index 0 out of range for tensor of size [2, 0] at dimension 1");
  /* t(3, dtype=torch.complex64).index_reduce(0, t(2, dtype=torch.long), t(2, dtype=torch.complex64), 'amax'):
     shape (3,), complex64 (the CPU: '"index_func_" not implemented for 'ComplexFloat'') */
  ct_tensor *c = meta(CT_SHAPE(3), CT_COMPLEX64);
  ct_tensor *r = ct_index_reduce(c, 0, meta(CT_SHAPE(2), CT_INT64), meta(CT_SHAPE(2), CT_COMPLEX64),
                                 CT_REDUCTION_AMAX, NULL);
  check_meta_result(r, CT_COMPLEX64);
  CHECK_SHAPE(r, 3);
  /* ...scatter_reduce(0, index, src, 'amax') of the same: shape (3,) */
  r = ct_scatter_reduce(c, 0, meta(CT_SHAPE(2), CT_INT64), meta(CT_SHAPE(2), CT_COMPLEX64), CT_REDUCTION_AMAX,
                        NULL);
  check_meta_result(r, CT_COMPLEX64);
  /* t(2, 4, dtype=torch.float16).scatter(0, t(1, 4, dtype=torch.long), 1e30): shape (2, 4), strides (4, 1)
     (no value conversion on meta) */
  r = ct_scatter_value(meta(CT_SHAPE(2, 4), CT_FLOAT16), 0, meta(CT_SHAPE(1, 4), CT_INT64), 1e30, NULL);
  check_meta_result(r, CT_FLOAT16);
  CHECK_STRIDES(r, 4, 1);
  /* t(3, 1).index_put([t(3, dtype=torch.bool)], t((), dtype=torch.int32)): shape (3, 1), float32 (no nonzero,
     no dtype check) */
  r = ct_index_put(meta(CT_SHAPE(3, 1), CT_FLOAT32), CT_TENSORS(meta(CT_SHAPE(3), CT_BOOL)),
                   meta(CT_SHAPE_SCALAR, CT_INT32), NULL);
  check_meta_result(r, CT_FLOAT32);
  CHECK_SHAPE(r, 3, 1);
}

/* The joining ops' meta paths: a structured meta function and torch/_refs decompositions */
static void test_join_meta(void) {
  /* t(3).tril(): shape (3,) (the CPU: 'Dimension out of range (expected to be in range of [-1, 0], but got -2)') */
  ct_tensor *r = ct_tril(meta(CT_SHAPE(3), CT_FLOAT32), 0);
  check_meta_result(r, CT_FLOAT32);
  CHECK_SHAPE(r, 3);
  CHECK(ct_tril(ct_zeros(CT_SHAPE(3), NULL), 0) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  /* t(()).roll([4], [0]): IndexError 'tuple index out of range' (the CPU: 'Dimension specified as 0 but tensor
     has no dimensions') */
  CHECK(ct_roll(meta(CT_SHAPE_SCALAR, CT_FLOAT32), CT_SHAPE(4), &(ct_roll_opts){.dims = CT_DIMS(0)}) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "tuple index out of range");
  /* t(5, 2, 1).flip([-1, -1]): 'duplicate value in the list of dims' (the CPU: 'dim 2 appears multiple times
     in the list of dims') */
  CHECK(ct_flip(meta(CT_SHAPE(5, 2, 1), CT_FLOAT32), CT_DIMS(-1, -1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "duplicate value in the list of dims");
  CHECK(ct_flip(ct_zeros(CT_SHAPE(5, 2, 1), NULL), CT_DIMS(-1, -1)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "dim 2 appears multiple times in the list of dims");
  /* t(5, 0, dtype=torch.float16).diag(): shape (0,); t(1, 1).diag(-4): 'Trying to create tensor with negative
     dimension -3: [-3]' */
  r = ct_diag(meta(CT_SHAPE(5, 0), CT_FLOAT16), 0);
  check_meta_result(r, CT_FLOAT16);
  CHECK_SHAPE(r, 0);
  CHECK(ct_diag(meta(CT_SHAPE(1, 1), CT_FLOAT32), -4) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -3: [-3]");
}

/* A dispatcher refusal (NotImplementedError) naming the operator; the rest of the text is its backend list */
static void check_no_meta_kernel(const char *aten) {
  char want[128];
  snprintf(want, sizeof want, "Could not run '%s' with arguments from the 'Meta' backend.", aten);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_NOT_IMPLEMENTED);
  CHECK(strncmp(ct_last_error_message(), want, strlen(want)) == 0);
  ct_clear_error();
}

/* h6-meta2: the keyword forms (out=, dim=, stable=) of the join and sort ops on meta */
static void test_keyword_forms_meta(void) {
  /* diag.out is meta_diag under out_wrapper(): o = t(2, dtype=torch.long); torch.diag(t(3, 4), 1, out=o):
     "Attempting to cast from torch.float32 to out tensor with dtype torch.int64, but this can't be cast because
     it is not safe!", o.shape (3,) (resized first) */
  ct_tensor *o = meta(CT_SHAPE(2), CT_INT64);
  CHECK(ct_diag_out(o, meta(CT_SHAPE(3, 4), CT_FLOAT32), 1) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempting to cast from torch.float32 to out tensor with dtype torch.int64, but "
              "this can't be cast because it is not safe!");
  CHECK_SHAPE(o, 3);
  /* torch.diag(t(3, 4), -5, out=t(2)): 'Trying to create tensor with negative dimension -2: [-2]' */
  CHECK(ct_diag_out(meta(CT_SHAPE(2), CT_FLOAT32), meta(CT_SHAPE(3, 4), CT_FLOAT32), -5) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -2: [-2]");
  /* o = t(2, 2); torch.diag(t(3), -1, out=o): o.shape (4, 4), strides (4, 1) */
  o = meta(CT_SHAPE(2, 2), CT_FLOAT32);
  CHECK(ct_diag_out(o, meta(CT_SHAPE(3), CT_FLOAT32), -1) == CT_OK);
  CHECK_SHAPE(o, 4, 4);
  CHECK_STRIDES(o, 4, 1);
  /* o = t(2, 1); torch.diag(t(4, 2), -2, out=o): o keeps shape (2, 1), strides (1, 1): it has the result's two
     elements, so _maybe_resize_out leaves it, and meta's copy_ checks no shapes */
  o = meta(CT_SHAPE(2, 1), CT_FLOAT32);
  CHECK(ct_diag_out(o, meta(CT_SHAPE(4, 2), CT_FLOAT32), -2) == CT_OK);
  CHECK_SHAPE(o, 2, 1);
  CHECK_STRIDES(o, 1, 1);
  /* diff's bool rounds are logical_xor, whose out= on meta is the same out_wrapper: o = t(2, 3, 2,
     dtype=torch.bool); torch.diff(t(3, 4, 2, dtype=torch.bool), 1, -1, out=o): o.shape (2, 3, 2) */
  o = meta(CT_SHAPE(2, 3, 2), CT_BOOL);
  CHECK(ct_diff_out(o, meta(CT_SHAPE(3, 4, 2), CT_BOOL), 1, -1, NULL) == CT_OK);
  CHECK_SHAPE(o, 2, 3, 2);
  /* torch.diff(t(4, 2, 2, dtype=torch.bool).transpose(1, 0), 1, 0): shape (1, 4, 2), strides (8, 2, 1) (the CPU:
     (2, 2, 1)): the functional logical_xor resizes an empty out through that out_wrapper */
  ct_tensor *tb = ct_transpose(meta(CT_SHAPE(4, 2, 2), CT_BOOL), 1, 0);
  ct_tensor *d = tb ? ct_diff(tb, 1, 0, NULL) : NULL;
  check_meta_result(d, CT_BOOL);
  if (d) {
    CHECK_SHAPE(d, 1, 4, 2);
    CHECK_STRIDES(d, 8, 2, 1);
  }
  /* torch.nanmedian(t(3, 0), 1, keepdim=True): shapes (3, 1), (3, 1), no empty-dim check (the CPU's IndexError) */
  ct_tensor *v = NULL, *i = NULL;
  CHECK(ct_nanmedian_dim(meta(CT_SHAPE(3, 0), CT_FLOAT32), 1, &v, &i, &(ct_keepdim_opts){.keepdim = true}) ==
        CT_OK);
  if (v && i) {
    CHECK_SHAPE(v, 3, 1);
    CHECK_SHAPE(i, 3, 1);
    CHECK(ct_dtype_of(i) == CT_INT64);
  }
  /* torch.nanmedian(t(2, 3), 0, out=(t(0), t(0, dtype=torch.long))):
     TypeError "meta_nanmedian_dim() got an unexpected keyword argument 'values'" */
  CHECK(ct_nanmedian_dim_out(meta(CT_SHAPE(0), CT_FLOAT32), meta(CT_SHAPE(0), CT_INT64),
                             meta(CT_SHAPE(2, 3), CT_FLOAT32), 0, NULL) == CT_ERR_TYPE);
  CHECK_ERROR(CT_ERR_TYPE, "meta_nanmedian_dim() got an unexpected keyword argument 'values'");
  /* torch.mode(t(2, 3), 0, out=(t(0), t(0, dtype=torch.long))): 'mode only supports CPU AND CUDA device type,
     got: meta' */
  CHECK(ct_mode_out(meta(CT_SHAPE(0), CT_FLOAT32), meta(CT_SHAPE(0), CT_INT64),
                    meta(CT_SHAPE(2, 3), CT_FLOAT32), NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "mode only supports CPU AND CUDA device type, got: meta");
  /* torch.argsort(t(3), stable=False) and torch.unique(t(3), dim=0): no Meta kernel */
  CHECK(ct_argsort(meta(CT_SHAPE(3), CT_FLOAT32), NULL) == NULL);
  check_no_meta_kernel("aten::argsort.stable");
  ct_tensor *u = NULL;
  CHECK(ct_unique(meta(CT_SHAPE(3), CT_FLOAT32), &u, NULL, NULL, &(ct_unique_opts){.dims = CT_DIMS(0)}) ==
        CT_ERR_NOT_IMPLEMENTED);
  check_no_meta_kernel("aten::unique_dim");
}

int main(void) {
  ct_scope_begin();
  test_index_select();
  test_structured_meta();
  test_join_meta();
  test_keyword_forms_meta();
  ct_scope_end();
  return TEST_SUMMARY();
}
