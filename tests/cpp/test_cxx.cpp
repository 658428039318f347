/* ctorch.hpp (issue 15): the RAII handle, operators with torch's wrapped-number promotion, methods,
   factories, printing and exceptions, checked against torch 1.13 (the torch line is in each comment). */
#include <ctorch.hpp>

#include <complex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "check.hpp"

using ctorch::Tensor;

namespace {

std::string repr(const Tensor &t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

std::vector<double> values(const Tensor &t) { return t.to_vector<double>(); }

void ownership() {
  Tensor a = ctorch::zeros({2});
  CHECK_EQ(ct_refcount(a.get()), 1);
  {
    Tensor b = a;  // copy: one tensor, two handles
    CHECK_EQ(ct_refcount(a.get()), 2);
    CHECK(b.get() == a.get());
    Tensor c = std::move(b);
    CHECK(!b.defined());
    CHECK_EQ(ct_refcount(a.get()), 2);
    c = Tensor();  // rebinding drops the reference
    CHECK_EQ(ct_refcount(a.get()), 1);
  }
  CHECK_EQ(ct_refcount(a.get()), 1);
  /* Tensors made inside a C scope are not the scope's: they outlive it. */
  Tensor kept;
  ct_scope_begin();
  kept = ctorch::arange(3) * 2;
  ct_scope_end();
  CHECK_EQ(ct_refcount(kept.get()), 1);
  CHECK_EQ(repr(kept), "tensor([0, 2, 4])");  // torch.arange(3) * 2
  /* Handles share the tensor, as Python names do: an in-place op through one is seen through the other. */
  Tensor x = ctorch::zeros({3});
  Tensor y = x;
  y += 1;
  CHECK_EQ(repr(x), "tensor([1., 1., 1.])");  // x = torch.zeros(3); y = x; y += 1; x
  x[1].fill_(5);
  CHECK_EQ(repr(y), "tensor([1., 5., 1.])");  // x[1].fill_(5)
  y.zero_();
  CHECK_EQ(repr(x), "tensor([0., 0., 0.])");
}

void promotion() {
  Tensor t = ctorch::tensor({1, 2, 3});
  CHECK_EQ(t.dtype(), CT_INT64);                                 // torch.tensor([1, 2, 3]).dtype
  CHECK_EQ(repr(t * 0.5), "tensor([0.5000, 1.0000, 1.5000])");   // t * 0.5
  CHECK_EQ(repr(t * 2), "tensor([2, 4, 6])");                    // t * 2
  CHECK_EQ(repr(t / 2), "tensor([0.5000, 1.0000, 1.5000])");     // t / 2
  CHECK_EQ(repr(2 - t), "tensor([ 1,  0, -1])");                 // 2 - t
  CHECK_EQ(repr(-t), "tensor([-1, -2, -3])");                    // -t
  CHECK_EQ(repr(t % 2), "tensor([1, 0, 1])");                    // t % 2
  CHECK_EQ(repr(t > 1), "tensor([False,  True,  True])");        // t > 1
  CHECK_EQ(repr(ctorch::pow(2, t)), "tensor([2, 4, 8])");        // 2 ** t
  CHECK_EQ(repr(t.pow(2)), "tensor([1, 4, 9])");                 // t ** 2
  CHECK_EQ(repr(ctorch::tensor({true, false}) + 1), "tensor([2, 1])");  // torch.tensor([True, False]) + 1
  /* torch.tensor([1], dtype=torch.uint8) + 300 -> tensor([45], dtype=torch.uint8): a Python int does not
     widen a tensor of the same category */
  CHECK_EQ(repr(ctorch::tensor({1}, ctorch::kUInt8) + 300), "tensor([45], dtype=torch.uint8)");
  /* torch.tensor([1., 2.], dtype=torch.float64) * torch.tensor([1., 2.]) */
  CHECK_EQ(repr(ctorch::tensor({1.0, 2.0}, ctorch::kFloat64) * ctorch::tensor({1.0, 2.0})),
           "tensor([1., 4.], dtype=torch.float64)");
  /* t.float().pow(0.5) -> tensor([1.0000, 1.4142, 1.7321]) */
  CHECK_EQ(repr(t.to(ctorch::kFloat32).pow(0.5)), "tensor([1.0000, 1.4142, 1.7321])");
  CHECK_EQ(repr(ctorch::sqrt(t)), "tensor([1.0000, 1.4142, 1.7321])");  // torch.sqrt(t)
}

void literals_and_factories() {
  CHECK_EQ(repr(ctorch::tensor({1.5, 2.0})), "tensor([1.5000, 2.0000])");  // torch.tensor([1.5, 2.0])
  CHECK_EQ(ctorch::tensor({1.5f}).dtype(), CT_FLOAT32);
  CHECK_EQ(repr(ctorch::tensor({std::complex<double>(1, 2)})), "tensor([1.+2.j])");  // torch.tensor([1+2j])
  CHECK_EQ(repr(ctorch::tensor(3.5)), "tensor(3.5000)");  // torch.tensor(3.5)
  CHECK_EQ(repr(ctorch::tensor(7)), "tensor(7)");         // torch.tensor(7)
  CHECK_EQ(repr(ctorch::tensor({1, 2.5})), "tensor([1.0000, 2.5000])");                  // torch.tensor([1, 2.5])
  CHECK_EQ(repr(ctorch::tensor({true, 2})), "tensor([1, 2])");                           // torch.tensor([True, 2])
  CHECK_EQ(repr(ctorch::tensor({1, std::complex<double>(0, 1)})), "tensor([1.+0.j, 0.+1.j])");  // torch.tensor([1, 1j])
  CHECK_EQ(repr(ctorch::tensor({{1}, {2}})), "tensor([[1],\n        [2]])");             // torch.tensor([[1], [2]])
  CHECK_EQ(ctorch::tensor({}).dtype(), CT_FLOAT32);                                      // torch.tensor([]).dtype
  CHECK_EQ(ctorch::tensor({{}, {}}).shape().str(), "torch.Size([2, 0])");                // torch.tensor([[], []]).shape
  CHECK_EQ(ctorch::tensor({{{1, 2}}, {{3, 4}}}).shape(), ctorch::Size({2, 1, 2}));  // torch.tensor([[[1, 2]], [[3, 4]]]).shape
  CHECK_EQ(ctorch::tensor({{1, 2}, {3, 4}}).shape().str(), "torch.Size([2, 2])");
  CHECK_EQ(repr(ctorch::arange(5)), "tensor([0, 1, 2, 3, 4])");                     // torch.arange(5)
  CHECK_EQ(repr(ctorch::arange(0, 1, 0.25)), "tensor([0.0000, 0.2500, 0.5000, 0.7500])");  // torch.arange(0, 1, 0.25)
  std::ostringstream shape;
  shape << ctorch::ones({2, 3}).shape();
  CHECK_EQ(shape.str(), "torch.Size([2, 3])");  // torch.ones(2, 3).shape
  CHECK_EQ(repr(ctorch::tensor({1.0, 2.0}).to(ctorch::kFloat64)), "tensor([1., 2.], dtype=torch.float64)");
  CHECK_EQ(repr(ctorch::full({2}, true)), "tensor([True, True])");  // torch.full((2,), True)
  /* torch.manual_seed(0); torch.randn(4, 3): the first row */
  ctorch::manual_seed(0);
  Tensor r = ctorch::randn({4, 3});
  CHECK(check::close(values(r[0]), {1.5409960746765137, -0.293428897857666, -2.1787893772125244}, 0, 0));
}

void methods() {
  Tensor m = ctorch::tensor({{1.0, 5.0}, {3.0, 4.0}});
  CHECK_EQ(repr(m.mean(0)), "tensor([2.0000, 4.5000])");   // m.mean(0)
  CHECK_EQ(repr(m.std(0)), "tensor([1.4142, 0.7071])");    // m.std(0)
  CHECK_EQ(repr(m.argmax()), "tensor(1)");                 // m.argmax()
  Tensor values_, indices;
  std::tie(values_, indices) = m.max(1);                   // m.max(1)
  CHECK_EQ(repr(values_), "tensor([5., 4.])");
  CHECK_EQ(repr(indices), "tensor([1, 1])");
  CHECK_EQ(repr(ctorch::tensor({{1, 2}, {3, 4}}).sum({0, 1}, true)), "tensor([[10]])");  // .sum((0, 1), keepdim=True)
  CHECK_EQ(m.sum().item<double>(), 13.0);                  // m.sum().item()
  CHECK_EQ(m.size(-1), 2);
  CHECK_EQ(m.view({4}).shape(), ctorch::Size({4}));
  CHECK_EQ(m.t().is_contiguous(), false);
  CHECK(check::close(values(m.exp().log()), {1, 5, 3, 4}));  // m.exp().log()
  CHECK_EQ(repr(m.to(ctorch::tensor({1}))), "tensor([[1, 5],\n        [3, 4]])");  // m.to(torch.tensor([1]))
  CHECK_EQ(repr(ctorch::where(m > 2, m, 0)), "tensor([[0., 5.],\n        [3., 4.]])");  // torch.where(m > 2, m, 0)
  CHECK_EQ(repr(m.sum(ctorch::kFloat64)), "tensor(13., dtype=torch.float64)");  // m.sum(dtype=torch.float64)
  auto [min_values, min_indices] = m.min(0);                                      // m.min(0)
  CHECK_EQ(repr(min_values), "tensor([1., 4.])");
  CHECK_EQ(repr(min_indices), "tensor([0, 1])");
  CHECK_EQ(repr(ctorch::zeros({2}, ctorch::kInt32)), "tensor([0, 0], dtype=torch.int32)");  // torch.zeros(2, dtype=torch.int32)
  std::vector<Tensor> columns = m.unbind(1);                                      // m.unbind(1)
  CHECK_EQ(columns.size(), 2u);
  CHECK_EQ(repr(columns[1]), "tensor([5., 4.])");
  CHECK_EQ(repr(m.cumsum(0)), "tensor([[1., 5.],\n        [4., 9.]])");          // m.cumsum(0)
  CHECK_EQ(repr(m.clamp(2, 4)), "tensor([[2., 4.],\n        [3., 4.]])");         // m.clamp(2, 4)
  CHECK_EQ(repr(ctorch::tensor({1.0, NAN}).isnan()), "tensor([False,  True])");   // torch.tensor([1., nan]).isnan()
  CHECK_EQ(repr(m.norm()), "tensor(7.1414)");                                     // m.norm()
  CHECK_EQ(repr(m.var(0, false)), "tensor([1.0000, 0.2500])");                    // m.var(0, unbiased=False)
  CHECK_EQ(repr(m.flatten()), "tensor([1., 5., 3., 4.])");                        // m.flatten()
  CHECK_EQ(repr(m.permute({1, 0})), "tensor([[1., 3.],\n        [5., 4.]])");     // m.permute(1, 0)
  CHECK_EQ(m.unsqueeze(0).shape().str(), "torch.Size([1, 2, 2])");               // m.unsqueeze(0).shape
  CHECK_EQ(repr(1 < m), "tensor([[False,  True],\n        [ True,  True]])");      // 1 < m
  CHECK_EQ(repr(ctorch::tensor({6, -7}).div(4, "floor")), "tensor([ 1, -2])");    // .div(4, rounding_mode='floor')
  CHECK_EQ(repr(ctorch::tensor({5, 3}) & 1), "tensor([1, 1])");                   // torch.tensor([5, 3]) & 1
  CHECK_EQ(repr(~ctorch::tensor({5, 3})), "tensor([-6, -4])");                    // ~torch.tensor([5, 3])
  /* Standardising, as written in torch: torch.manual_seed(0); x = torch.randn(4, 3);
     (x - x.mean(0)) / x.std(0), the values to 17 digits */
  ctorch::manual_seed(0);
  Tensor x = ctorch::randn({4, 3});
  Tensor z = (x - x.mean(0)) / x.std(0);
  CHECK(check::close(values(z), {1.2701166868209839, -0.011383275501430035, -1.146101951599121,
                                 0.05146630108356476, -0.9808506965637207, -0.3686458170413971,
                                 -0.15538901090621948, 1.3751899003982544, 0.3083081841468811,
                                 -1.166194200515747, -0.38295599818229675, 1.2064396142959595}));
  /* An exponential moving average carried across iterations (no leak under LSan). */
  Tensor ema = ctorch::zeros({3});
  for (int i = 0; i < 4; i++) ema = 0.5 * ema + 0.5 * ctorch::ones({3});
  CHECK(check::close(values(ema), {0.9375, 0.9375, 0.9375}));  // 1 - 0.5 ** 4
}

void errors() {
  Tensor x = ctorch::arange(6.0).view({2, 3});
  /* torch.arange(6.).view(4, 4) */
  CHECK_THROWS(ctorch::runtime_error, x.view({4, 4}), "shape '[4, 4]' is invalid for input of size 6");
  /* torch.arange(6.).view(2, 3).size(5) */
  CHECK_THROWS(ctorch::index_error, x.size(5), "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  /* torch.zeros(2, 3)[5] */
  CHECK_THROWS(ctorch::index_error, x[5], "index 5 is out of bounds for dimension 0 with size 2");
  /* torch.zeros(2).item() */
  CHECK_THROWS(ctorch::value_error, ctorch::zeros({2}).item<double>(), "only one element tensors can be converted to Python scalars");
  /* torch.set_default_dtype(torch.int64) */
  CHECK_THROWS(ctorch::type_error, ctorch::set_default_dtype(ctorch::kInt64), "only floating-point types are supported as the default type");
  /* torch.zeros(2, 3) + torch.zeros(4) */
  CHECK_THROWS(ctorch::runtime_error, x + ctorch::zeros({4}),
               "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  /* torch.arange(3).mean() */
  CHECK_THROWS(ctorch::runtime_error, ctorch::arange(3).mean(),
               "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
  /* torch.tensor([[1, 2], [3]]) */
  CHECK_THROWS(ctorch::value_error, ctorch::tensor({{1, 2}, {3}}), "expected sequence of length 2 at dim 1 (got 1)");
  /* torch.tensor([[1, 2], 3]); torch.tensor([1, [2, 3]]); torch.tensor([1.5, [2.0]]) */
  CHECK_THROWS(ctorch::type_error, ctorch::tensor({{1, 2}, 3}), "not a sequence");
  CHECK_THROWS(ctorch::type_error, ctorch::tensor({1, {2, 3}}), "'list' object cannot be interpreted as an integer");
  CHECK_THROWS(ctorch::type_error, ctorch::tensor({1.5, {2.0}}), "must be real number, not list");
  /* torch.zeros(2, 3)[-3]; torch.tensor(1.)[0] */
  CHECK_THROWS(ctorch::index_error, x[-3], "index -3 is out of bounds for dimension 0 with size 2");
  CHECK_THROWS(ctorch::index_error, ctorch::tensor(1.0)[0],
               "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to "
               "convert a 0-dim tensor to a number");
  /* An undefined (moved-from) handle: the library's ValueError for a missing tensor (its message is the
     C library's, which names the argument). */
  Tensor moved = ctorch::zeros({1});
  Tensor to = std::move(moved);
  CHECK_THROWS_KIND(ctorch::value_error, moved + 1);
  CHECK_THROWS_KIND(ctorch::value_error, Tensor().sum());
  /* The classes mirror Python's: NotImplementedError is a RuntimeError; all are ctorch::error and
     std::runtime_error; the recorded C error is cleared once thrown. */
  try {
    x.view({4, 4});
  } catch (const std::runtime_error &e) {
    CHECK(dynamic_cast<const ctorch::error *>(&e) != nullptr);
    CHECK_EQ(std::string(dynamic_cast<const ctorch::error &>(e).python_name()), "RuntimeError");
  }
  CHECK_EQ(ct_last_error(), CT_OK);
  CHECK((std::is_base_of<ctorch::runtime_error, ctorch::not_implemented_error>::value));
  CHECK((std::is_base_of<ctorch::error, ctorch::value_error>::value));
  CHECK(!(std::is_base_of<ctorch::runtime_error, ctorch::value_error>::value));
  /* A failed in-place op leaves its target unchanged: torch.zeros(2, 3).add_(torch.zeros(4)) */
  Tensor y = ctorch::ones({2, 3});
  CHECK_THROWS(ctorch::runtime_error, y += ctorch::zeros({4}),
               "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  CHECK_EQ(y.sum().item<double>(), 6.0);
}

}  // namespace

int main() {
  ownership();
  promotion();
  literals_and_factories();
  methods();
  errors();
  return check::report("test_cxx");
}
