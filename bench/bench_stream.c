/* The machine's memory bandwidth: a STREAM-style triad a = b + s * c over 3 x 64 MiB arrays, best of
   10, at the thread count given. Prints `triad_gbs N` (bytes moved: 3 x 4 bytes per element). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  long n = 16L << 20;
  float *a = aligned_alloc(64, (size_t)n * 4), *b = aligned_alloc(64, (size_t)n * 4), *c = aligned_alloc(64, (size_t)n * 4);
  if (!a || !b || !c) return 1;
#pragma omp parallel for num_threads(threads)
  for (long i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;
  double best = 1e30;
  for (int r = 0; r < 10; r++) {
    double t0 = now();
#pragma omp parallel for num_threads(threads)
    for (long i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
    double t = now() - t0;
    if (t < best) best = t;
  }
  printf("triad_gbs %.2f\n", 12.0 * (double)n / best / 1e9);
  free(a), free(b), free(c);
  return a == b; /* keeps the stores observable */
}
