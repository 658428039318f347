/* Helpers shared by the comparison and ternary op files (cmp_*.c, ternary_*.c); each file declares the
   ones it uses. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/pointwise/pw.h"

/* The TypeMeta name PyTorch prints for a dtype in some messages (lerp's "expected dtype float for `end`",
   in-place clamp's "... desired output type long int"): the traits' typemeta_name. */
const char *ct__pw_typemeta_name(ct_dtype dt) { return ct__dt(dt)->typemeta_name; }

/* PyTorch's CPU TensorIterator converts every input of another dtype than the common one into a temporary
   (Tensor.to(common), memory format preserved) and iterates over those: dims are ordered and coalesced
   by the temporaries' strides. The engine converts on the fly instead, which gives the same values for
   most ops; ops whose results depend on the iteration geometry (where PyTorch's vectorized and scalar
   code disagree) convert first, like PyTorch. in[i] is replaced by its temporary, whose reference goes to
   tmp[i] (NULL when none was needed; none at all when an input is on meta). False (error recorded) when
   memory runs out. */
bool ct__pw_materialize(const ct_tensor **in, int n, ct_dtype common, ct_tensor **tmp) {
  for (int i = 0; i < n; i++) tmp[i] = NULL;
  if (ct__op_on_meta_n(in, n))
    return true; /* a call on meta computes nothing: the engine checks, in its order */
  for (int i = 0; i < n; i++) {
    const ct_tensor *t = in[i];
    if (!t || (ct_dtype)t->dtype == common || t->device_type == CT_META) continue;
    int64_t nd = t->ndim, buf[16];
    int64_t *st = nd <= 16 ? buf : ct__malloc((size_t)nd * sizeof(int64_t));
    ct_tensor *r = st ? ct__empty(nd, t->sizes, common, ct__tdevice(t)) : NULL;
    if (r) {
      ct__preserve_format_strides(t, st);
      memcpy(r->strides, st, (size_t)nd * sizeof(int64_t));
      if (ct__copy_into(r, t) != CT_OK) {
        ct_release(r);
        r = NULL;
      }
    }
    if (st != buf) ct__free(st);
    if (!r) {
      for (int j = 0; j < i; j++) ct_release(tmp[j]);
      return false;
    }
    tmp[i] = r;
    in[i] = r;
  }
  return true;
}

/* out= of another dtype than the common one: PyTorch's TensorIterator computes into a contiguous temporary
   of the common dtype (cast_common_dtype_to_outputs) and copies it into out afterwards, so the rows it
   iterates are the temporary's. Ops whose results depend on the rows do the same: when out has the
   broadcast shape and another dtype, *tmp receives such a temporary (the caller computes into it and
   copies); out's own checks (overlaps, and can_cast when safe_cast) are made here, in the iterator's
   order. *tmp NULL: use out directly. False: an error was recorded. */
bool ct__pw_out_via_temp(const ct_tensor *out, const ct_tensor *const *in, int n, ct_dtype common, bool safe_cast,
                         ct_tensor **tmp) {
  *tmp = NULL;
  /* a call on meta computes nothing: no temporary, the engine's checks in their order (devices first) */
  if (!out || (ct_dtype)out->dtype == common || out->device_type == CT_META || ct__op_on_meta_n(in, n))
    return true;
  int64_t nd = 0, shape[16], work[16];
  for (int i = 0; i < n; i++) {
    if (!in[i] || in[i]->ndim > 16) return true;
    if (ct__broadcast_shapes(shape, nd, in[i]->sizes, in[i]->ndim, work) != CT_OK) {
      ct_clear_error(); /* the engine reports it, in its order */
      return true;
    }
    nd = nd > in[i]->ndim ? nd : in[i]->ndim;
    memcpy(shape, work, (size_t)nd * sizeof(int64_t));
  }
  if (out->ndim != nd || memcmp(out->sizes, shape, (size_t)nd * sizeof(int64_t)) != 0) return true;
  if (ct__has_internal_overlap(out)) {
    ct__error(CT_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor refers to a "
                              "single memory location. Please clone() the tensor before performing the operation.");
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (in[i] != out && ct__partial_overlap(out, in[i])) {
      ct__error(CT_ERR_RUNTIME,
                "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                "single memory location, or overlapping memory locations. Please clone() the tensor before "
                "performing the operation.");
      return false;
    }
  }
  if (safe_cast && !ct_can_cast(common, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct__dt(common)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return false;
  }
  *tmp = ct__empty(nd, shape, common, ct__tdevice(out));
  return *tmp != NULL;
}
