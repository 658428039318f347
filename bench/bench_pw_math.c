/* Unary math ops on 16M float32 values (uniform in [-4, 4)): exp, sin, tanh, sigmoid, erf, best of 10,
   in ms per call, both into a preallocated output (ct_X_out) and as a new tensor (ct_X). Optional
   argument: the thread count (default: ctorch's default). Prints `<op>_out_ms T` and `<op>_new_ms T`
   lines for pairing with torch.X(x, out=o) / torch.X(x) on the same machine. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ctorch.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
  const char *name;
  ct_tensor *(*fn)(const ct_tensor *);
  ct_status (*out)(ct_tensor *, const ct_tensor *);
} op;

int main(int argc, char **argv) {
  if (argc > 1) ct_set_num_threads(atoi(argv[1]));
  const int64_t n = 16 << 20;
  float *v = malloc((size_t)n * sizeof(float));
  if (!v) return 1;
  unsigned s = 12345u;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    v[i] = (float)(s >> 8) * (8.0f / 16777216.0f) - 4.0f;
  }
  ct_tensor *x = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(n), NULL);
  ct_tensor *o = ct_empty(CT_SHAPE(n), NULL);
  free(v);
  if (!x || !o) return 1;
  const op ops[] = {{"exp", ct_exp, ct_exp_out},
                    {"sin", ct_sin, ct_sin_out},
                    {"tanh", ct_tanh, ct_tanh_out},
                    {"sigmoid", ct_sigmoid, ct_sigmoid_out},
                    {"erf", ct_erf, ct_erf_out}};
  printf("threads %d\n", ct_get_num_threads());
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    double best_out = 1e30, best_new = 1e30;
    ops[k].out(o, x); /* warm-up */
    for (int r = 0; r < 10; r++) {
      double t0 = now();
      if (ops[k].out(o, x) != CT_OK) return 1;
      double t = now() - t0;
      if (t < best_out) best_out = t;
    }
    for (int r = 0; r < 10; r++) {
      double t0 = now();
      ct_tensor *y = ops[k].fn(x);
      double t = now() - t0;
      if (!y) return 1;
      ct_release(y);
      if (t < best_new) best_new = t;
    }
    printf("%s_out_ms %.3f\n%s_new_ms %.3f\n", ops[k].name, best_out * 1e3, ops[k].name, best_new * 1e3);
  }
  ct_release(x);
  ct_release(o);
  return 0;
}
