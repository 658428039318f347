/* Scans: values, dtypes, layouts, edge cases and messages (expected values and texts from torch 1.13),
   thread-count independence, out= and in-place rules, and out-of-memory at every allocation point. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/cpu_isa.h"
#include "core/internal.h"
#include "ops/scan/scan.h"

static ct_tensor *f32(const float *v, ct_shape shape) { return ct_tensor_from_data(v, CT_FLOAT32, shape, NULL); }

/* Elements of t (any layout) as doubles / int64s, in row-major order. */
static void values_f64(const ct_tensor *t, double *out, size_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_FLOAT64, n * sizeof *out) == CT_OK);
}
static void values_i64(const ct_tensor *t, int64_t *out, size_t n) {
  CHECK(ct_copy_to_buffer(t, out, CT_INT64, n * sizeof *out) == CT_OK);
}

#define CHECK_F64S(t, ...)                                                    \
  do {                                                                        \
    const double e_[] = {__VA_ARGS__};                                        \
    double g_[sizeof e_ / sizeof e_[0]];                                      \
    values_f64((t), g_, sizeof e_ / sizeof e_[0]);                            \
    for (size_t i_ = 0; i_ < sizeof e_ / sizeof e_[0]; i_++)                  \
      CHECK(g_[i_] == e_[i_] || (isnan(g_[i_]) && isnan(e_[i_])));            \
  } while (0)
#define CHECK_I64S(t, ...)                                                    \
  do {                                                                        \
    const int64_t e_[] = {__VA_ARGS__};                                       \
    int64_t g_[sizeof e_ / sizeof e_[0]];                                     \
    values_i64((t), g_, sizeof e_ / sizeof e_[0]);                            \
    for (size_t i_ = 0; i_ < sizeof e_ / sizeof e_[0]; i_++) CHECK_EQ_INT(g_[i_], e_[i_]); \
  } while (0)

static const float X23[6] = {1.5f, -2.25f, 3.0f, 0.5f, 4.0f, -1.0f};

static void test_values_and_layout(void) {
  ct_scope_begin();
  ct_tensor *x = f32(X23, CT_SHAPE(2, 3));
  CHECK_F64S(ct_cumsum(x, 0, NULL), 1.5, -2.25, 3.0, 2.0, 1.75, 2.0);
  CHECK_F64S(ct_cumsum(x, -1, NULL), 1.5, -0.75, 2.25, 0.5, 4.5, 3.5);
  CHECK_F64S(ct_cumprod(x, 1, NULL), 1.5, -3.375, -10.125, 0.5, 2.0, -2.0);
  /* a transposed input gives a contiguous result (PyTorch allocates it contiguous) */
  ct_tensor *r = ct_cumsum(ct_t(x), 1, NULL);
  CHECK_SHAPE(r, 3, 2);
  CHECK_STRIDES(r, 2, 1);
  CHECK_F64S(r, 1.5, 2.0, -2.25, 1.75, 3.0, 2.0);
  ct_tensor *v = NULL, *i = NULL;
  CHECK(ct_cummax(ct_t(x), 0, &v, &i) == CT_OK);
  CHECK_STRIDES(v, 2, 1);
  CHECK_STRIDES(i, 2, 1);
  CHECK_EQ_INT(ct_dtype_of(i), CT_INT64);
  /* expanded input */
  ct_tensor *col = f32((const float[]){1, 2, 3}, CT_SHAPE(3, 1));
  r = ct_cumsum(ct_expand(col, CT_SHAPE(3, 4)), 1, NULL);
  CHECK_STRIDES(r, 4, 1);
  CHECK_F64S(r, 1, 2, 3, 4, 2, 4, 6, 8, 3, 6, 9, 12);
  ct_scope_end();
}

static void test_dtypes(void) {
  ct_scope_begin();
  ct_tensor *i8 = ct_tensor_from_data((const int8_t[]){100, 100, 100}, CT_INT8, CT_SHAPE(3), NULL);
  ct_tensor *r = ct_cumsum(i8, 0, NULL);
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  CHECK_I64S(r, 100, 200, 300);
  r = ct_cumsum(i8, 0, &(ct_scan_opts){.dtype = CT_INT8});
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT8);
  CHECK_I64S(r, 100, -56, 44); /* wraps as PyTorch's int64 accumulator cast back does */
  ct_tensor *u8 = ct_tensor_from_data((const uint8_t[]){7, 7, 7, 7}, CT_UINT8, CT_SHAPE(4), NULL);
  CHECK_I64S(ct_cumprod(u8, 0, &(ct_scan_opts){.dtype = CT_UINT8}), 7, 49, 87, 97);
  ct_tensor *b = ct_tensor_from_data((const bool[]){true, false, true}, CT_BOOL, CT_SHAPE(3), NULL);
  r = ct_cumsum(b, 0, NULL);
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  CHECK_I64S(r, 1, 1, 2);
  r = ct_cumsum(f32((const float[]){1, 2}, CT_SHAPE(2)), 0, &(ct_scan_opts){.dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT64);
  /* bfloat16 accumulates in float: 1 + 2.5 + 3 */
  ct_tensor *bf = ct_to_dtype(f32((const float[]){1.0f, 2.5f, 3.0f}, CT_SHAPE(3)), CT_BFLOAT16);
  uint16_t bits[3];
  CHECK(ct_copy_to_buffer(ct_cumsum(bf, 0, NULL), bits, CT_BFLOAT16, sizeof bits) == CT_OK);
  CHECK(bits[0] == 16256 && bits[1] == 16480 && bits[2] == 16592);
  /* complex: c10::complex arithmetic */
  const float z[6] = {1, 2, 3, -1, -0.5f, 0.25f};
  ct_tensor *c = ct_tensor_from_data(z, CT_COMPLEX64, CT_SHAPE(3), NULL);
  float got[6];
  CHECK(ct_copy_to_buffer(ct_cumprod(c, 0, NULL), got, CT_COMPLEX64, sizeof got) == CT_OK);
  CHECK(got[0] == 1 && got[1] == 2 && got[2] == 5 && got[3] == 5 && got[4] == -3.75f && got[5] == -1.25f);
  CHECK(ct_copy_to_buffer(ct_cumsum(c, 0, NULL), got, CT_COMPLEX64, sizeof got) == CT_OK);
  CHECK(got[2] == 4 && got[3] == 1 && got[4] == 3.5f && got[5] == 1.25f);

  /* kernels PyTorch 1.13 lacks */
  ct_tensor *h = ct_to_dtype(f32(X23, CT_SHAPE(6)), CT_FLOAT16);
  CHECK(ct_cumsum(h, 0, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"cumsum_out_cpu\" not implemented for 'Half'");
  CHECK(ct_cumprod(b, 0, &(ct_scan_opts){.dtype = CT_BOOL}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"cumprod_out_cpu\" not implemented for 'Bool'");
  CHECK(ct_logcumsumexp(i8, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not implemented for 'Char'");
  CHECK(ct_cummax(c, 0, &r, NULL) == CT_ERR_RUNTIME && r == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"cummax_cpu\" not implemented for 'ComplexFloat'");
  CHECK(ct_cummin(h, 0, NULL, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"cummin_cpu\" not implemented for 'Half'");
  ct_scope_end();
}

/* Scans down 1 to 5 contiguous columns (a few columns keep their running values in registers) against
   plain loops: cumsum of small integers (exact), cummax with ties (the index moves to the latest equal
   value) and NaN (it takes over, and the index follows the latest NaN). */
static void test_few_columns(void) {
  enum { R = 50 };
  for (int64_t c = 1; c <= 5; c++) {
    ct_scope_begin();
    float v[R * 5];
    for (int64_t i = 0; i < R * c; i++) v[i] = (float)((i * 7) % 5);
    v[17 * c] = NAN;
    v[31 * c + c - 1] = NAN;
    ct_tensor *x = f32(v, CT_SHAPE(R, c)), *mx = NULL, *ix = NULL;
    double sum[R * 5], got_max[R * 5];
    int64_t got_ix[R * 5];
    values_f64(ct_cumsum(x, 0, NULL), sum, (size_t)(R * c));
    CHECK(ct_cummax(x, 0, &mx, &ix) == CT_OK);
    values_f64(mx, got_max, (size_t)(R * c));
    values_i64(ix, got_ix, (size_t)(R * c));
    int bad = 0;
    for (int64_t j = 0; j < c; j++) {
      double s = 0, best = v[j];
      int64_t at = 0;
      for (int64_t i = 0; i < R; i++) {
        double x_ = v[i * c + j];
        s += x_;
        if (x_ != x_ || (best == best && x_ >= best)) best = x_, at = i;
        bad += !(s != s ? sum[i * c + j] != sum[i * c + j] : sum[i * c + j] == s);
        bad += !(best != best ? got_max[i * c + j] != got_max[i * c + j] : got_max[i * c + j] == best);
        bad += got_ix[i * c + j] != at;
      }
    }
    CHECK(bad == 0);
    ct_scope_end();
  }
}

static void test_edges(void) {
  ct_scope_begin();
  /* 0-dim: a checked copy of the value; cummax/cummin never look at dim */
  ct_tensor *s = ct_scalar_tensor(CT_INT(300), &(ct_tensor_opts){.dtype = CT_INT32});
  ct_tensor *r = ct_cumsum(s, -1, NULL);
  CHECK_EQ_INT(ct_dim(r), 0);
  CHECK_EQ_INT(ct_dtype_of(r), CT_INT64);
  CHECK_I64S(r, 300);
  CHECK(ct_cumsum(s, 0, &(ct_scan_opts){.dtype = CT_UINT8}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(ct_cumsum(s, 1, NULL) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  ct_tensor *h0 = ct_scalar_tensor(CT_DOUBLE(2.5), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  CHECK(ct_cumsum(h0, 0, NULL) != NULL); /* no kernel needed for a 0-dim input */
  ct_tensor *v = NULL, *i = NULL;
  CHECK(ct_cummax(s, 7, &v, &i) == CT_OK);
  CHECK_I64S(v, 300);
  CHECK_I64S(i, 0);
  CHECK(ct_logcumsumexp(h0, 0) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"logcumsumexp_out_cpu\" not implemented for 'Half'");
  /* empty */
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  r = ct_cumsum(e, 1, NULL);
  CHECK_SHAPE(r, 0, 3);
  CHECK(ct_cummin(e, 5, &v, &i) == CT_OK);
  CHECK_SHAPE(i, 0, 3);
  CHECK(ct_cumsum(e, 2, NULL) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  /* NaN and ties: the index follows the latest NaN and the last equal value */
  const float w[7] = {1, 3, 3, NAN, 5, NAN, 0};
  ct_tensor *x = f32(w, CT_SHAPE(7));
  CHECK(ct_cummax(x, 0, &v, &i) == CT_OK);
  CHECK_F64S(v, 1, 3, 3, NAN, NAN, NAN, NAN);
  CHECK_I64S(i, 0, 1, 2, 3, 3, 5, 5);
  CHECK(ct_cummin(x, 0, NULL, &i) == CT_OK);
  CHECK_I64S(i, 0, 0, 0, 3, 3, 5, 5);
  ct_tensor *ties = ct_tensor_from_data((const int64_t[]){1, 3, 3, 2, 3, 0, 0}, CT_INT64, CT_SHAPE(7), NULL);
  CHECK(ct_cummax(ties, 0, NULL, &i) == CT_OK);
  CHECK_I64S(i, 0, 1, 2, 2, 4, 4, 4);
  CHECK(ct_cummin(ties, 0, NULL, &i) == CT_OK);
  CHECK_I64S(i, 0, 0, 0, 0, 0, 5, 6);
  /* logcumsumexp: -inf contributes nothing, equal infinities stay put */
  r = ct_logcumsumexp(f32((const float[]){0, 1, -INFINITY, 2}, CT_SHAPE(4)), 0);
  float got[4];
  CHECK(ct_copy_to_buffer(r, got, CT_FLOAT32, sizeof got) == CT_OK);
  CHECK(got[0] == 0 && got[1] == 0x1.5031eap+0f && got[2] == got[1] && got[3] == 0x1.342c6ep+1f);
  /* meta: cumsum/cumprod run PyTorch's meta function (geometry and checks only); cummax/cummin have
     no meta kernel once there is something to scan; logcumsumexp has none at all */
  ct_tensor *m = ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_INT32, .device = CT_DEVICE_META});
  r = ct_cumsum(ct_t(m), 0, NULL);
  CHECK(r && ct_device_of(r).type == CT_META && ct_dtype_of(r) == CT_INT64);
  CHECK_STRIDES(r, 2, 1);
  CHECK(ct_cumprod(m, 2, NULL) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CHECK(ct_cummax(m, 0, &v, &i) == CT_ERR_NOT_IMPLEMENTED);
  CHECK(strncmp(ct_last_error_message(), "Could not run 'aten::_cummax_helper' with arguments from the 'Meta'", 67) == 0);
  ct_clear_error();
  CHECK(ct_cummin(ct_slice(m, 0, 0, 0, 1), 0, &v, &i) == CT_OK && ct_device_of(i).type == CT_META);
  CHECK(ct_logcumsumexp(ct_to_dtype(m, CT_FLOAT32), 9) == NULL);
  CHECK(strncmp(ct_last_error_message(), "Could not run 'aten::_logcumsumexp'", 35) == 0);
  ct_clear_error();
  const float infs[3] = {-INFINITY, -INFINITY, INFINITY};
  CHECK_F64S(ct_logcumsumexp(f32(infs, CT_SHAPE(3)), 0), -INFINITY, -INFINITY, INFINITY);
  ct_scope_end();
}

static void test_out_and_inplace(void) {
  ct_scope_begin();
  ct_tensor *x = f32(X23, CT_SHAPE(2, 3));
  /* out= of another shape is resized; a non-contiguous one of the right shape is written in place */
  ct_tensor *o = ct_empty(CT_SHAPE(5), NULL);
  CHECK(ct_cumsum_out(o, x, 1, NULL) == CT_OK);
  CHECK_SHAPE(o, 2, 3);
  CHECK_STRIDES(o, 3, 1);
  ct_tensor *ot = ct_t(ct_empty(CT_SHAPE(3, 2), NULL));
  CHECK(ct_cumsum_out(ot, x, 1, NULL) == CT_OK);
  CHECK_STRIDES(ot, 1, 2);
  CHECK_F64S(ot, 1.5, -0.75, 2.25, 0.5, 4.5, 3.5);
  /* out's dtype is the result dtype; the dtype option must agree with it */
  ct_tensor *oi = ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_cumsum_out(oi, x, 1, NULL) == CT_OK);
  CHECK_I64S(oi, 1, -1, 2, 0, 4, 3); /* the input is converted to int first */
  CHECK(ct_cumsum_out(oi, x, 1, &(ct_scan_opts){.dtype = CT_FLOAT64}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype double, but got int instead");
  CHECK(ct_cumsum_(x, 0, &(ct_scan_opts){.dtype = CT_INT64}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Bad in-place call: input tensor dtype float and output tensor dtype long int should match");
  CHECK(ct_logcumsumexp_out(ct_empty(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_FLOAT64}), x, 0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected scalar_type Float but found Double");
  ct_tensor *li = ct_empty(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_cummax_out(ct_empty(CT_SHAPE(1), NULL), li, x, 0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected scalar_type Long but found Int");
  /* overlap: an expanded out, or one partly over the input */
  ct_tensor *ex = ct_expand(ct_empty(CT_SHAPE(1, 3), NULL), CT_SHAPE(2, 3));
  CHECK(ct_cumsum_out(ex, x, 1, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor refers to a "
                              "single memory location. Please clone() the tensor before performing the operation.");
  ct_tensor *line = ct_arange(CT_INT(0), CT_INT(8), CT_INT(1), &(ct_tensor_opts){.dtype = CT_FLOAT32});
  CHECK(ct_cumsum_out(ct_slice(line, 0, 2, CT_END, 1), ct_slice(line, 0, 0, 6, 1), 0, NULL) == CT_ERR_RUNTIME);
  /* torch 1.13: torch.cumsum(x[0:6], 0, out=x[2:]) */
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to tensor "
                              "refer to a single memory location. Please clone() the tensor before performing the "
                              "operation.");
  double before[8];
  values_f64(line, before, 8);
  CHECK(before[0] == 0 && before[7] == 7); /* the failed calls wrote nothing */
  /* cummax has no overlap check: PyTorch's serial order over an overlapping out */
  ct_tensor *vi = ct_empty(CT_SHAPE(6), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK(ct_cummax_out(ct_slice(line, 0, 2, CT_END, 1), vi, ct_slice(line, 0, 0, 6, 1), 0) == CT_OK);
  CHECK_F64S(line, 0, 1, 0, 1, 1, 1, 1, 1);
  CHECK_I64S(vi, 0, 1, 1, 3, 4, 5);
  /* in place, also on a transposed view */
  ct_tensor *y = ct_clone(x, CT_MEMORY_FORMAT_UNSET);
  CHECK(ct_cumsum_(ct_t(y), 0, NULL) == CT_OK);
  CHECK_F64S(y, 1.5, -0.75, 2.25, 0.5, 4.5, 3.5);
  CHECK(ct_cumprod_(y, 0, NULL) == CT_OK);
  CHECK_F64S(y, 1.5, -0.75, 2.25, 0.75, -3.375, 7.875);
  /* a failed call leaves out alone: shape and values */
  ct_tensor *keep = ct_zeros(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  CHECK(ct_cumsum_out(keep, ct_to_dtype(x, CT_FLOAT16), 0, NULL) == CT_ERR_RUNTIME);
  ct_clear_error();
  CHECK_SHAPE(keep, 4);
  ct_scope_end();
}

static void test_null_and_scopes(void) {
  ct_clear_error();
  ct_tensor *v = (ct_tensor *)1, *i = (ct_tensor *)1;
  CHECK(ct_cumsum(NULL, 0, NULL) == NULL);
  CHECK(ct_cumsum_(NULL, 0, NULL) != CT_OK);
  CHECK(ct_logcumsumexp(NULL, 0) == NULL);
  CHECK(ct_cummax(NULL, 0, &v, &i) != CT_OK && v == NULL && i == NULL);
  /* NULL inputs keep a recorded error (the first: ct_cumsum's entry guard names its parameter t); with none, a
     status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 't' is NULL");
  /* outside a scope the caller owns both results */
  ct_tensor *x = f32(X23, CT_SHAPE(6));
  CHECK(ct_cummin(x, 0, &v, &i) == CT_OK);
  CHECK_EQ_INT(ct_refcount(v), 1);
  ct_release(v);
  ct_release(i);
  ct_release(x);
}

/* Same dtype, shape and element bits. */
static bool same_bits(const ct_tensor *a, const ct_tensor *b) {
  if (!a || !b || ct_dtype_of(a) != ct_dtype_of(b) || ct_numel(a) != ct_numel(b) || ct_dim(a) != ct_dim(b)) return false;
  size_t n = (size_t)ct_numel(a) * ct__itemsize(ct_dtype_of(a));
  char *x = malloc(n ? n : 1), *y = malloc(n ? n : 1);
  bool ok = x && y && ct_copy_to_buffer(a, x, ct_dtype_of(a), n) == CT_OK &&
            ct_copy_to_buffer(b, y, ct_dtype_of(b), n) == CT_OK && memcmp(x, y, n) == 0;
  free(x);
  free(y);
  return ok;
}

/* xorshift values: normal-like floats with full mantissas (the data where association matters). */
static void fill_random(float *v, int64_t n) {
  uint64_t s = 88172645463325252ull;
  for (int64_t k = 0; k < n; k++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    v[k] = ((float)(s >> 40) * 0x1p-24f - 0.5f) * 8.0f + (float)(s & 7) * 0x1p-20f;
  }
}

/* Results must not depend on the thread count, the vector code path, or in place vs out of place. */
static void test_threads(void) {
  ct_scope_begin();
  const int64_t n = (1 << 20) + 77;
  float *v = malloc((size_t)n * sizeof *v);
  fill_random(v, n);
  ct_tensor *x = f32(v, CT_SHAPE(n)), *m = ct_reshape(ct_slice(x, 0, 0, 1 << 20, 1), CT_SHAPE(1024, 1024));
  ct_set_num_threads(1);
  ct_tensor *a = ct_cumsum(x, 0, NULL), *am = ct_cumsum(m, 0, NULL), *am1 = ct_cumprod(m, 1, NULL);
  ct_tensor *lm = ct_logcumsumexp(m, 0), *vm = NULL;
  CHECK(ct_cummax(m, 1, &vm, NULL) == CT_OK);
  ct_set_num_threads(2);
  ct_tensor *b = ct_cumsum(x, 0, NULL);
  CHECK(same_bits(a, b));
  CHECK(same_bits(am, ct_cumsum(m, 0, NULL)));
  CHECK(same_bits(am1, ct_cumprod(m, 1, NULL)));
  CHECK(same_bits(lm, ct_logcumsumexp(m, 0)));
  ct_tensor *vm2 = NULL;
  CHECK(ct_cummax(m, 1, &vm2, NULL) == CT_OK && same_bits(vm, vm2));
  ct_set_num_threads(3); /* more threads than cores: other chunk bounds, same result */
  CHECK(same_bits(a, ct_cumsum(x, 0, NULL)));
  ct__cpu_force_isa(CT_ISA_GENERIC);
  CHECK(same_bits(a, ct_cumsum(x, 0, NULL)));
  ct__cpu_force_isa(-1);
  ct_tensor *y = ct_clone(x, CT_MEMORY_FORMAT_UNSET);
  CHECK(ct_cumsum_(y, 0, NULL) == CT_OK && same_bits(a, y));
  ct_set_num_threads(0);
  /* the long-line scan equals PyTorch's sequential double sum on this data, element for element */
  float last;
  CHECK(ct_copy_to_buffer(ct_slice(a, 0, n - 1, n, 1), &last, CT_FLOAT32, sizeof last) == CT_OK);
  double s = 0.0;
  int64_t differ = 0;
  float *got = malloc((size_t)n * sizeof *got);
  CHECK(ct_copy_to_buffer(a, got, CT_FLOAT32, (size_t)n * sizeof *got) == CT_OK);
  for (int64_t k = 0; k < n; k++) {
    s += (double)v[k];
    differ += got[k] != (float)s;
  }
  CHECK_EQ_INT(differ, 0);
  free(got);
  free(v);
  ct_scope_end();
}

/* Out of memory at each allocation point in turn: an error, nothing leaked (LSan), out unchanged. */
static void test_faults(void) {
  ct_tensor *x = f32(X23, CT_SHAPE(2, 3)), *big = ct_zeros(CT_SHAPE(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3), NULL);
  ct_tensor *i32 = ct_to_dtype(x, CT_INT32);
  for (int op = 0; op < 7; op++) {
    for (int64_t k = 0; k < 64; k++) {
      ct_tensor *out = ct_empty(CT_SHAPE(4), NULL), *idx = ct_empty(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_INT64});
      ct_tensor *r = NULL, *v = NULL, *i = NULL;
      ct_status st = CT_OK;
      ct_debug_fail_allocation_at(k);
      switch (op) {
        case 0: r = ct_cumsum(i32, 1, NULL), st = r ? CT_OK : ct_last_error(); break;
        case 1: st = ct_cumsum_out(out, x, 0, NULL); break;
        case 2: st = ct_cumprod_out(out, big, -1, NULL); break;
        case 3: r = ct_logcumsumexp(big, 18), st = r ? CT_OK : ct_last_error(); break;
        case 4: st = ct_cummax(x, 1, &v, &i); break;
        case 5: st = ct_cummin_out(out, idx, big, 17); break;
        default: r = ct_cumsum(x, 0, &(ct_scan_opts){.dtype = CT_FLOAT64}), st = r ? CT_OK : ct_last_error(); break;
      }
      ct_debug_fail_allocation_at(-1);
      bool done = st == CT_OK;
      if (!done) {
        CHECK_EQ_INT(st, CT_ERR_OUT_OF_MEMORY);
        CHECK_EQ_INT(ct_numel(out), 4); /* out= targets untouched */
        CHECK_EQ_INT(ct_numel(idx), 4);
        ct_clear_error();
      }
      ct_release(r);
      ct_release(v);
      ct_release(i);
      ct_release(out);
      ct_release(idx);
      if (done) break;
    }
  }
  ct_release(x);
  ct_release(big);
  ct_release(i32);
}

int main(void) {
  test_values_and_layout();
  test_dtypes();
  test_edges();
  test_few_columns();
  test_out_and_inplace();
  test_null_and_scopes();
  test_threads();
  test_faults();
  return TEST_SUMMARY();
}
