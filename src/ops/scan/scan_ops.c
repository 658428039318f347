/* The public scans: PyTorch 1.13's argument rules, in its order (ReduceOps.cpp: meta_func_cum_ops and
   impl_func_cum_ops for cumsum/cumprod, _logcumsumexp_out_cpu, cummax_out/cummin_out), then the
   generic driver. Every check runs before an out= tensor is resized or written. */
#include "core/cast.h"
#include "core/dtype_list.h"
#include "core/layout_rules.h"
#include "ops/create_internal.h"
#include "ops/scan/scan.h"
#include "core/out_wrapper.h"

static void meta_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len, int64_t nlines,
                        const void *ctx) {
  (void)data, (void)step, (void)lstep, (void)len, (void)nlines, (void)ctx;
}
#define META_ENTRY(A, S, ...) [CT_##S] = meta_kernel,
const ct_scan_kernel ct__scan_meta_kernels[CT_NUM_DTYPES + 1] = {CT_DTYPE_LIST(META_ENTRY, ~)};

/* c10's TypeMeta names, which structured out= and in-place checks print. */
static const char *typemeta_name(ct_dtype d) { return ct__dt(d)->typemeta_name; }

static bool have_kernel(const ct_scan_kernel *table, ct_dtype dt, const char *name) {
  if (table[dt]) return true;
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name, ct__dt(dt)->scalar_name);
  return false;
}

static inline bool same_shape(const ct_tensor *a, const ct_tensor *b) { return ct__has_sizes(a, b->ndim, b->sizes); }

/* TensorIterator's overlap checks for out (as it will be after resizing to self's shape) against the
   input the kernel reads (self itself only when no dtype conversion makes a copy). */
static bool check_overlap(const ct_tensor *out, const ct_tensor *self, bool reads_self) {
  ct_tensor *probe = NULL;
  const ct_tensor *o = out;
  if (!same_shape(out, self)) {
    int64_t st[self->ndim > 0 ? self->ndim : 1];
    ct__contiguous_strides(self->ndim, self->sizes, st);
    probe = ct__view(out, self->ndim, self->sizes, st, out->offset);
    if (!probe) return false;
    o = probe;
  }
  bool ok = ct__check_no_internal_overlap(o) && (!reads_self || o == self || ct__check_no_partial_overlap(o, self));
  ct_release(probe);
  return ok;
}

/* Makes the given outputs self's shape (contiguous where it changes, as resize_output does). Everything
   that can fail -- dim room, storage growth -- happens before any geometry changes, so a failure leaves
   every output as it was (a storage may have grown, which nothing observes). */
static ct_status fit(ct_tensor *const *outs, int n, const ct_tensor *self) {
  int64_t nd = self->ndim, small[16], *st = small;
  if (nd > 16 && !(st = ct__malloc((size_t)nd * sizeof(int64_t)))) return CT_ERR_OUT_OF_MEMORY;
  ct__contiguous_strides(nd, self->sizes, st);
  ct_status s = CT_OK;
  for (int k = 0; k < n && s == CT_OK; k++) {
    ct_tensor *o = outs[k];
    if (same_shape(o, self)) continue;
    s = ct__tensor_reserve_dims(o, nd);
    size_t need = self->numel ? (size_t)ct__required_storage_elems(nd, self->sizes, st, o->offset) *
                                    ct__itemsize((ct_dtype)o->dtype)
                              : 0;
    if (s == CT_OK && need > o->storage->nbytes) {
      if (!(o->storage->flags & CT_STORAGE_RESIZABLE)) {
        ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
        s = CT_ERR_RUNTIME;
      } else {
        s = ct__storage_realloc(o->storage, need);
      }
    }
  }
  for (int k = 0; k < n && s == CT_OK; k++)
    if (!same_shape(outs[k], self)) s = ct__tensor_resize(outs[k], nd, self->sizes, st);
  if (st != small) ct__free(st);
  return s;
}

/* Whether operands share memory in a way the line-parallel order could observe: an output that may
   repeat elements, or two operands on one storage with different geometry. */
static bool same_geometry(const ct_tensor *a, const ct_tensor *b) {
  if (a->storage != b->storage || a->offset != b->offset || a->dtype != b->dtype) return false;
  for (int64_t i = 0; i < a->ndim; i++)
    if (a->strides[i] != b->strides[i]) return false;
  return true;
}
/* False only when no two indices of t can reach one element: with the dims sorted by |stride|, each
   stride clears the span of the dims below it. */
static bool may_self_overlap(const ct_tensor *t) {
  if (ct__is_non_overlapping_and_dense(t)) return false;
  int64_t n = 0, st[t->ndim > 0 ? t->ndim : 1], sz[t->ndim > 0 ? t->ndim : 1];
  for (int64_t i = 0; i < t->ndim; i++) {
    if (t->sizes[i] == 1) continue;
    int64_t a = t->strides[i] < 0 ? -t->strides[i] : t->strides[i], j = n++;
    for (; j > 0 && st[j - 1] > a; j--) {
      st[j] = st[j - 1];
      sz[j] = sz[j - 1];
    }
    st[j] = a;
    sz[j] = t->sizes[i];
  }
  int64_t span = 1;
  for (int64_t i = 0; i < n; i++) {
    if (st[i] < span) return true;
    span = st[i] * (sz[i] - 1) + 1;
  }
  return false;
}
static bool needs_order(const ct_scan_plan *p) {
  const ct_tensor *ops[3] = {p->out[0], p->n_out > 1 ? p->out[1] : p->in, p->in};
  int n = p->n_out + 1;
  for (int k = 0; k < p->n_out; k++) {
    if (may_self_overlap(ops[k])) return true;
    for (int i = 0; i < n; i++)
      if (i != k && ops[i]->storage == ops[k]->storage && !same_geometry(ops[i], ops[k])) return true;
  }
  return false;
}

/* The input in the kernel's dtype: self, or a converted copy (self.to(dtype)). */
static const ct_tensor *input_as(const ct_tensor *self, ct_dtype dt, ct_tensor **tmp) {
  *tmp = NULL;
  if ((ct_dtype)self->dtype == dt) return self;
  ct_tensor *t = ct__empty(self->ndim, self->sizes, dt, ct__tdevice(self));
  if (!t) return NULL;
  if (ct__copy_into(t, self) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  *tmp = t;
  return t;
}

/* Fits the given outputs, or allocates new contiguous ones (released again on failure). */
static ct_status place(ct_tensor **res, int n, bool given, const ct_tensor *self, const ct_dtype *dts) {
  if (given) return fit(res, n, self);
  for (int k = 0; k < n; k++) {
    if (!(res[k] = ct__empty(self->ndim, self->sizes, dts[k], ct__tdevice(self)))) {
      for (int j = 0; j < k; j++) ct_release(res[j]), res[j] = NULL;
      return ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY; /* e.g. the storage size overflowed */
    }
  }
  return CT_OK;
}

/* Prepares the driver, then allocates the results (given: fits the out= tensors), then scans. */
static ct_status run_scan(ct_scan_plan *p, ct_tensor **res, const ct_dtype *out_dtypes, bool given) {
  ct_status s = ct__scan_prepare(p);
  if (s != CT_OK) return s;
  s = place(res, p->n_out, given, p->in, out_dtypes);
  if (s == CT_OK) {
    for (int k = 0; k < p->n_out; k++) p->out[k] = res[k];
    p->ordered = needs_order(p);
    ct__scan_run(p);
  }
  ct__scan_release(p);
  return s;
}

/* ---- cumsum / cumprod ---- */
typedef struct acc_op {
  ct_op op;
  const char *kernel_name;
  bool sum;
} acc_op;

static const acc_op cumsum_op = {{CT_SCAN_OP("cumsum", "aten::cumsum", ct__cumsum_kernels, ct__scan_meta_kernels)},
                                  "cumsum_out_cpu", true};
static const acc_op cumprod_op = {{CT_SCAN_OP("cumprod", "aten::cumprod", ct__cumprod_kernels, ct__scan_meta_kernels)},
                                   "cumprod_out_cpu", false};

/* result != NULL: a new tensor; else out (in place when inplace, out == self). */
static ct_status acc_scan_impl(const acc_op *op, ct_tensor *out, const ct_tensor *self, int64_t dim,
                               const ct_scan_opts *opts, bool inplace, ct_tensor **result) {
  if (result) *result = NULL;
  if (inplace && !ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (!ct__check_in_storage(self) || (out && !ct__check_in_storage(out))) return CT_ERR_RUNTIME;
  ct_dtype want = opts ? opts->dtype : CT_DTYPE_UNSET;
  if (want != CT_DTYPE_UNSET && !ct__check_dtype(want)) return ct_last_error();
  int64_t d = ct__wrap_dim(dim, self->ndim);
  if (d < 0) return CT_ERR_INDEX;
  ct_dtype odt;
  if (result) {
    odt = want ? want : ct__dt((ct_dtype)self->dtype)->category <= CT_CAT_INT ? CT_INT64 : (ct_dtype)self->dtype;
  } else {
    odt = want ? want : (ct_dtype)out->dtype;
    if (odt != (ct_dtype)out->dtype) {
      if (inplace)
        ct__error(CT_ERR_RUNTIME, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
                  typemeta_name((ct_dtype)self->dtype), typemeta_name(odt));
      else
        ct__error(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead", typemeta_name(odt),
                  typemeta_name((ct_dtype)out->dtype));
      return CT_ERR_RUNTIME;
    }
    /* the structured out= check after the dtype's: out on self's device, before it is touched */
    if (!inplace && !ct__resize_out_ok(out, CT_DTYPE_UNSET, ct__tdevice(self))) return CT_ERR_RUNTIME;
  }
  ct_tensor *res[1] = {out};
  const ct_scan_kernel *kernels = ct__scan_table(&op->op, self); /* out is on self's device (checked above) */
  if (kernels == ct__scan_meta_kernels) {
    /* PyTorch's structured meta function: the checks above and the result's geometry, nothing more */
    ct_status s = place(res, 1, out != NULL, self, &odt);
    if (result) *result = s == CT_OK ? ct__own(res[0]) : NULL;
    return s;
  }
  if (self->ndim == 0 || self->numel == 0) {
    /* PyTorch: result.fill_(self) for a 0-dim input (a checked conversion of its value), zero_() when empty */
    ct_scalar v = self->ndim == 0 ? ct__load_scalar((ct_dtype)self->dtype, ct__tdata(self)) : ct_scalar_int(0);
    if (self->ndim == 0 && !ct__scalar_fits(v, odt)) return CT_ERR_RUNTIME;
    ct_status s = place(res, 1, out != NULL, self, &odt);
    if (s == CT_OK && res[0]->numel) s = ct__fill(res[0], v);
    if (result) *result = s == CT_OK ? ct__own(res[0]) : (ct_release(res[0]), NULL);
    return s;
  }
  if (!have_kernel(kernels, odt, op->kernel_name)) return CT_ERR_RUNTIME;
  if (out && !check_overlap(out, self, (ct_dtype)self->dtype == odt)) return ct_last_error();
  ct_tensor *tmp;
  const ct_tensor *in = input_as(self, odt, &tmp);
  if (!in) return ct_last_error();
  ct_scan_plan p = {.n_out = 1, .in = in, .dim = d, .kernel = kernels[odt]};
  if (op->sum && odt == CT_FLOAT32) p.long_line = ct__cumsum_f32_long_line;
  ct_status s = run_scan(&p, res, &odt, out != NULL);
  ct_release(tmp);
  if (result) *result = s == CT_OK ? ct__own(res[0]) : (ct_release(res[0]), NULL);
  return s;
}

/* Operands with math bits: torch's fallback (resolved temporaries, out= written back). */
static ct_status acc_scan(const acc_op *op, ct_tensor *out, const ct_tensor *self, int64_t dim,
                          const ct_scan_opts *opts, bool inplace, ct_tensor **result) {
  if (CT_LIKELY(!ct__math_bits_any(1, &self, 1, &out)))
    return acc_scan_impl(op, out, self, dim, opts, inplace, result);
  if (result) *result = NULL;
  if (inplace && !ct__check_inplace(self)) return CT_ERR_RUNTIME;
  /* the op's own argument checks come before the fallback's write checks (an expanded conj target with a
     bad dim: torch's dim error, not the overlap one) */
  ct_dtype want = opts ? opts->dtype : CT_DTYPE_UNSET;
  if (!ct__check_in_storage(self) || (out && !ct__check_in_storage(out))) return CT_ERR_RUNTIME;
  if (want != CT_DTYPE_UNSET && !ct__check_dtype(want)) return ct_last_error();
  if (ct__wrap_dim(dim, self->ndim) < 0) return CT_ERR_INDEX;
  ct_math_bits_frame f;
  ct_status s = ct__math_bits_begin(&f, 1, &self, 1, &out);
  if (s != CT_OK) return s;
  return ct__math_bits_end(&f, acc_scan_impl(op, f.out[0], f.in[0], dim, opts, inplace, result));
}

#define ACC_API(name, OPD)                                                                               \
  ct_tensor *ct_##name(const ct_tensor *t, int64_t dim, const ct_scan_opts *opts) {                      \
    CT__OP_ENTER_PTR(&(OPD).op, t, t);                                                                   \
    ct_tensor *r = NULL;                                                                                \
    acc_scan(&(OPD), NULL, t, dim, opts, false, &r);                                                     \
    return r;                                                                                           \
  }                                                                                                     \
  ct_status ct_##name##_(ct_tensor *self, int64_t dim, const ct_scan_opts *opts) {                      \
    CT__OP_ENTER_STATUS(&(OPD).op, self, self);                                                          \
    return acc_scan(&(OPD), self, self, dim, opts, true, NULL);                                          \
  }                                                                                                     \
  ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_scan_opts *opts) { \
    CT__OP_ENTER_STATUS(&(OPD).op, t, out, t);                                                           \
    if (!CT__OP_OUT_GRAD_OK(&(OPD).op, out, t)) return CT_ERR_RUNTIME;                                   \
    return acc_scan(&(OPD), out, t, dim, opts, false, NULL);                                             \
  }
ACC_API(cumsum, cumsum_op)
ACC_API(cumprod, cumprod_op)

/* ---- logcumsumexp ---- */
/* check_scalar_type_device_layout_equal(out, like): out's dtype, then its device. */
static bool same_dtype_as_self(const ct_tensor *out, ct_dtype expect, const ct_tensor *like) {
  if ((ct_dtype)out->dtype != expect) {
    ct__error(CT_ERR_RUNTIME, "expected scalar_type %s but found %s", ct__dt(expect)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return false;
  }
  if (ct_device_equal(ct__tdevice(out), ct__tdevice(like))) return true;
  char a[32], b[32];
  ct_device_str(ct__tdevice(like), a, sizeof a);
  ct_device_str(ct__tdevice(out), b, sizeof b);
  ct__error(CT_ERR_RUNTIME, "expected device %s but found %s", a, b);
  return false;
}

/* A composite in torch 1.13 over aten::_logcumsumexp, which has no meta kernel: the device is checked
   there, after the out= dtype check. */
static const ct_op lcse_op = {CT_SCAN_OP("logcumsumexp", "aten::logcumsumexp", ct__logcumsumexp_kernels, NULL),
                                        .composite = true};

static ct_status lcse_impl(ct_tensor *out, const ct_tensor *self, int64_t dim, ct_tensor **result);
static ct_status lcse(ct_tensor *out, const ct_tensor *self, int64_t dim, ct_tensor **result) {
  if (CT_LIKELY(!ct__math_bits_any(1, &self, 1, &out))) return lcse_impl(out, self, dim, result);
  if (result) *result = NULL;
  ct_math_bits_frame f;
  ct_status s = ct__math_bits_begin(&f, 1, &self, 1, &out);
  if (s != CT_OK) return s;
  return ct__math_bits_end(&f, lcse_impl(f.out[0], f.in[0], dim, result));
}

static ct_status lcse_impl(ct_tensor *out, const ct_tensor *self, int64_t dim, ct_tensor **result) {
  if (result) *result = NULL;
  if (!ct__check_in_storage(self) || (out && !ct__check_in_storage(out))) return CT_ERR_RUNTIME;
  if (out && !same_dtype_as_self(out, (ct_dtype)self->dtype, self)) return CT_ERR_RUNTIME;
  /* the dispatch of aten::_logcumsumexp (.out in the out= form; out is on self's device, checked above) */
  const ct_scan_kernel *kernels =
      ct__op_table(&lcse_op, self, out ? "aten::_logcumsumexp.out" : "aten::_logcumsumexp");
  if (!kernels) return ct_last_error();
  int64_t d = ct__wrap_dim(dim, self->ndim);
  if (d < 0) return CT_ERR_INDEX;
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!have_kernel(kernels, dt, "logcumsumexp_out_cpu")) return CT_ERR_RUNTIME;
  bool scan = self->ndim > 0 && self->numel > 0;
  if (out && scan && !check_overlap(out, self, true)) return ct_last_error();
  ct_tensor *res[1] = {out};
  ct_status s;
  if (scan) {
    ct_scan_plan p = {.n_out = 1, .in = self, .dim = d, .kernel = kernels[dt]};
    s = run_scan(&p, res, &dt, out != NULL);
  } else {
    s = place(res, 1, out != NULL, self, &dt);
    if (s == CT_OK && self->ndim == 0) s = ct__fill(res[0], ct__load_scalar(dt, ct__tdata(self)));
  }
  if (result) *result = s == CT_OK ? ct__own(res[0]) : (ct_release(res[0]), NULL);
  return s;
}

ct_tensor *ct_logcumsumexp(const ct_tensor *t, int64_t dim) {
  CT__OP_ENTER_PTR(&lcse_op, t, t);
  ct_tensor *r = NULL;
  lcse(NULL, t, dim, &r);
  return r;
}
ct_status ct_logcumsumexp_out(ct_tensor *out, const ct_tensor *t, int64_t dim) {
  CT__OP_ENTER_STATUS(&lcse_op, t, out, t);
  if (!CT__OP_OUT_GRAD_OK(&lcse_op, out, t)) return CT_ERR_RUNTIME;
  return lcse(out, t, dim, NULL);
}

/* ---- cummax / cummin ---- */
/* Composites in torch 1.13 over their helper operators (no meta kernel), dispatched only when there is
   something to scan. */
typedef struct ext_op {
  ct_op op;
  const char *kernel_name, *aten_helper;
} ext_op;

static const ext_op cummax_op = {{CT_SCAN_OP("cummax", "aten::cummax", ct__cummax_kernels, NULL), .composite = true},
                                 "cummax_cpu", "aten::_cummax_helper"};
static const ext_op cummin_op = {{CT_SCAN_OP("cummin", "aten::cummin", ct__cummin_kernels, NULL), .composite = true},
                                 "cummin_cpu", "aten::_cummin_helper"};

static ct_status extreme_impl(const ext_op *op, ct_tensor **outs, bool given, const ct_tensor *self, int64_t dim);
/* outs[0..1]: given values/indices (out form), or NULL: new results (not yet owned) come back there. */
static ct_status extreme(const ext_op *op, ct_tensor **outs, bool given, const ct_tensor *self, int64_t dim) {
  if (CT_LIKELY(!ct__math_bits_any(1, &self, given ? 2 : 0, outs)))
    return extreme_impl(op, outs, given, self, dim);
  ct_math_bits_frame f;
  ct_status s = ct__math_bits_begin(&f, 1, &self, given ? 2 : 0, outs);
  if (s != CT_OK) return s;
  ct_tensor *o[2] = {given ? f.out[0] : NULL, given ? f.out[1] : NULL};
  s = ct__math_bits_end(&f, extreme_impl(op, o, given, f.in[0], dim));
  if (!given) {
    outs[0] = o[0];
    outs[1] = o[1];
  }
  return s;
}

static ct_status extreme_impl(const ext_op *op, ct_tensor **outs, bool given, const ct_tensor *self, int64_t dim) {
  if (!ct__check_in_storage(self) || (given && (!ct__check_in_storage(outs[0]) || !ct__check_in_storage(outs[1]))))
    return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)self->dtype, dts[2] = {dt, CT_INT64};
  if (given && (!same_dtype_as_self(outs[0], dt, self) || !same_dtype_as_self(outs[1], CT_INT64, self)))
    return CT_ERR_RUNTIME;
  bool scan = self->ndim > 0 && self->numel > 0;
  ct_tensor *res[2] = {given ? outs[0] : NULL, given ? outs[1] : NULL};
  ct_status s = CT_OK;
  if (scan) {
    /* PyTorch checks the dim only when there is something to scan */
    int64_t d = ct__wrap_dim(dim, self->ndim);
    if (d < 0) return CT_ERR_INDEX;
    /* the dispatch of the helper operator (the outs are on self's device, checked above) */
    const ct_scan_kernel *kernels = ct__op_table(&op->op, self, op->aten_helper);
    if (!kernels) return ct_last_error();
    if (!have_kernel(kernels, dt, op->kernel_name)) return CT_ERR_RUNTIME;
    ct_scan_plan p = {.n_out = 2, .in = self, .dim = d, .kernel = kernels[dt]};
    s = run_scan(&p, res, dts, given);
  } else {
    /* nothing to scan: results of the input's shape, a 0-dim input copied (the composite's fill_; a meta
       tensor has no value to copy: geometry only) */
    s = place(res, 2, given, self, dts);
    if (s == CT_OK && self->ndim == 0 && self->device_type != CT_META) {
      s = ct__fill(res[0], ct__load_scalar(dt, ct__tdata(self)));
      if (s == CT_OK) s = ct__fill(res[1], ct_scalar_int(0));
    }
  }
  if (!given) {
    if (s != CT_OK) {
      ct_release(res[0]);
      ct_release(res[1]);
      res[0] = res[1] = NULL;
    }
    outs[0] = res[0];
    outs[1] = res[1];
  }
  return s;
}

/* Hands out the wanted results (owned by the scope, if any) and drops the others. */
static ct_status extreme_new(const ext_op *op, const ct_tensor *t, int64_t dim, ct_tensor **values,
                             ct_tensor **indices) {
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = extreme(op, r, false, t, dim);
  ct_tensor **want[2] = {values, indices};
  for (int k = 0; k < 2; k++) {
    if (!want[k]) {
      ct_release(r[k]);
      r[k] = NULL;
    }
  }
  for (int k = 0; k < 2; k++) {
    if (r[k] && !(r[k] = ct__own(r[k]))) s = CT_ERR_OUT_OF_MEMORY;
  }
  if (s != CT_OK) r[0] = r[1] = NULL; /* registration fails only inside a scope, which frees the other */
  for (int k = 0; k < 2; k++)
    if (want[k]) *want[k] = r[k];
  return s;
}

/* The results are NULL on every failure, the guard's too. */
#define CLEAR_RESULTS(a, b) (void)((a) && (*(a) = NULL)), (void)((b) && (*(b) = NULL))

ct_status ct_cummax(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices) {
  CLEAR_RESULTS(values, indices);
  CT__OP_ENTER_STATUS(&cummax_op.op, t, t);
  return extreme_new(&cummax_op, t, dim, values, indices);
}
ct_status ct_cummin(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices) {
  CLEAR_RESULTS(values, indices);
  CT__OP_ENTER_STATUS(&cummin_op.op, t, t);
  return extreme_new(&cummin_op, t, dim, values, indices);
}
ct_status ct_cummax_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim) {
  CT__OP_ENTER_STATUS(&cummax_op.op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&cummax_op.op, values, indices, t)) return CT_ERR_RUNTIME;
  ct_tensor *o[2] = {values, indices};
  return extreme(&cummax_op, o, true, t, dim);
}
ct_status ct_cummin_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim) {
  CT__OP_ENTER_STATUS(&cummin_op.op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&cummin_op.op, values, indices, t)) return CT_ERR_RUNTIME;
  ct_tensor *o[2] = {values, indices};
  return extreme(&cummin_op, o, true, t, dim);
}
