/* A byte copy that sends its destination to memory with non-temporal stores: for copies whose output is far
   larger than the last-level cache (ct__iter_stream_threshold), where each plain store would first read its
   line from memory (read for ownership) and a copy moves three bytes for two. The bytes are memcpy's. */
#ifndef CTORCH_KERNELS_STREAM_COPY_H
#define CTORCH_KERNELS_STREAM_COPY_H

#include <stddef.h>

/* dst[0, n) = src[0, n), the two not overlapping; the stores are visible to other threads on return (a
   store fence ends it). */
void ct__stream_copy(void *dst, const void *src, size_t n);

#endif
