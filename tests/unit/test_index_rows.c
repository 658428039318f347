/* The row paths of advanced indexing (index_rows.c: x[idx], x[mask], x[idx] = v, index_put_ with
   accumulate, index_select) and the copy engine on the pool: their edge cases, and results at 1 and 2
   threads. Expected values from torch 1.13 (/usr/bin/python3) on x = torch.arange(24.).reshape(6, 4), or
   computed in closed form where the tensors are large (those run on the pool). */
#include <stdlib.h>

#include "check.h"
#include "core/cpu_isa.h"
#include "core/internal.h"
#include "ops/index/index_ops.h"

static void values(const ct_tensor *t, const double *want, int64_t n) {
  double got[32];
  CHECK(t && t->numel == n && n <= 32);
  if (!t || t->numel != n || n > 32) return;
  CHECK(ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

static double *all_values(const ct_tensor *t) {
  double *v = malloc((size_t)t->numel * sizeof *v);
  CHECK(v && ct_copy_to_buffer(t, v, CT_FLOAT64, (size_t)t->numel * sizeof *v) == CT_OK);
  return v;
}

static ct_tensor *int64_tensor(const int64_t *v, int64_t n) {
  return ct_tensor_from_data(v, CT_INT64, (ct_shape){&n, 1}, NULL);
}

static void small_cases(void) {
  ct_tensor *x = ct_view(ct_arange_end(24.0, NULL), CT_SHAPE(6, 4));
  ct_tensor *idx = CT_TENSOR(5, -1, 0, 2);
  ct_tensor *r = ct_index(x, "%", idx); /* x[[5, -1, 0, 2]]: strides (4, 1) */
  values(r, (double[]){20, 21, 22, 23, 20, 21, 22, 23, 0, 1, 2, 3, 8, 9, 10, 11}, 16);
  CHECK(r && r->strides[0] == 4 && r->strides[1] == 1);
  ct_tensor *i5 = CT_TENSOR(3, 9, 1, 9, 0), *strided = ct_slice(i5, 0, 0, 5, 2); /* [3, 1, 0], stride 2 */
  r = ct_index(x, "%", strided);
  values(r, (double[]){12, 13, 14, 15, 4, 5, 6, 7, 0, 1, 2, 3}, 12);
  ct_tensor *m = CT_TENSOR((bool)1, (bool)0, (bool)1, (bool)0, (bool)0, (bool)1);
  r = ct_index(x, "%", m); /* x[mask] */
  values(r, (double[]){0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23}, 12);
  ct_tensor *empty = ct_slice(idx, 0, 0, 0, 1);
  r = ct_index(x, "%", empty); /* x[empty]: [0, 4] */
  CHECK(r && r->ndim == 2 && r->sizes[0] == 0 && r->sizes[1] == 4);
  ct_tensor *zero_dim = ct_tensor_literal(CT_L(2), NULL);
  ct_tensor *scalar = zero_dim ? ct_view(zero_dim, (ct_shape){NULL, 0}) : NULL;
  r = ct_index(x, "%", scalar); /* x[tensor(2)]: row 2 */
  values(r, (double[]){8, 9, 10, 11}, 4);
  CHECK(r && r->ndim == 1);
  ct_tensor *xt = ct_t(x), *i10 = CT_TENSOR(1, 0);
  r = ct_index(xt, "%", i10); /* x.t()[[1, 0]]: rows not contiguous in x: strides (6, 1) */
  values(r, (double[]){1, 5, 9, 13, 17, 21, 0, 4, 8, 12, 16, 20}, 12);
  CHECK(r && r->strides[0] == 6 && r->strides[1] == 1);
  ct_tensor *bad = CT_TENSOR(1, 6), *bad_neg = CT_TENSOR(-7, 9);
  CHECK(ct_index(x, "%", bad) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "index 6 is out of bounds for dimension 0 with size 6");
  CHECK(ct_index(x, "%", bad_neg) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "index -7 is out of bounds for dimension 0 with size 6");

  /* setitem: a repeated index leaves the last row; a row value broadcasts; out of range changes nothing */
  ct_tensor *y = ct_zeros(CT_SHAPE(6, 4), NULL), *v = ct_view(ct_arange_end(12.0, NULL), CT_SHAPE(3, 4));
  ct_tensor *i131 = CT_TENSOR(1, 3, 1), *i0m2 = CT_TENSOR(0, -2), *row = CT_TENSOR(1.0, 2.0, 3.0, 4.0);
  CHECK(ct_index_put_(y, "%", i131, v) == CT_OK);
  values(y, (double[]){0, 0, 0, 0, 8, 9, 10, 11, 0, 0, 0, 0, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0}, 24);
  CHECK(ct_index_put_(y, "%", i0m2, row) == CT_OK);
  const double after[24] = {1, 2, 3, 4, 8, 9, 10, 11, 0, 0, 0, 0, 4, 5, 6, 7, 1, 2, 3, 4, 0, 0, 0, 0};
  values(y, after, 24);
  ct_tensor *i06 = CT_TENSOR(0, 6);
  CHECK(ct_index_put_(y, "%", i06, row) == CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index 6 is out of bounds for dimension 0 with size 6");
  values(y, after, 24);

  /* accumulate adds in index order: 0 + 1e8 + 4 + 4 is 1e8 in float32 (ties to even), 4 + 4 + 1e8 is 1e8 + 8 */
  ct_tensor *z = ct_zeros(CT_SHAPE(3, 2), NULL);
  ct_tensor *i000 = CT_TENSOR(0, 0, 0), *i222 = CT_TENSOR(2, 2, 2);
  ct_tensor *big_first = ct_to_dtype(CT_TENSOR(CT_L(1e8, 1e8), CT_L(4.0, 4.0), CT_L(4.0, 4.0)), CT_FLOAT32);
  ct_tensor *big_last = ct_to_dtype(CT_TENSOR(CT_L(4.0, 4.0), CT_L(4.0, 4.0), CT_L(1e8, 1e8)), CT_FLOAT32);
  ct_index_put_opts acc = {true};
  CHECK(ct_index_put_tensors_(z, CT_TENSORS(i000), big_first, &acc) == CT_OK);
  CHECK(ct_index_put_tensors_(z, CT_TENSORS(i222), big_last, &acc) == CT_OK);
  values(z, (double[]){1e8, 1e8, 0, 0, 100000008.0, 100000008.0}, 6);

  /* index_select by rows: int32 index, a leading dim of size 1, out of range */
  ct_tensor *i505 = ct_to_dtype(CT_TENSOR(5, 0, 5), CT_INT32);
  r = ct_index_select(x, 0, i505);
  values(r, (double[]){20, 21, 22, 23, 0, 1, 2, 3, 20, 21, 22, 23}, 12);
  ct_tensor *x3 = ct_view(x, CT_SHAPE(1, 6, 4)), *i41 = CT_TENSOR(4, 1);
  r = ct_index_select(x3, 1, i41);
  values(r, (double[]){16, 17, 18, 19, 4, 5, 6, 7}, 8);
  ct_tensor *i6 = CT_TENSOR(6);
  CHECK(ct_index_select(x, 0, i6) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "index out of range in self");
}

/* index_select and x[idx] (negative values) by whole rows of every width class the row copy has (fixed sizes,
   32-byte multiples with and without a 128-byte block, odd widths): row i of the result is row idx[i] of x,
   in closed form. */
static void row_widths(void) {
  static const int64_t widths[] = {1, 2, 4, 8, 16, 24, 32, 40, 64, 72, 96, 128, 160, 256, 288, 1000};
  enum {
    ROWS = 50,
    PICK = 37
  };
  int64_t iv[PICK], neg[PICK];
  for (int64_t i = 0; i < PICK; i++) neg[i] = (iv[i] = (i * 17 + 3) % ROWS) - ROWS;
  ct_tensor *idx = int64_tensor(iv, PICK), *idx_neg = int64_tensor(neg, PICK);
  for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
    int64_t bytes = widths[w];
    uint8_t data[ROWS * 1000];
    for (int64_t k = 0; k < ROWS * bytes; k++) data[k] = (uint8_t)(k % 251);
    ct_tensor *x = ct_tensor_from_data(data, CT_UINT8, CT_SHAPE(ROWS, bytes), NULL);
    for (int form = 0; form < 2; form++) {
      ct_tensor *r = !x ? NULL : form ? ct_index(x, "%", idx_neg) : ct_index_select(x, 0, idx);
      double *got = r ? all_values(r) : NULL;
      bool same = got != NULL;
      for (int64_t i = 0; same && i < PICK; i++)
        for (int64_t k = 0; k < bytes; k++) same &= got[i * bytes + k] == (double)((iv[i] * bytes + k) % 251);
      CHECK(same);
      free(got);
    }
  }
}

/* Large enough for the pool (ct__parallel_threads): the same closed-form results at 1 and 2 threads. */
static void pool_cases(int threads) {
  ct_set_num_threads(threads);
  enum { N = 100000, M = 1000, W = 4 };
  int64_t *iv = malloc(N * sizeof *iv);
  float *vv = malloc((size_t)N * W * sizeof *vv), *xv = malloc((size_t)M * W * sizeof *xv);
  CHECK(iv && vv && xv);
  if (!iv || !vv || !xv) return;
  for (int64_t i = 0; i < N; i++) {
    iv[i] = i % M;
    for (int k = 0; k < W; k++) vv[i * W + k] = (float)i;
  }
  for (int64_t r = 0; r < M; r++)
    for (int k = 0; k < W; k++) xv[r * W + k] = (float)(r * W + k);
  ct_tensor *idx = int64_tensor(iv, N);
  ct_tensor *val = ct_tensor_from_data(vv, CT_FLOAT32, CT_SHAPE(N, W), NULL);
  ct_tensor *y = ct_zeros(CT_SHAPE(M, W), NULL);
  /* y[idx] = val with idx[i] = i % M: row r gets the last i of its class */
  CHECK(ct_index_put_(y, "%", idx, val) == CT_OK);
  double *got = all_values(y);
  bool same = true;
  for (int64_t r = 0; r < M; r++)
    for (int k = 0; k < W; k++) same &= got[r * W + k] == (double)(r + (int64_t)M * ((N - 1 - r) / M));
  CHECK(same);
  free(got);
  /* x[idx]: row i of the result is row i % M of x */
  ct_tensor *x = ct_tensor_from_data(xv, CT_FLOAT32, CT_SHAPE(M, W), NULL);
  ct_tensor *g = ct_index(x, "%", idx);
  got = g ? all_values(g) : NULL;
  same = got != NULL;
  for (int64_t i = 0; same && i < N; i++)
    for (int k = 0; k < W; k++) same &= got[i * W + k] == (double)((i % M) * W + k);
  CHECK(same);
  free(got);
  /* the copy engine: a transposed copy (tiles), one long converted row (pieces), tril (copy and fills) */
  ct_tensor *a = ct_view(ct_arange_end(512.0 * 300.0, NULL), CT_SHAPE(512, 300));
  ct_tensor *b = a ? ct_contiguous(ct_t(a), CT_CONTIGUOUS_FORMAT) : NULL;
  got = b ? all_values(b) : NULL;
  same = got != NULL;
  for (int64_t i = 0; same && i < 300; i++)
    for (int64_t j = 0; j < 512; j++) same &= got[i * 512 + j] == (double)(j * 300 + i);
  CHECK(same);
  free(got);
  double *dv = malloc(100003 * sizeof *dv);
  for (int64_t i = 0; dv && i < 100003; i++) dv[i] = (double)(i % 256);
  int64_t nd = 100003;
  ct_tensor *d = dv ? ct_tensor_from_data(dv, CT_FLOAT64, (ct_shape){&nd, 1}, NULL) : NULL;
  ct_tensor *bf = d ? ct_to_dtype(d, CT_BFLOAT16) : NULL;
  got = bf ? all_values(bf) : NULL;
  same = got != NULL;
  for (int64_t i = 0; same && i < nd; i++) same &= got[i] == (double)(i % 256);
  CHECK(same);
  free(got);
  free(dv);
  ct_tensor *sq = ct_view(ct_arange_end(300.0 * 300.0, NULL), CT_SHAPE(300, 300)), *tl = sq ? ct_tril(sq, 0) : NULL;
  got = tl ? all_values(tl) : NULL;
  same = got != NULL;
  for (int64_t i = 0; same && i < 300; i++)
    for (int64_t j = 0; j < 300; j++) same &= got[i * 300 + j] == (j <= i ? (double)(i * 300 + j) : 0.0);
  CHECK(same);
  free(got);
  free(iv);
  free(vv);
  free(xv);
  ct_set_num_threads(0);
}

/* x[idx] = v with the rows streamed (non-temporal stores: whole 64-byte lines at aligned addresses) and, for
   a target whose rows are not aligned lines, the plain stores: a repeated index leaves the last position's
   row either way, in closed form. Rows of 16, 32 and 64 floats and of 17 (not whole lines); a target one
   float into its buffer (not aligned). */
static void streamed_scatter(void) {
  enum {
    N = 3000,
    M = 700
  };
  static const int64_t widths[] = {16, 32, 64, 17};
  int64_t *iv = malloc(N * sizeof *iv);
  float *vv = malloc((size_t)N * 64 * sizeof *vv);
  CHECK(iv && vv);
  if (!iv || !vv) return;
  /* each row by two adjacent positions (back-to-back stores to one line), 2-3 such pairs apart; some negative */
  for (int64_t i = 0; i < N; i++) iv[i] = (i / 2 * 7919) % M - (i % 3 == 0 ? M : 0);
  ct_tensor *idx = int64_tensor(iv, N);
  ct__idx_set_stream_threshold(1);
  for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
    for (int shifted = 0; shifted < 2; shifted++) {
      int64_t W = widths[w];
      for (int64_t i = 0; i < N * W; i++) vv[i] = (float)(i / W);
      ct_tensor *val = ct_tensor_from_data(vv, CT_FLOAT32, CT_SHAPE(N, W), NULL);
      ct_tensor *flat = ct_zeros(CT_SHAPE(M * W + 1), NULL);
      ct_tensor *y = flat ? ct_view(ct_slice(flat, 0, shifted, M * W + shifted, 1), CT_SHAPE(M, W)) : NULL;
      CHECK(y && ct_index_put_(y, "%", idx, val) == CT_OK);
      double *got = y ? all_values(y) : NULL;
      bool same = got != NULL;
      for (int64_t r = 0; same && r < M; r++) {
        int64_t last = -1;
        for (int64_t i = 0; i < N; i++)
          if ((iv[i] + M) % M == r) last = i;
        for (int64_t k = 0; k < W; k++) same &= got[r * W + k] == (double)last;
      }
      CHECK(same);
      free(got);
    }
  ct__idx_set_stream_threshold(0);
  free(iv);
  free(vv);
}

int main(void) {
  ct_scope_begin(); /* owns every result */
  small_cases();
  row_widths();
  streamed_scatter();
  for (int level = CT_ISA_GENERIC; level < CT_ISA_AVX512; level++) { /* the baseline and AVX2 row copies */
    ct__cpu_force_isa(level);
    row_widths();
    streamed_scatter();
  }
  ct__cpu_force_isa(-1);
  pool_cases(1);
  pool_cases(2);
  ct_scope_end();
  return TEST_SUMMARY();
}
