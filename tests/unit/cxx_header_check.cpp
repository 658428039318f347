// Compiled as C++17 (no GNU extensions, -Wpedantic) to prove the public headers are usable from C++:
// every convenience the C API documents has a C++ form under the same name, and ctorch.hpp compiles.
// (The conveniences' values are checked at run time by tests/cpp/test_cxx_c_api.cpp.)
#include <ctorch.h>
#include <ctorch.hpp>

extern "C++" int ct_cxx_header_check() {
  ct_tensor *t = ct_empty(ct_shape{nullptr, 0}, nullptr);
  int64_t n = ct_numel(t);
  ct_release(t);
  /* Shapes, dims, Python numbers, devices and options structs, as C writes them with compound literals. */
  ct_tensor *z = ct_zeros(CT_SHAPE(2, 3), ct_opts<ct_tensor_opts>(CT_FLOAT64, CT_DEVICE_CPU));
  ct_tensor *s = ct_sum(z, ct_opts<ct_reduce_opts>(CT_DIMS(0, 1), true));
  ct_tensor *f = ct_full(CT_SHAPE_SCALAR, CT_DOUBLE(1.5), nullptr);
  ct_tensor *a = ct_arange(CT_INT(0), CT_INT(4), CT_INT(1), nullptr);
  ct_tensor *b = ct_full(CT_SHAPE(1), CT_BOOLV(true), nullptr);
  ct_tensor *c = ct_full(CT_SHAPE(1), CT_COMPLEX(1, 2), nullptr);
  ct_tensor *m = ct_zeros(CT_SHAPE(1), ct_opts<ct_tensor_opts>(CT_DTYPE_UNSET, CT_DEVICE_META));
  ct_device cuda = CT_DEVICE_CUDA(0);
  ct_print_options po{};
  po.precision = CT_PRINT_SET(4);
  n += ct_numel(s) + ct_numel(f) + ct_numel(a) + ct_numel(b) + ct_numel(c) + ct_numel(m) + cuda.index +
       static_cast<int64_t>(po.precision.value);
  for (ct_tensor *x : {z, s, f, a, b, c, m}) ct_release(x);
  /* The C++ layer. */
  ctorch::Tensor x = ctorch::arange(6.0).view({2, 3});
  n += ((x - x.mean(0)) / x.std(0)).numel();
  return static_cast<int>(n);
}
