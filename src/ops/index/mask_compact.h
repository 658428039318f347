/* masked_select's inner loops over a contiguous run of mask bytes: the count of true bytes, and the copy of
   the elements under them without a branch on each byte (a random mask mispredicts every other one). */
#ifndef CTORCH_OPS_INDEX_MASK_COMPACT_H
#define CTORCH_OPS_INDEX_MASK_COMPACT_H

#include <stddef.h>
#include <stdint.h>

/* The number of non-zero bytes of m[0..n). */
int64_t ct__mask_count(const unsigned char *m, int64_t n);
/* Copies src[r] (isz bytes each, contiguous) to dst[k++] for each r < n with m[r] != 0, in order; dst has
   room up to element kend (k never passes it: the run holds kend - k true bytes at most). Slots in
   [k, kend) past the last copied element may be written over (they are written again later). Returns k. */
int64_t ct__mask_compact(char *dst, int64_t k, int64_t kend, const char *src, const unsigned char *m,
                         int64_t n, size_t isz);

#endif
