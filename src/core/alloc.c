/* Metadata allocation with a fault injector, so tests can make every allocation point of a call fail. */
#include <stdlib.h>

#include "core/internal.h"

static _Atomic int64_t fail_countdown = -1; /* -1: never fail */

bool ct__alloc_should_fail(void) {
  int64_t c = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
  if (CT_LIKELY(c < 0)) return false;
  int64_t prev = atomic_fetch_sub(&fail_countdown, 1);
  return prev == 0;
}

void ct_debug_fail_allocation_at(int64_t n) { atomic_store(&fail_countdown, n < 0 ? -1 : n); }

void ct__oom_error(size_t n) {
  ct__error(CT_ERR_OUT_OF_MEMORY,
            "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
            "allocate %zu bytes. Error code 12 (Cannot allocate memory)",
            n);
}

static void *oom(size_t n) {
  ct__oom_error(n);
  return NULL;
}

void *ct__malloc(size_t n) {
  if (ct__alloc_should_fail()) return oom(n);
  void *p = malloc(n ? n : 1);
  return p ? p : oom(n);
}

void *ct__malloc_array(int64_t count, size_t size) {
  if (count < 0 || (size && (uint64_t)count > SIZE_MAX / size)) return oom(SIZE_MAX);
  return ct__malloc((size_t)count * size);
}

void *ct__calloc(size_t count, size_t size) {
  if (ct__alloc_should_fail()) return oom(count * size);
  void *p = calloc(count ? count : 1, size ? size : 1);
  return p ? p : oom(count * size);
}

void *ct__realloc(void *p, size_t n) {
  if (ct__alloc_should_fail()) return oom(n);
  void *q = realloc(p, n ? n : 1);
  return q ? q : oom(n);
}

void *ct__malloc_aligned(size_t align, size_t n) {
  if (ct__alloc_should_fail()) return oom(n);
  void *p = NULL;
  return posix_memalign(&p, align, n ? n : 1) == 0 ? p : oom(n);
}

void ct__free(void *p) { free(p); }
