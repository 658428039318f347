/* torch.UntypedStorage: resize_, clone, copy_, fill_, tolist, byteswap, from_blob, meta storages and
   out-of-memory at every allocation point. Expected values and messages come from torch 1.13
   (byteswap from torch 2.1's definition, checked against numpy's byteswap). */
#include <stdlib.h>

#include "check.h"
#include "core/internal.h"

static bool bytes_are(const ct_storage *s, const uint8_t *expected, size_t n) {
  if (ct_storage_nbytes(s) != n) return false;
  uint8_t buf[64] = {0};
  if (n > sizeof buf || ct_storage_tolist(s, buf) != CT_OK) return false;
  return memcmp(buf, expected, n) == 0;
}
#define CHECK_BYTES(s, ...)                                              \
  do {                                                                   \
    const uint8_t ct_b_[] = {__VA_ARGS__};                               \
    CHECK(bytes_are((s), ct_b_, sizeof ct_b_));                          \
  } while (0)

/* A storage holding 1, 2, ..., n. */
static ct_storage *counting(size_t n) {
  ct_storage *s = ct_storage_new(n, CT_DEVICE_CPU);
  for (size_t i = 0; i < n; i++) ((uint8_t *)ct_storage_data_ptr(s))[i] = (uint8_t)(i + 1);
  return s;
}

static void test_basics(void) {
  ct_storage *s = ct_storage_new(4, CT_DEVICE_CPU);
  CHECK_EQ_INT(ct_storage_nbytes(s), 4);
  CHECK_EQ_INT(ct_storage_element_size(s), 1);
  CHECK(ct_storage_resizable(s));
  CHECK(!ct_storage_is_shared(s));
  CHECK(ct_storage_filename(s) == NULL);
  CHECK_EQ_INT(ct_storage_device(s).type, CT_CPU);
  CHECK_EQ_INT(((uintptr_t)ct_storage_data_ptr(s)) % 64, 0);
  /* s = UntypedStorage(4).fill_(7); s.resize_(8) keeps the first 4; s.resize_(2) -> [7, 7] */
  CHECK_EQ_INT(ct_storage_fill_(s, 7), CT_OK);
  CHECK_BYTES(s, 7, 7, 7, 7);
  CHECK_EQ_INT(ct_storage_resize_(s, 8), CT_OK);
  CHECK_EQ_INT(ct_storage_nbytes(s), 8);
  uint8_t buf[8];
  CHECK_EQ_INT(ct_storage_tolist(s, buf), CT_OK);
  CHECK(buf[0] == 7 && buf[1] == 7 && buf[2] == 7 && buf[3] == 7);
  CHECK_EQ_INT(ct_storage_resize_(s, 2), CT_OK);
  CHECK_BYTES(s, 7, 7);
  CHECK_EQ_INT(ct_storage_resize_(s, 0), CT_OK);
  CHECK_EQ_INT(ct_storage_nbytes(s), 0);
  CHECK(ct_storage_data_ptr(s) == NULL);
  CHECK_EQ_INT(ct_storage_tolist(s, NULL), CT_OK);
  ct_storage_release(s);

  /* fill_(-1) is fill_(255) in the byte domain: [255, 255] */
  s = ct_storage_new(2, CT_DEVICE_CPU);
  ct_storage_fill_(s, (uint8_t)-1);
  CHECK_BYTES(s, 255, 255);
  ct_storage_release(s);
}

static void test_clone_copy(void) {
  /* s.copy_(UntypedStorage(3).fill_(200)); c = s.clone(); c.fill_(1): s stays [200]*3 */
  ct_storage *s = ct_storage_new(3, CT_DEVICE_CPU);
  ct_storage *src = ct_storage_new(3, CT_DEVICE_CPU);
  ct_storage_fill_(src, 200);
  CHECK_EQ_INT(ct_storage_copy_(s, src), CT_OK);
  CHECK_BYTES(s, 200, 200, 200);
  ct_storage *c = ct_storage_clone(s);
  CHECK(c && ct_storage_data_ptr(c) != ct_storage_data_ptr(s));
  CHECK(ct_storage_resizable(c));
  ct_storage_fill_(c, 1);
  CHECK_BYTES(s, 200, 200, 200);
  CHECK_BYTES(c, 1, 1, 1);
  /* Copying a storage onto itself is fine. */
  CHECK_EQ_INT(ct_storage_copy_(s, s), CT_OK);
  CHECK_BYTES(s, 200, 200, 200);
  /* UntypedStorage(4).copy_(UntypedStorage(3)) */
  ct_storage *other = ct_storage_new(4, CT_DEVICE_CPU);
  CHECK_EQ_INT(ct_storage_copy_(other, s), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "size does not match");
  ct_storage_release(other);
  ct_storage_release(c);
  ct_storage_release(src);
  ct_storage_release(s);

  /* Clones of empty storages. */
  ct_storage *e = ct_storage_new(0, CT_DEVICE_CPU);
  ct_storage *ec = ct_storage_clone(e);
  CHECK(ec && ct_storage_nbytes(ec) == 0);
  ct_storage_release(ec);
  ct_storage_release(e);
}

static void test_byteswap(void) {
  /* numpy: np.arange(1, 17, dtype=uint8).view(dt).byteswap() */
  struct {
    ct_dtype dt;
    uint8_t out[16];
  } cases[] = {
      {CT_INT16, {2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15}},
      {CT_FLOAT16, {2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15}},
      {CT_BFLOAT16, {2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15}},
      {CT_INT32, {4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13}},
      {CT_FLOAT32, {4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13}},
      {CT_INT64, {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
      {CT_FLOAT64, {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
      /* complex: real and imaginary halves each swapped, not exchanged */
      {CT_COMPLEX64, {4, 3, 2, 1, 8, 7, 6, 5, 12, 11, 10, 9, 16, 15, 14, 13}},
      {CT_COMPLEX128, {8, 7, 6, 5, 4, 3, 2, 1, 16, 15, 14, 13, 12, 11, 10, 9}},
      {CT_BOOL, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
      {CT_UINT8, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
      {CT_INT8, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_storage *s = counting(16);
    CHECK_EQ_INT(ct_storage_byteswap(s, cases[i].dt), CT_OK);
    CHECK(bytes_are(s, cases[i].out, 16));
    /* Swapping twice restores the data. */
    ct_storage_byteswap(s, cases[i].dt);
    CHECK(bytes_are(s, (const uint8_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 16));
    ct_storage_release(s);
  }
  /* torch.tensor([1.0, -2.5]).untyped_storage().byteswap(torch.float32) */
  float f[2] = {1.0f, -2.5f};
  ct_storage *s = ct_storage_from_blob(f, sizeof f, NULL, NULL);
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_FLOAT32), CT_OK);
  CHECK_BYTES(s, 63, 128, 0, 0, 192, 32, 0, 0);
  ct_storage_release(s);
  /* An unaligned blob still swaps (the loop never assumes alignment). */
  uint8_t raw[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  s = ct_storage_from_blob(raw + 1, 8, NULL, NULL);
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_INT64), CT_OK);
  CHECK_BYTES(s, 8, 7, 6, 5, 4, 3, 2, 1);
  ct_storage_release(s);

  /* The size must be a multiple of the swapped unit (the half size for complex types). */
  s = counting(6);
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_INT32), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "the length of data is not a multiple of 4");
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_COMPLEX128), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "the length of data is not a multiple of 8");
  CHECK_BYTES(s, 1, 2, 3, 4, 5, 6);
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_INT16), CT_OK);
  CHECK_BYTES(s, 2, 1, 4, 3, 6, 5);
  CHECK_EQ_INT(ct_storage_byteswap(s, CT_INT8), CT_OK);
  CHECK_EQ_INT(ct_storage_byteswap(s, (ct_dtype)99), CT_ERR_TYPE);
  ct_clear_error();
  ct_storage_release(s);
}

static int deleter_calls;
static void *deleter_seen;
static void count_deleter(void *ctx, void *data) {
  deleter_calls++;
  deleter_seen = data;
  CHECK(ctx == &deleter_calls);
}

static void test_from_blob(void) {
  uint8_t mem[4] = {9, 8, 7, 6};
  deleter_calls = 0;
  ct_storage *s = ct_storage_from_blob(mem, 4, count_deleter, &deleter_calls);
  CHECK(s && ct_storage_data_ptr(s) == mem);
  CHECK(!ct_storage_resizable(s));
  CHECK(!ct_storage_is_shared(s));
  CHECK_BYTES(s, 9, 8, 7, 6);
  /* torch.from_numpy(a).untyped_storage().resize_(10) and resize_(4) both refuse */
  CHECK_EQ_INT(ct_storage_resize_(s, 10), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  CHECK_EQ_INT(ct_storage_resize_(s, 4), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  CHECK_EQ_INT(ct_storage_nbytes(s), 4);
  /* Writes reach the caller's memory. */
  ct_storage_fill_(s, 3);
  CHECK(mem[0] == 3 && mem[3] == 3);
  /* The deleter runs once, when the last reference goes. */
  ct_storage_retain(s);
  ct_storage_release(s);
  CHECK_EQ_INT(deleter_calls, 0);
  ct_storage_release(s);
  CHECK_EQ_INT(deleter_calls, 1);
  CHECK(deleter_seen == mem);

  /* A scope releases the storages made inside it. */
  deleter_calls = 0;
  ct_scope_begin();
  ct_storage *scoped = ct_storage_from_blob(mem, 4, count_deleter, &deleter_calls);
  CHECK(scoped != NULL);
  ct_scope_end();
  CHECK_EQ_INT(deleter_calls, 1);

  /* A NULL deleter is allowed; NULL data only with 0 bytes. */
  s = ct_storage_from_blob(mem, 4, NULL, NULL);
  ct_storage_release(s);
  s = ct_storage_from_blob(NULL, 0, NULL, NULL);
  CHECK(s && ct_storage_nbytes(s) == 0);
  ct_storage_release(s);
  CHECK(ct_storage_from_blob(NULL, 4, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_storage_from_blob: data is NULL but nbytes is 4");

  /* Out of memory at every allocation point: NULL, OOM, and the deleter is never called (the caller
     keeps its memory), also when the scope's registration is what fails. */
  for (int scoped_run = 0; scoped_run < 2; scoped_run++) {
    deleter_calls = 0;
    int failures = 0;
    for (int64_t k = 0;; k++) {
      if (scoped_run) ct_scope_begin();
      ct_debug_fail_allocation_at(k);
      ct_storage *b = ct_storage_from_blob(mem, 4, count_deleter, &deleter_calls);
      ct_debug_fail_allocation_at(-1);
      if (b) {
        if (!scoped_run) ct_storage_release(b);
        if (scoped_run) ct_scope_end();
        break;
      }
      failures++;
      CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
      CHECK_EQ_INT(deleter_calls, 0);
      if (scoped_run) ct_scope_end();
    }
    CHECK(failures >= 1 + scoped_run);
    CHECK_EQ_INT(deleter_calls, 1);
  }
}

static void test_meta(void) {
  ct_storage *m = ct_storage_new(4, CT_DEVICE_META);
  CHECK(m && ct_storage_nbytes(m) == 4 && ct_storage_data_ptr(m) == NULL);
  /* UntypedStorage(4, device='meta').resize_(8) */
  CHECK_EQ_INT(ct_storage_resize_(m, 8), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "UntypedStorage.resize_: got unexpected device type meta");
  /* clone, fill_ and copy_ into meta succeed without data */
  ct_storage *c = ct_storage_clone(m);
  CHECK(c && ct_storage_device(c).type == CT_META && ct_storage_nbytes(c) == 4);
  CHECK_EQ_INT(ct_storage_fill_(m, 1), CT_OK);
  ct_storage *cpu = counting(4);
  CHECK_EQ_INT(ct_storage_copy_(m, cpu), CT_OK);
  /* UntypedStorage(4).copy_(meta) */
  CHECK_EQ_INT(ct_storage_copy_(cpu, m), CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  CHECK_BYTES(cpu, 1, 2, 3, 4);
  /* meta.copy_(meta of size 3) */
  ct_storage *m3 = ct_storage_new(3, CT_DEVICE_META);
  CHECK_EQ_INT(ct_storage_copy_(m, m3), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "size does not match");
  uint8_t buf[4];
  CHECK_EQ_INT(ct_storage_tolist(m, buf), CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Not available for 'meta' device type");
  CHECK_EQ_INT(ct_storage_share_memory_(m), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "_share_fd_: only available on CPU");
  CHECK_EQ_INT(ct_storage_byteswap(m, CT_FLOAT32), CT_OK);
  ct_storage_release(m3);
  ct_storage_release(cpu);
  ct_storage_release(c);
  ct_storage_release(m);
}

static void test_null_inputs(void) {
  /* A NULL storage with no error pending records a ValueError naming it; later ones keep it. */
  ct_clear_error();
  CHECK(ct_storage_clone(NULL) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
  CHECK(ct_storage_resize_(NULL, 3) != CT_OK);
  CHECK(ct_storage_fill_(NULL, 3) != CT_OK);
  CHECK(ct_storage_byteswap(NULL, CT_INT32) != CT_OK);
  CHECK(ct_storage_share_memory_(NULL) != CT_OK);
  /* NULL inputs keep the recorded error: the first one's (ct_storage_clone's), naming its argument */
  CHECK_ERROR(CT_ERR_VALUE, "argument 's' is NULL");
  ct_storage *s = ct_storage_new(2, CT_DEVICE_CPU);
  CHECK(ct_storage_copy_(s, NULL) != CT_OK);
  CHECK(ct_storage_copy_(NULL, s) != CT_OK);
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 'src' is NULL");
  ct_storage_release(s);
}

/* Every allocation point of clone and resize_ fails in turn: NULL/OOM and the input unchanged. */
static void test_out_of_memory(void) {
  ct_storage *s = counting(5);
  int failures = 0;
  for (int64_t k = 0;; k++) {
    ct_debug_fail_allocation_at(k);
    ct_storage *c = ct_storage_clone(s);
    ct_debug_fail_allocation_at(-1);
    if (c) {
      CHECK_BYTES(c, 1, 2, 3, 4, 5);
      ct_storage_release(c);
      break;
    }
    failures++;
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
    CHECK_BYTES(s, 1, 2, 3, 4, 5);
  }
  CHECK(failures >= 1); /* small storages hold their bytes in the same block as the struct */

  failures = 0;
  void *before = ct_storage_data_ptr(s);
  for (int64_t k = 0;; k++) {
    ct_debug_fail_allocation_at(k);
    ct_status st = ct_storage_resize_(s, 9);
    ct_debug_fail_allocation_at(-1);
    if (st == CT_OK) break;
    failures++;
    CHECK_EQ_INT(st, CT_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
    CHECK(ct_storage_data_ptr(s) == before);
    CHECK_BYTES(s, 1, 2, 3, 4, 5);
  }
  CHECK(failures >= 1);
  CHECK_EQ_INT(ct_storage_nbytes(s), 9);
  ct_storage_release(s);

  /* A request the system cannot satisfy reports PyTorch's allocator message. */
  CHECK(ct_storage_new((size_t)1 << 62, CT_DEVICE_CPU) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
  ct_clear_error();
}

/* TypedStorage conversions: torch.tensor([1.5, -2.7, 300.2]).storage().int() / .byte() / .half() */
static void test_to_dtype(void) {
  const float v[3] = {1.5f, -2.7f, 300.2f};
  ct_storage *s = ct_storage_new(sizeof v, CT_DEVICE_CPU);
  memcpy(ct_storage_data_ptr(s), v, sizeof v);
  ct_storage *i = ct_storage_to_dtype(s, CT_FLOAT32, CT_INT32);
  CHECK_EQ_INT(ct_storage_nbytes(i), 12);
  const int32_t *iv = ct_storage_data_ptr(i);
  CHECK(iv[0] == 1 && iv[1] == -2 && iv[2] == 300);
  ct_storage *b = ct_storage_to_dtype(s, CT_FLOAT32, CT_UINT8);
  const uint8_t *bv = ct_storage_data_ptr(b);
  CHECK(ct_storage_nbytes(b) == 3 && bv[0] == 1 && bv[1] == 254 && bv[2] == 44);
  ct_storage *h = ct_storage_to_dtype(s, CT_FLOAT32, CT_FLOAT16);
  const uint16_t *hv = ct_storage_data_ptr(h);
  /* 1.5, -2.69921875, 300.25 as float16 bits */
  CHECK(hv[0] == 0x3E00 && hv[1] == 0xC166 && hv[2] == 0x5CB1);
  CHECK(ct_storage_to_dtype(s, CT_FLOAT64, CT_INT32) == NULL); /* 12 bytes are not whole doubles */
  CHECK_EQ_INT(ct_last_error(), CT_ERR_RUNTIME);
  ct_clear_error();
  ct_storage_release(i);
  ct_storage_release(b);
  ct_storage_release(h);
  ct_storage_release(s);
}

/* A small tensor from ct_empty shares one block with its storage (core/storage.c): every order in which
   the two can die must keep the other usable and free the block exactly once (ASan/LSan check the
   second half of that). */
static void test_small_tensor_block(void) {
  for (int64_t n = 1; n <= 16; n++) { /* up to the inline data size, and past it */
    ct_tensor *t = ct_empty(CT_SHAPE(n), NULL);
    CHECK_EQ_INT(((uintptr_t)ct_data_ptr(t)) % 64, 0);
    ct_release(t);
  }
  /* the tensor dies first; its storage lives on */
  ct_tensor *t = ct_full(CT_SHAPE(3), ct_scalar_double(2.5), NULL);
  ct_storage *s = ct_untyped_storage(t);
  ct_release(t);
  const float *v = ct_storage_data_ptr(s);
  CHECK(v[0] == 2.5f && v[2] == 2.5f);
  CHECK_EQ_INT(ct_storage_resize_(s, 400), CT_OK); /* moves the data out of the block */
  v = ct_storage_data_ptr(s);
  CHECK(v[1] == 2.5f);
  ct_storage_release(s);
  /* a view keeps the storage after the tensor goes */
  t = ct_full(CT_SHAPE(2, 2), ct_scalar_double(-1), NULL);
  ct_tensor *row = ct_select(t, 0, 1);
  ct_release(t);
  CHECK(((const float *)ct_data_ptr(row))[1] == -1.0f);
  ct_release(row);
  /* the storage dies first: set_ gives the tensor another one */
  t = ct_empty(CT_SHAPE(2), NULL);
  ct_tensor *other = ct_ones(CT_SHAPE(8), NULL);
  CHECK_EQ_INT(ct_set_(t, other), CT_OK);
  ct_release(other);
  CHECK(((const float *)ct_data_ptr(t))[7] == 1.0f);
  ct_release(t);
  /* resize_ past the inline room grows the block's storage in place of the tensor's */
  t = ct_zeros(CT_SHAPE(2), NULL);
  CHECK_EQ_INT(ct_resize_(t, CT_SHAPE(100), CT_CONTIGUOUS_FORMAT), CT_OK);
  CHECK(((const float *)ct_data_ptr(t))[1] == 0.0f);
  ct_release(t);
  /* shared memory takes over the data of a block storage */
  t = ct_full(CT_SHAPE(4), ct_scalar_double(3), NULL);
  s = ct_untyped_storage(t);
  if (ct_storage_share_memory_(s) == CT_OK) {
    CHECK(ct_storage_is_shared(s));
    CHECK(((const float *)ct_data_ptr(t))[3] == 3.0f);
  } else {
    ct_clear_error(); /* no /dev/shm here */
  }
  ct_release(t);
  ct_storage_release(s);
}

int main(void) {
  test_small_tensor_block();
  test_to_dtype();
  test_basics();
  test_clone_copy();
  test_byteswap();
  test_from_blob();
  test_meta();
  test_null_inputs();
  test_out_of_memory();
  return TEST_SUMMARY();
}
