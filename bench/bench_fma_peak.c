/* One core's fused multiply-add peak: 12 independent chains of 8-float (or 4-double) AVX2 FMAs, enough to
   cover the FMA units' latency, timed best of 5. Prints `fp32_gflops N` and `fp64_gflops N` (2 flops per
   lane per FMA). The denominator of matmul_bench.py's "fraction of peak". On a CPU without AVX2+FMA it
   prints zeros. */
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#if HAVE_X86
#define CHAINS 12
__attribute__((target("avx2,fma"))) static double run_ps(long iters) {
  __m256 acc[CHAINS], x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
  for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_set1_ps((float)i);
  double t0 = now();
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_fmadd_ps(acc[i], x, y);
  double t = now() - t0;
  float sink = 0, out[8];
  for (int i = 0; i < CHAINS; i++) _mm256_storeu_ps(out, acc[i]), sink += out[0];
  if (sink == 12345.f) puts("");
  return 2.0 * 8 * CHAINS * (double)iters / t / 1e9;
}
__attribute__((target("avx2,fma"))) static double run_pd(long iters) {
  __m256d acc[CHAINS], x = _mm256_set1_pd(0.999999), y = _mm256_set1_pd(1e-7);
  for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_set1_pd((double)i);
  double t0 = now();
  for (long it = 0; it < iters; it++)
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm256_fmadd_pd(acc[i], x, y);
  double t = now() - t0;
  double sink = 0, out[4];
  for (int i = 0; i < CHAINS; i++) _mm256_storeu_pd(out, acc[i]), sink += out[0];
  if (sink == 12345.) puts("");
  return 2.0 * 4 * CHAINS * (double)iters / t / 1e9;
}
#endif

int main(void) {
  double ps = 0, pd = 0;
#if HAVE_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    for (int r = 0; r < 5; r++) {
      double a = run_ps(20L << 20), b = run_pd(20L << 20);
      if (a > ps) ps = a;
      if (b > pd) pd = b;
    }
#endif
  printf("fp32_gflops %.2f\nfp64_gflops %.2f\n", ps, pd);
  return 0;
}
