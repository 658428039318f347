/* The generic entry of every pointwise op: the op's promotion kind becomes the engine's configuration. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/out_wrapper.h"
#include "ops/create_internal.h"
#include "kernels/cpu/dtypes.h"
#include "ops/pointwise/pw.h"

static void configure(const ct_pw_op *op, ct_iter_config *cfg, const ct_tensor *out) {
  switch (op->kind) {
    case CT_PW_SAME:
      cfg->check_all_same_dtype = true;
      break;
    case CT_PW_FLOAT:
    case CT_PW_COMMON_FLOAT:
      cfg->promote_int_to_float = true;
      /* fallthrough */
    case CT_PW_COMMON:
      cfg->promote_inputs = true;
      cfg->cast_to_outputs = true;
      cfg->enforce_safe_cast = true;
      break;
    case CT_PW_COMPARE:
      cfg->promote_inputs = true;
      cfg->static_out_dtype = CT_BOOL;
      cfg->loop_out_dtype = CT_BOOL;
      cfg->cast_to_outputs = out && out->dtype != CT_BOOL;
      break;
    case CT_PW_PREDICATE:
      cfg->static_out_dtype = CT_BOOL;
      cfg->loop_out_dtype = CT_BOOL;
      break;
  }
}

typedef struct pw_call {
  const ct_pw_op *op;
  const ct_iter *it; /* the iterator being built: its operands' devices are settled before validate */
  const ct_tensor *const *in;
  const void *args;
} pw_call;

static bool validate(ct_dtype common, const void *arg) {
  const pw_call *c = arg;
  if (c->op->check && !c->op->check(common, c->in, c->args)) return false;
  if (!ct__pw_row(c->op, c->it->is_meta)[common]) {
    ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", c->op->kernel, ct__dt(common)->scalar_name);
    return false;
  }
  if (c->it->is_meta) return !c->op->meta_check || c->op->meta_check(common, c->in, c->args);
  return !c->op->kernel_check || c->op->kernel_check(common, c->in, c->args);
}

/* TensorIterator's cast_outputs: an out= (or in-place) tensor whose dtype is not the compute dtype is
   computed into a temporary of the compute dtype (contiguous, or laid out as the resized out when the
   call resized it) and copied in with copy_, so the final conversion rounds, and treats NaN, exactly as
   PyTorch's copy does (bfloat16's vector and scalar NaN bits). The temporary is not scope-registered. */
static ct_tensor *cast_temporary(const ct_tensor *out, ct_dtype dt, bool resized) {
  if (!resized) return ct__empty(out->ndim, out->sizes, dt, ct__tdevice(out));
  int64_t elems = ct__required_storage_elems(out->ndim, out->sizes, out->strides, 0);
  ct_storage *st = ct__storage_alloc((size_t)elems * ct__itemsize(dt), ct__tdevice(out));
  if (!st) return NULL;
  ct_tensor *t = ct__tensor_make(st, dt, 0, out->ndim, out->sizes, out->strides);
  ct_storage_release(st);
  return t;
}

/* inlined into pw_run (GCC declines on its own): a tiny call is dominated by such overheads */
static inline __attribute__((always_inline)) ct_status run_built(const ct_pw_op *op, ct_iter *it, const void *args,
                                                                  ct_tensor **result) {
  ct_pw_ctx ctx;
  if (op->prepare) op->prepare(it->common, args, &ctx);
  ct__iter_run(it, ct__pw_row(op, it->is_meta)[it->common], &ctx);
  if (result) *result = ct__own(ct__iter_take_output(it, 0));
  ct__iter_finish(it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

/* An input converted to dt as TensorIterator does it (Tensor.to: same strides when dense, else
   infer_dense_strides); not scope-registered. */
static ct_tensor *staged_input(const ct_tensor *t, ct_dtype dt) {
  int64_t nd = t->ndim;
  int64_t strides[nd + 1];
  ct__preserve_format_strides(t, strides);
  int64_t elems = ct__required_storage_elems(nd, t->sizes, strides, 0);
  ct_storage *st = ct__storage_alloc((size_t)elems * ct__itemsize(dt), ct__tdevice(t));
  if (!st) return NULL;
  ct_tensor *r = ct__tensor_make(st, dt, 0, nd, t->sizes, strides);
  ct_storage_release(st);
  if (r && ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return r;
}

static ct_status pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                        const void *args, ct_tensor **result, bool stage_casts) {
  if (result) *result = NULL;
  for (int i = 0; i < n_in; i++)
    if (!in[i]) return ct__null_status();
  if (!result && !out) return ct__null_status();
  if (inplace && !ct__check_inplace(out)) return CT_ERR_RUNTIME;
  ct_iter_config cfg = ct__iter_config_zero; /* a copy, not an initializer: see ct__iter_config_zero */
  cfg.n_out = 1;
  cfg.n_in = n_in;
  cfg.check_mem_overlap = true;
  cfg.no_resize_outputs = inplace;
  cfg.allow_cpu_scalars = n_in == 2 && !op->no_cpu_scalars; /* torch's binary_op configs */
  cfg.out[0] = out;
  for (int i = 0; i < n_in; i++) cfg.in[i] = in[i];
  configure(op, &cfg, out);
  ct_iter it;
  pw_call call = {op, &it, in, args};
  cfg.validate = validate;
  cfg.validate_arg = &call;
  /* out's shape before the build: a change means the build resized it */
  int64_t out_ndim = out ? out->ndim : 0;
  int64_t out_sizes[out_ndim + 1];
  if (out) memcpy(out_sizes, out->sizes, (size_t)out_ndim * sizeof(int64_t));
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  bool live = !it.is_meta && it.numel > 0;
  bool cast_out = live && out && cfg.cast_to_outputs && cfg.loop_out_dtype == CT_DTYPE_UNSET &&
                  it.loop_dtype[0] != (ct_dtype)out->dtype;
  bool stage = false;
  for (int i = 0; i < n_in; i++) stage |= live && stage_casts && (ct_dtype)in[i]->dtype != it.loop_dtype[1 + i];
  if (!cast_out && !stage) return run_built(op, &it, args, result);
  /* the checks passed (and out= was resized): run again over PyTorch's temporaries */
  ct_dtype loop_dtype[CT_ITER_MAX_OPERANDS];
  memcpy(loop_dtype, it.loop_dtype, sizeof loop_dtype);
  ct__iter_finish(&it);
  ct_tensor *tmp[CT_ITER_MAX_OPERANDS] = {0};
  s = CT_OK;
  if (cast_out) {
    bool resized = out->ndim != out_ndim || memcmp(out->sizes, out_sizes, (size_t)out_ndim * sizeof(int64_t)) != 0;
    tmp[0] = cast_temporary(out, loop_dtype[0], resized);
    if (!tmp[0]) s = CT_ERR_OUT_OF_MEMORY;
    cfg.out[0] = tmp[0];
  }
  for (int i = 0; s == CT_OK && stage && i < n_in; i++) {
    if ((ct_dtype)in[i]->dtype == loop_dtype[1 + i]) continue;
    tmp[1 + i] = staged_input(in[i], loop_dtype[1 + i]);
    if (!tmp[1 + i]) s = CT_ERR_OUT_OF_MEMORY;
    cfg.in[i] = tmp[1 + i];
  }
  if (s == CT_OK) s = ct__iter_build(&it, &cfg);
  if (s == CT_OK) s = run_built(op, &it, args, result);
  if (s == CT_OK && cast_out) s = ct__copy_into(out, tmp[0]);
  for (int k = 0; k <= n_in; k++) ct_release(tmp[k]);
  return s == CT_ERR_OUT_OF_MEMORY && ct_last_error() ? ct_last_error() : s;
}

ct_status ct__pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result) {
  return pw_run(op, out, in, n_in, inplace, args, result, false);
}

ct_status ct__pw_run_staged(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result) {
  return pw_run(op, out, in, n_in, inplace, args, result, true);
}

static void meta_shape_only(char **data, const int64_t *strides, int64_t n, const void *ctx) {
  (void)data, (void)strides, (void)n, (void)ctx; /* never run: the engine runs no loop on meta operands */
}
CT_LOOP_PLAIN(meta_shape_only)
#define META_ENTRY(E, ...) [E] = CT_LOOP_REF(meta_shape_only),
const ct_loop *const ct__pw_meta_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(META_ENTRY)};
const char ct__pw_view_row[1] = {0};

bool ct__pw_refs_broadcast(const ct_tensor *const *in, int n_in, int64_t *nd_out, int64_t *shape) {
  int64_t nd = 0;
  for (int i = 0; i < n_in; i++) nd = in[i]->ndim > nd ? in[i]->ndim : nd;
  int64_t common[nd + 1];
  for (int64_t d = 0; d < nd; d++) common[d] = 1;
  for (int i = 0; i < n_in; i++)
    for (int64_t k = 1; k <= in[i]->ndim; k++) {
      int64_t s = in[i]->sizes[in[i]->ndim - k], *c = &common[nd - k];
      if (*c == 1) *c = s;
      else if (s != 1 && s != *c) {
        ct__error(CT_ERR_RUNTIME, "('Attempting to broadcast a dimension of length ', '%lld', '!')",
                  (long long)s);
        return false;
      }
    }
  if (nd_out) *nd_out = nd;
  if (shape) memcpy(shape, common, (size_t)nd * sizeof(int64_t));
  return true;
}

bool ct__pw_refs_same_device(const ct_tensor *const *ts, int n, ct_device *dev) {
  const ct_tensor *first = NULL;
  *dev = CT_DEVICE_CPU;
  for (int i = 0; i < n; i++) {
    if (ts[i]->ndim == 0 && ts[i]->device_type == CT_CPU) continue;
    if (!first) first = ts[i], *dev = ct__tdevice(first);
    if (ct_device_equal(ct__tdevice(first), ct__tdevice(ts[i]))) continue;
    char a[32], b[32];
    ct_device_str(ct__tdevice(ts[i]), a, sizeof a);
    ct_device_str(ct__tdevice(first), b, sizeof b);
    ct__error(CT_ERR_RUNTIME, "Tensor on device %s is not on the expected device %s!", a, b);
    return false;
  }
  return true;
}

bool ct__pw_ref_operand_device(const ct_tensor *const *in, int n_in, ct_device *dev) {
  (void)n_in;
  *dev = ct__tdevice(in[0]);
  return true;
}

/* A meta stand-in of t (its geometry, dtype and wrapped-number mark, which type promotion reads; no data), owned by
   the current scope; t itself on meta. */
static const ct_tensor *meta_twin(const ct_tensor *t) {
  if (t->device_type == CT_META) return t;
  ct_tensor *m = ct__own(ct__pw_meta_strided(t->ndim, t->sizes, t->strides, (ct_dtype)t->dtype));
  if (m) m->flags |= t->flags & CT_TENSOR_WRAPPED_NUMBER;
  return m;
}

/* The route of an op with ref_device (pw.h) computing on dev: over meta stand-ins of the operands, then on the CPU
   ref_cpu_check in the computation dtype and the result moved to dev, with no values. *r: owned by the current
   scope. */
static ct_status ref_run_on(const ct_pw_op *op, ct_device dev, const ct_tensor *const *in, int n_in,
                            const void *args, ct_tensor **r) {
  const ct_tensor *twin[CT_ITER_MAX_OPERANDS];
  for (int i = 0; i < n_in; i++)
    if (!(twin[i] = meta_twin(in[i]))) return ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  ct_status s = (op->run ? op->run : ct__pw_run)(op, NULL, twin, n_in, false, args, r);
  if (s != CT_OK || dev.type == CT_META) return s;
  ct_dtype dt = (ct_dtype)(*r)->dtype;
  if (op->ref_cpu_check && !op->ref_cpu_check((ct_dtype)ct__dt(dt)->opmath_dtype, in, args))
    return ct_last_error();
  *r = ct__own(ct__pw_strided_on((*r)->ndim, (*r)->sizes, (*r)->strides, dt, dev));
  return *r ? CT_OK : ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
}

ct_status ct__pw_ref_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                         const void *args, ct_tensor **result) {
  if (result) *result = NULL;
  if (!ct__pw_refs_broadcast(in, n_in, NULL, NULL)) return CT_ERR_RUNTIME;
  ct_device dev;
  if (op->ref_same_device && !ct__pw_refs_same_device(in, n_in, &dev)) return CT_ERR_RUNTIME;
  if (op->ref_device && !op->ref_device(in, n_in, &dev)) return CT_ERR_RUNTIME;
  if (ct_scope_begin() != CT_OK) return CT_ERR_OUT_OF_MEMORY;
  ct_tensor *r = NULL, *kept = NULL; /* r: owned by this scope */
  ct_status s = op->ref_device ? ref_run_on(op, dev, in, n_in, args, &r)
                               : (op->run ? op->run : ct__pw_run)(op, NULL, in, n_in, false, args, &r);
  if (s == CT_OK && op->ref_same_device && !ct_device_equal(ct__tdevice(r), ct__tdevice(in[0]))) {
    /* the prim's meta gives its result its first operand's device (a CPU 0-dim one too): no values computed */
    r = ct__own(ct__pw_strided_on(r->ndim, r->sizes, r->strides, (ct_dtype)r->dtype, ct__tdevice(in[0])));
    if (!r) s = ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  }
  if (s == CT_OK && out) s = ct__out_wrapper_copy(out, r);
  if (s == CT_OK && !out && op->ref_strides) {
    int64_t strides[r->ndim + 1];
    op->ref_strides(in, n_in, r, strides);
    kept = ct__pw_meta_strided(r->ndim, r->sizes, strides, (ct_dtype)r->dtype);
    if (!kept) s = ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  } else if (s == CT_OK && !out) {
    kept = op->fn_over_out ? ct__empty(r->ndim, r->sizes, (ct_dtype)r->dtype, ct__tdevice(r)) : ct_retain(r);
    if (!kept) s = ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  }
  ct_scope_end();
  if (result && kept) *result = ct__own(kept);
  return s;
}

ct_tensor *ct__pw_meta_strided(int64_t ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dt) {
  return ct__pw_strided_on(ndim, sizes, strides, dt, CT_DEVICE_META);
}

ct_tensor *ct__pw_strided_on(int64_t ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dt,
                             ct_device device) {
  int64_t elems = ct__required_storage_elems(ndim, sizes, strides, 0);
  ct_storage *st = ct__storage_alloc((size_t)elems * ct__itemsize(dt), device);
  if (!st) return NULL;
  ct_tensor *t = ct__tensor_make(st, dt, 0, ndim, sizes, strides);
  ct_storage_release(st);
  return t;
}

const ct_tensor *ct__pw_ref_converted(const ct_tensor *t, ct_dtype dt) {
  if ((ct_dtype)t->dtype == dt || (t->ndim == 0 && t->device_type == CT_CPU)) return t;
  int64_t strides[t->ndim + 1];
  ct__prims_elementwise_strides(&t, 1, t->ndim, t->sizes, strides);
  return ct__own(ct__pw_meta_strided(t->ndim, t->sizes, strides, dt));
}

ct_status ct__pw_meta_inplace_noop(const ct_tensor *self) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (self->device_type == CT_META) return CT_OK;
  ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot inplace into non-meta tensor with meta tensor argument");
  return CT_ERR_NOT_IMPLEMENTED;
}

bool ct__pw_out_device_ok(ct_pw_dev rule, const ct_tensor *out, const ct_tensor *const *in, int n_in) {
  if (rule == CT_PW_DEV_ITER) return true;
  /* a call that dispatches to meta runs the reference, which computes on its inputs' device first (with that
     device's checks); out_wrapper checks out's device after (ct__out_wrapper_copy) */
  if (rule == CT_PW_DEV_COPY && (out->device_type == CT_META || ct__op_on_meta_n(in, n_in))) return true;
  const ct_tensor *src = in[0]; /* the device the result is computed on: the first input not on the CPU */
  for (int i = 0; i < n_in; i++)
    if (in[i]->device_type != CT_CPU) {
      src = in[i];
      break;
    }
  if (ct_device_equal(ct__tdevice(out), ct__tdevice(src))) return true;
  if (rule == CT_PW_DEV_COPY) return ct__check_copy_devices(out, src);
  if (src->device_type != CT_CPU) { /* torch's CPU out asks its backend for _resize_output_, which it lacks */
    ct__error_no_meta_kernel("aten::_resize_output_");
    return false;
  }
  ct__error(CT_ERR_RUNTIME, "out Tensor doesn't have the correct device set");
  return false;
}
