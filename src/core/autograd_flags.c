/* torch's leaf rules, kept by two flag bits until autograd brings graph nodes: a tensor the user made
   require grad is a leaf; its views are views of a leaf; results of ops are not leaves. In-place writes
   to the first two are refused (VariableTypeUtils.h check_inplace). */
#include "core/internal.h"

uint8_t ct__grad_view_flags(const ct_tensor *t) {
  if (!(t->flags & CT_TENSOR_REQUIRES_GRAD)) return 0;
  if (t->flags & CT_TENSOR_GRAD_NON_LEAF) return CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_NON_LEAF;
  return CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_VIEW_OF_LEAF;
}

void ct__grad_mark_result(ct_tensor *r, const ct_tensor *src) {
  r->flags = (uint8_t)(r->flags & ~CT_TENSOR_GRAD_BITS);
  if (src->flags & CT_TENSOR_REQUIRES_GRAD) r->flags |= CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_NON_LEAF;
}

bool ct__check_inplace_flags(uint8_t flags) {
  if ((flags & (CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_NON_LEAF)) != CT_TENSOR_REQUIRES_GRAD) return true;
  ct__error(CT_ERR_RUNTIME, "%s leaf Variable that requires grad is being used in an in-place operation.",
            (flags & CT_TENSOR_GRAD_VIEW_OF_LEAF) ? "a view of a" : "a");
  return false;
}

bool ct__check_inplace(const ct_tensor *t) { return ct__check_inplace_flags(t->flags); }

bool ct__check_out_grad(const char *aten, const ct_tensor *const *ts, int n) {
  for (int i = 0; i < n; i++)
    if (ts[i] && (ts[i]->flags & CT_TENSOR_REQUIRES_GRAD)) {
      ct__error(CT_ERR_RUNTIME, "%s(): functions with out=... arguments don't support automatic differentiation, "
                "but one of the arguments requires grad.", aten);
      return false;
    }
  return true;
}

void ct__grad_mark_out(ct_tensor *out, const ct_tensor *const *in, int n) {
  for (int i = 0; i < n; i++)
    if (in[i] && (in[i]->flags & CT_TENSOR_REQUIRES_GRAD)) {
      ct__grad_mark_result(out, in[i]);
      return;
    }
}
