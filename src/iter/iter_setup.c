/* Building an iteration: broadcast shape, dtypes, overlap checks, output allocation with PyTorch's
   stride propagation (TensorIterator's fast setup, reorder_dimensions and allocate_or_resize_outputs),
   then the loop geometry (dims ordered by stride and coalesced). Every check runs before any output is
   touched, so a failed build changes nothing. */
#include "iter/iter.h"

#include "core/layout_rules.h"
#include "iter/iter_geom.h"

ct_status ct__broadcast_shapes(const int64_t *a, int64_t na, const int64_t *b, int64_t nb, int64_t *out) {
  int64_t n = na > nb ? na : nb;
  for (int64_t i = n - 1; i >= 0; i--) {
    int64_t offset = n - 1 - i;
    int64_t da = na - 1 - offset, db = nb - 1 - offset;
    int64_t sa = da >= 0 ? a[da] : 1, sb = db >= 0 ? b[db] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      ct__error(CT_ERR_RUNTIME,
                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %lld",
                (long long)sa, (long long)sb, (long long)i);
      return CT_ERR_RUNTIME;
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return CT_OK;
}

static bool is_input(const ct_iter_config *cfg, const ct_tensor *t) {
  for (int i = 0; i < cfg->n_in; i++)
    if (cfg->in[i] == t) return true;
  return false;
}

static bool same_geometry(const ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                          int64_t isz) {
  if (t->ndim != ndim || t->offset != offset || (int64_t)ct__itemsize((ct_dtype)t->dtype) != isz) return false;
  for (int64_t i = 0; i < ndim; i++)
    if (t->sizes[i] != sizes[i] || t->strides[i] != strides[i]) return false;
  return true;
}

/* An output about to be resized that shares memory with an input other than element for element (a view
   of it, not the tensor itself, which mark_resize_outputs refuses to resize): PyTorch resizes it and then
   runs the loop over the new geometry, so that some inputs read elements the loop has already written;
   its result depends on its loop order and thread split (add(ones(4, 100000), y, out=y[:]) gives rows
   1, 2, 1, 1 at two threads and 1, 2, 3, 4 at one). ctorch refuses such a call with PyTorch's own message
   for a partial overlap, before anything is resized. Memory shared with the output's geometry exactly
   (neg(x[0], out=x) with x shrinking to x[0]'s shape) is an ordinary in-place loop and goes on. */
static bool check_resized_overlap(const ct_tensor *const *ins, int n_in, const ct_tensor *out, const int64_t *shape,
                                  int64_t nd, const int64_t *st) {
  /* a shape no storage can hold fails torch's resize before any overlap is looked at (erfinv(x, out=z) with
     x = z.expand(2^63 - 2)) */
  uint64_t bytes;
  if (!ct__storage_nbytes(nd, shape, NULL, ct__itemsize((ct_dtype)out->dtype), out->offset, &bytes))
    return false;
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)out->dtype), lo, hi;
  ct__byte_span(nd, shape, st, out->offset, isz, &lo, &hi);
  if (lo == hi) return true;
  for (int i = 0; i < n_in; i++) {
    const ct_tensor *in = ins[i];
    if (in->storage != out->storage || same_geometry(in, nd, shape, st, out->offset, isz)) continue;
    int64_t ilo, ihi;
    ct__byte_span(in->ndim, in->sizes, in->strides, in->offset, (int64_t)ct__itemsize((ct_dtype)in->dtype),
                  &ilo, &ihi);
    if (ilo < ihi && ilo < hi && lo < ihi) {
      ct__error(CT_ERR_RUNTIME,
                "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
                "memory location. Please clone() the tensor before performing the operation.");
      return false;
    }
  }
  return true;
}

bool ct__check_resize_overlap(const ct_tensor *out, int64_t nd, const int64_t *shape, const ct_tensor *const *ins,
                              int n_in) {
  int64_t small[16], *st = nd <= 16 ? small : ct__malloc((size_t)nd * sizeof(int64_t));
  if (!st) return false;
  ct__contiguous_strides(nd, shape, st);
  bool ok = check_resized_overlap(ins, n_in, out, shape, nd, st);
  if (st != small) ct__free(st);
  return ok;
}

static bool same_shape(const ct_tensor *t, const int64_t *shape, int64_t ndim) {
  if (t->ndim != ndim) return false;
  for (int64_t i = 0; i < ndim; i++)
    if (t->sizes[i] != shape[i]) return false;
  return true;
}

/* TensorIterator's overlap checks (MemoryOverlap.cpp): an output may not alias itself, nor partly
   alias an input. */
static bool check_overlaps(const ct_iter_config *cfg) {
  for (int o = 0; o < cfg->n_out; o++) {
    const ct_tensor *out = cfg->out[o];
    if (!out) continue;
    if (!ct__check_no_internal_overlap(out)) return false;
    for (int i = 0; i < cfg->n_in; i++) {
      if (cfg->in[i] != out && !ct__check_no_partial_overlap(out, cfg->in[i])) return false;
    }
  }
  return true;
}

/* The compute dtype and each output's dtype (TensorIterator::compute_types, first pass). The per-operand
   checks (device, safe cast) are check_operands'. */
static bool compute_types(const ct_iter_config *cfg, ct_dtype *common, ct_dtype *out_dtype) {
  ct_dtype c = cfg->compute_dtype;
  if (c == CT_DTYPE_UNSET) {
    if (cfg->promote_inputs) {
      if (ct__result_type(cfg->in, cfg->n_in, &c) != CT_OK) return false;
    } else {
      c = cfg->n_in ? (ct_dtype)cfg->in[0]->dtype : (ct_dtype)cfg->out[0]->dtype;
    }
    if (cfg->promote_int_to_float && ct__dt(c)->category <= CT_CAT_INT) c = ct_get_default_dtype();
  }
  if (cfg->check_all_same_dtype || cfg->check_out_dtype) {
    for (int k = 0; k < (cfg->check_all_same_dtype ? cfg->n_out + cfg->n_in : cfg->n_out); k++) {
      const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
      if (t && (ct_dtype)t->dtype != c) {
        ct__error(CT_ERR_RUNTIME, "Found dtype %s but expected %s", ct__dt((ct_dtype)t->dtype)->scalar_name,
                  ct__dt(c)->scalar_name);
        return false;
      }
    }
  }
  ct_dtype produced = cfg->loop_out_dtype ? cfg->loop_out_dtype : c;
  for (int o = 0; o < cfg->n_out; o++) {
    const ct_tensor *out = cfg->out[o];
    out_dtype[o] = out ? (ct_dtype)out->dtype : cfg->static_out_dtype ? cfg->static_out_dtype : produced;
  }
  *common = c;
  return true;
}

/* TensorIterator::compute_types, second pass: the common device is the first operand's (outputs first)
   that is not on the CPU, else the CPU; then each operand in turn must be on it (with allow_cpu_scalars,
   one CPU 0-dim input may join another device), and a given output must be a safe cast of the common
   dtype. So `ones(2) + empty((), device='meta')` reports "meta and cpu", as PyTorch does. */
static bool check_operands(const ct_iter_config *cfg, ct_iter *it, const ct_dtype *out_dtype) {
  ct_device device = CT_DEVICE_CPU;
  bool found = false;
  int cpu_scalars = 0; /* torch's max_cpu_scalars_on_non_cpu is 1 */
  for (int k = 0; k < cfg->n_out + cfg->n_in; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t) continue;
    if (t->device_type == CT_META) it->is_meta = true;
    if (!found && t->device_type != CT_CPU) {
      device = ct__tdevice(t);
      found = true;
    }
  }
  for (int k = 0; k < cfg->n_out + cfg->n_in; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t) continue;
    bool cpu_scalar = cfg->allow_cpu_scalars && device.type != CT_CPU && k >= cfg->n_out && t->ndim == 0 &&
                      t->device_type == CT_CPU;
    if (cpu_scalar && cpu_scalars++ > 0) {
      ct__error(CT_ERR_RUNTIME, "Trying to pass too many CPU scalars to non-CPU kernel!");
      return false;
    }
    if (!cpu_scalar && !ct_device_equal(device, ct__tdevice(t))) {
      char a[32], b[32];
      ct_device_str(device, a, sizeof a);
      ct_device_str(ct__tdevice(t), b, sizeof b);
      ct__error(CT_ERR_RUNTIME,
                "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", a, b);
      return false;
    }
    if (k < cfg->n_out && cfg->enforce_safe_cast && out_dtype[k] != it->common && !ct_can_cast(it->common, out_dtype[k])) {
      ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s",
                ct__dt(it->common)->scalar_name, ct__dt(out_dtype[k])->scalar_name);
      return false;
    }
  }
  it->device = device;
  return true;
}

/* How TensorIterator sees operand k when laying out outputs: promoted inputs through their converted
   temporaries (empty_like(preserve) strides), cast outputs through a contiguous temporary.
   Writes element strides to el (t->ndim entries) and returns the element size seen. */
static int64_t seen_geometry(const ct_iter_config *cfg, const ct_iter *it, int k, const ct_dtype *out_dtype,
                             int64_t *el) {
  const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
  bool is_out = k < cfg->n_out;
  ct_dtype seen = (ct_dtype)t->dtype;
  ct_dtype want = is_out || !cfg->in_dtype[k - cfg->n_out] ? it->common : cfg->in_dtype[k - cfg->n_out];
  if (!is_out && cfg->promote_inputs && seen != want) {
    seen = want;
    ct__preserve_format_strides(t, el);
  } else if (is_out && cfg->cast_to_outputs && out_dtype[k] != it->common) {
    seen = it->common;
    ct__contiguous_strides(t->ndim, t->sizes, el);
  } else {
    memcpy(el, t->strides, (size_t)t->ndim * sizeof(int64_t));
  }
  return (int64_t)ct__itemsize(seen);
}

typedef enum { FAST_NONE, FAST_CONTIGUOUS, FAST_CHANNELS_LAST, FAST_DENSE } fast_kind;

/* compute_fast_setup_type over the seen geometries; dense_src receives the strides to copy for FAST_DENSE. */
static fast_kind fast_setup_type(const ct_iter_config *cfg, const ct_iter *it, const ct_dtype *out_dtype,
                                 const int64_t *shape, int64_t ndim, int64_t *scratch, int64_t *dense_src) {
  bool contiguous = true, channels_last = true, dense = true, any = false;
  for (int k = 0; k < it->n_ops; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t) continue;
    if (!same_shape(t, shape, ndim)) {
      if (k < cfg->n_out) continue; /* will be resized: not part of the decision */
      return FAST_NONE;             /* inputs of different shapes broadcast */
    }
    seen_geometry(cfg, it, k, out_dtype, scratch);
    contiguous &= ct__geom_is_contiguous(ndim, shape, scratch);
    /* TensorIterator checks MemoryFormat::ChannelsLast only: never true for 5-D tensors */
    channels_last &= ndim == 4 && ct__geom_is_channels_last(ndim, shape, scratch);
    dense &= ct__geom_non_overlapping_dense(ndim, shape, scratch);
    any = true;
  }
  if (!any) return FAST_NONE;
  if (contiguous) return FAST_CONTIGUOUS;
  if (channels_last) return FAST_CHANNELS_LAST;
  if (!dense) return FAST_NONE;
  bool have = false;
  for (int k = it->n_ops - 1; k >= 0; k--) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t || !same_shape(t, shape, ndim)) continue;
    seen_geometry(cfg, it, k, out_dtype, scratch);
    if (!have) {
      memcpy(dense_src, scratch, (size_t)ndim * sizeof(int64_t));
      have = true;
    } else if (memcmp(dense_src, scratch, (size_t)ndim * sizeof(int64_t)) != 0) {
      return FAST_NONE;
    }
  }
  return FAST_DENSE;
}

/* Element strides for new/resized outputs (allocate_or_resize_outputs). Returns false for "plain
   contiguous" (PyTorch then allocates with at::empty). */
static bool output_strides(const ct_iter_config *cfg, const ct_iter *it, const ct_dtype *out_dtype,
                           const int64_t *shape, int64_t ndim, int64_t *work, int64_t *out_strides) {
  int64_t *scratch = work, *dense_src = work + ndim, *perm = work + 2 * ndim, *bytes = work + 3 * ndim;
  fast_kind fk = fast_setup_type(cfg, it, out_dtype, shape, ndim, scratch, dense_src);
  if (fk == FAST_CONTIGUOUS) return false;
  if (fk == FAST_CHANNELS_LAST) {
    ct__format_strides_for(ndim, shape, CT_CHANNELS_LAST, out_strides);
    return true;
  }
  if (fk == FAST_DENSE) {
    memcpy(out_strides, dense_src, (size_t)ndim * sizeof(int64_t));
    return true;
  }
  /* compute_strides + reorder_dimensions over the seen byte strides */
  int64_t *rows[CT_ITER_MAX_OPERANDS] = {0};
  for (int k = 0; k < it->n_ops; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t || (k < cfg->n_out && !same_shape(t, shape, ndim))) continue;
    rows[k] = bytes + (size_t)k * (size_t)ndim;
    int64_t isz = seen_geometry(cfg, it, k, out_dtype, scratch);
    ct__geom_broadcast_bytes(t, scratch, isz, shape, ndim, rows[k]);
  }
  ct__reorder_dims(rows, it->n_ops, 0, shape, ndim, perm);
  bool inverted = true;
  for (int64_t j = 0; j < ndim; j++) inverted &= perm[j] == ndim - 1 - j;
  if (inverted) return false;
  /* compatible_stride in permuted order (note: no max(size, 1), as in PyTorch), then inverted */
  uint64_t next = 1; /* wraps where torch's int64 product does (huge sizes beside a zero) */
  for (int64_t j = 0; j < ndim; j++) {
    out_strides[perm[j]] = (int64_t)next;
    next *= (uint64_t)shape[perm[j]];
  }
  return true;
}

/* Allocates missing outputs and resizes given ones of the wrong shape. Allocation happens first, resizing
   last, so a failure leaves given outputs untouched. */
static ct_status place_outputs(const ct_iter_config *cfg, ct_iter *it, const ct_dtype *out_dtype, const int64_t *shape,
                               int64_t ndim, int64_t *work) {
  int64_t *st = work + 3 * ndim + (size_t)it->n_ops * (size_t)ndim;
  bool strided = false, decided = false;
  for (int o = 0; o < cfg->n_out; o++) {
    if (cfg->out[o] && same_shape(cfg->out[o], shape, ndim)) {
      it->ops[o] = ct_retain(cfg->out[o]);
      continue;
    }
    if (!decided) {
      strided = output_strides(cfg, it, out_dtype, shape, ndim, work, st);
      if (!strided) ct__contiguous_strides(ndim, shape, st);
      decided = true;
    }
    if (!cfg->out[o]) {
      ct_tensor *t = ct__empty(ndim, shape, out_dtype[o], it->device);
      if (!t) return CT_ERR_OUT_OF_MEMORY;
      memcpy(t->strides, st, (size_t)ndim * sizeof(int64_t));
      it->ops[o] = t;
      it->allocated[o] = true;
    }
  }
  for (int o = 0; o < cfg->n_out; o++)
    if (!it->ops[o] && !check_resized_overlap(cfg->in, cfg->n_in, cfg->out[o], shape, ndim, st)) return CT_ERR_RUNTIME;
  for (int o = 0; o < cfg->n_out; o++) {
    if (it->ops[o]) continue;
    ct_status s = ct__tensor_resize(cfg->out[o], ndim, shape, st);
    if (s != CT_OK) return s;
    it->ops[o] = ct_retain(cfg->out[o]);
  }
  return CT_OK;
}

/* The loop geometry (iter_geom.h): every operand's real byte strides, dims ordered by reorder_dimensions
   over them, then coalesced. */
static void loop_geometry(ct_iter *it, const int64_t *shape, int64_t ndim, int64_t *work) {
  ct_geom g = {ndim, it->n_ops, it->shape, {0}};
  memcpy(it->shape, shape, (size_t)ndim * sizeof(int64_t));
  for (int k = 0; k < it->n_ops; k++) {
    g.rows[k] = it->strides + (size_t)k * (size_t)ndim;
    const ct_tensor *t = it->ops[k];
    ct__geom_broadcast_bytes(t, NULL, (int64_t)ct__itemsize((ct_dtype)t->dtype), shape, ndim, g.rows[k]);
  }
  int64_t new_nd = ct__geom_arrange(&g, 0, 0, work, work + ndim);
  /* compact the operand rows to the new rank */
  for (int k = 1; k < it->n_ops; k++)
    memmove(it->strides + (size_t)k * (size_t)new_nd, g.rows[k], (size_t)new_nd * sizeof(int64_t));
  it->ndim = new_nd;
  /* TensorIterator's fast setup: operands that all have the iteration's shape and are contiguous are
     iterated as one row of element-size strides. A single element is contiguous whatever its strides,
     so a one-element row gets those strides too (kernels whose vectorized path differs see it). */
  bool same = it->numel == 1 && new_nd == 1;
  for (int k = it->n_out; same && k < it->n_ops; k++) same = same_shape(it->ops[k], shape, ndim);
  if (same)
    for (int k = 0; k < it->n_ops; k++) it->strides[k] = (int64_t)ct__itemsize((ct_dtype)it->ops[k]->dtype);
}

/* Step 2 of a build: the compute dtype, each operand's dtype in the loop, devices, the op's own checks. */
static bool settle_types(const ct_iter_config *cfg, ct_iter *it, ct_dtype *out_dtype) {
  if (!compute_types(cfg, &it->common, out_dtype) || !check_operands(cfg, it, out_dtype)) return false;
  if (cfg->validate && !cfg->validate(it->common, cfg->validate_arg)) return false;
  for (int o = 0; o < cfg->n_out; o++) it->loop_dtype[o] = cfg->loop_out_dtype ? cfg->loop_out_dtype : it->common;
  for (int i = 0; i < cfg->n_in; i++) {
    it->loop_dtype[cfg->n_out + i] = cfg->in_dtype[i] ? cfg->in_dtype[i] : it->common;
    it->ops[cfg->n_out + i] = (ct_tensor *)cfg->in[i];
  }
  return true;
}

/* The common case of small calls: every input has one shape and is contiguous, and each given output
   has that shape and is contiguous too. Each step of the general build then has a known answer
   (TensorIterator's fast setup): no broadcasting, no resize, new outputs contiguous, and the geometry
   coalesces to one row of element strides (none for 0-dim operands). */
static bool is_simple(const ct_iter_config *cfg) {
  const ct_tensor *t0 = cfg->n_in ? cfg->in[0] : cfg->out[0];
  if (!t0) return false;
  for (int k = 0; k < cfg->n_out + cfg->n_in; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (!t) continue;
    if (t != t0 && !same_shape(t, t0->sizes, t0->ndim)) return false;
    if (!ct__geom_is_contiguous(t->ndim, t->sizes, t->strides)) return false;
  }
  return true;
}

static ct_status build_simple(ct_iter *it, const ct_iter_config *cfg) {
  const ct_tensor *t0 = cfg->n_in ? cfg->in[0] : cfg->out[0];
  it->shape = it->inline_buf;
  it->strides = it->inline_buf + 1;
  it->numel = t0->numel;
  ct_dtype out_dtype[CT_ITER_MAX_OPERANDS];
  if ((cfg->check_mem_overlap && !check_overlaps(cfg)) || !settle_types(cfg, it, out_dtype)) goto fail;
  for (int o = 0; o < cfg->n_out; o++) {
    it->ops[o] = cfg->out[o] ? ct_retain(cfg->out[o]) : ct__empty(t0->ndim, t0->sizes, out_dtype[o], it->device);
    if (!it->ops[o]) goto fail;
    it->allocated[o] = !cfg->out[o];
  }
  it->ndim = t0->ndim ? 1 : 0;
  it->shape[0] = it->numel;
  for (int k = 0; k < it->n_ops; k++) it->strides[k] = (int64_t)ct__itemsize((ct_dtype)it->ops[k]->dtype);
  return CT_OK;
fail:
  for (int o = 0; o < cfg->n_out; o++) {
    ct_release(it->ops[o]);
    it->ops[o] = NULL;
  }
  return ct__null_status();
}

/* Copied over an iterator's fields to clear them: GCC compiles a memset of this size to rep stos, whose
   start-up costs a small op more than all its other setup; a copy becomes a few vector moves. */
static const ct_iter zero_iter;
const ct_iter_config ct__iter_config_zero;

ct_status ct__iter_build(ct_iter *it, const ct_iter_config *cfg) {
  memcpy(it, &zero_iter, offsetof(ct_iter, inline_buf));
  it->n_out = cfg->n_out;
  it->n_ops = cfg->n_out + cfg->n_in;
  for (int i = 0; i < cfg->n_in; i++)
    if (!cfg->in[i]) return ct__null_status();
  /* every in-place op reaches here: autograd's rule for its target */
  if (cfg->no_resize_outputs)
    for (int o = 0; o < cfg->n_out; o++)
      if (cfg->out[o] && !ct__check_inplace(cfg->out[o])) return CT_ERR_RUNTIME;
  /* operands whose storage shrank under them (a flag test each); operands with math bits */
  unsigned bits = 0;
  for (int k = 0; k < it->n_ops; k++) {
    const ct_tensor *t = k < cfg->n_out ? cfg->out[k] : cfg->in[k - cfg->n_out];
    if (t && !ct__check_in_storage(t)) return CT_ERR_RUNTIME;
    if (t) bits |= ct__math_bits(t);
  }
  if (CT_UNLIKELY(bits != 0)) return ct__iter_build_resolved(it, cfg);

  if (is_simple(cfg)) return build_simple(it, cfg);

  int64_t ndim = 0;
  for (int i = 0; i < cfg->n_in; i++) ndim = cfg->in[i]->ndim > ndim ? cfg->in[i]->ndim : ndim;
  if (cfg->n_in == 0) ndim = cfg->out[0]->ndim; /* nullary ops iterate over their output */
  /* room: shape, loop shape, loop strides, and a work area for layout decisions */
  size_t per = (size_t)ndim;
  size_t need = per * (2 + (size_t)it->n_ops) + per * (5 + 2 * (size_t)it->n_ops);
  int64_t *buf = it->inline_buf;
  if (need > sizeof it->inline_buf / sizeof(int64_t)) {
    buf = it->heap = ct__malloc(need * sizeof(int64_t));
    if (!buf) return CT_ERR_OUT_OF_MEMORY;
  }
  int64_t *shape = buf;
  it->shape = buf + per;
  it->strides = buf + 2 * per;
  int64_t *work = buf + per * (2 + (size_t)it->n_ops);

  /* 0. overlap checks come first, as in TensorIterator (compute_mem_overlaps before shapes and dtypes) */
  if (cfg->check_mem_overlap && !check_overlaps(cfg)) goto fail;

  /* 1. broadcast shape of the inputs; outputs are resized to it unless the op forbids */
  int64_t nd = 0;
  for (int i = 0; i < cfg->n_in; i++) {
    const ct_tensor *t = cfg->in[i];
    if (ct__broadcast_shapes(shape, nd, t->sizes, t->ndim, work) != CT_OK) goto fail;
    nd = nd > t->ndim ? nd : t->ndim;
    memcpy(shape, work, (size_t)nd * sizeof(int64_t));
  }
  if (cfg->n_in == 0) {
    nd = ndim;
    memcpy(shape, cfg->out[0]->sizes, (size_t)nd * sizeof(int64_t));
  }
  /* TensorIterator::mark_resize_outputs: an output that is also one of the inputs (the same tensor, its
     is_read_write) is never resized, as resizing would change the input under the loop */
  for (int o = 0; o < cfg->n_out; o++) {
    const ct_tensor *t = cfg->out[o];
    if (t && (cfg->no_resize_outputs || is_input(cfg, t)) && !same_shape(t, shape, nd)) {
      char a[256], b[256];
      ct__fmt_int_list(a, sizeof a, t->ndim, t->sizes);
      ct__fmt_int_list(b, sizeof b, nd, shape);
      ct__error(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", a, b);
      goto fail;
    }
  }
  uint64_t numel = 1;
  bool too_big = false;
  for (int64_t d = 0; d < nd; d++) too_big |= __builtin_mul_overflow(numel, (uint64_t)shape[d], &numel);
  too_big |= numel > (uint64_t)INT64_MAX;
  it->numel = (int64_t)numel;

  /* 2. dtypes, devices */
  ct_dtype out_dtype[CT_ITER_MAX_OPERANDS];
  if (!settle_types(cfg, it, out_dtype)) goto fail;
  if (too_big) { /* inputs expanded to a broadcast shape no output can hold: torch fails allocating it */
    char a[256];
    ct__fmt_int_list(a, sizeof a, nd, shape);
    ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s", a);
    goto fail;
  }

  /* 3. outputs, then the loop geometry */
  if (place_outputs(cfg, it, out_dtype, shape, nd, work) != CT_OK) goto fail;
  loop_geometry(it, shape, nd, work);
  return CT_OK;
fail:
  for (int o = 0; o < cfg->n_out; o++) {
    ct_release(it->ops[o]);
    it->ops[o] = NULL;
  }
  ct__free(it->heap);
  it->heap = NULL;
  return ct__null_status();
}

ct_tensor *ct__iter_take_output(ct_iter *it, int i) {
  if (CT_UNLIKELY(it->bits != NULL)) {
    ct_tensor *given = ct__iter_bits_take(it, i);
    if (given) return given;
  }
  ct_tensor *t = it->ops[i];
  it->ops[i] = NULL;
  return t;
}

void ct__iter_finish(ct_iter *it) {
  if (CT_UNLIKELY(it->bits != NULL)) ct__iter_bits_finish(it);
  for (int o = 0; o < it->n_out; o++) {
    ct_release(it->ops[o]);
    it->ops[o] = NULL;
  }
  ct__free(it->heap);
  it->heap = NULL;
}
