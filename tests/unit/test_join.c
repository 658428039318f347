/* join.h's C forms (what the differential suite, through ctypes, cannot write): CT_TENSORS lists written in
   place, ct_tensors_of over a returned list, the checking macros with options compound literals, and
   ownership in scopes (results and list results released by ct_scope_end; LSan in the ASan build catches a
   leak). Expected values from torch 1.13 (/usr/bin/python3), cited at each check with a = arange(6.).reshape(2, 3);
   tests/diff/ops_join.py covers the ops in depth. */
#include "check.h"

static void values(const ct_tensor *t, const double *want, int64_t n) {
  double got[32];
  CHECK(t && ct_numel(t) == n && n <= 32);
  if (!t || n > 32) return;
  CHECK(ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

static void shape(const ct_tensor *t, int64_t nd, const int64_t *sizes, const int64_t *strides) {
  CHECK(t && ct_ndim(t) == nd);
  if (!t) return;
  for (int64_t d = 0; d < nd; d++) {
    CHECK_EQ_INT(ct_size(t, d), sizes[d]);
    if (strides) CHECK_EQ_INT(ct_stride(t, d), strides[d]);
  }
}

/* Sizes that overflow int64 (expanded inputs of 2^62 and 2^63 - 2 elements, repeats summing past 2^63): torch
   1.13 computes them in wrapping int64 and fails on the wrapped values; each message below is torch's for the
   same call ([2^62] * 4 repeats crash torch: refused here). These were signed overflows (UBSan) and heap
   overflows (repeat_interleave's counts sized in a wrapped size_t). */
static void test_overflowing_sizes(void) {
  ct_scope_begin();
  ct_tensor *x62 = ct_broadcast_to(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(INT64_C(1) << 62));
  ct_tensor *xmax = ct_broadcast_to(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(INT64_MAX - 1));
  CHECK(!ct_tile(x62, CT_SHAPE(4)));
  CHECK_STR(ct_last_error_message(),
            "maximum size for tensor at dimension 0 is 0 but size is 4611686018427387904");
  CHECK(!ct_tile(xmax, CT_SHAPE(4)));
  CHECK_STR(ct_last_error_message(), "Trying to create tensor with negative dimension -8: [-8]");
  /* a wrapped size below -2^62 fails at empty's IntArrayRef-to-SymInt conversion first (torch 1.13), one of
     -2^62 at its negative-size check */
  ct_tensor *x57 = ct_broadcast_to(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(5787354564543905791));
  CHECK(!ct_repeat(x57, CT_SHAPE(2)));
  CHECK_STR(ct_last_error_message(), "IntArrayRef contains an int that cannot be represented as a SymInt: "
                                     "-6872034944621740034");
  CHECK(!ct_repeat(x62, CT_SHAPE(3)));
  CHECK_STR(ct_last_error_message(),
            "Trying to create tensor with negative dimension -4611686018427387904: [-4611686018427387904]");
  /* a zero repeat returns before the wrapped sizes are checked: torch's [0, 0] and [0, 2^62] */
  ct_tensor *row62 = ct_unsqueeze(x62, 0), *z;
  CHECK((z = ct_repeat(row62, CT_SHAPE(0, 4))) && ct_sizes(z)[0] == 0 && ct_sizes(z)[1] == 0);
  CHECK((z = ct_repeat(row62, CT_SHAPE(0, 5))) && ct_sizes(z)[0] == 0 && ct_sizes(z)[1] == INT64_C(1) << 62);
  CHECK(!ct_repeat(row62, CT_SHAPE(2, 4)));
  CHECK_STR(ct_last_error_message(),
            "maximum size for tensor at dimension 1 is 0 but size is 4611686018427387904");
  CHECK(!ct_kron(x62, x62));
  CHECK_STR(ct_last_error_message(),
            "Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]");
  const ct_tensor *pair[2] = {x62, x62}, *pair_max[2] = {xmax, xmax};
  CHECK(!ct_block_diag((ct_tensors){pair, 2}));
  CHECK_STR(ct_last_error_message(),
            "IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808");
  CHECK(!ct_block_diag((ct_tensors){pair_max, 2}));
  CHECK_STR(ct_last_error_message(), "Trying to create tensor with negative dimension -4: [2, -4]");
  const ct_tensor *with_3d[3] = {x62, x62, ct_zeros(CT_SHAPE(2, 2, 2), NULL)}; /* every input is checked */
  CHECK(!ct_block_diag((ct_tensors){with_3d, 3}));
  CHECK_STR(ct_last_error_message(),
            "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 2 has 3 dimensions");
  int64_t r3[3] = {INT64_C(1) << 62, INT64_C(1) << 62, INT64_C(1) << 62};
  int64_t r4[4] = {INT64_C(1) << 62, INT64_C(1) << 62, INT64_C(1) << 62, INT64_C(1) << 62};
  CHECK(!ct_repeat_interleave_repeats(ct_tensor_from_data(r3, CT_INT64, CT_SHAPE(3), NULL), NULL));
  CHECK_STR(ct_last_error_message(), "Trying to create tensor with negative dimension -4611686018427387904: "
                                     "[-4611686018427387904]");
  CHECK(!ct_repeat_interleave_repeats(ct_tensor_from_data(r4, CT_INT64, CT_SHAPE(4), NULL), NULL));
  CHECK(ct_last_error() == CT_ERR_RUNTIME);
  ct_tensor *threes = ct_broadcast_to(ct_full(CT_SHAPE(1), CT_INT(3), &(ct_tensor_opts){.dtype = CT_INT64}),
                                      CT_SHAPE(INT64_C(1) << 62));
  CHECK(!ct_repeat_interleave_repeats(threes, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  CHECK(!ct_repeat_interleave(x62, 4, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  ct_clear_error();
  ct_scope_end();
}

int main(void) {
  test_overflowing_sizes();
  CHECK(ct_scope_begin() == CT_OK);
  ct_tensor *a = ct_view(ct_arange_end(6.0, NULL), CT_SHAPE(2, 3));
  ct_tensor *b = CT_TENSOR(CT_L(10, 11, 12)); /* int64: cat promotes to float32 */

  /* torch.cat([a, b]): [[0, 1, 2], [3, 4, 5], [10, 11, 12]], float32 */
  ct_tensor *c = ct_cat(CT_TENSORS(a, b), 0);
  shape(c, 2, (int64_t[]){3, 3}, (int64_t[]){3, 1});
  CHECK(c && ct_dtype_of(c) == CT_FLOAT32);
  values(c, (double[]){0, 1, 2, 3, 4, 5, 10, 11, 12}, 9);

  /* torch.stack([a, a], 1).stride() == (6, 3, 1) */
  shape(ct_stack(CT_TENSORS(a, a), 1), 3, (int64_t[]){2, 2, 3}, (int64_t[]){6, 3, 1});

  /* a list result read back as a list argument: cat(split(a, 1, 1), 1) is a again */
  ct_tensor_list *cols = ct_split(a, 1, 1);
  CHECK(cols && cols->n == 3);
  values(ct_cat(ct_tensors_of(cols), 1), (double[]){0, 1, 2, 3, 4, 5}, 6);

  /* meshgrid(arange(3), arange(2), indexing='xy'): [[0, 1, 2], [0, 1, 2]] strides (0, 1) and
     [[0, 0, 0], [1, 1, 1]] strides (1, 0), views of the inputs */
  ct_tensor *r3 = ct_arange_end(3, NULL), *r2 = ct_arange_end(2, NULL);
  ct_tensor_list *g = ct_meshgrid(CT_TENSORS(r3, r2), &(ct_meshgrid_opts){.indexing = CT_MESHGRID_XY});
  CHECK(g && g->n == 2);
  if (g && g->n == 2) {
    shape(g->items[0], 2, (int64_t[]){2, 3}, (int64_t[]){0, 1});
    values(g->items[0], (double[]){0, 1, 2, 0, 1, 2}, 6);
    shape(g->items[1], 2, (int64_t[]){2, 3}, (int64_t[]){1, 0});
    values(g->items[1], (double[]){0, 0, 0, 1, 1, 1}, 6);
  }

  /* repeat_interleave(a, 2, 0): [[0, 1, 2], [0, 1, 2], [3, 4, 5], [3, 4, 5]] */
  values(ct_repeat_interleave(a, 2, &(ct_repeat_interleave_opts){.dim = CT_DIMS(0)}),
         (double[]){0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, 12);
  /* roll(a, 1): [[5, 0, 1], [2, 3, 4]]; rot90(a): [[2, 5], [1, 4], [0, 3]] with strides (1, 3) */
  values(ct_roll(a, CT_SHAPE(1), NULL), (double[]){5, 0, 1, 2, 3, 4}, 6);
  ct_tensor *rot = ct_rot90(a, 1, NULL);
  shape(rot, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3});
  values(rot, (double[]){2, 5, 1, 4, 0, 3}, 6);
  /* tril(a): [[0, 0, 0], [3, 4, 0]]; triu_indices(3, 3, 1): [[0, 0, 1], [1, 2, 2]] */
  values(ct_tril(a, 0), (double[]){0, 0, 0, 3, 4, 0}, 6);
  values(ct_triu_indices(3, 3, 1, NULL), (double[]){0, 0, 1, 1, 2, 2}, 6);
  /* combinations(arange(4), 3): [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] */
  values(ct_combinations(ct_arange_end(4, NULL), 3, NULL), (double[]){0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3}, 12);
  /* diff(a, 1, 1, prepend=zeros(2, 1)): [[0, 1, 1], [3, 1, 1]] */
  ct_tensor *z = ct_zeros(CT_SHAPE(2, 1), NULL);
  values(ct_diff(a, 1, 1, &(ct_diff_opts){.prepend = z}), (double[]){0, 1, 1, 3, 1, 1}, 6);
  /* kron([[1, 2], [3, 4]], [[1, 10]]): [[1, 10, 2, 20], [3, 30, 4, 40]] */
  values(ct_kron(CT_TENSOR(CT_L(1, 2), CT_L(3, 4)), CT_TENSOR(CT_L(1, 10))), (double[]){1, 10, 2, 20, 3, 30, 4, 40}, 8);
  /* zeros(5, 2).fill_diagonal_(7, wrap=True): 7 at (0, 0), (1, 1), (3, 0), (4, 1) */
  ct_tensor *f = ct_zeros(CT_SHAPE(5, 2), NULL);
  CHECK(ct_fill_diagonal_(f, 7, &(ct_fill_diagonal_opts){.wrap = true}) == CT_OK);
  values(f, (double[]){7, 0, 0, 7, 0, 0, 7, 0, 0, 7}, 10);

  /* errors: torch's messages, and a failed out= call leaves out as it was */
  CHECK(ct_cat((ct_tensors){NULL, 0}, 0) == NULL);
  CHECK_STR(ct_last_error_message(), "torch.cat(): expected a non-empty list of Tensors");
  ct_clear_error(); /* a NULL entry is a ValueError of its own when no earlier error is pending */
  CHECK(ct_cat(CT_TENSORS(a, NULL), 0) == NULL && ct_last_error() == CT_ERR_VALUE);
  ct_tensor *o = ct_empty(CT_SHAPE(3, 3), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_cat_out(o, CT_TENSORS(a, b), 0) == CT_ERR_RUNTIME);
  CHECK_STR(ct_last_error_message(), "torch.cat(): input types can't be cast to the desired output type Int");
  shape(o, 2, (int64_t[]){3, 3}, (int64_t[]){3, 1});
  ct_scope_end();

  /* outside a scope the caller owns results and lists */
  ct_tensor *x = ct_ones(CT_SHAPE(2), NULL);
  ct_tensor_list *l = ct_atleast_2d_list(CT_TENSORS(x, x));
  CHECK(l && l->n == 2 && ct_ndim(l->items[1]) == 2);
  ct_tensor_list_release(l);
  ct_tensor *h = ct_hstack(CT_TENSORS(x, x));
  shape(h, 1, (int64_t[]){4}, NULL);
  ct_release(h);
  ct_release(x);
  return TEST_SUMMARY();
}
