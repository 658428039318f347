/* Out of memory at every allocation point of a call, in turn: for each call below, allocation k fails
   for k = 0, 1, 2, ... until the call succeeds. Every failure must report CT_ERR_OUT_OF_MEMORY, return
   NULL or an error status, and leave the inputs and any in-place target exactly as they were; the
   sanitizer build (LeakSanitizer) proves nothing leaks on any path. */
#include "check.h"
#include "core/internal.h"

/* A snapshot of what a caller can observe of a tensor: geometry and every byte of its storage. */
typedef struct snapshot {
  int64_t ndim, offset, sizes[8], strides[8];
  ct_dtype dtype;
  size_t nbytes;
  unsigned char bytes[256];
} snapshot;

static snapshot take(const ct_tensor *t) {
  snapshot s = {.ndim = ct_dim(t), .offset = ct_storage_offset(t), .dtype = ct_dtype_of(t)};
  for (int64_t i = 0; i < s.ndim && i < 8; i++) s.sizes[i] = ct_sizes(t)[i], s.strides[i] = ct_strides(t)[i];
  s.nbytes = t->storage->nbytes < sizeof s.bytes ? t->storage->nbytes : sizeof s.bytes;
  if (t->storage->data) memcpy(s.bytes, t->storage->data, s.nbytes);
  return s;
}

static bool same(const snapshot *a, const ct_tensor *t) {
  snapshot b = take(t);
  return a->ndim == b.ndim && a->offset == b.offset && a->dtype == b.dtype && a->nbytes == b.nbytes &&
         memcmp(a->sizes, b.sizes, sizeof a->sizes) == 0 && memcmp(a->strides, b.strides, sizeof a->strides) == 0 &&
         memcmp(a->bytes, b.bytes, a->nbytes) == 0;
}

/* The inputs every call may use; x is the target of in-place calls. */
static ct_tensor *x, *y, *ix, *big;

typedef struct call {
  const char *name;
  /* Returns a result to release (tensor calls) or NULL; status calls write *st. */
  ct_tensor *(*run)(ct_status *st);
} call;

#define T_CALL(name, expr) \
  static ct_tensor *name(ct_status *st) { *st = CT_OK; return (expr); }
#define S_CALL(name, expr) \
  static ct_tensor *name(ct_status *st) { *st = (expr); return NULL; }

T_CALL(c_zeros, ct_zeros(CT_SHAPE(3, 4), NULL))
T_CALL(c_full, ct_full(CT_SHAPE(2, 2), CT_DOUBLE(1.5), NULL))
T_CALL(c_arange, ct_arange(CT_INT(0), CT_INT(10), CT_INT(3), NULL))
T_CALL(c_linspace, ct_linspace(CT_DOUBLE(0), CT_DOUBLE(1), 7, NULL))
T_CALL(c_eye, ct_eye_m(3, 4, NULL))
T_CALL(c_from_data, ct_tensor_from_data((const int32_t[]){1, 2, 3}, CT_INT32, CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64}))
T_CALL(c_empty_like, ct_empty_like(ct_t(x), NULL))
T_CALL(c_transpose, ct_transpose(x, 0, 1))
T_CALL(c_view, ct_view(x, CT_SHAPE(4, 3)))
T_CALL(c_reshape_copy, ct_reshape(ct_t(x), CT_SHAPE(12)))
T_CALL(c_permute, ct_permute(big, CT_DIMS(2, 0, 1)))
T_CALL(c_expand, ct_expand(y, CT_SHAPE(3, 3, 4)))
T_CALL(c_slice, ct_slice(x, 1, 1, CT_END, 2))
T_CALL(c_unfold, ct_unfold(x, 1, 2, 1))
T_CALL(c_to, ct_to_dtype(x, CT_FLOAT16))
T_CALL(c_clone, ct_clone(ct_t(x), CT_MEMORY_FORMAT_UNSET))
T_CALL(c_contiguous, ct_contiguous(ct_t(x), CT_CONTIGUOUS_FORMAT))
T_CALL(c_add, ct_add(x, y, NULL))
T_CALL(c_add_promote, ct_add(ix, ct_t(ct_view(x, CT_SHAPE(4, 3))), NULL))
T_CALL(c_mul_scalar, ct_mul(x, ct_wrapped_scalar(CT_DOUBLE(2.0))))
T_CALL(c_big_rank, ct_add(big, ct_unsqueeze(y, 0), NULL))
S_CALL(c_copy_, ct_copy_(x, ct_t(ct_view(y, CT_SHAPE(4, 1)))))
S_CALL(c_add_, ct_add_(x, ct_t(ct_view(ct_transpose(x, 0, 1), CT_SHAPE(4, 3))), NULL))
S_CALL(c_resize_, ct_resize_(x, CT_SHAPE(5, 7), CT_MEMORY_FORMAT_UNSET))
S_CALL(c_unsqueeze_set, ct_set_(x, ct_unsqueeze(ct_unsqueeze(big, 0), 0)))

/* Inside the test's scope the scope owns the list and its tensors. */
static ct_tensor *c_split(ct_status *st) {
  *st = CT_OK;
  ct_tensor_list *l = ct_split(x, 2, 1);
  return l ? l->items[0] : NULL;
}

static const call calls[] = {
    {"zeros", c_zeros},       {"full", c_full},         {"arange", c_arange},     {"linspace", c_linspace},
    {"eye", c_eye},           {"from_data", c_from_data}, {"empty_like", c_empty_like}, {"transpose", c_transpose},
    {"view", c_view},         {"reshape (copy)", c_reshape_copy}, {"permute", c_permute}, {"expand", c_expand},
    {"slice", c_slice},       {"unfold", c_unfold},     {"to", c_to},             {"clone", c_clone},
    {"contiguous", c_contiguous}, {"add", c_add},       {"add (promoting)", c_add_promote},
    {"mul (scalar)", c_mul_scalar}, {"add (rank 4)", c_big_rank}, {"split", c_split}, {"copy_", c_copy_},
    {"add_", c_add_},         {"resize_", c_resize_},   {"set_", c_unsqueeze_set},
};

static void make_inputs(void) {
  float v[12];
  for (int i = 0; i < 12; i++) v[i] = (float)i - 3.5f;
  x = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(3, 4), NULL);
  y = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(4), NULL);
  ix = ct_view(ct_arange(CT_INT(0), CT_INT(12), CT_INT(1), &(ct_tensor_opts){.dtype = CT_INT32}), CT_SHAPE(3, 4));
  big = ct_ones(CT_SHAPE(2, 3, 4), NULL);
}

int main(void) {
  ct_scope_begin(); /* owns the inputs and the intermediate views made inside calls */
  make_inputs();
  for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
    int failures = 0;
    bool done = false;
    for (int64_t k = 0; k < 200 && !done; k++) {
      snapshot sx = take(x), sy = take(y), six = take(ix), sbig = take(big);
      ct_scope_begin();
      ct_debug_fail_allocation_at(k);
      ct_status st;
      ct_tensor *r = calls[c].run(&st); /* owned by the scope */
      ct_debug_fail_allocation_at(-1);
      bool ok = r != NULL || (st == CT_OK && ct_last_error() == CT_OK);
      ct_scope_end(); /* releases r and everything the call made */
      if (ok) {
        done = true;
        break;
      }
      failures++;
      if (ct_last_error() != CT_ERR_OUT_OF_MEMORY)
        fprintf(stderr, "%s, failing allocation %lld: %s\n", calls[c].name, (long long)k, ct_last_error_message());
      CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
      CHECK(same(&sx, x) && same(&sy, y) && same(&six, ix) && same(&sbig, big));
    }
    CHECK(done);
    if (failures == 0) fprintf(stderr, "%s made no allocation at all\n", calls[c].name);
    CHECK(failures > 0);
    /* in-place calls that succeeded changed x: rebuild the inputs for the next call */
    make_inputs();
  }
  ct_scope_end();
  return TEST_SUMMARY();
}
