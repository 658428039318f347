/* Copies written with non-temporal stores (kernels/cpu/stream_copy.c) and cat's use of them for results
   beyond the last-level cache (cat_stack.c): the bytes are the source's for every length and every
   alignment of source and destination, at the AVX2 and the baseline level, and a streamed cat equals the
   same cat with plain stores, at 1 and 2 threads. Expected values: the source bytes themselves, and the
   cat of torch.cat's definition written out in closed form. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/cpu_isa.h"
#include "core/internal.h"
#include "iter/iter.h"
#include "kernels/cpu/stream_copy.h"

/* Every length up to 300 bytes and a few long ones, from every source and destination offset mod 32; the
   guard bytes around the destination stay as they were. */
static void copies(void) {
  enum {
    CAP = 5000,
    GUARD = 64
  };
  unsigned char *src = malloc(CAP + 64), *dst = malloc(CAP + 64 + 2 * GUARD);
  CHECK(src && dst);
  if (!src || !dst) return;
  for (int i = 0; i < CAP + 64; i++) src[i] = (unsigned char)(i * 37 + 11);
  static const size_t longs[] = {1000, 4096, 4099, 4961};
  bool same = true;
  for (size_t li = 0; li < 300 + sizeof longs / sizeof *longs; li++) {
    size_t n = li < 300 ? li : longs[li - 300];
    for (int so = 0; so < 32; so++)
      for (int dof = 0; dof < 32; dof++) {
        size_t span = n + 32 + 2 * GUARD; /* the region around the copy */
        memset(dst, 0xA5, span);
        ct__stream_copy(dst + GUARD + dof, src + so, n);
        same &= memcmp(dst + GUARD + dof, src + so, n) == 0;
        for (size_t g = 0; g < span; g++)
          if (g < (size_t)(GUARD + dof) || g >= GUARD + dof + n) same &= dst[g] == 0xA5;
      }
  }
  CHECK(same);
  free(src);
  free(dst);
}

/* cat of k float32 tensors [rows, w_i] along dim 1 (blocks that start at any 4-byte offset) and along dim
   0, streamed: element (r, c) of input i is i * 1e6 + r * 1000 + c, so the result is known in closed form. */
static void cats(int threads) {
  ct_set_num_threads(threads);
  enum {
    K = 5,
    ROWS = 301
  };
  static const int64_t w[K] = {1, 7, 64, 333, 1000}; /* 1405 columns: 420905 elements, the pool's size */
  ct_tensor *in[K];
  int64_t total = 0;
  for (int i = 0; i < K; i++) {
    float *v = malloc((size_t)(ROWS * w[i]) * sizeof *v);
    CHECK(v != NULL);
    if (!v) return;
    for (int64_t r = 0; r < ROWS; r++)
      for (int64_t c = 0; c < w[i]; c++) v[r * w[i] + c] = (float)(i * 1000000 + r * 1000 + c);
    in[i] = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(ROWS, w[i]), NULL);
    free(v);
    total += w[i];
  }
  ct__iter_set_stream_threshold(1); /* every cat below streams */
  ct_tensor *by_col = ct_cat((ct_tensors){(const ct_tensor *const *)in, K}, 1);
  ct_tensor *out = ct_empty(CT_SHAPE(ROWS, total), NULL);
  CHECK(ct_cat_out(out, (ct_tensors){(const ct_tensor *const *)in, K}, 1) == CT_OK);
  ct_tensor *t[K];
  for (int i = 0; i < K; i++) t[i] = ct_contiguous(ct_t(in[i]), CT_CONTIGUOUS_FORMAT); /* [w_i, ROWS] */
  ct_tensor *by_row = ct_cat((ct_tensors){(const ct_tensor *const *)t, K}, 0);
  ct__iter_set_stream_threshold(0);
  CHECK(by_col && by_row);
  if (!by_col || !by_row) return;
  const float *a = ct_data_ptr(by_col), *o = ct_data_ptr(out), *b = ct_data_ptr(by_row);
  bool same = true;
  for (int64_t r = 0; r < ROWS; r++) {
    int64_t c0 = 0;
    for (int i = 0; i < K; i++) {
      for (int64_t c = 0; c < w[i]; c++) {
        float want = (float)(i * 1000000 + r * 1000 + c);
        same &= a[r * total + c0 + c] == want && o[r * total + c0 + c] == want;
        same &= b[(c0 + c) * ROWS + r] == want;
      }
      c0 += w[i];
    }
  }
  CHECK(same);
  ct_set_num_threads(0);
}

int main(void) {
  ct_scope_begin();
  copies();
  cats(1);
  cats(2);
  ct__cpu_force_isa(CT_ISA_GENERIC); /* the SSE2 body */
  copies();
  cats(1);
  ct__cpu_force_isa(-1);
  ct_scope_end();
  return TEST_SUMMARY();
}
