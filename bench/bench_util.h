/* What the C benchmarks share: a monotonic clock, a comparison for qsort'ing timings (medians) and a
   fixed-seed xorshift, so every run works on the same data. */
#ifndef CTORCH_BENCH_UTIL_H
#define CTORCH_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static uint64_t xorshift_state = 88172645463325252ull;
static inline uint64_t next(void) {
  xorshift_state ^= xorshift_state << 13;
  xorshift_state ^= xorshift_state >> 7;
  xorshift_state ^= xorshift_state << 17;
  return xorshift_state;
}

#endif
