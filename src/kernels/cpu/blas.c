/* OpenBLAS through dlopen: the core-type decision, the load, the thread count and the wrappers (blas.h). */
#include "kernels/cpu/blas.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/omp_runtime.h"
#include "core/parallel.h"
#include "kernels/cpu/dnnl.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define CT_BLAS_X86 1
#else
#define CT_BLAS_X86 0
#endif

/* ---- the decision ---- */

ct_blas_cpu ct__blas_cpu_read(void) {
  ct_blas_cpu c = {0};
#if CT_BLAS_X86
  unsigned a, b, cx, d;
  if (!__get_cpuid(1, &a, &b, &cx, &d)) return c;
  c.x86 = true;
  unsigned fam = (a >> 8) & 0xf, mod = (a >> 4) & 0xf;
  if (fam == 0xf) fam += (a >> 20) & 0xff;
  if (fam == 6 || fam >= 0xf) mod |= ((a >> 16) & 0xf) << 4;
  c.family = fam;
  c.model = mod;
  c.fma = (cx >> 12) & 1;
  bool osxsave = (cx >> 27) & 1;
  unsigned xcr0 = 0;
  if (osxsave) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = lo;
  }
  c.os_avx512 = (xcr0 & 0xe6) == 0xe6;
  if (__get_cpuid_count(7, 0, &a, &b, &cx, &d)) {
    c.avx2 = (b >> 5) & 1 && (xcr0 & 6) == 6;
    c.avx512f = (b >> 16) & 1;
    c.avx512dq = (b >> 17) & 1;
    c.avx512bw = (b >> 30) & 1;
    c.avx512vl = (b >> 31) & 1;
    unsigned max7 = a;
    if (max7 >= 1 && __get_cpuid_count(7, 1, &a, &b, &cx, &d)) c.avx512bf16 = (a >> 5) & 1;
  }
#endif
  return c;
}

const char *ct__blas_coretype_choice(const ct_blas_cpu *cpu, const char *env) {
  if (env) return NULL;
  if (!cpu->x86 || !cpu->os_avx512) return NULL;
  if (!(cpu->avx512f && cpu->avx512bw && cpu->avx512vl && cpu->avx512dq)) return NULL;
  return cpu->avx512bf16 ? "Cooperlake" : "SkylakeX";
}

/* ---- loading ---- */

typedef void sgemm_fn(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                      float *, int);
typedef void dgemm_fn(int, int, int, int, int, int, double, const double *, int, const double *, int, double,
                      double *, int);
typedef void xgemm_fn(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                      const void *, void *, int);
typedef void sgemv_fn(int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
typedef void dgemv_fn(int, int, int, int, double, const double *, int, const double *, int, double, double *,
                      int);
typedef void xgemv_fn(int, int, int, int, const void *, const void *, int, const void *, int, const void *,
                      void *, int);
typedef float sdot_fn(int, const float *, int, const float *, int);
typedef double ddot_fn(int, const double *, int, const double *, int);
typedef void xdot_fn(int, const void *, int, const void *, int, void *);
typedef void sger_fn(int, int, int, float, const float *, int, const float *, int, float *, int);
typedef void dger_fn(int, int, int, double, const double *, int, const double *, int, double *, int);
typedef void xger_fn(int, int, int, const void *, const void *, int, const void *, int, void *, int);
typedef void set_threads_fn(int);
typedef int get_threads_fn(void);
typedef char *get_str_fn(void);

static struct {
  void *handle;
  sgemm_fn *sgemm;
  dgemm_fn *dgemm;
  xgemm_fn *cgemm, *zgemm;
  sgemv_fn *sgemv;
  dgemv_fn *dgemv;
  xgemv_fn *cgemv, *zgemv;
  sdot_fn *sdot;
  ddot_fn *ddot;
  xdot_fn *cdotu, *zdotu, *cdotc, *zdotc;
  sger_fn *sger;
  dger_fn *dger;
  xger_fn *cgeru, *zgeru, *cgerc, *zgerc;
  set_threads_fn *set_threads;
  get_threads_fn *get_threads;
  ct_blas_info info;
  ct_blas_gemm_params pool[4]; /* float32, float64, complex64, complex128 (blas_pool.c) */
  char error[512];
} B;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* Where Debian puts the OpenMP build: libopenblas.so.0 is the alternatives link in the linker's path;
   the full path serves a system whose alternatives point at another build. */
static const char *const lib_names[] = {
    "libopenblas.so.0", "/usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0", "libopenblas.so"};

/* dlsym's answer as a function pointer (POSIX guarantees the conversion; ISO C has no cast for it, hence
   the copy). */
static ct_blas_fn lookup(void *ctx, const char *name) {
  (void)ctx;
  ct_blas_fn f = NULL;
  void *p = dlsym(B.handle, name);
  memcpy(&f, &p, sizeof p);
  return f;
}

/* Stores the routine into a function pointer of its own type (all function pointers share a size). */
static void sym(void *fn_slot, const char *name, bool *ok) {
  ct_blas_fn f = lookup(NULL, name);
  if (!f) *ok = false;
  memcpy(fn_slot, &f, sizeof f);
}

static void load(void) {
  ct_blas_cpu cpu = ct__blas_cpu_read();
  const char *core = ct__blas_coretype_choice(&cpu, getenv("OPENBLAS_CORETYPE"));
  /* setenv/unsetenv race with getenv in other threads of the process; this runs once, at the first
     product, and only on a CPU that needs it. */
  if (core) setenv("OPENBLAS_CORETYPE", core, 0);
  const char *path = NULL;
  for (size_t i = 0; i < sizeof lib_names / sizeof *lib_names && !B.handle; i++)
    if ((B.handle = dlopen(lib_names[i], RTLD_NOW | RTLD_LOCAL))) path = lib_names[i];
  if (core) unsetenv("OPENBLAS_CORETYPE");
  if (!B.handle) {
    const char *e = dlerror();
    snprintf(B.error, sizeof B.error,
             "ctorch: cannot load OpenBLAS (libopenblas.so.0): %s; install Debian's libopenblas0-openmp",
             e ? e : "");
    return;
  }
  bool ok = true;
  sym(&B.sgemm, "cblas_sgemm", &ok);
  sym(&B.dgemm, "cblas_dgemm", &ok);
  sym(&B.cgemm, "cblas_cgemm", &ok);
  sym(&B.zgemm, "cblas_zgemm", &ok);
  sym(&B.sgemv, "cblas_sgemv", &ok);
  sym(&B.dgemv, "cblas_dgemv", &ok);
  sym(&B.cgemv, "cblas_cgemv", &ok);
  sym(&B.zgemv, "cblas_zgemv", &ok);
  sym(&B.sdot, "cblas_sdot", &ok);
  sym(&B.ddot, "cblas_ddot", &ok);
  sym(&B.cdotu, "cblas_cdotu_sub", &ok);
  sym(&B.zdotu, "cblas_zdotu_sub", &ok);
  sym(&B.cdotc, "cblas_cdotc_sub", &ok);
  sym(&B.zdotc, "cblas_zdotc_sub", &ok);
  sym(&B.sger, "cblas_sger", &ok);
  sym(&B.dger, "cblas_dger", &ok);
  sym(&B.cgeru, "cblas_cgeru", &ok);
  sym(&B.zgeru, "cblas_zgeru", &ok);
  sym(&B.cgerc, "cblas_cgerc", &ok);
  sym(&B.zgerc, "cblas_zgerc", &ok);
  sym(&B.set_threads, "openblas_set_num_threads", &ok);
  sym(&B.get_threads, "openblas_get_num_threads", &ok);
  get_str_fn *corename = NULL, *config = NULL;
  sym(&corename, "openblas_get_corename", &ok);
  sym(&config, "openblas_get_config", &ok);
  if (!ok) {
    snprintf(B.error, sizeof B.error, "ctorch: %s is not OpenBLAS (a CBLAS or openblas_ symbol is missing)",
             path);
    dlclose(B.handle);
    B.handle = NULL;
    return;
  }
  B.info = (ct_blas_info){corename(), config(), path, core};
  void *const *table = dlsym(B.handle, "gotoblas"); /* gotoblas_t *gotoblas: the running core's table */
  static const ct_dtype pool_types[4] = {CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};
  for (int i = 0; i < 4; i++)
    B.pool[i] =
        ct__blas_pool_params(pool_types[i], config(), corename(), table ? *table : NULL, lookup, NULL);
}

bool ct__blas_ready(void) {
  pthread_once(&load_once, load);
  if (B.handle) return true;
  ct__error(CT_ERR_RUNTIME, "%s", B.error);
  return false;
}

ct_blas_info ct__blas_info(void) {
  pthread_once(&load_once, load);
  return B.info;
}

void *ct__blas_sym(const char *name) {
  if (!ct__blas_ready()) return NULL;
  void *p = dlsym(B.handle, name);
  if (!p) ct__error(CT_ERR_RUNTIME, "ctorch: the loaded OpenBLAS (%s) has no %s", B.info.path, name);
  return p;
}

void ct__blas_sync_threads(void) {
  /* OpenBLAS's OpenMP build takes ct__omp_get_max_threads() of the calling thread at each call (and a
     thread whose ICV differs resets the global count), so both are set: openblas_set_num_threads sets
     the calling thread's ICV too. */
  int n = ct__num_threads();
  if (B.get_threads() != n || ct__omp_get_max_threads() != n) B.set_threads(n);
}

/* ---- the wrappers ---- */

enum {
  COL_MAJOR = 102,
  NO_TRANS = 111,
  TRANS = 112,
  CONJ_TRANS = 113
};

static int cblas_trans(char t) {
  return t == 't' || t == 'T' ? TRANS : t == 'c' || t == 'C' ? CONJ_TRANS : NO_TRANS;
}

void ct__blas_threads_one(void) {
  if (B.get_threads() != 1) B.set_threads(1);
}

static int pool_index(ct_dtype dt) {
  return dt == CT_FLOAT32 ? 0 : dt == CT_FLOAT64 ? 1 : dt == CT_COMPLEX64 ? 2 : 3;
}

void ct__blas_gemm(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k, const void *alpha,
                   const void *a, int64_t lda, const void *b, int64_t ldb, const void *beta, void *c,
                   int64_t ldc) {
  if (dt == CT_FLOAT32 &&
      ct__blas_sgemm_dnnl_pooled(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
    return;
  if (ct__blas_gemm_pooled(&B.pool[pool_index(dt)], dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta,
                           c, ldc))
    return;
  ct__blas_sync_threads();
  ct__blas_gemm_nosync(dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

bool ct__blas_gemm_pooled_here(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                               const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                               const void *beta, void *c, int64_t ldc) {
  return ct__blas_gemm_pooled(&B.pool[pool_index(dt)], dt, transa, transb, m, n, k, alpha, a, lda, b, ldb,
                              beta, c, ldc);
}

bool ct__blas_batchable(ct_dtype dt) {
  return ct__blas_ready() && ct__blas_gemm_batchable(&B.pool[pool_index(dt)]);
}

void ct__blas_gemm_on_this_thread(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                  const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                                  const void *beta, void *c, int64_t ldc) {
  ct__blas_gemm_one_thread(&B.pool[pool_index(dt)], dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta,
                           c, ldc);
}

/* ---- float32 blocks through oneDNN ----
   oneDNN's sgemm multiplies a float32 block of one K block 1.1-1.3x faster than OpenBLAS 0.3.21's serial
   driver (64 x 128^3: 92-96 against 77-79 GFLOP/s at one thread). Both sum each element's products in k order
   in one FMA chain from +0 where: OpenBLAS runs its AVX-512 float kernel (SkylakeX, Cooperlake: k_blocks_only)
   on one K block (k <= GEMM_Q) and not its small-matrix kernels (m * n * k > 100^3, its permit's bound);
   oneDNN has m and n of 32 or more (for fewer columns it takes other kernels, e.g. m 2194, n 12, k 68 'tn').
   Both scale by alpha and beta in their own ways, so only products with alpha 1 and beta 0 go there (mm,
   bmm, matmul), and beta 1 only to add a later K block's sum (below). Then the bits are OpenBLAS's, at any
   thread count (one K block: each element is one kernel's chain whatever the split; several: below). A
   check at first use compares the two libraries on five shapes (every transpose, edges of the kernels'
   tiles, k = GEMM_Q; beta 0 and 1) and keeps the route off if any bit differs (another oneDNN, another
   CPU). */
static bool sgemm_dnnl_same;
static pthread_once_t sgemm_check_once = PTHREAD_ONCE_INIT;

static bool sgemm_dnnl_shape(const ct_blas_gemm_params *p, int64_t m, int64_t n, int64_t k) {
  return p->k_blocks_only && k <= p->q && m >= 32 && n >= 32 && (double)m * (double)n * (double)k > 1e6;
}

static void sgemm_dnnl_check(void) {
  static const struct {
    int m, n, k, pad;
    char ta, tb;
  } shapes[] = {{100, 77, 0, 0, 'n', 'n'},
                {45, 130, 181, 3, 't', 'n'},
                {131, 38, 203, 1, 'n', 't'},
                {64, 96, 170, 0, 't', 't'},
                {33, 250, 0, 2, 'n', 'n'}};
  const ct_blas_gemm_params *p = &B.pool[0];
  bool same = p->k_blocks_only && p->q > 0;
  int prev = ct__omp_get_max_threads();
  if (prev != 1) ct__omp_set_num_threads(1); /* OpenBLAS's serial driver */
  uint32_t x = 12345;
  for (size_t i = 0; same && i < sizeof shapes / sizeof *shapes; i++) {
    int64_t m = shapes[i].m, n = shapes[i].n, k = shapes[i].k ? shapes[i].k : p->q;
    bool ta = shapes[i].ta == 't', tb = shapes[i].tb == 't';
    int64_t lda = (ta ? k : m) + shapes[i].pad, ldb = (tb ? n : k) + shapes[i].pad, ldc = m + shapes[i].pad;
    size_t na = (size_t)(lda * (ta ? m : k)), nb = (size_t)(ldb * (tb ? k : n)), nc = (size_t)(ldc * n);
    float *a = ct__malloc((na + nb + 2 * nc) * sizeof(float)), *b = a ? a + na : NULL;
    if (!a) {
      ct_clear_error();
      same = false;
      break;
    }
    for (size_t j = 0; j < na + nb; j++) { /* values in [-0.5, 0.5), every 17th zero */
      x = x * 1664525u + 1013904223u;
      a[j] = j % 17 == 0 ? 0.0f : (float)(x >> 8) / 16777216.0f - 0.5f;
    }
    float *c1 = b + nb, *c2 = c1 + nc, one = 1.0f, zero = 0.0f;
    memset(c1, 0, 2 * nc * sizeof(float));
    ct__blas_gemm_openblas(CT_FLOAT32, shapes[i].ta, shapes[i].tb, m, n, k, &one, a, lda, b, ldb, &zero, c1,
                           ldc);
    same = sgemm_dnnl_shape(p, m, n, k) &&
           ct__dnnl_sgemm_one_thread(ta, tb, m, n, k, a, lda, b, ldb, 0.0f, c2, ldc) &&
           memcmp(c1, c2, nc * sizeof(float)) == 0;
    /* a later K block's sum added to C (beta 1), as the pooled route does */
    ct__blas_gemm_openblas(CT_FLOAT32, shapes[i].ta, shapes[i].tb, m, n, k, &one, a, lda, b, ldb, &one, c1,
                           ldc);
    same = same && ct__dnnl_sgemm_one_thread(ta, tb, m, n, k, a, lda, b, ldb, 1.0f, c2, ldc) &&
           memcmp(c1, c2, nc * sizeof(float)) == 0;
    ct__free(a);
  }
  if (prev != 1) ct__omp_set_num_threads(prev);
  sgemm_dnnl_same = same;
}

bool ct__blas_sgemm_dnnl_route(int64_t m, int64_t n, int64_t k) {
  if (!sgemm_dnnl_shape(&B.pool[0], m, n, k)) return false;
  pthread_once(&sgemm_check_once, sgemm_dnnl_check);
  return sgemm_dnnl_same;
}

/* ---- float32 products as oneDNN's one-thread calls per K block ----
   Where the core's float32 kernel depends on the K blocks alone, OpenBLAS's bits for an element are its K
   blocks' sums, each one FMA chain from +0, added to C in block order. oneDNN's one-thread sgemm of one K
   block gives the same chain on the shapes the route allows (sgemm_dnnl_shape, checked at first use), and
   with beta 1 adds it to C as OpenBLAS's kernel does: with OpenBLAS's K blocks (the serial driver's at one
   thread, the threaded driver's at several: 60 random shapes each, k 321-1820, every bit) a product is one
   oneDNN call per K block (beta 0, then 1), or at several threads the same for each block of columns, one
   block per thread, on whichever pool thread takes it (narrower blocks ran slower in oneDNN: mm float32
   2048^3 at 2 threads took 56 ms in 2 blocks, 113 ms in 3 and 143 ms in 4, 1024^3 6.9, 9.5 and 8.1 ms).
   Before, only products of one K block at one thread went to oneDNN. At several threads OpenBLAS's
   threaded partition ran on its kernels: with the other core busy the calling thread runs it alone, at
   OpenBLAS's rate instead of oneDNN's, and mm float32 256^3 took 1.15x its 1-thread time. */
typedef struct sgemm_cols {
  bool ta, tb, serial; /* the serial driver's K blocks, else the threaded driver's */
  int q, unroll_m;
  int64_t m, n, k, lda, ldb, ldc, width;
  const float *a, *b;
  float *c;
} sgemm_cols;

static int64_t sgemm_k_block(const sgemm_cols *s, int64_t left) {
  return s->serial ? ct__blas_k_block_serial(left, s->q, s->unroll_m) : ct__blas_k_block(left, s->q);
}

static int64_t sgemm_last_k_block(const sgemm_cols *s) {
  int64_t kb = s->k;
  for (int64_t ls = 0; ls < s->k; ls += kb) kb = sgemm_k_block(s, s->k - ls);
  return kb;
}

/* Columns [j, j + w) of the product. */
static void sgemm_cols_run(const sgemm_cols *s, int64_t j, int64_t w) {
  for (int64_t ls = 0, kb; ls < s->k; ls += kb) {
    kb = sgemm_k_block(s, s->k - ls);
    const float *a = s->a + (s->ta ? ls : ls * s->lda),
                *b = s->b + (s->tb ? j + ls * s->ldb : ls + j * s->ldb);
    float *c = s->c + j * s->ldc, beta = ls ? 1.0f : 0.0f, one = 1.0f;
    if (!ct__dnnl_sgemm_one_thread(s->ta, s->tb, s->m, w, kb, a, s->lda, b, s->ldb, beta, c, s->ldc))
      ct__blas_gemm_openblas(CT_FLOAT32, s->ta ? 't' : 'n', s->tb ? 't' : 'n', s->m, w, kb, &one, a, s->lda,
                             b, s->ldb, &beta, c,
                             s->ldc); /* oneDNN refused: OpenBLAS's call, the same bits */
  }
}

static void sgemm_cols_block(void *ctx, int64_t i, int tid) {
  (void)tid;
  const sgemm_cols *s = ctx;
  int64_t j = i * s->width;
  sgemm_cols_run(s, j, s->n - j < s->width ? s->n - j : s->width);
}

static sgemm_cols sgemm_cols_of(bool serial, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                const void *a, int64_t lda, const void *b, int64_t ldb, void *c,
                                int64_t ldc) {
  sgemm_cols s = {.ta = (transa | 0x20) != 'n', .tb = (transb | 0x20) != 'n', .serial = serial};
  s.q = B.pool[0].q, s.unroll_m = B.pool[0].unroll_m;
  s.m = m, s.n = n, s.k = k, s.lda = lda, s.ldb = ldb, s.ldc = ldc, s.width = n;
  s.a = a, s.b = b, s.c = c;
  return s;
}

bool ct__blas_sgemm_dnnl_serial_route(int64_t m, int64_t n, int64_t k) {
  if (B.pool[0].q <= 0) return false;
  sgemm_cols s = sgemm_cols_of(true, 'n', 'n', m, n, k, NULL, 0, NULL, 0, NULL, 0);
  return ct__blas_sgemm_dnnl_route(m, n, sgemm_last_k_block(&s));
}

/* At one thread (OpenBLAS's serial driver): the whole product. */
static bool sgemm_dnnl(char transa, char transb, int64_t m, int64_t n, int64_t k, const float *alpha,
                       const void *a, int64_t lda, const void *b, int64_t ldb, const float *beta, void *c,
                       int64_t ldc) {
  if (*alpha != 1.0f || *beta != 0.0f || ct__omp_get_max_threads() != 1 ||
      !ct__blas_sgemm_dnnl_serial_route(m, n, k))
    return false;
  sgemm_cols s = sgemm_cols_of(true, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
  sgemm_cols_run(&s, 0, n);
  return true;
}

bool ct__blas_sgemm_dnnl_pooled(char transa, char transb, int64_t m, int64_t n, int64_t k, const float *alpha,
                                const void *a, int64_t lda, const void *b, int64_t ldb, const float *beta,
                                void *c, int64_t ldc) {
  int nt = ct__num_threads();
  if (B.pool[0].q <= 0 || *alpha != 1.0f || *beta != 0.0f ||
      !ct__blas_threaded_driver(CT_FLOAT32, m, n, k, nt))
    return false;
  sgemm_cols s = sgemm_cols_of(false, transa, transb, m, n, k, a, lda, b, ldb, c, ldc);
  int64_t shallowest = sgemm_last_k_block(&s);
  /* the narrowest block the route takes: 32 columns, and more than 10^6 multiply-adds in each K block */
  double least = floor(1e6 / ((double)m * (double)shallowest)) + 1;
  int64_t blocks = least > (double)n ? 1 : n / (int64_t)(least < 32 ? 32 : least);
  if (blocks > nt) blocks = nt;
  if (ct__parallel_quiet()) blocks = 1; /* the calling thread runs them alone: one block, as at one thread */
  for (; blocks >= 1; blocks--) {
    s.width = ct__div_up(n, blocks);
    int64_t last = n - (ct__div_up(n, s.width) - 1) * s.width;
    if (ct__blas_sgemm_dnnl_route(m, s.width, shallowest) && ct__blas_sgemm_dnnl_route(m, last, shallowest))
      break;
  }
  if (blocks < 1) return false;
  ct__blas_serial_calls_on_pool(ct__div_up(n, s.width), nt, sgemm_cols_block, &s);
  return true;
}

void ct__blas_gemm_nosync(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                          const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                          const void *beta, void *c, int64_t ldc) {
  if (dt == CT_FLOAT32 && sgemm_dnnl(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) return;
  ct__blas_gemm_openblas(dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void ct__blas_gemm_openblas(ct_dtype dt, char transa, char transb, int64_t m, int64_t n, int64_t k,
                            const void *alpha, const void *a, int64_t lda, const void *b, int64_t ldb,
                            const void *beta, void *c, int64_t ldc) {
  int ta = cblas_trans(transa), tb = cblas_trans(transb);
  int M = (int)m, N = (int)n, K = (int)k, LA = (int)lda, LB = (int)ldb, LC = (int)ldc;
  switch (dt) {
    case CT_FLOAT32:
      B.sgemm(COL_MAJOR, ta, tb, M, N, K, *(const float *)alpha, a, LA, b, LB, *(const float *)beta, c, LC);
      break;
    case CT_FLOAT64:
      B.dgemm(COL_MAJOR, ta, tb, M, N, K, *(const double *)alpha, a, LA, b, LB, *(const double *)beta, c, LC);
      break;
    case CT_COMPLEX64: B.cgemm(COL_MAJOR, ta, tb, M, N, K, alpha, a, LA, b, LB, beta, c, LC); break;
    default: B.zgemm(COL_MAJOR, ta, tb, M, N, K, alpha, a, LA, b, LB, beta, c, LC); break;
  }
}

void ct__blas_gemv(ct_dtype dt, char trans, int64_t m, int64_t n, const void *alpha, const void *a,
                   int64_t lda, const void *x, int64_t incx, const void *beta, void *y, int64_t incy) {
  if (ct__blas_gemv_pooled(B.info.config, dt, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)) return;
  ct__blas_sync_threads();
  ct__blas_gemv_nosync(dt, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void ct__blas_gemv_nosync(ct_dtype dt, char trans, int64_t m, int64_t n, const void *alpha, const void *a,
                          int64_t lda, const void *x, int64_t incx, const void *beta, void *y, int64_t incy) {
  int t = cblas_trans(trans), M = (int)m, N = (int)n, LA = (int)lda, IX = (int)incx, IY = (int)incy;
  switch (dt) {
    case CT_FLOAT32:
      B.sgemv(COL_MAJOR, t, M, N, *(const float *)alpha, a, LA, x, IX, *(const float *)beta, y, IY);
      break;
    case CT_FLOAT64:
      B.dgemv(COL_MAJOR, t, M, N, *(const double *)alpha, a, LA, x, IX, *(const double *)beta, y, IY);
      break;
    case CT_COMPLEX64: B.cgemv(COL_MAJOR, t, M, N, alpha, a, LA, x, IX, beta, y, IY); break;
    default: B.zgemv(COL_MAJOR, t, M, N, alpha, a, LA, x, IX, beta, y, IY); break;
  }
}

void ct__blas_dot(ct_dtype dt, bool conj_x, int64_t n, const void *x, int64_t incx, const void *y,
                  int64_t incy, void *result) {
  if (ct__blas_dot_pooled(B.info.config, B.info.corename, dt, conj_x, n, x, incx, y, incy, result)) return;
  ct__blas_sync_threads();
  ct__blas_dot_nosync(dt, conj_x, n, x, incx, y, incy, result);
}

void ct__blas_dot_nosync(ct_dtype dt, bool conj_x, int64_t n, const void *x, int64_t incx, const void *y,
                         int64_t incy, void *result) {
  int N = (int)n, IX = (int)incx, IY = (int)incy;
  switch (dt) {
    case CT_FLOAT32: *(float *)result = B.sdot(N, x, IX, y, IY); break;
    case CT_FLOAT64: *(double *)result = B.ddot(N, x, IX, y, IY); break;
    case CT_COMPLEX64: (conj_x ? B.cdotc : B.cdotu)(N, x, IX, y, IY, result); break;
    default: (conj_x ? B.zdotc : B.zdotu)(N, x, IX, y, IY, result); break;
  }
}

void ct__blas_ger(ct_dtype dt, bool conj_y, int64_t m, int64_t n, const void *alpha, const void *x,
                  int64_t incx, const void *y, int64_t incy, void *a, int64_t lda) {
  ct__blas_sync_threads();
  int M = (int)m, N = (int)n, IX = (int)incx, IY = (int)incy, LA = (int)lda;
  switch (dt) {
    case CT_FLOAT32: B.sger(COL_MAJOR, M, N, *(const float *)alpha, x, IX, y, IY, a, LA); break;
    case CT_FLOAT64: B.dger(COL_MAJOR, M, N, *(const double *)alpha, x, IX, y, IY, a, LA); break;
    case CT_COMPLEX64: (conj_y ? B.cgerc : B.cgeru)(COL_MAJOR, M, N, alpha, x, IX, y, IY, a, LA); break;
    default: (conj_y ? B.zgerc : B.zgeru)(COL_MAJOR, M, N, alpha, x, IX, y, IY, a, LA); break;
  }
}
