/* The default CPU allocator: 64-byte aligned blocks. */
#include <stdlib.h>

#include "core/internal.h"

static void *cpu_alloc(void *ctx, size_t n) {
  (void)ctx;
  void *p = NULL;
  return posix_memalign(&p, 64, n) == 0 ? p : NULL;
}

static void cpu_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

static const ct_allocator cpu_allocator = {cpu_alloc, cpu_free, NULL};

const ct_allocator *ct__default_allocator(ct_device_type type) {
  return type == CT_CPU || type == CT_DEVICE_TYPE_UNSET ? &cpu_allocator : NULL;
}

void ct_empty_cache(void) {}
void ct_set_allocator_caching(bool enabled) { (void)enabled; }
bool ct_allocator_caching(void) { return false; }
void ct_set_allocator_cache_limit(size_t bytes) { (void)bytes; }
size_t ct_allocator_cached_bytes(void) { return 0; }
