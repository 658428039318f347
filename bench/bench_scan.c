/* Times ctorch's scans on their own (no Python): cumsum of 16M float32 (uniform [0, 1) values on a
   2^-24 grid like torch.rand, and normal-like values), into a preallocated out= tensor and as a new
   tensor, and cumsum of 4096x4096 along each dim. Prints "name milliseconds" lines (the median of REPS
   runs); scan_bench.py pairs the same calls with torch in one process.
   Usage: bench_scan [threads] [reps] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ctorch.h>

#include "bench_util.h"

static ct_tensor *filled(int64_t n, int normal) {
  float *v = malloc((size_t)n * sizeof *v);
  if (!v) return NULL;
  for (int64_t i = 0; i < n; i++) {
    float u = (float)(next() >> 40) * 0x1p-24f; /* torch.rand's grid */
    if (normal) {
      float w = ((float)(next() >> 40) + 1.0f) * 0x1p-24f;
      u = sqrtf(-2.0f * logf(w)) * cosf(6.2831853f * u); /* Box-Muller */
    }
    v[i] = u;
  }
  ct_tensor *t = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(n), NULL);
  free(v);
  return t;
}

typedef struct bench_case {
  const char *name;
  ct_tensor *x, *out;
  int64_t dim;
} bench_case;

static double time_case(const bench_case *c, int reps) {
  double t[64];
  if (reps > 64) reps = 64;
  for (int r = -1; r < reps; r++) {
    double t0 = now();
    if (c->out) {
      ct_cumsum_out(c->out, c->x, c->dim, NULL);
    } else {
      ct_release(ct_cumsum(c->x, c->dim, NULL));
    }
    if (r >= 0) t[r] = now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp);
  return t[reps / 2];
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 0, reps = argc > 2 ? atoi(argv[2]) : 7;
  if (threads > 0) ct_set_num_threads(threads);
  const int64_t n = 16 << 20;
  ct_tensor *rand16 = filled(n, 0), *normal16 = filled(n, 1), *out16 = ct_empty(CT_SHAPE(n), NULL);
  ct_tensor *mat = ct_reshape(normal16, CT_SHAPE(4096, 4096)), *outm = ct_empty(CT_SHAPE(4096, 4096), NULL);
  if (!rand16 || !normal16 || !out16 || !mat || !outm) {
    fprintf(stderr, "bench_scan: %s\n", ct_last_error_message());
    return 1;
  }
  const bench_case cases[] = {
      {"cumsum_16M_f32_rand_out", rand16, out16, 0},
      {"cumsum_16M_f32_rand_new", rand16, NULL, 0},
      {"cumsum_16M_f32_normal_out", normal16, out16, 0},
      {"cumsum_4096x4096_dim0_out", mat, outm, 0},
      {"cumsum_4096x4096_dim1_out", mat, outm, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    printf("%s %.3f\n", cases[i].name, 1e3 * time_case(&cases[i], reps));
  ct_release(rand16);
  ct_release(normal16);
  ct_release(out16);
  ct_release(mat);
  ct_release(outm);
  return 0;
}
