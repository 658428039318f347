/* masked_select's branch-free compaction (src/ops/index/mask_compact.c) against its definition: the
   elements under non-zero mask bytes, in row-major order (torch.masked_select's documented order). Inputs
   long enough for several chunks (the pool's parts of the result end where the next one starts), masks of
   any byte value (a uint8 mask is true where its byte is non-zero, as torch reads it), runs all true and
   all false at chunk ends, element sizes 1 to 16, at 1 and 2 threads and at the AVX2 and generic levels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/cpu_isa.h"

enum {
  N = 300007
}; /* 5 chunks of 65536 and a ragged end */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* mask byte j: random bytes (0 about half the time), all true over [65536 - 40, 65536 + 40), all false over
   [2 * 65536 - 40, 2 * 65536 + 40) */
static void fill_mask(unsigned char *m, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    uint64_t r = next();
    m[j] = (r & 1) ? 0 : (unsigned char)(1 + (r >> 8) % 255);
    if (j >= 65536 - 40 && j < 65536 + 40) m[j] = 1 + (unsigned char)(j & 3);
    if (j >= 2 * 65536 - 40 && j < 2 * 65536 + 40) m[j] = 0;
  }
}

static void check_dtype(ct_dtype dt, size_t isz, const unsigned char *m, const ct_tensor *mask) {
  unsigned char *x = malloc(N * isz), *want = malloc(N * isz), *got = malloc(N * isz);
  for (size_t b = 0; b < N * isz; b++) x[b] = (unsigned char)next();
  if (dt == CT_BOOL)
    for (int64_t j = 0; j < N; j++) x[j] &= 1;
  int64_t k = 0;
  for (int64_t j = 0; j < N; j++)
    if (m[j]) memcpy(want + k++ * isz, x + j * isz, isz);
  ct_tensor *t = ct_tensor_from_data(x, dt, CT_SHAPE(N), NULL);
  for (int nt = 1; nt <= 2; nt++) {
    ct_set_num_threads(nt);
    ct_tensor *r = ct_masked_select(t, mask);
    CHECK(r && ct_numel(r) == k && ct_dtype_of(r) == dt);
    if (r && ct_numel(r) == k) {
      CHECK(ct_copy_to_buffer(r, got, dt, N * isz) == CT_OK);
      CHECK(memcmp(got, want, (size_t)k * isz) == 0);
    }
  }
  ct_set_num_threads(0);
  free(x);
  free(want);
  free(got);
}

int main(void) {
  ct_scope_begin();
  unsigned char *m = malloc(N);
  fill_mask(m, N);
  ct_tensor *mask_u8 = ct_tensor_from_data(m, CT_UINT8, CT_SHAPE(N), NULL);
  static const struct {
    ct_dtype dt;
    size_t isz;
  } types[] = {{CT_BOOL, 1},  {CT_INT16, 2},   {CT_FLOAT32, 4},    {CT_INT32, 4},
               {CT_INT64, 8}, {CT_FLOAT64, 8}, {CT_COMPLEX128, 16}};
  for (int level = 0; level < 2; level++) {
    ct__cpu_force_isa(level == 0 ? -1 : CT_ISA_GENERIC);
    for (size_t d = 0; d < sizeof types / sizeof *types; d++)
      check_dtype(types[d].dt, types[d].isz, m, mask_u8);
  }
  ct__cpu_force_isa(-1);
  free(m);
  ct_scope_end();
  return TEST_SUMMARY();
}
