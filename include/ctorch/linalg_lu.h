/* LU factorizations and triangular solvers: lu, linalg.lu, lu_factor(_ex), lu_solve, lu_unpack, triangular_solve, linalg.solve_triangular, cholesky_solve, cholesky_inverse, as torch 1.13 computes them on the CPU (conventions: linalg.h's comment). */
#ifndef CTORCH_LINALG_LU_H
#define CTORCH_LINALG_LU_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The LU keywords: no_pivot is torch's pivot=False, which torch 1.13 refuses on the CPU ("linalg.lu_factor: LU
   without pivoting is not implemented on the CPU"), as ctorch does; check_errors is lu_factor_ex's (the other
   forms ignore it). */
typedef struct ct_linalg_lu_opts {
  bool no_pivot;
  bool check_errors;
} ct_linalg_lu_opts;

/* torch.linalg.lu_factor(A) (and lu_factor_ex): getrf's LU with partial pivoting of each m x n matrix of A (A
   need not be square): LU (A's shape, batched column-major) holds U and L's strict lower part, pivots (int32,
   batch + [min(m, n)]) are LAPACK's 1-based row swaps, info (int32, the batch) is 0 or i when U[i, i] is zero.
   lu_factor fails on such a matrix with "torch.linalg.lu_factor: U[2,2] is zero and using it on lu_solve would
   result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A,
   pivot) or linalg.lu_factor_ex(A, pivot)" (CT_ERR_RUNTIME, as torch's RuntimeError). An input of fewer than 2
   dims fails with "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead"; a dtype
   LAPACK has no routine for with "\"lu_cpu\" not implemented for 'Long'" (an empty input is returned as is). */
CT_API ct_status ct_linalg_lu_factor(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots,
                                     const ct_linalg_lu_opts *opts);
CT_API ct_status ct_linalg_lu_factor_out(ct_tensor *LU, ct_tensor *pivots, const ct_tensor *A,
                                         const ct_linalg_lu_opts *opts);
CT_API ct_status ct_linalg_lu_factor_ex(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots,
                                        ct_tensor **info, const ct_linalg_lu_opts *opts);
CT_API ct_status ct_linalg_lu_factor_ex_out(ct_tensor *LU, ct_tensor *pivots, ct_tensor *info,
                                            const ct_tensor *A, const ct_linalg_lu_opts *opts);

/* torch.lu's keywords: no_pivot (pivot=False, refused as above), get_infos (the third result). */
typedef struct ct_lu_opts {
  bool no_pivot;
  bool get_infos;
} ct_lu_opts;
/* torch.lu(A, pivot, get_infos) (deprecated in 1.13): lu_factor_ex's LU and pivots, and its infos when get_infos
   (infos may be NULL otherwise); it never fails on a singular matrix. The out= form takes two tensors, or three
   with get_infos ("expected tuple of 3 elements but got 2"), each resized to the result's shape (contiguous) and
   copied into (any dtype the copy can cast to), as torch's Python wrapper does. */
CT_API ct_status ct_lu(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots, ct_tensor **infos,
                       const ct_lu_opts *opts);
CT_API ct_status ct_lu_out(ct_tensor *LU, ct_tensor *pivots, ct_tensor *infos, const ct_tensor *A,
                           const ct_lu_opts *opts);

/* torch.linalg.lu(A) (P, L, U with A = P L U): lu_factor then lu_unpack; P is m x m, L m x k (unit diagonal), U k x
   n (k = min(m, n)), each contiguous. Unique given the pivoting, so singular inputs factor too. */
CT_API ct_status ct_linalg_lu(const ct_tensor *A, ct_tensor **P, ct_tensor **L, ct_tensor **U,
                              const ct_linalg_lu_opts *opts);
CT_API ct_status ct_linalg_lu_out(ct_tensor *P, ct_tensor *L, ct_tensor *U, const ct_tensor *A,
                                  const ct_linalg_lu_opts *opts);

/* lu_unpack's keywords: no_data is unpack_data=False (L and U empty), no_pivots unpack_pivots=False (P empty). */
typedef struct ct_lu_unpack_opts {
  bool no_data;
  bool no_pivots;
} ct_lu_unpack_opts;
/* torch.lu_unpack(LU_data, LU_pivots): P, L, U from lu_factor's results (any dtype for LU_data; pivots int32:
   "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\nNote: this function
   is intended to be used with the output produced by torch.linalg.lu_factor"); a pivot outside [1, m] fails
   with "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you properly pass the result
   of lu_factor?". ctorch asks LU_pivots to have the shape LU_data.shape[:-2] + (min(m, n),) (a ctorch message
   otherwise); torch reads other shapes unchecked. */
CT_API ct_status ct_lu_unpack(const ct_tensor *LU_data, const ct_tensor *LU_pivots, ct_tensor **P,
                              ct_tensor **L, ct_tensor **U, const ct_lu_unpack_opts *opts);
CT_API ct_status ct_lu_unpack_out(ct_tensor *P, ct_tensor *L, ct_tensor *U, const ct_tensor *LU_data,
                                  const ct_tensor *LU_pivots, const ct_lu_unpack_opts *opts);

/* linalg.lu_solve's keywords: right is left=False (solve X A = B), adjoint solves A^H X = B (X A^H = B). */
typedef struct ct_linalg_lu_solve_opts {
  bool right;
  bool adjoint;
} ct_linalg_lu_solve_opts;
/* torch.linalg.lu_solve(LU, pivots, B): getrs with lu_factor's results, B's batch broadcast with LU's (the result
   batched column-major; left=False: contiguous). torch's checks in its order: "torch.linalg.lu_solve: Expected a
   floating point or complex tensor as input. Got Long", "linalg.lu_solve: Expected LU and B to have the same
   dtype, but found LU of type Float and B of type Double instead", "linalg.lu_solve: pivots should be a Tensor
   of scalar type torch.int32", the shapes, then pivots outside [1, n] ("Pivots given to lu_solve must all be
   greater or equal to 1. Did you properly pass the result of lu_factor?"). torch.lu_solve(b, LU_data,
   LU_pivots) is the legacy spelling of linalg.lu_solve(LU_data, LU_pivots, b). */
CT_API ct_tensor *ct_linalg_lu_solve(const ct_tensor *LU, const ct_tensor *pivots, const ct_tensor *B,
                                     const ct_linalg_lu_solve_opts *opts);
CT_API ct_status ct_linalg_lu_solve_out(ct_tensor *out, const ct_tensor *LU, const ct_tensor *pivots,
                                        const ct_tensor *B, const ct_linalg_lu_solve_opts *opts);
CT_API ct_tensor *ct_lu_solve(const ct_tensor *b, const ct_tensor *LU_data, const ct_tensor *LU_pivots);
CT_API ct_status ct_lu_solve_out(ct_tensor *out, const ct_tensor *b, const ct_tensor *LU_data,
                                 const ct_tensor *LU_pivots);

/* triangular_solve's keywords: lower is upper=False (torch's default reads the upper triangle), transpose solves
   A^T X = b (not conjugated), unitriangular takes A's diagonal as ones. */
typedef struct ct_triangular_solve_opts {
  bool lower;
  bool transpose;
  bool unitriangular;
} ct_triangular_solve_opts;
/* torch.triangular_solve(b, A) (deprecated in 1.13): BLAS trsm on column-major copies of b and A broadcast against
   each other; returns the solution and the broadcast copy of A (cloned_coefficient), both batched column-major.
   Errors: "torch.triangular_solve: Expected b to have at least 2 dimensions, but it has 1 dimensions instead",
   "Expected b and A to have the same dtype, but found b of type Double and A of type Float instead.", "Incompatible
   matrix sizes for triangular_solve: each A matrix is 3 by 3 but each b matrix is 4 by 2", "\"triangular_solve_cpu\"
   not implemented for 'Long'". A singular A gives infinities, as trsm does. */
CT_API ct_status ct_triangular_solve(const ct_tensor *b, const ct_tensor *A, ct_tensor **solution,
                                     ct_tensor **cloned_coefficient, const ct_triangular_solve_opts *opts);
CT_API ct_status ct_triangular_solve_out(ct_tensor *solution, ct_tensor *cloned_coefficient,
                                         const ct_tensor *b, const ct_tensor *A,
                                         const ct_triangular_solve_opts *opts);

/* linalg.solve_triangular's keywords (upper is a required argument): right is left=False (X A = B),
   unitriangular takes A's diagonal as ones. */
typedef struct ct_linalg_solve_triangular_opts {
  bool right;
  bool unitriangular;
} ct_linalg_solve_triangular_opts;
/* torch.linalg.solve_triangular(A, B, upper=upper): trsm with A's upper (or lower) triangle, B's batch broadcast
   with A's. As torch, B is cast to A's dtype (the result's); the result is batched column-major (contiguous when A
   is a column-major conjugate view). An out= tensor of another dtype than A's fails with "expected scalar type
   Float but found Double" (when it is not row- or column-contiguous, B's dtype decides, as in torch). */
CT_API ct_tensor *ct_linalg_solve_triangular(const ct_tensor *A, const ct_tensor *B, bool upper,
                                             const ct_linalg_solve_triangular_opts *opts);
CT_API ct_status ct_linalg_solve_triangular_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B,
                                                bool upper, const ct_linalg_solve_triangular_opts *opts);

/* cholesky_solve's and cholesky_inverse's keyword: upper (the factor is U = L^H, torch's upper=True). */
typedef struct ct_cholesky_solve_opts {
  bool upper;
} ct_cholesky_solve_opts;
/* torch.cholesky_solve(B, L): potrs with the Cholesky factor L (B's batch broadcast with L's; the result batched
   column-major). Errors: "b should have at least 2 dimensions, but has 1 dimensions instead", "u should have at
   least 2 dimensions, ...", "Expected b and A to have the same dtype, but found b of type Float and A of type
   Double instead.", "Incompatible matrix sizes for cholesky_solve: each A matrix is 3 by 3 but each b matrix is 4
   by 2", "\"cholesky_solve_cpu\" not implemented for 'Long'". out=: any dtype the result casts to safely
   ("cholesky_solve: Expected result to be safely castable from Float dtype, but got result with dtype Long"). */
CT_API ct_tensor *ct_cholesky_solve(const ct_tensor *B, const ct_tensor *L,
                                    const ct_cholesky_solve_opts *opts);
CT_API ct_status ct_cholesky_solve_out(ct_tensor *out, const ct_tensor *B, const ct_tensor *L,
                                       const ct_cholesky_solve_opts *opts);
/* torch.cholesky_inverse(L): the inverse of L L^H (potri, its other triangle filled with the conjugate), batched
   column-major. A zero on L's diagonal fails with CT_ERR_LINALG "cholesky_inverse: The diagonal element 1 is zero,
   the inversion could not be completed because the input matrix is singular."; a dtype without a routine with
   "\"cholesky_inverse_out_cpu\" not implemented for 'Long'". */
CT_API ct_tensor *ct_cholesky_inverse(const ct_tensor *L, const ct_cholesky_solve_opts *opts);
CT_API ct_status ct_cholesky_inverse_out(ct_tensor *out, const ct_tensor *L,
                                         const ct_cholesky_solve_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_linalg_lu_factor(...) CT__CHECKED(4, CT__CK_ct_linalg_lu_factor, ct_linalg_lu_factor, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_factor(a, lu, p, o) \
  ct_linalg_lu_factor(CT__T(a), CT__TP(lu), CT__TP(p), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_linalg_lu_factor_out(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_lu_factor_out, ct_linalg_lu_factor_out, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_factor_out(lu, p, a, o) \
  ct_linalg_lu_factor_out(CT__TM(lu), CT__TM(p), CT__T(a), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_linalg_lu_factor_ex(...) \
  CT__CHECKED(5, CT__CK_ct_linalg_lu_factor_ex, ct_linalg_lu_factor_ex, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_factor_ex(a, lu, p, i, o) \
  ct_linalg_lu_factor_ex(CT__T(a), CT__TP(lu), CT__TP(p), CT__TP(i), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_linalg_lu_factor_ex_out(...) \
  CT__CHECKED(5, CT__CK_ct_linalg_lu_factor_ex_out, ct_linalg_lu_factor_ex_out, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_factor_ex_out(lu, p, i, a, o) \
  ct_linalg_lu_factor_ex_out(CT__TM(lu), CT__TM(p), CT__TM(i), CT__T(a), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_lu(...) CT__CHECKED(5, CT__CK_ct_lu, ct_lu, __VA_ARGS__)
#define CT__CK_ct_lu(a, lu, p, i, o) \
  ct_lu(CT__T(a), CT__TP(lu), CT__TP(p), CT__TP(i), CT__OPTS(ct_lu_opts, o))
#define ct_lu_out(...) CT__CHECKED(5, CT__CK_ct_lu_out, ct_lu_out, __VA_ARGS__)
#define CT__CK_ct_lu_out(lu, p, i, a, o) \
  ct_lu_out(CT__TM(lu), CT__TM(p), CT__TM(i), CT__T(a), CT__OPTS(ct_lu_opts, o))
#define ct_linalg_lu(...) CT__CHECKED(5, CT__CK_ct_linalg_lu, ct_linalg_lu, __VA_ARGS__)
#define CT__CK_ct_linalg_lu(a, p, l, u, o) \
  ct_linalg_lu(CT__T(a), CT__TP(p), CT__TP(l), CT__TP(u), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_linalg_lu_out(...) CT__CHECKED(5, CT__CK_ct_linalg_lu_out, ct_linalg_lu_out, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_out(p, l, u, a, o) \
  ct_linalg_lu_out(CT__TM(p), CT__TM(l), CT__TM(u), CT__T(a), CT__OPTS(ct_linalg_lu_opts, o))
#define ct_lu_unpack(...) CT__CHECKED(6, CT__CK_ct_lu_unpack, ct_lu_unpack, __VA_ARGS__)
#define CT__CK_ct_lu_unpack(lu, piv, p, l, u, o) \
  ct_lu_unpack(CT__T(lu), CT__T(piv), CT__TP(p), CT__TP(l), CT__TP(u), CT__OPTS(ct_lu_unpack_opts, o))
#define ct_lu_unpack_out(...) CT__CHECKED(6, CT__CK_ct_lu_unpack_out, ct_lu_unpack_out, __VA_ARGS__)
#define CT__CK_ct_lu_unpack_out(p, l, u, lu, piv, o) \
  ct_lu_unpack_out(CT__TM(p), CT__TM(l), CT__TM(u), CT__T(lu), CT__T(piv), CT__OPTS(ct_lu_unpack_opts, o))
#define ct_linalg_lu_solve(...) CT__CHECKED(4, CT__CK_ct_linalg_lu_solve, ct_linalg_lu_solve, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_solve(lu, p, b, o) \
  ct_linalg_lu_solve(CT__T(lu), CT__T(p), CT__T(b), CT__OPTS(ct_linalg_lu_solve_opts, o))
#define ct_linalg_lu_solve_out(...) \
  CT__CHECKED(5, CT__CK_ct_linalg_lu_solve_out, ct_linalg_lu_solve_out, __VA_ARGS__)
#define CT__CK_ct_linalg_lu_solve_out(out, lu, p, b, o) \
  ct_linalg_lu_solve_out(CT__TM(out), CT__T(lu), CT__T(p), CT__T(b), CT__OPTS(ct_linalg_lu_solve_opts, o))
#define ct_lu_solve(...)                      CT__CHECKED(3, CT__CK_ct_lu_solve, ct_lu_solve, __VA_ARGS__)
#define CT__CK_ct_lu_solve(b, lu, p)          ct_lu_solve(CT__T(b), CT__T(lu), CT__T(p))
#define ct_lu_solve_out(...)                  CT__CHECKED(4, CT__CK_ct_lu_solve_out, ct_lu_solve_out, __VA_ARGS__)
#define CT__CK_ct_lu_solve_out(out, b, lu, p) ct_lu_solve_out(CT__TM(out), CT__T(b), CT__T(lu), CT__T(p))
#define ct_triangular_solve(...)              CT__CHECKED(5, CT__CK_ct_triangular_solve, ct_triangular_solve, __VA_ARGS__)
#define CT__CK_ct_triangular_solve(b, a, x, c, o) \
  ct_triangular_solve(CT__T(b), CT__T(a), CT__TP(x), CT__TP(c), CT__OPTS(ct_triangular_solve_opts, o))
#define ct_triangular_solve_out(...) \
  CT__CHECKED(5, CT__CK_ct_triangular_solve_out, ct_triangular_solve_out, __VA_ARGS__)
#define CT__CK_ct_triangular_solve_out(x, c, b, a, o) \
  ct_triangular_solve_out(CT__TM(x), CT__TM(c), CT__T(b), CT__T(a), CT__OPTS(ct_triangular_solve_opts, o))
#define ct_linalg_solve_triangular(...) \
  CT__CHECKED(4, CT__CK_ct_linalg_solve_triangular, ct_linalg_solve_triangular, __VA_ARGS__)
#define CT__CK_ct_linalg_solve_triangular(a, b, up, o) \
  ct_linalg_solve_triangular(CT__T(a), CT__T(b), (up), CT__OPTS(ct_linalg_solve_triangular_opts, o))
#define ct_linalg_solve_triangular_out(...) \
  CT__CHECKED(5, CT__CK_ct_linalg_solve_triangular_out, ct_linalg_solve_triangular_out, __VA_ARGS__)
#define CT__CK_ct_linalg_solve_triangular_out(out, a, b, up, o)         \
  ct_linalg_solve_triangular_out(CT__TM(out), CT__T(a), CT__T(b), (up), \
                                 CT__OPTS(ct_linalg_solve_triangular_opts, o))
#define ct_cholesky_solve(...) CT__CHECKED(3, CT__CK_ct_cholesky_solve, ct_cholesky_solve, __VA_ARGS__)
#define CT__CK_ct_cholesky_solve(b, l, o) \
  ct_cholesky_solve(CT__T(b), CT__T(l), CT__OPTS(ct_cholesky_solve_opts, o))
#define ct_cholesky_solve_out(...) \
  CT__CHECKED(4, CT__CK_ct_cholesky_solve_out, ct_cholesky_solve_out, __VA_ARGS__)
#define CT__CK_ct_cholesky_solve_out(out, b, l, o) \
  ct_cholesky_solve_out(CT__TM(out), CT__T(b), CT__T(l), CT__OPTS(ct_cholesky_solve_opts, o))
#define ct_cholesky_inverse(...)         CT__CHECKED(2, CT__CK_ct_cholesky_inverse, ct_cholesky_inverse, __VA_ARGS__)
#define CT__CK_ct_cholesky_inverse(l, o) ct_cholesky_inverse(CT__T(l), CT__OPTS(ct_cholesky_solve_opts, o))
#define ct_cholesky_inverse_out(...) \
  CT__CHECKED(3, CT__CK_ct_cholesky_inverse_out, ct_cholesky_inverse_out, __VA_ARGS__)
#define CT__CK_ct_cholesky_inverse_out(out, l, o) \
  ct_cholesky_inverse_out(CT__TM(out), CT__T(l), CT__OPTS(ct_cholesky_solve_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
