/* One core's fused multiply-add peak: 12 independent chains of AVX2 (8 floats, 4 doubles) or, where the CPU
   and the OS have it, AVX-512 (16 floats, 8 doubles) FMAs, enough to cover the FMA units' latency, timed
   best of 5. Prints `fp32_gflops N` and `fp64_gflops N` (2 flops per lane per FMA) of the widest ISA and
   `isa NAME`. The denominator of matmul_bench.py's "fraction of peak". On a CPU without AVX2+FMA it
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

/* The same chains on 512-bit registers (a CPU whose OS enables the zmm state). */
#define CHAINS_512(NAME, VEC, SET1, FMA, STORE, T, LANES)                                           \
  __attribute__((target("avx512f"))) static double NAME(long iters) {                              \
    VEC acc[CHAINS], x = SET1((T)0.999999), y = SET1((T)1e-7);                                      \
    for (int i = 0; i < CHAINS; i++) acc[i] = SET1((T)i);                                           \
    double t0 = now();                                                                              \
    for (long it = 0; it < iters; it++)                                                             \
      for (int i = 0; i < CHAINS; i++) acc[i] = FMA(acc[i], x, y);                                  \
    double t = now() - t0;                                                                          \
    T sink = 0, out[LANES];                                                                         \
    for (int i = 0; i < CHAINS; i++) STORE(out, acc[i]), sink += out[0];                            \
    if (sink == (T)12345) puts("");                                                                 \
    return 2.0 * LANES * CHAINS * (double)iters / t / 1e9;                                          \
  }
CHAINS_512(run_ps512, __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_storeu_ps, float, 16)
CHAINS_512(run_pd512, __m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_storeu_pd, double, 8)

/* XCR0 enables the opmask and zmm state besides SSE/AVX (the kernel saves them). */
static int os_avx512(void) {
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 0xe6) == 0xe6;
}
#endif

int main(void) {
  double ps = 0, pd = 0;
  const char *isa = "none";
#if HAVE_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && os_avx512()) {
    isa = "avx512";
    for (int r = 0; r < 5; r++) {
      double a = run_ps512(20L << 20), b = run_pd512(20L << 20);
      if (a > ps) ps = a;
      if (b > pd) pd = b;
    }
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "avx2";
    for (int r = 0; r < 5; r++) {
      double a = run_ps(20L << 20), b = run_pd(20L << 20);
      if (a > ps) ps = a;
      if (b > pd) pd = b;
    }
  }
#endif
  printf("fp32_gflops %.2f\nfp64_gflops %.2f\nisa %s\n", ps, pd, isa);
  return 0;
}
