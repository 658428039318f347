/* Joining and reordering: cat and the stacks, meshgrid, block_diag, cartesian_prod, combinations, kron,
   repeat, repeat_interleave, tile, roll, rot90, flip, tril/triu, the diagonal builders, the scatter forms of
   the views (select_scatter, ...), narrow_copy and diff, with torch 1.13's dtypes, result layouts and
   messages.

   Tensor lists are borrowed `ct_tensors` (types.h): ct_cat(CT_TENSORS(a, b), 0), or ct_tensors_of(list) for
   a returned ct_tensor_list. Results are new tensors as torch's (atleast_Nd, meshgrid: views or the input;
   cartesian_prod of one tensor: that tensor); list results are ct_tensor_lists owned as ct_split's. out= forms
   resize out as torch's resize_output does (contiguous, when its shape differs) and refuse an out whose dtype
   the result cannot be written to with torch's message; a failed call changes nothing. */
#ifndef CTORCH_JOIN_H
#define CTORCH_JOIN_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.cat(tensors, dim): the inputs' common dtype (torch 1.13 promotes); 1-D empty tensors (shape [0])
   are skipped as torch skips them. concat and concatenate are its aliases (concatenate's dim is numpy's
   axis). Errors: an empty list ("torch.cat(): expected a non-empty list of Tensors"), a 0-dim input, sizes
   that differ outside dim, a dim out of range. */
CT_API ct_tensor *ct_cat(ct_tensors tensors, int64_t dim);
CT_API ct_status ct_cat_out(ct_tensor *out, ct_tensors tensors, int64_t dim);
CT_API ct_tensor *ct_concat(ct_tensors tensors, int64_t dim);
CT_API ct_status ct_concat_out(ct_tensor *out, ct_tensors tensors, int64_t dim);
CT_API ct_tensor *ct_concatenate(ct_tensors tensors, int64_t axis);
CT_API ct_status ct_concatenate_out(ct_tensor *out, ct_tensors tensors, int64_t axis);

/* torch.stack (a new dim; every input of the same shape), hstack, vstack (row_stack), dstack and
   column_stack: cat of the inputs made at least 1-, 2- or 3-D as numpy does. */
CT_API ct_tensor *ct_stack(ct_tensors tensors, int64_t dim);
CT_API ct_status ct_stack_out(ct_tensor *out, ct_tensors tensors, int64_t dim);
CT_API ct_tensor *ct_hstack(ct_tensors tensors);
CT_API ct_status ct_hstack_out(ct_tensor *out, ct_tensors tensors);
CT_API ct_tensor *ct_vstack(ct_tensors tensors);
CT_API ct_status ct_vstack_out(ct_tensor *out, ct_tensors tensors);
CT_API ct_tensor *ct_row_stack(ct_tensors tensors);
CT_API ct_status ct_row_stack_out(ct_tensor *out, ct_tensors tensors);
CT_API ct_tensor *ct_dstack(ct_tensors tensors);
CT_API ct_status ct_dstack_out(ct_tensor *out, ct_tensors tensors);
CT_API ct_tensor *ct_column_stack(ct_tensors tensors);
CT_API ct_status ct_column_stack_out(ct_tensor *out, ct_tensors tensors);

/* torch.atleast_1d/2d/3d: t itself (a new reference) when it has the dims, else a view with leading (3d of
   a 2-D tensor: a trailing) dims of size 1. The _list forms take several tensors, as torch.atleast_1d(a, b). */
CT_API ct_tensor *ct_atleast_1d(const ct_tensor *t);
CT_API ct_tensor *ct_atleast_2d(const ct_tensor *t);
CT_API ct_tensor *ct_atleast_3d(const ct_tensor *t);
CT_API ct_tensor_list *ct_atleast_1d_list(ct_tensors tensors);
CT_API ct_tensor_list *ct_atleast_2d_list(ct_tensors tensors);
CT_API ct_tensor_list *ct_atleast_3d_list(ct_tensors tensors);

/* meshgrid's indexing keyword. UNSET is torch's default, "ij" (torch 1.13 warns that it will change). */
typedef enum ct_meshgrid_indexing { CT_MESHGRID_UNSET = 0, CT_MESHGRID_IJ, CT_MESHGRID_XY } ct_meshgrid_indexing;
typedef struct ct_meshgrid_opts {
  ct_meshgrid_indexing indexing;
} ct_meshgrid_opts;
/* torch.meshgrid(*tensors, indexing=): expanded views of the 0- or 1-D inputs, one per input. */
CT_API ct_tensor_list *ct_meshgrid(ct_tensors tensors, const ct_meshgrid_opts *opts);
/* torch.block_diag(*tensors): 0-, 1- or 2-D inputs on the diagonal of a zero matrix (promoted dtype). */
CT_API ct_tensor *ct_block_diag(ct_tensors tensors);
/* torch.cartesian_prod(*tensors): every combination of the 1-D inputs' elements, one per row (a single
   input: a copy of it). */
CT_API ct_tensor *ct_cartesian_prod(ct_tensors tensors);

typedef struct ct_combinations_opts {
  bool with_replacement;
} ct_combinations_opts;
/* torch.combinations(input, r): the r-element combinations of a 1-D tensor's elements, in torch's order. */
CT_API ct_tensor *ct_combinations(const ct_tensor *t, int64_t r, const ct_combinations_opts *opts);

/* torch.kron(input, other): the Kronecker product (promoted dtype). */
CT_API ct_tensor *ct_kron(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_kron_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);

/* Tensor.repeat(*sizes) (sizes at least t's dims) and torch.tile(input, dims) (dims padded with 1s). */
CT_API ct_tensor *ct_repeat(const ct_tensor *t, ct_shape repeats);
CT_API ct_tensor *ct_tile(const ct_tensor *t, ct_shape dims);

/* repeat_interleave's keywords. dim: none (ndim 0) flattens the input first, else one dim;
   output_size: 0 is None (otherwise the sum of the repeats, which torch trusts). */
typedef struct ct_repeat_interleave_opts {
  ct_dims dim;
  int64_t output_size;
} ct_repeat_interleave_opts;
/* torch.repeat_interleave(input, repeats, dim): each element repeated `repeats` times (an int), or
   repeats[i] times (a 0- or 1-D integer tensor of one entry per element along dim, or one entry);
   ct_repeat_interleave_repeats is the one-argument form torch.repeat_interleave(repeats): each index i
   repeats[i] times. */
CT_API ct_tensor *ct_repeat_interleave(const ct_tensor *t, int64_t repeats, const ct_repeat_interleave_opts *opts);
CT_API ct_tensor *ct_repeat_interleave_tensor(const ct_tensor *t, const ct_tensor *repeats,
                                              const ct_repeat_interleave_opts *opts);
CT_API ct_tensor *ct_repeat_interleave_repeats(const ct_tensor *repeats, const ct_repeat_interleave_opts *opts);

/* roll's dims keyword: none (ndim 0) rolls the flattened tensor, else one dim per shift. */
typedef struct ct_roll_opts {
  ct_dims dims;
} ct_roll_opts;
/* torch.roll(input, shifts, dims). */
CT_API ct_tensor *ct_roll(const ct_tensor *t, ct_shape shifts, const ct_roll_opts *opts);
/* rot90's dims keyword: none (ndim 0) is torch's default [0, 1]. */
typedef struct ct_rot90_opts {
  ct_dims dims;
} ct_rot90_opts;
/* torch.rot90(input, k, dims): k quarter turns from dims[0] towards dims[1] (k may be negative). */
CT_API ct_tensor *ct_rot90(const ct_tensor *t, int64_t k, const ct_rot90_opts *opts);
/* torch.flip(input, dims), fliplr (dim 1; at least 2-D), flipud (dim 0; at least 1-D): copies. */
CT_API ct_tensor *ct_flip(const ct_tensor *t, ct_dims dims);
CT_API ct_tensor *ct_fliplr(const ct_tensor *t);
CT_API ct_tensor *ct_flipud(const ct_tensor *t);

/* torch.tril / torch.triu(input, diagonal): the lower / upper triangle of the last two dims (at least
   2-D), the rest zero; diagonal 0 is the main diagonal, > 0 above it. In place and out= forms. */
CT_API ct_tensor *ct_tril(const ct_tensor *t, int64_t diagonal);
CT_API ct_status ct_tril_(ct_tensor *self, int64_t diagonal);
CT_API ct_status ct_tril_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal);
CT_API ct_tensor *ct_triu(const ct_tensor *t, int64_t diagonal);
CT_API ct_status ct_triu_(ct_tensor *self, int64_t diagonal);
CT_API ct_status ct_triu_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal);
/* torch.tril_indices / triu_indices(row, col, offset): a 2 x N tensor of the coordinates, row-major.
   opts: dtype (UNSET: int64) and device, as torch's keywords. */
CT_API ct_tensor *ct_tril_indices(int64_t row, int64_t col, int64_t offset, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_triu_indices(int64_t row, int64_t col, int64_t offset, const ct_tensor_opts *opts);

/* torch.diag(input, diagonal): of a 1-D tensor the square matrix with it on that diagonal, of a 2-D one a
   copy of that diagonal. diag_embed(input, offset, dim1, dim2) (torch's defaults: 0, -2, -1) puts the last
   dim on the diagonal of dims dim1, dim2 of a new zero tensor; diagflat(input, offset) the flattened input. */
CT_API ct_tensor *ct_diag(const ct_tensor *t, int64_t diagonal);
CT_API ct_status ct_diag_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal);
CT_API ct_tensor *ct_diag_embed(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
CT_API ct_tensor *ct_diagflat(const ct_tensor *t, int64_t offset);

typedef struct ct_fill_diagonal_opts {
  bool wrap;
} ct_fill_diagonal_opts;
/* Tensor.fill_diagonal_(fill_value, wrap): in place, on a 2-D tensor or one whose dims are all equal;
   wrap continues the diagonal below a tall matrix's first square, as torch. */
CT_API ct_status ct_fill_diagonal_(ct_tensor *self, ct_scalar fill_value, const ct_fill_diagonal_opts *opts);

/* torch.narrow_copy(input, dim, start, length): narrow's elements as a new contiguous tensor. */
CT_API ct_tensor *ct_narrow_copy(const ct_tensor *t, int64_t dim, int64_t start, int64_t length);
CT_API ct_status ct_narrow_copy_out(ct_tensor *out, const ct_tensor *t, int64_t dim, int64_t start, int64_t length);
/* The scatter forms of views: a copy of input with src written into the view that select(dim, index),
   slice(dim, start, end, step) (end CT_END: to the end), diagonal(offset, dim1, dim2) or
   as_strided(size, stride, storage_offset) (NULL: input's offset) would give; src has the view's shape. */
CT_API ct_tensor *ct_select_scatter(const ct_tensor *t, const ct_tensor *src, int64_t dim, int64_t index);
CT_API ct_tensor *ct_slice_scatter(const ct_tensor *t, const ct_tensor *src, int64_t dim, int64_t start,
                                   int64_t end, int64_t step);
CT_API ct_tensor *ct_diagonal_scatter(const ct_tensor *t, const ct_tensor *src, int64_t offset, int64_t dim1,
                                      int64_t dim2);
CT_API ct_tensor *ct_as_strided_scatter(const ct_tensor *t, const ct_tensor *src, ct_shape size, ct_shape stride,
                                        const int64_t *storage_offset);

/* diff's prepend= and append= (NULL: None): joined to the input along dim before differencing. */
typedef struct ct_diff_opts {
  const ct_tensor *prepend;
  const ct_tensor *append;
} ct_diff_opts;
/* torch.diff(input, n, dim) (torch's defaults: 1, -1): the n-th forward difference along dim (bool:
   logical xor). */
CT_API ct_tensor *ct_diff(const ct_tensor *t, int64_t n, int64_t dim, const ct_diff_opts *opts);
CT_API ct_status ct_diff_out(ct_tensor *out, const ct_tensor *t, int64_t n, int64_t dim, const ct_diff_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_cat_out(...) CT__CHECKED(3, CT__CK_ct_cat_out, ct_cat_out, __VA_ARGS__)
#define CT__CK_ct_cat_out(out, ts, d) ct_cat_out(CT__TM(out), ts, d)
#define ct_concat_out(...) CT__CHECKED(3, CT__CK_ct_concat_out, ct_concat_out, __VA_ARGS__)
#define CT__CK_ct_concat_out(out, ts, d) ct_concat_out(CT__TM(out), ts, d)
#define ct_concatenate_out(...) CT__CHECKED(3, CT__CK_ct_concatenate_out, ct_concatenate_out, __VA_ARGS__)
#define CT__CK_ct_concatenate_out(out, ts, d) ct_concatenate_out(CT__TM(out), ts, d)
#define ct_stack_out(...) CT__CHECKED(3, CT__CK_ct_stack_out, ct_stack_out, __VA_ARGS__)
#define CT__CK_ct_stack_out(out, ts, d) ct_stack_out(CT__TM(out), ts, d)
#define ct_hstack_out(...) CT__CHECKED(2, CT__CK_ct_hstack_out, ct_hstack_out, __VA_ARGS__)
#define CT__CK_ct_hstack_out(out, ts) ct_hstack_out(CT__TM(out), ts)
#define ct_vstack_out(...) CT__CHECKED(2, CT__CK_ct_vstack_out, ct_vstack_out, __VA_ARGS__)
#define CT__CK_ct_vstack_out(out, ts) ct_vstack_out(CT__TM(out), ts)
#define ct_row_stack_out(...) CT__CHECKED(2, CT__CK_ct_row_stack_out, ct_row_stack_out, __VA_ARGS__)
#define CT__CK_ct_row_stack_out(out, ts) ct_row_stack_out(CT__TM(out), ts)
#define ct_dstack_out(...) CT__CHECKED(2, CT__CK_ct_dstack_out, ct_dstack_out, __VA_ARGS__)
#define CT__CK_ct_dstack_out(out, ts) ct_dstack_out(CT__TM(out), ts)
#define ct_column_stack_out(...) CT__CHECKED(2, CT__CK_ct_column_stack_out, ct_column_stack_out, __VA_ARGS__)
#define CT__CK_ct_column_stack_out(out, ts) ct_column_stack_out(CT__TM(out), ts)
#define ct_atleast_1d(...) CT__CHECKED(1, CT__CK_ct_atleast_1d, ct_atleast_1d, __VA_ARGS__)
#define CT__CK_ct_atleast_1d(t) ct_atleast_1d(CT__T(t))
#define ct_atleast_2d(...) CT__CHECKED(1, CT__CK_ct_atleast_2d, ct_atleast_2d, __VA_ARGS__)
#define CT__CK_ct_atleast_2d(t) ct_atleast_2d(CT__T(t))
#define ct_atleast_3d(...) CT__CHECKED(1, CT__CK_ct_atleast_3d, ct_atleast_3d, __VA_ARGS__)
#define CT__CK_ct_atleast_3d(t) ct_atleast_3d(CT__T(t))
#define ct_meshgrid(...) CT__CHECKED(2, CT__CK_ct_meshgrid, ct_meshgrid, __VA_ARGS__)
#define CT__CK_ct_meshgrid(ts, o) ct_meshgrid(ts, CT__OPTS(ct_meshgrid_opts, o))
#define ct_combinations(...) CT__CHECKED(3, CT__CK_ct_combinations, ct_combinations, __VA_ARGS__)
#define CT__CK_ct_combinations(t, r, o) ct_combinations(CT__T(t), r, CT__OPTS(ct_combinations_opts, o))
#define ct_kron(...) CT__CHECKED(2, CT__CK_ct_kron, ct_kron, __VA_ARGS__)
#define CT__CK_ct_kron(t, o) ct_kron(CT__T(t), CT__T(o))
#define ct_kron_out(...) CT__CHECKED(3, CT__CK_ct_kron_out, ct_kron_out, __VA_ARGS__)
#define CT__CK_ct_kron_out(out, t, o) ct_kron_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_repeat(...) CT__CHECKED(2, CT__CK_ct_repeat, ct_repeat, __VA_ARGS__)
#define CT__CK_ct_repeat(t, r) ct_repeat(CT__T(t), r)
#define ct_tile(...) CT__CHECKED(2, CT__CK_ct_tile, ct_tile, __VA_ARGS__)
#define CT__CK_ct_tile(t, r) ct_tile(CT__T(t), r)
#define ct_repeat_interleave(...) CT__CHECKED(3, CT__CK_ct_repeat_interleave, ct_repeat_interleave, __VA_ARGS__)
#define CT__CK_ct_repeat_interleave(t, r, o) \
  ct_repeat_interleave(CT__T(t), r, CT__OPTS(ct_repeat_interleave_opts, o))
#define ct_repeat_interleave_tensor(...) \
  CT__CHECKED(3, CT__CK_ct_repeat_interleave_tensor, ct_repeat_interleave_tensor, __VA_ARGS__)
#define CT__CK_ct_repeat_interleave_tensor(t, r, o) \
  ct_repeat_interleave_tensor(CT__T(t), CT__T(r), CT__OPTS(ct_repeat_interleave_opts, o))
#define ct_repeat_interleave_repeats(...) \
  CT__CHECKED(2, CT__CK_ct_repeat_interleave_repeats, ct_repeat_interleave_repeats, __VA_ARGS__)
#define CT__CK_ct_repeat_interleave_repeats(r, o) \
  ct_repeat_interleave_repeats(CT__T(r), CT__OPTS(ct_repeat_interleave_opts, o))
#define ct_roll(...) CT__CHECKED(3, CT__CK_ct_roll, ct_roll, __VA_ARGS__)
#define CT__CK_ct_roll(t, s, o) ct_roll(CT__T(t), s, CT__OPTS(ct_roll_opts, o))
#define ct_rot90(...) CT__CHECKED(3, CT__CK_ct_rot90, ct_rot90, __VA_ARGS__)
#define CT__CK_ct_rot90(t, k, o) ct_rot90(CT__T(t), k, CT__OPTS(ct_rot90_opts, o))
#define ct_flip(...) CT__CHECKED(2, CT__CK_ct_flip, ct_flip, __VA_ARGS__)
#define CT__CK_ct_flip(t, d) ct_flip(CT__T(t), d)
#define ct_fliplr(...) CT__CHECKED(1, CT__CK_ct_fliplr, ct_fliplr, __VA_ARGS__)
#define CT__CK_ct_fliplr(t) ct_fliplr(CT__T(t))
#define ct_flipud(...) CT__CHECKED(1, CT__CK_ct_flipud, ct_flipud, __VA_ARGS__)
#define CT__CK_ct_flipud(t) ct_flipud(CT__T(t))
#define ct_tril(...) CT__CHECKED(2, CT__CK_ct_tril, ct_tril, __VA_ARGS__)
#define CT__CK_ct_tril(t, d) ct_tril(CT__T(t), d)
#define ct_tril_(...) CT__CHECKED(2, CT__CK_ct_tril_, ct_tril_, __VA_ARGS__)
#define CT__CK_ct_tril_(t, d) ct_tril_(CT__TM(t), d)
#define ct_tril_out(...) CT__CHECKED(3, CT__CK_ct_tril_out, ct_tril_out, __VA_ARGS__)
#define CT__CK_ct_tril_out(out, t, d) ct_tril_out(CT__TM(out), CT__T(t), d)
#define ct_triu(...) CT__CHECKED(2, CT__CK_ct_triu, ct_triu, __VA_ARGS__)
#define CT__CK_ct_triu(t, d) ct_triu(CT__T(t), d)
#define ct_triu_(...) CT__CHECKED(2, CT__CK_ct_triu_, ct_triu_, __VA_ARGS__)
#define CT__CK_ct_triu_(t, d) ct_triu_(CT__TM(t), d)
#define ct_triu_out(...) CT__CHECKED(3, CT__CK_ct_triu_out, ct_triu_out, __VA_ARGS__)
#define CT__CK_ct_triu_out(out, t, d) ct_triu_out(CT__TM(out), CT__T(t), d)
#define ct_tril_indices(...) CT__CHECKED(4, CT__CK_ct_tril_indices, ct_tril_indices, __VA_ARGS__)
#define CT__CK_ct_tril_indices(r, c, k, o) ct_tril_indices(r, c, k, CT__OPTS(ct_tensor_opts, o))
#define ct_triu_indices(...) CT__CHECKED(4, CT__CK_ct_triu_indices, ct_triu_indices, __VA_ARGS__)
#define CT__CK_ct_triu_indices(r, c, k, o) ct_triu_indices(r, c, k, CT__OPTS(ct_tensor_opts, o))
#define ct_diag(...) CT__CHECKED(2, CT__CK_ct_diag, ct_diag, __VA_ARGS__)
#define CT__CK_ct_diag(t, d) ct_diag(CT__T(t), d)
#define ct_diag_out(...) CT__CHECKED(3, CT__CK_ct_diag_out, ct_diag_out, __VA_ARGS__)
#define CT__CK_ct_diag_out(out, t, d) ct_diag_out(CT__TM(out), CT__T(t), d)
#define ct_diag_embed(...) CT__CHECKED(4, CT__CK_ct_diag_embed, ct_diag_embed, __VA_ARGS__)
#define CT__CK_ct_diag_embed(t, k, a, b) ct_diag_embed(CT__T(t), k, a, b)
#define ct_diagflat(...) CT__CHECKED(2, CT__CK_ct_diagflat, ct_diagflat, __VA_ARGS__)
#define CT__CK_ct_diagflat(t, k) ct_diagflat(CT__T(t), k)
#define ct_fill_diagonal_(...) CT__CHECKED(3, CT__CK_ct_fill_diagonal_, ct_fill_diagonal_, __VA_ARGS__)
#define CT__CK_ct_fill_diagonal_(t, v, o) ct_fill_diagonal_(CT__TM(t), CT_NUM(v), CT__OPTS(ct_fill_diagonal_opts, o))
#define ct_narrow_copy(...) CT__CHECKED(4, CT__CK_ct_narrow_copy, ct_narrow_copy, __VA_ARGS__)
#define CT__CK_ct_narrow_copy(t, d, s, l) ct_narrow_copy(CT__T(t), d, s, l)
#define ct_narrow_copy_out(...) CT__CHECKED(5, CT__CK_ct_narrow_copy_out, ct_narrow_copy_out, __VA_ARGS__)
#define CT__CK_ct_narrow_copy_out(out, t, d, s, l) ct_narrow_copy_out(CT__TM(out), CT__T(t), d, s, l)
#define ct_select_scatter(...) CT__CHECKED(4, CT__CK_ct_select_scatter, ct_select_scatter, __VA_ARGS__)
#define CT__CK_ct_select_scatter(t, src, d, i) ct_select_scatter(CT__T(t), CT__T(src), d, i)
#define ct_slice_scatter(...) CT__CHECKED(6, CT__CK_ct_slice_scatter, ct_slice_scatter, __VA_ARGS__)
#define CT__CK_ct_slice_scatter(t, src, d, s, e, st) ct_slice_scatter(CT__T(t), CT__T(src), d, s, e, st)
#define ct_diagonal_scatter(...) CT__CHECKED(5, CT__CK_ct_diagonal_scatter, ct_diagonal_scatter, __VA_ARGS__)
#define ct_as_strided_scatter(...) CT__CHECKED(5, CT__CK_ct_as_strided_scatter, ct_as_strided_scatter, __VA_ARGS__)
#define CT__CK_ct_as_strided_scatter(t, src, sz, st, o) ct_as_strided_scatter(CT__T(t), CT__T(src), sz, st, o)
#define CT__CK_ct_diagonal_scatter(t, src, k, a, b) ct_diagonal_scatter(CT__T(t), CT__T(src), k, a, b)
#define ct_diff(...) CT__CHECKED(4, CT__CK_ct_diff, ct_diff, __VA_ARGS__)
#define CT__CK_ct_diff(t, n, d, o) ct_diff(CT__T(t), n, d, CT__OPTS(ct_diff_opts, o))
#define ct_diff_out(...) CT__CHECKED(5, CT__CK_ct_diff_out, ct_diff_out, __VA_ARGS__)
#define CT__CK_ct_diff_out(out, t, n, d, o) ct_diff_out(CT__TM(out), CT__T(t), n, d, CT__OPTS(ct_diff_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
