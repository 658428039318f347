/* torch's lazy conjugate and negative views (conj, _neg_view) and their queries and resolution. */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* torch computes conj, resolve_conj and resolve_neg on every layout: pending in ctorch. A resolution copies
   (the copy engine's devices). */
static const ct_view_op conj_op = {CT_VIEW_OP("conj", "aten::conj", CT_LAYOUTS_ALL)};
static const ct_view_op resolve_conj_op = {CT_COPY_OP("resolve_conj", "aten::resolve_conj", CT_LAYOUTS_ALL)};
static const ct_view_op resolve_neg_op = {CT_COPY_OP("resolve_neg", "aten::resolve_neg", CT_LAYOUTS_ALL)};

/* An alias of t with the given math bits flipped (torch's _conj / _neg_view: alias, then set the bit to
   the opposite of the base's). Not scope-registered. */
ct_tensor *ct__math_bits_view(const ct_tensor *t, unsigned flip) {
  ct_tensor *v = ct__alias_impl(t);
  if (v) v->flags = (uint8_t)(v->flags ^ flip);
  return v;
}

ct_tensor *ct__complex_part_view(const ct_tensor *t, int64_t part) {
  ct_tensor *r = ct__tensor_make(t->storage, ct_dtype_to_real((ct_dtype)t->dtype),
                                 (int64_t)((uint64_t)ct__mul_wrap(t->offset, 2) + (uint64_t)part), t->ndim, t->sizes,
                                 t->strides);
  if (r)
    for (int64_t i = 0; i < r->ndim; i++) r->strides[i] = ct__mul_wrap(r->strides[i], 2);
  return r;
}

ct_tensor *ct__conj_impl(const ct_tensor *t) {
  if (ct__dt((ct_dtype)t->dtype)->category != CT_CAT_COMPLEX) return ct_retain((ct_tensor *)t);
  return ct__math_bits_view(t, CT_TENSOR_CONJ);
}

ct_tensor *ct_conj(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&conj_op, t, t);
  return ct__own(ct__conj_impl(t));
}

bool ct_is_conj(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_CONJ); }
bool ct_is_neg(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_NEG); }

/* resolve_conj / resolve_neg (bit: CT_TENSOR_CONJ / CT_TENSOR_NEG); not scope-registered. */
ct_tensor *ct__resolve_impl(const ct_tensor *t, unsigned bit) {
  if (!(t->flags & bit)) return ct_retain((ct_tensor *)t);
  if (!ct__check_in_storage(t)) return NULL;
  ct_tensor *r = ct__resolve_bits(t);
  if (r) ct__grad_mark_result(r, t);
  return r;
}

ct_tensor *ct_resolve_conj(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&resolve_conj_op, t, t);
  return ct__own(ct__resolve_impl(t, CT_TENSOR_CONJ));
}

ct_tensor *ct_resolve_neg(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&resolve_neg_op, t, t);
  return ct__own(ct__resolve_impl(t, CT_TENSOR_NEG));
}
