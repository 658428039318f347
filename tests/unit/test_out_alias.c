/* out= tensors that alias an input, overlap it, repeat elements or sit on another device (issue 13 items
   1, 2, 10, 20). Expected values and messages are torch 1.13's (run with /usr/bin/python3), except where a
   comment names ctorch's documented choice for a case whose result in PyTorch depends on its loop order. */
#include <math.h>

#include "check.h"

#define PARTIAL                                                                                              \
  "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory " \
  "location. Please clone() the tensor before performing the operation."
#define INTERNAL                                                                                               \
  "unsupported operation: more than one element of the written-to tensor refers to a single memory location. " \
  "Please clone() the tensor before performing the operation."

static ct_tensor *f32(const float *v, ct_shape shape) { return ct_tensor_from_data(v, CT_FLOAT32, shape, NULL); }
static ct_tensor *x23(void) { return f32((const float[]){1, 2, 3, 4, 5, 6}, CT_SHAPE(2, 3)); }
static ct_tensor *y3(void) { return f32((const float[]){10, 20, 30}, CT_SHAPE(3)); }
static const ct_tensor_opts meta_opts = {.device = {CT_META, -1}};

#define CHECK_F64S(t, ...)                                                                 \
  do {                                                                                     \
    const double e_[] = {__VA_ARGS__};                                                     \
    double g_[sizeof e_ / sizeof e_[0]];                                                   \
    CHECK_EQ_INT(ct_numel(t), (int64_t)(sizeof e_ / sizeof e_[0]));                        \
    CHECK(ct_copy_to_buffer((t), g_, CT_FLOAT64, sizeof g_) == CT_OK);                     \
    for (size_t i_ = 0; i_ < sizeof e_ / sizeof e_[0]; i_++)                               \
      if (!(g_[i_] == e_[i_] || (isnan(g_[i_]) && isnan(e_[i_])))) {                       \
        CHECK(g_[i_] == e_[i_]);                                                           \
        fprintf(stderr, "  element %zu: got %.17g expected %.17g\n", i_, g_[i_], e_[i_]); \
      }                                                                                    \
  } while (0)

#define RESIZE_MSG "output with shape [3] doesn't match the broadcast shape [2, 3]"

/* Item 1: an out= that is one of the inputs is never resized (TensorIterator's is_read_write): the call
   fails with PyTorch's message and y keeps its shape and values (before: y was resized under the loop). */
static void test_pointwise_out_is_input(void) {
  ct_scope_begin();
  ct_tensor *x = x23(), *y = y3();
  CHECK(ct_add_out(y, x, y, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_mul_out(y, y, x) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_where_out(y, ct_gt(x, ct_scalar_tensor(ct_scalar_int(2), NULL)), x, y) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_clamp_out(y, y, x, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_clamp_out(y, x, y, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_lt_out(y, x, y) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_addcmul_out(y, y, x, x, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_atan2_out(y, x, y) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_div_out(y, x, y, &(ct_div_opts){"floor"}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_lerp_out(y, y, x, ct_scalar_tensor(ct_scalar_double(0.5), NULL)) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK(ct_lerp_out(y, x, x, y) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK_EQ_INT(ct_dim(y), 1);
  CHECK_F64S(y, 10, 20, 30);
  /* a 0-dim out that is an input */
  ct_tensor *y0 = ct_scalar_tensor(ct_scalar_double(5), NULL);
  CHECK(ct_add_out(y0, x, y0, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape [2, 3]");
  CHECK_EQ_INT(ct_dim(y0), 0);
  CHECK_F64S(y0, 5);
  /* an out of another dtype than the computation (the cast-through-a-temporary route) */
  ct_tensor *y2 = y3();
  CHECK(ct_add_out(y2, y2, ct_to_dtype(x, CT_FLOAT64), NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, RESIZE_MSG);
  CHECK_F64S(y2, 10, 20, 30);
  ct_scope_end();
}

/* Item 1, a view of an input as out, to be resized over memory the input still reads: PyTorch resizes it
   and its result depends on the loop order and threads (add(ones(4, 100000), y, out=y[:]) at two threads
   gives rows 1, 2, 1, 1). ctorch's choice: PyTorch's partial-overlap error, before anything changes. */
static void test_pointwise_view_resized_over_input(void) {
  ct_scope_begin();
  ct_tensor *x = x23(), *y = y3();
  ct_tensor *v = ct_slice(y, 0, 0, 3, 1);
  CHECK(ct_add_out(v, x, y, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, PARTIAL);
  CHECK_EQ_INT(ct_dim(v), 1);
  CHECK_F64S(y, 10, 20, 30);
  /* a view resized over memory no input reads: fine (neg(x[0], out=x[1, :2]) gives [[1, 2, 3], [-1, -2, -3]]) */
  ct_tensor *x2 = x23();
  CHECK(ct_neg_out(ct_slice(ct_select(x2, 0, 1), 0, 0, 2, 1), ct_select(x2, 0, 0)) == CT_OK);
  CHECK_F64S(x2, 1, 2, 3, -1, -2, -3);
  /* an out resized to a shape no storage holds fails as torch's resize does, before the overlap is looked
     at: erfinv(z.expand(2^63 - 2), out=z) (the overlap test multiplied past int64 there: UBSan, fuzz run) */
  ct_tensor *z = ct_zeros(CT_SHAPE(1), NULL);
  CHECK(ct_erfinv_out(z, ct_broadcast_to(z, CT_SHAPE(INT64_MAX - 1))) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[9223372036854775806]");
  CHECK_EQ_INT(ct_numel(z), 1);
  ct_scope_end();
}

/* Item 2: reductions into an aliased, overlapping or expanded out (values from torch 1.13). */
static void test_reduce_alias(void) {
  ct_scope_begin();
  /* the input itself as out: PyTorch resizes it, fills it with the identity and reduces that */
  ct_tensor *x3 = f32((const float[]){1, 2, 3, 4}, CT_SHAPE(4));
  CHECK(ct_sum_out(x3, x3, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_EQ_INT(ct_dim(x3), 0);
  CHECK_F64S(x3, 0);
  x3 = f32((const float[]){1, 2, 3, 4}, CT_SHAPE(4));
  CHECK(ct_amax_out(x3, x3, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x3, -INFINITY);
  x3 = f32((const float[]){1, 2, 3, 4}, CT_SHAPE(4));
  CHECK(ct_prod_out(x3, x3, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x3, 1);
  /* logsumexp computes through temporaries: the true value */
  x3 = f32((const float[]){1, 2, 3, 4}, CT_SHAPE(4));
  CHECK(ct_logsumexp_out(x3, x3, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x3, (double)4.440189838409424f);
  /* a row of the input as out: filled with the identity first, so row 0 counts as the identity */
  ct_tensor *x = x23();
  CHECK(ct_sum_out(ct_select(x, 0, 0), x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x, 4, 5, 6, 4, 5, 6);
  x = x23();
  CHECK(ct_mean_out(ct_select(x, 0, 0), x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x, 2, 2.5, 3, 4, 5, 6);
  x = x23();
  CHECK(ct_prod_out(ct_select(x, 0, 0), x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x, 4, 5, 6, 4, 5, 6);
  x = x23();
  CHECK(ct_sum_out(ct_select(x, 1, 0), x, &(ct_reduce_opts){.dims = CT_DIMS(1)}) == CT_OK);
  CHECK_F64S(x, 5, 2, 3, 11, 5, 6);
  /* kernels that write at the end: the values of the input as it was */
  x = x23();
  CHECK(ct_var_out(ct_select(x, 0, 0), x, &(ct_var_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x, 4.5, 4.5, 4.5, 4, 5, 6);
  ct_tensor *xl = ct_tensor_from_data((const int64_t[]){3, 1, 2, 0, 5, 4}, CT_INT64, CT_SHAPE(2, 3), NULL);
  CHECK(ct_argmax_out(ct_select(xl, 0, 0), xl, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(xl, 0, 1, 1, 0, 5, 4);
  /* an expanded out: its stride-0 dims are reduced too (the whole sum, 21, in every element) */
  x = x23();
  ct_tensor *e = ct_expand(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(3));
  CHECK(ct_sum_out(e, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(e, 21, 21, 21);
  CHECK(ct_prod_out(e, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(e, 720, 720, 720);
  CHECK(ct_amax_out(e, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(e, 6, 6, 6);
  CHECK(ct_var_out(e, x, &(ct_var_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(e, 3.5, 3.5, 3.5);
  /* ... and an element of the input expanded: filled with 0 first, so the sum leaves out x[0][0] */
  x = x23();
  CHECK(ct_sum_out(ct_expand(ct_slice(ct_select(x, 0, 0), 0, 0, 1, 1), CT_SHAPE(3)), x,
                   &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(x, 20, 2, 3, 4, 5, 6);
  /* mean, logsumexp and norm refuse an expanded out (PyTorch's later in-place step does, after writing);
     ctorch refuses before anything is written */
  ct_tensor *z = ct_zeros(CT_SHAPE(1), NULL);
  e = ct_expand(z, CT_SHAPE(3));
  CHECK(ct_mean_out(e, x23(), &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, INTERNAL);
  CHECK(ct_logsumexp_out(e, x23(), &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, INTERNAL);
  CHECK_F64S(z, 0);
  /* 3-d: the expanded last dim joins the reduced one */
  ct_tensor *a = ct_arange(ct_scalar_int(0), ct_scalar_int(24), ct_scalar_int(1), &(ct_tensor_opts){.dtype = CT_FLOAT32});
  a = ct_view(a, CT_SHAPE(2, 3, 4));
  e = ct_expand(ct_zeros(CT_SHAPE(3, 1), NULL), CT_SHAPE(3, 4));
  CHECK(ct_sum_out(e, a, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(e, 60, 60, 60, 60, 92, 92, 92, 92, 124, 124, 124, 124);
  /* bool all/any fill too */
  ct_tensor *b = ct_tensor_from_data((const bool[]){1, 0, 1, 1, 1, 0}, CT_BOOL, CT_SHAPE(2, 3), NULL);
  CHECK(ct_all_out(ct_select(b, 0, 0), b, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_F64S(b, 1, 1, 0, 1, 1, 0);
  ct_scope_end();
}

/* Scans read each element before writing its place, whatever the overlap PyTorch lets through. */
static void test_scan_alias(void) {
  ct_scope_begin();
  ct_tensor *x = x23();
  CHECK(ct_cumsum_out(x, x, 0, NULL) == CT_OK);
  CHECK_F64S(x, 1, 2, 3, 5, 7, 9);
  x = x23();
  CHECK(ct_cumsum_out(ct_slice(ct_select(x, 0, 0), 0, 0, 2, 1), ct_select(x, 1, 0), 0, NULL) == CT_OK);
  CHECK_F64S(x, 1, 5, 3, 4, 5, 6);
  ct_scope_end();
}

/* Item 10: the first operand not on the CPU is the common device, named first. */
static void test_device_order(void) {
  ct_scope_begin();
  ct_tensor *m0 = ct_empty(CT_SHAPE_SCALAR, &meta_opts), *m2 = ct_empty(CT_SHAPE(2), &meta_opts);
  ct_tensor *c2 = ct_ones(CT_SHAPE(2), NULL);
  const char *msg = "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!";
  CHECK(ct_add(c2, m0, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_add(m2, c2, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_add(c2, m2, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_add_out(ct_empty(CT_SHAPE(2), &meta_opts), c2, c2, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  ct_tensor *out = ct_empty(CT_SHAPE(2), NULL);
  CHECK(ct_add_out(out, m2, c2, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  ct_scope_end();
}

/* Item 20: out= forms with a CPU out and a meta input fail before touching out. */
static void test_out_devices(void) {
  ct_scope_begin();
  ct_tensor *m = ct_empty(CT_SHAPE(3), &meta_opts);
  ct_tensor *c = ct_zeros(CT_SHAPE_SCALAR, NULL);
  ct_reduce_opts d0 = {.dims = CT_DIMS(0)};
  const char *msg = "Expected out tensor to have device meta, but got cpu instead";
  CHECK(ct_sum_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_amax_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_mean_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_prod_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_logsumexp_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_argmax_out(ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_INT64}), m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_max_dim_out(c, ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_INT64}), m, 0, NULL) ==
        CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_cumsum_out(c, m, 0, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_cumprod_out(c, m, 0, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK(ct_sum_out(ct_empty(CT_SHAPE_SCALAR, &meta_opts), ct_ones(CT_SHAPE(3), NULL), &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have device cpu, but got meta instead");
  CHECK(ct_logcumsumexp_out(c, m, 0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected device meta but found cpu");
  CHECK(ct_cummax_out(c, ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_INT64}), m, 0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected device meta but found cpu");
  CHECK(ct_cummin_out(ct_zeros(CT_SHAPE_SCALAR, NULL), ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_INT64, .device = {CT_META, -1}}),
                      ct_ones(CT_SHAPE(3), NULL), 0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected device cpu but found meta");
  /* aminmax of a 0-dim input with keepdim resizes its outs to [1] itself: the device check comes first */
  ct_tensor *a2 = ct_zeros(CT_SHAPE(2), NULL), *b2 = ct_zeros(CT_SHAPE(2), NULL);
  CHECK(ct_aminmax_out(a2, b2, ct_empty(CT_SHAPE_SCALAR, &meta_opts), &(ct_reduce_opts){.dims = CT_DIMS(0), .keepdim = true}) ==
        CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);
  CHECK_SHAPE(a2, 2);
  CHECK_SHAPE(b2, 2);
  CHECK(ct_nansum_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Attempting to copy from device meta to device cpu, but cross-device copies are not allowed!");
  CHECK(ct_nanmean_out(c, m, &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
  CHECK(ct_nanmean_out(ct_empty(CT_SHAPE_SCALAR, &meta_opts), ct_ones(CT_SHAPE(3), NULL), &d0) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
  CHECK(ct_var_out(c, m, &(ct_var_opts){.dims = CT_DIMS(0)}) == CT_ERR_NOT_IMPLEMENTED);
  CHECK(strncmp(ct_last_error_message(), "Could not run 'aten::var.correction_out' with arguments from the 'Meta' backend.",
                80) == 0);
  ct_clear_error();
  CHECK(ct_mvlgamma_out(c, ct_empty(CT_SHAPE(4096), &meta_opts), 1) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Attempting to copy from device meta to device cpu, but cross-device copies are not allowed!");
  CHECK_EQ_INT(ct_dim(c), 0); /* untouched by every failed call */
  CHECK_F64S(c, 0);
  ct_scope_end();
}

int main(void) {
  test_pointwise_out_is_input();
  test_pointwise_view_resized_over_input();
  test_reduce_alias();
  test_scan_alias();
  test_device_order();
  test_out_devices();
  return TEST_SUMMARY();
}
