/* The reduction mode of the iteration engine (DESIGN.md section 4), in the spirit of TensorIterator's
   is_reduction: the input's dims split into kept dims (the outputs' dims; outputs broadcast with stride 0
   over the reduced ones) and reduced dims. Dims of size 1 drop out; reduced dims take PyTorch's order
   (logical order for index-tracking reductions), kept dims the input's stride order (PyTorch's where
   a kernel reproduces its loops); each group is coalesced, then a driver walks the reduced index space
   in fixed chunks and calls the op's kernel.

   An op is a declaration: its accumulator (size, identity), two inner loops (a strided 1-D run into one
   accumulator, and the vertical form that feeds a row of accumulators from consecutive kept columns),
   combine (merging the accumulator of a later chunk), and finish (writing the outputs); optionally batch
   forms of the inner loop, init and finish for runs of outputs, where many short reductions would pay
   an indirect call per output for each step. Chunks of the reduced index space have a fixed size,
   partial accumulators are combined in chunk order, and every output is computed from the same chunks
   by the same kernel calls whatever the thread count, so results do not depend on it. */
#ifndef CTORCH_ITER_REDUCE_H
#define CTORCH_ITER_REDUCE_H

#include "core/internal.h"

#define CT_RED_MAX_OUT 2
/* Largest accumulator in bytes. */
#define CT_RED_ACC_MAX 48
/* Reduced elements per chunk: reductions longer than this are split into chunks of this size, each
   reduced on its own and combined in order. */
#define CT_RED_CHUNK 32768

/* Where a vertical call's columns sit: the first one's index in the fastest kept dim, that dim's size,
   the number of reduced dims (after coalescing), and whether the first output's elements along that dim
   are adjacent (its stride there is its item size). Kernels that reproduce PyTorch's loop structure
   (which treats the leading columns of a row differently, where input and output are contiguous along
   it) need it. */
typedef struct ct_red_cols {
  int64_t first, total;
  int nr;
  bool out_unit;
} ct_red_cols;

typedef struct ct_red_kernel {
  size_t acc_size; /* bytes, a multiple of 8, at most CT_RED_ACC_MAX */
  /* The identity. aux points at this output's element of the auxiliary input (NULL when there is none). */
  void (*init)(void *acc, const char *aux, const void *ctx);
  /* acc <- acc (+) the n elements at in, in + stride, ...; the first one has reduced index idx. */
  void (*inner)(void *acc, const char *in, int64_t stride, int64_t n, int64_t idx, const void *ctx);
  /* For j < m: acc_j (at acc + j * acc_size) <- acc_j (+) the n elements in + j * col_stride + i * row_stride
     (i < n, element i has reduced index idx + i). Optional: NULL makes the driver call inner per column. */
  void (*outer)(void *acc, const char *in, int64_t col_stride, int64_t m, int64_t row_stride, int64_t n,
                int64_t idx, const ct_red_cols *cols, const void *ctx);
  /* acc <- acc (+) later, where later covers reduced indices after acc's. */
  void (*combine)(void *acc, const void *later, const void *ctx);
  /* Writes the result: out[o] points at output o's element. */
  void (*finish)(char *const *out, const void *acc, const void *ctx);
  /* Each output is reduced front to back by one call sequence, never split into chunks (for kernels that
     reproduce PyTorch's sequential accumulation; combine is then never called). */
  bool sequential;
  /* outer reproduces PyTorch's loop over columns (its rounding depends on it): the kept dim that moves
     fastest is then PyTorch's (the outputs' strides decide it), not the input's fastest. */
  bool torch_loops;
  /* For j < m, each on its own: acc_j <- acc_j (+) the n elements in + j * col_stride + i * row_stride
     (exactly inner on each line, idx 0), for outputs whose whole reduction is one line each. Optional:
     NULL makes the driver call inner per output, whose call and dispatch cost more than a short line. */
  void (*inner_run)(void *acc, const char *in, int64_t col_stride, int64_t m, int64_t row_stride, int64_t n,
                    const void *ctx);
  /* Optional batch forms of init and finish for m consecutive accumulators (aux + j * aux_stride, output
     o's element at out[o] + j * out_stride[o]; aux NULL when there is none): with short reductions an
     indirect call per output costs as much as the reduction. NULL: the driver calls init / finish. */
  void (*init_run)(void *acc, const char *aux, int64_t aux_stride, int64_t m, const void *ctx);
  void (*finish_run)(char *const *out, const int64_t *out_stride, const void *acc, int64_t m, const void *ctx);
} ct_red_kernel;

typedef struct ct_red_config {
  const ct_tensor *in; /* in the kernel's dtype */
  uint64_t mask;       /* bit d: input dim d is reduced (a 0-dim input has one element either way) */
  int n_out;
  ct_tensor *out[CT_RED_MAX_OUT]; /* shaped as the reduction result (keepdim or not) */
  bool keepdim;                   /* outputs keep the reduced dims as size-1 dims */
  const ct_tensor *aux;           /* optional input shaped like the outputs, read by init */
  bool ordered;                   /* reduced dims walked in logical order: idx is the flat index */
} ct_red_config;

/* TensorIterator's is_reduce_lastdim for this configuration: the reduced elements of every output form
   one contiguous run of the input (one reduced dim after coalescing, element stride 1). */
bool ct__reduce_is_lastdim(const ct_red_config *cfg);

/* Runs the reduction (nothing for meta tensors or when the outputs are empty). An empty reduced set
   gives each output init then finish. Fails only for lack of memory (before writing anything). */
ct_status ct__reduce_run(const ct_red_config *cfg, const ct_red_kernel *k, const void *ctx);

#endif
