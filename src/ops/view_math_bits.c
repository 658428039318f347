/* torch's lazy conjugate and negative views (conj, _neg_view) and their queries and resolution. */
#include "ops/view_internal.h"

/* An alias of t with the given math bits flipped (torch's _conj / _neg_view: alias, then set the bit to
   the opposite of the base's). Not scope-registered. */
ct_tensor *ct__math_bits_view(const ct_tensor *t, unsigned flip) {
  ct_tensor *v = ct__alias(t);
  if (v) v->flags = (uint8_t)(v->flags ^ flip);
  return v;
}

ct_tensor *ct_conj(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (ct__dt((ct_dtype)t->dtype)->category != CT_CAT_COMPLEX) return ct__own(ct_retain((ct_tensor *)t));
  return ct__own(ct__math_bits_view(t, CT_TENSOR_CONJ));
}

bool ct_is_conj(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_CONJ); }
bool ct_is_neg(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_NEG); }

static ct_tensor *resolve(const ct_tensor *t, unsigned bit) {
  if (!t) return ct__null_ptr_arg("t");
  if (!(t->flags & bit)) return ct__own(ct_retain((ct_tensor *)t));
  if (!ct__check_in_storage(t)) return NULL;
  ct_tensor *r = ct__resolve_bits(t);
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

ct_tensor *ct_resolve_conj(const ct_tensor *t) { return resolve(t, CT_TENSOR_CONJ); }
ct_tensor *ct_resolve_neg(const ct_tensor *t) { return resolve(t, CT_TENSOR_NEG); }
