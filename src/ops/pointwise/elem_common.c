/* Helpers shared by the unary elementary ops (see elem_internal.h). */
#include "ops/pointwise/elem_internal.h"

#include "ops/pointwise/binary_common.h"
#include "ops/view_internal.h"

bool ct__elem_reject_complex(const ct_tensor *t, const char *msg) {
  if (!ct__elem_is_complex(t)) return true;
  ct__error(CT_ERR_RUNTIME, "%s", msg);
  return false;
}

static ct_status float_fn(const void *arg, ct_tensor *out, const ct_tensor *const *in, bool inplace, ct_tensor **result) {
  return ct__pw_run(arg, out, in, 1, inplace, NULL, result);
}

ct_status ct__elem_float_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                             const void *args, ct_tensor **result) {
  (void)n_in;
  (void)args;
  const ct_tensor *t = in[0];
  ct_dtype common = CT_DTYPE_UNSET;
  if (t) common = ct__dt((ct_dtype)t->dtype)->category <= CT_CAT_INT ? ct_get_default_dtype() : (ct_dtype)t->dtype;
  return ct__bin_cast_run(float_fn, op, common, out, in, 1, inplace, result);
}

ct_status ct__elem_iter(ct_iter_config *cfg, const ct_loop *loop, const void *ctx, ct_tensor **result) {
  if (result) *result = NULL;
  ct_iter it;
  ct_status s = ct__iter_build(&it, cfg);
  if (s != CT_OK) return s;
  ct__iter_run(&it, loop, ctx);
  if (result) *result = ct__iter_take_output(&it, 0);
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

ct_tensor *ct__elem_empty_like(const ct_tensor *t, ct_dtype dtype) {
  ct_tensor *r = ct__empty(t->ndim, t->sizes, dtype, ct__tdevice(t));
  if (r && r->ndim) ct__preserve_format_strides(t, r->strides);
  return r;
}

ct_tensor *ct__elem_complex_to_real(const ct_tensor *t, const ct_loop *loop) {
  ct_dtype real = ct__elem_real_dtype((ct_dtype)t->dtype);
  ct_iter_config cfg = {.n_out = 1, .n_in = 1, .check_mem_overlap = true};
  cfg.in[0] = t;
  cfg.compute_dtype = (ct_dtype)t->dtype;
  cfg.static_out_dtype = real;
  cfg.loop_out_dtype = real;
  ct_tensor *r = NULL;
  ct__elem_iter(&cfg, loop, NULL, &r);
  return r;
}

ct_status ct__elem_complex_to_real_out(ct_tensor *out, const ct_tensor *t, const ct_loop *complex_loop) {
  ct_dtype real = ct__elem_real_dtype((ct_dtype)t->dtype);
  if (!ct_can_cast(real, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct__dt(real)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  /* the complex kernel into a complex temporary, then result.copy_(at::real(temporary)) */
  ct_iter_config cfg = {.n_out = 1, .n_in = 1, .check_mem_overlap = true};
  cfg.in[0] = t;
  cfg.compute_dtype = (ct_dtype)t->dtype;
  ct_tensor *tmp = NULL;
  ct_status s = ct__elem_iter(&cfg, complex_loop, NULL, &tmp);
  if (s != CT_OK) return s;
  ct_tensor *re = ct__complex_part_view(tmp, 0);
  ct_release(tmp);
  if (!re) return ct__elem_null();
  bool same = out->ndim == re->ndim && (re->ndim == 0 || !memcmp(out->sizes, re->sizes, (size_t)re->ndim * sizeof(int64_t)));
  if (!same) s = ct__tensor_resize(out, re->ndim, re->sizes, NULL);
  if (s == CT_OK) s = ct__copy_into(out, re);
  ct_release(re);
  return s;
}

ct_tensor *ct__elem_relayout(ct_tensor *tmp, const ct_tensor *like) {
  if (!tmp) return NULL;
  int64_t nd = tmp->ndim;
  ct_tensor *r = ct__empty(nd, tmp->sizes, (ct_dtype)tmp->dtype, ct__tdevice(tmp));
  if (!r) {
    ct_release(tmp);
    return NULL;
  }
  if (like && nd) ct__preserve_format_strides(like, r->strides);
  if (nd == 0 || !memcmp(r->strides, tmp->strides, (size_t)nd * sizeof(int64_t))) {
    ct_release(r);
    return ct__own(tmp);
  }
  ct_status s = ct__copy_into(r, tmp);
  ct_release(tmp);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}

ct_tensor *ct__elem_bool_like(const ct_tensor *t, bool v) {
  ct_tensor *r = ct__elem_empty_like(t, CT_BOOL);
  if (r && ct__fill(r, ct_scalar_bool(v)) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}
