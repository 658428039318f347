/* What the products share (mm_internal.h): resolved operands, pointwise results owned by the caller, and
   the out= and in-place tails. */
#include "ops/matmul/mm_internal.h"
#include "core/out_wrapper.h"
#include "core/layout_rules.h"
#include "ops/pointwise/pw.h"

ct_tensor *ct__mm_resolved(const ct_tensor *t) { return ct__resolve_bits(t); }

ct_tensor *ct__mm_unneg(const ct_tensor *t) {
  return (t->flags & CT_TENSOR_NEG) ? ct__resolve_bits(t) : ct_retain((ct_tensor *)t);
}

ct_tensor *ct__mm_pw(const void *pw_op, const ct_tensor *a, const ct_tensor *b) {
  ct_scope_begin();
  ct_tensor *p = ct__pw_apply((const ct_pw_op *)pw_op, a, b);
  if (p) ct_retain(p);
  ct_scope_end();
  return p;
}

ct_status ct__mm_mul_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) {
  const ct_tensor *in[2] = {a, b};
  ct_scope_begin();
  ct_status s =
      (ct__pw_op_mul.run ? ct__pw_op_mul.run : ct__pw_run)(&ct__pw_op_mul, out, in, 2, false, NULL, NULL);
  ct_scope_end();
  return s;
}

ct_status ct__mm_finish_out(ct_tensor *out, ct_tensor *r, const ct_tensor *opt) {
  if (!r) return ct_last_error();
  if (r == out) { /* computed in place (ct__mm_out_direct) */
    ct_release(r);
    return CT_OK;
  }
  ct_status s;
  if (!opt) {
    s = ct__join_out_dtype_is(out, (ct_dtype)r->dtype) ? ct__join_copy_out(out, r) : ct_last_error();
  } else if (!ct__resize_out_ok(out, (ct_dtype)r->dtype, ct__tdevice(opt))) {
    s = ct_last_error();
  } else if (r->device_type == CT_META) { /* the meta function resized out; no kernel writes it */
    s = ct__tensor_resize_ok(out, r->ndim, r->sizes) ? ct__join_fit_out(out, r->ndim, r->sizes)
                                                     : ct_last_error();
  } else {
    s = ct__join_copy_out(out, r);
  }
  ct_release(r);
  return s;
}

ct_status ct__mm_finish_inplace(ct_tensor *self, ct_tensor *r) {
  if (!r) return ct_last_error();
  ct_status s = CT_OK;
  if (self->ndim != r->ndim || memcmp(self->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) != 0) {
    char a[256], b[256];
    ct__fmt_int_list(a, sizeof a, self->ndim, self->sizes);
    ct__fmt_int_list(b, sizeof b, r->ndim, r->sizes);
    ct__error(CT_ERR_RUNTIME,
              "Bad in-place call: input tensor size %s and output tensor size %s should match", a, b);
    s = CT_ERR_RUNTIME;
  }
  /* a meta r: the call ran a structured meta function (check_inplace), which writes nothing */
  if (s == CT_OK && r->device_type != CT_META && r != self) s = ct__copy_into(self, r); /* r: self, written */
  ct_release(r);
  return s;
}

ct_tensor *ct__mm_result_like(const ct_tensor *like, const ct_tensor *dev, int64_t nd, const int64_t *sizes,
                              ct_dtype dt) {
  ct_tensor *r = ct__join_empty(dev, nd, sizes, dt);
  if (r && like && like->ndim == nd && memcmp(like->sizes, sizes, (size_t)nd * sizeof(int64_t)) == 0)
    ct__preserve_format_strides(like, r->strides); /* a dense permutation: the same numel elements */
  return r;
}

ct_tensor *ct__mm_api2(const ct_op *op, const char *names, const ct_tensor *a, const ct_tensor *b,
                       ct_mm_impl2 *impl) {
  const void *ptrs[2] = {a, b};
  int i = ct__first_null(ptrs, 2);
  if (CT_UNLIKELY(i >= 0)) return (ct__null_named_status(names, i), NULL);
  if (!CT__OP_ACCEPTS(op, op->aten, a, b)) return NULL;
  ct_tensor *r = impl(a, b);
  ct__mm_mark(r, a, b);
  return ct__own(r);
}

ct_status ct__mm_api2_out(const ct_op *op, const char *names, ct_tensor *out, const ct_tensor *a,
                          const ct_tensor *b, ct_mm_out_impl2 *impl) {
  const void *ptrs[3] = {out, a, b};
  int i = ct__first_null(ptrs, 3);
  if (CT_UNLIKELY(i >= 0)) return ct__null_named_status(names, i);
  if (!CT__OP_ACCEPTS(op, op->aten, out, a, b)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(op, out, a, b)) return CT_ERR_RUNTIME;
  return impl(out, a, b);
}

const ct_tensor *ct__mm_dev_n(const ct_tensor *dflt, const ct_tensor *const *ts, int n) {
  for (int i = 0; i < n; i++)
    if (ts[i] && ts[i]->device_type == CT_META) return ts[i];
  return dflt;
}

void ct__mm_mark(ct_tensor *r, const ct_tensor *a, const ct_tensor *b) {
  if (!r) return;
  if (a) ct__grad_mark_result(r, a);
  if (b) ct__grad_mark_result(r, b);
}

ct_tensor *ct__mm_out_direct(ct_tensor *out, int64_t nd, const int64_t *sizes, ct_dtype dt, const ct_tensor *a,
                             const ct_tensor *b, const ct_tensor *c) {
  if (!out || (ct_dtype)out->dtype != dt || out->ndim != nd || memcmp(out->sizes, sizes, (size_t)nd * sizeof(int64_t)))
    return NULL;
  if (ct__math_bits(out) || ct__has_internal_overlap(out) || out->numel == 0) return NULL;
  const ct_tensor *ins[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    /* another device: the caller's tail checks out's device (resize_out's, or the copy's) */
    if (ins[i] && !ct_device_equal(ct__tdevice(out), ct__tdevice(ins[i]))) return NULL;
    if (ins[i] && ins[i]->storage == out->storage) return NULL;
  }
  return ct_retain(out);
}

/* addmm_impl_cpu_'s reading of a result matrix of sizes m x n and strides s0, s1: column-major as it is (0),
   row-major, computed transposed (1), or neither, computed in a column-major copy (2). */
static int result_layout(int64_t m, int64_t n, int64_t s0, int64_t s1) {
  if (s0 == 1 && (n == 1 || s1 >= (m > 1 ? m : 1))) return 0;
  if (s1 == 1 && (m == 1 || s0 >= (n > 1 ? n : 1))) return 1;
  return 2;
}

ct_tensor *ct__mm_result_for(const ct_tensor *like, const ct_tensor *dev, int64_t nd, const int64_t *sizes,
                             ct_dtype dt) {
  ct_tensor *r = ct__mm_result_like(like, dev, nd, sizes, dt);
  if (!r || !like || like->ndim != nd || nd < 2 ||
      memcmp(like->sizes, sizes, (size_t)nd * sizeof(int64_t)) != 0)
    return r;
  int64_t m = sizes[nd - 2], n = sizes[nd - 1];
  int want = result_layout(m, n, like->strides[nd - 2], like->strides[nd - 1]);
  if ((want == 1) == (result_layout(m, n, r->strides[nd - 2], r->strides[nd - 1]) == 1)) return r;
  ct_release(r);
  int64_t t[3];
  memcpy(t, sizes, (size_t)nd * sizeof(int64_t));
  t[nd - 2] = n, t[nd - 1] = m;
  ct_tensor *rt = ct__join_empty(dev, nd, t, dt);
  r = rt ? ct__transpose_impl(rt, nd - 2, nd - 1) : NULL;
  ct_release(rt);
  return r;
}

bool ct__mm_layout_matters(ct_dtype dt) {
  return dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_COMPLEX64 || dt == CT_COMPLEX128 || dt == CT_BFLOAT16;
}
