/* The one module through which the library reaches BLAS and LAPACK: OpenBLAS (Debian's OpenMP build,
   libopenblas0-openmp), loaded with dlopen at the first call that needs it.

   Why dlopen and not a link line: OpenBLAS picks its kernels in its load-time constructor, from the CPU's
   model, and 0.3.21 does not know recent Intel Xeons (AVX-512 + AMX): it falls back to its Prescott kernels
   (~37 GFLOP/s sgemm per core instead of ~200) unless OPENBLAS_CORETYPE names a core before it loads. A
   linked OpenBLAS loads before any code of ours runs, so the choice has to be made before dlopen:
   ct__blas_coretype_choice decides from the CPU's features (never its model: a core type whose
   instructions the CPU lacks dies with SIGILL, as SkylakeX does on this Zen 3), sets the variable when the
   user has not, loads, and removes it again so that child processes see the environment they were given.
   If OpenBLAS is already in the process (a host program linked it) dlopen returns that copy and its own
   choice stands.

   Threads: a gemm or real gemv that OpenBLAS would thread runs on the library's own pool instead
   (blas_pool.c: its threaded driver replayed with the core's own kernel routines, or its gemv ranges as
   serial calls). What still threads inside OpenBLAS (complex gemv, dot, LAPACK's inner BLAS) runs its
   OpenMP build's threads on libgomp, the OpenMP runtime the library links; the pool and those never run at
   the same time (BLAS is called from the calling thread, outside ct__parallel_run), and every wrapper below
   sets OpenBLAS's thread count to ct_set_num_threads's setting (ct__num_threads) before it calls, so one
   setting governs both. Never call an OpenBLAS interface routine with more than one thread from inside a
   ct__parallel_run job: OpenBLAS would start an OpenMP team per worker (ct__blas_threads_one first).

   Integers: Debian's libopenblas0 uses 32-bit BLAS integers (blasint = int); the wrappers take int64_t
   and the callers split work so that every count fits (ct__blas_fits). */
#ifndef CTORCH_KERNELS_CPU_BLAS_H
#define CTORCH_KERNELS_CPU_BLAS_H

#include <stdbool.h>
#include <stdint.h>

#include "ctorch/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the load-time decision (pure, unit-tested with made-up feature sets) ---- */

typedef struct ct_blas_cpu {
  bool x86;       /* cpuid was read (x86-64); elsewhere every feature is false */
  bool os_avx512; /* XCR0 enables the opmask and zmm state (bits 5-7) besides SSE/AVX (bits 1-2) */
  bool avx2, fma; /* for the record (ct__blas_info); not part of the decision */
  bool avx512f, avx512bw, avx512vl, avx512dq, avx512bf16;
  unsigned family, model; /* display family and model, for the record */
} ct_blas_cpu;

/* The running CPU's features (cpuid + xgetbv, read each call; cheap). */
ct_blas_cpu ct__blas_cpu_read(void);

/* The OPENBLAS_CORETYPE to set before OpenBLAS loads, or NULL to leave OpenBLAS's own detection:
   - the user's setting (env non-NULL, even empty) always stands: NULL;
   - a CPU whose OS enables AVX-512 and that has AVX-512 F, BW, VL and DQ (the SkylakeX kernels'
     instructions): "Cooperlake" when it also has AVX512_BF16 (SkylakeX's kernels plus bf16 ones),
     else "SkylakeX". These are OpenBLAS 0.3.21's best x86 kernels, so naming them is never worse than its
     own detection on a model it knows, and is 5x better on one it does not;
   - anything else (AVX2 machines such as this Zen 3, which OpenBLAS detects by itself): NULL. */
const char *ct__blas_coretype_choice(const ct_blas_cpu *cpu, const char *env);

/* ---- loading ---- */

/* Loads OpenBLAS once (thread-safe). False with a RuntimeError recorded when it cannot be loaded
   ("ctorch: cannot load OpenBLAS (libopenblas.so.0): ... ; install libopenblas0-openmp"). */
bool ct__blas_ready(void);

/* What was loaded: OpenBLAS's core name ("Zen", "SkylakeX", ...), its config string, the library path and
   the core type ctorch set (NULL: none). NULL fields before a successful load. */
typedef struct ct_blas_info {
  const char *corename, *config, *path, *coretype_set;
} ct_blas_info;
ct_blas_info ct__blas_info(void);

/* A symbol of the loaded library (a Fortran LAPACK routine such as "dgetrf_", "zheevd_"), NULL with a
   RuntimeError recorded when it is missing or OpenBLAS cannot be loaded. Cheap enough per call (dlsym);
   callers that loop may keep the pointer. The LAPACK routines take every argument by pointer, with `int`
   integers (Debian's 32-bit interface), hidden trailing `size_t` lengths for character arguments (gfortran's
   convention: pass 1 for each), column-major arrays:
     typedef void dgetrf_fn(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
     dgetrf_fn *f = (dgetrf_fn *)ct__blas_sym("dgetrf_");
   Call ct__blas_sync_threads() before a LAPACK call so that its BLAS inside uses ct_set_num_threads's count. */
void *ct__blas_sym(const char *name);

/* Sets OpenBLAS's thread count to ct__num_threads() when it differs (the wrappers call it; LAPACK callers
   call it themselves). Requires ct__blas_ready(). */
void ct__blas_sync_threads(void);

/* Batches run on the library's pool (bmm's small matrices): ct__blas_threads_one() sets OpenBLAS to one
   thread from the calling thread before the job (OpenBLAS's OpenMP build then runs every call on its
   caller alone, whichever thread makes it), the workers call ct__blas_gemm_nosync, and the next wrapper
   call from the calling thread restores ct_set_num_threads's count. */
void ct__blas_threads_one(void);

/* fn(ctx, i, tid) for i < n as chunks on the library's pool (ct__parallel_chunks), each chunk with the running
   thread's OpenMP count at 1 so that the OpenBLAS calls it makes run serially on that thread; the calling
   thread's count is restored after. */
void ct__blas_serial_calls_on_pool(int64_t n, int nt, void (*fn)(void *ctx, int64_t i, int tid), void *ctx);

/* Whether every count fits OpenBLAS's 32-bit integers. */
static inline bool ct__blas_fits(int64_t v) { return v >= 0 && v <= INT32_MAX; }

/* ---- BLAS wrappers: column-major, Fortran's ?gemm_ conventions (as torch's at::native::cpublas) ----
   dt: CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128 (nothing else: callers check). alpha and beta
   point to a value of dt (complex: the two parts). trans: 'n', 't' or 'c' (conjugate transpose; complex).
   Counts must fit ct__blas_fits; ct__blas_ready() must have returned true. The results are OpenBLAS's
   bits, as torch's for the same call: torch 1.13 on Debian reaches the same library through libblas.so.3. */

/* C = alpha op(A) op(B) + beta C, C m x n, op(A) m x k, op(B) k x n. beta == 0 does not read C. */
void ct__blas_gemm(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k, const void *alpha,
                   const void *a, int64_t lda, const void *b, int64_t ldb, const void *beta, void *c,
                   int64_t ldc);

/* OpenBLAS's threaded gemm replayed on the library's pool (blas_pool.c says how and why): the running
   core's blocking parameters for one type and its own routines (kernel per conjugation form N, L, R, B;
   real types: N only), read at load; q == 0 where the route is off (another OpenBLAS version or build,
   implausible values, a routine missing or not the one the table holds). */
typedef void (*ct_blas_fn)(void);
typedef ct_blas_fn ct_blas_lookup_fn(void *ctx, const char *name);
typedef struct ct_blas_gemm_params {
  int p, q, r, unroll_m, unroll_n;
  bool k_blocks_only; /* the kernel's bits depend on the K blocks alone (bmm's one matrix per thread) */
  int own_chunk;      /* columns per first-block call on an own piece (3 * unroll_n, or wider where the
                         kernel keeps its bits: blas_pool.c) */
  ct_blas_fn kernel[4], beta, itcopy, incopy, oncopy, otcopy;
} ct_blas_gemm_params;
/* gotoblas_table: the loaded library's `gotoblas` pointer's target; lookup(lctx, name) finds a routine
   (dlsym), NULL when missing. */
ct_blas_gemm_params ct__blas_pool_params(ct_dtype dt, const char *config, const char *core,
                                         const void *gotoblas_table, ct_blas_lookup_fn *lookup, void *lctx);
/* Runs the gemm on the pool with torch's bits at ct_set_num_threads's count when OpenBLAS would thread
   it and p allows; false (nothing done) otherwise. Called by ct__blas_gemm. */
bool ct__blas_gemm_pooled(const ct_blas_gemm_params *p, ct_dtype dt, char transa, char transb, int64_t m,
                          int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda, const void *b,
                          int64_t ldb, const void *beta, void *c, int64_t ldc);
/* Batches (bmm): whether one matrix may run on one pool thread with the bits OpenBLAS's threads would give
   it at any size (the core's kernel depends on the K blocks alone), and that run: the threaded driver's K
   blocks where OpenBLAS would thread the call at ct_set_num_threads's count, else one serial call. The
   ct__blas_* forms take the loaded library's parameters for dt. */
bool ct__blas_gemm_batchable(const ct_blas_gemm_params *p);
/* The threaded driver's K block starting where `left` of k remain (GEMM_Q = q), the serial driver's (which
   rounds the halved rest up to GEMM_UNROLL_M), and whether OpenBLAS 0.3.21 at nt threads runs a gemm of
   these sizes in its threaded driver. */
int64_t ct__blas_k_block(int64_t left, int q);
int64_t ct__blas_k_block_serial(int64_t left, int q, int unroll_m);
bool ct__blas_threaded_driver(ct_dtype dt, int64_t m, int64_t n, int64_t k, int nt);
void ct__blas_gemm_one_thread(const ct_blas_gemm_params *p, ct_dtype dt, char transa, char transb, int64_t m,
                              int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda,
                              const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc);
/* ct__blas_gemm_pooled with the loaded library's parameters for dt (ct__blas_ready() first). */
bool ct__blas_gemm_pooled_here(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                               const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                               const void *beta, void *c, int64_t ldc);
bool ct__blas_batchable(ct_dtype dt);
void ct__blas_gemm_on_this_thread(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                  const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                                  const void *beta, void *c, int64_t ldc);
/* The same without the thread-count sync (pool workers between ct__blas_threads_one and the next sync). */
void ct__blas_gemm_nosync(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                          const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                          const void *beta, void *c, int64_t ldc);

/* Whether a float32 gemm of these sizes with alpha 1 and beta 0, called where OpenBLAS would run it on one
   thread, goes to oneDNN (blas.c; after ct__blas_ready()). */
bool ct__blas_sgemm_dnnl_route(int64_t m, int64_t n, int64_t k);
/* Whether such a product of any depth goes to oneDNN where OpenBLAS would run it on one thread: as one
   oneDNN call per K block of OpenBLAS's serial driver, each block of a shape the route takes. */
bool ct__blas_sgemm_dnnl_serial_route(int64_t m, int64_t n, int64_t k);
/* At ct_set_num_threads's count of 2 or more: a float32 gemm with alpha 1 and beta 0 as blocks of columns,
   one-thread oneDNN calls on the pool, where each block's bits are OpenBLAS's at any thread count (blas.c);
   false (nothing done) elsewhere. ct__blas_gemm takes it first. */
bool ct__blas_sgemm_dnnl_pooled(char transa, char transb, int64_t m, int64_t n, int64_t k, const float *alpha,
                                const void *a, int64_t lda, const void *b, int64_t ldb, const float *beta,
                                void *c, int64_t ldc);
/* OpenBLAS's own call, never another library's (the tests' reference for the routes ct__blas_gemm_nosync
   takes: float32 blocks through oneDNN where the bits are the same, blas.c). */
void ct__blas_gemm_openblas(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                            const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                            const void *beta, void *c, int64_t ldc);

/* y = alpha op(A) x + beta y, A m x n. beta == 0 does not read y. */
void ct__blas_gemv(ct_dtype dt, char trans, int64_t m, int64_t n, const void *alpha, const void *a,
                   int64_t lda, const void *x, int64_t incx, const void *beta, void *y, int64_t incy);

/* The same without the thread-count sync (OpenBLAS runs it on the threads the calling thread's OpenMP
   setting names). */
void ct__blas_gemv_nosync(ct_dtype dt, char trans, int64_t m, int64_t n, const void *alpha, const void *a,
                          int64_t lda, const void *x, int64_t incx, const void *beta, void *y, int64_t incy);

/* OpenBLAS's threaded real gemv reproduced on the pool (blas_pool.c): true when done there; false (nothing
   done) where OpenBLAS would not thread it or the split is not reproduced. config: openblas_get_config(). */
bool ct__blas_gemv_pooled(const char *config, ct_dtype dt, char trans, int64_t m, int64_t n,
                          const void *alpha, const void *a, int64_t lda, const void *x, int64_t incx,
                          const void *beta, void *y, int64_t incy);

/* *result = sum x[i] * y[i] (conj_x: conj(x[i]) * y[i], complex only), as ?dot / ?dotu / ?dotc. */
void ct__blas_dot(ct_dtype dt, bool conj_x, int64_t n, const void *x, int64_t incx, const void *y,
                  int64_t incy, void *result);

/* The same without the thread-count sync (OpenBLAS threads it as the calling thread's OpenMP setting says). */
void ct__blas_dot_nosync(ct_dtype dt, bool conj_x, int64_t n, const void *x, int64_t incx, const void *y,
                         int64_t incy, void *result);
/* OpenBLAS's threaded ddot / zdot reproduced on the pool (blas_pool.c): true when done there; false (nothing
   done) where OpenBLAS would not thread it. config, core: openblas_get_config(), openblas_get_corename(). */
bool ct__blas_dot_pooled(const char *config, const char *core, ct_dtype dt, bool conj_x, int64_t n,
                         const void *x, int64_t incx, const void *y, int64_t incy, void *result);
/* A = alpha x y^T + A (conj_y: x y^H), A m x n, as ?ger / ?geru / ?gerc. */
void ct__blas_ger(ct_dtype dt, bool conj_y, int64_t m, int64_t n, const void *alpha, const void *x,
                  int64_t incx, const void *y, int64_t incy, void *a, int64_t lda);

#ifdef __cplusplus
}
#endif

#endif
