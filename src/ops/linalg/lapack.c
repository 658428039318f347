/* The LAPACK calls by dtype, and the workspaces the drivers ask for (queried with lwork = -1, as torch's
   CPU kernels query them). A workspace that cannot be allocated is reported as info = CT_LA_NO_MEMORY (the
   caller records the out-of-memory error). */
#include "ops/linalg/lapack.h"

#include <complex.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>

#include "kernels/cpu/blas.h"

/* Calls the routine `f` (declared in lapack.h) of the OpenBLAS that the BLAS loader loaded: nothing is linked,
   so that the loader can choose OpenBLAS's kernels before it initialises (kernels/cpu/blas.h); each call site
   keeps the address it looked up (dlsym per call cost ~20% of a batch of 8x8 inverses). The inputs
   reached LAPACK through ct__la_colmajor_copy, which loaded it; a routine missing from it is reported as a
   workspace failure (the loader recorded its name). */
#define LA(f, ...)                                                   \
  do {                                                               \
    static _Atomic(void *) cached_;                                  \
    void *p_ = atomic_load_explicit(&cached_, memory_order_acquire); \
    __typeof__(f) *fp_;                                              \
    if (!p_ && (p_ = ct__blas_sym(#f)))                              \
      atomic_store_explicit(&cached_, p_, memory_order_release);     \
    if (!p_) {                                                       \
      info = CT_LA_NO_MEMORY;                                        \
      break;                                                         \
    }                                                                \
    memcpy(&fp_, &p_, sizeof fp_);                                   \
    fp_(__VA_ARGS__);                                                \
  } while (0)

int ct__la_getrf(ct_dtype dt, int m, int n, void *a, int lda, int *ipiv) {
  int info = 0;
  switch (dt) {
    case CT_FLOAT32: LA(sgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    case CT_FLOAT64: LA(dgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    case CT_COMPLEX64: LA(cgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    default: LA(zgetrf_, &m, &n, a, &lda, ipiv, &info); break;
  }
  return info;
}

int ct__la_getrs(ct_dtype dt, char trans, int n, int nrhs, const void *a, int lda, const int *ipiv, void *b,
                 int ldb) {
  int info = 0;
  switch (dt) {
    case CT_FLOAT32: LA(sgetrs_, &trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1); break;
    case CT_FLOAT64: LA(dgetrs_, &trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1); break;
    case CT_COMPLEX64: LA(cgetrs_, &trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1); break;
    default: LA(zgetrs_, &trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1); break;
  }
  return info;
}

int ct__la_potrf(ct_dtype dt, char uplo, int n, void *a, int lda) {
  int info = 0;
  switch (dt) {
    case CT_FLOAT32: LA(spotrf_, &uplo, &n, a, &lda, &info, 1); break;
    case CT_FLOAT64: LA(dpotrf_, &uplo, &n, a, &lda, &info, 1); break;
    case CT_COMPLEX64: LA(cpotrf_, &uplo, &n, a, &lda, &info, 1); break;
    default: LA(zpotrf_, &uplo, &n, a, &lda, &info, 1); break;
  }
  return info;
}

/* The size a query wrote into work[0] (a real, or a complex's real part). */
static int query_size(ct_dtype dt, const void *w) {
  double v = dt == CT_FLOAT32 || dt == CT_COMPLEX64 ? (double)*(const float *)w : *(const double *)w;
  return v < 1 ? 1 : (int)v;
}

int ct__la_gesdd(ct_dtype dt, char jobz, int m, int n, void *a, int lda, void *s, void *u, int ldu, void *vt,
                 int ldvt) {
  int mn = m < n ? m : n, mx = m < n ? n : m, info = 0, lwork = -1;
  double q[2] = {0, 0};
  int64_t lrwork = jobz == 'N' ? 7 * (int64_t)mn
                   : (int64_t)5 * mn * mn + 5 * mn > (int64_t)2 * mx * mn + 2 * (int64_t)mn * mn + mn
                       ? (int64_t)5 * mn * mn + 5 * mn
                       : (int64_t)2 * mx * mn + 2 * (int64_t)mn * mn + mn;
  int *iwork = ct__malloc(sizeof(int) * (size_t)(8 * (mn > 0 ? mn : 1)));
  void *rwork = dt == CT_COMPLEX64 || dt == CT_COMPLEX128
                    ? ct__malloc(ct__itemsize(dt) / 2 * (size_t)(lrwork > 1 ? lrwork : 1))
                    : NULL;
  if (!iwork || ((dt == CT_COMPLEX64 || dt == CT_COMPLEX128) && !rwork)) {
    ct__free(iwork);
    ct__free(rwork);
    return CT_LA_NO_MEMORY;
  }
#define CT__GESDD_CALL(W, LW)                                                                               \
  switch (dt) {                                                                                             \
    case CT_FLOAT32: LA(sgesdd_, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, W, LW, iwork, &info, 1); break; \
    case CT_FLOAT64: LA(dgesdd_, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, W, LW, iwork, &info, 1); break; \
    case CT_COMPLEX64:                                                                                      \
      LA(cgesdd_, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, W, LW, rwork, iwork, &info, 1);                \
      break;                                                                                                \
    default: LA(zgesdd_, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, W, LW, rwork, iwork, &info, 1); break;  \
  }
  CT__GESDD_CALL((void *)q, &lwork)
  lwork = query_size(dt, q);
  void *work = ct__malloc(ct__itemsize(dt) * (size_t)lwork);
  if (!work) {
    info = CT_LA_NO_MEMORY;
  } else {
    CT__GESDD_CALL(work, &lwork)
  }
#undef CT__GESDD_CALL
  ct__free(work);
  ct__free(iwork);
  ct__free(rwork);
  return info;
}

int ct__la_syevd(ct_dtype dt, char jobz, char uplo, int n, void *a, int lda, void *w) {
  int info = 0, lwork = -1, liwork = -1, lrwork = -1, iq = 0;
  double q[2] = {0, 0}, rq = 0;
  bool cx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
#define CT__SYEVD_CALL(W, LW, RW, LRW, IW, LIW)                                                            \
  switch (dt) {                                                                                            \
    case CT_FLOAT32: LA(ssyevd_, &jobz, &uplo, &n, a, &lda, w, W, LW, IW, LIW, &info, 1, 1); break;            \
    case CT_FLOAT64: LA(dsyevd_, &jobz, &uplo, &n, a, &lda, w, W, LW, IW, LIW, &info, 1, 1); break;            \
    case CT_COMPLEX64: LA(cheevd_, &jobz, &uplo, &n, a, &lda, w, W, LW, RW, LRW, IW, LIW, &info, 1, 1); break; \
    default: LA(zheevd_, &jobz, &uplo, &n, a, &lda, w, W, LW, RW, LRW, IW, LIW, &info, 1, 1); break;           \
  }
  CT__SYEVD_CALL((void *)q, &lwork, (void *)&rq, &lrwork, &iq, &liwork)
  lwork = query_size(dt, q);
  liwork = iq < 1 ? 1 : iq;
  lrwork = cx ? query_size(dt == CT_COMPLEX64 ? CT_FLOAT32 : CT_FLOAT64, &rq) : 1;
  void *work = ct__malloc(ct__itemsize(dt) * (size_t)lwork);
  int *iwork = ct__malloc(sizeof(int) * (size_t)liwork);
  void *rwork = cx ? ct__malloc(ct__itemsize(dt) / 2 * (size_t)lrwork) : NULL;
  if (!work || !iwork || (cx && !rwork)) {
    info = CT_LA_NO_MEMORY;
  } else {
    CT__SYEVD_CALL(work, &lwork, rwork, &lrwork, iwork, &liwork)
  }
#undef CT__SYEVD_CALL
  ct__free(work);
  ct__free(iwork);
  ct__free(rwork);
  return info;
}

/* ---- eig family ---- */

int ct__la_geev(ct_dtype dt, char jobvr, int n, void *a, int lda, void *w, void *vr) {
  int info = 0, lwork = -1, ldvl = 1, ldvr = jobvr == 'V' ? n : 1;
  char jobvl = 'N';
  double q[2] = {0, 0};
  bool cx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  size_t rsz = ct__itemsize(dt) / (cx ? 2 : 1);
  void *rwork = cx ? ct__malloc(rsz * (size_t)(2 * (n > 0 ? n : 1))) : NULL;
  if (cx && !rwork) return CT_LA_NO_MEMORY;
  char *wi = (char *)w + rsz * (size_t)n; /* the real routines' imaginary parts */
#define CT__GEEV_CALL(W, LW)                                                                                  \
  switch (dt) {                                                                                               \
    case CT_FLOAT32:                                                                                          \
      LA(sgeev_, &jobvl, &jobvr, &n, a, &lda, w, (float *)(void *)wi, NULL, &ldvl, vr, &ldvr, W, LW, &info, 1, \
         1);                                                                                                  \
      break;                                                                                                  \
    case CT_FLOAT64:                                                                                          \
      LA(dgeev_, &jobvl, &jobvr, &n, a, &lda, w, (double *)(void *)wi, NULL, &ldvl, vr, &ldvr, W, LW, &info,  \
         1, 1);                                                                                               \
      break;                                                                                                  \
    case CT_COMPLEX64:                                                                                        \
      LA(cgeev_, &jobvl, &jobvr, &n, a, &lda, w, NULL, &ldvl, vr, &ldvr, W, LW, rwork, &info, 1, 1);          \
      break;                                                                                                  \
    default: LA(zgeev_, &jobvl, &jobvr, &n, a, &lda, w, NULL, &ldvl, vr, &ldvr, W, LW, rwork, &info, 1, 1); break; \
  }
  CT__GEEV_CALL((void *)q, &lwork)
  void *work = NULL;
  if (info == 0) {
    lwork = query_size(dt, q);
    work = ct__malloc(ct__itemsize(dt) * (size_t)lwork);
    if (!work) {
      info = CT_LA_NO_MEMORY;
    } else {
      CT__GEEV_CALL(work, &lwork)
    }
  }
#undef CT__GEEV_CALL
  ct__free(work);
  ct__free(rwork);
  return info;
}

/* ---- lu family ---- */

int ct__la_trsm(ct_dtype dt, char side, char uplo, char transa, char diag, int m, int n, const void *a,
                int lda, void *b, int ldb) {
  int info = 0;
  static const float one_s[2] = {1, 0};
  static const double one_d[2] = {1, 0};
  switch (dt) {
    case CT_FLOAT32:
      LA(strsm_, &side, &uplo, &transa, &diag, &m, &n, one_s, a, &lda, b, &ldb, 1, 1, 1, 1);
      break;
    case CT_FLOAT64:
      LA(dtrsm_, &side, &uplo, &transa, &diag, &m, &n, one_d, a, &lda, b, &ldb, 1, 1, 1, 1);
      break;
    case CT_COMPLEX64:
      LA(ctrsm_, &side, &uplo, &transa, &diag, &m, &n, one_s, a, &lda, b, &ldb, 1, 1, 1, 1);
      break;
    default: LA(ztrsm_, &side, &uplo, &transa, &diag, &m, &n, one_d, a, &lda, b, &ldb, 1, 1, 1, 1); break;
  }
  return info;
}

int ct__la_potrs(ct_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b, int ldb) {
  int info = 0;
  switch (dt) {
    case CT_FLOAT32: LA(spotrs_, &uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1); break;
    case CT_FLOAT64: LA(dpotrs_, &uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1); break;
    case CT_COMPLEX64: LA(cpotrs_, &uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1); break;
    default: LA(zpotrs_, &uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1); break;
  }
  return info;
}

int ct__la_potri(ct_dtype dt, char uplo, int n, void *a, int lda) {
  int info = 0;
  switch (dt) {
    case CT_FLOAT32: LA(spotri_, &uplo, &n, a, &lda, &info, 1); break;
    case CT_FLOAT64: LA(dpotri_, &uplo, &n, a, &lda, &info, 1); break;
    case CT_COMPLEX64: LA(cpotri_, &uplo, &n, a, &lda, &info, 1); break;
    default: LA(zpotri_, &uplo, &n, a, &lda, &info, 1); break;
  }
  return info;
}

/* ---- qr family: geqrf, orgqr / ungqr, ormqr / unmqr, the least-squares drivers ---- */

/* One call of the routine of dt's prefix (R: the real routines' name, C: the complex ones'). */
#define CT__LA_BY_DTYPE(R, C, ...)                                  \
  switch (dt) {                                                     \
    case CT_FLOAT32: LA(s##R##_, __VA_ARGS__); break;               \
    case CT_FLOAT64: LA(d##R##_, __VA_ARGS__); break;               \
    case CT_COMPLEX64: LA(c##C##_, __VA_ARGS__); break;             \
    default: LA(z##C##_, __VA_ARGS__); break;                       \
  }

/* The workspace for a batch of one routine: the size its query wrote (at least lo), allocated once. */
static void *batch_work(ct_dtype dt, const double *q, int lo, int *lwork) {
  *lwork = query_size(dt, q);
  if (*lwork < lo) *lwork = lo;
  return ct__malloc(ct__itemsize(dt) * (size_t)*lwork);
}

/* Element i of a LAPACK batch's array as an address. */
#define CT__LA_NTH(p, i, stride) ((char *)(p) + (size_t)((i) * (stride)) * ct__itemsize(dt))

int ct__la_geqrf_batch(ct_dtype dt, int64_t nb, int m, int n, void *a, int lda, int64_t a_stride, void *tau,
                       int64_t tau_stride) {
  int info = 0, lwork = -1;
  double q[2] = {0, 0};
  if (nb <= 0) return 0;
  CT__LA_BY_DTYPE(geqrf, geqrf, &m, &n, a, &lda, tau, (void *)q, &lwork, &info)
  if (info != 0) return info;
  void *work = batch_work(dt, q, n > 1 ? n : 1, &lwork); /* torch: max(1, n, optimal) */
  if (!work) return CT_LA_NO_MEMORY;
  for (int64_t b = 0; info == 0 && b < nb; b++) {
    void *ab = CT__LA_NTH(a, b, a_stride), *tb = CT__LA_NTH(tau, b, tau_stride);
    CT__LA_BY_DTYPE(geqrf, geqrf, &m, &n, ab, &lda, tb, work, &lwork, &info)
  }
  ct__free(work);
  return info;
}

int ct__la_orgqr_batch(ct_dtype dt, int64_t nb, int m, int n, int k, void *a, int lda, int64_t a_stride,
                       const void *tau, int64_t tau_stride) {
  int info = 0, lwork = -1;
  double q[2] = {0, 0};
  if (nb <= 0) return 0;
  CT__LA_BY_DTYPE(orgqr, ungqr, &m, &n, &k, a, &lda, tau, (void *)q, &lwork, &info)
  if (info != 0) return info;
  void *work = batch_work(dt, q, 1, &lwork);
  if (!work) return CT_LA_NO_MEMORY;
  for (int64_t b = 0; info == 0 && b < nb; b++) {
    void *ab = CT__LA_NTH(a, b, a_stride), *tb = CT__LA_NTH(tau, b, tau_stride);
    CT__LA_BY_DTYPE(orgqr, ungqr, &m, &n, &k, ab, &lda, tb, work, &lwork, &info)
  }
  ct__free(work);
  return info;
}

int ct__la_ormqr_batch(ct_dtype dt, int64_t nb, char side, char trans, int m, int n, int k, const void *a,
                       int lda, int64_t a_stride, const void *tau, int64_t tau_stride, void *c, int ldc,
                       int64_t c_stride) {
  int info = 0, lwork = -1;
  double q[2] = {0, 0};
  if (nb <= 0) return 0;
  CT__LA_BY_DTYPE(ormqr, unmqr, &side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, (void *)q, &lwork, &info, 1, 1)
  if (info != 0) return info;
  void *work = batch_work(dt, q, 1, &lwork);
  if (!work) return CT_LA_NO_MEMORY;
  for (int64_t b = 0; info == 0 && b < nb; b++) {
    void *ab = CT__LA_NTH(a, b, a_stride), *tb = CT__LA_NTH(tau, b, tau_stride),
         *cb = CT__LA_NTH(c, b, c_stride);
    CT__LA_BY_DTYPE(ormqr, unmqr, &side, &trans, &m, &n, &k, ab, &lda, tb, cb, &ldc, work, &lwork, &info, 1,
                    1)
  }
  ct__free(work);
  return info;
}
#undef CT__LA_NTH

/* The driver's call with work / rwork / iwork (a query when *lwork is -1); rcond in the real dtype. */
static void lstsq_call(ct_dtype dt, ct_la_lstsq_driver driver, int m, int n, int nrhs, void *a, int lda, void *b,
                       int ldb, int *jpvt, double rcond, int *rank, void *s, void *work, int *lwork, void *rwork,
                       int *iwork, int *info_out) {
  int info = 0;
  float rc32 = (float)rcond;
  bool single = dt == CT_FLOAT32 || dt == CT_COMPLEX64;
  const void *rc = single ? (const void *)&rc32 : (const void *)&rcond;
  char trans = 'N';
  switch (driver) {
    case CT_LA_GELS: CT__LA_BY_DTYPE(gels, gels, &trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, lwork, &info, 1) break;
    case CT_LA_GELSY:
      switch (dt) {
        case CT_FLOAT32: LA(sgelsy_, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt, rc, rank, work, lwork, &info); break;
        case CT_FLOAT64: LA(dgelsy_, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt, rc, rank, work, lwork, &info); break;
        case CT_COMPLEX64:
          LA(cgelsy_, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt, rc, rank, work, lwork, rwork, &info);
          break;
        default: LA(zgelsy_, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt, rc, rank, work, lwork, rwork, &info); break;
      }
      break;
    case CT_LA_GELSD:
      switch (dt) {
        case CT_FLOAT32: LA(sgelsd_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, iwork, &info); break;
        case CT_FLOAT64: LA(dgelsd_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, iwork, &info); break;
        case CT_COMPLEX64:
          LA(cgelsd_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, rwork, iwork, &info);
          break;
        default: LA(zgelsd_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, rwork, iwork, &info); break;
      }
      break;
    default:
      switch (dt) {
        case CT_FLOAT32: LA(sgelss_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, &info); break;
        case CT_FLOAT64: LA(dgelss_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, &info); break;
        case CT_COMPLEX64:
          LA(cgelss_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, rwork, &info);
          break;
        default: LA(zgelss_, &m, &n, &nrhs, a, &lda, b, &ldb, s, rc, rank, work, lwork, rwork, &info); break;
      }
      break;
  }
  *info_out = info;
}

int ct__la_lstsq(ct_dtype dt, ct_la_lstsq_driver driver, int m, int n, int nrhs, void *a, int lda, void *b,
                 int ldb, double rcond, int *jpvt, int *rank, void *s) {
  bool cx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  size_t rsz = cx ? ct__itemsize(dt) / 2 : ct__itemsize(dt);
  int info = 0, lwork = -1, iq = 0, mn = m < n ? m : n;
  double q[2] = {0, 0}, rq[2] = {0, 0};
  lstsq_call(dt, driver, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, s, q, &lwork, rq, &iq, &info);
  if (info != 0) return info;
  lwork = query_size(dt, q);
  int64_t lrwork = 1;
  if (cx && driver == CT_LA_GELSY) lrwork = 2 * (int64_t)n;
  if (cx && driver == CT_LA_GELSS) lrwork = 5 * (int64_t)mn;
  if (cx && driver == CT_LA_GELSD) lrwork = query_size(dt == CT_COMPLEX64 ? CT_FLOAT32 : CT_FLOAT64, rq);
  if (lrwork < 1) lrwork = 1;
  void *work = ct__malloc(ct__itemsize(dt) * (size_t)lwork);
  void *rwork = cx ? ct__malloc(rsz * (size_t)lrwork) : NULL;
  int *iwork = driver == CT_LA_GELSD ? ct__malloc(sizeof(int) * (size_t)(iq > 1 ? iq : 1)) : NULL;
  if (!work || (cx && !rwork) || (driver == CT_LA_GELSD && !iwork))
    info = CT_LA_NO_MEMORY;
  else
    lstsq_call(dt, driver, m, n, nrhs, a, lda, b, ldb, jpvt, rcond, rank, s, work, &lwork, rwork, iwork, &info);
  ct__free(work);
  ct__free(rwork);
  ct__free(iwork);
  return info;
}
#undef CT__LA_BY_DTYPE
