/* Linear algebra: determinants, inverses, solvers and decompositions of (batches of) matrices, as torch 1.13's
   torch.linalg computes them on the CPU: the same LAPACK routines (getrf/getrs, potrf, gesdd, syevd/heevd)
   on float32, float64, complex64 and complex128 matrices, batch dims broadcast where torch broadcasts them.

   A matrix argument is a tensor of at least 2 dims whose last two are the matrix; the dims before them are
   the batch. Results have torch's geometry (matrices column-major in each batch, as LAPACK writes them).
   The errors are torch's: "linalg.inv: The input tensor A must have at least 2 dimensions.", "linalg.det: A must
   be batches of square matrices, but they are 2 by 3 matrices", "linalg.inv: Expected a floating point or
   complex tensor as input. Got Long", "linalg.inv: Low precision dtypes not supported. Got Half" or the
   kernel's "\"lu_cpu\" not implemented for 'Half'", each op in torch's order; a singular or non positive-definite
   input fails with the kind CT_ERR_LINALG (torch.linalg.LinAlgError) and torch's message, e.g. "linalg.inv:
   (Batch element 1): The diagonal element 2 is zero, the inversion could not be completed because the input
   matrix is singular.". The _ex forms do not fail on such inputs (unless check_errors): they return LAPACK's
   info per matrix (int32, the batch's shape). out= forms check out's dtype ("Expected out tensor to have dtype
   float, but got double instead"), compute, then resize out to the result's shape when it differs (torch's
   strides) and copy into it; a failed call changes nothing. */
#ifndef CTORCH_LINALG_H
#define CTORCH_LINALG_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.linalg.det(A) (torch.det, Tensor.det): LU's diagonal product with the pivots' sign (0 for a singular
   matrix, 1 for a 0 x 0 one). */
CT_API ct_tensor *ct_linalg_det(const ct_tensor *A);
CT_API ct_status ct_linalg_det_out(ct_tensor *out, const ct_tensor *A);
CT_API ct_tensor *ct_det(const ct_tensor *A);
/* torch.linalg.slogdet(A) (torch.slogdet): sign (the determinant's phase for complex A; 0 for a singular
   matrix) and log|det| (real; -inf for a singular matrix). */
CT_API ct_status ct_linalg_slogdet(const ct_tensor *A, ct_tensor **sign, ct_tensor **logabsdet);
CT_API ct_status ct_linalg_slogdet_out(ct_tensor *sign, ct_tensor *logabsdet, const ct_tensor *A);
CT_API ct_status ct_slogdet(const ct_tensor *A, ct_tensor **sign, ct_tensor **logabsdet);
CT_API ct_status ct_slogdet_out(ct_tensor *sign, ct_tensor *logabsdet, const ct_tensor *A);
/* torch.logdet(A): log(det A); nan for a real matrix of negative determinant, -inf for a singular one. */
CT_API ct_tensor *ct_logdet(const ct_tensor *A);

/* The _ex forms' keyword: check_errors=True fails as the plain form does. */
typedef struct ct_linalg_ex_opts {
  bool check_errors;
} ct_linalg_ex_opts;

/* torch.linalg.inv(A) (torch.inverse, Tensor.inverse): LU with partial pivoting (getrf), then getrs against
   the identity. linalg.inv_ex returns info (0, or i > 0 when U[i, i] (1-based) is zero). */
CT_API ct_tensor *ct_linalg_inv(const ct_tensor *A);
CT_API ct_status ct_linalg_inv_out(ct_tensor *out, const ct_tensor *A);
CT_API ct_tensor *ct_inverse(const ct_tensor *A);
CT_API ct_status ct_inverse_out(ct_tensor *out, const ct_tensor *A);
CT_API ct_status ct_linalg_inv_ex(const ct_tensor *A, ct_tensor **inverse, ct_tensor **info,
                                  const ct_linalg_ex_opts *opts);
CT_API ct_status ct_linalg_inv_ex_out(ct_tensor *inverse, ct_tensor *info, const ct_tensor *A,
                                      const ct_linalg_ex_opts *opts);

/* linalg.solve's keywords: right is torch's left=False (solve XA = B); check_errors is solve_ex's. */
typedef struct ct_linalg_solve_opts {
  bool right;
  bool check_errors;
} ct_linalg_solve_opts;
/* torch.linalg.solve(A, B) (and solve_ex): X with AX = B. B is a vector (or a batch of vectors) when it is 1-D
   or has A's shape without its last dim; otherwise a (batch of) matrix whose batch dims broadcast with A's.
   A and B must have the same dtype ("linalg.solve: Expected A and B to have the same dtype, but found A of type
   Float and B of type Double instead"). A singular A fails with "torch.linalg.solve: The solver failed because
   the input matrix is singular." (solve_ex: info). */
CT_API ct_tensor *ct_linalg_solve(const ct_tensor *A, const ct_tensor *B, const ct_linalg_solve_opts *opts);
CT_API ct_status ct_linalg_solve_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B,
                                     const ct_linalg_solve_opts *opts);
CT_API ct_status ct_linalg_solve_ex(const ct_tensor *A, const ct_tensor *B, ct_tensor **result,
                                    ct_tensor **info, const ct_linalg_solve_opts *opts);
CT_API ct_status ct_linalg_solve_ex_out(ct_tensor *result, ct_tensor *info, const ct_tensor *A,
                                        const ct_tensor *B, const ct_linalg_solve_opts *opts);

/* cholesky's keywords: upper (the factor U = L^H), check_errors (cholesky_ex's; the plain forms ignore it). */
typedef struct ct_linalg_cholesky_opts {
  bool upper;
  bool check_errors;
} ct_linalg_cholesky_opts;
/* torch.linalg.cholesky(A) (and cholesky_ex; torch.cholesky(A, upper), the legacy form): the factor L of the
   Hermitian positive-definite A = L L^H (potrf, reading A's lower triangle, or its upper one for upper=True).
   A matrix that is not positive-definite fails with "linalg.cholesky: The factorization could not be completed
   because the input is not positive-definite (the leading minor of order 2 is not positive-definite)."
   (cholesky_ex: info = that order). */
CT_API ct_tensor *ct_linalg_cholesky(const ct_tensor *A, const ct_linalg_cholesky_opts *opts);
CT_API ct_status ct_linalg_cholesky_out(ct_tensor *out, const ct_tensor *A,
                                        const ct_linalg_cholesky_opts *opts);
CT_API ct_status ct_linalg_cholesky_ex(const ct_tensor *A, ct_tensor **L, ct_tensor **info,
                                       const ct_linalg_cholesky_opts *opts);
CT_API ct_status ct_linalg_cholesky_ex_out(ct_tensor *L, ct_tensor *info, const ct_tensor *A,
                                           const ct_linalg_cholesky_opts *opts);
CT_API ct_tensor *ct_cholesky(const ct_tensor *A, const ct_linalg_cholesky_opts *opts);
CT_API ct_status ct_cholesky_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_cholesky_opts *opts);

/* linalg.svd's keyword: reduced is torch's full_matrices=False. */
typedef struct ct_linalg_svd_opts {
  bool reduced;
} ct_linalg_svd_opts;
/* torch.linalg.svd(A, full_matrices) (gesdd, as torch's CPU): A = U diag(S) Vh, S real and descending; U and
   Vh are unique only up to the phase of each singular vector. svdvals: S alone (gesdd without vectors). A
   need not be square. */
CT_API ct_status ct_linalg_svd(const ct_tensor *A, ct_tensor **U, ct_tensor **S, ct_tensor **Vh,
                               const ct_linalg_svd_opts *opts);
CT_API ct_status ct_linalg_svd_out(ct_tensor *U, ct_tensor *S, ct_tensor *Vh, const ct_tensor *A,
                                   const ct_linalg_svd_opts *opts);
CT_API ct_tensor *ct_linalg_svdvals(const ct_tensor *A);
CT_API ct_status ct_linalg_svdvals_out(ct_tensor *out, const ct_tensor *A);

/* linalg.eigh's keyword: UPLO, "L" (NULL: torch's default) or "U", the triangle of A that is read
   ("Expected UPLO argument to be 'L' or 'U', but got X"). */
typedef struct ct_linalg_eigh_opts {
  const char *UPLO;
} ct_linalg_eigh_opts;
/* torch.linalg.eigh(A, UPLO) (syevd / heevd): eigenvalues (real, ascending) and eigenvectors (unique up to
   phase) of a Hermitian A; eigvalsh: the eigenvalues alone. An input on which LAPACK does not converge fails
   with "linalg.eigh: The algorithm failed to converge because the input matrix is ill-conditioned or has too
   many repeated eigenvalues (error code: N)." */
CT_API ct_status ct_linalg_eigh(const ct_tensor *A, ct_tensor **eigenvalues, ct_tensor **eigenvectors,
                                const ct_linalg_eigh_opts *opts);
CT_API ct_status ct_linalg_eigh_out(ct_tensor *eigenvalues, ct_tensor *eigenvectors, const ct_tensor *A,
                                    const ct_linalg_eigh_opts *opts);
CT_API ct_tensor *ct_linalg_eigvalsh(const ct_tensor *A, const ct_linalg_eigh_opts *opts);
CT_API ct_status ct_linalg_eigvalsh_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_eigh_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_linalg_det(...)                CT__CHECKED(1, CT__CK_ct_linalg_det, ct_linalg_det, __VA_ARGS__)
#define CT__CK_ct_linalg_det(a)           ct_linalg_det(CT__T(a))
#define ct_linalg_det_out(...)            CT__CHECKED(2, CT__CK_ct_linalg_det_out, ct_linalg_det_out, __VA_ARGS__)
#define CT__CK_ct_linalg_det_out(out, a)  ct_linalg_det_out(CT__TM(out), CT__T(a))
#define ct_det(...)                       CT__CHECKED(1, CT__CK_ct_det, ct_det, __VA_ARGS__)
#define CT__CK_ct_det(a)                  ct_det(CT__T(a))
#define ct_linalg_slogdet(...)            CT__CHECKED(3, CT__CK_ct_linalg_slogdet, ct_linalg_slogdet, __VA_ARGS__)
#define CT__CK_ct_linalg_slogdet(a, s, l) ct_linalg_slogdet(CT__T(a), CT__TP(s), CT__TP(l))
#define ct_linalg_slogdet_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_slogdet_out, ct_linalg_slogdet_out, __VA_ARGS__)
#define CT__CK_ct_linalg_slogdet_out(s, l, a) ct_linalg_slogdet_out(CT__TM(s), CT__TM(l), CT__T(a))
#define ct_slogdet(...)                       CT__CHECKED(3, CT__CK_ct_slogdet, ct_slogdet, __VA_ARGS__)
#define CT__CK_ct_slogdet(a, s, l)            ct_slogdet(CT__T(a), CT__TP(s), CT__TP(l))
#define ct_slogdet_out(...)                   CT__CHECKED(3, CT__CK_ct_slogdet_out, ct_slogdet_out, __VA_ARGS__)
#define CT__CK_ct_slogdet_out(s, l, a)        ct_slogdet_out(CT__TM(s), CT__TM(l), CT__T(a))
#define ct_logdet(...)                        CT__CHECKED(1, CT__CK_ct_logdet, ct_logdet, __VA_ARGS__)
#define CT__CK_ct_logdet(a)                   ct_logdet(CT__T(a))
#define ct_linalg_inv(...)                    CT__CHECKED(1, CT__CK_ct_linalg_inv, ct_linalg_inv, __VA_ARGS__)
#define CT__CK_ct_linalg_inv(a)               ct_linalg_inv(CT__T(a))
#define ct_linalg_inv_out(...)                CT__CHECKED(2, CT__CK_ct_linalg_inv_out, ct_linalg_inv_out, __VA_ARGS__)
#define CT__CK_ct_linalg_inv_out(out, a)      ct_linalg_inv_out(CT__TM(out), CT__T(a))
#define ct_inverse(...)                       CT__CHECKED(1, CT__CK_ct_inverse, ct_inverse, __VA_ARGS__)
#define CT__CK_ct_inverse(a)                  ct_inverse(CT__T(a))
#define ct_inverse_out(...)                   CT__CHECKED(2, CT__CK_ct_inverse_out, ct_inverse_out, __VA_ARGS__)
#define CT__CK_ct_inverse_out(out, a)         ct_inverse_out(CT__TM(out), CT__T(a))
#define ct_linalg_inv_ex(...)                 CT__CHECKED(4, CT__CK_ct_linalg_inv_ex, ct_linalg_inv_ex, __VA_ARGS__)
#define CT__CK_ct_linalg_inv_ex(a, r, i, o) \
  ct_linalg_inv_ex(CT__T(a), CT__TP(r), CT__TP(i), CT__OPTS(ct_linalg_ex_opts, o))
#define ct_linalg_inv_ex_out(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_inv_ex_out, ct_linalg_inv_ex_out, __VA_ARGS__)
#define CT__CK_ct_linalg_inv_ex_out(r, i, a, o) \
  ct_linalg_inv_ex_out(CT__TM(r), CT__TM(i), CT__T(a), CT__OPTS(ct_linalg_ex_opts, o))
#define ct_linalg_solve(...)            CT__CHECKED(3, CT__CK_ct_linalg_solve, ct_linalg_solve, __VA_ARGS__)
#define CT__CK_ct_linalg_solve(a, b, o) ct_linalg_solve(CT__T(a), CT__T(b), CT__OPTS(ct_linalg_solve_opts, o))
#define ct_linalg_solve_out(...)        CT__CHECKED(4, CT__CK_ct_linalg_solve_out, ct_linalg_solve_out, __VA_ARGS__)
#define CT__CK_ct_linalg_solve_out(out, a, b, o) \
  ct_linalg_solve_out(CT__TM(out), CT__T(a), CT__T(b), CT__OPTS(ct_linalg_solve_opts, o))
#define ct_linalg_solve_ex(...) CT__CHECKED(5, CT__CK_ct_linalg_solve_ex, ct_linalg_solve_ex, __VA_ARGS__)
#define CT__CK_ct_linalg_solve_ex(a, b, r, i, o) \
  ct_linalg_solve_ex(CT__T(a), CT__T(b), CT__TP(r), CT__TP(i), CT__OPTS(ct_linalg_solve_opts, o))
#define ct_linalg_solve_ex_out(...) \
  CT__CHECKED(5, CT__CK_ct_linalg_solve_ex_out, ct_linalg_solve_ex_out, __VA_ARGS__)
#define CT__CK_ct_linalg_solve_ex_out(r, i, a, b, o) \
  ct_linalg_solve_ex_out(CT__TM(r), CT__TM(i), CT__T(a), CT__T(b), CT__OPTS(ct_linalg_solve_opts, o))
#define ct_linalg_cholesky(...)         CT__CHECKED(2, CT__CK_ct_linalg_cholesky, ct_linalg_cholesky, __VA_ARGS__)
#define CT__CK_ct_linalg_cholesky(a, o) ct_linalg_cholesky(CT__T(a), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_linalg_cholesky_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_cholesky_out, ct_linalg_cholesky_out, __VA_ARGS__)
#define CT__CK_ct_linalg_cholesky_out(out, a, o) \
  ct_linalg_cholesky_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_linalg_cholesky_ex(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_cholesky_ex, ct_linalg_cholesky_ex, __VA_ARGS__)
#define CT__CK_ct_linalg_cholesky_ex(a, l, i, o) \
  ct_linalg_cholesky_ex(CT__T(a), CT__TP(l), CT__TP(i), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_linalg_cholesky_ex_out(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_cholesky_ex_out, ct_linalg_cholesky_ex_out, __VA_ARGS__)
#define CT__CK_ct_linalg_cholesky_ex_out(l, i, a, o) \
  ct_linalg_cholesky_ex_out(CT__TM(l), CT__TM(i), CT__T(a), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_cholesky(...)         CT__CHECKED(2, CT__CK_ct_cholesky, ct_cholesky, __VA_ARGS__)
#define CT__CK_ct_cholesky(a, o) ct_cholesky(CT__T(a), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_cholesky_out(...)     CT__CHECKED(3, CT__CK_ct_cholesky_out, ct_cholesky_out, __VA_ARGS__)
#define CT__CK_ct_cholesky_out(out, a, o) \
  ct_cholesky_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_cholesky_opts, o))
#define ct_linalg_svd(...) CT__CHECKED(5, CT__CK_ct_linalg_svd, ct_linalg_svd, __VA_ARGS__)
#define CT__CK_ct_linalg_svd(a, u, s, v, o) \
  ct_linalg_svd(CT__T(a), CT__TP(u), CT__TP(s), CT__TP(v), CT__OPTS(ct_linalg_svd_opts, o))
#define ct_linalg_svd_out(...) CT__CHECKED(5, CT__CK_ct_linalg_svd_out, ct_linalg_svd_out, __VA_ARGS__)
#define CT__CK_ct_linalg_svd_out(u, s, v, a, o) \
  ct_linalg_svd_out(CT__TM(u), CT__TM(s), CT__TM(v), CT__T(a), CT__OPTS(ct_linalg_svd_opts, o))
#define ct_linalg_svdvals(...)      CT__CHECKED(1, CT__CK_ct_linalg_svdvals, ct_linalg_svdvals, __VA_ARGS__)
#define CT__CK_ct_linalg_svdvals(a) ct_linalg_svdvals(CT__T(a))
#define ct_linalg_svdvals_out(...) \
  CT__CHECKED(2, CT__CK_ct_linalg_svdvals_out, ct_linalg_svdvals_out, __VA_ARGS__)
#define CT__CK_ct_linalg_svdvals_out(out, a) ct_linalg_svdvals_out(CT__TM(out), CT__T(a))
#define ct_linalg_eigh(...)                  CT__CHECKED(4, CT__CK_ct_linalg_eigh, ct_linalg_eigh, __VA_ARGS__)
#define CT__CK_ct_linalg_eigh(a, w, v, o) \
  ct_linalg_eigh(CT__T(a), CT__TP(w), CT__TP(v), CT__OPTS(ct_linalg_eigh_opts, o))
#define ct_linalg_eigh_out(...) CT__CHECKED(4, CT__CK_ct_linalg_eigh_out, ct_linalg_eigh_out, __VA_ARGS__)
#define CT__CK_ct_linalg_eigh_out(w, v, a, o) \
  ct_linalg_eigh_out(CT__TM(w), CT__TM(v), CT__T(a), CT__OPTS(ct_linalg_eigh_opts, o))
#define ct_linalg_eigvalsh(...)         CT__CHECKED(2, CT__CK_ct_linalg_eigvalsh, ct_linalg_eigvalsh, __VA_ARGS__)
#define CT__CK_ct_linalg_eigvalsh(a, o) ct_linalg_eigvalsh(CT__T(a), CT__OPTS(ct_linalg_eigh_opts, o))
#define ct_linalg_eigvalsh_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_eigvalsh_out, ct_linalg_eigvalsh_out, __VA_ARGS__)
#define CT__CK_ct_linalg_eigvalsh_out(out, a, o) \
  ct_linalg_eigvalsh_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_eigh_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
