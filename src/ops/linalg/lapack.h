/* The Fortran LAPACK routines src/ops/linalg calls (the ones torch 1.13's CPU kernels call for the same ops:
   getrf/getrs for det, inv and solve, potrf for cholesky, gesdd for svd, syevd/heevd for eigh), with the
   hidden string lengths gfortran appends. ct__la_* wrap them by dtype (float32, float64, complex64,
   complex128): matrices column-major, leading dimension max(1, rows).

   Nothing is linked: lapack.c calls them through the BLAS loader (src/kernels/cpu/blas.h: OpenBLAS
   dlopen-ed after its core type is chosen), which ct__la_colmajor_copy loads and whose threads it sets
   from ct_set_num_threads; the prototypes below give the routines' types. A linked liblapack would load
   OpenBLAS before the loader can choose its core type. */
#ifndef CTORCH_OPS_LINALG_LAPACK_H
#define CTORCH_OPS_LINALG_LAPACK_H

#include <stddef.h>

#include "core/internal.h"

/* What the ct__la_* wrappers return when a workspace cannot be allocated (LAPACK's infos are small). */
#define CT_LA_NO_MEMORY (-2147483647 - 1)

/* ---- the routines, by type prefix (s d c z); complex arrays are passed as void * ---- */
#define CT__LAPACK_GETRF(P, T) \
  void P##getrf_(const int *m, const int *n, T *a, const int *lda, int *ipiv, int *info);
#define CT__LAPACK_GETRS(P, T)                                                                 \
  void P##getrs_(const char *trans, const int *n, const int *nrhs, const T *a, const int *lda, \
                 const int *ipiv, T *b, const int *ldb, int *info, size_t trans_len);
#define CT__LAPACK_POTRF(P, T) \
  void P##potrf_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);
CT__LAPACK_GETRF(s, float)
CT__LAPACK_GETRF(d, double)
CT__LAPACK_GETRF(c, void)
CT__LAPACK_GETRF(z, void)
#define CT__LAPACK_LASWP(P, T)                                                                      \
  void P##laswp_(const int *n, T *a, const int *lda, const int *k1, const int *k2, const int *ipiv, \
                 const int *incx);
CT__LAPACK_LASWP(s, float)
CT__LAPACK_LASWP(d, double)
CT__LAPACK_LASWP(c, void)
CT__LAPACK_LASWP(z, void)
CT__LAPACK_GETRS(s, float)
CT__LAPACK_GETRS(d, double)
CT__LAPACK_GETRS(c, void)
CT__LAPACK_GETRS(z, void)
CT__LAPACK_POTRF(s, float)
CT__LAPACK_POTRF(d, double)
CT__LAPACK_POTRF(c, void)
CT__LAPACK_POTRF(z, void)
void sgesdd_(const char *jobz, const int *m, const int *n, float *a, const int *lda, float *s, float *u,
             const int *ldu, float *vt, const int *ldvt, float *work, const int *lwork, int *iwork, int *info,
             size_t);
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s, double *u,
             const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *iwork,
             int *info, size_t);
void cgesdd_(const char *jobz, const int *m, const int *n, void *a, const int *lda, float *s, void *u,
             const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, float *rwork,
             int *iwork, int *info, size_t);
void zgesdd_(const char *jobz, const int *m, const int *n, void *a, const int *lda, double *s, void *u,
             const int *ldu, void *vt, const int *ldvt, void *work, const int *lwork, double *rwork,
             int *iwork, int *info, size_t);
void ssyevd_(const char *jobz, const char *uplo, const int *n, float *a, const int *lda, float *w,
             float *work, const int *lwork, int *iwork, const int *liwork, int *info, size_t, size_t);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info, size_t, size_t);
void cheevd_(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, float *w, void *work,
             const int *lwork, float *rwork, const int *lrwork, int *iwork, const int *liwork, int *info,
             size_t, size_t);
void zheevd_(const char *jobz, const char *uplo, const int *n, void *a, const int *lda, double *w, void *work,
             const int *lwork, double *rwork, const int *lrwork, int *iwork, const int *liwork, int *info,
             size_t, size_t);

/* ---- by dtype (one of the four LAPACK dtypes; the callers checked it) ---- */
/* LU with partial pivoting of the m x n matrix a in place; ipiv[min(m, n)] 1-based; returns info. */
int ct__la_getrf(ct_dtype dt, int m, int n, void *a, int lda, int *ipiv);
/* Solves op(A) X = B with getrf's factors (trans 'N', 'T' or 'C'); b: n x nrhs, overwritten. */
int ct__la_getrs(ct_dtype dt, char trans, int n, int nrhs, const void *a, int lda, const int *ipiv, void *b,
                 int ldb);
/* Cholesky of the n x n a in place, reading the uplo ('L' / 'U') triangle; returns info. */
int ct__la_potrf(ct_dtype dt, char uplo, int n, void *a, int lda);
/* SVD of the m x n a (destroyed): jobz 'N' (s only), 'S' (reduced u, vt) or 'A' (full); s real. */
int ct__la_gesdd(ct_dtype dt, char jobz, int m, int n, void *a, int lda, void *s, void *u, int ldu, void *vt,
                 int ldvt);
/* Eigen-decomposition of the Hermitian n x n a: jobz 'N' / 'V' (vectors into a), uplo; w real ascending. */
int ct__la_syevd(ct_dtype dt, char jobz, char uplo, int n, void *a, int lda, void *w);

/* ---- lu family: the triangular solve (BLAS trsm, as torch's triangular_solve kernels), potrs for cholesky_solve
   and potri for cholesky_inverse ---- */
#define CT__BLAS_TRSM(P, T)                                                                             \
  void P##trsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, \
                const int *n, const T *alpha, const T *a, const int *lda, T *b, const int *ldb, size_t, \
                size_t, size_t, size_t);
#define CT__LAPACK_POTRS(P, T)                                                                      \
  void P##potrs_(const char *uplo, const int *n, const int *nrhs, const T *a, const int *lda, T *b, \
                 const int *ldb, int *info, size_t);
#define CT__LAPACK_POTRI(P, T) \
  void P##potri_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);
CT__BLAS_TRSM(s, float)
CT__BLAS_TRSM(d, double)
CT__BLAS_TRSM(c, void)
CT__BLAS_TRSM(z, void)
CT__LAPACK_POTRS(s, float)
CT__LAPACK_POTRS(d, double)
CT__LAPACK_POTRS(c, void)
CT__LAPACK_POTRS(z, void)
CT__LAPACK_POTRI(s, float)
CT__LAPACK_POTRI(d, double)
CT__LAPACK_POTRI(c, void)
CT__LAPACK_POTRI(z, void)
/* op(A) X = B (side 'L') or X op(A) = B (side 'R') for the triangular A (uplo 'U' / 'L', transa 'N' / 'T' / 'C',
   diag 'U': unit diagonal), alpha = 1; b (m x n) is overwritten. Returns 0, or CT_LA_NO_MEMORY when the routine
   is missing. */
int ct__la_trsm(ct_dtype dt, char side, char uplo, char transa, char diag, int m, int n, const void *a,
                int lda, void *b, int ldb);
/* Solves A X = B with the Cholesky factor of A in a (uplo's triangle); b: n x nrhs, overwritten. */
int ct__la_potrs(ct_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b, int ldb);
/* The inverse of A from its Cholesky factor in a's uplo triangle, written into that triangle; returns info. */
int ct__la_potri(ct_dtype dt, char uplo, int n, void *a, int lda);

/* ---- qr family: geqrf, orgqr / ungqr, ormqr / unmqr and the least-squares drivers (gels, gelsy, gelsd,
   gelss), as torch 1.13's apply_geqrf, apply_orgqr, apply_ormqr and apply_lstsq call them ---- */
#define CT__LAPACK_GEQRF(P, T) \
  void P##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau, T *work, const int *lwork, int *info);
#define CT__LAPACK_ORGQR(P, N, T)                                                                            \
  void P##N##_(const int *m, const int *n, const int *k, T *a, const int *lda, const T *tau, T *work, \
               const int *lwork, int *info);
#define CT__LAPACK_ORMQR(P, N, T)                                                                                 \
  void P##N##_(const char *side, const char *trans, const int *m, const int *n, const int *k, const T *a,   \
               const int *lda, const T *tau, T *c, const int *ldc, T *work, const int *lwork, int *info, size_t, \
               size_t);
#define CT__LAPACK_GELS(P, T)                                                                                  \
  void P##gels_(const char *trans, const int *m, const int *n, const int *nrhs, T *a, const int *lda, T *b, \
                const int *ldb, T *work, const int *lwork, int *info, size_t);
CT__LAPACK_GEQRF(s, float)
CT__LAPACK_GEQRF(d, double)
CT__LAPACK_GEQRF(c, void)
CT__LAPACK_GEQRF(z, void)
CT__LAPACK_ORGQR(s, orgqr, float)
CT__LAPACK_ORGQR(d, orgqr, double)
CT__LAPACK_ORGQR(c, ungqr, void)
CT__LAPACK_ORGQR(z, ungqr, void)
CT__LAPACK_ORMQR(s, ormqr, float)
CT__LAPACK_ORMQR(d, ormqr, double)
CT__LAPACK_ORMQR(c, unmqr, void)
CT__LAPACK_ORMQR(z, unmqr, void)
CT__LAPACK_GELS(s, float)
CT__LAPACK_GELS(d, double)
CT__LAPACK_GELS(c, void)
CT__LAPACK_GELS(z, void)
void sgelsy_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b, const int *ldb,
             int *jpvt, const float *rcond, int *rank, float *work, const int *lwork, int *info);
void dgelsy_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             int *jpvt, const double *rcond, int *rank, double *work, const int *lwork, int *info);
void cgelsy_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             int *jpvt, const float *rcond, int *rank, void *work, const int *lwork, float *rwork, int *info);
void zgelsy_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             int *jpvt, const double *rcond, int *rank, void *work, const int *lwork, double *rwork, int *info);
void sgelsd_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b, const int *ldb,
             float *s, const float *rcond, int *rank, float *work, const int *lwork, int *iwork, int *info);
void dgelsd_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             double *s, const double *rcond, int *rank, double *work, const int *lwork, int *iwork, int *info);
void cgelsd_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             float *s, const float *rcond, int *rank, void *work, const int *lwork, float *rwork, int *iwork,
             int *info);
void zgelsd_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             double *s, const double *rcond, int *rank, void *work, const int *lwork, double *rwork, int *iwork,
             int *info);
void sgelss_(const int *m, const int *n, const int *nrhs, float *a, const int *lda, float *b, const int *ldb,
             float *s, const float *rcond, int *rank, float *work, const int *lwork, int *info);
void dgelss_(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b, const int *ldb,
             double *s, const double *rcond, int *rank, double *work, const int *lwork, int *info);
void cgelss_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             float *s, const float *rcond, int *rank, void *work, const int *lwork, float *rwork, int *info);
void zgelss_(const int *m, const int *n, const int *nrhs, void *a, const int *lda, void *b, const int *ldb,
             double *s, const double *rcond, int *rank, void *work, const int *lwork, double *rwork, int *info);

/* The QR routines over a batch of nb matrices, matrix b at a + b * a_stride (elements), its tau at tau + b *
   tau_stride (c likewise): the workspace queried once and allocated once for the batch, as torch's apply_geqrf,
   apply_orgqr and apply_ormqr do. Each returns the first nonzero info (the rest of the batch is not run).
   geqrf: QR of each m x n a in place (R above the diagonal, reflectors below), tau[min(m, n)]; workspace
   max(1, n, optimal). */
int ct__la_geqrf_batch(ct_dtype dt, int64_t nb, int m, int n, void *a, int lda, int64_t a_stride, void *tau,
                       int64_t tau_stride);
/* The first n columns of H_1 ... H_k (orgqr / ungqr) in place of each m x n a (m >= n >= k). */
int ct__la_orgqr_batch(ct_dtype dt, int64_t nb, int m, int n, int k, void *a, int lda, int64_t a_stride,
                       const void *tau, int64_t tau_stride);
/* Each c (m x n) := op(Q) c (side 'L') or c op(Q) ('R'), trans 'N', 'T' or 'C' (ormqr / unmqr). */
int ct__la_ormqr_batch(ct_dtype dt, int64_t nb, char side, char trans, int m, int n, int k, const void *a,
                       int lda, int64_t a_stride, const void *tau, int64_t tau_stride, void *c, int ldc,
                       int64_t c_stride);
/* The least-squares drivers, by torch's name. */
typedef enum ct_la_lstsq_driver { CT_LA_GELS, CT_LA_GELSY, CT_LA_GELSD, CT_LA_GELSS } ct_la_lstsq_driver;
/* Solves min |A X - B| for the m x n a (destroyed) and the max(m, n) x nrhs b (X in its first n rows); rcond
   (converted to the real dtype), *rank (all but gels), s[min(m, n)] (gelsd, gelss; real) as torch's apply_lstsq
   calls them, its workspaces included. jpvt[max(1, n)] (gelsy): gelsy's column pivots, in and out; torch
   allocates it once per batch and hands every matrix the previous one's pivots (all nonzero: no pivoting), so
   the caller keeps it across the batch, zeroed before the first. Returns info. */
int ct__la_lstsq(ct_dtype dt, ct_la_lstsq_driver driver, int m, int n, int nrhs, void *a, int lda, void *b,
                 int ldb, double rcond, int *jpvt, int *rank, void *s);

#endif

/* ---- eig family (linalg.eig / eigvals): geev, as torch's apply_linalg_eig calls it (no left vectors) ---- */
void sgeev_(const char *jobvl, const char *jobvr, const int *n, float *a, const int *lda, float *wr, float *wi,
            float *vl, const int *ldvl, float *vr, const int *ldvr, float *work, const int *lwork, int *info,
            size_t, size_t);
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *wr,
            double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work, const int *lwork,
            int *info, size_t, size_t);
void cgeev_(const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *w, void *vl,
            const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, float *rwork, int *info,
            size_t, size_t);
void zgeev_(const char *jobvl, const char *jobvr, const int *n, void *a, const int *lda, void *w, void *vl,
            const int *ldvl, void *vr, const int *ldvr, void *work, const int *lwork, double *rwork, int *info,
            size_t, size_t);
/* Eigenvalues (and, jobvr 'V', right eigenvectors into vr, n x n, leading dimension n) of the general n x n a
   (destroyed). w: real dtypes 2n reals (the real parts, then the imaginary ones), complex n values. */
int ct__la_geev(ct_dtype dt, char jobvr, int n, void *a, int lda, void *w, void *vr);
