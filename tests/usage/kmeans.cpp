// One step of k-means (Lloyd's algorithm) on three blobs, written as a torch user writes it:
//
//   torch.set_printoptions(precision=8)
//   torch.manual_seed(0)
//   centers = torch.tensor([[0., 0.], [2., 2.], [-2., 2.]])
//   x = (torch.randn(3, 10, 2) + centers.unsqueeze(1)).reshape(30, 2)
//   c = x.view(3, 10, 2)[:, 0]                          # the first point of each blob
//   d = ((x.unsqueeze(1) - c.unsqueeze(0)) ** 2).sum(2)  # squared distances, (30, 3)
//   labels = d.argmin(1)
//   onehot = (labels.unsqueeze(1) == torch.arange(3)).float()
//   counts = onehot.sum(0)
//   centroids = (onehot.t().unsqueeze(2) * x.unsqueeze(0)).sum(1) / counts.unsqueeze(1)
//   inertia = d.amin(1).sum()
#include <ctorch.hpp>
#include <iostream>

int main() {
  ctorch::set_printoptions(ctorch::PrintOptions().precision(8));
  ctorch::manual_seed(0);
  auto centers = ctorch::tensor({{0., 0.}, {2., 2.}, {-2., 2.}});
  auto x = (ctorch::randn({3, 10, 2}) + centers.unsqueeze(1)).reshape({30, 2});
  auto c = x.view({3, 10, 2}).select(1, 0);
  auto d = (x.unsqueeze(1) - c.unsqueeze(0)).pow(2).sum(2);
  auto labels = d.argmin(1);
  auto onehot = (labels.unsqueeze(1) == ctorch::arange(3)).to(ctorch::kFloat);
  auto counts = onehot.sum(0);
  auto centroids = (onehot.t().unsqueeze(2) * x.unsqueeze(0)).sum(1) / counts.unsqueeze(1);
  auto inertia = d.amin(1).sum();
  std::cout << "labels =\n" << labels << "\n";
  std::cout << "counts =\n" << counts << "\n";
  std::cout << "centroids =\n" << centroids << "\n";
  std::cout << "inertia =\n" << inertia << "\n";
}
