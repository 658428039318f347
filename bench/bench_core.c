/* Core costs: creating and releasing a small view, and the bytes of a tensor with its storage.
   Prints `key value` lines read by bench/run.py. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/internal.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 2000000;
  ct_tensor *t = ct_empty(CT_SHAPE(4, 4), NULL);
  /* warm up the allocator */
  for (long i = 0; i < 1000; i++) ct_release(ct_transpose(t, 0, 1));
  double t0 = now_ns();
  for (long i = 0; i < iters; i++) ct_release(ct_transpose(t, 0, 1));
  double t1 = now_ns();
  printf("view_ns %.2f\n", (t1 - t0) / (double)iters);
  /* x + y on 1-element tensors: the per-call cost of the pointwise engine */
  ct_tensor *a = ct_ones(CT_SHAPE(1), NULL), *b = ct_ones(CT_SHAPE(1), NULL);
  for (long i = 0; i < 1000; i++) ct_release(ct_add(a, b, NULL));
  t0 = now_ns();
  for (long i = 0; i < iters; i++) ct_release(ct_add(a, b, NULL));
  t1 = now_ns();
  printf("add1_ns %.2f\n", (t1 - t0) / (double)iters);
  ct_release(a);
  ct_release(b);
  /* conj() of complex tensors of 1K and 1M elements: a view with the conjugate bit, so the same O(1) cost
     at both sizes (before the bit, ctorch's conj copied: O(n)). */
  long conj_iters = iters / 4;
  for (int big = 0; big < 2; big++) {
    ct_tensor *c = ct_zeros(CT_SHAPE(big ? 1 << 20 : 1 << 10), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
    for (long i = 0; i < 1000; i++) ct_release(ct_conj(c));
    t0 = now_ns();
    for (long i = 0; i < conj_iters; i++) ct_release(ct_conj(c));
    t1 = now_ns();
    printf("%s %.2f\n", big ? "conj1m_ns" : "conj1k_ns", (t1 - t0) / (double)conj_iters);
    ct_release(c);
  }
  /* A 2-D tensor as allocated: header with inline room for its dims, plus its storage struct. */
  size_t tensor_bytes = sizeof(ct_tensor) + 2 * 2 * sizeof(int64_t);
  printf("tensor_bytes %zu\n", tensor_bytes);
  printf("storage_bytes %zu\n", sizeof(ct_storage));
  ct_release(t);
  return 0;
}
