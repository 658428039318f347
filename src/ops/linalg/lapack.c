/* The LAPACK calls by dtype, and the workspaces the drivers ask for (queried with lwork = -1, as torch's
   CPU kernels query them). A workspace that cannot be allocated is reported as info = CT_LA_NO_MEMORY (the
   caller records the out-of-memory error). */
#include "ops/linalg/lapack.h"

#include <complex.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>

#include "core/parallel.h"
#include "kernels/cpu/blas.h"
#include "ops/linalg/trsm_left.h"

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

/* ---- threads ----
   OpenBLAS runs LAPACK's inner BLAS on libgomp's threads, an OpenMP region per BLAS call. A routine made of
   many small BLAS-2 calls (gesdd's and syevd's reductions, geev's Hessenberg steps, geqrf's panels, potrf's
   small blocks) then pays a wake-up of tens of microseconds per call at 2 threads, more than the call's
   work. Measured on 2 CPUs (float64, time at 2 threads / time at 1, libgomp passive as core/omp_runtime.c
   sets it), for n = 128 / 512 / 1024 / 2048: svdvals 2.7 / 1.5 / 0.94, eigvalsh 3.1 / 1.4 / 0.98 / 0.75,
   qr 2.7 / 2.0 / 1.3 / 0.88, cholesky 5.7 / 1.5 / 1.0 / 0.81, geev 1.4 / 1.0 / 1.04, lu_factor 2.5 / 1.08 /
   0.71 / 0.55. So each routine runs OpenBLAS on one thread below the size where its threads paid (the
   next op's ct__blas_sync_threads sets the count back). The triangular solves with many right-hand sides
   (inv, solve, lu_solve, cholesky_solve, solve_triangular) split them instead: blocks of columns as serial
   calls on the library's pool, whose late-worker rules hold when the other CPUs are busy (each column's
   solution is computed alone, so the blocks give what one serial call gives). Below 256 rows those calls are
   LAPACK's (torch's 1-thread bits; torch at 2 threads gives the same bits up to n = 600 at least); from 256
   rows on, with 16 right-hand sides or more, the triangular solves are trsm_left.c's blocking over gemm
   (float32 and float64: 1.5x-2.5x OpenBLAS's trsm; other bits, as accurate), the blocks cut at its column
   groups. */

/* OpenBLAS on one thread for this call where n is below the size from which its threads pay. */
static void serial_below(int64_t n, int64_t from) {
  if (n < from) ct__blas_threads_one();
}

#define GETRF_THREADS_FROM 1024
#define GESDD_THREADS_FROM 1024
#define POTRF_THREADS_FROM 2048 /* also syevd, geev, the qr family, the least-squares drivers, potri */
#define RHS_BLOCK_MIN 32        /* right-hand sides per block */
#define RHS_SPLIT_WORK (1 << 21) /* n * n * nrhs from which blocks run on the pool (about 0.2 ms) */

typedef int rhs_fn(void *ctx, int first, int count); /* solves right-hand sides first .. first + count - 1 */
typedef struct rhs_job {
  rhs_fn *fn;
  void *ctx;
  int total, per;
  _Atomic int info;
} rhs_job;

static void rhs_block(void *c, int64_t i, int tid) {
  (void)tid;
  rhs_job *j = c;
  int first = (int)i * j->per, count = j->total - first < j->per ? j->total - first : j->per;
  int info = j->fn(j->ctx, first, count);
  if (info) atomic_store(&j->info, info);
}

/* The column groups of trsm_left.c for nrhs right-hand sides in all (an eighth of them, 32 to 128): from the
   total alone, so that 1 thread and the blocks of 2 or more cut the columns at the same places (the ctx's
   chunk and by_rhs_blocks's both come from here, from the same nrhs). 32 columns cost a tenth of the solve
   at n = 512, 64 or more about nothing. */
static int rhs_chunk(int nrhs) {
  int c = (nrhs / 8 + RHS_BLOCK_MIN - 1) / RHS_BLOCK_MIN * RHS_BLOCK_MIN;
  return c < RHS_BLOCK_MIN ? RHS_BLOCK_MIN : c > 4 * RHS_BLOCK_MIN ? 4 * RHS_BLOCK_MIN : c;
}

/* fn over nrhs right-hand sides of an n x n system: blocks on the pool where that pays, else one call
   (on one OpenBLAS thread where the work is small). The blocks start at multiples of align (trsm_left.c's
   column groups where it solves: rhs_chunk; else 1). */
static int by_rhs_blocks(int64_t n, int nrhs, int align, rhs_fn *fn, void *ctx) {
  int nt = ct__num_threads();
  int64_t work = n * n * nrhs;
  if (nt < 2 || nrhs < 2 * RHS_BLOCK_MIN || work < RHS_SPLIT_WORK) {
    if (work < RHS_SPLIT_WORK) ct__blas_threads_one();
    else
      ct__blas_sync_threads(); /* a count left by an earlier call would change gemm's bits in trsm_left.c */
    return fn(ctx, 0, nrhs);
  }
  /* 4 blocks per thread: a worker the OS wakes late (a millisecond in a virtual machine after a pause) then
     leaves the caller a quarter of its share, not half (solve 512 float32 at 2 threads: 2.9-3.0 ms for the
     solves against 3.4-3.6 with 2 blocks per thread) */
  int blocks = nrhs / RHS_BLOCK_MIN < 4 * nt ? nrhs / RHS_BLOCK_MIN : 4 * nt;
  int per = (nrhs + blocks - 1) / blocks;
  per = (per + align - 1) / align * align;
  rhs_job j = {.fn = fn, .ctx = ctx, .total = nrhs, .per = per};
  ct__blas_serial_calls_on_pool((nrhs + j.per - 1) / j.per, nt, rhs_block, &j);
  return atomic_load(&j.info);
}

int ct__la_getrf(ct_dtype dt, int m, int n, void *a, int lda, int *ipiv) {
  int info = 0;
  serial_below(m > n ? m : n, GETRF_THREADS_FROM);
  switch (dt) {
    case CT_FLOAT32: LA(sgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    case CT_FLOAT64: LA(dgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    case CT_COMPLEX64: LA(cgetrf_, &m, &n, a, &lda, ipiv, &info); break;
    default: LA(zgetrf_, &m, &n, a, &lda, ipiv, &info); break;
  }
  return info;
}

typedef struct solve_ctx {
  ct_dtype dt;
  char trans, uplo, side, diag; /* getrs: trans; potrs: uplo; trsm: all four */
  int n, lda, ldb;              /* trsm: n is the other dimension of B */
  int chunk;                    /* trsm_left.c's column groups: rhs_chunk of all the right-hand sides */
  bool blocked;                 /* trsm_left.c solves, decided on all the right-hand sides (as chunk) */
  const void *a;
  const int *ipiv;
  char *b;
} solve_ctx;

/* The fields every solve sets: an n x n system with nrhs right-hand sides in b. */
static solve_ctx solve_of(ct_dtype dt, int n, int nrhs, const void *a, int lda, void *b, int ldb) {
  return (solve_ctx){.dt = dt,
                     .n = n,
                     .lda = lda,
                     .ldb = ldb,
                     .chunk = rhs_chunk(nrhs),
                     .blocked = ct__la_trsm_left_pays(dt, n, nrhs),
                     .a = a,
                     .b = b};
}

/* getrs's row interchanges (forward before the solves, backward after the transposed ones). */
static int laswp(ct_dtype dt, int count, void *b, int ldb, int n, const int *ipiv, int incx) {
  int info = 0, k1 = 1;
  switch (dt) {
    case CT_FLOAT32: LA(slaswp_, &count, b, &ldb, &k1, &n, ipiv, &incx); break;
    case CT_FLOAT64: LA(dlaswp_, &count, b, &ldb, &k1, &n, ipiv, &incx); break;
    case CT_COMPLEX64: LA(claswp_, &count, b, &ldb, &k1, &n, ipiv, &incx); break;
    default: LA(zlaswp_, &count, b, &ldb, &k1, &n, ipiv, &incx); break;
  }
  return info;
}

/* getrs on right-hand sides first .. first + count - 1 (columns of b): LAPACK's steps with the triangular
   solves of trsm_left.c where they pay, else LAPACK's getrs. */
static int getrs_cols(void *c, int first, int count) {
  const solve_ctx *x = c;
  int info = 0, n = x->n, lda = x->lda, ldb = x->ldb;
  const char trans = (char)(x->trans & ~0x20);
  const void *a = x->a;
  const int *ipiv = x->ipiv;
  void *b = x->b + (size_t)first * (size_t)ldb * ct__itemsize(x->dt);
  if (x->blocked) {
    if (trans == 'N') {
      if ((info = laswp(x->dt, count, b, ldb, n, ipiv, 1))) return info;
      ct__la_trsm_left(x->dt, 'L', 'N', 'U', n, count, a, lda, b, ldb, x->chunk);
      ct__la_trsm_left(x->dt, 'U', 'N', 'N', n, count, a, lda, b, ldb, x->chunk);
      return 0;
    }
    ct__la_trsm_left(x->dt, 'U', trans, 'N', n, count, a, lda, b, ldb, x->chunk);
    ct__la_trsm_left(x->dt, 'L', trans, 'U', n, count, a, lda, b, ldb, x->chunk);
    return laswp(x->dt, count, b, ldb, n, ipiv, -1);
  }
  switch (x->dt) {
    case CT_FLOAT32: LA(sgetrs_, &trans, &n, &count, a, &lda, ipiv, b, &ldb, &info, 1); break;
    case CT_FLOAT64: LA(dgetrs_, &trans, &n, &count, a, &lda, ipiv, b, &ldb, &info, 1); break;
    case CT_COMPLEX64: LA(cgetrs_, &trans, &n, &count, a, &lda, ipiv, b, &ldb, &info, 1); break;
    default: LA(zgetrs_, &trans, &n, &count, a, &lda, ipiv, b, &ldb, &info, 1); break;
  }
  return info;
}

int ct__la_getrs(ct_dtype dt, char trans, int n, int nrhs, const void *a, int lda, const int *ipiv, void *b,
                 int ldb) {
  solve_ctx x = solve_of(dt, n, nrhs, a, lda, b, ldb);
  x.trans = trans;
  x.ipiv = ipiv;
  return by_rhs_blocks(n, nrhs, x.blocked ? x.chunk : 1, getrs_cols, &x);
}

int ct__la_potrf(ct_dtype dt, char uplo, int n, void *a, int lda) {
  int info = 0;
  serial_below(n, POTRF_THREADS_FROM);
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
  serial_below(mx, GESDD_THREADS_FROM);
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
  serial_below(n, POTRF_THREADS_FROM);
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
  serial_below(n, POTRF_THREADS_FROM);
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

/* trsm on b's columns first .. first + count - 1 (side 'L': trsm_left.c's where it pays), or on all of b (side 'R', one call: a block of
   rows of b gave other bits than the whole, the kernel's row tiles being cut elsewhere; on OpenBLAS's
   threads where the work is large, whose result differs from one thread's as torch's does). */
static int trsm_part(void *c, int first, int count) {
  const solve_ctx *x = c;
  static const float one_s[2] = {1, 0};
  static const double one_d[2] = {1, 0};
  int info = 0, lda = x->lda, ldb = x->ldb;
  bool left = x->side == 'L';
  int m = left ? x->n : count, n = left ? count : x->n;
  const char side = x->side, uplo = x->uplo, transa = x->trans, diag = x->diag;
  const void *a = x->a;
  void *b = x->b + (size_t)first * (size_t)ldb * ct__itemsize(x->dt);
  if (x->blocked) {
    ct__la_trsm_left(x->dt, uplo, transa, diag, m, n, a, lda, b, ldb, x->chunk);
    return 0;
  }
  switch (x->dt) {
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

int ct__la_trsm(ct_dtype dt, char side, char uplo, char transa, char diag, int m, int n, const void *a,
                int lda, void *b, int ldb) {
  bool left = (side | 0x20) == 'l';
  solve_ctx x = solve_of(dt, left ? m : n, left ? n : m, a, lda, b, ldb);
  x.trans = transa;
  x.uplo = uplo;
  x.side = left ? 'L' : 'R';
  x.diag = diag;
  x.blocked &= left;
  if (!left) {
    if ((int64_t)m * n * n < RHS_SPLIT_WORK) ct__blas_threads_one();
    return trsm_part(&x, 0, m);
  }
  return by_rhs_blocks(m, n, x.blocked ? x.chunk : 1, trsm_part, &x);
}

/* potrs on right-hand sides first .. first + count - 1 (columns of b), its two solves by trsm_left.c where
   they pay. */
static int potrs_cols(void *c, int first, int count) {
  const solve_ctx *x = c;
  int info = 0, n = x->n, lda = x->lda, ldb = x->ldb;
  const char uplo = (char)(x->uplo & ~0x20);
  const void *a = x->a;
  void *b = x->b + (size_t)first * (size_t)ldb * ct__itemsize(x->dt);
  if (x->blocked) { /* LAPACK's potrs: U^H U or L L^H */
    ct__la_trsm_left(x->dt, uplo, uplo == 'U' ? 'C' : 'N', 'N', n, count, a, lda, b, ldb, x->chunk);
    ct__la_trsm_left(x->dt, uplo, uplo == 'U' ? 'N' : 'C', 'N', n, count, a, lda, b, ldb, x->chunk);
    return 0;
  }
  switch (x->dt) {
    case CT_FLOAT32: LA(spotrs_, &uplo, &n, &count, a, &lda, b, &ldb, &info, 1); break;
    case CT_FLOAT64: LA(dpotrs_, &uplo, &n, &count, a, &lda, b, &ldb, &info, 1); break;
    case CT_COMPLEX64: LA(cpotrs_, &uplo, &n, &count, a, &lda, b, &ldb, &info, 1); break;
    default: LA(zpotrs_, &uplo, &n, &count, a, &lda, b, &ldb, &info, 1); break;
  }
  return info;
}

int ct__la_potrs(ct_dtype dt, char uplo, int n, int nrhs, const void *a, int lda, void *b, int ldb) {
  solve_ctx x = solve_of(dt, n, nrhs, a, lda, b, ldb);
  x.uplo = uplo;
  return by_rhs_blocks(n, nrhs, x.blocked ? x.chunk : 1, potrs_cols, &x);
}

int ct__la_potri(ct_dtype dt, char uplo, int n, void *a, int lda) {
  int info = 0;
  serial_below(n, POTRF_THREADS_FROM);
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
  serial_below(m > n ? m : n, POTRF_THREADS_FROM);
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
  serial_below(m > n ? m : n, POTRF_THREADS_FROM);
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
  serial_below(m > n ? m : n, POTRF_THREADS_FROM);
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
  serial_below(m > n ? m : n, POTRF_THREADS_FROM);
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
