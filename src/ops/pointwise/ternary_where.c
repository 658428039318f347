/* where(condition, a, b) and masked_fill / masked_fill_.

   where: a and b promote to result_type(a, b); a Python number among them converts to that dtype with
   c10's overflow check ("value cannot be converted to type int8_t without overflow"); the condition is
   bool, or uint8 read as nonzero (PyTorch warns that this is deprecated). out= must have the result
   dtype: PyTorch's kernel then fails an internal assert, whose message we give.

   masked_fill_: the value (a Python number or a 0-dim tensor) converts to self's dtype with the same
   overflow check; the mask broadcasts to self. A mask that is not bool is read byte by byte as
   PyTorch's kernel reads it (the first byte of each element) and must hold 0 or 1. masked_fill
   (out of place) fills a contiguous copy of self broadcast with the mask. */
#include <stdatomic.h>

#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/out_wrapper.h"
#include "kernels/cpu/loops.h"
#include "ops/convert_internal.h"
#include "ops/pointwise/pw.h"

/* ---- where: out = cond ? a : b, moved as bits of the element size ---- */
typedef struct {
  uint64_t lo, hi;
} bits128;

#define DEF_WHERE(name, T)                                                                                 \
  CT_KERNEL_CLONES static void name(char **d, const int64_t *s, int64_t n, const void *ctx) {             \
    (void)ctx;                                                                                             \
    const int64_t sz = (int64_t)sizeof(T);                                                                 \
    if (s[0] == sz && s[1] == 1 && s[2] == sz && s[3] == sz) {                                             \
      T *restrict o = (T *)d[0];                                                                           \
      const uint8_t *restrict c = (const uint8_t *)d[1]; /* bool bytes: nonzero is true (CT_LDB) */                                                         \
      const T *restrict x = (const T *)d[2], *restrict y = (const T *)d[3];                                \
      for (int64_t k = 0; k < n; k++) o[k] = c[k] ? x[k] : y[k];                                           \
    } else {                                                                                               \
      for (int64_t k = 0; k < n; k++)                                                                      \
        CT_OUT(T, d[0], s[0], k) = CT_AT(uint8_t, d[1], s[1], k) ? CT_AT(T, d[2], s[2], k) : CT_AT(T, d[3], s[3], k); \
    }                                                                                                      \
  } \
  CT_LOOP_PLAIN(name)
DEF_WHERE(where8, uint8_t)
DEF_WHERE(where16, uint16_t)
DEF_WHERE(where32, uint32_t)
DEF_WHERE(where64, uint64_t)
DEF_WHERE(where128, bits128)

static const ct_loop *const where_loops[CT_NUM_DTYPES + 1] = {
    [CT_BOOL] = CT_LOOP_REF(where8),       [CT_UINT8] = CT_LOOP_REF(where8),     [CT_INT8] = CT_LOOP_REF(where8),      [CT_INT16] = CT_LOOP_REF(where16),
    [CT_INT32] = CT_LOOP_REF(where32),     [CT_INT64] = CT_LOOP_REF(where64),    [CT_FLOAT16] = CT_LOOP_REF(where16),  [CT_BFLOAT16] = CT_LOOP_REF(where16),
    [CT_FLOAT32] = CT_LOOP_REF(where32),   [CT_FLOAT64] = CT_LOOP_REF(where64),  [CT_COMPLEX64] = CT_LOOP_REF(where64), [CT_COMPLEX128] = CT_LOOP_REF(where128)};

/* A wrapped number operand must fit the dtype it converts to (at::scalar_tensor's checked conversion). */
static bool wrapped_fits(const ct_tensor *t, ct_dtype dt) {
  if (!(t->flags & CT_TENSOR_WRAPPED_NUMBER)) return true;
  return ct__scalar_fits(ct__load_scalar((ct_dtype)t->dtype, ct__tdata(t)), dt);
}

typedef struct where_check {
  const ct_tensor *out;
} where_check;

static bool where_validate(ct_dtype common, const void *arg) {
  const where_check *w = arg;
  if (w->out && (ct_dtype)w->out->dtype != common) {
    /* PyTorch: cpu_kernel refuses the dynamic cast (after resizing out, which we do not) */
    ct__error(CT_ERR_RUNTIME, "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/cpu/Loops.h\":308, please report a bug to PyTorch. ");
    return false;
  }
  return true;
}

static const ct_op where_op = {.name = "where",
                               .aten = "aten::where.self",
                               .kernels = {[CT_CPU] = where_loops, [CT_META] = ct__pw_meta_loops}};

/* An operand of where.self as torch 1.13 hands it on. With a Python number among a and b, where.ScalarOther /
   ScalarSelf / Scalar is a composite: the number becomes scalar_tensor(number, dtype=rt) on the condition's device
   and a tensor operand is converted with .to(rt) (_to_copy's layout). Without one, the reference's type
   promotion wrapper converts t (a prim's layout). Owned by the current scope; NULL when memory runs out. */
static const ct_tensor *where_operand(const ct_tensor *t, const ct_tensor *other, ct_dtype rt,
                                      const ct_tensor *cond) {
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) return ct__own(ct__empty(0, NULL, rt, ct__tdevice(cond)));
  if (other->flags & CT_TENSOR_WRAPPED_NUMBER) return ct__to_dtype_impl(t, rt);
  return ct__pw_ref_converted(t, rt);
}

/* torch 1.13's Meta kernel of aten::where.self is torch/_refs' where (its out= form through out_wrapper): a and b
   promoted (a wrapped number converts unchecked: where_operand), one device but for CPU 0-dim tensors, a bool predicate,
   _maybe_broadcast, then prims.where, whose result is laid out by compute_elementwise_output_strides over
   (a, b, pred) as converted and expanded. */
static ct_status where_meta(ct_tensor *out, const ct_tensor *cond, const ct_tensor *a, const ct_tensor *b,
                            ct_tensor **result) {
  const ct_tensor *ab[2] = {a, b}, *in[3] = {cond, a, b};
  ct_dtype rt;
  if (ct__result_type(ab, 2, &rt) != CT_OK) return ct__null_status();
  ct_device dev;
  if (!ct__pw_refs_same_device(in, 3, &dev)) return CT_ERR_RUNTIME;
  if (cond->dtype != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "expected predicate to be bool, got %s",
              ct__dt((ct_dtype)cond->dtype)->torch_name);
    return CT_ERR_RUNTIME;
  }
  int64_t nd = cond->ndim > a->ndim ? cond->ndim : a->ndim;
  nd = b->ndim > nd ? b->ndim : nd;
  int64_t shape[nd + 1], strides[nd + 1];
  if (!ct__pw_refs_broadcast(in, 3, &nd, shape)) return CT_ERR_RUNTIME;
  if (ct_scope_begin() != CT_OK) return CT_ERR_OUT_OF_MEMORY;
  const ct_tensor *ops[3] = {where_operand(a, b, rt, cond), where_operand(b, a, rt, cond), cond};
  ct_tensor *r = NULL;
  if (ops[0] && ops[1]) {
    ct__prims_elementwise_strides(ops, 3, nd, shape, strides);
    /* prims.where computes on the operands' device: a CPU result meets out_wrapper's refusal of a meta out */
    r = ct__own(ct__pw_strided_on(nd, shape, strides, rt, dev));
  }
  ct_status s = !r    ? (ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY)
                : out ? ct__out_wrapper_copy(out, r)
                      : CT_OK;
  if (s == CT_OK && result) *result = ct_retain(r);
  ct_scope_end();
  if (result && *result) *result = ct__own(*result);
  return s;
}

static ct_status where_run(ct_tensor *out, const ct_tensor *cond, const ct_tensor *a, const ct_tensor *b,
                           ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(cond, a, b);
  if (!CT__OP_ACCEPTS(&where_op, out ? "aten::where.self_out" : where_op.aten, out, cond, a, b))
    return ct_last_error();
  if (CT__OP_ON_META(out, cond, a, b)) return where_meta(out, cond, a, b, result);
  const ct_tensor *ab[2] = {a, b};
  ct_dtype rt;
  if (ct__result_type(ab, 2, &rt) != CT_OK) return ct__null_status();
  if (!wrapped_fits(a, rt) || !wrapped_fits(b, rt)) return CT_ERR_RUNTIME;
  if (cond->dtype != CT_BOOL && cond->dtype != CT_UINT8) {
    ct__error(CT_ERR_RUNTIME, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
              ct__dt((ct_dtype)cond->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_iter_config cfg = {.n_out = 1, .n_in = 3, .check_mem_overlap = true, .promote_inputs = true};
  cfg.out[0] = out;
  cfg.in[0] = cond;
  cfg.in[1] = a;
  cfg.in[2] = b;
  cfg.compute_dtype = rt;
  cfg.in_dtype[0] = CT_BOOL;
  where_check w = {out};
  cfg.validate = where_validate;
  cfg.validate_arg = &w;
  ct_iter it;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  ct__iter_run(&it, where_loops[rt], NULL);
  if (result) *result = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

ct_tensor *ct_where(const ct_tensor *condition, const ct_tensor *a, const ct_tensor *b) {
  ct_tensor *r = NULL;
  where_run(NULL, condition, a, b, &r);
  return r;
}

ct_status ct_where_out(ct_tensor *out, const ct_tensor *condition, const ct_tensor *a, const ct_tensor *b) {
  CT__NONNULL_STATUS(out, condition, a, b);
  if (!CT__OP_OUT_GRAD_OK(&where_op, out, condition, a, b)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&where_op, "aten::where.self_out", out, condition, a, b)) return ct_last_error();
  const ct_tensor *in[3] = {condition, a, b};
  if (!ct__pw_out_device_ok(CT_PW_DEV_COPY, out, in, 3)) return ct_last_error();
  return where_run(out, condition, a, b, NULL);
}

/* ---- masked_fill ---- */
typedef struct fill_ctx {
  _Alignas(16) unsigned char value[16]; /* the value in self's dtype */
  _Atomic bool bad_mask;                /* a non-bool mask held a byte other than 0 and 1 */
} fill_ctx;

/* operands: self (out), self (input, unused: it makes self take part in broadcasting), mask */
#define DEF_FILL(name, T)                                                                          \
  CT_KERNEL_CLONES static void name(char **d, const int64_t *s, int64_t n, const void *ctx) {     \
    T v;                                                                                           \
    memcpy(&v, ((const fill_ctx *)ctx)->value, sizeof v);                                          \
    if (s[0] == (int64_t)sizeof(T) && s[2] == 1) {                                                 \
      T *restrict o = (T *)d[0];                                                                   \
      const uint8_t *restrict m = (const uint8_t *)d[2];                                           \
      for (int64_t k = 0; k < n; k++)                                                              \
        if (m[k]) o[k] = v;                                                                        \
    } else {                                                                                       \
      for (int64_t k = 0; k < n; k++)                                                              \
        if (CT_AT(uint8_t, d[2], s[2], k)) CT_OUT(T, d[0], s[0], k) = v;                           \
    }                                                                                              \
  } \
  CT_LOOP_PLAIN(name)
DEF_FILL(fill8, uint8_t)
DEF_FILL(fill16, uint16_t)
DEF_FILL(fill32, uint32_t)
DEF_FILL(fill64, uint64_t)
DEF_FILL(fill128, bits128)

static const ct_loop *const fill_loops[CT_NUM_DTYPES + 1] = {
    [CT_BOOL] = CT_LOOP_REF(fill8),       [CT_UINT8] = CT_LOOP_REF(fill8),     [CT_INT8] = CT_LOOP_REF(fill8),      [CT_INT16] = CT_LOOP_REF(fill16),
    [CT_INT32] = CT_LOOP_REF(fill32),     [CT_INT64] = CT_LOOP_REF(fill64),    [CT_FLOAT16] = CT_LOOP_REF(fill16),  [CT_BFLOAT16] = CT_LOOP_REF(fill16),
    [CT_FLOAT32] = CT_LOOP_REF(fill32),   [CT_FLOAT64] = CT_LOOP_REF(fill64),  [CT_COMPLEX64] = CT_LOOP_REF(fill64), [CT_COMPLEX128] = CT_LOOP_REF(fill128)};

/* A non-bool mask: the first byte of every element must be 0 or 1. */
static void mask_scan(char **d, const int64_t *s, int64_t n, const void *ctx) {
  fill_ctx *c = (fill_ctx *)ctx;
  bool bad = false;
  for (int64_t k = 0; k < n; k++) bad |= CT_AT(uint8_t, d[2], s[2], k) > 1;
  if (bad) atomic_store(&c->bad_mask, true);
}
CT_LOOP_PLAIN(mask_scan)

/* masked_fill_'s overloads by its value (a Python number or a tensor); the functional form is torch's
   composite over them. */
static const ct_op masked_fill_op = {.name = "masked_fill",
                                     .aten = "aten::masked_fill_.Tensor",
                                     .kernels = {[CT_CPU] = fill_loops, [CT_META] = ct__pw_meta_loops}};
static bool masked_fill_accepts(const ct_tensor *self, const ct_tensor *mask, const ct_tensor *value) {
  const char *aten =
      value->flags & CT_TENSOR_WRAPPED_NUMBER ? "aten::masked_fill_.Scalar" : masked_fill_op.aten;
  return CT__OP_ACCEPTS(&masked_fill_op, aten, self, mask, value);
}

static ct_status fill_value(const ct_tensor *value, ct_scalar *v) {
  if (value->ndim != 0) {
    ct__error(CT_ERR_RUNTIME,
              "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).",
              (int)value->ndim);
    return CT_ERR_RUNTIME;
  }
  return ct_item(value, v);
}

static ct_status masked_fill_into(ct_tensor *self, const ct_tensor *mask, ct_scalar v) {
  if (ct__partial_overlap(self, mask)) {
    ct__error(CT_ERR_RUNTIME,
              "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
              "memory location, or overlapping memory locations. Please clone() the tensor before performing the "
              "operation.");
    return CT_ERR_RUNTIME;
  }
  ct_dtype dt = (ct_dtype)self->dtype;
  ct_iter_config cfg = {.n_out = 1, .n_in = 2, .no_resize_outputs = true};
  cfg.out[0] = self;
  cfg.in[0] = self;
  cfg.in[1] = mask;
  cfg.compute_dtype = dt;
  cfg.in_dtype[1] = (ct_dtype)mask->dtype;
  ct_iter it;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  if (!ct__scalar_fits(v, dt)) {
    ct__iter_finish(&it);
    return CT_ERR_RUNTIME;
  }
  fill_ctx c;
  memset(c.value, 0, sizeof c.value);
  ct__store_scalar(dt, c.value, v);
  atomic_init(&c.bad_mask, false);
  if (mask->dtype != CT_BOOL) {
    ct__iter_run(&it, CT_LOOP_REF(mask_scan), &c);
    if (atomic_load(&c.bad_mask)) {
      ct__iter_finish(&it);
      ct__error(CT_ERR_RUNTIME, "Mask tensor can take 0 and 1 values only");
      return CT_ERR_RUNTIME;
    }
  }
  ct__iter_run(&it, fill_loops[dt], &c);
  ct__iter_finish(&it);
  return CT_OK;
}

ct_status ct_masked_fill_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value) {
  CT__NONNULL_STATUS(self, mask, value);
  return masked_fill_accepts(self, mask, value) ? ct__masked_fill_impl_(self, mask, value) : ct_last_error();
}

ct_status ct__masked_fill_impl_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value) {
  if (CT__OP_ON_META(self, mask, value))
    return ct__pw_meta_inplace_noop(self); /* its Meta kernel checks nothing */
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  ct_scalar v;
  ct_status s = fill_value(value, &v);
  if (s != CT_OK) return s;
  return masked_fill_into(self, mask, v);
}

ct_tensor *ct_masked_fill(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *value) {
  if (!t || !mask || !value) return ct__null_ptr_arg(!t ? "t" : !mask ? "mask" : "value");
  if (!masked_fill_accepts(t, mask, value)) return NULL;
  int64_t nd = t->ndim > mask->ndim ? t->ndim : mask->ndim;
  int64_t shape_buf[16];
  int64_t *shape = nd <= 16 ? shape_buf : ct__malloc((size_t)nd * sizeof(int64_t));
  if (!shape) return NULL;
  ct_tensor *r = NULL;
  ct_scalar v;
  /* on meta, the composite's masked_fill_ is the Meta kernel that checks nothing (the value is not read) */
  bool meta = CT__OP_ON_META(t, mask, value);
  if (ct__broadcast_shapes(mask->sizes, mask->ndim, t->sizes, t->ndim, shape) == CT_OK &&
      (meta || fill_value(value, &v) == CT_OK)) {
    r = ct__empty(nd, shape, (ct_dtype)t->dtype, ct__tdevice(t));
    if (r && (ct__copy_into(r, t) != CT_OK || (!meta && masked_fill_into(r, mask, v) != CT_OK))) {
      ct_release(r);
      r = NULL;
    }
  }
  if (shape != shape_buf) ct__free(shape);
  return ct__own(r);
}
