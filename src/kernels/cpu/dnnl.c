/* oneDNN's bfloat16 matmul, called as torch 1.13's ideep calls it (dnnl.h). */
#include "kernels/cpu/dnnl.h"

#include "core/cpu_isa.h"
#include "core/internal.h"
#include "core/omp_runtime.h"
#include "core/parallel.h"

#if defined(__has_include)
#if __has_include(<oneapi/dnnl/dnnl.h>)
#define CT_HAVE_DNNL_HEADER 1
#endif
#endif

#if CT_HAVE_DNNL_HEADER

#include <dlfcn.h>
#include <oneapi/dnnl/dnnl.h>
#include <pthread.h>
#include <string.h>

/* The entry points used, resolved by name from libdnnl.so.2. */
static struct {
  bool ok;
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  dnnl_status_t (*engine_create)(dnnl_engine_t *, dnnl_engine_kind_t, size_t);
  dnnl_status_t (*stream_create)(dnnl_stream_t *, dnnl_engine_t, unsigned);
  dnnl_status_t (*md_by_strides)(dnnl_memory_desc_t *, int, const dnnl_dims_t, dnnl_data_type_t,
                                 const dnnl_dims_t);
  dnnl_status_t (*md_by_tag)(dnnl_memory_desc_t *, int, const dnnl_dims_t, dnnl_data_type_t,
                             dnnl_format_tag_t);
  int (*md_equal)(const dnnl_memory_desc_t *, const dnnl_memory_desc_t *);
  size_t (*md_size)(const dnnl_memory_desc_t *);
  dnnl_status_t (*matmul_desc)(dnnl_matmul_desc_t *, const dnnl_memory_desc_t *, const dnnl_memory_desc_t *,
                               const dnnl_memory_desc_t *, const dnnl_memory_desc_t *);
  dnnl_status_t (*attr_create)(dnnl_primitive_attr_t *);
  dnnl_status_t (*attr_destroy)(dnnl_primitive_attr_t);
  dnnl_status_t (*attr_output_scales)(dnnl_primitive_attr_t, dnnl_dim_t, int, const float *);
  dnnl_status_t (*attr_post_ops)(dnnl_primitive_attr_t, const_dnnl_post_ops_t);
  dnnl_status_t (*attr_scratchpad)(dnnl_primitive_attr_t, dnnl_scratchpad_mode_t);
  dnnl_status_t (*post_ops_create)(dnnl_post_ops_t *);
  dnnl_status_t (*post_ops_destroy)(dnnl_post_ops_t);
  dnnl_status_t (*post_ops_sum)(dnnl_post_ops_t, float);
  dnnl_status_t (*pd_create)(dnnl_primitive_desc_t *, const_dnnl_op_desc_t, const_dnnl_primitive_attr_t,
                             dnnl_engine_t, const_dnnl_primitive_desc_t);
  dnnl_status_t (*pd_destroy)(dnnl_primitive_desc_t);
  const dnnl_memory_desc_t *(*pd_query_md)(const_dnnl_primitive_desc_t, dnnl_query_t, int);
  dnnl_status_t (*prim_create)(dnnl_primitive_t *, const_dnnl_primitive_desc_t);
  dnnl_status_t (*prim_destroy)(dnnl_primitive_t);
  dnnl_status_t (*prim_execute)(const_dnnl_primitive_t, dnnl_stream_t, int, const dnnl_exec_arg_t *);
  dnnl_status_t (*mem_create)(dnnl_memory_t *, const dnnl_memory_desc_t *, dnnl_engine_t, void *);
  dnnl_status_t (*mem_destroy)(dnnl_memory_t);
  dnnl_status_t (*stream_wait)(dnnl_stream_t);
} D;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void sym(void *h, void *slot, const char *name, bool *ok) {
  void *p = dlsym(h, name);
  memcpy(slot, &p, sizeof p); /* a data pointer into a function pointer: POSIX's dlsym contract */
  *ok = *ok && p != NULL;
}

static void load(void) {
  void *h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!h) return;
  bool ok = true;
  sym(h, &D.engine_create, "dnnl_engine_create", &ok);
  sym(h, &D.stream_create, "dnnl_stream_create", &ok);
  sym(h, &D.md_by_strides, "dnnl_memory_desc_init_by_strides", &ok);
  sym(h, &D.md_by_tag, "dnnl_memory_desc_init_by_tag", &ok);
  sym(h, &D.md_equal, "dnnl_memory_desc_equal", &ok);
  sym(h, &D.md_size, "dnnl_memory_desc_get_size", &ok);
  sym(h, &D.matmul_desc, "dnnl_matmul_desc_init", &ok);
  sym(h, &D.attr_create, "dnnl_primitive_attr_create", &ok);
  sym(h, &D.attr_destroy, "dnnl_primitive_attr_destroy", &ok);
  sym(h, &D.attr_output_scales, "dnnl_primitive_attr_set_output_scales", &ok);
  sym(h, &D.attr_post_ops, "dnnl_primitive_attr_set_post_ops", &ok);
  sym(h, &D.attr_scratchpad, "dnnl_primitive_attr_set_scratchpad_mode", &ok);
  sym(h, &D.post_ops_create, "dnnl_post_ops_create", &ok);
  sym(h, &D.post_ops_destroy, "dnnl_post_ops_destroy", &ok);
  sym(h, &D.post_ops_sum, "dnnl_post_ops_append_sum", &ok);
  sym(h, &D.pd_create, "dnnl_primitive_desc_create", &ok);
  sym(h, &D.pd_destroy, "dnnl_primitive_desc_destroy", &ok);
  sym(h, &D.pd_query_md, "dnnl_primitive_desc_query_md", &ok);
  sym(h, &D.prim_create, "dnnl_primitive_create", &ok);
  sym(h, &D.prim_destroy, "dnnl_primitive_destroy", &ok);
  sym(h, &D.prim_execute, "dnnl_primitive_execute", &ok);
  sym(h, &D.mem_create, "dnnl_memory_create", &ok);
  sym(h, &D.mem_destroy, "dnnl_memory_destroy", &ok);
  sym(h, &D.stream_wait, "dnnl_stream_wait", &ok);
  /* one engine and one stream for the process, as ideep's engine::cpu_engine() and default_stream() */
  ok = ok && D.engine_create(&D.engine, dnnl_cpu, 0) == dnnl_success &&
       D.stream_create(&D.stream, D.engine, dnnl_stream_default_flags) == dnnl_success;
  D.ok = ok; /* the library stays loaded for the process, as OpenBLAS does */
}

bool ct__dnnl_bf16_route(int64_t work) {
  if (work <= 16 * 16 * 16 || !ct__cpu_avx512_bw_vl_dq()) return false;
  pthread_once(&load_once, load);
  return D.ok;
}

/* The primitive ideep creates for (src, weights, dst) and its run; st accumulates the first failure. */
static dnnl_status_t run(const dnnl_memory_desc_t *smd, const void *src, const dnnl_memory_desc_t *wmd,
                         const void *w, const dnnl_memory_desc_t *dmd_any,
                         const dnnl_memory_desc_t *dmd_dense, void *dst, float alpha, float beta,
                         int threads) {
  dnnl_matmul_desc_t op;
  dnnl_primitive_attr_t attr = NULL;
  dnnl_post_ops_t po = NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_t prim = NULL;
  dnnl_memory_t ms = NULL, mw = NULL, md = NULL, mscr = NULL;
  void *scratch = NULL;
  dnnl_status_t st = D.matmul_desc(&op, smd, wmd, NULL, dmd_any);
  if (st == dnnl_success) st = D.attr_create(&attr);
  if (st == dnnl_success && beta != 0.0f) { /* ideep's attr_t::fuse_sum(sum_coeff) */
    st = D.post_ops_create(&po);
    if (st == dnnl_success) st = D.post_ops_sum(po, beta);
    if (st == dnnl_success) st = D.attr_post_ops(attr, po);
  }
  if (st == dnnl_success) st = D.attr_output_scales(attr, 1, 0, &alpha);
  if (st == dnnl_success) st = D.attr_scratchpad(attr, dnnl_scratchpad_mode_user);
  if (st == dnnl_success) st = D.pd_create(&pd, &op, attr, D.engine, NULL);
  const dnnl_memory_desc_t *dq = st == dnnl_success ? D.pd_query_md(pd, dnnl_query_dst_md, 0) : NULL;
  const dnnl_memory_desc_t *sq = dq ? D.pd_query_md(pd, dnnl_query_scratchpad_md, 0) : NULL;
  /* the plain layout every bfloat16 matmul chooses for an `any` dst; another would need ideep's reorders */
  if (st == dnnl_success && (!dq || !sq || !D.md_equal(dq, dmd_dense))) st = dnnl_unimplemented;
  size_t ssz = st == dnnl_success ? D.md_size(sq) : 0;
  if (ssz && !(scratch = ct__malloc(ssz))) st = dnnl_out_of_memory;
  if (st == dnnl_success) st = D.prim_create(&prim, pd);
  if (st == dnnl_success) st = D.mem_create(&ms, smd, D.engine, (void *)src);
  if (st == dnnl_success) st = D.mem_create(&mw, wmd, D.engine, (void *)w);
  if (st == dnnl_success) st = D.mem_create(&md, dmd_dense, D.engine, dst);
  if (st == dnnl_success) st = D.mem_create(&mscr, sq, D.engine, scratch);
  if (st == dnnl_success) {
    dnnl_exec_arg_t args[4] = {
        {DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, md}, {DNNL_ARG_SCRATCHPAD, mscr}};
    if (ct__omp_get_max_threads() != threads) ct__omp_set_num_threads(threads); /* oneDNN's OpenMP threads */
    st = D.prim_execute(prim, D.stream, 4, args);
    if (st == dnnl_success) st = D.stream_wait(D.stream);
    /* the calling thread's count back at ct_set_num_threads's: OpenBLAS's OpenMP build follows it */
    int n = ct__num_threads();
    if (threads != n) ct__omp_set_num_threads(n);
  }
  if (mscr) D.mem_destroy(mscr);
  if (md) D.mem_destroy(md);
  if (mw) D.mem_destroy(mw);
  if (ms) D.mem_destroy(ms);
  if (prim) D.prim_destroy(prim);
  if (pd) D.pd_destroy(pd);
  if (po) D.post_ops_destroy(po);
  if (attr) D.attr_destroy(attr);
  ct__free(scratch);
  return st;
}

/* The product on oneDNN's OpenMP threads, ct_set_num_threads's count, except where it is small: below 2^25
   multiply-adds (about 100 us on one thread here) it runs on the calling thread alone, and so in a quiet
   period of the pool (core/parallel.h: another program keeps the other CPUs busy). oneDNN's team waits at
   its end for a thread that the OS runs in turns with another program: mm bfloat16 64x512x512 took
   1.1-1.2x its 1-thread time at 2 threads with the other core busy, and gained little idle (0.9x).
   oneDNN 2.6's bfloat16 matmul gives the same bits at any thread count (torch 1.13 at 1, 2 and 3 threads
   agreed on every shape tried, K up to 262144, either layout of the weights). It does not give them on a
   block of rows: a product cut into one block of rows per pool thread, each one oneDNN product on one
   thread, differed from torch for weights read transposed with K of 4000 and more. */
bool ct__dnnl_bf16_matmul(int nd, const int64_t *sdims, const int64_t *sstrides, const uint16_t *src,
                          const int64_t *wdims, const int64_t *wstrides, const uint16_t *weights,
                          const int64_t *ddims, uint16_t *dst, float alpha, float beta) {
  if (!D.ok) return false;
  dnnl_dims_t sd, ss, wd, ws, dd, ds;
  double work = (double)sdims[nd - 1];
  for (int i = 0; i < nd; i++) {
    sd[i] = sdims[i], ss[i] = sstrides[i], wd[i] = wdims[i], ws[i] = wstrides[i], dd[i] = ddims[i];
    work *= (double)ddims[i];
  }
  ds[nd - 1] = 1;
  for (int i = nd - 2; i >= 0; i--) ds[i] = ds[i + 1] * dd[i + 1];
  int threads = work < 33554432.0 || ct__parallel_quiet() ? 1 : ct__num_threads();
  dnnl_memory_desc_t smd, wmd, dany, ddense;
  return D.md_by_strides(&smd, nd, sd, dnnl_bf16, ss) == dnnl_success &&
         D.md_by_strides(&wmd, nd, wd, dnnl_bf16, ws) == dnnl_success &&
         D.md_by_tag(&dany, nd, dd, dnnl_bf16, dnnl_format_tag_any) == dnnl_success &&
         D.md_by_strides(&ddense, nd, dd, dnnl_bf16, ds) == dnnl_success &&
         run(&smd, src, &wmd, weights, &dany, &ddense, dst, alpha, beta, threads) == dnnl_success;
}

bool ct__dnnl_bf16_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const uint16_t *a,
                        int64_t lda, const uint16_t *b, int64_t ldb, float beta, uint16_t *c, int64_t ldc) {
  if (alpha == 0.0f || !ct__dnnl_bf16_route(m * n * k)) return false;
  int64_t ad[2] = {k, m}, as[2] = {lda, 1}, bd[2] = {n, k}, bs[2] = {ldb, 1}, cd[2] = {n, m};
  if (ta) as[0] = 1, as[1] = lda;
  if (tb) bs[0] = 1, bs[1] = ldb;
  if (ldc == m) return ct__dnnl_bf16_matmul(2, bd, bs, b, ad, as, a, cd, c, alpha, beta);
  /* ideep computes into a dense dst (beta's operand copied in) and copies it back to c's rows */
  uint16_t *t = ct__malloc((size_t)(n * m) * sizeof *t);
  if (!t) {
    ct_clear_error();
    return false;
  }
  for (int64_t j = 0; j < n; j++) memcpy(t + j * m, c + j * ldc, (size_t)m * sizeof *t);
  bool ok = ct__dnnl_bf16_matmul(2, bd, bs, b, ad, as, a, cd, t, alpha, beta);
  if (ok)
    for (int64_t j = 0; j < n; j++) memcpy(c + j * ldc, t + j * m, (size_t)m * sizeof *t);
  ct__free(t);
  return ok;
}

/* dnnl_sgemm alone: loaded apart from the matmul entry points, so that either works without the other. */
static dnnl_status_t (*sgemm_fn)(char, char, dnnl_dim_t, dnnl_dim_t, dnnl_dim_t, float, const float *,
                                 dnnl_dim_t, const float *, dnnl_dim_t, float, float *, dnnl_dim_t);
static pthread_once_t sgemm_once = PTHREAD_ONCE_INIT;

static void load_sgemm(void) {
  void *h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
  bool ok = h != NULL;
  if (h) sym(h, &sgemm_fn, "dnnl_sgemm", &ok);
  if (!ok) sgemm_fn = NULL;
}

bool ct__dnnl_sgemm_one_thread(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                               const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  pthread_once(&sgemm_once, load_sgemm);
  if (!sgemm_fn) return false;
  int prev = ct__omp_get_max_threads(); /* oneDNN's OpenMP threads: this thread's count */
  if (prev != 1) ct__omp_set_num_threads(1);
  /* row-major: c^T (n x m, rows ldc apart) = op(b)^T op(a)^T */
  dnnl_status_t st = sgemm_fn(tb ? 'T' : 'N', ta ? 'T' : 'N', n, m, k, 1.0f, b, ldb, a, lda, beta, c, ldc);
  if (prev != 1) ct__omp_set_num_threads(prev);
  return st == dnnl_success;
}

#else /* built without oneDNN's header: torch's own loops everywhere */

bool ct__dnnl_bf16_route(int64_t work) {
  (void)work;
  return false;
}

bool ct__dnnl_bf16_matmul(int nd, const int64_t *sdims, const int64_t *sstrides, const uint16_t *src,
                          const int64_t *wdims, const int64_t *wstrides, const uint16_t *weights,
                          const int64_t *ddims, uint16_t *dst, float alpha, float beta) {
  (void)nd, (void)sdims, (void)sstrides, (void)src, (void)wdims, (void)wstrides, (void)weights, (void)ddims;
  (void)dst, (void)alpha, (void)beta;
  return false;
}

bool ct__dnnl_bf16_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const uint16_t *a,
                        int64_t lda, const uint16_t *b, int64_t ldb, float beta, uint16_t *c, int64_t ldc) {
  (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb,
      (void)beta;
  (void)c, (void)ldc;
  return false;
}

bool ct__dnnl_sgemm_one_thread(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                               const float *b, int64_t ldb, float beta, float *c, int64_t ldc) {
  (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c,
      (void)ldc;
  return false;
}

#endif
