/* ct_index's C forms (what the differential suite, through ctypes, cannot write): the spec string with C
   integers, bools and tensors for its placeholders, the item list with numbers and CT_IDX_* items, and the
   errors of a malformed call. Expected values from torch 1.13 (/usr/bin/python3) on
   x = torch.arange(24.).reshape(2, 3, 4); tests/diff/ops_index.py covers indexing in depth. */
#include <string.h>

#include "check.h"
#include "core/internal.h"

static void values(const ct_tensor *t, const double *want, int64_t n) {
  double got[32];
  CHECK(t && t->numel == n && n <= 32);
  CHECK(ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

static void geometry(const ct_tensor *t, int64_t nd, const int64_t *sizes, const int64_t *strides, int64_t offset) {
  CHECK(t && t->ndim == nd && t->offset == offset);
  for (int64_t d = 0; d < nd; d++) CHECK(t->sizes[d] == sizes[d] && t->strides[d] == strides[d]);
}

int main(void) {
  ct_tensor *x24 = ct_arange_end(24.0, NULL), *x = ct_view(x24, CT_SHAPE(2, 3, 4));
  ct_release(x24);
  CHECK(x);
  int i = 1;
  ct_tensor *r = ct_index(x, "%, -1", i); /* x[i, -1]: [20, 21, 22, 23], stride (1,), offset 20 */
  geometry(r, 1, (int64_t[]){4}, (int64_t[]){1}, 20);
  values(r, (double[]){20, 21, 22, 23}, 4);
  CHECK(r->storage == x->storage); /* a view */
  ct_release(r);
  long a = 1, b = 3;
  r = ct_index(x, ":, %:%", a, b); /* x[:, a:b]: [2, 2, 4], strides (12, 4, 1), offset 4 */
  geometry(r, 3, (int64_t[]){2, 2, 4}, (int64_t[]){12, 4, 1}, 4);
  ct_release(r);
  r = ct_index(x, "1:, ::2, None, ..."); /* [1, 2, 1, 4], strides (12, 8, 4, 1), offset 12 */
  geometry(r, 4, (int64_t[]){1, 2, 1, 4}, (int64_t[]){12, 8, 4, 1}, 12);
  ct_release(r);
  ct_tensor *m = CT_TENSOR((bool)1, (bool)0, (bool)1);
  r = ct_index(x, ":, %", m); /* x[:, m]: [2, 2, 4], strides (8, 4, 1), a copy */
  geometry(r, 3, (int64_t[]){2, 2, 4}, (int64_t[]){8, 4, 1}, 0);
  values(r, (double[]){0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23}, 16);
  CHECK(r->storage != x->storage);
  ct_release(r);
  ct_tensor *idx = CT_TENSOR(2, 0);
  r = ct_index(x, CT_IDX_ALL, 0, idx); /* x[:, 0, idx]: [[2, 0], [14, 12]], strides (2, 1) */
  geometry(r, 2, (int64_t[]){2, 2}, (int64_t[]){2, 1}, 0);
  values(r, (double[]){2, 0, 14, 12}, 4);
  ct_release(r);
  ct_tensor *i01 = CT_TENSOR(1, 0);
  r = ct_index(x, "%, :, %", i01, idx); /* x[[1, 0], :, [2, 0]]: [[14, 18, 22], [0, 4, 8]], strides (3, 1) */
  geometry(r, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
  values(r, (double[]){14, 18, 22, 0, 4, 8}, 6);
  ct_release(r);
  r = ct_index(x, ""); /* x[()]: an alias */
  geometry(r, 3, (int64_t[]){2, 3, 4}, (int64_t[]){12, 4, 1}, 0);
  ct_release(r);

  /* Two Ellipses: each skips ndim - specified dims, which can carry the dim cursor past the view's last dim;
     torch then reads the size there from its sizes-and-strides storage (0 up to 5 dims, then the strides).
     x[..., None, ..., 0:12]: the cursor at 5 reads stride 12 of the (2, 3, 1, 4) view, 0:12 is the whole
     dim: [2, 3, 1, 4], strides (12, 4, 4, 1), offset 0 */
  r = ct_index(x, "..., None, ..., 0:12");
  geometry(r, 4, (int64_t[]){2, 3, 1, 4}, (int64_t[]){12, 4, 4, 1}, 0);
  ct_release(r);
  CHECK(ct_index(x, "..., None, ..., 0:11") == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-4, 3], but got 5)");
  CHECK(ct_index(x, "..., 0, ..., 0") == NULL); /* the cursor at 2 of a 2-dim view reads size 0 */
  CHECK_ERROR(CT_ERR_INDEX, "index 0 is out of bounds for dimension 3 with size 0");
  {
    /* z = torch.arange(12.).reshape(1, 4, 1, 3); z[..., t0, -1:0:3, ..., :0] with t0 = torch.tensor(2):
       [1, 0, 3], strides (12, 9, 1), offset 6; z[..., t0, -1:0:3, ..., :0] = 5. writes nothing */
    ct_tensor *z12 = ct_arange_end(12.0, NULL), *z = ct_view(z12, CT_SHAPE(1, 4, 1, 3));
    ct_release(z12);
    ct_tensor *t0 = ct_scalar_tensor(CT_INT(2), (&(ct_tensor_opts){.dtype = CT_INT64}));
    r = ct_index(z, "..., %, -1:0:3, ..., :0", t0);
    geometry(r, 3, (int64_t[]){1, 0, 3}, (int64_t[]){12, 9, 1}, 6);
    ct_release(r);
    CHECK(ct_index_put_(z, "..., %, -1:0:3, ..., :0", t0, 5.0) == CT_OK);
    values(z, (double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 12);
    /* x2 = torch.arange(24.).reshape(2, 3, 4); x2[..., 1, ..., :0] = -1: the cursor at 2 of the (2, 4) view
       reads size 0, so :0 is the whole dim and x2[:, 1] is written */
    ct_tensor *x2 = ct_clone(x, CT_MEMORY_FORMAT_UNSET);
    CHECK(ct_index_put_(x2, "..., 1, ..., :0", -1) == CT_OK);
    values(x2, (double[]){0,  1,  2,  3,  -1, -1, -1, -1, 8,  9,  10, 11,
                          12, 13, 14, 15, -1, -1, -1, -1, 20, 21, 22, 23},
           24);
    ct_release(x2);
    ct_release(t0);
    ct_release(z);
  }

  /* t[...] = value (torch 1.13 on y = torch.arange(12.).reshape(3, 4)) */
  ct_tensor *y12 = ct_arange_end(12.0, NULL), *y = ct_view(y12, CT_SHAPE(3, 4));
  ct_release(y12);
  ct_tensor *rows = CT_TENSOR((bool)1, (bool)0, (bool)1);
  CHECK(ct_index_put_(y, "%, 1:", rows, 0.5) == CT_OK); /* y[rows, 1:] = 0.5 */
  values(y, (double[]){0, 0.5, 0.5, 0.5, 4, 5, 6, 7, 8, 0.5, 0.5, 0.5}, 12);
  ct_tensor *cols = CT_TENSOR(2, 0), *v = CT_TENSOR(7.0, 8.0);
  CHECK(ct_index_put_(y, 0, cols, v) == CT_OK); /* y[0, [2, 0]] = [7., 8.] */
  values(y, (double[]){8, 0.5, 7, 0.5, 4, 5, 6, 7, 8, 0.5, 0.5, 0.5}, 12);
  CHECK(ct_index_put_(y, "1", 3) == CT_OK); /* y[1] = 3 */
  values(y, (double[]){8, 0.5, 7, 0.5, 3, 3, 3, 3, 8, 0.5, 0.5, 0.5}, 12);
  ct_tensor *big = CT_TENSOR(0, 9); /* y[0, [0, 9]] = 1.: out of range, nothing written */
  CHECK(ct_index_put_(y, 0, big, 1.0) == CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index 9 is out of bounds for dimension 0 with size 4");
  values(y, (double[]){8, 0.5, 7, 0.5, 3, 3, 3, 3, 8, 0.5, 0.5, 0.5}, 12);
  ct_tensor *iv = CT_TENSOR(1, 2); /* int64 value into a float tensor through index tensors */
  CHECK(ct_index_put_(y, ":, %", cols, iv) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Index put requires the source and destination dtypes match, got Float for the "
                              "destination and Long for the source.");
  ct_release(iv);
  ct_release(big);
  ct_release(v);
  ct_release(cols);
  ct_release(rows);
  ct_release(y);

  /* errors: torch's where torch has one, a ValueError naming the spec otherwise */
  CHECK(ct_index(x, "5") == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "index 5 is out of bounds for dimension 0 with size 2");
  CHECK(ct_index(x, "0, 0, 0, 0") == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "too many indices for tensor of dimension 3");
  CHECK(ct_index(x, 1.5) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                            "valid indices (got float)");
  CHECK(ct_index(x, "::0") == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "slice step cannot be zero");
  CHECK(ct_index(x, "%, %", i) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_index: invalid index spec \"%, %\" at position 3: a placeholder '%' without its argument");
  CHECK(ct_index(x, "0", i) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_index: the spec \"0\" has 0 placeholders but 1 arguments were given");
  CHECK(ct_index(x, "0 1") == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_index: invalid index spec \"0 1\" at position 2: expected ',' or the end of the spec");
  CHECK(ct_index(x, ":, %", (ct_tensor *)NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_index: argument 'tensor' is NULL (item 1)");
  CHECK(ct_index((ct_tensor *)NULL, "0") == NULL);
  /* "ct_index_items: " comes first where the library's exported symbols can be looked up (the shared build) */
  CHECK(ct_last_error() == CT_ERR_VALUE && strstr(ct_last_error_message(), "argument 't' is NULL"));
  ct_clear_error();
  CHECK(ct_index_items(x, NULL, 2) == NULL);
  CHECK(ct_last_error() == CT_ERR_VALUE && strstr(ct_last_error_message(), "argument 'items' is NULL"));
  ct_clear_error();

  ct_release(idx);
  ct_release(i01);
  ct_release(m);
  ct_release(x);
  return TEST_SUMMARY();
}
