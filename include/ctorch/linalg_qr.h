/* QR and least squares: qr, linalg.qr, geqrf, orgqr, linalg.householder_product, ormqr, linalg.lstsq, pinverse,
   linalg.pinv, linalg.matrix_rank, the legacy svd, as torch 1.13 computes them on the CPU (conventions:
   linalg.h's comment).

   The LAPACK routines torch calls (geqrf, orgqr / ungqr, ormqr / unmqr, gels, gelsy, gelsd, gelss) run on
   float32, float64, complex64 and complex128 matrices, one matrix of the batch at a time, and torch's composites
   (pinv and matrix_rank from svd or eigh with its tolerances) in its order of operations.

   Errors are torch's, in its order: "linalg.qr: The input tensor A must have at least 2 dimensions.",
   "torch.geqrf: input must have at least 2 dimensions.", "\"geqrf_cpu\" not implemented for 'Half'",
   "qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or 'complete'",
   "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)", "linalg.pinv(Long{[3,
   3]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types", "This function
   doesn't handle types other than float and double" (matrix_rank and lstsq's default tolerances of an integer
   input), torch's shape messages for tau and other ("torch.ormqr: other.shape[-2] must be equal to
   input.shape[-2]"), out= dtypes ("Expected out tensor to have dtype float, but got double instead", or
   "linalg.pinv: Expected result to be safely castable from Float dtype, but got result with dtype Long" where
   torch casts). A failed call changes nothing. */
#ifndef CTORCH_LINALG_QR_H
#define CTORCH_LINALG_QR_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* linalg.qr's keyword: mode, "reduced" (NULL: torch's default), "complete" or "r". */
typedef struct ct_linalg_qr_opts {
  const char *mode; /* "reduced" (NULL), "complete" or "r" */
} ct_linalg_qr_opts;
/* torch.linalg.qr(A, mode): A = Q R with Q's columns orthonormal and R upper triangular (geqrf, then orgqr /
   ungqr for Q). reduced: Q m x k, R k x n (k = min(m, n)); complete: Q m x m, R m x n; "r": R alone (k x n)
   and an empty Q. Q's columns and R's rows are unique up to a sign (a phase for complex A). */
CT_API ct_status ct_linalg_qr(const ct_tensor *A, ct_tensor **Q, ct_tensor **R, const ct_linalg_qr_opts *opts);
CT_API ct_status ct_linalg_qr_out(ct_tensor *Q, ct_tensor *R, const ct_tensor *A, const ct_linalg_qr_opts *opts);

/* torch.qr's keyword: full is torch's some=False ("complete"); the zero value is some=True ("reduced"). */
typedef struct ct_qr_opts {
  bool full; /* some=False */
} ct_qr_opts;
/* torch.qr(A, some) (deprecated in 1.13): linalg.qr(A, 'reduced' if some else 'complete'). */
CT_API ct_status ct_qr(const ct_tensor *A, ct_tensor **Q, ct_tensor **R, const ct_qr_opts *opts);
CT_API ct_status ct_qr_out(ct_tensor *Q, ct_tensor *R, const ct_tensor *A, const ct_qr_opts *opts);

/* torch.geqrf(A): LAPACK's geqrf, the QR factorization in Householder form: a (A's shape, batched
   column-major) holds R on and above its diagonal and the reflectors' directions below it, tau (batch +
   [min(m, n)]) their scales. */
CT_API ct_status ct_geqrf(const ct_tensor *A, ct_tensor **a, ct_tensor **tau);
CT_API ct_status ct_geqrf_out(ct_tensor *a, ct_tensor *tau, const ct_tensor *A);

/* torch.linalg.householder_product(A, tau) (torch.orgqr, Tensor.orgqr): the first n columns of the product of
   the Householder reflectors H_1 ... H_k given by A's columns below the diagonal and tau (orgqr / ungqr).
   A is m x n with m >= n >= k = tau.shape[-1]; tau's batch dims are A's. */
CT_API ct_tensor *ct_linalg_householder_product(const ct_tensor *A, const ct_tensor *tau);
CT_API ct_status ct_linalg_householder_product_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau);
CT_API ct_tensor *ct_orgqr(const ct_tensor *A, const ct_tensor *tau);
CT_API ct_status ct_orgqr_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau);

/* ormqr's keywords: right is torch's left=False (other Q instead of Q other), transpose applies Q^T (Q^H for
   complex inputs). */
typedef struct ct_ormqr_opts {
  bool right;     /* left=False: other Q */
  bool transpose; /* Q^T (Q^H for complex) */
} ct_ormqr_opts;
/* torch.ormqr(A, tau, other, left, transpose) (Tensor.ormqr): other multiplied by the Q of geqrf's (A, tau)
   without forming Q (ormqr / unmqr). A, tau and other share their batch dims and dtype. */
CT_API ct_tensor *ct_ormqr(const ct_tensor *A, const ct_tensor *tau, const ct_tensor *other,
                           const ct_ormqr_opts *opts);
CT_API ct_status ct_ormqr_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau, const ct_tensor *other,
                              const ct_ormqr_opts *opts);

/* linalg.lstsq's keywords: rcond (has_rcond false: torch's None, eps * max(m, n) of A's real dtype) and driver
   (NULL: torch's CPU default "gelsy"; "gels", "gelsy", "gelsd" or "gelss", any case). */
typedef struct ct_linalg_lstsq_opts {
  bool has_rcond;     /* false: rcond=None */
  double rcond;       /* singular values below rcond * the largest count as zero */
  const char *driver; /* NULL: "gelsy" */
} ct_linalg_lstsq_opts;
/* torch.linalg.lstsq(A, B, rcond, driver): the X minimising |A X - B| (B a batch of vectors when it has A's
   shape without its last dim, or is 1-D), A's batch broadcast with B's. solution: batch + [n] or [n, nrhs]
   (a view of LAPACK's max(m, n)-row workspace, as torch returns it); residuals: the squared residual norms per
   column, only for m > n and a driver other than gelsy (gelsd / gelss: only when every matrix has rank n),
   else empty; rank (int64, A's batch): all drivers but gels, else empty; singular_values (A's batch +
   [min(m, n)]): gelsd and gelss, else empty. */
CT_API ct_status ct_linalg_lstsq(const ct_tensor *A, const ct_tensor *B, ct_tensor **solution,
                                 ct_tensor **residuals, ct_tensor **rank, ct_tensor **singular_values,
                                 const ct_linalg_lstsq_opts *opts);
CT_API ct_status ct_linalg_lstsq_out(ct_tensor *solution, ct_tensor *residuals, ct_tensor *rank,
                                     ct_tensor *singular_values, const ct_tensor *A, const ct_tensor *B,
                                     const ct_linalg_lstsq_opts *opts);

/* linalg.pinv's and matrix_rank's tolerances: atol (has_atol false: 0) and rtol (has_rtol false: eps * max(m,
   n) of A's real dtype, or 0 when atol > 0 was given); hermitian: A is Hermitian (eigh of its lower triangle
   instead of svd). has_rcond: torch's rcond overload of pinv (atol 0, rtol rcond) and the tol overload of
   matrix_rank (atol tol, rtol 0); atol / rtol are then ignored.
   The tensor fields (NULL: not given) are torch's Tensor overloads: a tolerance of any real dtype (a complex one is
   refused: "torch.linalg.pinv: atol tensor of complex type is not supported. Got ComplexFloat") whose shape
   broadcasts against A's batch (the tolerance gets a trailing dim of 1 against the singular values), so that the
   result's batch is the broadcast one; rtol left out is then where(atol > 0, 0, eps * max(m, n)) per element.
   rcond_tensor is the Tensor form of rcond (pinv: atol 0, rtol rcond; matrix_rank's tol: atol tol, rtol a zero of
   tol's dtype) and wins over every other tolerance. A float tolerance given beside a tensor one counts as a
   float64 0-dim tensor. */
typedef struct ct_linalg_tol_opts {
  bool has_atol;  /* false: atol=None */
  double atol;    /* absolute tolerance */
  bool has_rtol;  /* false: rtol=None */
  double rtol;    /* tolerance relative to the largest singular value */
  bool hermitian; /* eigh of A's lower triangle instead of svd */
  bool has_rcond; /* pinv's rcond / matrix_rank's tol overload */
  double rcond;   /* pinv: rtol; matrix_rank: atol */
  const ct_tensor *atol_tensor;  /* non-NULL: atol as a tensor (has_atol / atol ignored) */
  const ct_tensor *rtol_tensor;  /* non-NULL: rtol as a tensor (has_rtol / rtol ignored) */
  const ct_tensor *rcond_tensor; /* non-NULL: pinv's rcond / matrix_rank's tol as a tensor */
} ct_linalg_tol_opts;
/* torch.linalg.pinv(A, atol, rtol, hermitian): the pseudo-inverse V diag(1/S) U^H over the singular values
   above max(atol, rtol * max(S)) (eigenvalues by absolute value when hermitian); batch + [n, m]. */
CT_API ct_tensor *ct_linalg_pinv(const ct_tensor *A, const ct_linalg_tol_opts *opts);
CT_API ct_status ct_linalg_pinv_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tol_opts *opts);
/* torch.linalg.matrix_rank(A, atol, rtol, hermitian): the number of singular values (absolute eigenvalues
   when hermitian) above max(atol, rtol * max(S)), int64 of A's batch shape (0 for an empty matrix). */
CT_API ct_tensor *ct_linalg_matrix_rank(const ct_tensor *A, const ct_linalg_tol_opts *opts);
CT_API ct_status ct_linalg_matrix_rank_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tol_opts *opts);

/* torch.pinverse's keyword: rcond (has_rcond false: torch's 1e-15). */
typedef struct ct_pinverse_opts {
  bool has_rcond; /* false: 1e-15 */
  double rcond;
} ct_pinverse_opts;
/* torch.pinverse(A, rcond) (Tensor.pinverse): linalg.pinv(A, rcond, hermitian=False). */
CT_API ct_tensor *ct_pinverse(const ct_tensor *A, const ct_pinverse_opts *opts);

/* torch.svd's keywords: full is torch's some=False, no_uv its compute_uv=False; the zero value is torch's
   some=True, compute_uv=True. */
typedef struct ct_svd_opts {
  bool full;  /* some=False */
  bool no_uv; /* compute_uv=False */
} ct_svd_opts;
/* torch.svd(A, some, compute_uv) (deprecated): linalg.svd's U and S and V = Vh^H (a conjugate-transposed view of
   Vh, as torch returns it); no_uv: S alone, with zero-filled U (m x m) and V (n x n). */
CT_API ct_status ct_svd(const ct_tensor *A, ct_tensor **U, ct_tensor **S, ct_tensor **V, const ct_svd_opts *opts);
CT_API ct_status ct_svd_out(ct_tensor *U, ct_tensor *S, ct_tensor *V, const ct_tensor *A, const ct_svd_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_linalg_qr(...) CT__CHECKED(4, CT__CK_ct_linalg_qr, ct_linalg_qr, __VA_ARGS__)
#define CT__CK_ct_linalg_qr(a, q, r, o) ct_linalg_qr(CT__T(a), CT__TP(q), CT__TP(r), CT__OPTS(ct_linalg_qr_opts, o))
#define ct_linalg_qr_out(...)           CT__CHECKED(4, CT__CK_ct_linalg_qr_out, ct_linalg_qr_out, __VA_ARGS__)
#define CT__CK_ct_linalg_qr_out(q, r, a, o) \
  ct_linalg_qr_out(CT__TM(q), CT__TM(r), CT__T(a), CT__OPTS(ct_linalg_qr_opts, o))
#define ct_qr(...)                CT__CHECKED(4, CT__CK_ct_qr, ct_qr, __VA_ARGS__)
#define CT__CK_ct_qr(a, q, r, o)  ct_qr(CT__T(a), CT__TP(q), CT__TP(r), CT__OPTS(ct_qr_opts, o))
#define ct_qr_out(...)            CT__CHECKED(4, CT__CK_ct_qr_out, ct_qr_out, __VA_ARGS__)
#define CT__CK_ct_qr_out(q, r, a, o) ct_qr_out(CT__TM(q), CT__TM(r), CT__T(a), CT__OPTS(ct_qr_opts, o))
#define ct_geqrf(...)             CT__CHECKED(3, CT__CK_ct_geqrf, ct_geqrf, __VA_ARGS__)
#define CT__CK_ct_geqrf(a, r, t)  ct_geqrf(CT__T(a), CT__TP(r), CT__TP(t))
#define ct_geqrf_out(...)         CT__CHECKED(3, CT__CK_ct_geqrf_out, ct_geqrf_out, __VA_ARGS__)
#define CT__CK_ct_geqrf_out(r, t, a) ct_geqrf_out(CT__TM(r), CT__TM(t), CT__T(a))
#define ct_linalg_householder_product(...) \
  CT__CHECKED(2, CT__CK_ct_linalg_householder_product, ct_linalg_householder_product, __VA_ARGS__)
#define CT__CK_ct_linalg_householder_product(a, t) ct_linalg_householder_product(CT__T(a), CT__T(t))
#define ct_linalg_householder_product_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_householder_product_out, ct_linalg_householder_product_out, __VA_ARGS__)
#define CT__CK_ct_linalg_householder_product_out(out, a, t) \
  ct_linalg_householder_product_out(CT__TM(out), CT__T(a), CT__T(t))
#define ct_orgqr(...)                 CT__CHECKED(2, CT__CK_ct_orgqr, ct_orgqr, __VA_ARGS__)
#define CT__CK_ct_orgqr(a, t)         ct_orgqr(CT__T(a), CT__T(t))
#define ct_orgqr_out(...)             CT__CHECKED(3, CT__CK_ct_orgqr_out, ct_orgqr_out, __VA_ARGS__)
#define CT__CK_ct_orgqr_out(out, a, t) ct_orgqr_out(CT__TM(out), CT__T(a), CT__T(t))
#define ct_ormqr(...)                 CT__CHECKED(4, CT__CK_ct_ormqr, ct_ormqr, __VA_ARGS__)
#define CT__CK_ct_ormqr(a, t, c, o)   ct_ormqr(CT__T(a), CT__T(t), CT__T(c), CT__OPTS(ct_ormqr_opts, o))
#define ct_ormqr_out(...)             CT__CHECKED(5, CT__CK_ct_ormqr_out, ct_ormqr_out, __VA_ARGS__)
#define CT__CK_ct_ormqr_out(out, a, t, c, o) \
  ct_ormqr_out(CT__TM(out), CT__T(a), CT__T(t), CT__T(c), CT__OPTS(ct_ormqr_opts, o))
#define ct_linalg_lstsq(...) CT__CHECKED(7, CT__CK_ct_linalg_lstsq, ct_linalg_lstsq, __VA_ARGS__)
#define CT__CK_ct_linalg_lstsq(a, b, x, r, k, s, o)                                                    \
  ct_linalg_lstsq(CT__T(a), CT__T(b), CT__TP(x), CT__TP(r), CT__TP(k), CT__TP(s), \
                  CT__OPTS(ct_linalg_lstsq_opts, o))
#define ct_linalg_lstsq_out(...) CT__CHECKED(7, CT__CK_ct_linalg_lstsq_out, ct_linalg_lstsq_out, __VA_ARGS__)
#define CT__CK_ct_linalg_lstsq_out(x, r, k, s, a, b, o)                                                \
  ct_linalg_lstsq_out(CT__TM(x), CT__TM(r), CT__TM(k), CT__TM(s), CT__T(a), CT__T(b), \
                      CT__OPTS(ct_linalg_lstsq_opts, o))
#define ct_linalg_pinv(...)         CT__CHECKED(2, CT__CK_ct_linalg_pinv, ct_linalg_pinv, __VA_ARGS__)
#define CT__CK_ct_linalg_pinv(a, o) ct_linalg_pinv(CT__T(a), CT__OPTS(ct_linalg_tol_opts, o))
#define ct_linalg_pinv_out(...)     CT__CHECKED(3, CT__CK_ct_linalg_pinv_out, ct_linalg_pinv_out, __VA_ARGS__)
#define CT__CK_ct_linalg_pinv_out(out, a, o) ct_linalg_pinv_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_tol_opts, o))
#define ct_linalg_matrix_rank(...) CT__CHECKED(2, CT__CK_ct_linalg_matrix_rank, ct_linalg_matrix_rank, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_rank(a, o) ct_linalg_matrix_rank(CT__T(a), CT__OPTS(ct_linalg_tol_opts, o))
#define ct_linalg_matrix_rank_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_matrix_rank_out, ct_linalg_matrix_rank_out, __VA_ARGS__)
#define CT__CK_ct_linalg_matrix_rank_out(out, a, o) \
  ct_linalg_matrix_rank_out(CT__TM(out), CT__T(a), CT__OPTS(ct_linalg_tol_opts, o))
#define ct_pinverse(...)            CT__CHECKED(2, CT__CK_ct_pinverse, ct_pinverse, __VA_ARGS__)
#define CT__CK_ct_pinverse(a, o)    ct_pinverse(CT__T(a), CT__OPTS(ct_pinverse_opts, o))
#define ct_svd(...)                 CT__CHECKED(5, CT__CK_ct_svd, ct_svd, __VA_ARGS__)
#define CT__CK_ct_svd(a, u, s, v, o) ct_svd(CT__T(a), CT__TP(u), CT__TP(s), CT__TP(v), CT__OPTS(ct_svd_opts, o))
#define ct_svd_out(...)             CT__CHECKED(5, CT__CK_ct_svd_out, ct_svd_out, __VA_ARGS__)
#define CT__CK_ct_svd_out(u, s, v, a, o) \
  ct_svd_out(CT__TM(u), CT__TM(s), CT__TM(v), CT__T(a), CT__OPTS(ct_svd_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
