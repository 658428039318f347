/* The default CPU allocator (alignment, the large-block cache, its cap and switches, thread safety)
   and pluggable per-device allocators. */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#define MiB ((size_t)1 << 20)

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p % a) == 0; }

static void test_alignment(void) {
  size_t sizes[] = {1, 7, 100, 4096, MiB - 1, MiB, 3 * MiB / 2, 2 * MiB, 3 * MiB + 5};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    ct_storage *s = ct_storage_new(sizes[i], CT_DEVICE_CPU);
    CHECK(s && aligned(ct_storage_data_ptr(s), 64));
    /* Huge-page sized blocks are 2 MiB aligned. */
    if (sizes[i] >= 2 * MiB) CHECK(aligned(ct_storage_data_ptr(s), 2 * MiB));
    memset(ct_storage_data_ptr(s), 1, sizes[i]); /* the whole block is usable */
    ct_storage_release(s);
  }
}

/* The bytes a released block of n adds to the cache: its size class. */
static size_t cached_class(size_t n) {
  ct_empty_cache();
  ct_storage_release(ct_storage_new(n, CT_DEVICE_CPU));
  size_t c = ct_allocator_cached_bytes();
  ct_empty_cache();
  return c;
}

static void test_size_classes(void) {
  CHECK(ct_allocator_caching());
  /* Small blocks are never cached. */
  CHECK_EQ_INT(cached_class(1000), 0);
  CHECK_EQ_INT(cached_class(MiB - 1), 0);
  /* From 1 MiB: four classes per doubling (steps of 128 KiB between 1 and 2 MiB)... */
  CHECK_EQ_INT(cached_class(MiB), MiB);
  CHECK_EQ_INT(cached_class(MiB + 1), MiB + MiB / 8);
  /* ...multiples of 2 MiB from 2 MiB, then an eighth of the power of two below. */
  CHECK_EQ_INT(cached_class(2 * MiB), 2 * MiB);
  CHECK_EQ_INT(cached_class(3 * MiB), 4 * MiB);
  CHECK_EQ_INT(cached_class(17 * MiB), 18 * MiB);
  CHECK_EQ_INT(cached_class(64 * MiB + 1), 72 * MiB);
}

static void test_reuse(void) {
  ct_empty_cache();
  ct_storage *a = ct_storage_new(3 * MiB, CT_DEVICE_CPU);
  void *pa = ct_storage_data_ptr(a);
  ct_storage_release(a);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 4 * MiB);
#if defined(__SANITIZE_ADDRESS__)
  /* Under ASan a cached block is poisoned: a use after free is caught. */
  CHECK(__asan_address_is_poisoned((char *)pa + 1000));
#endif
  /* A request of the same class gets the cached block back. */
  ct_storage *b = ct_storage_new(4 * MiB - 100, CT_DEVICE_CPU);
  CHECK(ct_storage_data_ptr(b) == pa);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0);
#if defined(__SANITIZE_ADDRESS__)
  CHECK(!__asan_address_is_poisoned((char *)pa + 1000));
#endif
  /* A different class does not take it. */
  ct_storage_release(b);
  ct_storage *c = ct_storage_new(6 * MiB, CT_DEVICE_CPU);
  CHECK(ct_storage_data_ptr(c) != pa);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 4 * MiB);
  ct_storage_release(c);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 10 * MiB);
  ct_empty_cache();
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0);

  /* Tensors go through the same path: a freed 64 MiB output is reused by the next one. */
  ct_tensor *t = ct_empty(CT_SHAPE(4096, 4096), NULL);
  void *pt = ct_data_ptr(t);
  ct_release(t);
  t = ct_empty(CT_SHAPE(4096, 4096), NULL);
  CHECK(ct_data_ptr(t) == pt);
  ct_release(t);

  /* resize_ of a large storage keeps its bytes across classes. */
  ct_storage *r = ct_storage_new(MiB, CT_DEVICE_CPU);
  ct_storage_fill_(r, 6);
  CHECK_EQ_INT(ct_storage_resize_(r, 5 * MiB), CT_OK);
  CHECK(((uint8_t *)ct_storage_data_ptr(r))[MiB - 1] == 6);
  ct_storage_release(r);
  ct_empty_cache();
}

static void test_cache_limit(void) {
  ct_empty_cache();
  ct_set_allocator_cache_limit(8 * MiB);
  ct_storage *s[3];
  for (int i = 0; i < 3; i++) s[i] = ct_storage_new(4 * MiB, CT_DEVICE_CPU);
  void *newest = ct_storage_data_ptr(s[2]);
  for (int i = 0; i < 3; i++) ct_storage_release(s[i]);
  /* The cap holds two; the oldest was evicted. */
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 8 * MiB);
  /* A block above the cap is never cached. */
  ct_storage_release(ct_storage_new(10 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 8 * MiB);
  /* Lowering the cap trims the cache; the newest block stays. */
  ct_set_allocator_cache_limit(4 * MiB);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 4 * MiB);
  ct_storage *again = ct_storage_new(4 * MiB, CT_DEVICE_CPU);
  CHECK(ct_storage_data_ptr(again) == newest);
  ct_storage_release(again);
  ct_set_allocator_cache_limit(0);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0);
  ct_set_allocator_cache_limit((size_t)1 << 30);

  /* The default cap is 1 GiB: 640 MiB is kept, 1.5 GiB is not (address space only: untouched). */
  ct_storage_release(ct_storage_new(640 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 640 * MiB);
  ct_storage_release(ct_storage_new(1536 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 640 * MiB);
  ct_empty_cache();
}

static void test_caching_switch(void) {
  ct_storage_release(ct_storage_new(2 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 2 * MiB);
  ct_set_allocator_caching(false);
  CHECK(!ct_allocator_caching());
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0); /* switching off empties the cache */
  ct_storage_release(ct_storage_new(2 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0);
  ct_set_allocator_caching(true);
  CHECK(ct_allocator_caching());
  ct_storage_release(ct_storage_new(2 * MiB, CT_DEVICE_CPU));
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 2 * MiB);
  ct_empty_cache();
}

/* Threads allocating, writing and freeing large blocks at once: every block holds its own pattern. */
static void *churn(void *arg) {
  uint8_t tag = (uint8_t)(uintptr_t)arg;
  int bad = 0;
  for (int i = 0; i < 40; i++) {
    size_t n = (size_t)(1 + (i + tag) % 5) * MiB;
    ct_storage *s = ct_storage_new(n, CT_DEVICE_CPU);
    if (!s) return (void *)1;
    uint8_t *p = ct_storage_data_ptr(s);
    memset(p, tag, n);
    if (p[0] != tag || p[n / 2] != tag || p[n - 1] != tag) bad = 1;
    ct_storage_release(s);
  }
  return bad ? (void *)1 : NULL;
}

static void test_threads(void) {
  pthread_t th[4];
  for (uintptr_t i = 0; i < 4; i++) pthread_create(&th[i], NULL, churn, (void *)(i + 1));
  for (int i = 0; i < 4; i++) {
    void *r = (void *)1;
    pthread_join(th[i], &r);
    CHECK(r == NULL);
  }
  ct_empty_cache();
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 0);
}

/* A counting allocator plugged in for the CPU. */
typedef struct counter {
  int allocs, frees;
  size_t live;
} counter;
static void *count_alloc(void *ctx, size_t n) {
  counter *c = ctx;
  c->allocs++;
  c->live += n;
  return malloc(n);
}
static void count_free(void *ctx, void *p, size_t n) {
  counter *c = ctx;
  c->frees++;
  c->live -= n;
  free(p);
}

static void test_pluggable(void) {
  counter c = {0, 0, 0};
  ct_allocator mine = {count_alloc, count_free, &c};
  const ct_allocator *def = ct_get_allocator(CT_CPU);
  CHECK(ct_set_allocator(CT_CPU, &mine) == def);
  CHECK(ct_get_allocator(CT_CPU) == &mine);
  ct_storage *s = ct_storage_new(100, CT_DEVICE_CPU);
  ct_tensor *t = ct_empty(CT_SHAPE(2, 3), NULL);
  CHECK_EQ_INT(c.allocs, 2);
  CHECK_EQ_INT(c.live, 100 + 24);
  CHECK_EQ_INT(ct_storage_resize_(s, 50), CT_OK);
  CHECK_EQ_INT(c.allocs, 3);
  CHECK_EQ_INT(c.frees, 1);
  CHECK_EQ_INT(c.live, 50 + 24);
  /* Empty storages allocate nothing. */
  ct_storage *e = ct_storage_new(0, CT_DEVICE_CPU);
  CHECK_EQ_INT(c.allocs, 3);
  ct_storage_release(e);
  /* Restoring the default while storages live: they still free through the allocator that made them. */
  CHECK(ct_set_allocator(CT_CPU, NULL) == &mine);
  CHECK(ct_get_allocator(CT_CPU) == def);
  ct_storage *d = ct_storage_new(10, CT_DEVICE_CPU);
  CHECK_EQ_INT(c.allocs, 3);
  ct_storage_release(d);
  ct_storage_release(s);
  ct_release(t);
  CHECK_EQ_INT(c.frees, 3);
  CHECK_EQ_INT(c.live, 0);
  /* There is no allocator for meta (no data) and none for an invalid type. */
  CHECK(ct_get_allocator(CT_META) == NULL);
  CHECK(ct_set_allocator((ct_device_type)9, &mine) == NULL);
}

/* Each allocation point of ct_empty fails in turn: NULL and OOM; a data block made before the
   failing point goes back to the cache (and ASan's leak check shows nothing else stays). */
static void test_out_of_memory(void) {
  ct_empty_cache();
  int failures = 0;
  for (int64_t k = 0;; k++) {
    ct_debug_fail_allocation_at(k);
    ct_tensor *t = ct_empty(CT_SHAPE(1024, 1024), NULL);
    ct_debug_fail_allocation_at(-1);
    if (t) {
      ct_release(t);
      break;
    }
    failures++;
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
    CHECK(ct_allocator_cached_bytes() == 0 || ct_allocator_cached_bytes() == 4 * MiB);
    ct_empty_cache();
  }
  CHECK(failures >= 2);
  CHECK_EQ_INT(ct_allocator_cached_bytes(), 4 * MiB);
  ct_empty_cache();
}

int main(void) {
  test_alignment();
  test_size_classes();
  test_reuse();
  test_cache_limit();
  test_caching_switch();
  test_threads();
  test_pluggable();
  test_out_of_memory();
  return TEST_SUMMARY();
}
