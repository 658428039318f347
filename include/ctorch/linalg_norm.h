/* Matrix norms: linalg.matrix_norm, linalg.norm, norm(p='nuc'), linalg.cond, as torch 1.13 computes them on the CPU (conventions: linalg.h's comment). */
#ifndef CTORCH_LINALG_NORM_H
#define CTORCH_LINALG_NORM_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* These are torch's composites, step for step: 'fro' is linalg.vector_norm(A, 2) over the two dims; 1, -1, inf
   and -inf are vector_norm(A, 1) over one dim, then amax or amin over the other; 2, -2 and 'nuc' are the
   largest, the smallest or the sum of linalg.svdvals of A with the two dims moved to the end; cond divides
   singular values (None, 2, -2) or multiplies the norms of A and of its inverse (the others). So results match
   torch's bits where its kernels are reproduced (vector norms, amax, sums) and LAPACK's last bits otherwise.

   An order is a kind and, for a number, the number: {.ord = CT_NORM_FRO}, {.ord = CT_NORM_P, .p = CT_INT(-2)},
   {.ord = CT_NORM_P, .p = CT_DOUBLE(INFINITY)}. A number given with another kind, or a kind without its number,
   is refused (ValueError), so that an order cannot be read as another. A number keeps its Python type where
   torch prints it: cond's "linalg.cond(ord=1)" for the int 1, "linalg.cond(ord=1.000000)" for the float. */
typedef enum ct_norm_ord {
  CT_NORM_DEFAULT = 0, /* torch's default: 'fro' (matrix_norm), None (linalg.norm, cond) */
  CT_NORM_P,           /* the number in .p */
  CT_NORM_FRO,         /* 'fro' */
  CT_NORM_NUC,         /* 'nuc' */
} ct_norm_ord;

/* torch.linalg.matrix_norm's keywords: ord ('fro' by default; numbers 2, -2, 1, -1, INFINITY, -INFINITY); dims:
   the two dims of the matrices (empty: (-2, -1)); dtype: A is converted to it first (the result is its real
   dtype). */
typedef struct ct_matrix_norm_opts {
  ct_norm_ord ord;
  ct_scalar p;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} ct_matrix_norm_opts;

/* torch.linalg.norm's keywords: ord (default None: the 2-norm of all the values, or over dims), dims (empty:
   None; one dim: a vector norm of any number order; two: a matrix norm), keepdim, dtype. */
typedef struct ct_linalg_norm_opts {
  ct_norm_ord ord;
  ct_scalar p;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} ct_linalg_norm_opts;

/* torch.linalg.cond's ord (default None: 2): numbers 2, -2, 1, -1, INFINITY, -INFINITY, or 'fro', 'nuc'. */
typedef struct ct_linalg_cond_opts {
  ct_norm_ord ord;
  ct_scalar p;
} ct_linalg_cond_opts;

/* torch.linalg.matrix_norm(A, ord, dim, keepdim, dtype): the norm of each matrix over dims (the result has A's
   other dims, real). Errors (RuntimeError unless said): "linalg.matrix_norm: Order 3 not supported.", "... The
   input tensor A must have at least 2 dimensions.", "... Expected a floating point or complex tensor as input.
   Got Long", "... Low precision dtypes not supported. Got Half" (2, -2, 'nuc'), "... dim must be a 2-tuple.
   Got 1 2 0", IndexError for a dim out of range, "... dims must be different. Got (1, 1)", the dtype's ("...
   dtype should be real for real inputs, but got ComplexFloat"), and those of the reductions on empty matrices
   (IndexError "amax(): Expected reduction dim 1 to have non-zero size." for inf, -1, 2 ...). out= checks out's
   device before and its dtype after computing ("linalg.matrix_norm expected out tensor dtype Float but got:
   Double"), then resizes and copies. */
CT_API ct_tensor *ct_linalg_matrix_norm(const ct_tensor *A, const ct_matrix_norm_opts *opts);
CT_API ct_status ct_linalg_matrix_norm_out(ct_tensor *out, const ct_tensor *A, const ct_matrix_norm_opts *opts);
/* torch.linalg.norm(A, ord, dim, keepdim, dtype): linalg.vector_norm (ord None, or a number over one dim or a
   1-D A) or linalg.matrix_norm (a number over two dims or a 2-D A; 'fro' and 'nuc'), as torch dispatches.
   "linalg.norm: If dim is specified, it must be of length 1 or 2. Got [0, 1, 2]", "linalg.norm: If dim is not
   specified but ord is, the input must be 1D or 2D. Got 3D.", then the errors of the norm it runs. */
CT_API ct_tensor *ct_linalg_norm(const ct_tensor *A, const ct_linalg_norm_opts *opts);
CT_API ct_status ct_linalg_norm_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_norm_opts *opts);
/* torch.linalg.cond(A, p): the condition number of each matrix, real. 2 / -2 (and None): the ratio of the
   extreme singular values (any shape; inf or nan for a singular matrix, as the division gives); the others need
   square A, and a singular matrix gives inf (its inverse is taken as inf, the product's nan becomes inf); an
   empty A gives zeros of the batch's shape. "linalg.cond: The input tensor must have at least 2 dimensions.",
   "linalg.cond got an invalid norm type: 3", "linalg.cond(ord=1): A must be batches of square matrices, but
   they are 3 by 4 matrices", then linalg.svd's or linalg.inv's dtype errors. out= must be castable from the
   result's dtype ("linalg.cond: Expected result to be safely castable from Float dtype, but got result with
   dtype Long"). */
CT_API ct_tensor *ct_linalg_cond(const ct_tensor *A, const ct_linalg_cond_opts *opts);
CT_API ct_status ct_linalg_cond_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_cond_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_linalg_matrix_norm(...) CT__CHECKED(2, CT__CK_ct_linalg_matrix_norm, ct_linalg_matrix_norm, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_norm(a, o) ct_linalg_matrix_norm(CT__T(a), CT__OPTS(ct_matrix_norm_opts, o))
#define ct_linalg_matrix_norm_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_matrix_norm_out, ct_linalg_matrix_norm_out, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_norm_out(out, a, o) \
  ct_linalg_matrix_norm_out(CT__TM(out), CT__T(a), CT__OPTS(ct_matrix_norm_opts, o))
#define ct_linalg_norm(...)         CT__CHECKED(2, CT__CK_ct_linalg_norm, ct_linalg_norm, __VA_ARGS__)
#define CT__CK_ct_linalg_norm(a, o) ct_linalg_norm(CT__T(a), CT__OPTS(ct_linalg_norm_opts, o))
#define ct_linalg_norm_out(...)     CT__CHECKED(3, CT__CK_ct_linalg_norm_out, ct_linalg_norm_out, __VA_ARGS__)
#define CT__CK_ct_linalg_norm_out(out, a, o) \
  ct_linalg_norm_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_norm_opts, o))
#define ct_linalg_cond(...)         CT__CHECKED(2, CT__CK_ct_linalg_cond, ct_linalg_cond, __VA_ARGS__)
#define CT__CK_ct_linalg_cond(a, o) ct_linalg_cond(CT__T(a), CT__OPTS(ct_linalg_cond_opts, o))
#define ct_linalg_cond_out(...)     CT__CHECKED(3, CT__CK_ct_linalg_cond_out, ct_linalg_cond_out, __VA_ARGS__)
#define CT__CK_ct_linalg_cond_out(out, a, o) \
  ct_linalg_cond_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_cond_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
