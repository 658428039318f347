// A numerically stable softmax over the rows of a matrix, written as a torch user writes it:
//
//   torch.set_printoptions(precision=8)
//   torch.manual_seed(0)
//   logits = torch.randn(4, 5) * 2
//   e = (logits - logits.amax(1, keepdim=True)).exp()
//   p = e / e.sum(1, keepdim=True)         # torch.softmax(logits, 1)
//   print(p, p.sum(1), p.argmax(1))
#include <ctorch.hpp>
#include <iostream>

int main() {
  ctorch::set_printoptions(ctorch::PrintOptions().precision(8));
  ctorch::manual_seed(0);
  auto logits = ctorch::randn({4, 5}) * 2;
  auto e = (logits - logits.amax(1, true)).exp();
  auto p = e / e.sum(1, true);
  std::cout << "p =\n" << p << "\n";
  std::cout << "p_sum =\n" << p.sum(1) << "\n";
  std::cout << "p_argmax =\n" << p.argmax(1) << "\n";
}
