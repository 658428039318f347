/* Times ctorch's rand / randn on 16M elements (best of several runs) on its own. Prints "name seconds"
   lines. Thread count: OMP_NUM_THREADS. The comparison with torch is bench/random_bench.py, which
   calls the library and torch in turn in one process. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ctorch.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef ct_tensor *(*factory)(ct_shape, const ct_random_opts *);

static double best_of(factory f, ct_dtype dt, int64_t n, int reps) {
  double best = 1e30;
  ct_random_opts o = {.dtype = dt};
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    ct_tensor *t = f((ct_shape){&n, 1}, &o);
    double t1 = now();
    if (!t) {
      fprintf(stderr, "bench_random: %s\n", ct_last_error_message());
      exit(1);
    }
    ct_release(t);
    if (t1 - t0 < best) best = t1 - t0;
  }
  return best;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : INT64_C(16) << 20;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  ct_manual_seed(0);
  printf("rand_float32 %.6f\n", best_of(ct_rand, CT_FLOAT32, n, reps));
  printf("randn_float32 %.6f\n", best_of(ct_randn, CT_FLOAT32, n, reps));
  printf("randn_float64 %.6f\n", best_of(ct_randn, CT_FLOAT64, n, reps));
  return 0;
}
