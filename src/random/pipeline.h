/* Runs a two-stage fill over a buffer of nblocks blocks: a serial stage (drawing the uniforms, which
   must happen in order from one generator) and a parallel stage (a pure transform of each block).
   The work goes in chunks of CT_PIPELINE_CHUNK blocks. With several threads, the calling thread draws
   chunk after chunk while the others transform the chunks already drawn, then joins them; with one
   thread each chunk is drawn and transformed in turn, while it is still in cache. The blocks'
   contents never depend on the thread count. */
#ifndef CTORCH_RANDOM_PIPELINE_H
#define CTORCH_RANDOM_PIPELINE_H

#include <stdint.h>

/* 16K elements a chunk: 64 or 128 KiB of float32 / float64, small enough to stay in L2 between the
   two stages and to start the transforms early, big enough that handing chunks out costs nothing. */
#define CT_PIPELINE_CHUNK 1024

typedef struct ct_pipeline {
  void *ctx;
  /* Draws into blocks [begin, end); called for consecutive ranges, in order, by one thread. */
  void (*produce)(void *ctx, int64_t begin, int64_t end);
  /* Transforms blocks [begin, end); called from any thread once they are drawn. */
  void (*transform)(void *ctx, int64_t begin, int64_t end);
} ct_pipeline;

/* block_cost: a block's work in the units of core/parallel.h's grain (about a pointwise element's cost);
   ct__parallel_threads decides the threads from nblocks * block_cost. */
void ct__pipeline_run(const ct_pipeline *p, int64_t nblocks, int64_t block_cost);

#endif
