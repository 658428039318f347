// libtorch's counterpart of bench_core.c: the same view created and released, and its struct sizes.
#include <ATen/ATen.h>
#include <c10/core/StorageImpl.h>
#include <c10/core/TensorImpl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 2000000;
  at::Tensor t = at::empty({4, 4});
  for (long i = 0; i < 1000; i++) { at::Tensor v = t.transpose(0, 1); }
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; i++) { at::Tensor v = t.transpose(0, 1); }
  auto t1 = std::chrono::steady_clock::now();
  printf("view_ns %.2f\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / (double)iters);
  at::Tensor a = at::ones({1}), b = at::ones({1});
  long small_iters = iters / 4;
  for (long i = 0; i < 1000; i++) { at::Tensor c = a + b; }
  t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < small_iters; i++) { at::Tensor c = a + b; }
  t1 = std::chrono::steady_clock::now();
  printf("add1_ns %.2f\n", std::chrono::duration<double, std::nano>(t1 - t0).count() / (double)small_iters);
  long conj_iters = iters / 4;
  for (int big = 0; big < 2; big++) {
    at::Tensor c = at::zeros({big ? 1 << 20 : 1 << 10}, at::kComplexFloat);
    for (long i = 0; i < 1000; i++) { at::Tensor v = c.conj(); }
    t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < conj_iters; i++) { at::Tensor v = c.conj(); }
    t1 = std::chrono::steady_clock::now();
    printf("%s %.2f\n", big ? "conj1m_ns" : "conj1k_ns",
           std::chrono::duration<double, std::nano>(t1 - t0).count() / (double)conj_iters);
  }
  printf("tensor_bytes %zu\n", sizeof(c10::TensorImpl));
  printf("storage_bytes %zu\n", sizeof(c10::StorageImpl));
  return 0;
}
