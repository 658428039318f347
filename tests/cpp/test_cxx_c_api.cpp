/* The C API's conveniences from C++17 (issue 15): CT_SHAPE, CT_DIMS, CT_INT, CT_DOUBLE, CT_BOOLV,
   CT_COMPLEX, CT_SHAPE_SCALAR, CT_DEVICE_*, CT_PRINT_SET and ct_opts (the C++ spelling of
   `&(ct_reduce_opts){...}`), with values checked against torch 1.13. */
#include <ctorch.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "check.hpp"

namespace {

std::vector<double> values(const ct_tensor *t) {
  std::vector<double> v(static_cast<size_t>(ct_numel(t)));
  if (ct_copy_to_buffer(t, v.data(), CT_FLOAT64, v.size() * sizeof(double)) != CT_OK) v.clear();
  return v;
}

std::string repr(const ct_tensor *t) {
  char *s = ct_to_string(t);
  std::string r = s ? s : "<NULL>";
  std::free(s);
  return r;
}

/* ct_opts' result converts to an options pointer only as the temporary argument it is made for. */
static_assert(std::is_convertible<ct_opts_holder<ct_reduce_opts>, const ct_reduce_opts *>::value,
              "a ct_opts temporary converts");
static_assert(!std::is_convertible<ct_opts_holder<ct_reduce_opts> &, const ct_reduce_opts *>::value,
              "a named ct_opts result does not");

void shapes_and_dims() {
  ct_scope_begin();
  ct_tensor *x = ct_arange(CT_INT(0), CT_INT(6), CT_INT(1), nullptr);
  CHECK_EQ(ct_dtype_of(x), CT_INT64);  // torch.arange(0, 6, 1).dtype == torch.int64
  ct_tensor *v = ct_view(x, CT_SHAPE(2, 3));
  CHECK_EQ(ct_dim(v), 2);
  CHECK_EQ(ct_size(v, 0), 2);
  CHECK_EQ(ct_size(v, 1), 3);
  /* Sizes of any integer type, as C's CT_SHAPE converts them (no narrowing error). */
  size_t rows = 3, cols = 2;
  CHECK_EQ(ct_size(ct_view(x, CT_SHAPE(rows, cols)), 0), 3);
  /* A named holder lives as long as the variable. */
  auto shape = CT_SHAPE(1, 2, 3);
  ct_tensor *z = ct_zeros(shape, nullptr);
  CHECK_EQ(ct_numel(z), 6);
  CHECK_EQ(ct_dim(z), 3);
  /* torch.arange(6.).view(2, 3).sum(0, keepdim=True) -> tensor([[3., 5., 7.]]) */
  ct_tensor *xf = ct_view(ct_arange(CT_DOUBLE(0), CT_DOUBLE(6), CT_DOUBLE(1), nullptr), CT_SHAPE(2, 3));
  ct_tensor *s = ct_sum(xf, ct_opts<ct_reduce_opts>(CT_DIMS(0), true));
  CHECK_EQ(ct_dim(s), 2);
  CHECK_EQ(ct_size(s, 0), 1);
  CHECK(check::close(values(s), {3, 5, 7}));
  /* torch.arange(6.).view(2, 3).std(1) -> tensor([1., 1.]) */
  ct_tensor *sd = ct_std(xf, ct_opts<ct_var_opts>(CT_DIMS(1)));
  CHECK(check::close(values(sd), {1, 1}));
  /* torch.full((), 2.5) -> tensor(2.5000), 0-dim float32 */
  ct_tensor *f = ct_full(CT_SHAPE_SCALAR, CT_DOUBLE(2.5), nullptr);
  CHECK_EQ(ct_dim(f), 0);
  CHECK_EQ(ct_dtype_of(f), CT_FLOAT32);
  CHECK_EQ(repr(f), "tensor(2.5000)");
  /* torch.full((2,), True) -> tensor([True, True]); torch.full((1,), 1+2j) -> complex64 */
  CHECK_EQ(repr(ct_full(CT_SHAPE(2), CT_BOOLV(true), nullptr)), "tensor([True, True])");
  CHECK_EQ(ct_dtype_of(ct_full(CT_SHAPE(1), CT_COMPLEX(1, 2), nullptr)), CT_COMPLEX64);
  ct_scope_end();
}

void devices_and_options() {
  ct_scope_begin();
  /* torch.zeros(2, dtype=torch.float64, device='cpu') */
  ct_tensor *z = ct_zeros(CT_SHAPE(2), ct_opts<ct_tensor_opts>(CT_FLOAT64, CT_DEVICE_CPU));
  CHECK_EQ(ct_dtype_of(z), CT_FLOAT64);
  CHECK(ct_device_equal(ct_device_of(z), CT_DEVICE_CPU));
  /* torch.zeros(2, device='meta').is_meta -> True */
  CHECK(ct_is_meta(ct_zeros(CT_SHAPE(2), ct_opts<ct_tensor_opts>(CT_DTYPE_UNSET, CT_DEVICE_META))));
  /* str(torch.device('cuda', 1)) -> 'cuda:1' */
  char buf[32];
  ct_device_str(CT_DEVICE_CUDA(1), buf, sizeof buf);
  CHECK_EQ(std::string(buf), "cuda:1");
  /* torch.set_printoptions(precision=2); repr(torch.tensor([1.2345])) -> 'tensor([1.23])' */
  double d = 1.2345;
  ct_tensor *t = ct_tensor_from_data(&d, CT_FLOAT64, CT_SHAPE(1), ct_opts<ct_tensor_opts>(CT_FLOAT32));
  CHECK_EQ(ct_set_printoptions(ct_opts<ct_print_options>(CT_PRINT_PROFILE_UNSET, CT_PRINT_SET(2))), CT_OK);
  CHECK_EQ(repr(t), "tensor([1.23])");
  ct_set_printoptions(ct_opts<ct_print_options>(CT_PRINT_PROFILE_DEFAULT));
  CHECK_EQ(repr(t), "tensor([1.2345])");
  ct_scope_end();
}

}  // namespace

int main() {
  shapes_and_dims();
  devices_and_options();
  return check::report("test_cxx_c_api");
}
