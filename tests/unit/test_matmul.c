/* The products (include/ctorch/matmul.h) in C, and the BLAS module's load-time decision
   (src/kernels/cpu/blas.h) fed made-up CPUs. Expected values from torch 1.13 (/usr/bin/python3), cited at
   each check; tests/diff/ops_matmul.py compares the ops with torch in depth. */
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/internal.h"
#include "core/omp_runtime.h"
#include "kernels/cpu/blas.h"

static void values(const ct_tensor *t, const double *want, int64_t n) {
  double got[32];
  CHECK(t && ct_numel(t) == n && n <= 32);
  if (!t || n > 32) return;
  CHECK(ct_copy_to_buffer(t, got, CT_FLOAT64, sizeof got) == CT_OK);
  for (int64_t i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

/* ---- the OPENBLAS_CORETYPE decision ---- */
static void coretype_decision(void) {
  /* this machine's kind: AMD Zen 3, AVX2 + FMA, no AVX-512: OpenBLAS's own detection ("Zen") stands;
     SkylakeX there would die with SIGILL */
  ct_blas_cpu zen3 = {.x86 = true, .os_avx512 = false, .avx2 = true, .fma = true, .family = 25, .model = 1};
  CHECK(ct__blas_coretype_choice(&zen3, NULL) == NULL);
  /* the Xeon (Sapphire Rapids: AVX-512 F/BW/VL/DQ, AVX512_BF16, AMX; family 6 model 143), unknown to
     OpenBLAS 0.3.21: its best kernels, with bf16 */
  ct_blas_cpu spr = {.x86 = true,
                     .os_avx512 = true,
                     .avx2 = true,
                     .fma = true,
                     .avx512f = true,
                     .avx512bw = true,
                     .avx512vl = true,
                     .avx512dq = true,
                     .avx512bf16 = true,
                     .family = 6,
                     .model = 143};
  CHECK_STR(ct__blas_coretype_choice(&spr, NULL), "Cooperlake");
  /* Skylake-SP / Ice Lake: AVX-512 without bf16 */
  ct_blas_cpu skx = spr;
  skx.avx512bf16 = false, skx.model = 85;
  CHECK_STR(ct__blas_coretype_choice(&skx, NULL), "SkylakeX");
  /* the user's setting always stands, even empty */
  CHECK(ct__blas_coretype_choice(&spr, "Haswell") == NULL);
  CHECK(ct__blas_coretype_choice(&spr, "") == NULL);
  /* an OS that does not save the zmm state: no AVX-512 kernels */
  ct_blas_cpu no_os = spr;
  no_os.os_avx512 = false;
  CHECK(ct__blas_coretype_choice(&no_os, NULL) == NULL);
  /* Knights Landing: AVX-512 F without BW/VL/DQ, which SkylakeX's kernels use */
  ct_blas_cpu knl = spr;
  knl.avx512bw = knl.avx512vl = knl.avx512dq = knl.avx512bf16 = false;
  CHECK(ct__blas_coretype_choice(&knl, NULL) == NULL);
  /* not x86 */
  ct_blas_cpu other = {0};
  CHECK(ct__blas_coretype_choice(&other, NULL) == NULL);
  /* the running CPU: the decision is the library's, and the library loaded (any CPU) */
  ct_blas_cpu here = ct__blas_cpu_read();
  CHECK(ct__blas_ready());
  ct_blas_info info = ct__blas_info();
  CHECK(info.corename != NULL && info.config != NULL);
  const char *want = ct__blas_coretype_choice(&here, getenv("OPENBLAS_CORETYPE"));
  CHECK((want == NULL) == (info.coretype_set == NULL));
  if (!here.avx512f) CHECK(info.coretype_set == NULL);
}

/* Which products run on the pool with OpenBLAS's threaded driver replayed (src/kernels/cpu/blas_pool.c):
   only for 0.3.21's DYNAMIC_ARCH OpenMP build, GEMM_P/Q/R and the unrolls read from the core's table at
   0.3.21's offsets (values as Cooperlake's table holds them: sgemm p 640 q 320 r 104192 unroll 16 x 4,
   dgemm 192 384 43472 16 x 2, cgemm 384 192 86976 8 x 2, zgemm 256 128 65264 4 x 2), the routines found by
   name and the kernel held by the table. A fake library: routines are addresses of `fake_routines`. */
static char fake_routines[64];
static const char *fake_names[] = {
    "sgemm_kernel_COOPERLAKE", "sgemm_beta_COOPERLAKE",   "sgemm_itcopy_COOPERLAKE",
    "sgemm_incopy_COOPERLAKE", "sgemm_oncopy_COOPERLAKE", "sgemm_otcopy_COOPERLAKE",
    "zgemm_kernel_n_SKYLAKEX", "zgemm_kernel_l_SKYLAKEX", "zgemm_kernel_r_SKYLAKEX",
    "zgemm_kernel_b_SKYLAKEX", "zgemm_beta_SKYLAKEX",     "zgemm_itcopy_SKYLAKEX",
    "zgemm_incopy_SKYLAKEX",   "zgemm_oncopy_SKYLAKEX",   "zgemm_otcopy_SKYLAKEX",
    "dgemm_kernel_ZEN",        "dgemm_beta_ZEN",          "dgemm_itcopy_ZEN",
    "dgemm_incopy_ZEN",        "dgemm_oncopy_ZEN",        "dgemm_otcopy_ZEN"};
static ct_blas_fn fake_lookup(void *ctx, const char *name) {
  (void)ctx;
  for (size_t i = 0; i < sizeof fake_names / sizeof *fake_names; i++)
    if (strcmp(name, fake_names[i]) == 0) {
      void *p = &fake_routines[i];
      ct_blas_fn f;
      memcpy(&f, &p, sizeof p);
      return f;
    }
  return NULL;
}
static void pool_params_decision(void) {
  static union {
    int i[4096];
    void *p[2048];
  } table;
  const int at[4][6] = {{4, 640, 320, 104192, 16, 4},
                        {182, 192, 384, 43472, 16, 2},
                        {356, 384, 192, 86976, 8, 2},
                        {708, 256, 128, 65264, 4, 2}};
  for (int i = 0; i < 4; i++)
    for (int f = 0; f < 5; f++) table.i[at[i][0] + f] = at[i][1 + f];
  /* the kernels the table holds, where 0.3.21's Cooperlake table holds them: bytes 240 (sgemm), 936 (dgemm),
     3120 (zgemm) */
  table.p[30] = &fake_routines[0], table.p[390] = &fake_routines[6], table.p[117] = &fake_routines[15];
  const char *cfg = "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY USE_OPENMP Prescott MAX_THREADS=64";
  ct_blas_gemm_params p = ct__blas_pool_params(CT_FLOAT32, cfg, "Cooperlake", &table, fake_lookup, NULL);
  CHECK(p.p == 640 && p.q == 320 && p.r == 104192 && p.unroll_m == 16 && p.unroll_n == 4 && p.k_blocks_only);
  CHECK(p.own_chunk == 12); /* the driver's 3 * GEMM_UNROLL_N: only float64 on the AVX-512 cores is wider */
  void *k0 = &fake_routines[0], *ot = &fake_routines[5];
  CHECK(memcmp(&p.kernel[0], &k0, sizeof k0) == 0 && memcmp(&p.otcopy, &ot, sizeof ot) == 0);
  p = ct__blas_pool_params(CT_COMPLEX128, cfg, "SkylakeX", &table, fake_lookup, NULL);
  CHECK(p.q == 128 && p.r == 65264 && p.unroll_m == 4 && !p.k_blocks_only && p.own_chunk == 6);
  void *kb = &fake_routines[9];
  CHECK(memcmp(&p.kernel[3], &kb, sizeof kb) == 0);
  p = ct__blas_pool_params(CT_FLOAT64, cfg, "Zen", &table, fake_lookup, NULL);
  CHECK(p.q == 384 && p.unroll_n == 2 && !p.k_blocks_only && p.own_chunk == 6);
  /* a routine missing (no complex64 routines, no double ones for this core) */
  CHECK(ct__blas_pool_params(CT_COMPLEX64, cfg, "Cooperlake", &table, fake_lookup, NULL).q == 0);
  CHECK(ct__blas_pool_params(CT_FLOAT64, cfg, "Cooperlake", &table, fake_lookup, NULL).q == 0);
  CHECK(ct__blas_pool_params(CT_BFLOAT16, cfg, "Cooperlake", &table, fake_lookup, NULL).q == 0);
  /* another version, the pthreads build, no table, no lookup: off */
  CHECK(ct__blas_pool_params(CT_FLOAT32, "OpenBLAS 0.3.26 DYNAMIC_ARCH USE_OPENMP Haswell", "Cooperlake",
                             &table, fake_lookup, NULL)
            .q == 0);
  CHECK(ct__blas_pool_params(CT_FLOAT32, "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott",
                             "Cooperlake", &table, fake_lookup, NULL)
            .q == 0);
  CHECK(ct__blas_pool_params(CT_FLOAT32, cfg, "Cooperlake", NULL, fake_lookup, NULL).q == 0);
  CHECK(ct__blas_pool_params(CT_FLOAT32, cfg, "Cooperlake", &table, NULL, NULL).q == 0);
  /* a table that does not hold the kernel found by name (another core's table) */
  table.p[30] = NULL;
  CHECK(ct__blas_pool_params(CT_FLOAT32, cfg, "Cooperlake", &table, fake_lookup, NULL).q == 0);
  table.p[30] = &fake_routines[0];
  /* a table that is not laid out as expected */
  table.i[5] = 0;
  CHECK(ct__blas_pool_params(CT_FLOAT32, cfg, "Cooperlake", &table, fake_lookup, NULL).q == 0);
}

/* The replayed driver against OpenBLAS's own threaded call at 2 and 3 threads, bit for bit, on the loaded
   core (make check also runs tests/diff/threads_diff.py under other core types): random shapes around the
   blocking edges, every transpose (conjugates for complex), beta 0 / 1 / other, alpha 0 / other. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}
/* n values of part bytes each (4: float, 8: double), small multiples of 1 / div */
static void fill(char *p, size_t n, size_t part, double div) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)((int64_t)(rnd() % 2001) - 1000) / div;
    if (part == 4) ((float *)(void *)p)[i] = (float)v;
    else ((double *)(void *)p)[i] = v;
  }
}

static void pooled_equals_openblas(void) {
  static const ct_dtype types[4] = {CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};
  static const char trans[3] = {'n', 't', 'c'};
  int taken = 0, cases = 0, differ = 0, serial_cases = 0;
  for (int t = 0; t < 160; t++) {
    ct_dtype dt = types[t % 4];
    bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
    int threads = t % 8 < 6 ? 2 : 3;
    int64_t m = 1 + (int64_t)(rnd() % (t % 5 == 0 ? 1200 : 420)), n = 1 + (int64_t)(rnd() % 420),
            k = 1 + (int64_t)(rnd() % (t % 3 == 0 ? 1100 : 300));
    if (t % 16 == 1) m = 3, k = 700; /* too few rows to split M */
    char ta = trans[rnd() % (cplx ? 3 : 2)], tb = trans[rnd() % (cplx ? 3 : 2)];
    int64_t lda = (ta == 'n' ? m : k) + (int64_t)(rnd() % 3),
            ldb = (tb == 'n' ? k : n) + (int64_t)(rnd() % 3), ldc = m + (int64_t)(rnd() % 3);
    size_t es = ct__itemsize(dt), part = cplx ? es / 2 : es;
    size_t na = (size_t)(lda * (ta == 'n' ? k : m)), nb = (size_t)(ldb * (tb == 'n' ? n : k)),
           nc = (size_t)(ldc * n);
    char *a = malloc(na * es), *b = malloc(nb * es), *c1 = malloc(nc * es), *c2 = malloc(nc * es);
    fill(a, na * es / part, part, 977.0);
    fill(b, nb * es / part, part, 613.0);
    fill(c1, nc * es / part, part, 331.0);
    /* NaN in C (beta 0 must not read it) and an infinity in A, now and then */
    for (size_t i = (size_t)t % 97; t % 3 != 2 && i < nc * es / part; i += 97) {
      if (part == 4) ((float *)(void *)c1)[i] = NAN;
      else ((double *)(void *)c1)[i] = NAN;
    }
    if (t % 5 == 2) {
      if (part == 4) ((float *)(void *)a)[na * es / part / 2] = INFINITY;
      else ((double *)(void *)a)[na * es / part / 2] = INFINITY;
    }
    memcpy(c2, c1, nc * es);
    /* the serial calls per threaded K block with which bmm runs one matrix per pool thread where the kernel
       depends on the K blocks alone (ct__blas_gemm_on_this_thread): OpenBLAS's threaded bits too */
    bool serial = ct__blas_batchable(dt);
    char *c3 = malloc(nc * es);
    memcpy(c3, c1, nc * es);
    double al[2] = {t % 11 == 3 ? 0.0 : 1.0 + (double)(t % 3) * 0.25, cplx ? -0.5 : 0.0};
    double be[2] = {t % 3 == 0 ? 0.0 : t % 3 == 1 ? 1.0 : -0.75, cplx && t % 3 == 2 ? 0.25 : 0.0};
    float alf[2] = {(float)al[0], (float)al[1]}, bef[2] = {(float)be[0], (float)be[1]};
    const void *alpha = part == 4 ? (const void *)alf : (const void *)al;
    const void *beta = part == 4 ? (const void *)bef : (const void *)be;
    ct_set_num_threads(threads);
    CHECK(ct__blas_ready());
    ct__blas_sync_threads();
    ct__blas_gemm_nosync(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c1, ldc);
    bool pooled = ct__blas_gemm_pooled_here(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc);
    if (!pooled) ct__blas_gemm_nosync(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c2, ldc);
    taken += pooled;
    cases++;
    if (memcmp(c1, c2, nc * es) != 0) {
      differ++;
      fprintf(stderr, "pooled gemm differs: dt %d %c%c m %lld n %lld k %lld threads %d\n", (int)dt, ta, tb,
              (long long)m, (long long)n, (long long)k, threads);
    }
    if (serial) {
      ct__blas_gemm_on_this_thread(dt, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c3, ldc);
      serial_cases++;
      if (memcmp(c1, c3, nc * es) != 0) {
        differ++;
        fprintf(stderr, "serial K-block calls differ: dt %d %c%c m %lld n %lld k %lld threads %d\n", (int)dt,
                ta, tb, (long long)m, (long long)n, (long long)k, threads);
      }
    }
    free(a), free(b), free(c1), free(c2), free(c3);
  }
  ct_set_num_threads(0);
  if (getenv("CT_TEST_VERBOSE"))
    fprintf(stderr, "pooled %d of %d, serial K blocks %d, %d differ\n", taken, cases, serial_cases, differ);
  CHECK(differ == 0);
  if (ct__blas_batchable(CT_FLOAT32)) CHECK(serial_cases >= 20);
  /* the route is on for every type where this OpenBLAS is the one it knows */
  ct_blas_info info = ct__blas_info();
  if (info.config && strncmp(info.config, "OpenBLAS 0.3.21 ", 16) == 0 && strstr(info.config, "DYNAMIC_ARCH"))
    CHECK(taken > cases / 2);
}

/* float32 blocks through oneDNN against OpenBLAS's own serial call, bit for bit (blas.c: both sum in one FMA
   chain where the route goes): shapes in the route and around its edges (m or n under 32, k past GEMM_Q,
   m * n * k at 100^3), every transpose, padded leading dimensions, NaN in C (beta 0 must not read it),
   infinities and zeros in A. */
static bool dlopen_ok(const char *name) {
  void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (h) dlclose(h);
  return h != NULL;
}

/* A float32 product's operands: random transposes and padded leading dimensions, values from fill, C all
   NaN (c2 a copy of c1), and now and then an infinity or every third element -0 in A. */
typedef struct sgemm_case {
  char ta, tb;
  int64_t lda, ldb, ldc;
  size_t nc;
  float *a, *b, *c1, *c2;
} sgemm_case;

static sgemm_case sgemm_case_make(int t, int64_t m, int64_t n, int64_t k) {
  sgemm_case g = {.ta = rnd() % 2 ? 't' : 'n', .tb = rnd() % 2 ? 't' : 'n'};
  g.lda = (g.ta == 'n' ? m : k) + (int64_t)(rnd() % 3);
  g.ldb = (g.tb == 'n' ? k : n) + (int64_t)(rnd() % 3);
  g.ldc = m + (int64_t)(rnd() % 3);
  size_t na = (size_t)(g.lda * (g.ta == 'n' ? k : m)), nb = (size_t)(g.ldb * (g.tb == 'n' ? n : k));
  g.nc = (size_t)(g.ldc * n);
  g.a = malloc(na * 4), g.b = malloc(nb * 4), g.c1 = malloc(g.nc * 4), g.c2 = malloc(g.nc * 4);
  fill((char *)g.a, na, 4, 977.0);
  fill((char *)g.b, nb, 4, 613.0);
  for (size_t i = 0; i < g.nc; i++) g.c1[i] = NAN;
  if (t % 5 == 2) g.a[na / 2] = INFINITY;
  if (t % 5 == 3)
    for (size_t i = 0; i < na; i += 3) g.a[i] = -0.0f;
  memcpy(g.c2, g.c1, g.nc * 4);
  return g;
}

static void sgemm_case_free(sgemm_case *g) { free(g->a), free(g->b), free(g->c1), free(g->c2); }

/* Float32 products at one thread through oneDNN (ct__blas_gemm_nosync: one call per K block of OpenBLAS's
   serial driver) against OpenBLAS's own call, bit for bit: one K block and several (k up to 1500). */
static void sgemm_dnnl_equals_openblas(void) {
  int routed = 0, differ = 0;
  ct_set_num_threads(1);
  CHECK(ct__blas_ready());
  ct__blas_sync_threads();
  for (int t = 0; t < 120; t++) {
    int64_t m = t % 4 == 0 ? 20 + (int64_t)(rnd() % 24) : 1 + (int64_t)(rnd() % 400);
    int64_t n = t % 4 == 1 ? 1 + (int64_t)(rnd() % 40) : 16 + (int64_t)(rnd() % 400);
    int64_t k = 1 + (int64_t)(rnd() % (t % 3 == 0 ? 1500 : 360));  /* K blocks of 320, halves rounded to 16 */
    if (t % 10 == 7) m = 100, n = 100, k = 100 + (int64_t)(t % 3); /* the small-matrix bound */
    sgemm_case g = sgemm_case_make(t, m, n, k);
    char ta = g.ta, tb = g.tb;
    int64_t lda = g.lda, ldb = g.ldb, ldc = g.ldc;
    float *a = g.a, *b = g.b, *c1 = g.c1, *c2 = g.c2, one = 1.0f, zero = 0.0f;
    ct__blas_gemm_openblas(CT_FLOAT32, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c1, ldc);
    ct__blas_gemm_nosync(CT_FLOAT32, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c2, ldc);
    routed += ct__blas_sgemm_dnnl_serial_route(m, n, k);
    if (memcmp(c1, c2, g.nc * 4) != 0) {
      differ++;
      fprintf(stderr, "sgemm through oneDNN differs: %c%c m %lld n %lld k %lld\n", ta, tb, (long long)m,
              (long long)n, (long long)k);
    }
    sgemm_case_free(&g);
  }
  ct_set_num_threads(0);
  if (getenv("CT_TEST_VERBOSE"))
    fprintf(stderr, "sgemm through oneDNN: %d of 120, %d differ\n", routed, differ);
  CHECK(differ == 0);
  /* on an AVX-512 core with oneDNN present the route is taken */
  if (ct__blas_batchable(CT_FLOAT32) && dlopen_ok("libdnnl.so.2")) CHECK(routed > 20);
}

/* Float32 products at 2 and 3 threads as column blocks of one-thread oneDNN calls per threaded K block on the
   pool (ct__blas_sgemm_dnnl_pooled, which ct__blas_gemm takes first) against OpenBLAS's own threaded call,
   bit for bit: one K block and several (k up to 1500), shapes around the route's least block (32 columns,
   10^6 multiply-adds), every transpose, NaN in C (beta 0 must not read it), infinities and -0 in A. */
static void sgemm_dnnl_pooled_equals_openblas(void) {
  int taken = 0, differ = 0;
  CHECK(ct__blas_ready());
  for (int t = 0; t < 90; t++) {
    int threads = 2 + t % 2;
    int64_t m = 1 + (int64_t)(rnd() % 600), n = 1 + (int64_t)(rnd() % 600),
            k = 1 +
                (int64_t)(rnd() % (t % 3 == 0 ? 1500 : 400)); /* K blocks of 320, and halves of the rest */
    if (t % 9 == 4) m = 50, n = 70, k = 320; /* two blocks of 35 columns would be too small: one block */
    if (t % 9 == 5) m = 33, n = 64, k = 300; /* 633600 multiply-adds: too few for the route */
    sgemm_case g = sgemm_case_make(t, m, n, k);
    char ta = g.ta, tb = g.tb;
    int64_t lda = g.lda, ldb = g.ldb, ldc = g.ldc;
    float *a = g.a, *b = g.b, *c1 = g.c1, *c2 = g.c2, one = 1.0f, zero = 0.0f;
    ct_set_num_threads(threads);
    ct__blas_sync_threads();
    ct__blas_gemm_openblas(CT_FLOAT32, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c1, ldc);
    bool here = ct__blas_sgemm_dnnl_pooled(ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c2, ldc);
    if (t % 9 == 5) CHECK(!here && isnan(c2[0])); /* not taken: C untouched */
    if (here) {
      taken++;
      if (memcmp(c1, c2, g.nc * 4) != 0) {
        differ++;
        fprintf(stderr, "sgemm as oneDNN blocks on the pool differs: %c%c m %lld n %lld k %lld threads %d\n",
                ta, tb, (long long)m, (long long)n, (long long)k, threads);
      }
    }
    sgemm_case_free(&g);
  }
  /* beta 1 or alpha 2 (oneDNN scales in its own way), or one thread: never this route */
  float *x = malloc(256 * 256 * 4), *y = malloc(256 * 256 * 4), one = 1.0f, two = 2.0f, zero = 0.0f;
  fill((char *)x, 256 * 256, 4, 977.0);
  for (int i = 0; i < 256 * 256; i++) y[i] = NAN;
  ct_set_num_threads(2);
  if (ct__blas_sgemm_dnnl_pooled('n', 'n', 256, 256, 256, &one, x, 256, x, 256, &zero, y, 256)) taken++;
  CHECK(!isnan(y[0]) || !taken);
  CHECK(!ct__blas_sgemm_dnnl_pooled('n', 'n', 256, 256, 256, &one, x, 256, x, 256, &one, y, 256));
  CHECK(!ct__blas_sgemm_dnnl_pooled('n', 'n', 256, 256, 256, &two, x, 256, x, 256, &zero, y, 256));
  ct_set_num_threads(1);
  CHECK(!ct__blas_sgemm_dnnl_pooled('n', 'n', 256, 256, 256, &one, x, 256, x, 256, &zero, y, 256));
  free(x), free(y);
  ct_set_num_threads(0);
  if (getenv("CT_TEST_VERBOSE"))
    fprintf(stderr, "sgemm as oneDNN blocks on the pool: %d of 90, %d differ\n", taken, differ);
  CHECK(differ == 0);
  if (ct__blas_batchable(CT_FLOAT32) && dlopen_ok("libdnnl.so.2")) CHECK(taken > 20);
}

/* The pooled dot against OpenBLAS's own threaded call (ddot / zdotu / zdotc at 2 and 3 threads, bit for
   bit): lengths around the 10000 threshold and the range edges, strided operands. */
static void pooled_dot_equals_openblas(void) {
  static const int64_t lens[] = {10000, 10001, 10002, 10003, 77777, 300001};
  int taken = 0, differ = 0;
  for (int t = 0; t < 36; t++) {
    ct_dtype dt = t % 3 == 0 ? CT_FLOAT64 : CT_COMPLEX128;
    bool conj = t % 3 == 2;
    int64_t n = lens[t % 6], incx = 1 + t % 2, incy = 1 + (t / 2) % 2;
    size_t es = ct__itemsize(dt);
    char *x = malloc((size_t)(n * incx) * es), *y = malloc((size_t)(n * incy) * es);
    fill(x, (size_t)(n * incx) * es / 8, 8, 97.0);
    fill(y, (size_t)(n * incy) * es / 8, 8, 89.0);
    double want[2] = {0, 0}, got[2] = {0, 0};
    ct_set_num_threads(2 + t % 2);
    ct__blas_sync_threads();
    ct__blas_dot_nosync(dt, conj, n, x, incx, y, incy, want);
    ct_blas_info info = ct__blas_info();
    bool pooled = ct__blas_dot_pooled(info.config, info.corename, dt, conj, n, x, incx, y, incy, got);
    if (!pooled) ct__blas_dot_nosync(dt, conj, n, x, incx, y, incy, got);
    taken += pooled;
    if (memcmp(want, got, es) != 0) {
      differ++;
      fprintf(stderr, "pooled dot differs: dt %d conj %d n %lld\n", (int)dt, (int)conj, (long long)n);
    }
    free(x), free(y);
  }
  ct_set_num_threads(0);
  if (getenv("CT_TEST_VERBOSE")) fprintf(stderr, "pooled dot %d of 36, %d differ\n", taken, differ);
  CHECK(differ == 0);
}

/* ct_set_num_threads governs OpenBLAS's threads too */
static void blas_threads(void) {
  typedef int get_fn(void);
  get_fn *get = NULL;
  void *p = ct__blas_sym("openblas_get_num_threads");
  CHECK(p != NULL);
  memcpy(&get, &p, sizeof p);
  ct_tensor *a = ct_ones(CT_SHAPE(4, 4), NULL);
  ct_set_num_threads(1);
  ct_tensor *r = ct_mm(a, a);
  CHECK(r && get && get() == 1);
  ct_set_num_threads(2);
  ct_tensor *r2 = ct_mm(a, a);
  CHECK(r2 && get && get() == 2);
  ct_set_num_threads(0);
  CHECK(ct__blas_sym("no_such_routine_") == NULL);
  ct_clear_error();
  ct_release(a), ct_release(r), ct_release(r2);
}

/* Differences from torch 1.13 that fresh seeds of tests/diff/ops_matmul.py found (issue 17); each value from
   torch 1.13 (/usr/bin/python3), cited. Runs inside main's scope. */
static void torch_differences(void) {
  const double inf = 1.0 / 0.0;
  /* addmv out= with an empty matrix: mul_out(out, self, beta) resizes out to self's shape:
     o = zeros(26, dtype=int64); addmv(tensor([5]), zeros(26, 0, int64), zeros(0, int64), beta=-1, out=o)
     -> o is tensor([-5]) */
  ct_tensor *o = ct_zeros(CT_SHAPE(26), &(ct_tensor_opts){.dtype = CT_INT64});
  ct_tensor *five = ct_tensor_from_data((int64_t[]){5}, CT_INT64, CT_SHAPE(1), NULL);
  CHECK(ct_addmv_out(o, five, ct_zeros(CT_SHAPE(26, 0), &(ct_tensor_opts){.dtype = CT_INT64}),
                     ct_zeros(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT64}),
                     &(ct_addmm_opts){.beta = CT_INT(-1)}) == CT_OK);
  CHECK_SHAPE(o, 1);
  values(o, (double[]){-5}, 1);
  /* ... and mul's cast check: addmv(float64 self, empty bool mat and vec, out=bool) -> "result type Double
     can't be cast to the desired output type Bool" */
  ct_tensor *ob = ct_zeros(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK(ct_addmv_out(ob, ct_ones(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_FLOAT64}),
                     ct_zeros(CT_SHAPE(4, 0), &(ct_tensor_opts){.dtype = CT_BOOL}),
                     ct_zeros(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_BOOL}),
                     &(ct_addmm_opts){.beta = CT_DOUBLE(1.5)}) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Double can't be cast to the desired output type Bool");

  /* addmv's bfloat16 't' loop rounds beta * y and alpha * sum to bfloat16 before adding: addmv(tensor([101.],
     bf16).expand(3), tensor([[1.5, 1.5]], bf16).expand(3, 2), tensor([3.], bf16).expand(2), beta=3,
     alpha=1.5) -> [318., 318., 318.] */
  ct_tensor *ys = ct_expand(ct_to_dtype(ct_full(CT_SHAPE(1), 101.0, NULL), CT_BFLOAT16), CT_SHAPE(3));
  ct_tensor *ym = ct_expand(ct_to_dtype(ct_full(CT_SHAPE(1, 1), 1.5, NULL), CT_BFLOAT16), CT_SHAPE(3, 2));
  ct_tensor *yv = ct_expand(ct_to_dtype(ct_full(CT_SHAPE(1), 3.0, NULL), CT_BFLOAT16), CT_SHAPE(2));
  values(ct_addmv(ys, ym, yv, &(ct_addmm_opts){.beta = CT_INT(3), .alpha = CT_DOUBLE(1.5)}),
         (double[]){318, 318, 318}, 3);

  /* addr adds beta * self and the product as they are (no alpha * 1 on the sum): addr(zeros(1, 1, complex128),
     tensor([1+1j]), tensor([complex(inf, 1)])) -> [[inf+infj]] */
  ct_tensor *c1 = ct_tensor_from_data((double[]){1, 1}, CT_COMPLEX128, CT_SHAPE(1), NULL);
  ct_tensor *c2 = ct_tensor_from_data((double[]){inf, 1}, CT_COMPLEX128, CT_SHAPE(1), NULL);
  ct_tensor *ar = ct_addr(ct_zeros(CT_SHAPE(1, 1), &(ct_tensor_opts){.dtype = CT_COMPLEX128}), c1, c2, NULL);
  double arv[2] = {0, 0};
  CHECK(ar && ct_copy_to_buffer(ar, arv, CT_COMPLEX128, sizeof arv) == CT_OK);
  CHECK(arv[0] == inf && arv[1] == inf);
  /* addr's iterator over (self, vec1 column, vec2): addr(zeros(1, 2, uint8).t(), ones(2, uint8),
     ones(1, uint8), beta=-1, alpha=0).stride() == (1, 2) */
  ct_tensor *u8 = ct_addr(ct_t(ct_zeros(CT_SHAPE(1, 2), &(ct_tensor_opts){.dtype = CT_UINT8})),
                          ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_UINT8}),
                          ct_ones(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_UINT8}),
                          &(ct_addmm_opts){.beta = CT_INT(-1), .alpha = CT_INT(0)});
  CHECK(u8 && ct_stride(u8, 0) == 1 && ct_stride(u8, 1) == 2);

  /* einsum sums the contraction dims last, into a new tensor: einsum('ij,jk->ik', ones(1, 1), ones(1, 2))
     .stride() == (2, 1) */
  ct_tensor *es =
      ct_einsum("ij,jk->ik", CT_TENSORS(ct_ones(CT_SHAPE(1, 1), NULL), ct_ones(CT_SHAPE(1, 2), NULL)));
  CHECK(es && ct_stride(es, 0) == 2 && ct_stride(es, 1) == 1);

  /* baddbmm_ below 400 multiply-adds starts from self * beta even when beta is 0:
     s = tensor([[[nan, inf, 1.]]]); s.baddbmm_(ones(1, 1, 2), ones(1, 2, 3), beta=0) -> [[[nan, nan, 2.]]] */
  ct_tensor *s = ct_tensor_from_data((double[]){0.0 / 0.0, inf, 1}, CT_FLOAT64, CT_SHAPE(1, 1, 3), NULL);
  CHECK(ct_baddbmm_(s, ct_ones(CT_SHAPE(1, 1, 2), &(ct_tensor_opts){.dtype = CT_FLOAT64}),
                    ct_ones(CT_SHAPE(1, 2, 3), &(ct_tensor_opts){.dtype = CT_FLOAT64}),
                    &(ct_addmm_opts){.beta = CT_INT(0)}) == CT_OK);
  double sv[3] = {0, 0, 0};
  CHECK(ct_copy_to_buffer(s, sv, CT_FLOAT64, sizeof sv) == CT_OK);
  CHECK(sv[0] != sv[0] && sv[1] != sv[1] && sv[2] == 2);

  /* bfloat16 bmm whose transposed operand sends it to gemm_transa_, fused multiply-adds there:
     x = zeros(1, 7, 8, bf16); x[0, 0, :2] = [2, 2**63]; y = zeros(1, 9, 8, bf16); y[0, 0, :2] = [-inf, 1e30];
     bmm(x, y.transpose(1, 2))[0, 0, 0] -> -inf (a rounded product would make inf - inf = nan) */
  float xf[56] = {2, 9.223372036854775808e18f}, yf[72] = {-(float)inf, 1e30f};
  ct_tensor *bx = ct_to_dtype(ct_tensor_from_data(xf, CT_FLOAT32, CT_SHAPE(1, 7, 8), NULL), CT_BFLOAT16);
  ct_tensor *by = ct_to_dtype(ct_tensor_from_data(yf, CT_FLOAT32, CT_SHAPE(1, 9, 8), NULL), CT_BFLOAT16);
  ct_tensor *bxy = ct_bmm(bx, ct_transpose(by, 1, 2));
  double bv[63];
  CHECK(bxy && ct_copy_to_buffer(bxy, bv, CT_FLOAT64, sizeof bv) == CT_OK);
  CHECK(bv[0] == -inf);

  /* a small bfloat16 product runs oneDNN on the calling thread alone (kernels/cpu/dnnl.c), and leaves that
     thread's OpenMP count at ct_set_num_threads's: OpenBLAS's OpenMP build follows it (a count left at 1
     would run later LAPACK and gemm calls serially, with other bits than torch's at 2 threads) */
  ct_set_num_threads(2);
  ct_tensor *bs = ct_matmul(ct_to_dtype(ct_ones(CT_SHAPE(64, 8), NULL), CT_BFLOAT16),
                            ct_to_dtype(ct_ones(CT_SHAPE(8, 64), NULL), CT_BFLOAT16));
  double bsv[1];
  CHECK(bs && ct_copy_to_buffer(ct_select(ct_select(bs, 0, 0), 0, 0), bsv, CT_FLOAT64, sizeof bsv) == CT_OK);
  CHECK(bsv[0] == 8);
  CHECK(ct__omp_get_max_threads() == 2);
  ct_set_num_threads(0);
}

/* bmm at 2 threads gives each matrix the call torch makes (addmm per batch element, OpenBLAS on the library's
   threads) wherever OpenBLAS's threads can change the rounding: a 64 x 128^3 batch equals its matrices taken
   one by one through mm. (Splitting such a batch over the pool, OpenBLAS on one thread each, gave other bits
   than torch's at 2 threads: OpenBLAS threads a gemm above 64^3 multiply-adds and then rounds differently.) */
static void bmm_threads_bits(void) {
  ct_scope_begin();
  ct_manual_seed(3);
  ct_tensor *x = ct_randn(CT_SHAPE(8, 128, 128), NULL), *y = ct_randn(CT_SHAPE(8, 128, 128), NULL);
  ct_set_num_threads(2);
  ct_tensor *r = ct_bmm(x, y);
  bool same = r != NULL;
  for (int64_t b = 0; same && b < 8; b++) {
    ct_tensor *m = ct_mm(ct_select(x, 0, b), ct_select(y, 0, b));
    same = m && ct_equal(m, ct_select(r, 0, b), &same) == CT_OK && same;
  }
  CHECK(same);
  ct_set_num_threads(0);
  ct_scope_end();
}

int main(void) {
  bmm_threads_bits();
  coretype_decision();
  pool_params_decision();
  pooled_equals_openblas();
  pooled_dot_equals_openblas();
  sgemm_dnnl_equals_openblas();
  sgemm_dnnl_pooled_equals_openblas();
  blas_threads();
  CHECK(ct_scope_begin() == CT_OK);
  ct_tensor *a = ct_view(ct_arange_end(6.0, NULL), CT_SHAPE(2, 3));
  ct_tensor *b = ct_view(ct_arange_end(12.0, NULL), CT_SHAPE(3, 4));
  torch_differences();

  /* torch.mm(arange(6.).view(2, 3), arange(12.).view(3, 4)) */
  values(ct_mm(a, b), (double[]){20, 23, 26, 29, 56, 68, 80, 92}, 8);
  /* the same through a transposed view of b's transpose (BLAS's 't') */
  ct_tensor *bt = ct_contiguous(ct_t(b), CT_CONTIGUOUS_FORMAT);
  values(ct_mm(a, ct_t(bt)), (double[]){20, 23, 26, 29, 56, 68, 80, 92}, 8);

  /* errors, word for word */
  CHECK(ct_mm(a, a) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  CHECK(ct_mm(ct_flatten(a, 0, -1), b) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "self must be a matrix");
  CHECK(ct_mm(a, ct_to_dtype(b, CT_FLOAT64)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected scalar type Float but found Double");
  CHECK(ct_matmul(ct_scalar_tensor(1.0, NULL), a) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are 0D and 2D");

  /* integer products wrap as torch's: [[2**62, 3]] @ [[4], [5]] == [[15]] */
  ct_tensor *x = ct_tensor_from_data((int64_t[]){(int64_t)1 << 62, 3}, CT_INT64, CT_SHAPE(1, 2), NULL);
  ct_tensor *y = ct_tensor_from_data((int64_t[]){4, 5}, CT_INT64, CT_SHAPE(2, 1), NULL);
  ct_tensor *xy = ct_mm(x, y);
  CHECK(xy && ct_dtype_of(xy) == CT_INT64);
  values(xy, (double[]){15}, 1);

  /* a conjugate view is multiplied as its values: [[1+2j, 3-1j]] @ [[2+1j], [1-1j]].conj() == [[8+5j]] */
  ct_tensor *p = ct_tensor_from_data((double[]){1, 2, 3, -1}, CT_COMPLEX128, CT_SHAPE(1, 2), NULL);
  ct_tensor *q = ct_conj(ct_tensor_from_data((double[]){2, 1, 1, -1}, CT_COMPLEX128, CT_SHAPE(2, 1), NULL));
  ct_tensor *pq = ct_mm(p, q);
  double pqv[2] = {0, 0};
  CHECK(pq && ct_copy_to_buffer(pq, pqv, CT_COMPLEX128, sizeof pqv) == CT_OK);
  CHECK(pqv[0] == 8 && pqv[1] == 5);

  /* empty products: (2, 0) @ (0, 3) is zeros; a batch of 0 keeps its shape */
  ct_tensor *e = ct_mm(ct_zeros(CT_SHAPE(2, 0), NULL), ct_zeros(CT_SHAPE(0, 3), NULL));
  CHECK_SHAPE(e, 2, 3);
  values(e, (double[]){0, 0, 0, 0, 0, 0}, 6);
  CHECK_SHAPE(ct_bmm(ct_zeros(CT_SHAPE(0, 2, 3), NULL), ct_zeros(CT_SHAPE(0, 3, 2), NULL)), 0, 2, 2);

  /* beta = 0 ignores NaN in the input: addmm([[nan]], ones(1, 2), ones(2, 1), beta=0) == [[2.]] */
  ct_tensor *nan = ct_full(CT_SHAPE(1, 1), 0.0 / 0.0, NULL);
  values(ct_addmm(nan, ct_ones(CT_SHAPE(1, 2), NULL), ct_ones(CT_SHAPE(2, 1), NULL),
                  &(ct_addmm_opts){.beta = CT_INT(0)}),
         (double[]){2}, 1);

  /* 1-D promotions: matmul(ones(3), ones(3, 2)) == [3., 3.] */
  ct_tensor *v = ct_matmul(ct_ones(CT_SHAPE(3), NULL), ct_ones(CT_SHAPE(3, 2), NULL));
  CHECK_SHAPE(v, 2);
  values(v, (double[]){3, 3}, 2);

  /* trace of int8 sums in int64: trace([[100, 1], [2, 100]] int8) == 200, int64 */
  ct_tensor *t8 = ct_tensor_from_data((int8_t[]){100, 1, 2, 100}, CT_INT8, CT_SHAPE(2, 2), NULL);
  ct_tensor *tr = ct_trace(t8);
  CHECK(tr && ct_dtype_of(tr) == CT_INT64);
  values(tr, (double[]){200}, 1);

  /* einsum('ii->i', arange(9.).view(3, 3)) == [0, 4, 8]; tensordot(a, arange(6.).view(3, 2), 1) */
  values(ct_einsum("ii->i", CT_TENSORS(ct_view(ct_arange_end(9.0, NULL), CT_SHAPE(3, 3)))),
         (double[]){0, 4, 8}, 3);
  values(ct_tensordot(a, ct_view(ct_arange_end(6.0, NULL), CT_SHAPE(3, 2)), 1), (double[]){10, 13, 28, 40},
         4);
  CHECK(ct_einsum("ij,jk", CT_TENSORS(a)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the equation");

  /* cross([1, 0, 0], [0, 1, 0], dim=0) == [0, 0, 1]; multi_dot of (2,3), (3,4), (4,) ones == [12, 12] */
  values(ct_cross(CT_TENSOR(1.0, 0.0, 0.0), CT_TENSOR(0.0, 1.0, 0.0), &(ct_cross_opts){.dim = CT_DIMS(0)}),
         (double[]){0, 0, 1}, 3);
  values(ct_linalg_multi_dot(CT_TENSORS(ct_ones(CT_SHAPE(2, 3), NULL), ct_ones(CT_SHAPE(3, 4), NULL),
                                        ct_ones(CT_SHAPE(4), NULL))),
         (double[]){12, 12}, 2);

  /* out= with the wrong dtype changes nothing */
  ct_tensor *o = ct_zeros(CT_SHAPE(2, 4), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_mm_out(o, a, b) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype float, but got double instead");
  values(o, (double[]){0, 0, 0, 0, 0, 0, 0, 0}, 8);

  ct_scope_end();
  return TEST_SUMMARY();
}
