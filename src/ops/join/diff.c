/* torch.diff as torch 1.13 computes it (ReduceOps.cpp): prepend and append joined by cat, then n rounds of
   narrow(1) - narrow(0) (logical_xor for bool) through the pointwise engine, so that dtypes and layouts are
   the subtraction's. */
#include "ops/join/join_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"

static const ct_op diff_op = CT_JOIN_OP("diff", "aten::diff");
/* autograd's out= refusal names sub, the op diff_out runs */
static const ct_op diff_out_op = CT_JOIN_OP("sub", "aten::diff.out");

static bool compatible(const ct_tensor *self, const ct_tensor *other, int64_t dim) {
  if (!other) return true;
  int64_t wd = ct__wrap_dim(dim, self->ndim);
  if (wd < 0) return false;
  if (other->ndim != self->ndim) {
    ct__error(CT_ERR_RUNTIME, "diff expects prepend or append to be the same dimension as input");
    return false;
  }
  for (int64_t i = 0; i < other->ndim; i++)
    if (other->sizes[i] != self->sizes[i] && i != wd) {
      ct__error(CT_ERR_RUNTIME,
                "diff expects the shape of tensor to prepend or append to match that of input except along the "
                "differencing dimension; input.size(%lld) = %lld, but got tensor.size(%lld) = %lld",
                (long long)i, (long long)self->sizes[i], (long long)i, (long long)other->sizes[i]);
      return false;
    }
  return true;
}

static bool diff_check(const ct_tensor *self, int64_t dim, const ct_tensor *pre, const ct_tensor *app) {
  if (self->ndim < 1) {
    ct__error(CT_ERR_RUNTIME, "diff expects input to be at least one-dimensional");
    return false;
  }
  return compatible(self, pre, dim) && compatible(self, app, dim);
}

/* One round: narrow(t, dim, 1, len) - narrow(t, dim, 0, len), into out when given (then *res untouched). */
static ct_status diff_round(const ct_tensor *t, int64_t dim, int64_t len, ct_tensor *out, ct_tensor **res) {
  /* GCC evaluates sub_out's arguments right to left: narrow(0) first, so its error comes first */
  ct_tensor *b = ct__narrow_impl(t, dim, 0, len), *a = b ? ct__narrow_impl(t, dim, 1, len) : NULL;
  ct_status s = a ? CT_OK : ct_last_error();
  const ct_pw_op *op = t->dtype == CT_BOOL ? &ct__pw_op_logical_xor : &ct__pw_op_sub;
  /* logical_xor.out's Meta kernel is torch/_refs' logical_xor under out_wrapper (sub.out's is structured) */
  bool ref = op->dev == CT_PW_DEV_COPY && CT__OP_ON_META(out, t);
  if (s == CT_OK) {
    const ct_tensor *in[2] = {a, b};
    s = ref ? ct__pw_ref_run(op, out, in, 2, NULL, out ? NULL : res)
            : (op->run ? op->run : ct__pw_run)(op, out, in, 2, false, NULL, out ? NULL : res);
  }
  ct_release(a);
  ct_release(b);
  return s;
}

/* diff_helper / diff_out_helper inside a scope: the result is kept out of it. */
static ct_status diff_impl(ct_tensor *out, const ct_tensor *self, int64_t n, int64_t dim, const ct_diff_opts *opts,
                           ct_tensor **result) {
  const ct_tensor *pre = opts ? opts->prepend : NULL, *app = opts ? opts->append : NULL;
  if (!diff_check(self, dim, pre, app)) return ct_last_error();
  ct_scope_begin();
  ct_status s = CT_OK;
  ct_tensor *a = (ct_tensor *)self, *joined = NULL;
  if ((pre || app) && n != 0) {
    const ct_tensor *parts[3];
    int k = 0;
    if (pre) parts[k++] = pre;
    parts[k++] = self;
    if (app) parts[k++] = app;
    s = ct__cat_impl(NULL, (ct_tensors){parts, k}, dim, &joined);
    a = ct__own(joined);
  }
  ct_tensor *r = NULL;
  int64_t d = -1;
  if (s == CT_OK && n == 0) { /* the dim is not looked at */
    if (out && out->dtype != a->dtype) {
      /* check_scalar_type_device_layout_equal(result, self) */
      ct__error(CT_ERR_RUNTIME, "expected scalar_type %s but found %s", ct__dt((ct_dtype)a->dtype)->scalar_name,
                ct__dt((ct_dtype)out->dtype)->scalar_name);
      s = CT_ERR_RUNTIME;
    } else if (out) {
      s = ct__join_copy_out(out, a);
    } else {
      ct_resolved_opts o = {(ct_dtype)a->dtype, ct__tdevice(a), CT_PRESERVE_FORMAT, false};
      r = ct__empty_like_with(a, CT_PRESERVE_FORMAT, &o);
      s = r ? ct__copy_into(r, a) : ct_last_error();
      if (s == CT_OK) ct__grad_mark_result(r, a);
    }
  } else if (s == CT_OK && (d = ct__size_dim(a, dim)) < 0) {
    s = ct_last_error();
  } else if (s == CT_OK) {
    int64_t size = a->sizes[d], rounds = n >= size ? size : n, len = size - 1;
    ct_tensor *cur = a;
    /* the out= form's last round runs even when the dim is empty (torch's narrow then refuses) */
    if (out && rounds <= 0) s = diff_round(a, d, size - rounds, out, NULL);
    for (int64_t i = 0; s == CT_OK && i < rounds; i++, len--) {
      bool last = i + 1 == rounds;
      ct_tensor *next = NULL;
      s = diff_round(cur, d, len, last ? out : NULL, &next);
      cur = next;
    }
    if (s == CT_OK && !out) r = ct_retain(cur); /* an unowned reference, past this scope */
  }
  ct_scope_end();
  if (s != CT_OK) ct_release(r);
  else if (result) *result = r;
  return s;
}

ct_tensor *ct_diff(const ct_tensor *t, int64_t n, int64_t dim, const ct_diff_opts *opts) {
  const ct_tensor *pre = opts ? opts->prepend : NULL, *app = opts ? opts->append : NULL;
  CT__NONNULL_PTR(t);
  if (!CT__OP_ACCEPTS(&diff_op, diff_op.aten, t, pre, app)) return NULL;
  ct_tensor *r = NULL;
  if (diff_impl(NULL, t, n, dim, opts, &r) != CT_OK) return NULL;
  return ct__own(r);
}

ct_status ct_diff_out(ct_tensor *out, const ct_tensor *t, int64_t n, int64_t dim, const ct_diff_opts *opts) {
  const ct_tensor *pre = opts ? opts->prepend : NULL, *app = opts ? opts->append : NULL;
  CT__NONNULL_STATUS(out, t);
  if (!CT__OP_ACCEPTS(&diff_out_op, diff_out_op.aten, out, t, pre, app)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&diff_out_op, out, t, pre, app)) return CT_ERR_RUNTIME;
  return diff_impl(out, t, n, dim, opts, NULL);
}
