/* The index ops' C forms (what the differential suite, through ctypes, cannot write): C numbers for scatter's
   and index_fill's value, CT_TENSORS for index_put, results not wanted (NULL) for histogram; a failed call
   leaves its target unchanged; results the same at 1 and 2 threads on inputs large enough to be split.
   Expected values from torch 1.13 (/usr/bin/python3) on x = torch.arange(12.).reshape(3, 4). */
#include <string.h>

#include "check.h"
#include "core/internal.h"

static void values(const ct_tensor *t, const double *want, int64_t n) {
  double got[64];
  CHECK(t && t->numel == n && n <= 64);
  CHECK(ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

static bool same_values(const ct_tensor *a, const ct_tensor *b) {
  ct_tensor *eq = ct_eq(a, b);
  bool ok = eq && a->numel == b->numel;
  ct_scalar all;
  ok = ok && ct_item(ct_all(eq, NULL), &all) == CT_OK && all.v.b;
  return ok;
}

int main(void) {
  ct_scope_begin();
  ct_tensor *x = ct_view(ct_arange_end(12.0, NULL), CT_SHAPE(3, 4));
  ct_tensor *i = CT_TENSOR(CT_L(0, 1), CT_L(2, 0), CT_L(1, 1));
  /* torch.gather(x, 1, i) */
  values(ct_gather(x, 1, i, NULL), (double[]){0, 1, 6, 4, 9, 9}, 6);
  /* torch.scatter(x, 1, i, 2.5, reduce='add'): the value a C double */
  values(ct_scatter_value(x, 1, i, 2.5, &(ct_scatter_opts){.reduce = CT_SCATTER_ADD}),
         (double[]){2.5, 3.5, 2, 3, 6.5, 5, 8.5, 7, 8, 14, 10, 11}, 12);
  /* torch.zeros(3, dtype=torch.int32).index_fill(0, torch.tensor([0, -1]), 7): a C int */
  ct_tensor *z3 = ct_zeros(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT32});
  values(ct_index_fill(z3, 0, CT_TENSOR(0, -1), 7), (double[]){7, 0, 7}, 3);
  /* z.index_put((tensor([0, 0, 2]), tensor([1, 1, 3])), tensor([1., 2., 3.]), True) */
  ct_tensor *z = ct_zeros(CT_SHAPE(3, 4), NULL);
  ct_tensor *r = ct_index_put(z, CT_TENSORS(CT_TENSOR(0, 0, 2), CT_TENSOR(1, 1, 3)), CT_TENSOR(1.0, 2.0, 3.0),
                              &(ct_index_put_opts){.accumulate = true});
  values(r, (double[]){0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 12);
  /* torch.histogram(tensor([1., 2., 1., 4.]), 3): hist [2, 1, 1]; the edges not wanted */
  ct_tensor *h = NULL;
  CHECK(ct_histogram(CT_TENSOR(1.0, 2.0, 1.0, 4.0), 3, &h, NULL, NULL) == CT_OK);
  values(h, (double[]){2, 1, 1}, 3);
  /* one_hot(tensor([2, 0]), 3) */
  values(ct_one_hot(CT_TENSOR(2, 0), 3), (double[]){0, 0, 1, 1, 0, 0}, 6);
  /* masked_select(x, x > 6), nonzero(x > 9) */
  values(ct_masked_select(x, ct_gt(x, 6)), (double[]){7, 8, 9, 10, 11}, 5);
  values(ct_nonzero(ct_gt(x, 9)), (double[]){2, 2, 2, 3}, 4);

  /* a failing in-place call changes nothing: the bad index comes after good ones */
  ct_tensor *y = ct_clone(x, CT_CONTIGUOUS_FORMAT);
  CHECK(ct_scatter_value_(y, 1, CT_TENSOR(CT_L(0, 9)), 1.0, NULL) == CT_ERR_RUNTIME);
  CHECK(strcmp(ct_last_error_message(), "index 9 is out of bounds for dimension 1 with size 4") == 0);
  CHECK(same_values(y, x));
  CHECK(ct_index_add_(y, 0, CT_TENSOR(0, 5), ct_ones(CT_SHAPE(2, 4), NULL), NULL) == CT_ERR_INDEX);
  CHECK(same_values(y, x));
  CHECK(ct_put_(y, CT_TENSOR(1, 12), CT_TENSOR(5.0, 6.0), NULL) == CT_ERR_INDEX);
  if (ct_last_error() != CT_ERR_INDEX) fprintf(stderr, "put_: %s\n", ct_last_error_message());
  CHECK(same_values(y, x));
  CHECK(ct_masked_scatter_(y, ct_gt(y, 2), CT_TENSOR(1.0)) == CT_ERR_RUNTIME);
  CHECK(same_values(y, x));

  /* NULL tensors: a ValueError naming the argument (the histogram entries of the diff table pass a NULL
     weight as "no weight", so their required tensors are checked here) */
  ct_clear_error();
  CHECK(ct_bincount(NULL, NULL) == NULL && ct_last_error() == CT_ERR_VALUE);

  /* bincount whose contiguous int64 copy of the input fails: an error, not the zeros of counting nothing
     (it returned an empty tensor for an expanded input of 2^62 elements, whose copy cannot be sized) */
  ct_clear_error();
  ct_tensor *huge = ct_broadcast_to(ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_INT64}),
                                    CT_SHAPE(INT64_C(1) << 62));
  CHECK(huge && ct_bincount(huge, NULL) == NULL && ct_last_error() == CT_ERR_RUNTIME);
  ct_clear_error();
  ct_tensor *ints = ct_flip(CT_TENSOR(3, 1, 1, 0), CT_DIMS(0)); /* int64, negative stride: copied */
  const double counted[4] = {1, 2, 0, 1};
  bool completed = false;
  for (int64_t k = 0; k < 64 && !completed; k++) {
    ct_debug_fail_allocation_at(k);
    ct_tensor *r = ct_bincount(ints, NULL);
    ct_debug_fail_allocation_at(-1);
    if (r) {
      values(r, counted, 4);
      completed = true;
    } else {
      CHECK(ct_last_error() == CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
    }
  }
  CHECK(completed);
  ct_clear_error();
  CHECK(ct_histogram(NULL, 3, &h, NULL, NULL) == CT_ERR_VALUE);
  ct_clear_error();
  CHECK(ct_histogram_bins(x, NULL, &h, NULL, NULL) == CT_ERR_VALUE);
  ct_clear_error();
  CHECK(ct_histogram_out(NULL, h, x, 3, NULL) == CT_ERR_VALUE);
  ct_clear_error();
  CHECK(ct_histogram_bins_out(h, h, x, NULL, NULL) == CT_ERR_VALUE);

  /* meta tensors hold no index values to read: in-place scatter_ and index_add with alpha != 1 (a float
     self of 2 dims: torch adds slice by slice) check shapes and return, as torch's meta kernels do (both
     crashed reading the index's missing storage) */
  ct_tensor_opts mo = {.device = CT_DEVICE_META}, mi = {.device = CT_DEVICE_META, .dtype = CT_INT64};
  ct_tensor *ms = ct_zeros(CT_SHAPE(2, 4), &mo), *mix = ct_zeros(CT_SHAPE(4), &mi);
  CHECK_EQ_INT(ct_scatter_(ms, 1, ct_zeros(CT_SHAPE(2, 3), &mi), ct_ones(CT_SHAPE(2, 3), &mo), NULL), CT_OK);
  ct_tensor *ma = ct_index_add(ms, 1, mix, ct_ones(CT_SHAPE(2, 4), &mo), &(ct_index_add_opts){.alpha = ct_scalar_int(3)});
  CHECK(ma && ct_device_of(ma).type == CT_META && ma->ndim == 2 && ma->sizes[0] == 2 && ma->sizes[1] == 4);

  /* the same results at 1 and 2 threads, on inputs the pool splits */
  ct_tensor *big = ct_randn(CT_SHAPE(512, 512), NULL);
  ct_tensor *bi = ct_randint(0, 512, CT_SHAPE(512, 512), NULL);
  ct_tensor *res[2][4];
  for (int nt = 1; nt <= 2; nt++) {
    ct_set_num_threads(nt);
    res[nt - 1][0] = ct_scatter_add(big, 1, bi, big);
    res[nt - 1][1] = ct_gather(big, 0, bi, NULL);
    res[nt - 1][2] = ct_masked_select(big, ct_gt(big, 0.0));
    res[nt - 1][3] = ct_nonzero(ct_gt(big, 0.5));
  }
  for (int k = 0; k < 4; k++) CHECK(res[0][k] && res[1][k] && same_values(res[0][k], res[1][k]));
  ct_set_num_threads(0);
  ct_scope_end();
  return TEST_SUMMARY();
}
