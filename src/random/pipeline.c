/* The producer / consumers fill (see pipeline.h). */
#include <sched.h>
#include <stdatomic.h>

#include "random/pipeline.h"

#include "ctorch.h" /* ct_get_num_threads: the same thread setting as the other ops */

#ifdef _OPENMP
#include <omp.h>
#endif

static inline int64_t chunk_end(int64_t k, int64_t nblocks) {
  int64_t end = (k + 1) * CT_PIPELINE_CHUNK;
  return end < nblocks ? end : nblocks;
}

void ct__pipeline_run(const ct_pipeline *p, int64_t nblocks, int64_t min_parallel_blocks) {
  int64_t nchunks = (nblocks + CT_PIPELINE_CHUNK - 1) / CT_PIPELINE_CHUNK;
#ifdef _OPENMP
  int nthreads = nblocks >= min_parallel_blocks ? ct_get_num_threads() : 1;
  if (nthreads > 1) {
    _Atomic int64_t produced = 0, next = 0;
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp single nowait
      {
        for (int64_t k = 0; k < nchunks; k++) {
          p->produce(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
          atomic_store_explicit(&produced, k + 1, memory_order_release);
        }
      }
      for (;;) {
        int64_t k = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
        if (k >= nchunks) break;
        while (atomic_load_explicit(&produced, memory_order_acquire) <= k) sched_yield();
        p->transform(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
      }
    }
    return;
  }
#else
  (void)min_parallel_blocks;
#endif
  for (int64_t k = 0; k < nchunks; k++) {
    p->produce(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
    p->transform(p->ctx, k * CT_PIPELINE_CHUNK, chunk_end(k, nblocks));
  }
}
