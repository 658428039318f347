/* The default CPU allocator.

   Small blocks (< 1 MiB) come from posix_memalign with 64-byte alignment (a cache line; enough for
   any SIMD load). Large blocks come straight from mmap, rounded up to a size class, and when freed
   they are kept in a cache for the next request of the same class. Why: a fresh 64 MiB output costs
   ~19 ms of page faults on first touch; a cached block is already faulted in, so reuse is free.
   Blocks of 2 MiB and more are 2 MiB aligned and marked MADV_HUGEPAGE so the kernel can back them
   with transparent huge pages (fewer faults, fewer TLB misses).

   The cache is a doubly linked list threaded through the free blocks themselves (the first bytes of
   a cached block hold its links), so caching needs no metadata allocation and cannot fail. Newest
   blocks sit at the head: lookups find warm blocks first and eviction drops the oldest from the tail.
   One mutex guards it: taken once per large allocation, never per element. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "core/internal.h"

/* Under ASan a cached block is poisoned (all but its links), so a use after free of a large block is
   reported even though the memory stays mapped; a block is unpoisoned when it leaves the cache. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define SMALL_LIMIT ((size_t)1 << 20) /* below: posix_memalign */
#define HUGE_SIZE ((size_t)2 << 20)   /* a transparent huge page */
#define PAGE_SIZE_MIN ((size_t)4096)
#define DEFAULT_CACHE_LIMIT ((size_t)1 << 30)

typedef struct cached_block {
  struct cached_block *prev, *next;
  size_t size; /* the mapped length (the size class) */
} cached_block;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached_block *cache_head, *cache_tail; /* newest first */
static size_t cache_bytes;
static size_t cache_limit = DEFAULT_CACHE_LIMIT;
static bool caching_enabled = true;

/* The size class of a large request: four classes per doubling above 1 MiB (waste <= 12.5%), and
   multiples of 2 MiB from 2 MiB on so huge pages cover the whole block. 0 on overflow. */
static size_t size_class(size_t n) {
  size_t pow2 = (size_t)1 << (63 - __builtin_clzll((unsigned long long)n));
  size_t step = pow2 / 8;
  if (n >= HUGE_SIZE && step < HUGE_SIZE) step = HUGE_SIZE;
  if (step < PAGE_SIZE_MIN) step = PAGE_SIZE_MIN;
  if (n > SIZE_MAX - (step - 1)) return 0;
  return (n + step - 1) / step * step;
}

/* A fresh mapping of `size` bytes (a size class); 2 MiB aligned with a huge-page hint when large. */
static void *map_block(size_t size) {
  if (size < HUGE_SIZE) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
  }
  /* Over-map by one huge page, then trim the unaligned head and the tail. */
  if (size > SIZE_MAX - HUGE_SIZE) return NULL;
  size_t span = size + HUGE_SIZE;
  char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return NULL;
  char *p = (char *)(((uintptr_t)raw + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1));
  size_t head = (size_t)(p - raw), tail = span - head - size;
  if (head) munmap(raw, head);
  if (tail) munmap(p + size, tail);
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE); /* a hint: failure (THP disabled) changes nothing */
#endif
  return p;
}

/* ---- the cache (callers hold cache_lock) ---- */
static void cache_unlink(cached_block *b) {
  if (b->prev) b->prev->next = b->next;
  else cache_head = b->next;
  if (b->next) b->next->prev = b->prev;
  else cache_tail = b->prev;
  cache_bytes -= b->size;
  UNPOISON(b, b->size);
}

static void *cache_take(size_t size) {
  for (cached_block *b = cache_head; b; b = b->next)
    if (b->size == size) {
      cache_unlink(b);
      return b;
    }
  return NULL;
}

/* Evicts the oldest blocks until at most `limit` bytes stay cached. */
static void cache_trim(size_t limit) {
  while (cache_bytes > limit && cache_tail) {
    cached_block *b = cache_tail;
    cache_unlink(b);
    munmap(b, b->size);
  }
}

/* Keeps a freed block if caching is on and it fits under the cap; otherwise unmaps it. */
static void cache_put(void *p, size_t size) {
  if (!caching_enabled || size > cache_limit) {
    munmap(p, size);
    return;
  }
  cache_trim(cache_limit - size);
  cached_block *b = p;
  *b = (cached_block){NULL, cache_head, size};
  if (cache_head) cache_head->prev = b;
  else cache_tail = b;
  cache_head = b;
  cache_bytes += size;
  POISON((char *)b + sizeof *b, size - sizeof *b);
}

/* ---- the allocator ---- */
static void *cpu_alloc(void *ctx, size_t n) {
  (void)ctx;
  if (n < SMALL_LIMIT) {
    void *p = NULL;
    return posix_memalign(&p, 64, n ? n : 1) == 0 ? p : NULL;
  }
  size_t size = size_class(n);
  if (!size) return NULL;
  pthread_mutex_lock(&cache_lock);
  void *p = cache_take(size);
  pthread_mutex_unlock(&cache_lock);
  if (p) return p;
  p = map_block(size);
  if (!p) {
    /* The system is short of memory: give the cache back and try once more. */
    ct_empty_cache();
    p = map_block(size);
  }
  return p;
}

static void cpu_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  if (!p) return;
  if (n < SMALL_LIMIT) {
    free(p);
    return;
  }
  pthread_mutex_lock(&cache_lock);
  cache_put(p, size_class(n));
  pthread_mutex_unlock(&cache_lock);
}

static const ct_allocator cpu_allocator = {cpu_alloc, cpu_free, NULL};

const ct_allocator *ct__default_allocator(ct_device_type type) {
  return type == CT_CPU || type == CT_DEVICE_TYPE_UNSET ? &cpu_allocator : NULL;
}

void ct_empty_cache(void) {
  pthread_mutex_lock(&cache_lock);
  cache_trim(0);
  pthread_mutex_unlock(&cache_lock);
}

void ct_set_allocator_caching(bool enabled) {
  pthread_mutex_lock(&cache_lock);
  caching_enabled = enabled;
  if (!enabled) cache_trim(0);
  pthread_mutex_unlock(&cache_lock);
}

bool ct_allocator_caching(void) {
  pthread_mutex_lock(&cache_lock);
  bool on = caching_enabled;
  pthread_mutex_unlock(&cache_lock);
  return on;
}

void ct_set_allocator_cache_limit(size_t bytes) {
  pthread_mutex_lock(&cache_lock);
  cache_limit = bytes;
  cache_trim(bytes);
  pthread_mutex_unlock(&cache_lock);
}

size_t ct_allocator_cached_bytes(void) {
  pthread_mutex_lock(&cache_lock);
  size_t n = cache_bytes;
  pthread_mutex_unlock(&cache_lock);
  return n;
}
