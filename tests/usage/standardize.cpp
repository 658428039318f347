// Standardising the columns of a matrix, written as a torch user writes it:
//
//   torch.set_printoptions(precision=8)
//   torch.manual_seed(0)
//   x = torch.randn(8, 4) * 3 + 1
//   z = (x - x.mean(0)) / x.std(0)
//   print(z, z.mean(0), z.std(0))
#include <ctorch.hpp>
#include <iostream>

int main() {
  ctorch::set_printoptions(ctorch::PrintOptions().precision(8));
  ctorch::manual_seed(0);
  auto x = ctorch::randn({8, 4}) * 3 + 1;
  auto z = (x - x.mean(0)) / x.std(0);
  std::cout << "z =\n" << z << "\n";
  std::cout << "z_mean =\n" << z.mean(0) << "\n";
  std::cout << "z_std =\n" << z.std(0) << "\n";
}
