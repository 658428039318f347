/* Reductions: values, dtypes, shapes and strides of results, dims handling, out= forms, PyTorch's edge
   behaviour and messages (all checked against torch 1.13), and results that do not depend on the thread
   count. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "compat.h"
#include "core/cpu_isa.h" /* internal: ct__cpu_force_isa runs the kernels at a lower ISA level */

static ct_tensor *arange(int64_t n, ct_dtype dt) {
  return ct_arange(CT_INT(0), CT_INT(n), CT_INT(1), &(ct_tensor_opts){.dtype = dt});
}
static ct_tensor *fdata(const float *v, ct_shape shape) { return ct_tensor_from_data(v, CT_FLOAT32, shape, NULL); }
static double val(const ct_tensor *t) {
  double d = NAN;
  CHECK(ct_item_double(t, &d) == CT_OK);
  return d;
}
static int64_t ival(const ct_tensor *t) {
  int64_t v = -12345;
  CHECK(ct_item_int64(t, &v) == CT_OK);
  return v;
}
/* Element i of t read as double (t converted to a float64 buffer). */
static double at(const ct_tensor *t, int64_t i) {
  double buf[64];
  int64_t n = ct_numel(t);
  CHECK(n <= 64);
  CHECK(ct_copy_to_buffer(t, buf, CT_FLOAT64, (size_t)n * sizeof(double)) == CT_OK);
  return buf[i];
}

static void test_sums(void) {
  ct_scope_begin();
  ct_tensor *x = ct_view(arange(6, CT_FLOAT32), CT_SHAPE(2, 3)); /* [[0,1,2],[3,4,5]] */
  ct_tensor *r = ct_sum(x, NULL);
  CHECK_EQ_INT(ct_dim(r), 0);
  CHECK(val(r) == 15);
  r = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK_SHAPE(r, 3);
  CHECK(at(r, 0) == 3 && at(r, 1) == 5 && at(r, 2) == 7);
  r = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(-1), .keepdim = true});
  CHECK_SHAPE(r, 2, 1);
  CHECK(at(r, 0) == 3 && at(r, 1) == 12);
  /* integer and bool sums and products are int64; dtype= computes in that dtype */
  ct_tensor *xi = ct_view(arange(6, CT_INT32), CT_SHAPE(2, 3));
  CHECK_EQ_INT(ct_dtype_of(ct_sum(xi, NULL)), CT_INT64);
  CHECK_EQ_INT(ct_dtype_of(ct_prod(ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_BOOL}), NULL)), CT_INT64);
  r = ct_sum(ct_full(CT_SHAPE(10), CT_INT(200), &(ct_tensor_opts){.dtype = CT_UINT8}),
             &(ct_reduce_opts){.dtype = CT_UINT8});
  CHECK_EQ_INT(ival(r), 208); /* 2000 wraps in uint8 */
  r = ct_prod(ct_full(CT_SHAPE(10), CT_INT(3), &(ct_tensor_opts){.dtype = CT_INT8}), NULL);
  CHECK_EQ_INT(ival(r), 59049);
  r = ct_sum(ct_full(CT_SHAPE(6), CT_DOUBLE(1.5), NULL), &(ct_reduce_opts){.dtype = CT_INT32});
  CHECK_EQ_INT(ival(r), 6); /* the input is cast first: 1.5 -> 1 */
  r = ct_prod(x, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(at(r, 0) == 0 && at(r, 1) == 60);
  /* mean and nanmean */
  CHECK(val(ct_mean(x, NULL)) == 2.5);
  const float nanv[6] = {1, NAN, 3, 2, 5, 5};
  ct_tensor *xn = fdata(nanv, CT_SHAPE(2, 3));
  r = ct_nansum(xn, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(at(r, 0) == 4 && at(r, 1) == 12);
  r = ct_nanmean(xn, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(at(r, 0) == 2 && at(r, 1) == 4);
  CHECK(isnan(at(ct_sum(xn, &(ct_reduce_opts){.dims = CT_DIMS(1)}), 0)));
  /* empty inputs: the identities, and NaN means */
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  CHECK(val(ct_sum(e, NULL)) == 0);
  CHECK(val(ct_prod(e, NULL)) == 1);
  CHECK(isnan(val(ct_mean(e, NULL))));
  r = ct_sum(e, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK_SHAPE(r, 3);
  CHECK(at(r, 2) == 0);
  /* errors */
  CHECK(!ct_mean(xi, NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                              "complex dtype. Got: Int");
  CHECK(!ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(0, 0)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "dim 0 appears multiple times in the list of dims");
  CHECK(!ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(2)}));
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CHECK(!ct_prod(ct_half(x), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"prod_cpu\" not implemented for 'Half'");
  CHECK(!ct_nansum(ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64}), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "nansum does not support complex inputs");
  CHECK(!ct_prod(x, &(ct_reduce_opts){.dims = CT_DIMS(0, 1)}));
  CHECK_ERROR(CT_ERR_TYPE, "prod(): argument 'dim' must be int, not tuple");
  ct_scope_end();
}

/* ---- float16 / bfloat16 sums: PyTorch's float cascade on the converted values ----
   The inputs are lines of pairs +-b at i and n - 1 - i, which cancel exactly, and small values, which a
   float accumulator holding a large partial sum absorbs: the result shows the order and rounding of
   PyTorch's float additions (a sum in double, as ctorch once had, gives the small values' sum). The
   expected values are torch 1.13's (one thread) for the same inputs, built in Python as
     P = {torch.float16: (256.0, 2.0 ** -10), torch.bfloat16: (2.0 ** 23, 32.0)}
     def cancel(i, n, big, small, nans):
         j = min(i, n - 1 - i)
         if j % 5 == 2 or 2 * i == n - 1:
             return float('nan') if nans and j % 10 == 7 else (1 + j % 7) * small
         b = big * (1 + j * 37 % 61)
         return b if i == j else -b
     def rows(r, n, dt, nans=False):  # r lines of n values, line k times k % 3 + 1
         return torch.tensor([[cancel(i, n, *P[dt], nans) * (k % 3 + 1) for i in range(n)]
                              for k in range(r)]).to(dt) */
static float cancel_value(int64_t i, int64_t n, ct_dtype dt, bool nans) {
  float big = dt == CT_FLOAT16 ? 256.0f : 0x1p23f, small = dt == CT_FLOAT16 ? 0x1p-10f : 32.0f;
  int64_t j = i < n - 1 - i ? i : n - 1 - i;
  if (j % 5 == 2 || 2 * i == n - 1) return nans && j % 10 == 7 ? NAN : (float)(1 + j % 7) * small;
  float b = big * (float)(1 + j * 37 % 61);
  return i == j ? b : -b;
}
static ct_tensor *cancel_rows(int64_t r, int64_t n, ct_dtype dt, bool nans) {
  float *v = malloc((size_t)(r * n) * sizeof(float));
  for (int64_t k = 0; k < r; k++)
    for (int64_t i = 0; i < n; i++) v[k * n + i] = cancel_value(i, n, dt, nans) * (float)(k % 3 + 1);
  ct_tensor *t = ct_to_dtype(fdata(v, CT_SHAPE(r, n)), dt);
  free(v);
  return t;
}
/* t's values, read as float32, are want's, bit for bit */
static bool same_values(const ct_tensor *t, const float *want, int64_t n) {
  float got[64];
  if (!t || ct_numel(t) != n || n > 64) return false;
  if (ct_copy_to_buffer(t, got, CT_FLOAT32, (size_t)n * sizeof(float)) != CT_OK) return false;
  bool same = memcmp(got, want, (size_t)n * sizeof(float)) == 0;
  for (int64_t i = 0; i < n && !same; i++)
    if (memcmp(&got[i], &want[i], sizeof(float)) != 0) fprintf(stderr, "  [%lld] %a, want %a\n", (long long)i, got[i], want[i]);
  return same;
}

static void test_half_sums(void) {
  ct_scope_begin();
  const ct_dtype dts[2] = {CT_FLOAT16, CT_BFLOAT16};
  const float whole[2][3] = {{1.234375f, 0.0361328125f, 0.0126953125f},
      {37376.0f, 1152.0f, 416.0f}};
  const float rows_sum[2][3] = {{0.26171875f, 0.5234375f, 0.796875f},
      {8320.0f, 16640.0f, 23808.0f}};
  const float rows_mean[2][3] = {{0.00078582763671875f, 0.0015716552734375f, 0.0023937225341796875f},
      {25.0f, 50.0f, 71.5f}};
  const float rows_sum_strided[2][3] = {{0.2587890625f, 0.517578125f, 0.6796875f},
      {8448.0f, 16896.0f, 22272.0f}};
  const float cols45[2][45] = {{0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.484375f, 0.24609375f, 0.4921875f, 0.484375f, 0.24609375f, 0.4921875f, 0.484375f, 0.24609375f, 0.4921875f, 0.484375f, 0.24609375f, 0.4921875f, 0.484375f},
      {3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 15872.0f, 8064.0f, 16128.0f, 15872.0f, 8064.0f, 16128.0f, 15872.0f, 8064.0f, 16128.0f, 15872.0f, 8064.0f, 16128.0f, 15872.0f}};
  const float cols12[2][12] = {{0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f, 0.09375f, 0.1875f, 0.375f},
      {3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f, 3072.0f, 6144.0f, 12288.0f}};
  const float rows8_t[2][8] = {{0.125f, 0.25f, 0.25f, 0.125f, 0.25f, 0.25f, 0.125f, 0.25f},
      {4096.0f, 8192.0f, 8192.0f, 4096.0f, 8192.0f, 8192.0f, 4096.0f, 8192.0f}};
  const float nan_whole[2] = {0.28125f, 19968.0f};
  const float nan_rows_mean[2][3] = {{0.0004930496215820312f, 0.0009860992431640625f, 0.0014791488647460938f},
      {15.8125f, 31.625f, 42.75f}};
  const float int_mean_bf16 = 18.125f;
  for (int d = 0; d < 2; d++) {
    ct_dtype dt = dts[d];
    /* whole lines: vectorized_inner_sum (loads of 16 values folded into 8 float lanes, the cascade over
       128 loads, a tail of 13) and row_sum (13 values) */
    const int64_t lens[3] = {2061, 45, 13};
    for (int k = 0; k < 3; k++) {
      ct_tensor *x = ct_view(cancel_rows(1, lens[k], dt, false), CT_SHAPE(lens[k]));
      CHECK(same_values(ct_sum(x, NULL), &whole[d][k], 1)); /* torch.sum(rows(1, n, dt)[0]) */
    }
    /* along the last dim, keepdim, mean, out=: rows(3, 333, dt).sum(1, keepdim=True), .mean(1) */
    ct_tensor *x = cancel_rows(3, 333, dt, false);
    ct_tensor *r = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
    CHECK_SHAPE(r, 3, 1);
    CHECK(same_values(r, rows_sum[d], 3));
    CHECK(same_values(ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(-1)}), rows_mean[d], 3));
    ct_tensor *o = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = dt});
    CHECK(ct_sum_out(o, x, &(ct_reduce_opts){.dims = CT_DIMS(1)}) == CT_OK);
    CHECK(same_values(o, rows_sum[d], 3));
    /* a strided line (row_sum): s = torch.zeros(3, 333, 2, dtype=dt); s[..., 0] = rows(3, 333, dt);
       s[..., 0].sum(1) */
    ct_tensor *s = ct_select(ct_zeros(CT_SHAPE(3, 333, 2), &(ct_tensor_opts){.dtype = dt}), 2, 0);
    CHECK(ct_copy_(s, x) == CT_OK);
    CHECK(same_values(ct_sum(s, &(ct_reduce_opts){.dims = CT_DIMS(1)}), rows_sum_strided[d], 3));
    /* contiguous columns, rows(45, 300, dt).t().contiguous().sum(0): vectorized_outer_sum (32 columns by
       multi_row_sum, 8 by row_sum, 5 one by one); 12 columns, fewer than a Vectorized<Half>:
       scalar_outer_sum (multi_row_sum by groups of 4) */
    ct_tensor *c45 = ct_contiguous(ct_t(cancel_rows(45, 300, dt, false)), CT_CONTIGUOUS_FORMAT);
    CHECK(same_values(ct_sum(c45, &(ct_reduce_opts){.dims = CT_DIMS(0)}), cols45[d], 45));
    ct_tensor *c12 = ct_contiguous(ct_t(cancel_rows(12, 300, dt, false)), CT_CONTIGUOUS_FORMAT);
    CHECK(same_values(ct_sum(c12, &(ct_reduce_opts){.dims = CT_DIMS(0)}), cols12[d], 12));
    /* 8 lines reduced along a strided dim, the kept one contiguous:
       rows(8, 333, dt).t().contiguous().t().sum(1) (scalar_outer_sum) */
    ct_tensor *t8 = ct_t(ct_contiguous(ct_t(cancel_rows(8, 333, dt, false)), CT_CONTIGUOUS_FORMAT));
    CHECK(same_values(ct_sum(t8, &(ct_reduce_opts){.dims = CT_DIMS(1)}), rows8_t[d], 8));
    /* NaN as zero: torch.nansum(rows(1, 2061, dt, True)), torch.nanmean(rows(3, 333, dt, True), 1) */
    CHECK(same_values(ct_nansum(cancel_rows(1, 2061, dt, true), NULL), &nan_whole[d], 1));
    CHECK(same_values(ct_nanmean(cancel_rows(3, 333, dt, true), &(ct_reduce_opts){.dims = CT_DIMS(1)}),
                      nan_rows_mean[d], 3));
  }
  /* the case that showed the difference: a mean in bfloat16 of int32 values near 5e8 that cancel,
     torch.mean(rows(1, 2061, torch.bfloat16).to(torch.int32), dtype=torch.bfloat16) */
  ct_tensor *xi = ct_to_dtype(cancel_rows(1, 2061, CT_BFLOAT16, false), CT_INT32);
  CHECK(same_values(ct_mean(xi, &(ct_reduce_opts){.dtype = CT_BFLOAT16}), &int_mean_bf16, 1));
  /* keepdim gives PyTorch's iterator the result itself: its size-1 dim over the input's size-1 dim has a
     stride, which changes the order of the reduced dims, so of the float16 roundings (iter_reduce.c).
     b = torch.tensor([-0.0, -129.5, 1210.0, -1277.0, -4.0, -300.75]).reshape(2, 1, 1, 3, 1).half();
     x = b.permute(1, 4, 2, 3, 0).expand(1, 3, 2, 3, 2): x.sum((0, 1, 2, 3, 4), keepdim=True) is -3008,
     x.sum() is -3014 */
  const float kv[6] = {-0.0f, -129.5f, 1210.0f, -1277.0f, -4.0f, -300.75f};
  ct_tensor *xk = ct_expand(ct_permute(ct_half(fdata(kv, CT_SHAPE(2, 1, 1, 3, 1))), CT_DIMS(1, 4, 2, 3, 0)),
                            CT_SHAPE(1, 3, 2, 3, 2));
  CHECK(same_values(ct_sum(xk, &(ct_reduce_opts){.keepdim = true}), (const float[]){-3008.0f}, 1));
  CHECK(same_values(ct_sum(xk, NULL), (const float[]){-3014.0f}, 1));
  ct_scope_end();
}

static void test_layout(void) {
  ct_scope_begin();
  /* results are contiguous whatever the input's layout; keepdim keeps size-1 dims */
  ct_tensor *x = ct_permute(ct_view(arange(24, CT_FLOAT32), CT_SHAPE(2, 3, 4)), CT_DIMS(2, 1, 0)); /* (4, 3, 2) */
  ct_tensor *r = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
  CHECK_SHAPE(r, 4, 1, 2);
  CHECK_STRIDES(r, 2, 2, 1);
  CHECK(at(r, 0) == 12 && at(r, 1) == 48 && at(r, 7) == 57);
  r = ct_amax(x, &(ct_reduce_opts){.keepdim = true});
  CHECK_SHAPE(r, 1, 1, 1);
  CHECK(val(r) == 23);
  /* argmax of a transposed tensor without a dim: the index into the logical flattening */
  r = ct_argmax(x, NULL);
  CHECK_EQ_INT(ival(r), 23);
  ct_tensor *cl = ct_ones(CT_SHAPE(2, 3, 4, 5), &(ct_tensor_opts){.memory_format = CT_CHANNELS_LAST});
  r = ct_sum(cl, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
  CHECK_STRIDES(r, 20, 20, 5, 1);
  /* a 0-dim input reduces over dim 0 or -1 to itself */
  ct_tensor *s = ct_scalar_tensor(CT_DOUBLE(3), NULL);
  CHECK(val(ct_sum(s, &(ct_reduce_opts){.dims = CT_DIMS(-1), .keepdim = true})) == 3);
  CHECK_EQ_INT(ct_dim(ct_sum(s, &(ct_reduce_opts){.dims = CT_DIMS(0), .keepdim = true})), 0);
  /* aminmax's quirk: a 0-dim input along dim 0 with keepdim gives shape [1] */
  ct_tensor *mn = NULL, *mx = NULL;
  CHECK(ct_aminmax(s, &mn, &mx, &(ct_reduce_opts){.dims = CT_DIMS(0), .keepdim = true}) == CT_OK);
  CHECK_SHAPE(mn, 1);
  CHECK_SHAPE(mx, 1);
  /* with out=, torch 1.13 sizes the outputs () and then [1]: a strided or misshapen out ends contiguous */
  ct_tensor *base = ct_zeros(CT_SHAPE(3), NULL);
  mn = ct_zeros(CT_SHAPE(1, 2, 2), NULL);
  mx = ct_slice(base, 0, 1, 3, 2);
  CHECK_STRIDES(mx, 2);
  CHECK(ct_aminmax_out(mn, mx, s, &(ct_reduce_opts){.dims = CT_DIMS(-1), .keepdim = true}) == CT_OK);
  CHECK_SHAPE(mn, 1);
  CHECK_SHAPE(mx, 1);
  CHECK_STRIDES(mx, 1);
  CHECK(val(mn) == 3 && at(base, 1) == 3 && at(base, 0) == 0 && at(base, 2) == 0);
  ct_scope_end();
}

static void test_extremes(void) {
  ct_scope_begin();
  const float v[6] = {1, NAN, 3, 2, 5, 5};
  ct_tensor *x = fdata(v, CT_SHAPE(2, 3));
  ct_tensor *vals = NULL, *idx = NULL;
  CHECK(ct_max_dim(x, 1, &vals, &idx, NULL) == CT_OK);
  CHECK(isnan(at(vals, 0)) && at(vals, 1) == 5);
  CHECK(at(idx, 0) == 1 && at(idx, 1) == 1); /* NaN wins; ties keep the first index */
  CHECK_EQ_INT(ct_dtype_of(idx), CT_INT64);
  CHECK(ct_min_dim(x, 1, &vals, NULL, &(ct_keepdim_opts){.keepdim = true}) == CT_OK);
  CHECK_SHAPE(vals, 2, 1);
  CHECK(isnan(val(ct_max(x))));
  CHECK_EQ_INT(ival(ct_argmax(x, NULL)), 1);
  ct_tensor *r = ct_argmin(x, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(at(r, 0) == 1 && at(r, 1) == 0);
  CHECK(ct_aminmax(x, &vals, &idx, &(ct_reduce_opts){.dims = CT_DIMS(1)}) == CT_OK);
  CHECK(isnan(at(vals, 0)) && at(vals, 1) == 2 && at(idx, 1) == 5);
  r = ct_amax(x, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(isnan(at(r, 0)) && at(r, 1) == 5);
  /* empty dims and dtypes */
  ct_tensor *e = ct_empty(CT_SHAPE(0, 3), NULL);
  CHECK(!ct_max(e));
  CHECK_ERROR(CT_ERR_RUNTIME, "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                              "reduction dim with the 'dim' argument.");
  CHECK(ct_max_dim(e, 0, &vals, &idx, NULL) == CT_ERR_INDEX && !vals && !idx);
  CHECK_ERROR(CT_ERR_INDEX, "max(): Expected reduction dim 0 to have non-zero size.");
  CHECK(ct_max_dim(e, 1, &vals, &idx, NULL) == CT_OK);
  CHECK_SHAPE(vals, 0);
  CHECK(!ct_argmax(e, NULL));
  CHECK_ERROR(CT_ERR_INDEX, "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  CHECK(!ct_amax(e, &(ct_reduce_opts){.dims = CT_DIMS(-2)}));
  CHECK_ERROR(CT_ERR_INDEX, "amax(): Expected reduction dim -2 to have non-zero size.");
  CHECK(!ct_argmax(ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_BOOL}), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"argmax_cpu\" not implemented for 'Bool'");
  CHECK(!ct_max(ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_COMPLEX64})));
  CHECK_ERROR(CT_ERR_RUNTIME, "\"max_all\" not implemented for 'ComplexFloat'");
  CHECK(ct_max_dim(ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_COMPLEX64}), 0, &vals, &idx, NULL) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "max(): does not support complex input");
  CHECK(ct_aminmax(ct_half(x), &vals, &idx, &(ct_reduce_opts){.dims = CT_DIMS(0)}) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"aminmax_cpu\" not implemented for 'Half'");
  ct_scope_end();
}

static void test_statistics(void) {
  ct_scope_begin();
  const float v[4] = {1, 2, 4, 7};
  ct_tensor *x = fdata(v, CT_SHAPE(4));
  CHECK(fabs(val(ct_var(x, NULL)) - 7.0) < 1e-6); /* mean 3.5, M2 21, / 3 */
  CHECK(fabs(val(ct_var(x, &(ct_var_opts){.correction = CT_INT(0)})) - 5.25) < 1e-6);
  CHECK(fabs(val(ct_std(x, NULL)) - sqrt(7.0)) < 1e-6);
  ct_tensor *var = NULL, *mean = NULL;
  CHECK(ct_var_mean(x, &var, &mean, &(ct_var_opts){.dims = CT_DIMS(0), .keepdim = true}) == CT_OK);
  CHECK_SHAPE(var, 1);
  CHECK(fabs(at(mean, 0) - 3.5) < 1e-6);
  /* a correction above the count gives inf (or NaN for a zero M2), as PyTorch's max(0, n - c) */
  CHECK(isinf(val(ct_var(x, &(ct_var_opts){.correction = CT_INT(5)}))));
  CHECK(isnan(val(ct_var(ct_ones(CT_SHAPE(2), NULL), &(ct_var_opts){.correction = CT_INT(3)}))));
  CHECK(isnan(val(ct_std(ct_ones(CT_SHAPE(1), NULL), NULL))));
  /* nearly equal values: the whole-tensor variance is around torch's float32 mean, whose rounding is
     most of it (values from torch 1.13) */
  const float same[3] = {-1680.7878f, -1680.7878f, -1680.7878f};
  CHECK(val(ct_var(fdata(same, CT_SHAPE(3)), NULL)) == 0x1.8p-26);
  CHECK(val(ct_std(fdata(same, CT_SHAPE(3, 1)), &(ct_var_opts){.dims = CT_DIMS(0), .keepdim = true})) == 0x1.3988e2p-13);
  float *near = malloc(1000 * sizeof *near);
  CHECK(near != NULL);
  for (int i = 0; near && i < 1000; i++) near[i] = (float)(1000.0 + (i % 7) * 1e-3);
  ct_tensor *nt = near ? fdata(near, CT_SHAPE(1000)) : NULL;
  CHECK(val(ct_var(nt, NULL)) == 0x1.0cafecp-18 && val(ct_std(nt, NULL)) == 0x1.064452p-9);
  free(near);
  /* complex: var(real) + var(imag), a real result */
  ct_tensor *c = ct_to_dtype(x, CT_COMPLEX64);
  ct_tensor *r = ct_var(c, NULL);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  CHECK(fabs(val(r) - 7.0) < 1e-6);
  CHECK(!ct_var(ct_long(x), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "std and var only support floating point and complex dtypes");
  CHECK(!ct_var(x, &(ct_var_opts){.correction = CT_DOUBLE(1.5)}));
  CHECK_ERROR(CT_ERR_TYPE, "var(): argument 'correction' must be int, not float");
  ct_scope_end();
}

static void test_norms(void) {
  ct_scope_begin();
  const float v[6] = {3, -4, 0, 1, -2, 2};
  ct_tensor *x = fdata(v, CT_SHAPE(2, 3));
  CHECK(fabs(val(ct_norm(x, NULL)) - sqrt(34.0)) < 1e-5);
  CHECK(val(ct_norm(x, &(ct_norm_opts){.p = CT_INT(1)})) == 12);
  CHECK(val(ct_norm(x, &(ct_norm_opts){.p = CT_INT(0)})) == 5);
  CHECK(val(ct_norm(x, &(ct_norm_opts){.p = CT_DOUBLE(INFINITY)})) == 4);
  CHECK(val(ct_norm(x, &(ct_norm_opts){.p = CT_DOUBLE(-INFINITY)})) == 0);
  ct_tensor *r = ct_norm(x, &(ct_norm_opts){.p = CT_INT(2), .dims = CT_DIMS(1), .keepdim = true});
  CHECK_SHAPE(r, 2, 1);
  CHECK(at(r, 0) == 5 && at(r, 1) == 3);
  r = ct_norm(x, &(ct_norm_opts){.p = CT_INT(2), .dims = CT_DIMS(1), .dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT64);
  CHECK(val(ct_norm(ct_empty(CT_SHAPE(0), NULL), &(ct_norm_opts){.p = CT_DOUBLE(-1)})) == 0);
  CHECK(!ct_norm(ct_long(x), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "norm(): input dtype should be either floating point or complex. Got Long instead.");
  CHECK(!ct_norm(ct_ones(CT_SHAPE(2, 2, 2), NULL), &(ct_norm_opts){.dims = CT_DIMS(0, 1, 2), .keepdim = true}));
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected at most 2 dimensions, but got 3 dimensions instead.");
  /* torch.norm(x, 'nuc'): 7.375369548797607 (the sum of gesdd's singular values) */
  CHECK(fabs(val(ct_norm(x, &(ct_norm_opts){.nuc = true})) - 7.375369548797607) < 1e-5);
  CHECK(!ct_norm(ct_ones(CT_SHAPE(3), NULL), &(ct_norm_opts){.nuc = true}));
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected a tensor with 2 dimensions, but got a tensor with 1 dimension instead.");
  /* dist = norm(a - b) with broadcasting */
  const float w[3] = {0, 0, 4};
  r = ct_dist(x, fdata(w, CT_SHAPE(3)), &(ct_dist_opts){.p = CT_DOUBLE(INFINITY)});
  CHECK(val(r) == 4);
  ct_scope_end();
}

/* norm(x, +-inf) of complex x takes |x| from the pointwise abs kernel, whose vector blocks (8 complex64,
   4 complex128) compute sqrt(re^2 + im^2) and the rest hypot. torch 1.13:
     torch.norm(torch.full((n,), complex(nan, inf), dtype=torch.complex64), inf)   -> inf (n = 4), nan (n = 8)
     torch.norm(torch.full((n,), complex(1e30, 1e30), dtype=torch.complex64), inf) -> 1.4142135e30 (n = 4), inf (n = 8)
     torch.norm(torch.full((8,), complex(1e30, 1e30), dtype=torch.complex64), inf, dtype=torch.complex128)
                                                                                   -> 1.4142135e30 (double math)
     torch.norm(torch.full((8,), 1e30, dtype=torch.float64), inf, dtype=torch.complex64) -> 1e30 (real input) */
static void test_complex_extreme_norms(void) {
  ct_scope_begin();
  ct_norm_opts inf = {.p = CT_DOUBLE(INFINITY)}, ninf = {.p = CT_DOUBLE(-INFINITY)};
  for (int64_t n = 4; n <= 8; n += 4) {
    /* the switch off (compat.h): hypot, the scalar formula, for every element: hypotf(nan, inf) is inf */
    bool scalar = n == 4 || !CT_TORCH_COMPAT;
    ct_tensor *z = ct_full(CT_SHAPE(n), CT_COMPLEX(NAN, INFINITY), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
    double r = val(ct_norm(z, &inf));
    CHECK(scalar ? r == hypotf(NAN, INFINITY) : isnan(r));
    CHECK(scalar ? val(ct_norm(z, &ninf)) == hypotf(NAN, INFINITY) : isnan(val(ct_norm(z, &ninf))));
    ct_tensor *big = ct_full(CT_SHAPE(n), CT_COMPLEX(1e30, 1e30), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
    r = val(ct_norm(big, &inf));
    CHECK(scalar ? r == (double)hypotf(1e30f, 1e30f) : r == INFINITY);
    ct_tensor *wide = ct_norm(big, &(ct_norm_opts){.p = CT_DOUBLE(INFINITY), .dtype = CT_COMPLEX128});
    CHECK_EQ_INT(ct_dtype_of(wide), CT_COMPLEX128);
    CHECK(fabs(at(ct_real(wide), 0) - 1.41421351e30) < 1e24);
    /* out= with a vector row: the kernel's NaN lands in out */
    ct_tensor *out = ct_empty(CT_SHAPE(0), NULL);
    CHECK_EQ_INT(ct_norm_out(out, z, &inf), CT_OK);
    CHECK(scalar ? val(out) == hypotf(NAN, INFINITY) : isnan(val(out)));
  }
  ct_tensor *real = ct_full(CT_SHAPE(8), CT_DOUBLE(1e30), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(at(ct_real(ct_norm(real, &(ct_norm_opts){.p = CT_DOUBLE(INFINITY), .dtype = CT_COMPLEX64})), 0) ==
        (double)1e30f);
  ct_scope_end();
}

static void test_logical_and_lse(void) {
  ct_scope_begin();
  const float v[4] = {0, 0.5f, NAN, -1};
  ct_tensor *x = fdata(v, CT_SHAPE(4));
  bool b = true;
  CHECK(ct_item_bool(ct_all(x, NULL), &b) == CT_OK && !b);
  CHECK(ct_item_bool(ct_any(x, NULL), &b) == CT_OK && b);
  CHECK_EQ_INT(ival(ct_count_nonzero(x, NULL)), 3);
  /* uint8 in, uint8 out; a uint8 out= of several floats casts them first (0.5 -> 0) */
  ct_tensor *u = ct_full(CT_SHAPE(2), CT_INT(5), &(ct_tensor_opts){.dtype = CT_UINT8});
  CHECK_EQ_INT(ct_dtype_of(ct_all(u, NULL)), CT_UINT8);
  ct_tensor *o = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_UINT8});
  const float h[2] = {0.5f, 0.5f};
  CHECK(ct_all_out(o, fdata(h, CT_SHAPE(2)), NULL) == CT_OK);
  CHECK_EQ_INT(ival(o), 0);
  CHECK(ct_all_out(ct_empty(CT_SHAPE(0), NULL), x, NULL) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "all only supports bool tensor for result, got: Float");
  /* logsumexp: stable with large values, -inf for nothing, integers promote to float */
  const float l[3] = {1000, 1000, -INFINITY};
  ct_tensor *r = ct_logsumexp(fdata(l, CT_SHAPE(3)), &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK(fabs(val(r) - (1000 + log(2.0))) < 1e-3);
  r = ct_logsumexp(ct_empty(CT_SHAPE(0, 3), NULL), &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK(isinf(at(r, 0)) && at(r, 0) < 0);
  CHECK_EQ_INT(ct_dtype_of(ct_logsumexp(u, &(ct_reduce_opts){.dims = CT_DIMS(0)})), CT_FLOAT32);
  CHECK(!ct_logsumexp(ct_ones(CT_SHAPE(3), NULL), NULL)); /* dim=() with an input: PyTorch's add_ fails */
  CHECK_ERROR(CT_ERR_RUNTIME, "output with shape [] doesn't match the broadcast shape [1]");
  ct_scope_end();
}

static void test_out_forms(void) {
  ct_scope_begin();
  ct_tensor *x = ct_view(arange(6, CT_FLOAT32), CT_SHAPE(2, 3));
  /* out= of another shape is resized; one of the right shape keeps its strides */
  ct_tensor *o = ct_empty(CT_SHAPE(5), NULL);
  CHECK(ct_sum_out(o, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_SHAPE(o, 3);
  CHECK(at(o, 2) == 7);
  ct_tensor *ot = ct_t(ct_empty(CT_SHAPE(3, 2), NULL)); /* (2, 3) with strides (1, 2) */
  CHECK(ct_sum_out(ct_t(ct_empty(CT_SHAPE(1, 1), NULL)), x, NULL) == CT_OK);
  ct_tensor *y = ct_view(arange(24, CT_FLOAT32), CT_SHAPE(2, 4, 3));
  CHECK(ct_sum_out(ot, y, &(ct_reduce_opts){.dims = CT_DIMS(1)}) == CT_OK);
  CHECK_STRIDES(ot, 1, 2);
  /* the out dtype decides the compute dtype; mismatches keep out unchanged */
  ct_tensor *o64 = ct_zeros(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_mean_out(o64, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK(at(o64, 0) == 1.5);
  ct_tensor *oi = ct_zeros(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK(ct_mean_out(oi, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Long");
  CHECK_SHAPE(oi, 4);
  CHECK(ct_sum_out(o64, x, &(ct_reduce_opts){.dtype = CT_FLOAT32}) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype float, but got double instead");
  ct_tensor *vo = ct_empty(CT_SHAPE(0), NULL), *io = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_max_dim_out(vo, io, x, 1, NULL) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype long int, but got int instead");
  CHECK_SHAPE(vo, 0);
  CHECK(ct_amax_out(o64, x, NULL) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected the dtype for input and out to match, but got Float for input's dtype and "
                              "Double for out's dtype.");
  /* NULL arguments: the status of the first error, no new error */
  ct_clear_error();
  CHECK(!ct_sum(NULL, NULL));
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 't' is NULL");
  CHECK(ct_sum_out(NULL, x, NULL) != CT_OK);
  ct_scope_end();
}

/* Every result is the same at one thread and at two (fixed chunks, ordered combination). */
static bool same_bits(const ct_tensor *a, const ct_tensor *b) {
  if (!a || !b || ct_numel(a) != ct_numel(b) || ct_dtype_of(a) != ct_dtype_of(b)) return false;
  size_t n = (size_t)ct_numel(a) * (size_t)ct_element_size(a);
  char *pa = malloc(n ? n : 1), *pb = malloc(n ? n : 1);
  bool ok = pa && pb && ct_copy_to_buffer(a, pa, ct_dtype_of(a), n) == CT_OK &&
            ct_copy_to_buffer(b, pb, ct_dtype_of(b), n) == CT_OK && memcmp(pa, pb, n) == 0;
  free(pa);
  free(pb);
  return ok;
}

static void test_thread_independence(void) {
  ct_scope_begin();
  /* pseudo-random values with a wide range, large enough for several chunks and threads */
  int64_t n = 300000;
  float *v = malloc((size_t)n * sizeof(float));
  uint32_t s = 12345;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    v[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * (float)(1 + (s & 1023));
  }
  ct_tensor *flat = fdata(v, CT_SHAPE(300000));
  free(v);
  ct_tensor *inputs[4] = {flat, ct_view(flat, CT_SHAPE(3000, 100)), ct_view(flat, CT_SHAPE(100, 3000)),
                          ct_transpose(ct_view(flat, CT_SHAPE(600, 500)), 0, 1)};
  const ct_reduce_opts d0 = {.dims = CT_DIMS(0)}, d1 = {.dims = CT_DIMS(-1)};
  for (int i = 0; i < 4; i++) {
    ct_tensor *x = inputs[i];
    for (int pass = 0; pass < 3; pass++) {
      const ct_reduce_opts *o = pass == 0 ? NULL : pass == 1 ? &d0 : &d1;
      if (ct_dim(x) == 1 && pass > 1) continue;
      ct_tensor *r1[10], *r2[10];
      for (int t = 0; t < 2; t++) {
        ct_set_num_threads(t == 0 ? 1 : 2);
        ct_tensor **r = t == 0 ? r1 : r2;
        r[0] = ct_sum(x, o);
        r[1] = ct_mean(x, o);
        r[2] = ct_var(x, &(ct_var_opts){.dims = o ? o->dims : CT_SHAPE_SCALAR});
        r[3] = ct_norm(x, &(ct_norm_opts){.p = CT_INT(3), .dims = o ? o->dims : CT_SHAPE_SCALAR});
        r[4] = ct_amax(x, o);
        r[5] = ct_argmax(x, o && ct_dim(x) > 1 ? o : NULL);
        r[6] = ct_logsumexp(x, o ? o : &(ct_reduce_opts){.dims = CT_DIMS(0)});
        r[7] = ct_prod(ct_to_dtype(x, CT_FLOAT64), o && ct_dim(x) > 1 ? o : NULL);
        r[8] = ct_sum(ct_half(x), o);
        r[9] = ct_mean(ct_to_dtype(x, CT_BFLOAT16), o);
      }
      for (int k = 0; k < 10; k++) {
        bool same = same_bits(r1[k], r2[k]);
        if (!same) fprintf(stderr, "thread-dependent result: input %d, pass %d, op %d\n", i, pass, k);
        CHECK(same);
      }
    }
  }
  ct_set_num_threads(0);
  ct_scope_end();
}

static void test_meta(void) {
  ct_scope_begin();
  ct_tensor *m = ct_empty(CT_SHAPE(4, 5), &(ct_tensor_opts){.device = CT_DEVICE_META});
  ct_tensor *r = ct_sum(m, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
  CHECK_SHAPE(r, 4, 1);
  CHECK_EQ_INT(ct_device_of(r).type, CT_META);
  ct_tensor *v = NULL, *i = NULL;
  CHECK(ct_max_dim(m, 0, &v, &i, NULL) == CT_OK);
  CHECK_SHAPE(i, 5);
  CHECK(ct_var(m, NULL) != NULL);
  ct_scope_end();
}


/* float32 max/min of contiguous runs (the AVX-512 and the generic kernels, and the scalar path of short
   runs) against a plain loop: NaN and infinities at every position of the vector blocks, the 16-lane
   loop and the masked tail. */
static void test_float_extreme_kernels(void) {
  static const int64_t lengths[] = {1, 15, 63, 64, 65, 79, 80, 127, 128, 129, 191, 200, 1000, 40001};
  float *v = malloc(40001 * sizeof *v);
  CHECK(v != NULL);
  for (int level = 2; level >= 0 && v; level--) {
    ct__cpu_force_isa(level);
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
      int64_t n = lengths[li];
      for (int64_t p = -1; p < n; p += p < 200 ? 1 : 997) {
        for (int special = 0; special < 3; special++) {
          ct_scope_begin();
          for (int64_t i = 0; i < n; i++) v[i] = (float)((i * 7919) % 1009) - 504.5f;
          if (p >= 0) v[p] = special == 0 ? NAN : special == 1 ? INFINITY : -INFINITY;
          float mx = -INFINITY, mn = INFINITY;
          bool nan = false;
          for (int64_t i = 0; i < n; i++) {
            nan |= v[i] != v[i];
            if (v[i] > mx) mx = v[i];
            if (v[i] < mn) mn = v[i];
          }
          int64_t imx = 0, imn = 0, inan = -1; /* torch's argmax/argmin: the first extreme, the first NaN */
          for (int64_t i = 0; i < n; i++) {
            if (v[i] > v[imx]) imx = i;
            if (v[i] < v[imn]) imn = i;
            if (inan < 0 && v[i] != v[i]) inan = i;
          }
          ct_tensor *x = fdata(v, CT_SHAPE(n));
          double got_max = val(ct_max(x)), got_min = val(ct_min(x));
          int64_t got_imax = ival(ct_argmax(x, NULL)), got_imin = ival(ct_argmin(x, NULL));
          if (nan) {
            CHECK(isnan(got_max) && isnan(got_min));
            CHECK(got_imax == inan && got_imin == inan);
          } else {
            CHECK(got_max == mx && got_min == mn);
            CHECK(got_imax == imx && got_imin == imn);
          }
          ct_scope_end();
          if (p >= 0 && special == 0 && n > 200 && p % 7 != 0) special = 3; /* NaN alone at most positions */
        }
      }
    }
  }
  ct__cpu_force_isa(-1);
  free(v);
}

/* Signed zeros and repeated extremes: the AVX2 and AVX-512 float32 kernels give the generic kernels'
   bits (which zero is the max of -0 and +0 depends on the order the lanes meet) and the first index. */
static void test_float_extreme_zeros(void) {
  enum { N = 4099 };
  float *v = malloc(N * sizeof *v);
  CHECK(v != NULL);
  for (int pattern = 0; pattern < 4 && v; pattern++) {
    uint32_t r = 2463534242u + (uint32_t)pattern;
    for (int64_t i = 0; i < N; i++) {
      r ^= r << 13, r ^= r >> 17, r ^= r << 5;
      float z = (r & 1) ? -0.0f : 0.0f;
      v[i] = pattern == 0 ? z : pattern == 1 ? ((r & 6) ? z : -1.0f) : pattern == 2 ? ((r & 6) ? z : 1.0f) : (float)(r % 3);
    }
    uint32_t want[4] = {0};
    int64_t want_i[2] = {0};
    for (int level = 0; level <= 2; level++) {
      ct__cpu_force_isa(level);
      ct_scope_begin();
      ct_tensor *x = fdata(v, CT_SHAPE(N));
      float got[4] = {(float)val(ct_max(x)), (float)val(ct_min(x)), (float)val(ct_amax(x, NULL)), (float)val(ct_amin(x, NULL))};
      int64_t got_i[2] = {ival(ct_argmax(x, NULL)), ival(ct_argmin(x, NULL))};
      for (int k = 0; k < 4; k++) {
        uint32_t b;
        memcpy(&b, &got[k], 4);
        if (level == 0)
          want[k] = b;
        else
          CHECK_EQ_INT(b, want[k]);
      }
      for (int k = 0; k < 2; k++) {
        if (level == 0)
          want_i[k] = got_i[k];
        else
          CHECK_EQ_INT(got_i[k], want_i[k]);
      }
      ct_scope_end();
    }
    int64_t first_max = 0, first_min = 0; /* and the first index of the extreme, as torch */
    for (int64_t i = 0; i < N; i++) {
      if (v[i] > v[first_max]) first_max = i;
      if (v[i] < v[first_min]) first_min = i;
    }
    CHECK_EQ_INT(want_i[0], first_max);
    CHECK_EQ_INT(want_i[1], first_min);
  }
  ct__cpu_force_isa(-1);
  free(v);
}

/* FNV-1a of the float32 bits of a float32 result. */
static uint64_t bits_hash(const ct_tensor *r) {
  int64_t n = ct_numel(r);
  uint32_t *bits = malloc((size_t)n * sizeof *bits);
  uint64_t h = 14695981039346656037u;
  CHECK(bits && ct_copy_to_buffer(r, bits, CT_FLOAT32, (size_t)n * sizeof *bits) == CT_OK);
  for (int64_t i = 0; bits && i < n; i++) h = (h ^ bits[i]) * 1099511628211u;
  free(bits);
  return h;
}

/* Float sums round as torch 1.13's do; the hashes are of its result bits.
   Permuted inputs (dims reversed) take PyTorch's loop, chosen by the kept dim that moves fastest in
   PyTorch's order (the result's strides): torch's sums of contiguous copies differ in 512 of 561 and 160
   of 240 elements. (17, 33, 64) reduced over dim 2 runs vertically; (6, 70, 40) over dim 1 sums each
   output on its own, though its input's fastest dim is a kept one.
   Contiguous inputs summed down a few columns take PyTorch's scalar_outer_sum (groups of four columns
   by multi_row_sum, the rest by row_sum, over more rows than a tile): a float64 sum rounded to float32
   differs in 15, 12 and 9 elements. */
static void test_sum_bits(void) {
  ct_scope_begin();
  static const struct {
    int64_t shape[3], ndim, dim;
    bool reversed;
    uint64_t hash;
  } cases[] = {{{64, 33, 17}, 3, 2, true, 0x67c86635fed10969u},
               {{40, 70, 6}, 3, 1, true, 0x869d5740196d8c48u},
               {{3, 20000, 5}, 3, 1, false, 0x48890520f326ea56u},
               {{2, 3000, 6}, 3, 1, false, 0x304dbbefbefb6af0u},
               {{4000, 9, 1}, 2, 0, false, 0xa69978623b35ae37u}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const int64_t *sh = cases[c].shape, n = sh[0] * sh[1] * sh[2];
    float *v = malloc((size_t)n * sizeof *v);
    CHECK(v != NULL);
    if (!v) break;
    for (int64_t i = 0; i < n; i++) v[i] = (float)((i * 7919) % 2003 - 1001) / 7.0f;
    ct_tensor *x = ct_tensor_from_data(v, CT_FLOAT32, (ct_shape){sh, cases[c].ndim}, NULL);
    free(v);
    if (cases[c].reversed) x = ct_permute(x, CT_DIMS(2, 1, 0));
    ct_tensor *r = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(cases[c].dim)});
    CHECK(r != NULL && bits_hash(r) == cases[c].hash);
  }
  ct_scope_end();
}

/* Many short reductions (a run of whole lines in one kernel call) and transposing ones (rows of a small
   fastest kept dim stacked into one vertical run) against plain loops over the permuted view: amax,
   argmax (first index of the maximum, or of the first NaN), sum of small integers (exact in any order),
   all, any and count_nonzero (NaN is true) and the 2-norm (of small integers: the sum of squares is
   exact, its square root correctly rounded), with NaN and zeros in some lines. */
static void test_short_and_stacked_lines(void) {
  /* (3, 4000, 5): more than one work item, the second starting inside a row of the fastest kept dim */
  static const int64_t shapes[][3] = {{7, 300, 5}, {2, 2000, 2}, {3, 50, 40}, {300, 3, 2}, {3, 4000, 5}};
  static const int64_t perms[][3] = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}};
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
    const int64_t *s = shapes[si], n = s[0] * s[1] * s[2];
    float *v = malloc((size_t)n * sizeof *v);
    double *got = malloc((size_t)n * 7 * sizeof *got);
    CHECK(v && got);
    if (!v || !got) return;
    for (int64_t i = 0; i < n; i++) v[i] = (float)((i * 37) % 17 - 8);
    for (int64_t i = 5; i < n; i += 97) v[i] = NAN;
    const int64_t bstr[3] = {s[1] * s[2], s[2], 1};
    for (size_t pi = 0; pi < sizeof perms / sizeof perms[0]; pi++) {
      const int64_t *pm = perms[pi];
      const int64_t ps[3] = {s[pm[0]], s[pm[1]], s[pm[2]]}, pst[3] = {bstr[pm[0]], bstr[pm[1]], bstr[pm[2]]};
      for (int d = 0; d < 3; d++) {
        ct_scope_begin();
        ct_tensor *x = ct_permute(fdata(v, CT_SHAPE(s[0], s[1], s[2])), CT_DIMS(pm[0], pm[1], pm[2]));
        const ct_reduce_opts o = {.dims = CT_DIMS(d)};
        ct_tensor *res[7] = {ct_amax(x, &o), ct_argmax(x, &o), ct_sum(x, &o), ct_all(x, &o),
                             ct_any(x, &o),  ct_count_nonzero(x, &o),          ct_norm(x, &(ct_norm_opts){.dims = o.dims})};
        const int k0 = d == 0 ? 1 : 0, k1 = d == 2 ? 1 : 2; /* the kept dims, in order */
        int64_t m = ps[k0] * ps[k1];
        for (int r = 0; r < 7; r++) CHECK(ct_copy_to_buffer(res[r], got + r * m, CT_FLOAT64, (size_t)m * 8) == CT_OK);
        int bad = 0;
        for (int64_t a = 0; a < ps[k0]; a++)
          for (int64_t b = 0; b < ps[k1]; b++) {
            double best = 0, sum = 0, sumsq = 0;
            int64_t arg = -1, nonzero = 0;
            for (int64_t r = 0; r < ps[d]; r++) {
              double e = v[a * pst[k0] + b * pst[k1] + r * pst[d]];
              sum += e, sumsq += e * e;
              nonzero += e != 0;
              if (arg < 0 || (best == best && (e > best || e != e))) best = e, arg = r;
            }
            int64_t j = a * ps[k1] + b;
            bad += !(best != best ? got[j] != got[j] : got[j] == best);
            bad += got[m + j] != (double)arg;
            bad += !(sum != sum ? got[2 * m + j] != got[2 * m + j] : got[2 * m + j] == sum);
            bad += got[3 * m + j] != (double)(nonzero == ps[d]);
            bad += got[4 * m + j] != (double)(nonzero > 0);
            bad += got[5 * m + j] != (double)nonzero;
            double norm = (float)sqrt(sumsq);
            bad += !(norm != norm ? got[6 * m + j] != got[6 * m + j] : got[6 * m + j] == norm);
          }
        CHECK(bad == 0);
        ct_scope_end();
      }
    }
    free(v), free(got);
  }
}

/* amax/amin down contiguous columns (the vectorized vertical loop) against a plain loop: NaN and
   infinities in every row of a few columns, float32 and float64, column counts off the vector width */
static void test_vertical_extremes(void) {
  for (int dt = 0; dt < 2; dt++) {
    for (int64_t cols = 1; cols <= 40; cols += 13) {
      ct_scope_begin();
      const int64_t rows = 6;
      double v[6 * 40], mx[40], mn[40];
      for (int64_t j = 0; j < cols; j++) {
        bool nan = false;
        mx[j] = -INFINITY, mn[j] = INFINITY;
        for (int64_t i = 0; i < rows; i++) {
          double x = (double)((i * 37 + j * 11) % 23) - 11.5;
          if (j % 5 == 1 && i == j % rows) x = NAN;
          if (j % 5 == 2 && i == (j + 3) % rows) x = INFINITY;
          if (j % 5 == 3 && i == (j + 1) % rows) x = -INFINITY;
          v[i * cols + j] = x;
          nan |= x != x;
          if (x > mx[j]) mx[j] = x;
          if (x < mn[j]) mn[j] = x;
        }
        if (nan) mx[j] = mn[j] = NAN;
      }
      ct_tensor *x = ct_tensor_from_data(v, CT_FLOAT64, CT_SHAPE(rows, cols), NULL);
      if (dt == 0) x = ct_to_dtype(x, CT_FLOAT32);
      double got_max[40], got_min[40];
      CHECK(ct_copy_to_buffer(ct_amax(x, &(ct_reduce_opts){.dims = CT_DIMS(0)}), got_max, CT_FLOAT64,
                              (size_t)cols * sizeof(double)) == CT_OK);
      CHECK(ct_copy_to_buffer(ct_amin(x, &(ct_reduce_opts){.dims = CT_DIMS(0)}), got_min, CT_FLOAT64,
                              (size_t)cols * sizeof(double)) == CT_OK);
      for (int64_t j = 0; j < cols; j++) {
        CHECK(mx[j] != mx[j] ? got_max[j] != got_max[j] : got_max[j] == mx[j]);
        CHECK(mn[j] != mn[j] ? got_min[j] != got_min[j] : got_min[j] == mn[j]);
      }
      ct_scope_end();
    }
  }
}

/* logsumexp down contiguous columns (blocks of rows, merged) against log(sum(exp(x - m))) + m in
   double: more rows than a block, NaN, infinities and an all -inf column */
/* logsumexp of n floats v[0], v[s], ... in double: log(sum(exp(x - m))) + m, m the maximum (0 when
   infinite), NaN if any is; and whether got matches it */
static double lse_want(const float *v, int n, int s) {
  double m = -INFINITY, sum = 0;
  bool nan = false;
  for (int k = 0; k < n; k++) nan |= v[k * s] != v[k * s], m = v[k * s] > m ? v[k * s] : m;
  double sh = isinf(m) ? 0 : m;
  for (int k = 0; k < n; k++) sum += exp(v[k * s] - sh);
  return nan ? NAN : log(sum) + sh;
}
static bool lse_ok(double got, double want) {
  if (want != want) return got != got;
  if (isinf(want)) return got == want;
  return fabs(got - want) <= 1e-5 * fabs(want) + 1e-5;
}

static void test_lse_columns(void) {
  ct_scope_begin();
  enum { R = 150, C = 37 };
  float v[R * C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) v[i * C + j] = (float)((i * 31 + j * 17) % 101) * 0.25f - 12.0f + (float)j;
  v[77 * C + 3] = NAN;
  v[140 * C + 5] = INFINITY;
  for (int i = 0; i < R; i++) v[i * C + 7] = -INFINITY;
  v[10 * C + 9] = -INFINITY;
  double got[C];
  CHECK(ct_copy_to_buffer(ct_logsumexp(fdata(v, CT_SHAPE(R, C)), &(ct_reduce_opts){.dims = CT_DIMS(0)}), got,
                          CT_FLOAT64, sizeof got) == CT_OK);
  for (int j = 0; j < C; j++) CHECK(lse_ok(got[j], lse_want(v + j, R, C)));
  ct_scope_end();
}

/* logsumexp of many short lines (blocks of lines exponentiated side by side) against the same formula
   in double, contiguous and strided lines: NaN, +inf, an all -inf line and a line with one -inf */
static void test_lse_short_lines(void) {
  enum { R = 300 };
  static const int ns[] = {1, 2, 5, 15};
  for (size_t c = 0; c < sizeof ns / sizeof ns[0]; c++) {
    const int n = ns[c];
    float v[R * 15];
    for (int i = 0; i < R; i++)
      for (int k = 0; k < n; k++) v[i * n + k] = (float)((i * 31 + k * 17) % 101) * 0.25f - 12.0f + (float)(i % 7);
    v[3 * n] = NAN;
    v[7 * n + n - 1] = INFINITY;
    for (int k = 0; k < n; k++) v[11 * n + k] = -INFINITY;
    v[13 * n] = -INFINITY;
    for (int strided = 0; strided < 2; strided++) {
      ct_scope_begin();
      ct_tensor *x = fdata(v, CT_SHAPE(R, n));
      double got[R];
      if (strided) x = ct_t(ct_contiguous(ct_t(x), CT_MEMORY_FORMAT_UNSET)); /* the same values, lines R elements apart */
      CHECK(ct_copy_to_buffer(ct_logsumexp(x, &(ct_reduce_opts){.dims = CT_DIMS(1)}), got, CT_FLOAT64, sizeof got) ==
            CT_OK);
      int bad = 0;
      for (int i = 0; i < R; i++) bad += !lse_ok(got[i], lse_want(v + i * n, n, 1));
      CHECK(bad == 0);
      ct_scope_end();
    }
  }
}

/* bfloat16 logsumexp rounds at each of PyTorch's steps, its two-dim sum between loops too: torch 1.13's
   bits (the fused double sum gave 6.28125 for the middle one) */
static void test_lse_bf16(void) {
  ct_scope_begin();
  const float v[24] = {0.25f, 9.75f, -10.0f, -3.25f, -1.75f, -8.25f, 5.25f, 5.0f, -5.75f, -8.25f, -9.5f, 0.0f,
                       1.25f, 1.0f, 6.0f, 1.25f, 2.0f, 1.25f, -3.0f, 5.25f, 7.0f, -9.5f, -3.0f, 2.25f};
  ct_tensor *x = ct_to_dtype(fdata(v, CT_SHAPE(2, 3, 4)), CT_BFLOAT16);
  uint16_t got[3] = {0};
  CHECK(ct_copy_to_buffer(ct_logsumexp(x, &(ct_reduce_opts){.dims = CT_DIMS(0, 2)}), got, CT_BFLOAT16, sizeof got) ==
        CT_OK);
  CHECK(got[0] == 0x411c && got[1] == 0x40ca && got[2] == 0x40e0);
  ct_scope_end();
}

/* ---- issue 13: float32/float64 statistics, norms and logsumexp equal torch 1.13's bits at one thread
   (the expected bits printed by torch 1.13 with torch.set_num_threads(1)) ---- */
/* n values (i * 37 % 101) / 7 as dtype dt (torch.tensor of the same Python floats) */
static ct_tensor *pattern(int64_t n, ct_dtype dt, int64_t mul, int64_t mod, double div) {
  double v[2100];
  CHECK(n <= 2100);
  for (int64_t i = 0; i < n; i++) v[i] = (double)(i * mul % mod) / div;
  return ct_to_dtype(ct_tensor_from_data(v, CT_FLOAT64, CT_SHAPE(n), NULL), dt);
}
static uint32_t bits32(const ct_tensor *t, int64_t i) {
  float f[2100];
  int64_t n = ct_numel(t);
  CHECK(n <= 2100 && i < n);
  CHECK(ct_copy_to_buffer(t, f, CT_FLOAT32, (size_t)n * sizeof(float)) == CT_OK);
  uint32_t u;
  memcpy(&u, &f[i], 4);
  return u;
}
static uint64_t bits64(const ct_tensor *t, int64_t i) {
  double d = at(t, i);
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
/* the sum of the float32 results' bits (a checksum of every row) */
static uint64_t bitsum32(const ct_tensor *t) {
  uint64_t s = 0;
  for (int64_t i = 0; i < ct_numel(t); i++) s += bits32(t, i);
  return s;
}

/* item 4: torch sums exp(x - max) in the input's float dtype (its cascade), then SLEEF's log */
static void test_lse_bits(void) {
  ct_scope_begin();
  ct_set_num_threads(1);
  float a8[8]; /* torch.arange(8) / 10.: float32 divisions */
  for (int i = 0; i < 8; i++) a8[i] = (float)i / 10.0f;
  CHECK_EQ_INT(bits32(ct_logsumexp(fdata(a8, CT_SHAPE(8)), &(ct_reduce_opts){.dims = CT_DIMS(0)}), 0), 0x401d27bf);
  const float v[3] = {1, 5, 3};
  CHECK_EQ_INT(bits32(ct_logsumexp(fdata(v, CT_SHAPE(3)), &(ct_reduce_opts){.dims = CT_DIMS(0)}), 0), 0x40a492e6);
  const int64_t iv[5] = {1, 5, 3, -2, 7}; /* integers: the default dtype */
  ct_tensor *xi = ct_tensor_from_data(iv, CT_INT64, CT_SHAPE(5), NULL);
  CHECK_EQ_INT(bits32(ct_logsumexp(xi, &(ct_reduce_opts){.dims = CT_DIMS(0)}), 0), 0x40e4a55a);
  /* down the columns (op by op) and along float64 rows (fused) */
  ct_tensor *d = ct_view(pattern(60, CT_FLOAT32, 37, 101, 7.0), CT_SHAPE(6, 10));
  ct_tensor *r = ct_logsumexp(d, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  CHECK(bitsum32(r) == UINT64_C(10955067079) && bits32(r, 3) == 0x413a1cff);
  r = ct_logsumexp(ct_view(pattern(60, CT_FLOAT64, 37, 101, 7.0), CT_SHAPE(6, 10)), &(ct_reduce_opts){.dims = CT_DIMS(1)});
  const uint64_t want[6] = {0x402b63400cb8d34d, 0x402c44038fa5ea3b, 0x402a46e8a5b3f08b,
                            0x402d5ae2c8295798, 0x402bfadefd5cc5a9, 0x4029fdc4136acbf8};
  for (int i = 0; i < 6; i++) CHECK(bits64(r, i) == want[i]);
  ct_set_num_threads(0);
  ct_scope_end();
}

/* item 5: norm p=2 of float32 over a contiguous last dim: vector lanes, then the tail as torch's build
   computes it; float64 by NormTwoOps (fused, in order); two dims: sqrt(sum(x * x)) */
static void test_norm_bits(void) {
  ct_scope_begin();
  const float v[4] = {0, .1f, .2f, .3f};
  CHECK_EQ_INT(bits32(ct_norm(fdata(v, CT_SHAPE(4)), NULL), 0), 0x3ebf92a8);
  CHECK_EQ_INT(bits32(ct_norm(pattern(13, CT_FLOAT32, 37, 101, 7.0), NULL), 0), 0x41d7ea54);
  CHECK(bits64(ct_norm(pattern(40, CT_FLOAT64, 37, 101, 7.0), NULL), 0) == UINT64_C(0x404a2a2a2b120012));
  ct_tensor *a = pattern(30, CT_FLOAT32, 37, 101, 7.0), *b = pattern(30, CT_FLOAT32, 53, 97, 9.0);
  CHECK_EQ_INT(bits32(ct_dist(a, b, NULL), 0), 0x41e209a2);
  ct_tensor *d = ct_view(pattern(60, CT_FLOAT32, 37, 101, 7.0), CT_SHAPE(6, 10));
  CHECK_EQ_INT(bits32(ct_norm(d, &(ct_norm_opts){.dims = CT_DIMS(0, 1)}), 0), 0x427e5452);
  CHECK_EQ_INT(bits32(ct_norm(ct_t(d), &(ct_norm_opts){.dims = CT_DIMS(0, 1)}), 0), 0x427e5452);
  ct_scope_end();
}

/* item 6: var/std by WelfordOps element by element (var_mean's mean too), the whole-tensor var by
   std_var_all_cpu's two passes; the complex mean divides as c10::complex did in 1.13 */
static void test_var_bits(void) {
  ct_scope_begin();
  ct_set_num_threads(1);
  ct_tensor *s = ct_sqrt(ct_arange(CT_INT(1), CT_INT(5), CT_INT(1), &(ct_tensor_opts){.dtype = CT_FLOAT64}));
  CHECK(bits64(ct_var(s, NULL), 0) == UINT64_C(0x3fc7b77539dedafd));
  const double v3[3] = {1, 2, 4};
  ct_tensor *var = NULL, *mean = NULL;
  CHECK(ct_var_mean(ct_tensor_from_data(v3, CT_FLOAT64, CT_SHAPE(3), NULL), &var, &mean,
                    &(ct_var_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK(bits64(var, 0) == UINT64_C(0x4002aaaaaaaaaaaa) && bits64(mean, 0) == UINT64_C(0x4002aaaaaaaaaaab));
  ct_tensor *e = ct_view(pattern(2100, CT_FLOAT32, 37, 101, 7.0), CT_SHAPE(300, 7));
  CHECK(ct_var_mean(e, &var, &mean, &(ct_var_opts){.dims = CT_DIMS(1)}) == CT_OK);
  CHECK(bitsum32(var) == UINT64_C(330166360177) && bitsum32(mean) == UINT64_C(326594381449));
  CHECK(ct_std_mean(ct_to_dtype(e, CT_FLOAT64), &var, &mean, &(ct_var_opts){.dims = CT_DIMS(0)}) == CT_OK);
  const uint64_t sd[7] = {0x4010b5fb22a76899, 0x4010b4f7903ad8c6, 0x4010a96a96b7374a, 0x4010b13f45b0976e,
                          0x4010ae8a2cf7a56e, 0x4010b2638a527ba2, 0x4010b43fa98aefdc};
  const uint64_t mn[7] = {0x401c8bf2591ddde1, 0x401c87120afbbbbd, 0x401cb3719db0a3d3, 0x401c7d516ee06d36,
                          0x401c787120cbf25b, 0x401ca4d0b391eb87, 0x401c9ff06598bf27};
  for (int i = 0; i < 7; i++) CHECK(bits64(var, i) == sd[i] && bits64(mean, i) == mn[i]);
  CHECK_EQ_INT(bits32(ct_var(e, NULL), 0), 0x418af11a);
  /* an expanded input: std_var_all_cpu's partial sums per 2-D block of its iterator (the contiguous copy
     gives 0x4100f6a525bb690b) */
  ct_tensor *q = ct_view(ct_mul(ct_sqrt(ct_arange(CT_INT(1), CT_INT(5), CT_INT(1), &(ct_tensor_opts){.dtype = CT_FLOAT64})),
                                ct_scalar_tensor(CT_DOUBLE(1000), NULL)),
                         CT_SHAPE(2, 1, 1, 2, 1));
  ct_tensor *qe = ct_expand(q, CT_SHAPE(2, 2, 2, 1, 2, 2));
  CHECK(bits64(ct_var(qe, &(ct_var_opts){.correction = CT_INT(0)}), 0) == UINT64_C(0x4100f6a525bb690c));
  CHECK_EQ_INT(bits32(ct_std(ct_t(e), NULL), 0), 0x40855bd6);
  const double c[6] = {8.5, 7.6, 3.7, 2.6, -0.7, 5.2};
  ct_tensor *xc = ct_tensor_from_data(c, CT_COMPLEX128, CT_SHAPE(3), NULL);
  ct_complex128 m = {0, 0};
  CHECK(ct_item_complex(ct_mean(xc, NULL), &m) == CT_OK);
  CHECK(m.re == 0x1.eaaaaaaaaaaabp+1 && m.im == 0x1.4888888888889p+2);
  CHECK(ct_item_complex(ct_mean(ct_to_dtype(xc, CT_COMPLEX64), NULL), &m) == CT_OK);
  float mr = (float)m.re, mi = (float)m.im;
  uint32_t ur, ui;
  memcpy(&ur, &mr, 4), memcpy(&ui, &mi, 4);
  CHECK(ur == 0x40755555 && ui == 0x40a44444);
  ct_set_num_threads(0);
  ct_scope_end();
}

/* item 7: an int32 input summed with dtype=bfloat16 accumulates in float (torch's cascade on the
   converted values): 6, where a double accumulator gives 25 */
static void test_bf16_int_sum_bits(void) {
  ct_scope_begin();
  const int32_t v[8] = {500000000, 3, -500000000, 5, 499999999, -499999990, 7, 1};
  ct_tensor *x = ct_tensor_from_data(v, CT_INT32, CT_SHAPE(8), NULL);
  uint16_t got = 0;
  CHECK(ct_copy_to_buffer(ct_sum(x, &(ct_reduce_opts){.dtype = CT_BFLOAT16}), &got, CT_BFLOAT16, 2) == CT_OK);
  CHECK_EQ_INT(got, 0x40c0);
  ct_scope_end();
}

/* Whole reductions of an expanded tensor of 2^63 - 2 elements: torch 1.13 runs them for ever; ctorch cuts
   them into chunks without overflowing (the count was (N + 32767) / 32768, a signed overflow: fuzz input F6)
   and fails asking for the chunks' partials (petabytes), leaving the input as it was. */
static void test_huge_expanded(void) {
  ct_scope_begin();
  ct_tensor *x = ct_broadcast_to(ct_zeros(CT_SHAPE(1), NULL), CT_SHAPE(INT64_MAX - 1));
  CHECK(x && ct_numel(x) == INT64_MAX - 1 && ct_strides(x)[0] == 0);
  CHECK(!ct_argmin(x, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  CHECK(!ct_argmax(x, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  CHECK(!ct_amax(x, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  CHECK(!ct_sum(x, NULL) && ct_last_error() == CT_ERR_OUT_OF_MEMORY);
  CHECK(ct_numel(x) == INT64_MAX - 1 && ct_strides(x)[0] == 0 && ct_storage_offset(x) == 0);
  ct_clear_error();
  ct_scope_end();
}

/* Those reductions ask malloc for petabytes: under ASan that must fail as it does without it. */
#if defined(__SANITIZE_ADDRESS__)
#define CT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT_TEST_ASAN 1
#endif
#endif
#ifdef CT_TEST_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

/* Products in bool are torch 1.13's, whose vector steps answer true whatever the elements (sum.c): the
   whole 128-element blocks of a contiguous line, and the whole 128-column blocks of contiguous columns
   into a contiguous output, come out true. The expected values are torch's (one thread):
     x = torch.ones(300, dtype=torch.bool); x[5] = False; torch.prod(x, dtype=torch.bool)   -> True
     x[299] = False; torch.prod(x, dtype=torch.bool)                                        -> False
     z = torch.ones(3, 300, dtype=torch.bool); z[1, 7] = False; z[2, 290] = False
     torch.prod(z, 0, dtype=torch.bool)[[7, 290]]                                           -> [True, False]
     o = torch.zeros(600, dtype=torch.bool)[::2]; torch.prod(z, 0, out=o); o[[7, 290]]      -> [False, False] */
static void test_bool_prod_blocks(void) {
  ct_scope_begin();
  ct_tensor_opts b = {.dtype = CT_BOOL};
  ct_reduce_opts as_bool = {.dtype = CT_BOOL};
  ct_tensor *x = ct_ones(CT_SHAPE(300), &b);
  CHECK(ct_index_put_(x, "5", false) == CT_OK);
  CHECK_EQ_INT(ival(ct_prod(x, &as_bool)), 1);
  CHECK_EQ_INT(ival(ct_prod(x, &(ct_reduce_opts){.dtype = CT_INT64})), 0); /* int64: the true product */
  CHECK(ct_index_put_(x, "299", false) == CT_OK);
  CHECK_EQ_INT(ival(ct_prod(x, &as_bool)), 0);
  ct_tensor *z = ct_ones(CT_SHAPE(3, 300), &b);
  CHECK(ct_index_put_(z, "1, 7", false) == CT_OK);
  CHECK(ct_index_put_(z, "2, 290", false) == CT_OK);
  ct_tensor *r = ct_prod(z, &(ct_reduce_opts){.dims = CT_DIMS(0), .dtype = CT_BOOL});
  CHECK_EQ_INT(ival(ct_index(r, "7")), 1);
  CHECK_EQ_INT(ival(ct_index(r, "290")), 0);
  ct_tensor *o = ct_index(ct_zeros(CT_SHAPE(600), &b), "::2"); /* a strided out: torch's scalar loop */
  CHECK(ct_prod_out(o, z, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_EQ_INT(ival(ct_index(o, "7")), 0);
  CHECK_EQ_INT(ival(ct_index(o, "290")), 0);
  ct_scope_end();
}

int main(void) {
  test_huge_expanded();
  test_lse_bits();
  test_norm_bits();
  test_var_bits();
  test_bf16_int_sum_bits();
  test_complex_extreme_norms();
  test_sums();
  test_half_sums();
  test_layout();
  test_extremes();
  test_float_extreme_kernels();
  test_float_extreme_zeros();
  test_sum_bits();
  test_vertical_extremes();
  test_short_and_stacked_lines();
  test_lse_columns();
  test_lse_short_lines();
  test_lse_bf16();
  test_statistics();
  test_norms();
  test_logical_and_lse();
  test_out_forms();
  test_bool_prod_blocks();
  test_thread_independence();
  test_meta();
  return TEST_SUMMARY();
}
