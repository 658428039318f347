/* The producer / consumers fill (see pipeline.h). */
#include <sched.h>
#include <stdatomic.h>

#include "random/pipeline.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#define CHUNK_BLOCKS 1024 /* 16K elements: small enough to start transforming early */

void ct__pipeline_run(const ct_pipeline *p, int64_t nblocks, int64_t min_parallel_blocks) {
#ifdef _OPENMP
  if (nblocks >= min_parallel_blocks && omp_get_max_threads() > 1) {
    int64_t nchunks = (nblocks + CHUNK_BLOCKS - 1) / CHUNK_BLOCKS;
    _Atomic int64_t produced = 0, next = 0;
#pragma omp parallel
    {
#pragma omp single nowait
      {
        for (int64_t k = 0; k < nchunks; k++) {
          int64_t end = (k + 1) * CHUNK_BLOCKS < nblocks ? (k + 1) * CHUNK_BLOCKS : nblocks;
          p->produce(p->ctx, k * CHUNK_BLOCKS, end);
          atomic_store_explicit(&produced, k + 1, memory_order_release);
        }
      }
      for (;;) {
        int64_t k = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
        if (k >= nchunks) break;
        while (atomic_load_explicit(&produced, memory_order_acquire) <= k) sched_yield();
        int64_t end = (k + 1) * CHUNK_BLOCKS < nblocks ? (k + 1) * CHUNK_BLOCKS : nblocks;
        p->transform(p->ctx, k * CHUNK_BLOCKS, end);
      }
    }
    return;
  }
#else
  (void)min_parallel_blocks;
#endif
  p->produce(p->ctx, 0, nblocks);
  p->transform(p->ctx, 0, nblocks);
}
