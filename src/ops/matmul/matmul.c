/* torch 1.13's composites over mm/mv/dot/bmm: matmul (_matmul_impl: the 1-D promotions, the fold of a
   batched operand into mm/mv, the broadcast bmm), inner and tensordot, outer/ger and addr (mul's and
   add's routes), linalg.multi_dot (its cost-ordered chain) and chain_matmul. */
#include <math.h>

#include "core/cpu_isa.h"
#include "iter/iter.h"
#include "ops/convert_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"

static const ct_op matmul_op = CT_MM_OP("matmul", "aten::matmul");
static const ct_op matmul_out_op = CT_MM_OP("matmul", "aten::matmul.out");
static const ct_op linalg_matmul_op = CT_MM_OP("linalg_matmul", "aten::linalg_matmul");
static const ct_op linalg_matmul_out_op = CT_MM_OP("linalg_matmul", "aten::linalg_matmul.out");
static const ct_op inner_op = CT_MM_OP("inner", "aten::inner");
static const ct_op inner_out_op = CT_MM_OP("inner", "aten::inner.out");
static const ct_op outer_op = CT_MM_OP("outer", "aten::outer");
static const ct_op outer_out_op = CT_MM_OP("mul", "aten::outer.out");
static const ct_op ger_op = CT_MM_OP("ger", "aten::ger");
static const ct_op ger_out_op = CT_MM_OP("mul", "aten::ger.out");
static const ct_op addr_op = CT_MM_OP("addr", "aten::addr");
static const ct_op addr__op = CT_MM_OP("addr", "aten::addr_");
static const ct_op addr_out_op = CT_MM_OP("addr", "aten::addr.out");
static const ct_op tensordot_op = CT_MM_OP("tensordot", "aten::tensordot");
static const ct_op tensordot_out_op = CT_MM_OP_CPU("tensordot", "aten::tensordot.out"); /* no Meta kernel */
static const ct_op multi_dot_op = CT_MM_OP("linalg_multi_dot", "aten::linalg_multi_dot");
static const ct_op multi_dot_out_op = CT_MM_OP("linalg_multi_dot", "aten::linalg_multi_dot.out");
static const ct_op chain_matmul_op = CT_MM_OP("chain_matmul", "aten::chain_matmul");
static const ct_op chain_matmul_out_op = CT_MM_OP("chain_matmul", "aten::chain_matmul.out");

#define MAXD CT_JOIN_MAXDIM

/* t.view(shape) where torch writes _unsafe_view / view of a fresh result (always possible there). */
static ct_tensor *reshaped(ct_tensor *t, int64_t nd, const int64_t *shape) {
  if (!t) return NULL;
  ct_tensor *v = ct__reshape_impl(t, (ct_shape){shape, nd});
  ct_release(t);
  return v;
}

/* ---- matmul ---- */

/* should_fold(tensor1, dim_tensor2) of torch 1.13: a 3-D or larger tensor1 by a 1-D or 2-D tensor2 folds its
   batch into mm/mv, except a 3-D tensor1 whose last two dims are transposed (permute(0, 2, 1)): bmm
   handles that without a copy. */
static bool should_fold(const ct_tensor *t1, int64_t dim2) {
  if (!(t1->ndim >= 3 && (dim2 == 1 || dim2 == 2))) return false;
  if (t1->ndim == 3 && dim2 == 2 && t1->strides[2] != 1 && t1->strides[0] == t1->sizes[1] * t1->sizes[2])
    return false;
  return true;
}

ct_tensor *ct__matmul_impl(const ct_tensor *a, const ct_tensor *b) {
  int64_t d1 = a->ndim, d2 = b->ndim;
  if (d1 == 0 || d2 == 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "both arguments to matmul need to be at least 1D, but they are %lldD and %lldD",
                       (long long)d1, (long long)d2);
  if (d1 == 1 && d2 == 1) return ct__dot_new(a, b, false);
  if (d1 == 2 && d2 == 1) return ct__mv_new(a, b);
  if (d1 == 1 && d2 == 2) {
    ct_tensor *u = ct__unsqueeze_impl(a, 0);
    ct_tensor *p = NULL;
    if (u && u->sizes[1] != b->sizes[0]) {
      ct__error(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                (long long)u->sizes[0], (long long)u->sizes[1], (long long)b->sizes[0],
                (long long)b->sizes[1]);
    } else if (u) {
      p = ct__mm_new(u, b);
    }
    ct_release(u);
    ct_tensor *r = p ? ct__squeeze_dim_impl(p, 0) : NULL;
    ct_release(p);
    return r;
  }
  if (d1 == 2 && d2 == 2) {
    if (a->sizes[1] != b->sizes[0])
      return CT_ERR_NULL(
          CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
          (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
    return ct__mm_new(a, b);
  }
  if (d1 > MAXD - 2 || d2 > MAXD - 2) return CT_ERR_NULL(CT_ERR_RUNTIME, "matmul: too many dims");
  if (should_fold(a, d2) || should_fold(b, d1)) {
    bool transpose = d2 > d1;
    ct_tensor *t1 = transpose ? ct__mT_impl(b) : ct_retain((ct_tensor *)a);
    ct_tensor *t2 = !transpose ? ct_retain((ct_tensor *)b)
                    : d1 == 2  ? ct__t_impl(a)
                               : ct_retain((ct_tensor *)a);
    if (!t1 || !t2) {
      ct_release(t1);
      ct_release(t2);
      return NULL;
    }
    int64_t out_shape[MAXD], no = t1->ndim - 1, folded = 1;
    for (int64_t i = 0; i < no; i++) out_shape[i] = t1->sizes[i], folded *= t1->sizes[i];
    bool t2_matrix = t2->ndim == 2;
    if (t2_matrix) out_shape[no++] = t2->sizes[1];
    int64_t fs[2] = {folded, t1->sizes[t1->ndim - 1]};
    ct_tensor *f = ct__reshape_impl(t1, (ct_shape){fs, 2}), *r = NULL;
    if (f && t2_matrix) {
      if (f->sizes[1] != t2->sizes[0])
        ct__error(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                  (long long)f->sizes[0], (long long)f->sizes[1], (long long)t2->sizes[0],
                  (long long)t2->sizes[1]);
      else r = reshaped(ct__mm_new(f, t2), no, out_shape);
      if (r && transpose) { /* output.mT().contiguous() */
        ct_tensor *m = ct__mT_impl(r), *c = m ? ct__contiguous_impl(m, CT_CONTIGUOUS_FORMAT) : NULL;
        ct_release(m);
        ct_release(r);
        r = c;
      }
    } else if (f) {
      r = reshaped(ct__mv_new(f, t2), no, out_shape);
    }
    ct_release(f);
    ct_release(t1);
    ct_release(t2);
    return r;
  }
  /* the broadcast bmm: b1 x n x m1 by b2 x m2 x p */
  int64_t n = d1 > 1 ? a->sizes[d1 - 2] : 1, m1 = a->sizes[d1 - 1];
  int64_t m2 = d2 > 1 ? b->sizes[d2 - 2] : b->sizes[d2 - 1], p = d2 > 1 ? b->sizes[d2 - 1] : 1;
  int64_t nb1 = d1 > 2 ? d1 - 2 : 0, nb2 = d2 > 2 ? d2 - 2 : 0, nb = nb1 > nb2 ? nb1 : nb2;
  int64_t batch[MAXD];
  if (ct__broadcast_shapes(a->sizes, nb1, b->sizes, nb2, batch) != CT_OK) return NULL;
  int64_t prod = 1;
  for (int64_t i = 0; i < nb; i++) prod *= batch[i];
  int64_t e1[MAXD], e2[MAXD];
  memcpy(e1, batch, (size_t)nb * sizeof(int64_t));
  memcpy(e2, batch, (size_t)nb * sizeof(int64_t));
  e1[nb] = n, e1[nb + 1] = m1, e2[nb] = m2, e2[nb + 1] = p;
  int64_t v1[3] = {prod, n, m1}, v2[3] = {prod, m2, p};
  ct_tensor *x1 = ct__expand_impl(a, (ct_shape){e1, nb + 2}),
            *x2 = x1 ? ct__expand_impl(b, (ct_shape){e2, nb + 2}) : NULL;
  ct_tensor *y1 = x2 ? ct__reshape_impl(x1, (ct_shape){v1, 3}) : NULL,
            *y2 = y1 ? ct__reshape_impl(x2, (ct_shape){v2, 3}) : NULL;
  int64_t out_shape[MAXD], no = nb;
  memcpy(out_shape, batch, (size_t)nb * sizeof(int64_t));
  if (d1 > 1) out_shape[no++] = n;
  if (d2 > 1) out_shape[no++] = p;
  ct_tensor *r = y2 ? reshaped(ct__bmm_new(y1, y2), no, out_shape) : NULL;
  ct_release(x1);
  ct_release(x2);
  ct_release(y1);
  ct_release(y2);
  return r;
}

/* The tensor whose options the product _matmul_impl's out= form reaches gives its result (the structured op's
   resize_out checks out's dtype, then its device, against it): mm's self (tensor1, or tensor2.mT() where the
   fold transposes), mv's and addmv's vec (tensor2, or tensor1 where the fold transposes), bmm's batch2 (tensor2,
   broadcast). *like NULL where the shapes cannot be multiplied (the product's meta check comes before out's)
   and for dot (dot_out's own checks); false where the batch dims do not broadcast (infer_size's error). */
static bool matmul_out_like(const ct_tensor *t, const ct_tensor *other, const ct_tensor **like) {
  int64_t d1 = t->ndim, d2 = other->ndim;
  bool inner_ok = d1 > 0 && d2 > 0 && t->sizes[d1 - 1] == other->sizes[d2 > 1 ? d2 - 2 : 0];
  *like = NULL;
  if (!inner_ok || (d1 == 1 && d2 == 1)) return true;
  if (d2 == 1) {
    *like = other; /* mv, or a fold into mv */
  } else if (d1 <= 2 && d2 <= 2) {
    *like = t; /* mm */
  } else if (should_fold(t, d2) || should_fold(other, d1)) {
    /* where d2 > d1 the fold's mm_out has self other.mT() (by t.t()), its mv_out the vector t */
    *like = d2 > d1 && d1 == 2 ? other : t;
  } else { /* bmm, after the batch dims broadcast */
    int64_t nb1 = d1 > 2 ? d1 - 2 : 0, nb2 = d2 > 2 ? d2 - 2 : 0, batch[MAXD];
    if (nb1 <= MAXD && nb2 <= MAXD && ct__broadcast_shapes(t->sizes, nb1, other->sizes, nb2, batch) != CT_OK)
      return false;
    *like = other;
  }
  return true;
}

static ct_status matmul_out_api(const ct_op *op, ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(op, op->aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(op, out, t, other)) return CT_ERR_RUNTIME;
  return ct__matmul_out(out, t, other);
}

/* _matmul_impl's transposed fold with out= (a matrix t by a batch other): out is resized to the result's shape,
   and mm_out(out.mT().reshape(folded, n), other.mT() folded, t.t()) writes into it where that reshape is a view
   of out (its strides then decide BLAS's call: for one batch, out's own layout); where the reshape copies,
   the functional fold's bits apply and false is returned (out resized, nothing else done). */
static bool fold_t_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other, ct_status *s) {
  int64_t nd = other->ndim, shape[MAXD], folded = 1;
  for (int64_t i = 0; i < nd - 2; i++) shape[i] = other->sizes[i], folded *= other->sizes[i];
  shape[nd - 2] = t->sizes[0], shape[nd - 1] = other->sizes[nd - 1];
  folded *= shape[nd - 1];
  *s = ct__tensor_resize_ok(out, nd, shape) ? ct__join_fit_out(out, nd, shape) : ct_last_error();
  if (*s != CT_OK) return true;
  int64_t fo[2] = {folded, t->sizes[0]}, f1[2] = {folded, t->sizes[1]};
  ct_tensor *om = ct__mT_impl(out), *ro = om ? ct__reshape_impl(om, (ct_shape){fo, 2}) : NULL;
  bool view = ro && ro->storage == out->storage;
  ct_tensor *t1 = view ? ct__mT_impl(other) : NULL,
            *t1f = t1 ? ct__reshape_impl(t1, (ct_shape){f1, 2}) : NULL, *t2 = t1f ? ct__t_impl(t) : NULL;
  if (view) *s = t2 ? ct__mm_finish_out(ro, ct__mm_for_out(t1f, t2, ro), t1f) : ct_last_error();
  else if (!ro) *s = ct_last_error();
  ct_release(om), ct_release(ro), ct_release(t1), ct_release(t1f), ct_release(t2);
  return view || *s != CT_OK;
}

ct_status ct__matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  int64_t d1 = t->ndim, d2 = other->ndim;
  if (d1 == 1 && d2 == 1) return ct__dot_out("dot", out, t, other, false); /* at::dot_out(out, t1, t2) */
  const ct_tensor *like;
  if (!matmul_out_like(t, other, &like)) return ct_last_error();
  /* resize_out's checks of out (dtype, then device) before the product's kernel and its checks: a call with a
     meta tensor runs the product's meta function, which has no kernel checks */
  if (like && !ct__join_out_dtype_is(out, (ct_dtype)like->dtype)) return CT_ERR_RUNTIME;
  if (like && CT__OP_ON_META(out, t, other) && !ct__join_out_device_ok(out, like)) return CT_ERR_RUNTIME;
  if (d1 == 2 && d2 == 1) return ct__mv_out(out, t, other); /* at::mv_out(out, tensor1, tensor2) */
  if (d1 == 1 && d2 == 2) { /* mm_out(out, t.unsqueeze(0), other).squeeze_(0): out is resized to 1 x p
                               (contiguous strides where its shape differs), then loses dim 0 */
    ct_tensor *r = ct__matmul_impl(t, other), *ru = r ? ct__unsqueeze_impl(r, 0) : NULL;
    ct_release(r);
    ct_status s = ct__mm_finish_out(out, ru, t); /* mm_out's: self's options */
    ct_tensor *sq = s == CT_OK ? ct__squeeze_dim_impl(out, 0) : NULL;
    if (s == CT_OK) s = sq ? ct__set_impl(out, sq) : ct_last_error();
    ct_release(sq);
    return s;
  }
  /* mm_out (into out, or a tensor laid out as it: the layout decides BLAS's call), or resize_output(out,
     shape) and mm_out / mv_out / bmm_out into out reshaped (a copy of it where no view fits, copied back):
     the result is computed here and copied; on meta nothing is written and out keeps the resize */
  if (d1 == 2 && d2 == 2 && t->sizes[1] == other->sizes[0])
    return ct__mm_finish_out(out, ct__mm_for_out(t, other, out), like);
  ct_status s;
  if (d1 == 2 && d2 >= 3 && d2 <= MAXD && should_fold(other, d1) && t->sizes[1] == other->sizes[d2 - 2] &&
      t->dtype == other->dtype && ct__mm_layout_matters((ct_dtype)t->dtype) && !CT__OP_ON_META(out, t, other) &&
      fold_t_out(out, t, other, &s))
    return s;
  return ct__mm_finish_out(out, ct__matmul_impl(t, other), like);
}

ct_tensor *ct_matmul(const ct_tensor *t, const ct_tensor *other) {
  return ct__mm_api2(&matmul_op, "t, other", t, other, ct__matmul_impl);
}
ct_status ct_matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  return matmul_out_api(&matmul_out_op, out, t, other);
}
ct_tensor *ct_linalg_matmul(const ct_tensor *t, const ct_tensor *other) {
  return ct__mm_api2(&linalg_matmul_op, "t, other", t, other, ct__matmul_impl);
}
ct_status ct_linalg_matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  return matmul_out_api(&linalg_matmul_out_op, out, t, other);
}

/* ---- tensordot and inner ---- */

/* at::native::tensordot(input1, input2, dims1, dims2). */
static ct_tensor *tensordot_impl(const ct_tensor *a, const ct_tensor *b, ct_dims da, ct_dims db) {
  if (da.ndim != db.ndim) return CT_ERR_NULL(CT_ERR_RUNTIME, "both dimension lists should have same length");
  if (a->ndim > MAXD || b->ndim > MAXD || da.ndim > MAXD)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "tensordot: too many dims");
  ct_tensor *t1 = ct_retain((ct_tensor *)a), *t2 = ct_retain((ct_tensor *)b);
  /* {0}: GCC cannot see that a failed dim stops the loops that read them */
  int64_t csize = 1, w1[MAXD] = {0}, w2[MAXD] = {0};
  bool c1[MAXD] = {false}, c2[MAXD] = {false};
  ct_status s = CT_OK;
  for (int64_t i = 0; s == CT_OK && i < da.ndim; i++) {
    int64_t x = ct__size_dim(a, da.data[i]), y = x >= 0 ? ct__size_dim(b, db.data[i]) : -1;
    if (y < 0) {
      s = ct_last_error();
      break;
    }
    w1[i] = x, w2[i] = y;
    int64_t s1 = a->sizes[x], s2 = b->sizes[y];
    ct_tensor **target = s2 == 1 ? &t1 : s1 == 1 ? &t2 : NULL;
    if (target) { /* broadcast dims are summed at once (keepdim) */
      int64_t d = s2 == 1 ? x : y;
      ct_tensor *sum = NULL;
      ct_scope_begin();
      s = ct__sum_impl(NULL, *target, &(ct_reduce_opts){.dims = {&d, 1}, .keepdim = true}, &sum);
      if (sum) ct_retain(sum);
      ct_scope_end();
      ct_release(*target);
      *target = sum;
    } else if (s1 != s2) {
      ct__error(CT_ERR_RUNTIME,
                "contracted dimensions need to match, but first has size %lld in dim %lld and second has "
                "size %lld in dim %lld",
                (long long)s1, (long long)da.data[i], (long long)s2, (long long)db.data[i]);
      s = CT_ERR_RUNTIME;
    } else {
      csize *= s1;
    }
  }
  for (int64_t i = 0; s == CT_OK && i < da.ndim; i++) { /* dim_list_to_bitset */
    if (c1[w1[i]]) {
      ct__error(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)w1[i]);
      s = CT_ERR_RUNTIME;
    }
    c1[w1[i]] = true;
  }
  for (int64_t i = 0; s == CT_OK && i < db.ndim; i++) {
    if (c2[w2[i]]) {
      ct__error(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)w2[i]);
      s = CT_ERR_RUNTIME;
    }
    c2[w2[i]] = true;
  }
  ct_tensor *r = NULL;
  if (s == CT_OK) {
    int64_t p1[MAXD], p2[MAXD], rs[2 * MAXD], np1 = 0, np2 = 0, nr = 0, size1 = 1, size2 = 1;
    for (int64_t i = 0; i < a->ndim; i++)
      if (!c1[i]) p1[np1++] = i, size1 *= t1->sizes[i], rs[nr++] = t1->sizes[i];
    for (int64_t i = 0; i < da.ndim; i++) p1[np1++] = w1[i];
    for (int64_t i = 0; i < db.ndim; i++) p2[np2++] = w2[i];
    for (int64_t i = 0; i < b->ndim; i++)
      if (!c2[i]) p2[np2++] = i, size2 *= t2->sizes[i], rs[nr++] = t2->sizes[i];
    int64_t s1[2] = {size1, csize}, s2[2] = {csize, size2};
    ct_tensor *q1 = ct__permute_impl(t1, (ct_dims){p1, np1}),
              *q2 = q1 ? ct__permute_impl(t2, (ct_dims){p2, np2}) : NULL;
    ct_tensor *m1 = q2 ? ct__reshape_impl(q1, (ct_shape){s1, 2}) : NULL,
              *m2 = m1 ? ct__reshape_impl(q2, (ct_shape){s2, 2}) : NULL;
    if (m2) r = reshaped(ct__mm_new(m1, m2), nr, rs);
    ct_release(q1);
    ct_release(q2);
    ct_release(m1);
    ct_release(m2);
  }
  ct_release(t1);
  ct_release(t2);
  return r;
}

/* torch.tensordot(a, b, dims=int): Python's wrapper checks dims and lists them (da, db: MAXD entries), before
   the dispatcher sees the call. */
static bool tensordot_int_dims(int64_t dims, int64_t *da, int64_t *db) {
  if (dims < 0) {
    ct__error(CT_ERR_RUNTIME, "tensordot expects dims >= 0, but got dims=%lld", (long long)dims);
    return false;
  }
  if (dims > MAXD) {
    ct__error(CT_ERR_RUNTIME, "tensordot: too many dims");
    return false;
  }
  for (int64_t i = 0; i < dims; i++) da[i] = i - dims, db[i] = i;
  return true;
}

static ct_tensor *tensordot_int(const ct_tensor *a, const ct_tensor *b, int64_t dims) {
  int64_t da[MAXD], db[MAXD];
  if (!tensordot_int_dims(dims, da, db)) return NULL;
  return tensordot_impl(a, b, (ct_dims){da, dims}, (ct_dims){db, dims});
}

/* tensordot_out: the result first, then the device and dtype checks, resize_output and copy_. */
static ct_status tensordot_finish(ct_tensor *out, ct_tensor *r) {
  if (!r) return ct_last_error();
  if (out->dtype != r->dtype) {
    ct__error(
        CT_ERR_RUNTIME,
        "tensordot: Expected the output tensor to have dtype %s, but got an output tensor with dtype %s",
        ct__dt((ct_dtype)r->dtype)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
    ct_release(r);
    return CT_ERR_RUNTIME;
  }
  return ct__mm_finish_out(out, r, NULL);
}

ct_tensor *ct_tensordot(const ct_tensor *a, const ct_tensor *b, int64_t dims) {
  CT__NONNULL_PTR(a, b);
  if (!CT__OP_ACCEPTS(&tensordot_op, tensordot_op.aten, a, b)) return NULL;
  ct_tensor *r = tensordot_int(a, b, dims);
  ct__mm_mark(r, a, b);
  return ct__own(r);
}

ct_status ct_tensordot_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, int64_t dims) {
  CT__NONNULL_STATUS(out, a, b);
  int64_t da[MAXD], db[MAXD];
  if (!tensordot_int_dims(dims, da, db)) return ct_last_error(); /* Python's check, before the dispatcher */
  if (!CT__OP_ACCEPTS(&tensordot_out_op, tensordot_out_op.aten, out, a, b)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&tensordot_out_op, out, a, b)) return CT_ERR_RUNTIME;
  return tensordot_finish(out, tensordot_impl(a, b, (ct_dims){da, dims}, (ct_dims){db, dims}));
}

ct_tensor *ct_tensordot_dims(const ct_tensor *a, const ct_tensor *b, ct_dims dims_a, ct_dims dims_b) {
  CT__NONNULL_PTR(a, b);
  if (!CT__OP_ACCEPTS(&tensordot_op, tensordot_op.aten, a, b)) return NULL;
  ct_tensor *r = tensordot_impl(a, b, dims_a, dims_b);
  ct__mm_mark(r, a, b);
  return ct__own(r);
}

ct_status ct_tensordot_dims_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, ct_dims dims_a,
                                ct_dims dims_b) {
  CT__NONNULL_STATUS(out, a, b);
  if (!CT__OP_ACCEPTS(&tensordot_out_op, tensordot_out_op.aten, out, a, b)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&tensordot_out_op, out, a, b)) return CT_ERR_RUNTIME;
  return tensordot_finish(out, tensordot_impl(a, b, dims_a, dims_b));
}

/* inner's check of the last dims (a and b at least 1-D). */
static bool inner_dims_ok(const ct_tensor *a, const ct_tensor *b) {
  if (a->sizes[a->ndim - 1] == b->sizes[b->ndim - 1]) return true;
  char x[512], y[512];
  ct__fmt_int_list(x, sizeof x, a->ndim, a->sizes);
  ct__fmt_int_list(y, sizeof y, b->ndim, b->sizes);
  ct__error(CT_ERR_RUNTIME,
            "inner() the last dimension must match on both input tensors but got shapes %s and %s", x, y);
  return false;
}

/* inner: a 0-dim operand multiplies (mul's promotion); else the last dims must match, then
   tensordot(self, other, [-1], [-1]). */
static ct_tensor *inner_impl(const ct_tensor *a, const ct_tensor *b) {
  if (a->ndim == 0 || b->ndim == 0) return ct__mm_pw(&ct__pw_op_mul, a, b);
  if (!inner_dims_ok(a, b)) return NULL;
  int64_t m1 = -1;
  return tensordot_impl(a, b, (ct_dims){&m1, 1}, (ct_dims){&m1, 1});
}

ct_tensor *ct_inner(const ct_tensor *t, const ct_tensor *other) {
  return ct__mm_api2(&inner_op, "t, other", t, other, inner_impl);
}

/* checkDeviceType("inner()", {out, self, other}, self's device type): each in that order against self's. */
static bool inner_device_types_ok(const ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  const ct_tensor *ts[3] = {out, t, other};
  for (int i = 0; i < 3; i++) {
    if (ts[i]->device_type == t->device_type) continue;
    char a[32], b[32];
    ct_device_str((ct_device){.type = (ct_device_type)t->device_type, .index = -1}, a, sizeof a);
    ct_device_str((ct_device){.type = (ct_device_type)ts[i]->device_type, .index = -1}, b, sizeof b);
    ct__error(
        CT_ERR_RUNTIME,
        "Expected tensor to have %s DeviceType, but got tensor with %s DeviceType (while checking arguments "
        "for inner())",
        a, b);
    return false;
  }
  return true;
}

ct_status ct_inner_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(&inner_out_op, inner_out_op.aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&inner_out_op, out, t, other)) return CT_ERR_RUNTIME;
  if (!inner_device_types_ok(out, t, other)) return CT_ERR_RUNTIME;
  if (t->ndim == 0 || other->ndim == 0)
    return ct__mm_mul_out(out, t, other); /* at::mul_out(out, self, other) */
  if (!inner_dims_ok(t, other)) return ct_last_error();
  /* at::tensordot_out(out, self, other, -1, -1): no Meta kernel */
  if (!CT__OP_ACCEPTS(&tensordot_out_op, tensordot_out_op.aten, out, t, other)) return ct_last_error();
  return tensordot_finish(out, inner_impl(t, other));
}

/* ---- outer, ger, addr ---- */

static bool check_1d(const ct_tensor *t, const char *arg, const char *fn) {
  if (t->ndim == 1) return true;
  ct__error(CT_ERR_RUNTIME, "%s: Expected 1-D argument %s, but got %d-D", fn, arg, (int)t->ndim);
  return false;
}

/* self.reshape({self.size(0), 1}) (unowned) */
static ct_tensor *column(const ct_tensor *v) {
  int64_t s[2] = {v->sizes[0], 1};
  return ct__reshape_impl(v, (ct_shape){s, 2});
}

static ct_tensor *outer_impl(const ct_tensor *a, const ct_tensor *b) {
  if (!check_1d(a, "self", "outer") || !check_1d(b, "vec2", "outer")) return NULL;
  ct_tensor *c = column(a), *r = c ? ct__mm_pw(&ct__pw_op_mul, c, b) : NULL;
  ct_release(c);
  return r;
}

/* mul_out(result, self.reshape({n, 1}), vec2): mul's out= rules. */
static ct_status outer_out_impl(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) {
  if (!check_1d(a, "self", "outer") || !check_1d(b, "vec2", "outer")) return ct_last_error();
  ct_tensor *c = column(a);
  if (!c) return ct_last_error();
  ct_status s = ct__mm_mul_out(out, c, b);
  ct_release(c);
  return s;
}

ct_tensor *ct_outer(const ct_tensor *t, const ct_tensor *vec2) {
  return ct__mm_api2(&outer_op, "t, vec2", t, vec2, outer_impl);
}
ct_status ct_outer_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec2) {
  return ct__mm_api2_out(&outer_out_op, "out, t, vec2", out, t, vec2, outer_out_impl);
}
ct_tensor *ct_ger(const ct_tensor *t, const ct_tensor *vec2) {
  return ct__mm_api2(&ger_op, "t, vec2", t, vec2, outer_impl);
}
ct_status ct_ger_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec2) {
  return ct__mm_api2_out(&ger_out_op, "out, t, vec2", out, t, vec2, outer_out_impl);
}

/* t * s for a Python number s (torch's `s * t`: mul with a wrapped number), caller-owned. */
static ct_tensor *scaled(ct_scalar s, const ct_tensor *t) {
  ct_tensor *w = ct__wrapped_scalar(s), *r = w ? ct__mm_pw(&ct__pw_op_mul, t, w) : NULL;
  ct_release(w);
  return r;
}

/* math_addr, torch 1.13's CompositeExplicitAutograd addr, which the meta device runs: beta * self + alpha *
   outer(vec1, vec2) through mul and add, where beta 0 leaves self out (neither its shape nor its values
   matter) and a coefficient 1 multiplies nothing, then .to(promoteTypes(self, vec1, vec2)). None of addr's
   kernel checks (check_addr_scalar, the 2-D self): outer's and add's own. */
static ct_tensor *math_addr(const ct_tensor *self, const ct_tensor *v1, const ct_tensor *v2,
                            const ct_addmm_opts *opts) {
  ct_scalar beta = ct__mm_coef(opts ? opts->beta : (ct_scalar){0}),
            alpha = ct__mm_coef(opts ? opts->alpha : (ct_scalar){0});
  ct_tensor *o = outer_impl(v1, v2);
  ct_tensor *q = !o ? NULL : ct__mm_coef_is(alpha, 1) ? ct_retain(o) : scaled(alpha, o), *r = NULL;
  if (q && ct__mm_coef_zero(beta)) {
    r = ct_retain(q);
  } else if (q) {
    ct_tensor *p = ct__mm_coef_is(beta, 1) ? ct_retain((ct_tensor *)self) : scaled(beta, self);
    r = p ? ct__mm_pw(&ct__pw_op_add, p, q) : NULL;
    ct_release(p);
  }
  ct_release(o);
  ct_release(q);
  if (!r) return NULL;
  ct_dtype dt =
      ct_promote_types(ct_promote_types((ct_dtype)self->dtype, (ct_dtype)v1->dtype), (ct_dtype)v2->dtype);
  ct_tensor *c = ct__to_dtype_impl(r, dt);
  ct_release(r);
  return c;
}

/* check_addr_scalar */
static bool addr_scalar_ok(ct_dtype dt, ct_scalar s, const char *name) {
  if (s.kind == CT_SCALAR_BOOL && dt != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Boolean %s only supported for Boolean results.", name);
    return false;
  }
  int cat = ct__dt(dt)->category;
  if (!(cat == CT_CAT_FLOAT || cat == CT_CAT_COMPLEX || s.kind == CT_SCALAR_BOOL ||
        s.kind == CT_SCALAR_INT)) {
    ct__error(CT_ERR_RUNTIME, "For integral input tensors, argument %s must not be a floating point number.",
              name);
    return false;
  }
  return true;
}

/* The output of addr's TensorIterator (self expanded, vec1 as a column, vec2; inputs promoted to dt),
   allocated by an iterator that is built and not run. */
static ct_tensor *addr_layout(const ct_tensor *e, const ct_tensor *col, const ct_tensor *v2, ct_dtype dt) {
  ct_iter_config cfg = ct__iter_config_zero;
  cfg.n_out = 1;
  cfg.n_in = 3;
  cfg.in[0] = e, cfg.in[1] = col, cfg.in[2] = v2;
  cfg.promote_inputs = true;
  cfg.compute_dtype = dt;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) return NULL;
  ct_tensor *r = ct__iter_take_output(&it, 0);
  ct__iter_finish(&it);
  return r;
}

/* Where torch's iterator writes an out= result of shape sizes (its geometry decides each element's rounding,
   addr_kernel.c): out itself where it can be written directly; for an out of the right shape and another
   dtype, the contiguous temporary of dtype dt that TensorIterator computes into (LEGACY_CONTIGUOUS_MEMORY_FORMAT)
   and then casts into out; NULL for a new result in the iterator's own layout (an out to be resized). */
static ct_tensor *addr_out_target(const ct_tensor *out, const int64_t *sizes, ct_dtype dt, const ct_tensor *e,
                                  const ct_tensor *v1, const ct_tensor *v2) {
  ct_tensor *direct = ct__mm_out_direct((ct_tensor *)out, 2, sizes, dt, e, v1, v2);
  if (direct || (ct_dtype)out->dtype == dt || out->ndim != 2 || out->sizes[0] != sizes[0] ||
      out->sizes[1] != sizes[1])
    return direct;
  return ct__join_empty(e, 2, sizes, dt);
}

/* addr's TensorIterator (self broadcast, vec1 as a column, vec2; common dtype) and its kernel: for float,
   double and complex results torch's own (addr_kernel.c), else alpha * vec1 * vec2 when beta is 0 (self
   ignored), else beta * self + alpha * vec1 * vec2, through mul's and add's routes in the common dtype
   (bool: and / or), which round as torch's integer, half and bfloat16 kernels do. inplace: self is the
   target (not broadcast). */
static ct_tensor *addr_impl(const ct_tensor *self, const ct_tensor *v1, const ct_tensor *v2,
                            const ct_addmm_opts *opts, bool inplace, ct_dtype *dt_out,
                            const ct_tensor *cast_target) {
  if (!check_1d(v1, "vec1", "addr") || !check_1d(v2, "vec2", "addr")) return NULL;
  int64_t sizes[2] = {v1->sizes[0], v2->sizes[0]};
  ct_tensor *e = inplace ? ct_retain((ct_tensor *)self) : ct__expand_impl(self, (ct_shape){sizes, 2});
  if (!e) return NULL;
  ct_tensor *r = NULL;
  if (e->ndim != 2) {
    ct__error(CT_ERR_RUNTIME, "2D tensor expected, got %dD tensor for input", (int)e->ndim);
  } else if (e->sizes[0] != sizes[0] || e->sizes[1] != sizes[1]) {
    char a[256], b[256], c[256];
    ct__fmt_int_list(a, sizeof a, 2, e->sizes);
    ct__fmt_int_list(b, sizeof b, 1, v1->sizes);
    ct__fmt_int_list(c, sizeof c, 1, v2->sizes);
    ct__error(CT_ERR_RUNTIME, "size mismatch, input: %s, v1: %s, v2: %s", a, b, c);
  } else {
    const ct_tensor *ops[3] = {e, v1, v2};
    ct_dtype dt;
    ct_scalar beta = ct__mm_coef(opts ? opts->beta : (ct_scalar){0}),
              alpha = ct__mm_coef(opts ? opts->alpha : (ct_scalar){0});
    bool cast_ok = true;
    if (ct__result_type(ops, 3, &dt) == CT_OK && cast_target &&
        !ct_can_cast(dt, (ct_dtype)cast_target->dtype)) {
      ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                ct__dt(dt)->scalar_name, ct__dt((ct_dtype)cast_target->dtype)->scalar_name);
      cast_ok = false;
    }
    if (cast_ok && ct__result_type(ops, 3, &dt) == CT_OK && addr_scalar_ok(dt, beta, "beta") &&
        addr_scalar_ok(dt, alpha, "alpha")) {
      if (dt_out) *dt_out = dt;
      ct_tensor *c = column(v1);
      ct_resolved_opts ro = {.dtype = dt, .device = ct__tdevice(v1)};
      ct_tensor *al = c ? ct__scalar_tensor_with(alpha, &ro) : NULL,
                *be = al ? ct__scalar_tensor_with(beta, &ro) : NULL;
      ct_tensor *c1 = be ? ct__to_dtype_impl(c, dt) : NULL, *c2 = c1 ? ct__to_dtype_impl(v2, dt) : NULL;
      bool floating = dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
      /* the product through mul's route only where addr_kernel.c does not compute it (two passes over the
         whole result, thrown away, were most of addr's time in float32) */
      ct_tensor *p = c2 && !floating ? ct__mm_pw(&ct__pw_op_mul, al, c1) : NULL,
                *q = p ? ct__mm_pw(&ct__pw_op_mul, p, c2) : NULL;
      if (c && floating) { /* torch's kernel over torch's iterator, writing where torch writes */
        ct_tensor *target =
            !cast_target ? NULL
            : inplace
                ? ((ct_dtype)self->dtype == dt && !ct__math_bits(self) ? ct_retain((ct_tensor *)self) : NULL)
                : addr_out_target(cast_target, sizes, dt, e, v1, v2);
        r = ct__addr_float(e, c, v2, dt, beta, alpha, target);
        ct_release(target);
      } else if (q &&
                 ct__mm_coef_zero(beta)) { /* self is ignored: NaN and inf in it do not reach the result */
        r = ct_retain(q);
      } else if (q) {
        ct_tensor *se = ct__to_dtype_impl(e, dt), *bs = se ? ct__mm_pw(&ct__pw_op_mul, be, se) : NULL;
        r = bs ? ct__mm_pw(dt == CT_BOOL ? (const void *)&ct__pw_op_logical_or : (const void *)&ct__pw_op_add,
                           bs, q)
               : NULL;
        ct_release(se);
        ct_release(bs);
      }
      if (r &&
          !floating) { /* TensorIterator's output layout over (self, vec1 as a column, vec2): the engine's, from an
                  iterator over the three that is built and not run (vec2 broadcast takes torch's
                  iterator off its all-contiguous shortcut: a (2, 1) self of strides (1, 2) keeps them) */
        ct_tensor *lay = addr_layout(e, c, v2, dt);
        if (lay && lay->ndim == 2 && lay->sizes[0] == sizes[0] && lay->sizes[1] == sizes[1]) {
          ct_tensor *x = ct__expand_impl(r, (ct_shape){sizes, 2});
          ct_status st = x ? ct__copy_into(lay, x) : ct_last_error();
          ct_release(x);
          ct_release(r);
          r = st == CT_OK ? ct_retain(lay) : NULL;
        } else if (!lay) {
          ct_release(r);
          r = NULL;
        }
        ct_release(lay);
      }
      ct_release(c);
      ct_release(al);
      ct_release(be);
      ct_release(c1);
      ct_release(c2);
      ct_release(p);
      ct_release(q);
    }
  }
  ct_release(e);
  return r;
}

/* resize_output(out, r's shape), then out.copy_(r): a copy into meta writes nothing, one out of meta into data is
   refused (checked before the resize, so that the failing call leaves out as it was). */
static ct_status resize_and_copy(ct_tensor *out, const ct_tensor *r) {
  if (r->device_type == CT_META && out->device_type != CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
  ct_status s = ct__join_fit_out(out, r->ndim, r->sizes);
  return s == CT_OK ? ct__copy_into(out, r) : s;
}

/* math_addr_out: at::addr's result (math_addr on meta inputs, the CPU kernel with its checks on CPU ones: a meta out
   alone), the safe-cast check, resize_output and copy_ (addr_ is addr_out(self, self, ...): self takes the result's
   shape). */
static ct_status addr_out_meta(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec1,
                               const ct_tensor *vec2, const ct_addmm_opts *opts) {
  ct_tensor *r = CT__OP_ON_META(t, vec1, vec2) ? math_addr(t, vec1, vec2, opts)
                                               : addr_impl(t, vec1, vec2, opts, false, NULL, NULL);
  if (!r) return ct_last_error();
  ct_status s = CT_ERR_RUNTIME;
  if (ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype)) {
    s = resize_and_copy(out, r); /* math_addr_out: resize_output, then copy_ */
  } else {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
              ct__dt((ct_dtype)r->dtype)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
  }
  ct_release(r);
  return s;
}

ct_tensor *ct_addr(const ct_tensor *t, const ct_tensor *vec1, const ct_tensor *vec2,
                   const ct_addmm_opts *opts) {
  CT__NONNULL_PTR(t, vec1, vec2);
  if (!CT__OP_ACCEPTS(&addr_op, addr_op.aten, t, vec1, vec2)) return NULL;
  ct_tensor *r = CT__OP_ON_META(t, vec1, vec2) ? math_addr(t, vec1, vec2, opts)
                                               : addr_impl(t, vec1, vec2, opts, false, NULL, NULL);
  if (r) ct__grad_mark_result(r, t);
  ct__mm_mark(r, vec1, vec2);
  return ct__own(r);
}

ct_status ct_addr_(ct_tensor *self, const ct_tensor *vec1, const ct_tensor *vec2, const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(self, vec1, vec2);
  if (!CT__OP_ACCEPTS(&addr__op, addr__op.aten, self, vec1, vec2)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (!ct__check_no_internal_overlap(self)) return ct_last_error();
  if (CT__OP_ON_META(self, vec1, vec2))
    return addr_out_meta(self, self, vec1, vec2, opts); /* addr_out(self, self) */
  ct_dtype dt = (ct_dtype)self->dtype;
  ct_tensor *r = addr_impl(self, vec1, vec2, opts, true, &dt, self);
  if (r && !ct_can_cast(dt, (ct_dtype)self->dtype)) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
              ct__dt(dt)->scalar_name, ct__dt((ct_dtype)self->dtype)->scalar_name);
    ct_release(r);
    return CT_ERR_RUNTIME;
  }
  if (r == self) { /* computed in place (addr_kernel.c) */
    ct_release(r);
    return CT_OK;
  }
  return ct__mm_finish_inplace(self, r);
}

ct_status ct_addr_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec1, const ct_tensor *vec2,
                      const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(out, t, vec1, vec2);
  if (!CT__OP_ACCEPTS(&addr_out_op, addr_out_op.aten, out, t, vec1, vec2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&addr_out_op, out, t, vec1, vec2)) return CT_ERR_RUNTIME;
  if (CT__OP_ON_META(out, t, vec1, vec2)) return addr_out_meta(out, t, vec1, vec2, opts);
  ct_dtype dt = CT_FLOAT32;
  ct_tensor *r = addr_impl(t, vec1, vec2, opts, false, &dt, out);
  if (!r) return ct_last_error();
  if (!ct_can_cast(dt, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
              ct__dt(dt)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
    ct_release(r);
    return CT_ERR_RUNTIME;
  }
  ct_status s = r == out ? CT_OK : ct__join_copy_out(out, r);
  ct_release(r);
  return s;
}

/* ---- linalg.multi_dot and chain_matmul ---- */

static ct_tensor *chain(const ct_tensor *const *ts, const int64_t *order, int64_t n, int64_t i, int64_t j) {
  if (i == j) return ct_retain((ct_tensor *)ts[i]);
  int64_t k = order[i * n + j];
  ct_tensor *a = chain(ts, order, n, i, k), *b = a ? chain(ts, order, n, k + 1, j) : NULL;
  ct_tensor *r = b ? ct__mm_new(a, b) : NULL;
  ct_release(a);
  ct_release(b);
  return r;
}

static ct_tensor *multi_dot_impl(ct_tensors in, ct_tensor *out) {
  int64_t n = in.n;
  if (n < 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "multi_dot(): expected at least 2 tensors but got %lld", (long long)n);
  const ct_tensor *first = in.data[0], *last = in.data[n - 1];
  if (first->ndim != 1 && first->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "multi_dot(): the first tensor must be 1D or 2D but got %dD",
                       (int)first->ndim);
  if (last->ndim != 1 && last->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "multi_dot(): the last tensor must be 1D or 2D but got %dD",
                       (int)last->ndim);
  for (int64_t i = 1; i < n - 1; i++)
    if (in.data[i]->ndim != 2)
      return CT_ERR_NULL(CT_ERR_RUNTIME, "multi_dot(): tensor %lld must be 2D but got %dD", (long long)i,
                         (int)in.data[i]->ndim);
  ct_tensor **ts = ct__malloc((size_t)n * sizeof *ts);
  int64_t *order = ts ? ct__malloc((size_t)(n * n) * sizeof *order) : NULL;
  if (!order) {
    ct__free(ts);
    return NULL;
  }
  int64_t out_shape[2], no = 0;
  for (int64_t i = 0; i < n; i++) ts[i] = NULL;
  ct_tensor *r = NULL;
  ct_status s = CT_OK;
  for (int64_t i = 0; s == CT_OK && i < n; i++) {
    const ct_tensor *t = in.data[i];
    if (i == 0 && t->ndim == 1) ts[i] = ct__unsqueeze_impl(t, 0);
    else if (i == n - 1 && t->ndim == 1) ts[i] = ct__unsqueeze_impl(t, 1);
    else ts[i] = ct_retain((ct_tensor *)t);
    if (!ts[i]) s = ct_last_error();
  }
  if (s == CT_OK) {
    if (first->ndim == 2) out_shape[no++] = ts[0]->sizes[0];
    if (last->ndim == 2) out_shape[no++] = ts[n - 1]->sizes[1];
    for (int64_t i = 1; s == CT_OK && i < n; i++) {
      if (ts[i]->dtype != ts[0]->dtype) {
        ct__error(
            CT_ERR_RUNTIME,
            "multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and tensor %lld %s",
            ct__dt((ct_dtype)ts[0]->dtype)->typemeta_name, (long long)i,
            ct__dt((ct_dtype)ts[i]->dtype)->typemeta_name);
        s = CT_ERR_RUNTIME;
      } else if (!ct_device_equal(ct__tdevice(ts[i]), ct__tdevice(ts[0]))) {
        char a[32], b[32];
        ct_device_str(ct__tdevice(ts[0]), a, sizeof a);
        ct_device_str(ct__tdevice(ts[i]), b, sizeof b);
        ct__error(
            CT_ERR_RUNTIME,
            "multi_dot(): all tensors must be on the same device but tensor 0 is on %s and tensor %lld on %s",
            a, (long long)i, b);
        s = CT_ERR_RUNTIME;
      } else if (ts[i - 1]->sizes[ts[i - 1]->ndim - 1] != ts[i]->sizes[0]) {
        char a[256], b[256];
        ct__fmt_int_list(a, sizeof a, in.data[i - 1]->ndim, in.data[i - 1]->sizes);
        ct__fmt_int_list(b, sizeof b, in.data[i]->ndim, in.data[i]->sizes);
        ct__error(CT_ERR_RUNTIME,
                  "multi_dot(): tensors %lld and %lld with shapes %s and %s cannot be multiplied",
                  (long long)(i - 1), (long long)i, a, b);
        s = CT_ERR_RUNTIME;
      }
    }
  }
  if (s == CT_OK && out && out->dtype != ts[0]->dtype) {
    ct__error(CT_ERR_RUNTIME, "multi_dot(): expected out tensor to have dtype %s but got %s",
              ct__dt((ct_dtype)ts[0]->dtype)->typemeta_name, ct__dt((ct_dtype)out->dtype)->typemeta_name);
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK && out && !ct_device_equal(ct__tdevice(out), ct__tdevice(ts[0]))) {
    char a[32], b[32];
    ct_device_str(ct__tdevice(ts[0]), a, sizeof a);
    ct_device_str(ct__tdevice(out), b, sizeof b);
    ct__error(CT_ERR_RUNTIME, "multi_dot(): expected out tensor to be on device %s but got %s", a, b);
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK) {
    if (n == 2) {
      r = ct__mm_new(ts[0], ts[1]);
    } else if (n == 3) {
      int64_t a = ts[0]->sizes[0], b = ts[1]->sizes[0], c = ts[2]->sizes[0], d = ts[2]->sizes[1];
      int64_t cost1 = (a * c) * (b + d), cost2 = (b * d) * (a + c);
      ct_tensor *p = cost1 > cost2 ? ct__mm_new(ts[1], ts[2]) : ct__mm_new(ts[0], ts[1]);
      r = !p ? NULL : cost1 > cost2 ? ct__mm_new(ts[0], p) : ct__mm_new(p, ts[2]);
      ct_release(p);
    } else { /* matrix_chain_order */
      int64_t *p = ct__malloc((size_t)(n + 1) * sizeof *p),
              *m = p ? ct__malloc((size_t)(n * n) * sizeof *m) : NULL;
      if (m) {
        for (int64_t i = 0; i < n; i++) p[i] = ts[i]->sizes[0];
        p[n] = ts[n - 1]->sizes[1];
        for (int64_t i = 0; i < n * n; i++) m[i] = 0, order[i] = 0;
        for (int64_t l = 1; l < n; l++)
          for (int64_t i = 0; i < n - l; i++) {
            int64_t j = i + l;
            m[i * n + j] = INT64_MAX;
            for (int64_t k = i; k < j; k++) {
              int64_t q = m[i * n + k] + m[(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
              if (q < m[i * n + j]) m[i * n + j] = q, order[i * n + j] = k;
            }
          }
        r = chain((const ct_tensor *const *)ts, order, n, 0, n - 1);
      }
      ct__free(p);
      ct__free(m);
    }
    if (r) r = reshaped(r, no, out_shape);
  }
  for (int64_t i = 0; i < n; i++) ct_release(ts[i]);
  ct__free(ts);
  ct__free(order);
  return r;
}

ct_tensor *ct_linalg_multi_dot(ct_tensors tensors) {
  if (!ct__join_list_ok(&multi_dot_op, NULL, tensors)) return NULL;
  ct_tensor *r = multi_dot_impl(tensors, NULL);
  ct__join_mark(r, tensors);
  return ct__own(r);
}

ct_status ct_linalg_multi_dot_out(ct_tensor *out, ct_tensors tensors) {
  CT__NONNULL_STATUS(out);
  if (!ct__join_list_ok(&multi_dot_out_op, out, tensors)) return ct_last_error();
  if (!ct__join_out_grad_ok(&multi_dot_out_op, out, tensors)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, multi_dot_impl(tensors, out), NULL);
}

static bool all_2d(ct_tensors ts) {
  for (int64_t i = 0; i < ts.n; i++)
    if (ts.data[i]->ndim != 2) {
      ct__error(CT_ERR_RUNTIME, "Tensor dimension is %d, expected 2 instead.", (int)ts.data[i]->ndim);
      return false;
    }
  if (ts.n == 0) {
    ct__error(CT_ERR_RUNTIME, "chain_matmul(): Expected one or more matrices");
    return false;
  }
  return true;
}

ct_tensor *ct_chain_matmul(ct_tensors matrices) {
  if (!ct__join_list_ok(&chain_matmul_op, NULL, matrices)) return NULL;
  if (!all_2d(matrices)) return NULL;
  ct_tensor *r =
      matrices.n == 1 ? ct__clone_impl(matrices.data[0], CT_PRESERVE_FORMAT) : multi_dot_impl(matrices, NULL);
  ct__join_mark(r, matrices);
  return ct__own(r);
}

ct_status ct_chain_matmul_out(ct_tensor *out, ct_tensors matrices) {
  CT__NONNULL_STATUS(out);
  if (!ct__join_list_ok(&chain_matmul_out_op, out, matrices)) return ct_last_error();
  if (!ct__join_out_grad_ok(&chain_matmul_out_op, out, matrices)) return CT_ERR_RUNTIME;
  if (!all_2d(matrices)) return ct_last_error();
  if (matrices.n == 1) return resize_and_copy(out, matrices.data[0]); /* resize_output, then copy_ */
  return ct__mm_finish_out(out, multi_dot_impl(matrices, out), NULL);
}
