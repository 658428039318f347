/* The order in which PyTorch's CPU topk (largest, sorted) returns a row, ties included. PyTorch runs
   libstdc++'s std::partial_sort (k * 64 <= n) or std::nth_element + std::sort; equal values come out
   in the order those exact algorithms leave them, so they are re-implemented step for step here
   (multinomial without replacement picks zero-probability categories through these ties). */
#ifndef CTORCH_RANDOM_TOPK_ORDER_H
#define CTORCH_RANDOM_TOPK_ORDER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ct_topk_elem {
  double value;
  int64_t index;
} ct_topk_elem;

/* Rearranges q[0..n) so that q[0..k) are the k largest (NaN largest), as topk_impl_loop does. */
void ct__topk_largest(ct_topk_elem *q, int64_t n, int64_t k);

#endif
