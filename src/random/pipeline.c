/* The producer / consumers fill (see pipeline.h). */
#include <sched.h>
#include <stdatomic.h>

#include "random/pipeline.h"

#include "core/parallel.h" /* the same pool and thread setting as the other ops */

static inline int64_t chunk_end(int64_t k, int64_t nblocks) {
  int64_t end = (k + 1) * CT_PIPELINE_CHUNK;
  return end < nblocks ? end : nblocks;
}

typedef struct par_pipe {
  const ct_pipeline *p;
  int64_t nblocks, nchunks;
  _Atomic int64_t produced; /* chunks drawn so far */
  _Atomic int64_t next;     /* the next chunk to transform */
} par_pipe;

static void transform(const par_pipe *q, int64_t k) {
  q->p->transform(q->p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, q->nblocks));
}

/* The calling thread (tid 0) draws every chunk, as it would alone: a worker the OS holds back can then
   delay nothing but the one chunk it has taken. Whenever two drawn chunks wait untaken (the workers are
   behind, or absent), it transforms the oldest itself, while it is still in cache. Workers transform the
   chunks in order, each as soon as it is drawn, and all threads share the rest once the drawing ends. */
static void pipe_run(void *v, int tid) {
  par_pipe *q = v;
  const ct_pipeline *p = q->p;
  if (tid == 0) {
    for (int64_t k = 0; k < q->nchunks; k++) {
      p->produce(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, q->nblocks));
      atomic_store_explicit(&q->produced, k + 1, memory_order_release);
      int64_t c = atomic_load_explicit(&q->next, memory_order_relaxed);
      if (c < k && atomic_compare_exchange_strong_explicit(&q->next, &c, c + 1, memory_order_relaxed,
                                                           memory_order_relaxed))
        transform(q, c);
    }
  }
  for (;;) {
    int64_t k = atomic_fetch_add_explicit(&q->next, 1, memory_order_relaxed);
    if (k >= q->nchunks) return;
    /* only workers wait here, and only while the calling thread draws */
    while (atomic_load_explicit(&q->produced, memory_order_acquire) <= k) sched_yield();
    transform(q, k);
  }
}

void ct__pipeline_run(const ct_pipeline *p, int64_t nblocks, int64_t block_cost) {
  int64_t nchunks = (nblocks + CT_PIPELINE_CHUNK - 1) / CT_PIPELINE_CHUNK;
  int nt = ct__parallel_threads(nblocks * block_cost);
  if (nt > 1 && nchunks > 1) {
    par_pipe q = {p, nblocks, nchunks, 0, 0};
    ct__parallel_run(nt, pipe_run, &q);
    return;
  }
  for (int64_t k = 0; k < nchunks; k++) {
    p->produce(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
    p->transform(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
  }
}
