/* torch.equal: same shape and equal values, comparing in the promoted dtype of the two inputs. */
#include "core/cast.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/view_op.h"

/* aten::equal has kernels for strided CPU tensors only (torch 1.13 has no Meta kernel); not differentiable. */
static const ct_view_op equal_op = {
    .op = {.name = "equal", .aten = "aten::equal", .grad = CT_OP_GRAD_NONE, CT_COPY_ROWS_CPU}};

#define CT_EQ_BLOCK 256

/* Elements [i0, i0 + n) of contiguous t, cast to the common dtype and then widened exactly to the
   comparison type (int64, double or complex128) in which == means the same as in the common dtype. */
static void block(const ct_tensor *t, int64_t i0, int64_t n, ct_dtype common, ct_dtype cmp, void *tmp, void *out) {
  const char *p = ct__tdata(t) + i0 * (int64_t)ct__itemsize((ct_dtype)t->dtype);
  ct__cast_n(tmp, common, p, (ct_dtype)t->dtype, n);
  ct__cast_n(out, cmp, tmp, common, n);
}

static bool equal_values(const ct_tensor *a, const ct_tensor *b) {
  ct_dtype common = ct_promote_types((ct_dtype)a->dtype, (ct_dtype)b->dtype);
  int cat = ct__dt(common)->category;
  ct_dtype cmp = cat == CT_CAT_COMPLEX ? CT_COMPLEX128 : cat == CT_CAT_FLOAT ? CT_FLOAT64 : CT_INT64;
  ct_complex128 tmp[CT_EQ_BLOCK], x[CT_EQ_BLOCK], y[CT_EQ_BLOCK];
  for (int64_t i0 = 0; i0 < a->numel; i0 += CT_EQ_BLOCK) {
    int64_t n = a->numel - i0 < CT_EQ_BLOCK ? a->numel - i0 : CT_EQ_BLOCK;
    block(a, i0, n, common, cmp, tmp, x);
    block(b, i0, n, common, cmp, tmp, y);
    for (int64_t i = 0; i < n; i++) {
      bool eq;
      if (cmp == CT_COMPLEX128) eq = x[i].re == y[i].re && x[i].im == y[i].im;
      else if (cmp == CT_FLOAT64) eq = ((double *)x)[i] == ((double *)y)[i];
      else eq = ((int64_t *)x)[i] == ((int64_t *)y)[i];
      if (!eq) return false;
    }
  }
  return true;
}

ct_status ct_equal(const ct_tensor *a, const ct_tensor *b, bool *out) {
  CT__VIEW_ENTER_STATUS(&equal_op, a, a, b);
  /* the dispatcher sees both tensors: b's layout and device are refused as a's */
  if (!ct__op_accepts(&equal_op.op, b)) return ct_last_error();
  if (!out) {
    ct__error(CT_ERR_VALUE, "ct_equal: out is NULL");
    return CT_ERR_VALUE;
  }
  if (!ct__has_sizes(a, b->ndim, b->sizes)) {
    *out = false;
    return CT_OK;
  }
  /* contiguous inputs are read in place, past the copy engine's check */
  if (!ct__check_in_storage(a) || !ct__check_in_storage(b)) return CT_ERR_RUNTIME;
  /* Strided inputs are compared through contiguous copies; contiguous ones are read in place. */
  /* Inputs with math bits are read through resolved copies (torch's fallback). */
  ct_scope_begin();
  ct_tensor *ra = ct__own(ct__resolve_bits(a)), *rb = ra ? ct__own(ct__resolve_bits(b)) : NULL;
  const ct_tensor *ca = rb ? ct__contiguous_impl(ra, CT_CONTIGUOUS_FORMAT) : NULL;
  const ct_tensor *cb = ca ? ct__contiguous_impl(rb, CT_CONTIGUOUS_FORMAT) : NULL;
  ct_status st = cb ? CT_OK : ct_last_error();
  if (cb) *out = equal_values(ca, cb);
  ct_scope_end();
  return st;
}
