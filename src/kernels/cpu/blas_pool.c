/* OpenBLAS 0.3.21's threaded ?gemm, run on the library's pool (blas.h, ct__blas_gemm_pooled).

   Why: OpenBLAS's OpenMP threads meet at barriers inside every call. When the other core is busy with
   another program, the OS runs one of them only in turns with it, and the whole call waits: sgemm 256^3
   took 26x longer at 2 threads than at 1 with the second core busy (torch alike). The pool hands out
   work in chunks, so a late thread delays nothing (core/parallel.h).

   Why the bits stay torch's: torch at N threads calls OpenBLAS at N threads. Measured against 0.3.21's
   threaded calls (300 random shapes per core and type, every transpose), an element of C depends on
     - the K blocks the threaded driver (driver/level3/level3_thread.c) cuts: GEMM_Q while 2 * GEMM_Q or
       more remain, then the rest halved rounding up ((min_l + 1) / 2); the serial driver rounds the
       half otherwise, so one serial call with k > GEMM_Q gives other bits;
     - the tile of C one kernel call covers, for most kernels: the threaded driver cuts M into
       nthreads_m ranges and N into nthreads ranges of DIVIDE_RATE (2) pieces each.
   So each such tile here is a serial call (OpenBLAS on one thread) per K block, in order, the first
   with the caller's beta and the rest with beta 1: the kernel adds each block's alpha * sum to C, as the
   threaded driver does. That reproduces the threaded bits exactly for the kernels in `verified` below;
   the others (double's on the AVX-512 cores, float and complex on Haswell / Zen) also depend on how
   many columns the driver hands a kernel at once, which no serial call reproduces: they keep
   OpenBLAS's own threads. A serial call must not take OpenBLAS's small-matrix kernels (another
   summation, float and double at most 100^3 on the AVX-512 cores): real tiles must exceed 10^6
   multiply-adds, else the whole call keeps OpenBLAS's threads.

   What is read from OpenBLAS's internals: GEMM_Q and GEMM_R of the running core from its `gotoblas`
   table, at the offsets of 0.3.21's DYNAMIC_ARCH build (BUILD_BFLOAT16 off, as Debian builds it). The
   route is taken only when openblas_get_config() names that version and build and the values are
   plausible; elsewhere OpenBLAS threads as before. */
#include <omp.h>
#include <string.h>

#include "core/internal.h"
#include "core/parallel.h"
#include "kernels/cpu/blas.h"

/* level3_thread.c's compile-time constants in Debian's TARGET=GENERIC build. */
enum {
  SWITCH_RATIO = 2,
  DIVIDE_RATE = 2
};
/* interface/gemm.c: at most SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD multiply-adds run serially. */
#define SERIAL_REAL    262144.0
#define SERIAL_COMPLEX 32768.0
/* sgemm_small_kernel_permit_skylakex.c: the small kernels are never used above 100^3. */
#define SMALL_BOUND 1e6
/* From this many multiply-adds on (512^3, a millisecond or more on one core) a product keeps OpenBLAS's
   threads unless the pool finds its workers held back: there a late thread costs a small part of the
   call, and OpenBLAS's threads share their packed operands, where tiles pack theirs again (sgemm
   1024^3 at 2 threads took 0.84 of its one-thread time in 4 tiles, 0.5-0.55 with OpenBLAS's threads). */
#define SHARED_BOUND 134217728.0
/* At most this many threads' partition is reproduced (OpenBLAS's MAX_THREADS in Debian's build). */
#define MAX_PARTS 64

/* int offsets of {p, q, r} in gotoblas_t (common_param.h of 0.3.21, DYNAMIC_ARCH, no BFLOAT16), in the
   order float32, float64, complex64, complex128. */
static const int table_offset[4] = {4, 182, 356, 708};

/* The cores and types whose threaded bits a tiled serial run reproduced (see above), and how: 1 with the
   threaded driver's M ranges (any columns), 2 with its M ranges and column pieces too, 3 with any tiles
   (only the K blocks matter), 0 not at all. */
static const struct {
  const char *core;
  unsigned char how[4]; /* float32, float64, complex64, complex128 */
} verified[] = {
    {"Cooperlake", {3, 0, 1, 1}}, {"SkylakeX", {3, 0, 1, 1}}, {"Haswell", {0, 2, 0, 0}},
    {"Zen", {0, 2, 0, 0}},        {"Prescott", {2, 2, 2, 2}},
};

static int type_index(ct_dtype dt) {
  return dt == CT_FLOAT32 ? 0 : dt == CT_FLOAT64 ? 1 : dt == CT_COMPLEX64 ? 2 : dt == CT_COMPLEX128 ? 3 : -1;
}

ct_blas_gemm_params ct__blas_pool_params(ct_dtype dt, const char *config, const char *core,
                                         const void *gotoblas_table) {
  const ct_blas_gemm_params off = {0, 0, false, false};
  int ti = type_index(dt);
  if (ti < 0 || !config || !core || !gotoblas_table || strncmp(config, "OpenBLAS 0.3.21 ", 16) != 0 ||
      !strstr(config, "DYNAMIC_ARCH") || !strstr(config, "USE_OPENMP"))
    return off;
  int how = 0;
  for (size_t i = 0; i < sizeof verified / sizeof *verified; i++)
    if (strcmp(core, verified[i].core) == 0) how = verified[i].how[ti];
  if (!how) return off;
  const int *t = (const int *)gotoblas_table + table_offset[ti];
  int p = t[0], q = t[1], r = t[2];
  if (p < 16 || p > 8192 || q < 16 || q > 4096 || r < 64 || r > (1 << 24)) return off;
  return (ct_blas_gemm_params){q, r, how == 2, how == 3};
}

/* The threaded driver's K block starting where `left` of k remain. */
static int64_t k_block(int64_t left, int q) {
  if (left >= 2 * (int64_t)q) return q;
  return left > q ? (left + 1) / 2 : left;
}

/* level3_thread.c's split of `len` into up to `parts` ranges (the width loop of gemm_driver); bounds
   gets parts + 1 entries from `start`. min_width: SWITCH_RATIO for N, 1 for M. */
static void split(int64_t start, int64_t len, int parts, int64_t min_width, int64_t *bounds) {
  bounds[0] = start;
  int i = 0;
  for (; i < parts && len > 0; i++) {
    int64_t w = (len + parts - i - 1) / (parts - i);
    if (w < min_width) w = min_width;
    if (w > len) w = len;
    bounds[i + 1] = bounds[i] + w;
    len -= w;
  }
  for (; i < parts; i++) bounds[i + 1] = bounds[i];
}

typedef struct gemm_job {
  ct_dtype dt;
  char ta, tb;
  int64_t m, n, k, lda, ldb, ldc, es;
  const char *a, *b;
  char *c;
  const void *alpha, *beta;
  int q;
  /* tiles: rows [mb[i], mb[i + 1]) x columns [nb[j], nb[j + 1]), tile t = i * ncols + j */
  int nrows, ncols;
  int64_t mb[MAX_PARTS + 1];
  int64_t *nb; /* DIVIDE_RATE * nthreads + 1 bounds */
} gemm_job;

static gemm_job job_for(ct_blas_gemm_params p, ct_dtype dt, char transa, char transb, int64_t m, int64_t n,
                        int64_t k, const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                        const void *beta, void *c, int64_t ldc) {
  return (gemm_job){.dt = dt,
                    .ta = transa,
                    .tb = transb,
                    .m = m,
                    .n = n,
                    .k = k,
                    .lda = lda,
                    .ldb = ldb,
                    .ldc = ldc,
                    .es = (int64_t)ct__itemsize(dt),
                    .a = a,
                    .b = b,
                    .c = c,
                    .alpha = alpha,
                    .beta = beta,
                    .q = p.q};
}

static void tile_run(void *ctx, int64_t t, int tid) {
  (void)tid;
  const gemm_job *j = ctx;
  if (omp_get_max_threads() != 1) omp_set_num_threads(1); /* OpenBLAS then runs on this thread alone */
  int64_t i = t / j->ncols, c = t % j->ncols;
  int64_t m0 = j->mb[i], m1 = j->mb[i + 1], n0 = j->nb[c], n1 = j->nb[c + 1];
  if (m1 <= m0 || n1 <= n0) return;
  static const double one[2] = {1, 0};
  static const float onef[2] = {1, 0};
  const void *beta1 = j->dt == CT_COMPLEX128 || j->dt == CT_FLOAT64 ? (const void *)one : (const void *)onef;
  for (int64_t ls = 0, kb; ls < j->k; ls += kb) {
    kb = k_block(j->k - ls, j->q);
    int64_t ao = (j->ta | 0x20) == 'n' ? m0 + ls * j->lda : ls + m0 * j->lda;
    int64_t bo = (j->tb | 0x20) == 'n' ? ls + n0 * j->ldb : n0 + ls * j->ldb;
    ct__blas_gemm_nosync(j->dt, j->ta, j->tb, m1 - m0, n1 - n0, kb, j->alpha, j->a + ao * j->es, j->lda,
                         j->b + bo * j->es, j->ldb, ls ? beta1 : j->beta, j->c + (m0 + n0 * j->ldc) * j->es,
                         j->ldc);
  }
}

/* Whether OpenBLAS at nt threads runs this gemm in its threaded driver (interface/gemm.c: above the serial
   bound, past the small kernels; level3_thread.c: more than one thread in its split), and the split:
   *ntm ranges of M, *nthreads threads in all. */
static bool threaded_driver(ct_dtype dt, int64_t m, int64_t n, int64_t k, int nt, int *ntm, int *nthreads) {
  bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  double mnk = (double)m * (double)n * (double)k;
  if (nt < 2 || nt > MAX_PARTS || mnk <= (cplx ? SERIAL_COMPLEX : SERIAL_REAL) ||
      (!cplx && mnk <= SMALL_BOUND))
    return false;
  int tm = nt;
  if (m < 2 * SWITCH_RATIO) tm = 1;
  else
    while (m < tm * SWITCH_RATIO) tm /= 2;
  int tn = n < SWITCH_RATIO * tm ? 1 : (int)((n + SWITCH_RATIO * tm - 1) / (SWITCH_RATIO * tm));
  if (tm * tn > nt) tn = nt / tm;
  *ntm = tm;
  *nthreads = tm * tn;
  return tm * tn > 1;
}

/* The threaded driver's column pieces: nthreads ranges of DIVIDE_RATE pieces each. Returns the narrowest
   non-empty piece; *count gets the number of pieces (bounds has count + 1 entries). */
static int64_t exact_pieces(int64_t n, int nthreads, int64_t *bounds, int *count) {
  int64_t parts[MAX_PARTS + 1], narrowest = n;
  split(0, n, nthreads, SWITCH_RATIO, parts);
  for (int i = 0; i < nthreads; i++) {
    int64_t div = (parts[i + 1] - parts[i] + DIVIDE_RATE - 1) / DIVIDE_RATE;
    for (int d = 0; d < DIVIDE_RATE; d++) {
      int64_t lo = parts[i] + d * div, hi = lo + div;
      lo = lo < parts[i + 1] ? lo : parts[i + 1];
      hi = hi < parts[i + 1] ? hi : parts[i + 1];
      bounds[i * DIVIDE_RATE + d] = lo;
      if (hi > lo && hi - lo < narrowest) narrowest = hi - lo;
    }
  }
  *count = nthreads * DIVIDE_RATE;
  bounds[*count] = n;
  return narrowest;
}

/* Columns cut freely (kernels whose bits do not depend on it): as few pieces as keep every thread busy
   with a late one (about two tiles per thread), one when the pool's workers are being held back (the
   calling thread then runs every tile, and each tile packs its operands again), none under 64 wide. */
static int64_t free_pieces(int64_t n, int ntm, int nt, int64_t *bounds, int *count) {
  int c = ct__parallel_quiet() ? 1 : (2 * nt + ntm - 1) / ntm;
  if (c > n / 64) c = (int)(n / 64);
  if (c < 1) c = 1;
  split(0, n, c, 1, bounds);
  *count = c;
  return n / c;
}

/* Tiles where only the K blocks matter: columns only (each tile packs all of A again), two per thread,
   fewer where a tile would take the small-matrix kernels, one when the pool's workers are being held
   back (then the whole product runs as serial calls per K block, nothing packed twice). False: no
   split both fits and helps (two threads would have been worth more than one). */
static bool any_tiles(gemm_job *j, int nt, int64_t min_k) {
  bool quiet = ct__parallel_quiet();
  int c = quiet ? 1 : 2 * nt;
  if (c > j->n / 64) c = (int)(j->n / 64);
  while (c > 1 && (double)(j->n / c) * (double)j->m * (double)min_k <= SMALL_BOUND) c--;
  if (c < 1 || (c == 1 && !quiet) || (double)j->n * (double)j->m * (double)min_k <= SMALL_BOUND) return false;
  j->nrows = 1;
  split(0, j->m, 1, 1, j->mb);
  split(0, j->n, c, 1, j->nb);
  j->ncols = c;
  return true;
}

bool ct__blas_gemm_pooled(ct_blas_gemm_params p, ct_dtype dt, char transa, char transb, int64_t m, int64_t n,
                          int64_t k, const void *alpha, const void *a, int64_t lda, const void *b,
                          int64_t ldb, const void *beta, void *c, int64_t ldc) {
  int nt = ct__num_threads(), ntm, nthreads;
  if (p.q == 0 || !threaded_driver(dt, m, n, k, nt, &ntm, &nthreads)) return false;
  bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  double mnk = (double)m * (double)n * (double)k;
  if (mnk >= SHARED_BOUND && !ct__parallel_quiet()) return false;

  gemm_job j = job_for(p, dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (n > (int64_t)p.r * nthreads) return false; /* more than one step of GEMM_R * nthreads columns */
  int64_t nb[DIVIDE_RATE * MAX_PARTS + 1];
  j.nb = nb;
  int64_t min_k = k;
  for (int64_t ls = 0, kb; ls < k; ls += kb) min_k = (kb = k_block(k - ls, p.q)) < min_k ? kb : min_k;
  if (p.any_tiles) {
    if (!any_tiles(&j, nt, min_k)) return false;
  } else {
    j.nrows = ntm;
    split(0, m, ntm, 1, j.mb);
    int64_t min_cols =
        p.exact_n ? exact_pieces(n, nthreads, nb, &j.ncols) : free_pieces(n, ntm, nt, nb, &j.ncols);
    int64_t min_rows = m;
    for (int i = 0; i < ntm; i++)
      if (j.mb[i + 1] > j.mb[i] && j.mb[i + 1] - j.mb[i] < min_rows) min_rows = j.mb[i + 1] - j.mb[i];
    if (!cplx && (double)min_rows * (double)min_cols * (double)min_k <= SMALL_BOUND) return false;
  }
  int saved = omp_get_max_threads();
  ct__parallel_chunks((int64_t)j.nrows * j.ncols, nt, tile_run, &j);
  if (omp_get_max_threads() != saved) omp_set_num_threads(saved);
  return true;
}

bool ct__blas_gemm_batchable(ct_blas_gemm_params p) { return p.q != 0 && p.any_tiles; }

void ct__blas_gemm_one_thread(ct_blas_gemm_params p, ct_dtype dt, char transa, char transb, int64_t m,
                              int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda,
                              const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc) {
  int ntm, nthreads;
  if (!p.any_tiles || !threaded_driver(dt, m, n, k, ct__num_threads(), &ntm, &nthreads)) {
    if (omp_get_max_threads() != 1) omp_set_num_threads(1);
    ct__blas_gemm_nosync(dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  gemm_job j = job_for(p, dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  j.nrows = j.ncols = 1;
  int64_t nb[2] = {0, n};
  j.mb[0] = 0, j.mb[1] = m;
  j.nb = nb;
  tile_run(&j, 0, 0);
}

/* ---- gemv ----
   OpenBLAS 0.3.21's threaded real gemv (interface/gemv.c, driver/level2/gemv_thread.c): from m * n >= 2304 *
   GEMM_MULTITHREAD_THRESHOLD (4) on, the outputs (A's columns for 't', its rows for 'n') are cut into
   ranges of ceil(left / threads left) but at least 4, and each range is one serial kernel call on its part
   of A and y. The same calls, one per range, through the interface on one thread (which scales its part of
   y by beta first, as the threaded interface does for all of y) make the same kernel calls: the same bits
   on any core. Not reproduced: 'n' with fewer ranges than threads (m <= 4 at 2 threads), where OpenBLAS
   may split x instead and sum partial results; negative increments; complex (its own split). */

typedef struct gemv_job {
  ct_dtype dt;
  char trans;
  int64_t m, n, lda, incx, incy, es;
  const char *a, *x;
  char *y;
  const void *alpha, *beta;
  int64_t range[MAX_PARTS + 1];
} gemv_job;

static void gemv_range(void *ctx, int64_t r, int tid) {
  (void)tid;
  const gemv_job *j = ctx;
  if (omp_get_max_threads() != 1) omp_set_num_threads(1);
  int64_t lo = j->range[r], w = j->range[r + 1] - lo;
  bool t = (j->trans | 0x20) == 't';
  ct__blas_gemv_nosync(j->dt, j->trans, t ? j->m : w, t ? w : j->n, j->alpha,
                       j->a + (t ? lo * j->lda : lo) * j->es, j->lda, j->x, j->incx, j->beta,
                       j->y + lo * j->incy * j->es, j->incy);
}

bool ct__blas_gemv_pooled(const char *config, ct_dtype dt, char trans, int64_t m, int64_t n,
                          const void *alpha, const void *a, int64_t lda, const void *x, int64_t incx,
                          const void *beta, void *y, int64_t incy) {
  int nt = ct__num_threads();
  if (nt < 2 || nt > MAX_PARTS || (dt != CT_FLOAT32 && dt != CT_FLOAT64) || incx <= 0 || incy <= 0 ||
      !config || strncmp(config, "OpenBLAS 0.3.21 ", 16) != 0 || !strstr(config, "USE_OPENMP") ||
      m * n < 2304 * 4)
    return false;
  bool t = (trans | 0x20) == 't';
  gemv_job j = {.dt = dt,
                .trans = trans,
                .m = m,
                .n = n,
                .lda = lda,
                .incx = incx,
                .incy = incy,
                .es = (int64_t)ct__itemsize(dt),
                .a = a,
                .x = x,
                .y = y,
                .alpha = alpha,
                .beta = beta};
  int ranges = 0;
  j.range[0] = 0;
  for (int64_t left = t ? n : m; left > 0 && ranges < nt; ranges++) {
    int64_t w = (left + nt - ranges - 1) / (nt - ranges);
    w = w < 4 ? 4 : w;
    w = w > left ? left : w;
    j.range[ranges + 1] = j.range[ranges] + w;
    left -= w;
  }
  /* 't' in one range is one serial call anyway; 'n' in fewer ranges than threads may split x instead */
  if (ranges < 2 || (!t && ranges < nt)) return false;
  int saved = omp_get_max_threads();
  ct__parallel_chunks(ranges, nt, gemv_range, &j);
  if (omp_get_max_threads() != saved) omp_set_num_threads(saved);
  return true;
}
