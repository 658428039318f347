/* torch.cat and everything that is a cat underneath: concat, concatenate, stack, hstack, vstack (row_stack),
   dstack, column_stack, and atleast_1d/2d/3d, which the stacks apply first (torch 1.13's TensorShape.cpp).
   cat checks as its meta function does, in its order, then copies each input into its narrow of the
   result through the copy engine (any dtype pair: torch 1.13 promotes). */
#include "core/parallel.h"
#include "iter/iter.h"
#include "kernels/cpu/stream_copy.h"
#include "ops/join/join_internal.h"

/* .name is what autograd's out= refusal names: the ATen op that runs (cat, for every alias and stack that is
   a cat underneath) */
static const ct_op cat_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op concat_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op concatenate_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op stack_op = CT_JOIN_OP("stack", "aten::stack");
static const ct_op hstack_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op vstack_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op dstack_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_op column_stack_op = CT_JOIN_OP("cat", "aten::cat");
static const ct_view_op atleast_op = {CT_VIEW_OP("atleast_1d", "aten::atleast_1d", 0)};

/* cat_should_skip_tensor: the legacy 1-D empty tensor, which cat ignores. */
static bool skipped(const ct_tensor *t) { return t->ndim == 1 && t->sizes[0] == 0; }

/* cat_compute_output_memory_format: the inputs' common suggested format, else contiguous. */
static ct_memory_format output_format(ct_tensors ts) {
  ct_memory_format f = CT_CONTIGUOUS_FORMAT;
  for (int64_t i = 0; i < ts.n; i++) {
    ct_memory_format g = ct__suggest_memory_format(ts.data[i]);
    if (g == CT_CONTIGUOUS_FORMAT || (i > 0 && g != f)) return CT_CONTIGUOUS_FORMAT;
    f = g;
  }
  return f;
}

/* check_cat_shape_except_dim. */
static bool same_shape_except(const ct_tensor *ref, const ct_tensor *t, int64_t dim, int64_t index) {
  if (ref->ndim != t->ndim) {
    ct__error(CT_ERR_RUNTIME, "Tensors must have same number of dimensions: got %d and %d", (int)ref->ndim,
              (int)t->ndim);
    return false;
  }
  for (int64_t d = 0; d < ref->ndim; d++) {
    if (d != dim && ref->sizes[d] != t->sizes[d]) {
      ct__error(CT_ERR_RUNTIME,
                "Sizes of tensors must match except in dimension %lld. Expected size %lld but got size %lld for "
                "tensor number %lld in the list.",
                (long long)dim, (long long)ref->sizes[d], (long long)t->sizes[d], (long long)index);
      return false;
    }
  }
  return true;
}

static bool overlap_ok(const ct_tensor *out, ct_tensors ts);

/* assert_no_internal_overlap(out) and assert_no_overlap(out, input) for every input, on out as it will be
   after resize_output to sizes (contiguous when its shape changes). */
static bool out_overlap_ok(const ct_tensor *out_now, int64_t nd, const int64_t *sizes, ct_tensors ts) {
  ct_tensor *probe = NULL;
  if (out_now->ndim != nd || memcmp(out_now->sizes, sizes, (size_t)nd * sizeof(int64_t)) != 0) {
    int64_t st[CT_JOIN_MAXDIM];
    ct__contiguous_strides(nd, sizes, st);
    if (!(probe = ct__view(out_now, nd, sizes, st, out_now->offset))) return false;
  }
  bool ok = overlap_ok(probe ? probe : out_now, ts);
  ct_release(probe);
  return ok;
}

static bool overlap_ok(const ct_tensor *out, ct_tensors ts) {
  if (!ct__check_no_internal_overlap(out)) return false;
  for (int64_t i = 0; i < ts.n; i++) {
    const ct_tensor *t = ts.data[i];
    bool same = t->storage == out->storage && t->offset == out->offset && t->ndim == out->ndim &&
                memcmp(t->sizes, out->sizes, (size_t)t->ndim * sizeof(int64_t)) == 0 &&
                memcmp(t->strides, out->strides, (size_t)t->ndim * sizeof(int64_t)) == 0 && t->numel > 0;
    if (same || ct__partial_overlap(out, t)) {
      ct__error(CT_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to tensor "
                                "refer to a single memory location. Please clone() the tensor before performing the "
                                "operation.");
      return false;
    }
  }
  return true;
}

/* ---- the contiguous fast path: torch's memcpy cat (cat_serial_kernel / the parallel copy of contiguous
   same-dtype inputs), cut into chunks of at most CAT_CHUNK bytes shared out over the pool. A result larger
   than the last-level cache is written with non-temporal stores (ct__stream_copy): it cannot stay cached
   for its reader, and plain stores would read each of its lines from memory first (8 x 2M float32: 64 MiB
   read and 64 written instead of 128 read and 64 written) ---- */

#define CAT_CHUNK ((int64_t)1 << 18)

typedef struct {
  char *dst;
  const ct_tensor *const *in; /* the inputs (skipped ones have blk 0) */
  const int64_t *blk;         /* bytes input k adds to each outer row */
  const int64_t *at;          /* where in a result row input k's block starts */
  const int64_t *subs;        /* chunks per block of input k */
  int64_t n, row, subs_per_row;
  bool stream;
} cat_fast;

static void cat_fast_chunk(void *ctx, int64_t i, int tid) {
  (void)tid;
  const cat_fast *c = ctx;
  int64_t o = i / c->subs_per_row, r = i % c->subs_per_row, k = 0;
  while (r >= c->subs[k]) r -= c->subs[k++];
  int64_t from = r * CAT_CHUNK, len = c->blk[k] - from < CAT_CHUNK ? c->blk[k] - from : CAT_CHUNK;
  char *dst = c->dst + o * c->row + c->at[k] + from;
  const char *src = ct__tdata(c->in[k]) + o * c->blk[k] + from;
  if (c->stream) ct__stream_copy(dst, src, (size_t)len);
  else memcpy(dst, src, (size_t)len);
}

/* Copies the inputs into r with memcpy when every one is a contiguous CPU tensor of r's dtype without math
   bits and r is contiguous; false (nothing done) otherwise. */
static bool cat_contiguous(ct_tensor *r, ct_tensors ts, int64_t dim) {
  if (r->device_type != CT_CPU || ct__math_bits(r) || !ct__geom_is_contiguous(r->ndim, r->sizes, r->strides) ||
      ts.n > 4096)
    return false;
  int64_t blk[4096], at[4096], subs[4096], item = (int64_t)ct__itemsize((ct_dtype)r->dtype), inner = item, outer = 1;
  for (int64_t d = dim + 1; d < r->ndim; d++) inner *= r->sizes[d];
  for (int64_t d = 0; d < dim; d++) outer *= r->sizes[d];
  int64_t row = 0, per_row = 0;
  for (int64_t k = 0; k < ts.n; k++) {
    const ct_tensor *t = ts.data[k];
    bool skip = skipped(t);
    if (!skip && (t->dtype != r->dtype || t->device_type != CT_CPU || ct__math_bits(t) ||
                  !ct__geom_is_contiguous(t->ndim, t->sizes, t->strides)))
      return false;
    blk[k] = skip ? 0 : inner * t->sizes[dim];
    at[k] = row;
    subs[k] = (blk[k] + CAT_CHUNK - 1) / CAT_CHUNK;
    row += blk[k];
    per_row += subs[k];
  }
  if (per_row == 0 || outer == 0) return true;
  bool stream = outer * row > ct__iter_stream_threshold();
  cat_fast c = {ct__tdata(r), ts.data, blk, at, subs, ts.n, row, per_row, stream};
  ct__parallel_chunks(outer * per_row, ct__parallel_threads(r->numel), cat_fast_chunk, &c);
  return true;
}

ct_status ct__cat_impl(ct_tensor *out, ct_tensors ts, int64_t dim, ct_tensor **result) {
  if (ts.n == 0) return (ct__error(CT_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors"), CT_ERR_RUNTIME);
  for (int64_t i = 0; i < ts.n; i++)
    if (ts.data[i]->ndim == 0) {
      ct__error(CT_ERR_RUNTIME, "zero-dimensional tensor (at position %lld) cannot be concatenated", (long long)i);
      return CT_ERR_RUNTIME;
    }
  int64_t valid = -1;
  for (int64_t i = 0; i < ts.n && valid < 0; i++)
    if (!skipped(ts.data[i])) valid = i;
  if (valid >= 0 && (dim = ct__wrap_dim(dim, ts.data[valid]->ndim)) < 0) return ct_last_error();
  ct_memory_format fmt = output_format(ts);
  ct_dtype dt;
  ct_status s = ct__result_type(ts.data, ts.n, &dt);
  if (s != CT_OK) return s;
  if (out && !ct_can_cast(dt, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "torch.cat(): input types can't be cast to the desired output type %s",
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  const ct_tensor *ref = ts.data[valid >= 0 ? valid : 0];
  if (!ct__join_rank_ok(ref->ndim)) return ct_last_error();
  int64_t sizes[CT_JOIN_MAXDIM] = {0}, nd = 1;
  bool meta = false;
  for (int64_t i = 0; i < ts.n; i++) meta |= ts.data[i]->device_type == CT_META;
  if (valid >= 0) {
    int64_t at_dim = 0;
    for (int64_t i = 0; i < ts.n; i++) {
      if (skipped(ts.data[i])) continue;
      if (!same_shape_except(ref, ts.data[i], dim, i)) return ct_last_error();
      at_dim += ts.data[i]->sizes[dim];
    }
    nd = ref->ndim;
    memcpy(sizes, ref->sizes, (size_t)nd * sizeof(int64_t));
    sizes[dim] = at_dim;
  } else {
    dim = 0;
  }
  ct_tensor *r = out;
  if (out) {
    if (!ct__join_out_device_ok(out, ref) || !ct__tensor_resize_ok(out, nd, sizes) || !out_overlap_ok(out, nd, sizes, ts))
      return ct_last_error();
    /* resize_out: resized in the inputs' memory format (empty_tensor_restride), else kept as it is */
    if (out->ndim != nd || memcmp(out->sizes, sizes, (size_t)nd * sizeof(int64_t)) != 0) {
      int64_t st[CT_JOIN_MAXDIM];
      ct__format_strides_for(nd, sizes, fmt, st);
      if ((s = ct__tensor_resize(out, nd, sizes, st)) != CT_OK) return s;
    }
  } else {
    ct_device dev = ct__tdevice(ref);
    if (meta) dev = (ct_device){CT_META, 0};
    ct_resolved_opts o = {dt, dev, fmt, false};
    r = ct__empty_with((ct_shape){sizes, nd}, &o);
    if (!r) return ct_last_error();
  }
  int64_t at = 0;
  bool done = r->numel == 0 || cat_contiguous(r, ts, dim);
  for (int64_t i = 0; !done && i < ts.n && s == CT_OK; i++) {
    const ct_tensor *t = ts.data[i];
    if (skipped(t)) continue;
    int64_t len = t->sizes[dim];
    if (len > 0 && r->numel > 0) {
      ct_tensor *piece = ct__narrow_impl(r, dim, at, len);
      s = piece ? ct__copy_into(piece, t) : ct_last_error();
      ct_release(piece);
    }
    at += len;
  }
  if (s != CT_OK) {
    if (!out) ct_release(r);
    return s;
  }
  if (result) *result = r;
  return CT_OK;
}

/* ---- the public cat forms ---- */

static ct_tensor *cat_entry(const ct_op *op, ct_tensors ts, int64_t dim) {
  if (!ct__join_list_ok(op, NULL, ts)) return NULL;
  ct_tensor *r = NULL;
  if (ct__cat_impl(NULL, ts, dim, &r) != CT_OK) return NULL;
  ct__join_mark(r, ts);
  return ct__own(r);
}
static ct_status cat_out_entry(const ct_op *op, ct_tensor *out, ct_tensors ts, int64_t dim) {
  CT__NONNULL_STATUS(out);
  if (!ct__join_list_ok(op, out, ts)) return ct_last_error();
  if (!ct__join_out_grad_ok(op, out, ts)) return CT_ERR_RUNTIME;
  return ct__cat_impl(out, ts, dim, NULL);
}

ct_tensor *ct_cat(ct_tensors tensors, int64_t dim) { return cat_entry(&cat_op, tensors, dim); }
ct_status ct_cat_out(ct_tensor *out, ct_tensors tensors, int64_t dim) {
  return cat_out_entry(&cat_op, out, tensors, dim);
}
ct_tensor *ct_concat(ct_tensors tensors, int64_t dim) { return cat_entry(&concat_op, tensors, dim); }
ct_status ct_concat_out(ct_tensor *out, ct_tensors tensors, int64_t dim) {
  return cat_out_entry(&concat_op, out, tensors, dim);
}
ct_tensor *ct_concatenate(ct_tensors tensors, int64_t axis) { return cat_entry(&concatenate_op, tensors, axis); }
ct_status ct_concatenate_out(ct_tensor *out, ct_tensors tensors, int64_t axis) {
  return cat_out_entry(&concatenate_op, out, tensors, axis);
}

/* ---- atleast_1d/2d/3d ---- */

ct_tensor *ct__atleast_impl(const ct_tensor *t, int n) {
  int64_t ones[3] = {1, 1, 1};
  if (t->ndim >= n) return ct__same(t);
  if (t->ndim == 0) return ct__reshape_impl(t, (ct_shape){ones, n});
  if (n == 2 || (n == 3 && t->ndim == 1)) {
    ct_tensor *u = ct__unsqueeze_impl(t, 0);
    if (n == 2 || !u) return u;
    ct_tensor *v = ct__unsqueeze_impl(u, -1);
    ct_release(u);
    return v;
  }
  return ct__unsqueeze_impl(t, -1); /* 3d of a 2-D tensor */
}

static ct_tensor *atleast_entry(const ct_tensor *t, int n) {
  CT__VIEW_ENTER_PTR(&atleast_op, t, t);
  return ct__own(ct__atleast_impl(t, n));
}
ct_tensor *ct_atleast_1d(const ct_tensor *t) { return atleast_entry(t, 1); }
ct_tensor *ct_atleast_2d(const ct_tensor *t) { return atleast_entry(t, 2); }
ct_tensor *ct_atleast_3d(const ct_tensor *t) { return atleast_entry(t, 3); }

/* The list of atleast_Nd of each input (unowned list and items). */
static ct_tensor_list *atleast_list(ct_tensors ts, int n) {
  ct_tensor_list *l = ct__list_alloc(ts.n);
  if (!l) return NULL;
  for (int64_t i = 0; i < ts.n; i++)
    if (!(l->items[i] = ct__atleast_impl(ts.data[i], n))) {
      ct__list_destroy(l);
      return NULL;
    }
  return l;
}
static ct_tensor_list *atleast_list_entry(ct_tensors ts, int n) {
  if (!ct__join_list_ok(&atleast_op.op, NULL, ts)) return NULL;
  return ct__own_list(atleast_list(ts, n));
}
ct_tensor_list *ct_atleast_1d_list(ct_tensors tensors) { return atleast_list_entry(tensors, 1); }
ct_tensor_list *ct_atleast_2d_list(ct_tensors tensors) { return atleast_list_entry(tensors, 2); }
ct_tensor_list *ct_atleast_3d_list(ct_tensors tensors) { return atleast_list_entry(tensors, 3); }

/* ---- stack ---- */

static bool stack_inputs_ok(ct_tensors ts) {
  const ct_tensor *a = ts.data[0];
  for (int64_t i = 1; i < ts.n; i++) {
    const ct_tensor *b = ts.data[i];
    if (a->ndim != b->ndim || memcmp(a->sizes, b->sizes, (size_t)a->ndim * sizeof(int64_t)) != 0) {
      char sa[512], sb[512];
      ct__fmt_int_list(sa, sizeof sa, a->ndim, a->sizes);
      ct__fmt_int_list(sb, sizeof sb, b->ndim, b->sizes);
      ct__error(CT_ERR_RUNTIME, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %lld",
                sa, sb, (long long)i);
      return false;
    }
  }
  return true;
}

/* get_stack_inputs: each input unsqueezed at dim, then cat (out or a new result). */
static ct_status stack_by_unsqueeze(ct_tensor *out, ct_tensors ts, int64_t dim, ct_tensor **result) {
  ct_tensor **u = ct__malloc((size_t)ts.n * sizeof *u);
  if (!u) return CT_ERR_OUT_OF_MEMORY;
  ct_status s = CT_OK;
  int64_t k = 0;
  for (; k < ts.n && s == CT_OK; k++)
    if (!(u[k] = ct__unsqueeze_impl(ts.data[k], dim))) s = ct_last_error();
  if (s == CT_OK) s = ct__cat_impl(out, (ct_tensors){(const ct_tensor *const *)u, ts.n}, dim, result);
  for (int64_t i = 0; i < k; i++) ct_release(u[i]);
  ct__free(u);
  return s;
}

ct_status ct__stack_impl(ct_tensor *out, ct_tensors ts, int64_t dim, ct_tensor **result) {
  if (ts.n == 0) return (ct__error(CT_ERR_RUNTIME, "stack expects a non-empty TensorList"), CT_ERR_RUNTIME);
  const ct_tensor *t0 = ts.data[0];
  int64_t wd = ct__wrap_dim(dim, t0->ndim + 1);
  if (wd < 0) return ct_last_error();
  if (!ct__join_rank_ok(t0->ndim + 1)) return ct_last_error();
  if (!stack_inputs_ok(ts)) return ct_last_error();
  if (wd >= t0->ndim) return stack_by_unsqueeze(out, ts, dim, result);
  int64_t rs[CT_JOIN_MAXDIM], cs[CT_JOIN_MAXDIM];
  for (int64_t d = 0, k = 0; d <= t0->ndim; d++) rs[d] = d == wd ? ts.n : t0->sizes[k++];
  memcpy(cs, t0->sizes, (size_t)t0->ndim * sizeof(int64_t));
  cs[wd] *= ts.n;
  if (!out) {
    /* at::cat(tensors, dim).view(result_sizes) */
    ct_tensor *c = NULL;
    ct_status s = ct__cat_impl(NULL, ts, wd, &c);
    if (s != CT_OK) return s;
    *result = ct__view_impl(c, (ct_shape){rs, t0->ndim + 1});
    ct_release(c);
    return *result ? CT_OK : ct_last_error();
  }
  /* stack_out's fast path: cat into a view of out when out (resized) can be viewed with cat's sizes */
  int64_t st[CT_JOIN_MAXDIM];
  bool same = out->ndim == t0->ndim + 1 && memcmp(out->sizes, rs, (size_t)out->ndim * sizeof(int64_t)) == 0;
  if (!same) ct__contiguous_strides(t0->ndim + 1, rs, st);
  else memcpy(st, out->strides, (size_t)out->ndim * sizeof(int64_t));
  ct_tensor *shape_probe = ct__view(out, t0->ndim + 1, rs, st, out->offset);
  if (!shape_probe) return ct_last_error();
  int64_t vst[CT_JOIN_MAXDIM];
  bool viewable = ct__compute_view_strides(shape_probe, t0->ndim, cs, vst);
  ct_release(shape_probe);
  if (!viewable) return stack_by_unsqueeze(out, ts, dim, result);
  ct_dtype dt;
  ct_status s = ct__result_type(ts.data, ts.n, &dt);
  if (s != CT_OK) return s;
  if (!ct_can_cast(dt, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "torch.cat(): input types can't be cast to the desired output type %s",
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (!ct__join_out_device_ok(out, t0) || !ct__tensor_resize_ok(out, t0->ndim + 1, rs) ||
      !out_overlap_ok(out, t0->ndim + 1, rs, ts))
    return ct_last_error();
  if ((s = ct__join_fit_out(out, t0->ndim + 1, rs)) != CT_OK) return s;
  ct_tensor *v = ct__view(out, t0->ndim, cs, vst, out->offset);
  if (!v) return ct_last_error();
  s = ct__cat_impl(v, ts, wd, NULL);
  ct_release(v);
  return s;
}

ct_tensor *ct_stack(ct_tensors tensors, int64_t dim) {
  if (!ct__join_list_ok(&stack_op, NULL, tensors)) return NULL;
  ct_tensor *r = NULL;
  if (ct__stack_impl(NULL, tensors, dim, &r) != CT_OK) return NULL;
  ct__join_mark(r, tensors);
  return ct__own(r);
}
ct_status ct_stack_out(ct_tensor *out, ct_tensors tensors, int64_t dim) {
  CT__NONNULL_STATUS(out);
  if (!ct__join_list_ok(&stack_op, out, tensors)) return ct_last_error();
  if (!ct__join_out_grad_ok(&stack_op, out, tensors)) return CT_ERR_RUNTIME;
  return ct__stack_impl(out, tensors, dim, NULL);
}

/* ---- hstack, vstack, dstack, column_stack: cat of reshaped inputs ---- */

typedef enum { H_STACK, V_STACK, D_STACK, COLUMN_STACK } stack_kind;

static ct_tensor *column_of(const ct_tensor *t) {
  if (t->ndim > 1) return ct__same(t);
  int64_t sh[2] = {t->numel, 1};
  return ct__reshape_impl(t, (ct_shape){sh, 2});
}

static ct_status xstack_impl(const char *name, stack_kind kind, ct_tensor *out, ct_tensors ts, ct_tensor **result) {
  if (ts.n == 0) {
    ct__error(CT_ERR_RUNTIME, "%s expects a non-empty TensorList", name);
    return CT_ERR_RUNTIME;
  }
  ct_tensor_list *l = NULL;
  if (kind == COLUMN_STACK) {
    if ((l = ct__list_alloc(ts.n)))
      for (int64_t i = 0; i < ts.n; i++)
        if (!(l->items[i] = column_of(ts.data[i]))) {
          ct__list_destroy(l);
          l = NULL;
          break;
        }
  } else {
    l = atleast_list(ts, kind == H_STACK ? 1 : kind == V_STACK ? 2 : 3);
  }
  if (!l) return ct_last_error();
  int64_t dim = kind == V_STACK ? 0 : kind == D_STACK ? 2 : kind == COLUMN_STACK ? 1 : l->items[0]->ndim == 1 ? 0 : 1;
  ct_status s = ct__cat_impl(out, ct_tensors_of(l), dim, result);
  ct__list_destroy(l);
  return s;
}

static const char *const stack_names[] = {"hstack", "vstack", "dstack", "column_stack"};

static ct_tensor *xstack_entry(const ct_op *op, stack_kind kind, ct_tensors ts) {
  if (!ct__join_list_ok(op, NULL, ts)) return NULL;
  ct_tensor *r = NULL;
  if (xstack_impl(stack_names[kind], kind, NULL, ts, &r) != CT_OK) return NULL;
  ct__join_mark(r, ts);
  return ct__own(r);
}
static ct_status xstack_out_entry(const ct_op *op, stack_kind kind, ct_tensor *out, ct_tensors ts) {
  CT__NONNULL_STATUS(out);
  if (!ct__join_list_ok(op, out, ts)) return ct_last_error();
  if (!ct__join_out_grad_ok(op, out, ts)) return CT_ERR_RUNTIME;
  return xstack_impl(stack_names[kind], kind, out, ts, NULL);
}

ct_tensor *ct_hstack(ct_tensors tensors) { return xstack_entry(&hstack_op, H_STACK, tensors); }
ct_status ct_hstack_out(ct_tensor *out, ct_tensors tensors) { return xstack_out_entry(&hstack_op, H_STACK, out, tensors); }
ct_tensor *ct_vstack(ct_tensors tensors) { return xstack_entry(&vstack_op, V_STACK, tensors); }
ct_status ct_vstack_out(ct_tensor *out, ct_tensors tensors) { return xstack_out_entry(&vstack_op, V_STACK, out, tensors); }
/* row_stack is vstack (torch's alias: its messages name vstack) */
ct_tensor *ct_row_stack(ct_tensors tensors) { return xstack_entry(&vstack_op, V_STACK, tensors); }
ct_status ct_row_stack_out(ct_tensor *out, ct_tensors tensors) {
  return xstack_out_entry(&vstack_op, V_STACK, out, tensors);
}
ct_tensor *ct_dstack(ct_tensors tensors) { return xstack_entry(&dstack_op, D_STACK, tensors); }
ct_status ct_dstack_out(ct_tensor *out, ct_tensors tensors) { return xstack_out_entry(&dstack_op, D_STACK, out, tensors); }
ct_tensor *ct_column_stack(ct_tensors tensors) { return xstack_entry(&column_stack_op, COLUMN_STACK, tensors); }
ct_status ct_column_stack_out(ct_tensor *out, ct_tensors tensors) {
  return xstack_out_entry(&column_stack_op, COLUMN_STACK, out, tensors);
}
