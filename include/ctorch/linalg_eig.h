/* General eigenproblems and matrix functions: linalg.eig, linalg.eigvals, matrix_power, linalg.matrix_exp,
   linalg.tensorinv, linalg.tensorsolve, linalg.diagonal, as torch 1.13 computes them on the CPU (conventions:
   linalg.h's comment). */
#ifndef CTORCH_LINALG_EIG_H
#define CTORCH_LINALG_EIG_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.linalg.eig(A) (geev, as torch's CPU kernel): the eigenvalues (batch + [n], complex: complex64 for
   float32 and complex64 A) and the right eigenvectors (A's shape, complex, batched column-major, each of norm 1
   and unique only up to its phase). linalg.eigvals: the eigenvalues alone (geev without vectors). A must be
   square and float32/float64/complex64/complex128 ("\"linalg_eig_out_cpu\" not implemented for 'Half'"; an
   integer A: "Unknown Complex ScalarType for Long"); an A with infs or NaNs fails with "torch.linalg.eig: input
   tensor should not contain infs or NaNs.". out= tensors must be complex of at least the result's precision
   ("torch.linalg.eig: Expected eigenvalues to be safely castable from ComplexFloat dtype, but got eigenvalues
   with dtype Float"). */
CT_API ct_status ct_linalg_eig(const ct_tensor *A, ct_tensor **eigenvalues, ct_tensor **eigenvectors);
CT_API ct_status ct_linalg_eig_out(ct_tensor *eigenvalues, ct_tensor *eigenvectors, const ct_tensor *A);
CT_API ct_tensor *ct_linalg_eigvals(const ct_tensor *A);
CT_API ct_status ct_linalg_eigvals_out(ct_tensor *out, const ct_tensor *A);

/* torch.linalg.matrix_power(A, n) (torch.matrix_power, Tensor.matrix_power): n = 0 the identity, n = 1 a
   contiguous copy, n < 0 the inverse (linalg.inv's errors) raised to -n, otherwise products in torch's order
   (A A, (A A) A, then the binary decomposition of n from its lowest bit), so float results are torch's bits.
   Integer A is allowed for n >= 0 (the products are matmul's: "\"addmm_impl_cpu_\" not implemented for
   'Bool'"). out= takes any dtype A casts to safely ("matrix_power: Expected result to be safely castable from
   Float dtype, but got result with dtype Int"). */
CT_API ct_tensor *ct_linalg_matrix_power(const ct_tensor *A, int64_t n);
CT_API ct_status ct_linalg_matrix_power_out(ct_tensor *out, const ct_tensor *A, int64_t n);
CT_API ct_tensor *ct_matrix_power(const ct_tensor *A, int64_t n);
CT_API ct_status ct_matrix_power_out(ct_tensor *out, const ct_tensor *A, int64_t n);

/* torch.linalg.matrix_exp(A) (torch.matrix_exp, Tensor.matrix_exp): torch's Taylor approximation of degree 1,
   2, 4, 8, 12 or 18 chosen per matrix from its 1-norm (Bader, Blanes, Casas 2019), with scaling and squaring
   beyond the degree-18 bound; a 1 x 1 A is exp(A), a 0 x 0 A a copy. float32, float64, complex64, complex128
   ("matrix_exp: Expected a floating point or complex tensor as input. Got Long"). */
CT_API ct_tensor *ct_linalg_matrix_exp(const ct_tensor *A);
CT_API ct_tensor *ct_matrix_exp(const ct_tensor *A);

/* linalg.tensorinv's keyword: ind (has_ind false: torch's default, 2). */
typedef struct ct_linalg_tensorinv_opts {
  bool has_ind;
  int64_t ind;
} ct_linalg_tensorinv_opts;
/* torch.linalg.tensorinv(A, ind): the inverse of A read as a prod(A.shape[:ind]) square matrix, of shape
   A.shape[ind:] + A.shape[:ind] ("Expected a strictly positive integer for 'ind', but got 0"; "Expected self to
   satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got 6 != 4"; a singular
   matrix: "inv: The diagonal element 2 is zero, ..."). out= takes any dtype the result casts to safely. */
CT_API ct_tensor *ct_linalg_tensorinv(const ct_tensor *A, const ct_linalg_tensorinv_opts *opts);
CT_API ct_status ct_linalg_tensorinv_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tensorinv_opts *opts);

/* linalg.tensorsolve's keyword: dims (empty: torch's None), the dims of A moved to its end first. */
typedef struct ct_linalg_tensorsolve_opts {
  ct_dims dims;
} ct_linalg_tensorsolve_opts;
/* torch.linalg.tensorsolve(A, B, dims): X with tensordot(A, X, X.ndim) = B, solved as linalg.solve on A read
   as a prod(B.shape) square matrix; X has the shape of A's trailing dims. out= as tensorinv's. */
CT_API ct_tensor *ct_linalg_tensorsolve(const ct_tensor *A, const ct_tensor *B,
                                        const ct_linalg_tensorsolve_opts *opts);
CT_API ct_status ct_linalg_tensorsolve_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B,
                                           const ct_linalg_tensorsolve_opts *opts);

/* linalg.diagonal's keywords: offset, and dim1, dim2 when has_dims (otherwise torch's -2 and -1). */
typedef struct ct_linalg_diagonal_opts {
  int64_t offset;
  bool has_dims;
  int64_t dim1, dim2;
} ct_linalg_diagonal_opts;
/* torch.linalg.diagonal(A, offset, dim1, dim2): torch.diagonal with dims that default to the last two; a view
   of A. */
CT_API ct_tensor *ct_linalg_diagonal(const ct_tensor *A, const ct_linalg_diagonal_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_linalg_eig(...)             CT__CHECKED(3, CT__CK_ct_linalg_eig, ct_linalg_eig, __VA_ARGS__)
#define CT__CK_ct_linalg_eig(a, w, v)  ct_linalg_eig(CT__T(a), CT__TP(w), CT__TP(v))
#define ct_linalg_eig_out(...)         CT__CHECKED(3, CT__CK_ct_linalg_eig_out, ct_linalg_eig_out, __VA_ARGS__)
#define CT__CK_ct_linalg_eig_out(w, v, a) ct_linalg_eig_out(CT__TM(w), CT__TM(v), CT__T(a))
#define ct_linalg_eigvals(...)         CT__CHECKED(1, CT__CK_ct_linalg_eigvals, ct_linalg_eigvals, __VA_ARGS__)
#define CT__CK_ct_linalg_eigvals(a)    ct_linalg_eigvals(CT__T(a))
#define ct_linalg_eigvals_out(...) \
  CT__CHECKED(2, CT__CK_ct_linalg_eigvals_out, ct_linalg_eigvals_out, __VA_ARGS__)
#define CT__CK_ct_linalg_eigvals_out(out, a) ct_linalg_eigvals_out(CT__TM(out), CT__T(a))
#define ct_linalg_matrix_power(...) \
  CT__CHECKED(2, CT__CK_ct_linalg_matrix_power, ct_linalg_matrix_power, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_power(a, n) ct_linalg_matrix_power(CT__T(a), n)
#define ct_linalg_matrix_power_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_matrix_power_out, ct_linalg_matrix_power_out, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_power_out(out, a, n) ct_linalg_matrix_power_out(CT__TM(out), CT__T(a), n)
#define ct_matrix_power(...)         CT__CHECKED(2, CT__CK_ct_matrix_power, ct_matrix_power, __VA_ARGS__)
#define CT__CK_ct_matrix_power(a, n) ct_matrix_power(CT__T(a), n)
#define ct_matrix_power_out(...)     CT__CHECKED(3, CT__CK_ct_matrix_power_out, ct_matrix_power_out, __VA_ARGS__)
#define CT__CK_ct_matrix_power_out(out, a, n) ct_matrix_power_out(CT__TM(out), CT__T(a), n)
#define ct_linalg_matrix_exp(...)      CT__CHECKED(1, CT__CK_ct_linalg_matrix_exp, ct_linalg_matrix_exp, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_exp(a) ct_linalg_matrix_exp(CT__T(a))
#define ct_matrix_exp(...)             CT__CHECKED(1, CT__CK_ct_matrix_exp, ct_matrix_exp, __VA_ARGS__)
#define CT__CK_ct_matrix_exp(a)        ct_matrix_exp(CT__T(a))
#define ct_linalg_tensorinv(...)       CT__CHECKED(2, CT__CK_ct_linalg_tensorinv, ct_linalg_tensorinv, __VA_ARGS__)
#define CT__CK_ct_linalg_tensorinv(a, o) ct_linalg_tensorinv(CT__T(a), CT__OPTS(ct_linalg_tensorinv_opts, o))
#define ct_linalg_tensorinv_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_tensorinv_out, ct_linalg_tensorinv_out, __VA_ARGS__)
#define CT__CK_ct_linalg_tensorinv_out(out, a, o) \
  ct_linalg_tensorinv_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_tensorinv_opts, o))
#define ct_linalg_tensorsolve(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_tensorsolve, ct_linalg_tensorsolve, __VA_ARGS__)
#define CT__CK_ct_linalg_tensorsolve(a, b, o) \
  ct_linalg_tensorsolve(CT__T(a), CT__T(b), CT__OPTS(ct_linalg_tensorsolve_opts, o))
#define ct_linalg_tensorsolve_out(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_tensorsolve_out, ct_linalg_tensorsolve_out, __VA_ARGS__)
#define CT__CK_ct_linalg_tensorsolve_out(out, a, b, o) \
  ct_linalg_tensorsolve_out(CT__TM(out), CT__T(a), CT__T(b), CT__OPTS(ct_linalg_tensorsolve_opts, o))
#define ct_linalg_diagonal(...)          CT__CHECKED(2, CT__CK_ct_linalg_diagonal, ct_linalg_diagonal, __VA_ARGS__)
#define CT__CK_ct_linalg_diagonal(a, o) ct_linalg_diagonal(CT__T(a), CT__OPTS(ct_linalg_diagonal_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
