/* torch 1.13's CPU TensorIterator does not cast inside its loops: an input of another dtype is first
   converted into a temporary (Tensor.to: a dense layout is kept, anything else becomes contiguous), and
   an output of another dtype is computed into a contiguous temporary and copied back. The loops then
   see those layouts, which decides which rows run torch's vectorized formula. For the binary ops here
   the two formulas differ (NaN payloads, SLEEF vs glibc), so they follow the same route instead of the
   engine's chunked on-the-fly casts. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/create_internal.h"
#include "ops/pointwise/binary_common.h"

/* t converted to dtype in a new tensor with Tensor.to's (preserve format) strides; NULL on failure. */
#define converted(t, dtype) ct__copy_as(t, dtype, CT_PRESERVE_FORMAT)

#define same_shape(t, shape, nd) ct__has_sizes(t, nd, shape)

/* out.copy_(t) (t contiguous, same shape). A contiguous out of rank >= 1 is converted as one run, which
   is what torch's copy does even for a single element (its bfloat16 NaNs then come out as 0xFFFF); the
   copy engine treats a 1-element run as strided. */
static ct_status copy_back(ct_tensor *out, const ct_tensor *t) {
  if (out->ndim >= 1 && out->numel > 0 && ct_is_contiguous(out, CT_CONTIGUOUS_FORMAT) && !ct__math_bits(out)) {
    ct__cast_n(ct__tdata(out), (ct_dtype)out->dtype, ct__tdata(t), (ct_dtype)t->dtype, out->numel);
    return CT_OK;
  }
  return ct__copy_into(out, t);
}

ct_status ct__bin_cast_run(ct_bin_fn fn, const void *arg, ct_dtype common, ct_tensor *out, const ct_tensor *const *in,
                           int n_in, bool inplace, ct_tensor **result) {
  if (result) *result = NULL;
  for (int i = 0; i < n_in; i++)
    if (!in[i]) return fn(arg, out, in, inplace, result);
  if (!result && !out) return fn(arg, out, in, inplace, result);
  bool meta = out && out->device_type == CT_META;
  for (int i = 0; i < n_in; i++) meta |= in[i]->device_type == CT_META;
  if (meta || common == CT_DTYPE_UNSET) return fn(arg, out, in, inplace, result);

  /* inputs of another dtype (0-dim ones look the same either way) become converted temporaries */
  const ct_tensor *cin[CT_ITER_MAX_OPERANDS];
  ct_tensor *tmp[CT_ITER_MAX_OPERANDS] = {0};
  ct_status s = CT_OK;
  for (int i = 0; i < n_in; i++) {
    cin[i] = in[i];
    if ((ct_dtype)in[i]->dtype == common || in[i]->ndim == 0 || in[i]->numel == 0) continue;
    tmp[i] = converted(in[i], common);
    if (!tmp[i]) {
      s = ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
      goto done;
    }
    cin[i] = tmp[i];
  }

  /* an output of another dtype: computed into a contiguous temporary when nothing else about it can
     fail (shape, overlap, cast rules); otherwise the engine reports PyTorch's error as usual */
  bool via_temp = out && (ct_dtype)out->dtype != common && ct_can_cast(common, (ct_dtype)out->dtype);
  int64_t shape[64];
  int64_t nd = 0;
  if (via_temp) {
    for (int i = 0; i < n_in && via_temp; i++) {
      int64_t next[64];
      if (in[i]->ndim > 64 || ct__broadcast_shapes(shape, nd, in[i]->sizes, in[i]->ndim, next) != CT_OK) {
        via_temp = false; /* the engine reports it */
        break;
      }
      nd = nd > in[i]->ndim ? nd : in[i]->ndim;
      memcpy(shape, next, (size_t)nd * sizeof(int64_t));
    }
    if (via_temp && ct__has_internal_overlap(out)) via_temp = false;
    for (int i = 0; i < n_in && via_temp; i++)
      if (in[i] != out && ct__partial_overlap(out, in[i])) via_temp = false;
    if (via_temp && inplace && !same_shape(out, shape, nd)) via_temp = false;
    /* an out to be resized that shares memory with an input: the engine refuses it (iter_setup.c) */
    for (int i = 0; i < n_in && via_temp; i++)
      if (!same_shape(out, shape, nd) && in[i]->storage == out->storage) via_temp = false;
  }
  if (!via_temp) {
    s = fn(arg, out, cin, inplace, result);
    goto done;
  }
  ct_tensor *t = NULL;
  if (same_shape(out, shape, nd)) {
    t = ct__empty(nd, shape, common, ct__tdevice(out));
    if (!t) {
      s = CT_ERR_OUT_OF_MEMORY;
      goto done;
    }
    s = fn(arg, t, cin, false, NULL);
  } else {
    /* out is resized to the layout the engine gives a new result (made in a scope of our own, so
       it is ours whatever scope the caller is in) */
    s = ct_scope_begin();
    if (s != CT_OK) goto done;
    s = fn(arg, NULL, cin, false, &t);
    if (t) ct_retain(t);
    ct_scope_end();
    if (s == CT_OK) s = ct__tensor_resize(out, t->ndim, t->sizes, t->strides);
  }
  if (s == CT_OK) s = copy_back(out, t);
  ct_release(t);
done:
  for (int i = 0; i < n_in; i++) ct_release(tmp[i]);
  return s;
}

/* ---- pointwise ops through ct__pw_run ---- */
typedef struct pw_arg {
  const ct_pw_op *op;
  int n_in;
  const void *args;
} pw_arg;

static ct_status pw_fn(const void *arg, ct_tensor *out, const ct_tensor *const *in, bool inplace, ct_tensor **result) {
  const pw_arg *a = arg;
  return ct__pw_run(a->op, out, in, a->n_in, inplace, a->args, result);
}

ct_status ct__bin_pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                         const void *args, ct_tensor **result) {
  ct_dtype common = CT_DTYPE_UNSET;
  bool ok = true;
  for (int i = 0; i < n_in; i++) ok &= in[i] != NULL;
  if (ok && (op->kind == CT_PW_COMMON || op->kind == CT_PW_COMMON_FLOAT)) {
    if (ct__result_type(in, n_in, &common) != CT_OK) {
      common = CT_DTYPE_UNSET; /* the op reports it */
    } else if (op->kind == CT_PW_COMMON_FLOAT && ct__dt(common)->category <= CT_CAT_INT) {
      common = ct_get_default_dtype();
    }
  }
  pw_arg a = {op, n_in, args};
  return ct__bin_cast_run(pw_fn, &a, common, out, in, n_in, inplace, result);
}
