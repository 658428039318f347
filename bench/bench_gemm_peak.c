/* sgemm and dgemm through ct_mm with no environment variable set: the GFLOP/s of square products of
   256, 1024 and 2048 at 1 thread and at every thread, the CPU features the BLAS loader read and the
   OpenBLAS core it loaded (kernels/cpu/blas.h). It answers issue 17's question for the machine it runs on:
   does the library pick OpenBLAS's fast kernels by itself? Run it next to bench_fma_peak (the
   denominator) and, to see what OpenBLAS alone would pick, once with OPENBLAS_CORETYPE set (the user's
   setting always stands). Prints one `key value` line per figure. */
#include <stdio.h>
#include <time.h>

#include "ctorch.h"
#include "kernels/cpu/blas.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Best of a few timed products after one warm-up, in GFLOP/s (2 n^3 flops). */
static double gflops(ct_dtype dt, int64_t n) {
  ct_scope_begin();
  ct_tensor *a = ct_randn(CT_SHAPE(n, n), &(ct_random_opts){.dtype = dt});
  ct_tensor *b = ct_randn(CT_SHAPE(n, n), &(ct_random_opts){.dtype = dt});
  double best = 1e30;
  int reps = n <= 256 ? 50 : n <= 1024 ? 5 : 3;
  ct_tensor *c = ct_mm(a, b); /* warm-up: loads OpenBLAS, starts its threads */
  ct_release(c);
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    c = ct_mm(a, b);
    double t = now() - t0;
    ct_release(c);
    if (t < best) best = t;
  }
  ct_scope_end();
  return c ? 2.0 * (double)n * (double)n * (double)n / best / 1e9 : 0;
}

int main(void) {
  ct_manual_seed(0);
  ct_blas_cpu cpu = ct__blas_cpu_read();
  printf("cpu_family %u\ncpu_model %u\navx2 %d\nfma %d\nos_avx512 %d\navx512f %d\navx512bw %d\navx512vl %d\n"
         "avx512dq %d\navx512bf16 %d\n",
         cpu.family, cpu.model, cpu.avx2, cpu.fma, cpu.os_avx512, cpu.avx512f, cpu.avx512bw, cpu.avx512vl,
         cpu.avx512dq, cpu.avx512bf16);
  int all = ct_get_num_threads();
  const int64_t sizes[3] = {256, 1024, 2048};
  for (int th = 0; th < 2; th++) {
    int threads = th == 0 ? 1 : all;
    ct_set_num_threads(threads);
    for (int i = 0; i < 3; i++) {
      printf("sgemm_%lld_t%d_gflops %.1f\n", (long long)sizes[i], threads, gflops(CT_FLOAT32, sizes[i]));
      printf("dgemm_%lld_t%d_gflops %.1f\n", (long long)sizes[i], threads, gflops(CT_FLOAT64, sizes[i]));
    }
    if (all == 1) break;
  }
  ct_blas_info info = ct__blas_info();
  printf("openblas_core %s\nopenblas_config %s\nopenblas_path %s\ncoretype_set_by_ctorch %s\n",
         info.corename ? info.corename : "(not loaded)", info.config ? info.config : "-",
         info.path ? info.path : "-", info.coretype_set ? info.coretype_set : "(none)");
  return 0;
}
