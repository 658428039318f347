/* Times ctorch's reductions on their own (no Python), float32 normal-like data: sum, mean, max, argmax
   and var of 16M elements, sum over each dim of 4096x4096, argmax, var and logsumexp over dim 1 of
   4096x4096. Prints "name milliseconds" lines (the median of REPS runs) and the bandwidth of the 16M
   sum; reduce_bench.py pairs the same calls with torch in one process.
   Usage: bench_reduce [threads] [reps] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ctorch.h>

#include "bench_util.h"

static ct_tensor *normal(int64_t n) {
  float *v = malloc((size_t)n * sizeof *v);
  if (!v) return NULL;
  for (int64_t i = 0; i < n; i++) {
    float u = (float)(next() >> 40) * 0x1p-24f, w = ((float)(next() >> 40) + 1.0f) * 0x1p-24f;
    v[i] = sqrtf(-2.0f * logf(w)) * cosf(6.2831853f * u); /* Box-Muller */
  }
  ct_tensor *t = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(n), NULL);
  free(v);
  return t;
}

typedef enum { SUM, MEAN, MAX, ARGMAX, VAR, LSE } op_kind;

typedef struct bench_case {
  const char *name;
  op_kind op;
  int dim; /* -1: every dim */
  int mat; /* 4096x4096 input instead of 16M */
} bench_case;

static ct_tensor *call(const bench_case *c, const ct_tensor *x) {
  const int64_t dim[1] = {c->dim};
  ct_reduce_opts o = {0};
  ct_var_opts vo = {0};
  if (c->dim >= 0) o.dims = vo.dims = (ct_dims){dim, 1};
  switch (c->op) {
    case SUM: return ct_sum(x, &o);
    case MEAN: return ct_mean(x, &o);
    case MAX: return ct_max(x);
    case ARGMAX: return ct_argmax(x, &o);
    case VAR: return ct_var(x, &vo);
    case LSE: return ct_logsumexp(x, &o);
  }
  return NULL;
}

static double time_case(const bench_case *c, const ct_tensor *x, int reps) {
  double t[64];
  if (reps > 64) reps = 64;
  if (reps < 1) reps = 1;
  for (int r = -1; r < reps; r++) {
    double t0 = now();
    ct_release(call(c, x));
    if (r >= 0) t[r] = now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp);
  return t[reps / 2];
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 0, reps = argc > 2 ? atoi(argv[2]) : 7;
  if (threads > 0) ct_set_num_threads(threads);
  const int64_t n = 16 << 20;
  ct_tensor *x = normal(n), *mat = x ? ct_reshape(x, CT_SHAPE(4096, 4096)) : NULL;
  if (!x || !mat) {
    fprintf(stderr, "bench_reduce: %s\n", ct_last_error_message());
    return 1;
  }
  const bench_case cases[] = {
      {"sum_16M", SUM, -1, 0},          {"mean_16M", MEAN, -1, 0},          {"sum_4096x4096_dim0", SUM, 0, 1},
      {"sum_4096x4096_dim1", SUM, 1, 1}, {"max_16M", MAX, -1, 0},            {"argmax_16M", ARGMAX, -1, 0},
      {"argmax_4096x4096_dim1", ARGMAX, 1, 1}, {"var_16M", VAR, -1, 0},     {"var_4096x4096_dim1", VAR, 1, 1},
      {"logsumexp_4096x4096_dim1", LSE, 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double s = time_case(&cases[i], cases[i].mat ? mat : x, reps);
    printf("%s %.3f\n", cases[i].name, 1e3 * s);
    if (i == 0) printf("sum_16M_read_gbs %.2f\n", 4.0 * (double)n / s / 1e9);
  }
  ct_release(mat);
  ct_release(x);
  return 0;
}
