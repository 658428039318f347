/* The iteration engine behind every pointwise op (DESIGN.md section 4), in the spirit of PyTorch's
   TensorIterator: operands (outputs first), broadcast shape, common dtype, output allocation with
   PyTorch's stride propagation, dimension reordering and coalescing, and a loop driver that casts
   on the fly through small buffers and splits work across threads. */
#ifndef CTORCH_ITER_H
#define CTORCH_ITER_H

#include "core/internal.h"

#define CT_ITER_MAX_OPERANDS 6
/* Dims kept inline; more spill to one heap block. */
#define CT_ITER_INLINE_DIMS 8

/* A 1-D inner loop: data[i] points at operand i's first element (outputs first), strides[i] is its
   byte stride, n the element count. ctx is the op's own argument block (alpha, scalar, ...). */
typedef void (*ct_loop_fn)(char **data, const int64_t *strides, int64_t n, const void *ctx);

typedef struct ct_iter_config {
  int n_out, n_in;
  ct_tensor *out[CT_ITER_MAX_OPERANDS];      /* NULL: allocate */
  const ct_tensor *in[CT_ITER_MAX_OPERANDS];
  bool promote_inputs;       /* compute in the inputs' common dtype (result_type) */
  bool promote_int_to_float; /* an integral/bool common dtype becomes the default float */
  bool cast_to_outputs;      /* compute in the common dtype, cast into outputs of another dtype */
  bool enforce_safe_cast;    /* can_cast(common, out dtype) or PyTorch's error */
  bool check_all_same_dtype; /* every operand must have the common dtype */
  /* every given output must have the compute dtype: check_all_same_dtype over inputs torch converted to it first
     (build_unary_op(out, self.to(result_type)): clamp with Scalar bounds, pow(Tensor, Scalar)) */
  bool check_out_dtype;
  bool check_mem_overlap;
  bool no_resize_outputs;    /* outputs keep their shape (in-place ops): a mismatch is an error */
  /* TensorIteratorConfig::allow_cpu_scalars (torch's binary ops): one CPU 0-dim input may join operands on
     another device; a second one is refused ("Trying to pass too many CPU scalars to non-CPU kernel!").
     Without it every operand must be on the common device. */
  bool allow_cpu_scalars;
  ct_dtype static_out_dtype; /* dtype of allocated outputs (e.g. bool for comparisons); UNSET: common */
  ct_dtype loop_out_dtype;   /* dtype the loop writes outputs in; UNSET: common */
  ct_dtype compute_dtype;    /* forces the common dtype (skips promotion); UNSET: computed */
  /* Dtype input i has inside the loop; UNSET: the common dtype. Lets an op take one input in its own dtype
     (where's bool condition, masked_fill's mask) while the others are promoted. With promote_inputs, an
     input converted to it is laid out as a converted temporary would be (empty_like(preserve)). */
  ct_dtype in_dtype[CT_ITER_MAX_OPERANDS];
  /* Called once the compute dtype is known and before any output is allocated or resized: the op's own
     checks (kernel exists for the dtype, argument rules). Records the error and returns false to stop. */
  bool (*validate)(ct_dtype common, const void *arg);
  const void *validate_arg;
} ct_iter_config;

/* All fields zero. Ops on the per-call path start their config as a copy of it: GCC compiles a zeroing
   initializer of this size to rep stos, whose start-up costs more than the rest of a small op's setup. */
extern const ct_iter_config ct__iter_config_zero;

typedef struct ct_iter {
  int n_out, n_ops;
  ct_tensor *ops[CT_ITER_MAX_OPERANDS]; /* outputs owned (one reference each), inputs borrowed */
  bool allocated[CT_ITER_MAX_OPERANDS];
  ct_dtype loop_dtype[CT_ITER_MAX_OPERANDS]; /* dtype each operand has inside the loop */
  ct_dtype common;
  ct_device device;
  bool is_meta;
  int64_t ndim;     /* after coalescing; dim 0 is the fastest-moving */
  int64_t numel;
  int64_t *shape;   /* [ndim] */
  int64_t *strides; /* [n_ops][ndim] byte strides, operand-major */
  int64_t *heap;    /* spill block for shape/strides/perm when dims exceed the inline room */
  struct ct_iter_bits *bits; /* NULL unless an operand has math bits (iter_bits.c) */
  /* per dim: shape, loop shape, loop strides (n_ops) and the layout work area (5 + 2 * n_ops), so
     iterations up to CT_ITER_INLINE_DIMS dims never allocate */
  int64_t inline_buf[(7 + 3 * CT_ITER_MAX_OPERANDS) * CT_ITER_INLINE_DIMS];
} ct_iter;

/* Checks everything, allocates or resizes outputs and prepares the loop. On failure nothing was
   changed (no output resized or written) and the error is recorded. */
ct_status ct__iter_build(ct_iter *it, const ct_iter_config *cfg);
/* Output i as a new reference the caller owns (allocated outputs move out; given ones are retained). */
ct_tensor *ct__iter_take_output(ct_iter *it, int i);
/* Frees what the iterator holds (outputs not taken are released). */
void ct__iter_finish(ct_iter *it);

/* ---- operands with math bits (iter_bits.c): torch's Conjugate/Negative fallbacks ---- */
/* Builds over resolved operands: each input with math bits is read through a resolved temporary, each
   output with them is computed into a resolved temporary that ct__iter_take_output / ct__iter_finish copy
   back into it (the copy applies its bits, so it reads the result), as torch's fallbacks do. */
ct_status ct__iter_build_resolved(ct_iter *it, const ct_iter_config *cfg);
/* Copies output o's temporary back into the given output and returns that output (a new reference);
   NULL when output o has no temporary. */
ct_tensor *ct__iter_bits_take(ct_iter *it, int o);
/* Writes back the outputs not taken and frees the temporaries. */
void ct__iter_bits_finish(ct_iter *it);

/* The broadcast shape of two shapes with PyTorch's error ("The size of tensor a (3) must match the
   size of tensor b (4) at non-singleton dimension 1"); out must hold max(na, nb) entries. */
ct_status ct__broadcast_shapes(const int64_t *a, int64_t na, const int64_t *b, int64_t nb, int64_t *out);

/* A loop with what the engine may do with it: its properties travel with it, in the op's loop table, so the
   engine reads them from what it is handed (no registry, no lookup).
   - in_size != 0 (elementwise): at each operand address the loop reads or writes one element of the
     operand's loop dtype, every input's being in_size bytes, and on a row where some input's stride is
     neither 0 nor its element size, each element's result depends on the values alone (not on that stride,
     the row's length or where the row starts). The engine may then read such an input through a buffer, at
     another stride of the same kind (a transposed tile, iter_tile.c).
   - stream (or NULL): a variant that writes the same values and sends a contiguous output to memory with
     non-temporal stores, for outputs far larger than the cache.
   - whole_rows: the loop's results depend on the whole row it is given (its length, an element's place in
     it): the engine never cuts rows into tiles for it (the thread split cuts them as torch's does).
   - serial: the loop's calls must come one after another in iteration order (accumulating writes whose
     targets repeat, as torch's serial_execution): the engine runs it on one thread.
   The loop generators of kernels/cpu/loops.h and binary_common.h define each loop's descriptor next to it
   (CT_LOOP_REF(fname) names it); a hand-written loop gets one with CT_LOOP_PLAIN (no property) or
   CT_LOOP_DEFINE. */
typedef struct ct_loop {
  ct_loop_fn fn;
  ct_loop_fn stream; /* NULL: none */
  int in_size;       /* 0: not elementwise */
  bool whole_rows;
  bool serial;
} ct_loop;
/* The descriptor of the loop fname (defined by its generator or CT_LOOP_DEFINE / CT_LOOP_PLAIN). */
#define CT_LOOP_REF(fname) (&fname##_loop_desc_)
#define CT_LOOP_DEFINE(fname, in_size, stream, whole_rows) \
  __attribute__((unused)) static const ct_loop fname##_loop_desc_ = {fname, stream, in_size, whole_rows, false};
#define CT_LOOP_PLAIN(fname) CT_LOOP_DEFINE(fname, 0, NULL, false)
#define CT_LOOP_SERIAL(fname) \
  __attribute__((unused)) static const ct_loop fname##_loop_desc_ = {fname, NULL, 0, false, true};
/* The declaration of a descriptor that another file defines (named as CT_LOOP_REF names it). */
#define CT_LOOP_EXTERN(fname) extern const ct_loop fname##_loop_desc_;
/* Runs loop over every element (nothing for meta or empty iterations). Never fails. */
void ct__iter_run(ct_iter *it, const ct_loop *loop, const void *ctx);

/* Output bytes beyond which outputs are streamed; 0 restores the default (the last-level cache size).
   For tests. */
void ct__iter_set_stream_threshold(int64_t bytes);
/* That threshold: outputs of more bytes are written with non-temporal stores (the engine's loops, and
   copies such as cat's: kernels/cpu/stream_copy.h). */
int64_t ct__iter_stream_threshold(void);

/* Turns the cache-blocked path off (and on again). For tests. */
void ct__iter_set_tiling(bool on);


/* The engine's check for an out= tensor about to be resized to shape (contiguous) that shares memory with
   an input other than element for element: records torch's partial-overlap error and returns false. For
   ops that resize an out themselves (resize_output + copy_), so that the failure comes before the resize. */
bool ct__check_resize_overlap(const ct_tensor *out, int64_t nd, const int64_t *shape, const ct_tensor *const *ins,
                              int n_in);

#endif
