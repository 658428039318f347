/* torch.normal with tensor arguments: the samples are drawn as normal_(0, std) or normal_(0, 1) into
   a contiguous result, then PyTorch's out.add_(mean) / out.mul_(std).add_(mean) are applied, with
   their broadcasting and dtype promotion. */
#include <stdio.h>

#include "random/random_internal.h"

#define MAX_BCAST_DIMS 64

/* at::infer_size: the broadcast shape of a and b, or PyTorch's error. */
static bool infer_size(const ct_tensor *a, const ct_tensor *b, int64_t *shape, int64_t *ndim) {
  int64_t na = a->ndim, nb = b->ndim, n = na > nb ? na : nb;
  if (n > MAX_BCAST_DIMS) {
    ct__error(CT_ERR_RUNTIME, "normal: at most %d dims are supported", MAX_BCAST_DIMS);
    return false;
  }
  for (int64_t i = n - 1; i >= 0; i--) {
    int64_t off = n - 1 - i;
    int64_t da = na - 1 - off >= 0 ? a->sizes[na - 1 - off] : 1;
    int64_t db = nb - 1 - off >= 0 ? b->sizes[nb - 1 - off] : 1;
    if (da != db && da != 1 && db != 1) {
      ct__error(CT_ERR_RUNTIME,
                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %lld",
                (long long)da, (long long)db, (long long)i);
      return false;
    }
    shape[i] = da == 1 ? db : da;
  }
  *ndim = n;
  return true;
}

/* PyTorch's promote_types restricted to what can meet here: a floating output and any real operand. */
static ct_dtype promote(ct_dtype out, ct_dtype other) {
  if (!ct__is_float_dtype(other) || other == out) return out;
  if ((out == CT_FLOAT16 && other == CT_BFLOAT16) || (out == CT_BFLOAT16 && other == CT_FLOAT16)) return CT_FLOAT32;
  return ct__itemsize(other) > ct__itemsize(out) ? other : out;
}

static double load_any(ct_dtype dt, const char *p) {
  switch (dt) {
    case CT_BOOL: return *(const bool *)p;
    case CT_UINT8: return *(const uint8_t *)p;
    case CT_INT8: return *(const int8_t *)p;
    case CT_INT16: return *(const int16_t *)(const void *)p;
    case CT_INT32: return *(const int32_t *)(const void *)p;
    case CT_INT64: return (double)*(const int64_t *)(const void *)p;
    default: return ct__load_f64(dt, p);
  }
}

/* A value rounded to a floating dtype (int64 operands convert straight to the dtype, as a cast does). */
static double round_to(ct_dtype dt, double v) {
  switch (dt) {
    case CT_FLOAT16: return ct__half_to_float(ct__float_to_half((float)v));
    case CT_BFLOAT16: return ct__bfloat16_to_float(ct__float_to_bfloat16((float)v));
    case CT_FLOAT32: return (float)v;
    default: return v;
  }
}

static double load_as(ct_dtype common, ct_dtype dt, const char *p) {
  if (dt == CT_INT64 && common != CT_FLOAT64) {
    /* int64 -> float goes straight to the dtype (no intermediate double rounding) */
    int64_t v = *(const int64_t *)(const void *)p;
    return common == CT_FLOAT32 ? (double)(float)v : round_to(common, (double)(float)v);
  }
  return round_to(common, load_any(dt, p));
}

typedef enum { OP_ADD, OP_MUL } bin_op;

/* out (contiguous, real dtype) op= other broadcast to out's shape, computed in `common` (float math
   below float64), then cast to out's dtype. */
static void binary_inplace(ct_tensor *out, const ct_tensor *other, ct_dtype common, bin_op op) {
  int64_t nd = out->ndim, on = other->ndim;
  int64_t ostride[MAX_BCAST_DIMS + 1], idx[MAX_BCAST_DIMS + 1] = {0};
  for (int64_t d = 0; d < nd; d++) {
    int64_t od = d - (nd - on);
    ostride[d] = od < 0 || other->sizes[od] == 1 ? 0 : other->strides[od];
  }
  ct_dtype dt = (ct_dtype)out->dtype, odt = (ct_dtype)other->dtype;
  size_t isz = ct__itemsize(dt), oisz = ct__itemsize(odt);
  char *o = ct__tdata(out);
  const char *b = ct__tdata(other);
  int64_t off = 0;
  for (int64_t i = 0; i < out->numel; i++) {
    char *e = o + i * (int64_t)isz;
    double x = round_to(common, ct__load_f64(dt, e));
    double y = load_as(common, odt, b + off * (int64_t)oisz);
    double r;
    if (common == CT_FLOAT64) {
      r = op == OP_ADD ? x + y : x * y;
    } else { /* float math, as c10 does for Half and BFloat16, then one rounding to common */
      float fx = (float)x, fy = (float)y;
      r = round_to(common, op == OP_ADD ? fx + fy : fx * fy);
    }
    ct__store_f64(dt, e, r);
    for (int64_t d = nd - 1; d >= 0; d--) {
      off += ostride[d];
      if (++idx[d] < out->sizes[d]) break;
      off -= ostride[d] * out->sizes[d];
      idx[d] = 0;
    }
  }
}

/* Complex results are handled on their real views; a real operand gets a trailing broadcast dim. */
static ct_tensor *real_view_or_self(ct_tensor *t) {
  return ct_dtype_is_complex((ct_dtype)t->dtype) ? ct__complex_as_real(t) : ct_retain(t);
}
static ct_tensor *operand_view(const ct_tensor *t, bool out_complex) {
  if (ct_dtype_is_complex((ct_dtype)t->dtype)) return ct__complex_as_real(t);
  if (!out_complex) return ct__view(t, t->ndim, t->sizes, t->strides, t->offset);
  int64_t nd = t->ndim + 1;
  int64_t sizes[MAX_BCAST_DIMS + 1], strides[MAX_BCAST_DIMS + 1];
  for (int64_t d = 0; d < t->ndim; d++) {
    sizes[d] = t->sizes[d];
    strides[d] = t->strides[d];
  }
  sizes[nd - 1] = 1;
  strides[nd - 1] = 0;
  return ct__view(t, nd, sizes, strides, t->offset);
}

/* out op= other, prepared before any draw so that no allocation can fail after the generator moved. */
typedef struct binop {
  ct_tensor *ov, *bv;
  ct_dtype common;
  bin_op op;
} binop;

static bool binop_prepare(binop *b, ct_tensor *out, const ct_tensor *other, bin_op op, bool other_zero_dim) {
  bool cplx = ct_dtype_is_complex((ct_dtype)out->dtype);
  b->op = op;
  b->ov = real_view_or_self(out);
  b->bv = b->ov ? operand_view(other, cplx) : NULL;
  if (!b->bv) {
    if (b->ov) ct_release(b->ov);
    b->ov = NULL;
    return false;
  }
  ct_dtype real = (ct_dtype)b->ov->dtype;
  b->common = other_zero_dim && out->ndim > 0 ? real : promote(real, (ct_dtype)b->bv->dtype);
  return true;
}

static void binop_release(binop *b) {
  if (b->ov) ct_release(b->ov);
  if (b->bv) ct_release(b->bv);
}

static bool check_std_tensor(const ct_tensor *std) {
  if (ct_dtype_is_complex((ct_dtype)std->dtype)) {
    ct__error(CT_ERR_RUNTIME, "normal expects standard deviation to be non-complex");
    return false;
  }
  if (std->numel == 0 || std->device_type == CT_META) return true;
  /* std.min().ge(0): a NaN minimum fails too */
  int64_t nd = std->ndim, idx[MAX_BCAST_DIMS] = {0};
  if (nd > MAX_BCAST_DIMS) return true;
  const char *base = ct__tdata(std);
  size_t isz = ct__itemsize((ct_dtype)std->dtype);
  for (int64_t i = 0; i < std->numel; i++) {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; d++) off += idx[d] * std->strides[d];
    double v = load_any((ct_dtype)std->dtype, base + off * (int64_t)isz);
    if (!(v >= 0)) {
      ct__error(CT_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
      return false;
    }
    for (int64_t d = nd - 1; d >= 0; d--) {
      if (++idx[d] < std->sizes[d]) break;
      idx[d] = 0;
    }
  }
  return true;
}

static ct_tensor *new_contiguous(int64_t nd, const int64_t *shape, const ct_tensor *like) {
  return ct__empty(nd, shape, (ct_dtype)like->dtype, ct__tdevice(like));
}

/* Draws normal_(out, 0, std) then applies the prepared operations in order. */
static ct_tensor *sample_then(ct_tensor *out, double std, binop *ops, int nops, const ct_sample_opts *opts) {
  bool ok = true;
  for (int i = 0; i < nops && ok; i++) ok = ops[i].ov != NULL;
  ok = ok && ct_normal_(out, 0.0, std, opts) == CT_OK;
  if (ok && out->device_type != CT_META)
    for (int i = 0; i < nops; i++) binary_inplace(ops[i].ov, ops[i].bv, ops[i].common, ops[i].op);
  for (int i = 0; i < nops; i++) binop_release(&ops[i]);
  if (!ok) {
    ct_release(out);
    return NULL;
  }
  return ct__own(out);
}

ct_tensor *ct_normal_tensor_scalar(const ct_tensor *mean, double std, const ct_sample_opts *opts) {
  if (!mean) return NULL;
  if (!(std >= 0.0)) return CT_ERR_NULL(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
  ct_tensor *out = new_contiguous(mean->ndim, mean->sizes, mean);
  if (!out) return NULL;
  binop ops[1] = {{0}};
  binop_prepare(&ops[0], out, mean, OP_ADD, false);
  return sample_then(out, std, ops, 1, opts);
}

ct_tensor *ct_normal_scalar_tensor(double mean, const ct_tensor *std, const ct_sample_opts *opts) {
  if (!std) return NULL;
  if (!check_std_tensor(std)) return NULL;
  ct_tensor *out = new_contiguous(std->ndim, std->sizes, std);
  if (!out) return NULL;
  /* mean_tensor = full({}, mean, output.options()): mean in the output's dtype */
  ct_tensor *m = ct__empty(0, NULL, (ct_dtype)out->dtype, CT_DEVICE_CPU);
  binop ops[2] = {{0}, {0}};
  if (m) {
    ct__store_f64((ct_dtype)m->dtype, ct__tdata(m), mean);
    if (binop_prepare(&ops[0], out, std, OP_MUL, false)) binop_prepare(&ops[1], out, m, OP_ADD, true);
    ct_release(m); /* the prepared view keeps its storage */
  }
  return sample_then(out, 1.0, ops, 2, opts);
}

ct_tensor *ct_normal(const ct_tensor *mean, const ct_tensor *std, const ct_sample_opts *opts) {
  if (!mean || !std) return NULL;
  if (!check_std_tensor(std)) return NULL;
  int64_t shape[MAX_BCAST_DIMS], nd;
  if (!infer_size(mean, std, shape, &nd)) return NULL;
  ct_tensor *out = new_contiguous(nd, shape, mean);
  if (!out) return NULL;
  binop ops[2] = {{0}, {0}};
  if (binop_prepare(&ops[0], out, std, OP_MUL, std->ndim == 0))
    binop_prepare(&ops[1], out, mean, OP_ADD, mean->ndim == 0);
  return sample_then(out, 1.0, ops, 2, opts);
}
