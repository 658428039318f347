// Compiled as C++ to prove the public headers are usable from C++.
#include <ctorch.h>

extern "C++" int ct_cxx_header_check() {
  ct_tensor *t = ct_empty(ct_shape{nullptr, 0}, nullptr);
  int64_t n = ct_numel(t);
  ct_release(t);
  return static_cast<int>(n);
}
