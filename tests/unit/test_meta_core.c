/* The meta device through the core families (issue 14): a meta call runs torch 1.13's meta function, not the
   CPU kernel without values. Every expected geometry and message below is torch 1.13's, from the lines quoted
   (m(*s, dtype) = torch.empty(*s, device="meta", dtype=dtype); x = m(4, 3).t()). tests/diff/ops_meta_core.py
   compares the core tables' entries on meta at random. */
#include "check.h"

static ct_tensor *meta(ct_shape s, ct_dtype dt) {
  return ct_empty(s, &(ct_tensor_opts){.device = CT_DEVICE_META, .dtype = dt});
}

/* The CPU kernel's checks are not made: torch.add(m(3, int8), m(3, int8), alpha=1000) is a meta tensor of
   shape (3,); on the CPU, "value cannot be converted to type int8_t without overflow". */
static void test_no_kernel_checks(void) {
  ct_tensor *a = meta(CT_SHAPE(3), CT_INT8);
  ct_alpha_opts o = {ct_scalar_int(1000)};
  ct_tensor *r = ct_add(a, a, &o);
  CHECK(r != NULL && ct_device_of(r).type == CT_META && ct_dtype_of(r) == CT_INT8);
  if (r) CHECK_SHAPE(r, 3);
  ct_release(r);
  ct_tensor *c = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT8});
  CHECK(ct_add(c, c, &o) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  ct_release(c);
  ct_release(a);
}

/* abs.out's and logical_and.out's Meta kernels are torch/_refs' functions under out_wrapper. */
static void test_pointwise_out_wrapper(void) {
  ct_tensor *m43 = meta(CT_SHAPE(4, 3), CT_FLOAT32), *x = ct_transpose(m43, 0, 1);
  /* o = m(5); torch.abs(x, out=o): o is (3, 4), strides (4, 1) (resized: another element count) */
  ct_tensor *o = meta(CT_SHAPE(5), CT_FLOAT32);
  CHECK(ct_abs_out(o, x) == CT_OK);
  CHECK_SHAPE(o, 3, 4);
  CHECK_STRIDES(o, 4, 1);
  ct_release(o);
  /* o = m(12, 1): the same element count, kept: (12, 1), strides (1, 1) */
  o = meta(CT_SHAPE(12, 1), CT_FLOAT32);
  CHECK(ct_abs_out(o, x) == CT_OK);
  CHECK_SHAPE(o, 12, 1);
  CHECK_STRIDES(o, 1, 1);
  ct_release(o);
  /* o = m(3, 4, dtype=int32): _safe_copy_out's refusal */
  o = meta(CT_SHAPE(3, 4), CT_INT32);
  CHECK(ct_abs_out(o, x) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempting to cast from torch.float32 to out tensor with dtype torch.int32, but this "
              "can't be cast because it is not safe!");
  ct_release(o);
  /* torch.logical_and(x, x).stride(): (4, 1), the functional form's empty out resized (the CPU: (1, 3)) */
  ct_tensor *r = ct_logical_and(x, x);
  CHECK(r != NULL && ct_dtype_of(r) == CT_BOOL);
  if (r) CHECK_STRIDES(r, 4, 1);
  ct_release(r);
  ct_release(x);
  ct_release(m43);
}

/* Python meta functions of reductions: meta_nansum and meta_max. */
static void test_reduction_meta(void) {
  /* torch.nansum(m(2, 3, dtype=complex64), 1): shape (2,) (the CPU: "nansum does not support complex inputs") */
  ct_tensor *c = meta(CT_SHAPE(2, 3), CT_COMPLEX64);
  ct_tensor *r = ct_nansum(c, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  CHECK(r != NULL && ct_dtype_of(r) == CT_COMPLEX64);
  if (r) CHECK_SHAPE(r, 2);
  ct_release(r);
  /* torch.nansum(m(2, 3, dtype=int8)).dtype: torch.int64 */
  ct_tensor *i8 = meta(CT_SHAPE(2, 3), CT_INT8);
  r = ct_nansum(i8, NULL);
  CHECK(r != NULL && ct_dtype_of(r) == CT_INT64 && ct_dim(r) == 0);
  ct_release(r);
  /* torch.nansum(m(2, 3), (1, -1)): RuntimeError "duplicate value in the list of dims" */
  ct_tensor *f = meta(CT_SHAPE(2, 3), CT_FLOAT32);
  CHECK(ct_nansum(f, &(ct_reduce_opts){.dims = CT_DIMS(1, -1)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "duplicate value in the list of dims");
  /* torch.max(m(0, 3)).shape: torch.Size([]) (the CPU: "max(): Expected reduction dim to be specified ...") */
  ct_tensor *e = meta(CT_SHAPE(0, 3), CT_FLOAT32);
  r = ct_max(e);
  CHECK(r != NULL && ct_dim(r) == 0 && ct_device_of(r).type == CT_META);
  ct_release(r);
  ct_release(e);
  ct_release(f);
  ct_release(i8);
  ct_release(c);
}

/* torch/_refs' functions as Meta kernels: floor_divide, logit; the in-place forms' Meta kernels that check nothing. */
static void test_pointwise_refs(void) {
  ct_tensor *b = meta(CT_SHAPE(2, 3), CT_BOOL);
  /* torch.floor_divide(m(2, 3, dtype=bool), m(2, 3, dtype=bool)): "torch.bool not supported for floor_divide" */
  CHECK(ct_floor_divide(b, b) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.bool not supported for floor_divide");
  /* torch.div(c, c, rounding_mode='floor') on m(2, dtype=complex64): structured div, shape (2,) */
  ct_tensor *c = meta(CT_SHAPE(2), CT_COMPLEX64);
  ct_tensor *r = ct_div(c, c, &(ct_div_opts){.rounding_mode = "floor"});
  CHECK(r != NULL);
  ct_release(r);
  /* m(2, 3, dtype=int8).floor_divide_(m(7)): no check, self returned as it is */
  ct_tensor *i8 = meta(CT_SHAPE(2, 3), CT_INT8), *m7 = meta(CT_SHAPE(7), CT_FLOAT32);
  CHECK(ct_floor_divide_(i8, m7) == CT_OK);
  CHECK_SHAPE(i8, 2, 3);
  /* x = m(4, 3).t(): torch.floor_divide(x, m(3, 4)).stride() == (1, 3), torch.floor_divide(m(3, 4), x): (4, 1) */
  ct_tensor *m43 = meta(CT_SHAPE(4, 3), CT_FLOAT32), *x = ct_transpose(m43, 0, 1),
            *y = meta(CT_SHAPE(3, 4), CT_FLOAT32);
  r = ct_floor_divide(x, y);
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 1, 3);
  ct_release(r);
  r = ct_floor_divide(y, x);
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 4, 1);
  ct_release(r);
  /* torch.logit(c): "clamp is not supported for complex types"; torch.logit(m(3, dtype=int32), out=m(5, int32)):
     the float32 result refused by _safe_copy_out */
  CHECK(ct_logit(c, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "clamp is not supported for complex types");
  ct_tensor *i32 = meta(CT_SHAPE(3), CT_INT32), *o = meta(CT_SHAPE(5), CT_INT32);
  CHECK(ct_logit_out(o, i32, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempting to cast from torch.float32 to out tensor with dtype torch.int32, but this "
              "can't be cast because it is not safe!");
  /* torch.masked_fill(m(1, 3, dtype=int8), m(2, 1, dtype=bool), m(2)): (2, 3), strides (3, 1) (the value's
     dims are not checked on meta) */
  ct_tensor *s13 = meta(CT_SHAPE(1, 3), CT_INT8), *mask = meta(CT_SHAPE(2, 1), CT_BOOL),
            *v = meta(CT_SHAPE(2), CT_FLOAT32);
  r = ct_masked_fill(s13, mask, v);
  CHECK(r != NULL);
  if (r) {
    CHECK_SHAPE(r, 2, 3);
    CHECK_STRIDES(r, 3, 1);
  }
  ct_release(r);
  ct_tensor *all[] = {b, c, i8, m7, m43, x, y, i32, o, s13, mask, v};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) ct_release(all[k]);
}

/* var/std: torch/_decomp's var_correction; var_mean/std_mean: torch/_refs'; nanmean: its composite over
   meta_nansum. */
static void test_var_nanmean_meta(void) {
  /* torch.var(m(), (0,)): IndexError 'tuple index out of range' (the CPU reduces the 0-dim input) */
  ct_tensor *s0 = meta(CT_SHAPE_SCALAR, CT_FLOAT32);
  CHECK(ct_var(s0, &(ct_var_opts){.dims = CT_DIMS(0)}) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "tuple index out of range");
  /* torch.std(m(3, 4, dtype=int32), (1,)): mean's message */
  ct_tensor *i32 = meta(CT_SHAPE(3, 4), CT_INT32);
  CHECK(ct_std(i32, &(ct_var_opts){.dims = CT_DIMS(1)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "mean(): could not infer output dtype. Input dtype must be either a floating point or "
              "complex dtype. Got: Int");
  /* torch.var(m(1, 2, 2, 2, 0, 1), [-1], keepdim=True).stride(): (0, 0, 0, 0, 1, 0) (sum / n of an empty
     tensor); torch.std(...): (8, 4, 2, 1, 1, 1) */
  ct_tensor *e = meta(CT_SHAPE(1, 2, 2, 2, 0, 1), CT_FLOAT32);
  ct_tensor *r = ct_var(e, &(ct_var_opts){.dims = CT_DIMS(-1), .keepdim = true});
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 0, 0, 0, 0, 1, 0);
  ct_release(r);
  r = ct_std(e, &(ct_var_opts){.dims = CT_DIMS(-1), .keepdim = true});
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 8, 4, 2, 1, 1, 1);
  ct_release(r);
  /* torch.var_mean(m(3, 4, 5, dtype=bool), (1,), keepdim=True): bool results, strides (5, 0, 1) and (5, 5, 1) */
  ct_tensor *b = meta(CT_SHAPE(3, 4, 5), CT_BOOL), *v = NULL, *mn = NULL;
  CHECK(ct_var_mean(b, &v, &mn, &(ct_var_opts){.dims = CT_DIMS(1), .keepdim = true}) == CT_OK);
  if (v && mn) {
    CHECK(ct_dtype_of(v) == CT_BOOL && ct_dtype_of(mn) == CT_BOOL);
    CHECK_STRIDES(v, 5, 0, 1);
    CHECK_STRIDES(mn, 5, 5, 1);
  }
  ct_release(v);
  ct_release(mn);
  /* torch.std_mean(m(3, 4, 5, dtype=complex64), (1,), keepdim=True): float32 (5, 5, 1), complex64 (5, 5, 1) */
  ct_tensor *c = meta(CT_SHAPE(3, 4, 5), CT_COMPLEX64);
  CHECK(ct_std_mean(c, &v, &mn, &(ct_var_opts){.dims = CT_DIMS(1), .keepdim = true}) == CT_OK);
  if (v && mn) {
    CHECK(ct_dtype_of(v) == CT_FLOAT32 && ct_dtype_of(mn) == CT_COMPLEX64);
    CHECK_STRIDES(v, 5, 5, 1);
    CHECK_STRIDES(mn, 5, 5, 1);
  }
  ct_release(v);
  ct_release(mn);
  /* torch.var(m(3, 4, 5, dtype=float16).permute(2, 0, 1), (1,)): float16 (5, 4) strides (4, 1); std keepdim:
     (5, 1, 4) strides (4, 4, 1). The float16 step (.to() back from float32) once leaked its result: LSan in the
     ASan run checks that it is released. */
  ct_tensor *h16 = meta(CT_SHAPE(3, 4, 5), CT_FLOAT16), *hp = ct_permute(h16, CT_DIMS(2, 0, 1));
  r = ct_var(hp, &(ct_var_opts){.dims = CT_DIMS(1)});
  CHECK(r != NULL && ct_dtype_of(r) == CT_FLOAT16);
  if (r) CHECK_STRIDES(r, 4, 1);
  ct_release(r);
  r = ct_std(hp, &(ct_var_opts){.dims = CT_DIMS(1), .keepdim = true});
  CHECK(r != NULL && ct_dtype_of(r) == CT_FLOAT16);
  if (r) CHECK_STRIDES(r, 4, 4, 1);
  ct_release(r);
  ct_release(hp);
  ct_release(h16);
  /* torch.var_mean(m(3, 4, 5, dtype=bool), (1,), correction=-1): ValueError;
     torch.var_mean(m(3, 4, dtype=int32), (0, 0)): "duplicate value in the list of dims", with (1,): "result type
     should be floating point or complex" */
  CHECK(ct_var_mean(b, &v, &mn, &(ct_var_opts){.dims = CT_DIMS(1), .correction = CT_INT(-1)}) ==
        CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "correction argument should be non-negative");
  CHECK(ct_var_mean(i32, &v, &mn, &(ct_var_opts){.dims = CT_DIMS(0, 0)}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "duplicate value in the list of dims");
  CHECK(ct_var_mean(i32, &v, &mn, &(ct_var_opts){.dims = CT_DIMS(1)}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type should be floating point or complex");
  /* torch.nanmean(m(3, 4, dtype=float16), (0,), dtype=torch.int32): float32, shape (4,) */
  ct_tensor *h = meta(CT_SHAPE(3, 4), CT_FLOAT16);
  r = ct_nanmean(h, &(ct_reduce_opts){.dims = CT_DIMS(0), .dtype = CT_INT32});
  CHECK(r != NULL && ct_dtype_of(r) == CT_FLOAT32);
  if (r) CHECK_SHAPE(r, 4);
  ct_release(r);
  /* torch.nanmean(m(3, 4), (0,), out=m(0)): "DispatchStub: unsupported device typemeta"; of m(0, 4): out (4,) */
  ct_tensor *f = meta(CT_SHAPE(3, 4), CT_FLOAT32), *f0 = meta(CT_SHAPE(0, 4), CT_FLOAT32);
  ct_tensor *o = meta(CT_SHAPE(0), CT_FLOAT32);
  CHECK(ct_nanmean_out(o, f, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "DispatchStub: unsupported device typemeta");
  ct_release(o);
  o = meta(CT_SHAPE(0), CT_FLOAT32);
  CHECK(ct_nanmean_out(o, f0, &(ct_reduce_opts){.dims = CT_DIMS(0)}) == CT_OK);
  CHECK_SHAPE(o, 4);
  ct_tensor *all[] = {s0, i32, e, b, c, h, f, f0, o};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) ct_release(all[k]);
}

/* where, nan_to_num.out, mvlgamma.out, logit, isnan and remainder(number, t) through their torch/_refs Meta kernels;
   as_strided's SymInt bounds; t[index] = number on meta. */
static void test_refs_meta_more(void) {
  /* torch.where(m(3, dtype=uint8), m(3), m(3)): "expected predicate to be bool, got torch.uint8" */
  ct_tensor *u8 = meta(CT_SHAPE(3), CT_UINT8), *f3 = meta(CT_SHAPE(3), CT_FLOAT32);
  CHECK(ct_where(u8, f3, f3) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected predicate to be bool, got torch.uint8");
  /* y = m(4, 3).t(): torch.where(m(3, 4, dtype=bool), y, m(3, 4)).stride() == (1, 3), with a and b swapped (4, 1) */
  ct_tensor *m43 = meta(CT_SHAPE(4, 3), CT_FLOAT32), *y = ct_transpose(m43, 0, 1);
  ct_tensor *c34 = meta(CT_SHAPE(3, 4), CT_BOOL), *f34 = meta(CT_SHAPE(3, 4), CT_FLOAT32);
  ct_tensor *r = ct_where(c34, y, f34);
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 1, 3);
  ct_release(r);
  r = ct_where(c34, f34, y);
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 4, 1);
  ct_release(r);
  /* torch.where(m((), dtype=bool), m((), dtype=float16), 1099511627776): float16, no overflow check on meta */
  ct_tensor *c0 = meta((ct_shape){NULL, 0}, CT_BOOL), *h0 = meta((ct_shape){NULL, 0}, CT_FLOAT16);
  r = ct_where(c0, h0, (int64_t)1099511627776);
  CHECK(r != NULL && ct_dtype_of(r) == CT_FLOAT16);
  ct_release(r);
  /* torch.where(m(1, 1, 4, 1, dtype=bool).transpose(2, 3), m(4, dtype=int16).as_strided((1, 1, 1, 1), (1, 1, 4, 1), 2),
     3.7): where.ScalarOther's composite (a.to(float32), scalar_tensor), then the reference: float32, (1, 1, 1, 1) */
  ct_tensor *m1141 = meta(CT_SHAPE(1, 1, 4, 1), CT_BOOL), *ct = ct_transpose(m1141, 2, 3);
  ct_tensor *s4 = meta(CT_SHAPE(4), CT_INT16);
  ct_tensor *a1 = ct_as_strided(s4, CT_SHAPE(1, 1, 1, 1), CT_SHAPE(1, 1, 4, 1), &(int64_t){2});
  r = ct && a1 ? ct_where(ct, a1, 3.7) : NULL;
  CHECK(r != NULL && ct_dtype_of(r) == CT_FLOAT32);
  if (r) CHECK_STRIDES(r, 1, 1, 1, 1);
  ct_release(r);
  /* torch.nan_to_num(m(3, dtype=complex64), out=m(3)): out_wrapper's safe-cast refusal */
  ct_tensor *z3 = meta(CT_SHAPE(3), CT_COMPLEX64);
  CHECK(ct_nan_to_num_out(f3, z3, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempting to cast from torch.complex64 to out tensor with dtype torch.float32, but "
              "this can't be cast because it is not safe!");
  /* torch.mvlgamma(m(2, 3), -1, out=m(0)): arange(2, 1, 1)'s refusal; torch.mvlgamma(m(2, 3, dtype=bool), 0,
     out=m(0, dtype=float64)): out resized to (2, 3), strides (3, 1) */
  ct_tensor *f23 = meta(CT_SHAPE(2, 3), CT_FLOAT32), *b23 = meta(CT_SHAPE(2, 3), CT_BOOL);
  ct_tensor *e = meta(CT_SHAPE(0), CT_FLOAT32), *d = meta(CT_SHAPE(0), CT_FLOAT64);
  CHECK(ct_mvlgamma_out(e, f23, -1) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
  CHECK(ct_mvlgamma_out(d, b23, 0) == CT_OK);
  CHECK_SHAPE(d, 2, 3);
  CHECK_STRIDES(d, 3, 1);
  /* m(4, 2, 2, 2).as_strided([-1, 3], [1, 0]): "numel: integer multiplication overflow";
     .as_strided([-1], [1], 40): setStorage's refusal */
  ct_tensor *x = meta(CT_SHAPE(4, 2, 2, 2), CT_FLOAT32);
  CHECK(ct_as_strided(x, CT_SHAPE(-1, 3), CT_SHAPE(1, 0), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
  CHECK(ct_as_strided(x, CT_SHAPE(-1), CT_SHAPE(1), &(int64_t){40}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "setStorage: sizes [-1], strides [1], storage offset 40, and itemsize 4 requiring a "
              "storage size of 156 are out of bounds for storage of size 128");
  /* b = m(0, 1, 4).permute(2, 0, 1): torch.remainder(1, b).stride() == (1, 4, 4) */
  ct_tensor *m014 = meta(CT_SHAPE(0, 1, 4), CT_FLOAT32), *b = ct_permute(m014, CT_DIMS(2, 0, 1));
  r = ct_remainder(1, b);
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 1, 4, 4);
  ct_release(r);
  /* torch.isnan(m(0).as_strided((0, 5), (1, 1))).stride() == (1, 1) */
  ct_tensor *m0 = meta(CT_SHAPE(0), CT_FLOAT32),
            *v05 = ct_as_strided(m0, CT_SHAPE(0, 5), CT_SHAPE(1, 1), NULL);
  r = v05 ? ct_isnan(v05) : NULL;
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 1, 1);
  ct_release(r);
  /* x = m(3, 2, 2, 8, 1).transpose(1, 4)[:, :, :, 2:8:2] (strides (32, 1, 8, 2, 16)): isinf is abs(x) == inf, and
     abs's meta result is contiguous, so torch.isinf(x).stride() == (12, 12, 6, 2, 1) (on the CPU (12, 1, 3, 1, 6)),
     for a complex x too (isinf of its real and imaginary views); isfinite(x) (x == x first) keeps (12, 1, 3, 1, 6) */
  static const ct_dtype inf_dtypes[] = {CT_FLOAT32, CT_COMPLEX64};
  for (size_t q = 0; q < sizeof inf_dtypes / sizeof *inf_dtypes; q++) {
    ct_tensor *b5 = meta(CT_SHAPE(3, 2, 2, 8, 1), inf_dtypes[q]), *b5t = ct_transpose(b5, 1, 4);
    ct_tensor *x5 = b5t ? ct_slice(b5t, 3, 2, 8, 2) : NULL;
    r = x5 ? ct_isinf(x5) : NULL;
    CHECK(r != NULL);
    if (r) CHECK_STRIDES(r, 12, 12, 6, 2, 1);
    ct_release(r);
    r = x5 && q == 0 ? ct_isfinite(x5) : NULL;
    CHECK((r != NULL) == (q == 0));
    if (r) CHECK_STRIDES(r, 12, 1, 3, 1, 6);
    ct_release(r);
    ct_release(x5), ct_release(b5t), ct_release(b5);
  }
  /* torch.logit(m(1, 7, 2).as_strided((1, 2, 3), (14, 1, 2), 4)).stride() == (6, 1, 2) */
  ct_tensor *m172 = meta(CT_SHAPE(1, 7, 2), CT_FLOAT32);
  ct_tensor *v123 = ct_as_strided(m172, CT_SHAPE(1, 2, 3), CT_SHAPE(14, 1, 2), &(int64_t){4});
  r = v123 ? ct_logit(v123, NULL) : NULL;
  CHECK(r != NULL);
  if (r) CHECK_STRIDES(r, 6, 1, 2);
  ct_release(r);
  /* i = m(3, dtype=int8); i[0] = 1000 passes on meta (fill_'s Meta kernel converts nothing); i[5] = 1:
     IndexError "index 5 is out of bounds for dimension 0 with size 3" */
  ct_tensor *i8 = meta(CT_SHAPE(3), CT_INT8);
  CHECK(ct_set_item(i8, (int64_t[]){0}, CT_INT(1000)) == CT_OK);
  CHECK(ct_set_item(i8, (int64_t[]){5}, CT_INT(1)) == CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "index 5 is out of bounds for dimension 0 with size 3");
  ct_tensor *all[] = {u8,  f3,  m43, y, c34, f34,  c0, h0, m1141, ct,   s4,   a1, z3,
                      f23, b23, e,   d, x,   m014, b,  m0, v05,   m172, v123, i8};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) ct_release(all[k]);
}

/* CPU and meta tensors in one call (c10 dispatches it to meta): TensorIterator's device rule, resize_out's and
   check_inplace's, a reference's computation on CPU inputs before out_wrapper's copy. A failing call leaves its
   tensors as they were. (c(*s) = torch.ones(*s).) */
static void test_mixed_devices(void) {
  ct_scope_begin();
  ct_tensor *c0 = ct_ones(CT_SHAPE_SCALAR, NULL), *c3 = ct_ones(CT_SHAPE(3), NULL);
  ct_tensor *c23 = ct_ones(CT_SHAPE(2, 3), NULL), *c32 = ct_ones(CT_SHAPE(3, 2), NULL);
  /* torch.add(c(()), c(()), out=m(())): binary ops take one CPU scalar on another device, not two */
  CHECK_EQ_INT(ct_add_out(meta(CT_SHAPE_SCALAR, CT_FLOAT32), c0, c0, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to pass too many CPU scalars to non-CPU kernel!");
  /* torch.exp(c(()), out=m(())): unary ops none */
  CHECK_EQ_INT(ct_exp_out(meta(CT_SHAPE_SCALAR, CT_FLOAT32), c0), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
  /* m(3).add_(c(3)) is refused the same way; m(3).add_(c(())) is a meta (3,) tensor */
  ct_tensor *m3 = meta(CT_SHAPE(3), CT_FLOAT32);
  CHECK_EQ_INT(ct_add_(m3, c3, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Expected all tensors to be on the same device, but found at least two devices, meta and cpu!");
  CHECK_EQ_INT(ct_add_(m3, c0, NULL), CT_OK);
  /* torch.sum(c(2, 3), 0, out=m(3)) and torch.amax of a complex c(2, 3): resize_out's device check, not the CPU
     kernel's "max_values_cpu" refusal */
  const ct_reduce_opts d0 = {.dims = CT_DIMS(0)};
  CHECK_EQ_INT(ct_sum_out(m3, c23, &d0), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have device cpu, but got meta instead");
  ct_tensor *z23 = ct_ones(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK_EQ_INT(ct_amax_out(meta(CT_SHAPE(3), CT_COMPLEX64), z23, &d0), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have device cpu, but got meta instead");
  /* torch.mm(c(2, 3), c(3, 2), out=m(2, 2)): mm's result takes self's device */
  CHECK_EQ_INT(ct_mm_out(meta(CT_SHAPE(2, 2), CT_FLOAT32), c23, c32), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have device cpu, but got meta instead");
  /* o = torch.empty(0); torch.mm(c(2, 3), m(3, 2), out=o): o is resized to (2, 2), nothing written */
  ct_tensor *o = ct_empty(CT_SHAPE(0), NULL);
  CHECK_EQ_INT(ct_mm_out(o, c23, meta(CT_SHAPE(3, 2), CT_FLOAT32)), CT_OK);
  CHECK(ct_device_of(o).type == CT_CPU);
  CHECK_SHAPE(o, 2, 2);
  /* c(2, 2).addmm_(m(2, 3), m(3, 2)): check_inplace against mat1's device; self unchanged */
  ct_tensor *s22 = ct_ones(CT_SHAPE(2, 2), NULL);
  CHECK_EQ_INT(ct_addmm_(s22, meta(CT_SHAPE(2, 3), CT_FLOAT32), meta(CT_SHAPE(3, 2), CT_FLOAT32), NULL),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Bad in-place call: input tensor device cpu and output tensor device meta should match");
  CHECK(((const float *)ct_data_ptr(s22))[3] == 1.0f);
  /* torch.abs(c((), dtype=bool), out=m(())): the reference computes on the CPU first */
  ct_tensor *b0 = ct_ones(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK_EQ_INT(ct_abs_out(meta(CT_SHAPE_SCALAR, CT_BOOL), b0), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"abs_cpu\" not implemented for 'Bool'");
  ct_scope_end();
}

/* The references of floor_divide.out, logit.out and nan_to_num.out with CPU inputs and a meta out: they compute on
   the CPU, with their own checks and their steps' CPU kernels' (not the op's CPU kernel's), before out_wrapper's
   cross-device refusal; a refusal before out_wrapper leaves out as it was, out_wrapper resizes it first. */
static void test_mixed_references(void) {
  ct_scope_begin();
  const ct_tensor_opts f16 = {.dtype = CT_FLOAT16}, c64 = {.dtype = CT_COMPLEX64}, i8 = {.dtype = CT_INT8};
  ct_tensor *c3 = ct_ones(CT_SHAPE(3), NULL), *c23 = ct_ones(CT_SHAPE(2, 3), NULL);
  /* torch.floor_divide(c(2, 3, dtype=complex128), c(3), out=m(0)): the reference's refusal (the CPU kernel's is
     '"div_floor_cpu" not implemented for 'ComplexDouble'') */
  ct_tensor *o = meta(CT_SHAPE(0), CT_FLOAT32);
  CHECK_EQ_INT(ct_floor_divide_out(o, ct_ones(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_COMPLEX128}), c3),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.complex128 not supported for floor_divide");
  CHECK_SHAPE(o, 0);
  /* torch.floor_divide(c(2, 3, dtype=int8), 256, out=m(0, dtype=int8)): scalar_tensor(256, dtype=int8) (on the CPU
     alone, torch.floor_divide(c(2, 3, dtype=int8), 256) raises "ZeroDivisionError") */
  CHECK_EQ_INT(
      ct_floor_divide_out(meta(CT_SHAPE(0), CT_INT8), ct_ones(CT_SHAPE(2, 3), &i8), ct_wrapped_scalar(256)),
      CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  /* torch.floor_divide(c(2, 3), m(3)): the divisor's device; torch.floor_divide(m(2, 3), c(3)) is a meta (2, 3) */
  CHECK(ct_floor_divide(c23, meta(CT_SHAPE(3), CT_FLOAT32)) == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "Expected divisor (b) to be on the same device (cpu) as dividend (a), but it is found on meta!");
  ct_tensor *r = ct_floor_divide(meta(CT_SHAPE(2, 3), CT_FLOAT32), c3);
  CHECK(r != NULL && ct_device_of(r).type == CT_META);
  if (r) CHECK_SHAPE(r, 2, 3);
  /* o = m(0, dtype=float16); torch.logit(c(2, 3, dtype=float16), out=o): computed in float32, no "logit_cpu" refusal
     of Half; o is resized to (2, 3) */
  o = meta(CT_SHAPE(0), CT_FLOAT16);
  CHECK_EQ_INT(ct_logit_out(o, ct_ones(CT_SHAPE(2, 3), &f16), NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Attempting to copy from device cpu to device meta, but cross-device copies are not allowed!");
  CHECK_SHAPE(o, 2, 3);
  /* torch.logit(c(3, dtype=bfloat16), 1e39, out=m(0, dtype=bfloat16)): clamp converts eps to float (the CPU
     kernel: "value cannot be converted to type at::BFloat16 without overflow") */
  const ct_logit_opts big = {ct_scalar_double(1e39)};
  CHECK_EQ_INT(ct_logit_out(meta(CT_SHAPE(0), CT_BFLOAT16),
                            ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_BFLOAT16}), &big),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type float without overflow");
  /* torch.nan_to_num(c(3, dtype=float16), nan=1e5, out=m(0, dtype=float16)): where's conversion (the CPU kernel
     rounds 1e5 to inf) */
  const ct_nan_to_num_opts nan5 = {.nan = 1e5};
  CHECK_EQ_INT(ct_nan_to_num_out(meta(CT_SHAPE(0), CT_FLOAT16), ct_ones(CT_SHAPE(3), &f16), &nan5),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type at::Half without overflow");
  /* torch.nan_to_num(c(3, dtype=complex64), out=m(0, dtype=complex64)): signbit's refusal */
  CHECK_EQ_INT(ct_nan_to_num_out(meta(CT_SHAPE(0), CT_COMPLEX64), ct_ones(CT_SHAPE(3), &c64), NULL),
               CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "signbit is not implemented for complex tensors.");
  ct_scope_end();
}

int main(void) {
  test_mixed_devices();
  test_mixed_references();
  test_pointwise_refs();
  test_no_kernel_checks();
  test_pointwise_out_wrapper();
  test_reduction_meta();
  test_var_nanmean_meta();
  test_refs_meta_more();
  return TEST_SUMMARY();
}
