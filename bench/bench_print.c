/* Printing speed: ctorch's repr of arange(n, dtype=float32).reshape(r, c) / 7 for a 1000x1000 tensor
   (summarized: only the edge items are formatted) and a 100x100 one printed in full (profile "full";
   the default threshold would summarize its 10000 elements).
   Prints "<name> <microseconds per repr>" lines; bench/print_bench.py compares them with torch.
   With --print it writes the two reprs instead (so the script can check they equal torch's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ctorch.h>

static ct_tensor *arange_div7(int64_t rows, int64_t cols) {
  ct_tensor *t = ct_empty(CT_SHAPE(rows, cols), NULL);
  float *p = ct_data_ptr(t);
  for (int64_t i = 0; i < rows * cols; i++) p[i] = (float)i / 7.0f;
  return t;
}

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Best of several rounds of the mean time of `iters` reprs. */
static double time_repr(const ct_tensor *t, int iters) {
  double best = 1e300;
  for (int round = 0; round < 5; round++) {
    double t0 = now_us();
    for (int i = 0; i < iters; i++) free(ct_to_string(t));
    double per = (now_us() - t0) / iters;
    best = per < best ? per : best;
  }
  return best;
}

int main(int argc, char **argv) {
  ct_tensor *big = arange_div7(1000, 1000), *small = arange_div7(100, 100);
  const ct_print_options full = {.profile = CT_PRINT_PROFILE_FULL};
  const ct_print_options def = {.profile = CT_PRINT_PROFILE_DEFAULT};
  if (argc > 1 && strcmp(argv[1], "--print") == 0) {
    ct_print(big);
    ct_set_printoptions(&full);
    ct_print(small);
  } else {
    printf("print_1000x1000_summarized %.3f\n", time_repr(big, 2000));
    ct_set_printoptions(&full);
    printf("print_100x100_full %.3f\n", time_repr(small, 20));
  }
  ct_set_printoptions(&def);
  ct_release(big);
  ct_release(small);
  return 0;
}
