/* trace (trace_cpu: the diagonal summed in at::acc_type: double for float, int64 for integers), cross /
   linalg.cross (linalg_cross's meta checks and apply_cross's formula), linalg.vecdot (sum of conj(x) * y). */
#include <math.h>

#include "core/cpu_isa.h"
#include "core/elem.h"
#include "iter/iter.h"
#include "ops/convert_internal.h"
#include "ops/linalg/linalg_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"

static const ct_op trace_op = CT_MM_OP("trace", "aten::trace");
static const ct_op cross_op = CT_MM_OP("cross", "aten::cross");
static const ct_op cross_out_op = CT_MM_OP("linalg_cross", "aten::cross.out");
static const ct_op linalg_cross_op = CT_MM_OP("linalg_cross", "aten::linalg_cross");
static const ct_op linalg_cross_out_op = CT_MM_OP("linalg_cross", "aten::linalg_cross.out");
static const ct_op vecdot_op = CT_MM_OP("linalg_vecdot", "aten::linalg_vecdot");
static const ct_op vecdot_out_op = CT_MM_OP("linalg_vecdot", "aten::linalg_vecdot.out");

/* ---- trace ---- */

static bool trace_dtype_ok(ct_dtype dt, const char *name) {
  if (dt != CT_BOOL && dt != CT_FLOAT16 && dt != CT_BFLOAT16) return true;
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name, ct__dt(dt)->scalar_name);
  return false;
}

/* torch/_refs' trace, torch 1.13's Meta kernel: its check (its message is not an f-string: "{self.ndim}" as
   written), then torch.sum(torch.diag(self, 0)): no dtype refused, the sum's result dtype. */
static ct_tensor *trace_meta(const ct_tensor *t) {
  if (t->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "expected a matrix, but got tensor with dim {self.ndim}");
  ct_tensor *d = ct__diagonal_impl(t, 0, 0, 1), *r = NULL;
  if (!d) return NULL;
  ct_scope_begin();
  if (ct__sum_impl(NULL, d, NULL, &r) == CT_OK && r) ct_retain(r);
  else r = NULL;
  ct_scope_end();
  ct_release(d);
  return r;
}

static ct_tensor *trace_impl(const ct_tensor *t0) {
  if (CT__OP_ON_META(t0)) return trace_meta(t0);
  ct_dtype dt = (ct_dtype)t0->dtype;
  if (!trace_dtype_ok(dt, "trace")) return NULL;
  if (t0->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "trace: expected a matrix, but got tensor with dim %d", (int)t0->ndim);
  int cat = ct__dt(dt)->category;
  ct_tensor *r = ct__join_empty(t0, 0, NULL, cat == CT_CAT_INT ? CT_INT64 : dt);
  ct_tensor *t = r ? ct__mm_resolved(t0) : NULL;
  if (!t) {
    ct_release(r);
    return NULL;
  }
  int64_t n = t->sizes[0] < t->sizes[1] ? t->sizes[0] : t->sizes[1], step = t->strides[0] + t->strides[1];
  size_t is = ct__itemsize(dt);
  const char *p = ct__tdata(t);
  if (cat == CT_CAT_INT) {
    uint64_t sum = 0;
    for (int64_t i = 0; i < n; i++) sum += (uint64_t)ct__elem_load_i64(dt, p + i * step * (int64_t)is);
    *(int64_t *)ct__tdata(r) = (int64_t)sum;
  } else if (cat == CT_CAT_COMPLEX) {
    double re = 0, im = 0; /* acc_type of complex<float> is complex<double> */
    for (int64_t i = 0; i < n; i++) {
      const char *q = p + i * step * (int64_t)is;
      re += dt == CT_COMPLEX64 ? ((const float *)q)[0] : ((const double *)q)[0];
      im += dt == CT_COMPLEX64 ? ((const float *)q)[1] : ((const double *)q)[1];
    }
    if (dt == CT_COMPLEX64) ((float *)ct__tdata(r))[0] = (float)re, ((float *)ct__tdata(r))[1] = (float)im;
    else ((double *)ct__tdata(r))[0] = re, ((double *)ct__tdata(r))[1] = im;
  } else {
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += ct__elem_load_f64(dt, p + i * step * (int64_t)is);
    ct__elem_store_f64(dt, ct__tdata(r), sum);
  }
  ct_release(t);
  return r;
}

ct_tensor *ct_trace(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&trace_op, t, t);
  ct_tensor *r = trace_impl(t);
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

/* ---- cross ---- */

/* apply_cross: r0 = a1 b2 - a2 b1, r1 = a2 b0 - a0 b2, r2 = a0 b1 - a1 b0 over lines along dim.
   torch's kernel file is compiled for the CPU's capability (AVX2 + FMA here), where GCC contracts
   a1 * b2 - a2 * b1 into fma(a1, b2, -(a2 * b1)); the same on an FMA CPU. */
typedef struct cross_line {
  ct_dtype dt;
  bool fma;
} cross_line;

static double xf(const cross_line *c, double a, double b, double d, double e) {
  if (c->dt == CT_FLOAT32) {
    float p = (float)d * (float)e;
    return c->fma ? fmaf((float)a, (float)b, -p) : (float)((float)a * (float)b) - p;
  }
  return c->fma ? fma(a, b, -(d * e)) : a * b - d * e;
}

static void cross_one(const cross_line *c, const char *a, int64_t sa, const char *b, int64_t sb, char *r,
                      int64_t sr) {
  ct_dtype dt = c->dt;
  int cat = ct__dt(dt)->category;
  static const int I1[3] = {1, 2, 0}, I2[3] = {2, 0, 1};
  if (cat == CT_CAT_INT) {
    for (int k = 0; k < 3; k++) {
      uint64_t x1 = (uint64_t)ct__elem_load_i64(dt, a + I1[k] * sa),
               y2 = (uint64_t)ct__elem_load_i64(dt, b + I2[k] * sb);
      uint64_t x2 = (uint64_t)ct__elem_load_i64(dt, a + I2[k] * sa),
               y1 = (uint64_t)ct__elem_load_i64(dt, b + I1[k] * sb);
      ct__elem_store_i64(dt, r + k * sr, (int64_t)(x1 * y2 - x2 * y1));
    }
  } else if (cat == CT_CAT_COMPLEX) {
    for (int k = 0; k < 3; k++) {
      double ar[2], ai[2], br[2], bi[2];
      const char *pa[2] = {a + I1[k] * sa, a + I2[k] * sa}, *pb[2] = {b + I2[k] * sb, b + I1[k] * sb};
      for (int q = 0; q < 2; q++) {
        if (dt == CT_COMPLEX64) {
          ar[q] = ((const float *)pa[q])[0], ai[q] = ((const float *)pa[q])[1];
          br[q] = ((const float *)pb[q])[0], bi[q] = ((const float *)pb[q])[1];
        } else {
          ar[q] = ((const double *)pa[q])[0], ai[q] = ((const double *)pa[q])[1];
          br[q] = ((const double *)pb[q])[0], bi[q] = ((const double *)pb[q])[1];
        }
      }
      if (dt == CT_COMPLEX64) {
        float p0r = (float)ar[0] * (float)br[0] - (float)ai[0] * (float)bi[0],
              p0i = (float)ar[0] * (float)bi[0] + (float)ai[0] * (float)br[0];
        float p1r = (float)ar[1] * (float)br[1] - (float)ai[1] * (float)bi[1],
              p1i = (float)ar[1] * (float)bi[1] + (float)ai[1] * (float)br[1];
        ((float *)(r + k * sr))[0] = p0r - p1r, ((float *)(r + k * sr))[1] = p0i - p1i;
      } else if (c->fma) {
        /* c10::complex<double>'s a * c - b * d and a * d + b * c, contracted by GCC in the AVX2 build into
           fma(a, c, -(b * d)) and fma(a, d, b * c) (complex<float>'s are not: checked bit for bit) */
        double p0r = fma(ar[0], br[0], -(ai[0] * bi[0])), p0i = fma(ar[0], bi[0], ai[0] * br[0]);
        double p1r = fma(ar[1], br[1], -(ai[1] * bi[1])), p1i = fma(ar[1], bi[1], ai[1] * br[1]);
        ((double *)(r + k * sr))[0] = p0r - p1r, ((double *)(r + k * sr))[1] = p0i - p1i;
      } else {
        double p0r = ar[0] * br[0] - ai[0] * bi[0], p0i = ar[0] * bi[0] + ai[0] * br[0];
        double p1r = ar[1] * br[1] - ai[1] * bi[1], p1i = ar[1] * bi[1] + ai[1] * br[1];
        ((double *)(r + k * sr))[0] = p0r - p1r, ((double *)(r + k * sr))[1] = p0i - p1i;
      }
    }
  } else {
    for (int k = 0; k < 3; k++) {
      double v = xf(c, ct__elem_load_f64(dt, a + I1[k] * sa), ct__elem_load_f64(dt, b + I2[k] * sb),
                    ct__elem_load_f64(dt, a + I2[k] * sa), ct__elem_load_f64(dt, b + I1[k] * sb));
      ct__elem_store_f64(dt, r + k * sr, v);
    }
  }
}

/* linalg_cross(input, other, dimension): meta's checks, then the lines of the broadcast inputs. */
static ct_tensor *cross_impl(const ct_tensor *a0, const ct_tensor *b0, int64_t dimension,
                             const ct_tensor *out) {
  if (a0->ndim != b0->ndim)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "linalg.cross: inputs must have the same number of dimensions.");
  int64_t d = ct__size_dim(a0, dimension);
  if (d < 0 || ct__size_dim(b0, dimension) < 0) return NULL;
  if (a0->sizes[d] != 3 || b0->sizes[d] != 3)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "linalg.cross: inputs dimension %lld must have length 3. Got %lld and %lld",
                       (long long)dimension, (long long)a0->sizes[d], (long long)b0->sizes[d]);
  int64_t shape[CT_JOIN_MAXDIM];
  if (a0->ndim > CT_JOIN_MAXDIM) return CT_ERR_NULL(CT_ERR_RUNTIME, "cross: too many dims");
  if (ct__broadcast_shapes(a0->sizes, a0->ndim, b0->sizes, b0->ndim, shape) != CT_OK) return NULL;
  ct_dtype dt = (ct_dtype)a0->dtype;
  if (out && !ct__join_out_dtype_is(out, dt)) return NULL; /* the structured out check, before the kernel */
  ct_tensor *r = ct__join_empty(CT__MM_DEV(a0, b0), a0->ndim, shape, dt);
  if (!r) return NULL;
  /* on meta: linalg_cross's structured meta ran (the checks above), no kernel nor its checks */
  if (r->numel == 0 || CT__OP_ON_META(a0, b0, out)) return r;
  if (dt == CT_BOOL || dt == CT_FLOAT16 || dt == CT_BFLOAT16) {
    ct_release(r);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "\"cross\" not implemented for '%s'", ct__dt(dt)->scalar_name);
  }
  if (b0->dtype != dt) {
    ct_release(r);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt(dt)->scalar_name,
                       ct__dt((ct_dtype)b0->dtype)->scalar_name);
  }
  /* both inputs expanded and moved so that dim is last, as contiguous copies; the result likewise */
  int64_t last = a0->ndim - 1;
  ct_tensor *ea = ct__expand_impl(a0, (ct_shape){shape, a0->ndim}),
            *eb = ea ? ct__expand_impl(b0, (ct_shape){shape, a0->ndim}) : NULL;
  ct_tensor *ta = eb ? ct__transpose_impl(ea, d, last) : NULL,
            *tb = ta ? ct__transpose_impl(eb, d, last) : NULL;
  ct_tensor *ca = tb ? ct__contiguous_impl(ta, CT_CONTIGUOUS_FORMAT) : NULL,
            *cb = ca ? ct__contiguous_impl(tb, CT_CONTIGUOUS_FORMAT) : NULL;
  ct_tensor *tmp = cb ? ct__join_empty(a0, ca->ndim, ca->sizes, dt) : NULL;
  ct_status s = tmp ? CT_OK : ct_last_error();
  if (s == CT_OK) {
    cross_line c = {dt, CT_ISA_X86 && ct__cpu_fma()};
    int64_t lines = r->numel / 3, is = (int64_t)ct__itemsize(dt);
    for (int64_t i = 0; i < lines; i++)
      cross_one(&c, ct__tdata(ca) + 3 * i * is, is, ct__tdata(cb) + 3 * i * is, is,
                ct__tdata(tmp) + 3 * i * is, is);
    ct_tensor *tr = ct__transpose_impl(r, d, last);
    s = tr ? ct__copy_into(tr, tmp) : ct_last_error();
    ct_release(tr);
  }
  ct_release(ea);
  ct_release(eb);
  ct_release(ta);
  ct_release(tb);
  ct_release(ca);
  ct_release(cb);
  ct_release(tmp);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* torch.cross's dim: given, else the first dim of size 3 of input. */
static bool cross_dim(const ct_tensor *a, const ct_cross_opts *opts, int64_t *dim) {
  if (opts && opts->dim.ndim > 0) {
    *dim = opts->dim.data[0];
    return true;
  }
  for (int64_t i = 0; i < a->ndim; i++)
    if (a->sizes[i] == 3) {
      *dim = i;
      return true;
    }
  ct__error(CT_ERR_RUNTIME, "no dimension of size 3 in input");
  return false;
}

ct_tensor *ct_cross(const ct_tensor *t, const ct_tensor *other, const ct_cross_opts *opts) {
  CT__NONNULL_PTR(t, other);
  if (!CT__OP_ACCEPTS(&cross_op, cross_op.aten, t, other)) return NULL;
  int64_t dim;
  if (!cross_dim(t, opts, &dim)) return NULL;
  ct_tensor *r = cross_impl(t, other, dim, NULL);
  ct__mm_mark(r, t, other);
  return ct__own(r);
}

ct_status ct_cross_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                       const ct_cross_opts *opts) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(&cross_out_op, cross_out_op.aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&cross_out_op, out, t, other)) return CT_ERR_RUNTIME;
  int64_t dim;
  if (!cross_dim(t, opts, &dim)) return ct_last_error();
  return ct__mm_finish_out(out, cross_impl(t, other, dim, out), t);
}

ct_tensor *ct_linalg_cross(const ct_tensor *t, const ct_tensor *other, const ct_cross_opts *opts) {
  CT__NONNULL_PTR(t, other);
  if (!CT__OP_ACCEPTS(&linalg_cross_op, linalg_cross_op.aten, t, other)) return NULL;
  ct_tensor *r = cross_impl(t, other, opts && opts->dim.ndim ? opts->dim.data[0] : -1, NULL);
  ct__mm_mark(r, t, other);
  return ct__own(r);
}

ct_status ct_linalg_cross_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                              const ct_cross_opts *opts) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(&linalg_cross_out_op, linalg_cross_out_op.aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&linalg_cross_out_op, out, t, other)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, cross_impl(t, other, opts && opts->dim.ndim ? opts->dim.data[0] : -1, out),
                           t);
}

/* ---- linalg.vecdot ---- */

static bool vecdot_checks(const ct_tensor *x, const ct_tensor *y) {
  int cat = ct__dt((ct_dtype)x->dtype)->category;
  if (cat != CT_CAT_FLOAT && cat != CT_CAT_COMPLEX) {
    ct__error(CT_ERR_RUNTIME, "linalg.vecdot: Expected a floating point or complex tensor as input. Got %s",
              ct__dt((ct_dtype)x->dtype)->scalar_name);
    return false;
  }
  if (x->dtype != y->dtype) {
    ct__error(CT_ERR_RUNTIME,
              "linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of type "
              "%s instead",
              ct__dt((ct_dtype)x->dtype)->scalar_name, ct__dt((ct_dtype)y->dtype)->scalar_name);
    return false;
  }
  return true;
}

/* (x.conj() * y) or x * y, unowned */
static ct_tensor *vecdot_product(const ct_tensor *x, const ct_tensor *y) {
  ct_tensor *cx =
      ct__dt((ct_dtype)x->dtype)->category == CT_CAT_COMPLEX ? ct__conj_impl(x) : ct_retain((ct_tensor *)x);
  ct_tensor *p = cx ? ct__mm_pw(&ct__pw_op_mul, cx, y) : NULL;
  ct_release(cx);
  return p;
}

ct_tensor *ct_linalg_vecdot(const ct_tensor *x, const ct_tensor *y, const ct_cross_opts *opts) {
  CT__NONNULL_PTR(x, y);
  if (!CT__OP_ACCEPTS(&vecdot_op, vecdot_op.aten, x, y)) return NULL;
  if (!vecdot_checks(x, y)) return NULL;
  if (x->ndim == 1 && y->ndim == 1) { /* torch 1.13: vdot of two vectors (no broadcasting) */
    ct_tensor *d = ct__dot_new(x, y, true);
    ct__mm_mark(d, x, y);
    return ct__own(d);
  }
  int64_t dim = opts && opts->dim.ndim ? opts->dim.data[0] : -1;
  ct_tensor *p = vecdot_product(x, y), *r = NULL;
  if (p) {
    ct_scope_begin();
    if (ct__sum_impl(NULL, p, &(ct_reduce_opts){.dims = {&dim, 1}}, &r) == CT_OK && r) ct_retain(r);
    else r = NULL;
    ct_scope_end();
  }
  ct_release(p);
  ct__mm_mark(r, x, y);
  return ct__own(r);
}

ct_status ct_linalg_vecdot_out(ct_tensor *out, const ct_tensor *x, const ct_tensor *y,
                               const ct_cross_opts *opts) {
  CT__NONNULL_STATUS(out, x, y);
  if (!CT__OP_ACCEPTS(&vecdot_out_op, vecdot_out_op.aten, out, x, y)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&vecdot_out_op, out, x, y)) return CT_ERR_RUNTIME;
  if (!vecdot_checks(x, y)) return ct_last_error();
  /* linalg_vecdot_out's own checks of out: its dtype (torch's message lacks the space), then its device against
     x's (checkSameDevice names x "result" and out "input") */
  if (out->dtype != x->dtype) {
    ct__error(CT_ERR_RUNTIME, "linalg.vecdot: Expected out of dtype%s but found %s",
              ct__dt((ct_dtype)x->dtype)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (!ct__la_same_device_ok("linalg.vecdot", x, out)) return ct_last_error();
  if (x->ndim == 1 && y->ndim == 1) return ct__dot_out("vdot", out, x, y, true); /* vdot_out(out, x, y) */
  int64_t dim = opts && opts->dim.ndim ? opts->dim.data[0] : -1;
  ct_tensor *p = vecdot_product(x, y);
  if (!p) return ct_last_error();
  ct_scope_begin();
  ct_status s = ct__sum_impl(out, p, &(ct_reduce_opts){.dims = {&dim, 1}}, NULL);
  ct_scope_end();
  ct_release(p);
  return s;
}
