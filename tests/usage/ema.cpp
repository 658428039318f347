// An exponential moving average carried across the iterations of a loop, written as a torch user
// writes it:
//
//   torch.set_printoptions(precision=8)
//   torch.manual_seed(0)
//   ema = torch.zeros(3)
//   for step in range(20):
//       x = torch.randn(3) + 0.1 * step
//       ema = 0.9 * ema + 0.1 * x
//   print(ema, ema / (1 - 0.9 ** 20))     # the bias-corrected average
#include <cmath>
#include <ctorch.hpp>
#include <iostream>

int main() {
  ctorch::set_printoptions(ctorch::PrintOptions().precision(8));
  ctorch::manual_seed(0);
  auto ema = ctorch::zeros({3});
  for (int step = 0; step < 20; step++) {
    auto x = ctorch::randn({3}) + 0.1 * step;
    ema = 0.9 * ema + 0.1 * x;
  }
  std::cout << "ema =\n" << ema << "\n";
  std::cout << "ema_corrected =\n" << ema / (1 - std::pow(0.9, 20)) << "\n";
}
