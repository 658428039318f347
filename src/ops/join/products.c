/* meshgrid, block_diag, cartesian_prod, combinations and kron as torch 1.13 builds them: meshgrid's
   expanded views, block_diag's copies into a zero matrix, cartesian_prod as the stacked flattened grids,
   combinations as the stacked columns of the index tuples torch's triangular mask selects (lexicographic
   order), kron as mul of the interleaved views (so the result has TensorIterator's layout). */
#include "ops/join/join_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"

static const ct_op meshgrid_op = CT_JOIN_OP("meshgrid", "aten::meshgrid.indexing");
static const ct_op block_diag_op = CT_JOIN_OP("block_diag", "aten::block_diag");
static const ct_op cartesian_prod_op = CT_JOIN_OP("cartesian_prod", "aten::cartesian_prod");
/* CompositeImplicitAutograd: the device is checked where it runs masked_select, after its own checks */
static const ct_op combinations_op = {
    .name = "combinations", .aten = "aten::masked_select", .composite = true, CT_COPY_ROWS_CPU};
static const ct_op kron_op = CT_JOIN_OP("kron", "aten::kron");
/* autograd's out= refusal names mul, the op kron_out runs */
static const ct_op kron_out_op = CT_JOIN_OP("mul", "aten::kron.out");

/* ---- meshgrid ---- */

ct_tensor_list *ct__meshgrid_impl(ct_tensors ts, bool xy) {
  int64_t n = ts.n;
  if (n == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "meshgrid expects a non-empty TensorList");
  for (int64_t i = 0; i + 1 < n; i++) {
    if (ts.data[i]->dtype != ts.data[i + 1]->dtype)
      return CT_ERR_NULL(CT_ERR_RUNTIME, "meshgrid expects all tensors to have the same dtype");
    if (!ct_device_equal(ct__tdevice(ts.data[i]), ct__tdevice(ts.data[i + 1])))
      return CT_ERR_NULL(CT_ERR_RUNTIME, "meshgrid expects all tensors to have the same device");
  }
  if (!ct__join_rank_ok(n)) return NULL;
  bool swap = xy && n >= 2;
  int64_t shape[CT_JOIN_MAXDIM], view_shape[CT_JOIN_MAXDIM];
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *t = ts.data[swap && i < 2 ? 1 - i : i];
    if (t->ndim > 1)
      return CT_ERR_NULL(CT_ERR_RUNTIME, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: %s",
                         "a tensor of more dims");
    shape[i] = t->numel;
    view_shape[i] = 1;
  }
  ct_tensor_list *l = ct__list_alloc(n);
  if (!l) return NULL;
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *t = ts.data[swap && i < 2 ? 1 - i : i];
    view_shape[i] = -1;
    ct_tensor *v = ct__view_impl(t, (ct_shape){view_shape, n});
    view_shape[i] = 1;
    ct_tensor *g = v ? ct__expand_impl(v, (ct_shape){shape, n}) : NULL;
    ct_release(v);
    if (!g) {
      ct__list_destroy(l);
      return NULL;
    }
    l->items[swap && i < 2 ? 1 - i : i] = g;
  }
  return l;
}

ct_tensor_list *ct_meshgrid(ct_tensors tensors, const ct_meshgrid_opts *opts) {
  if (!ct__join_list_ok(&meshgrid_op, NULL, tensors)) return NULL;
  ct_meshgrid_indexing ix = opts ? opts->indexing : CT_MESHGRID_UNSET;
  if (ix != CT_MESHGRID_UNSET && ix != CT_MESHGRID_IJ && ix != CT_MESHGRID_XY)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %d",
                       (int)ix);
  return ct__own_list(ct__meshgrid_impl(tensors, ix == CT_MESHGRID_XY));
}

/* ---- block_diag ---- */

static ct_tensor *block_diag_impl(ct_tensors ts) {
  if (ts.n == 0) {
    int64_t sizes[2] = {1, 0};
    return ct__empty(2, sizes, ct_get_default_dtype(), CT_DEVICE_CPU);
  }
  ct_device dev = ct__tdevice(ts.data[0]);
  for (int64_t i = 0; i < ts.n; i++) {
    ct_device d = ct__tdevice(ts.data[i]);
    if (!ct_device_equal(d, dev)) {
      char a[64], b[64];
      ct_device_str(dev, a, sizeof a);
      ct_device_str(d, b, sizeof b);
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "torch.block_diag: input tensors must all be on the same device. Input 0 is on device %s "
                         "and input %lld is on device %s",
                         a, (long long)i, b);
    }
  }
  ct_dtype dt;
  if (ct__result_type(ts.data, ts.n, &dt) != CT_OK) return NULL;
  int64_t rows = 0, cols = 0;
  for (int64_t i = 0; i < ts.n; i++) {
    const ct_tensor *t = ts.data[i];
    if (t->ndim > 2)
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %lld has %d dimensions",
                         (long long)i, (int)t->ndim);
    /* torch adds in int64 and wraps; the wrapped sizes fail its checks */
    (void)__builtin_add_overflow(rows, t->ndim == 2 ? t->sizes[0] : 1, &rows);
    (void)__builtin_add_overflow(cols, t->ndim == 2 ? t->sizes[1] : t->ndim == 1 ? t->sizes[0] : 1, &cols);
  }
  for (int k = 0; k < 2; k++) {
    int64_t v = k ? cols : rows;
    if (v < CT_SYMINT_MIN)
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
                         (long long)v);
  }
  int64_t sizes[2] = {rows, cols};
  ct_tensor *r = ct__join_zeros(ts.data[0], 2, sizes, dt);
  ct_status s = r ? CT_OK : ct_last_error();
  for (int64_t i = 0, r0 = 0, c0 = 0; s == CT_OK && i < ts.n; i++) {
    const ct_tensor *t = ts.data[i];
    int64_t h = t->ndim == 2 ? t->sizes[0] : 1, w = t->ndim == 2 ? t->sizes[1] : t->ndim == 1 ? t->sizes[0] : 1;
    ct_tensor *a = ct__narrow_impl(r, 0, r0, h), *b = a ? ct__narrow_impl(a, 1, c0, w) : NULL;
    s = b ? (b->numel ? ct__copy_into(b, t) : CT_OK) : ct_last_error();
    ct_release(a);
    ct_release(b);
    r0 += h;
    c0 += w;
  }
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_block_diag(ct_tensors tensors) {
  if (!ct__join_list_ok(&block_diag_op, NULL, tensors)) return NULL;
  ct_tensor *r = block_diag_impl(tensors);
  ct__join_mark(r, tensors);
  return ct__own(r);
}

/* ---- cartesian_prod and combinations: stacks of flattened columns ---- */

static bool is_vector(const ct_tensor *t) {
  if (t->ndim == 1) return true;
  char buf[512];
  ct__fmt_int_list(buf, sizeof buf, t->ndim, t->sizes);
  ct__error(CT_ERR_RUNTIME, "Expect a 1D vector, but got shape %s", buf);
  return false;
}

/* stack(columns, 1), releasing the columns. */
static ct_tensor *stack_columns(ct_tensor_list *cols) {
  ct_tensor *r = NULL;
  if (cols && ct__stack_impl(NULL, ct_tensors_of(cols), 1, &r) != CT_OK) r = NULL;
  ct__list_destroy(cols);
  return r;
}

static ct_tensor *cartesian_prod_impl(ct_tensors ts) {
  for (int64_t i = 0; i < ts.n; i++)
    if (!is_vector(ts.data[i])) return NULL;
  if (ts.n == 1) return ct__same(ts.data[0]);
  ct_tensor_list *g = ct__meshgrid_impl(ts, false);
  for (int64_t i = 0; g && i < g->n; i++) {
    ct_tensor *f = ct__flatten_impl(g->items[i], 0, -1);
    ct_release(g->items[i]);
    g->items[i] = f;
    if (!f) {
      ct__list_destroy(g);
      return NULL;
    }
  }
  return stack_columns(g);
}

ct_tensor *ct_cartesian_prod(ct_tensors tensors) {
  if (!ct__join_list_ok(&cartesian_prod_op, NULL, tensors)) return NULL;
  ct_tensor *r = cartesian_prod_impl(tensors);
  if (r && !(tensors.n == 1 && r == tensors.data[0])) ct__join_mark(r, tensors);
  return ct__own(r);
}

/* The r-tuples of 0..n-1 that torch's _triu_mask keeps (strictly increasing, or non-decreasing with
   replacement), in the grid's row-major order; columns[k][c] is tuple c's k-th index. */
static int64_t *combination_indices(int64_t n, int64_t r, bool repl, int64_t *count) {
  int64_t cnt = 0, *tuple = ct__malloc((size_t)r * sizeof(int64_t)), *out = NULL, cap = 0;
  if (!tuple) return NULL;
  /* the first tuple: 0, 1, 2, ... (0, 0, 0 with replacement) */
  bool more = repl ? n > 0 : r <= n;
  for (int64_t k = 0; k < r; k++) tuple[k] = repl ? 0 : k;
  while (more) {
    if (cnt == cap) {
      cap = cap ? cap * 2 : 64;
      int64_t *grown = ct__realloc(out, (size_t)(cap * r) * sizeof(int64_t));
      if (!grown) {
        ct__free(out);
        ct__free(tuple);
        return NULL;
      }
      out = grown;
    }
    memcpy(out + cnt * r, tuple, (size_t)r * sizeof(int64_t));
    cnt++;
    /* next in lexicographic order */
    int64_t k = r - 1;
    while (k >= 0 && tuple[k] == (repl ? n - 1 : n - r + k)) k--;
    if (k < 0) break;
    tuple[k]++;
    for (int64_t j = k + 1; j < r; j++) tuple[j] = repl ? tuple[k] : tuple[j - 1] + 1;
  }
  ct__free(tuple);
  *count = cnt;
  return out ? out : ct__malloc(sizeof(int64_t));
}

static ct_tensor *combinations_impl(const ct_tensor *t, int64_t r, bool repl) {
  if (!is_vector(t)) return NULL;
  if (r < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "Expect a non-negative number, but got %lld", (long long)r);
  if (r == 0) {
    int64_t zero = 0;
    return ct__join_empty(t, 1, &zero, (ct_dtype)t->dtype);
  }
  if (!ct__op_table(&combinations_op, t, combinations_op.aten)) return NULL;
  if (!ct__join_rank_ok(r)) return NULL;
  int64_t count = 0, *tuples = combination_indices(t->sizes[0], r, repl, &count);
  if (!tuples) return NULL;
  int64_t *col = ct__malloc((size_t)(count > 0 ? count : 1) * sizeof(int64_t));
  ct_tensor_list *cols = col ? ct__list_alloc(r) : NULL;
  for (int64_t k = 0; cols && k < r; k++) {
    for (int64_t c = 0; c < count; c++) col[c] = tuples[c * r + k];
    if (!(cols->items[k] = ct__join_take(t, 0, col, count))) {
      ct__list_destroy(cols);
      cols = NULL;
    }
  }
  ct__free(col);
  ct__free(tuples);
  return cols ? stack_columns(cols) : NULL;
}

ct_tensor *ct_combinations(const ct_tensor *t, int64_t r, const ct_combinations_opts *opts) {
  CT__OP_ENTER_PTR(&combinations_op, t, t);
  ct_tensor *res = combinations_impl(t, r, opts && opts->with_replacement);
  if (res) ct__grad_mark_result(res, t);
  return ct__own(res);
}

/* ---- kron ---- */

/* KronImpl: self viewed as [s0, 1, s1, 1, ...], other as [1, o0, 1, o1, ...] (both left-padded with 1s to
   the larger rank), and the result's shape [s0 * o0, ...]. Returns false with the error recorded. */
static bool kron_views(const ct_tensor *a, const ct_tensor *b, ct_tensor **va, ct_tensor **vb, int64_t *rshape,
                       int64_t *nd) {
  int64_t m = a->ndim > b->ndim ? a->ndim : b->ndim, pa = m - a->ndim, pb = m - b->ndim;
  if (!ct__join_rank_ok(2 * m)) return false;
  int64_t sa[CT_JOIN_MAXDIM], sb[CT_JOIN_MAXDIM];
  for (int64_t i = 0; i < m; i++) {
    sa[2 * i] = i >= pa ? a->sizes[i - pa] : 1;
    sa[2 * i + 1] = 1;
    sb[2 * i] = 1;
    sb[2 * i + 1] = i >= pb ? b->sizes[i - pb] : 1;
    /* wraps where it overflows: the product's interleaved shape then fails to allocate first, with torch's
       "Storage size calculation overflowed" */
    (void)__builtin_mul_overflow(sa[2 * i], sb[2 * i + 1], &rshape[i]);
  }
  *nd = m;
  *va = ct__view_impl(a, (ct_shape){sa, 2 * m});
  *vb = *va ? ct__view_impl(b, (ct_shape){sb, 2 * m}) : NULL;
  if (*vb) return true;
  ct_release(*va);
  return false;
}

/* mul(self viewed, other viewed): the product in the interleaved shape, TensorIterator's layout (unowned). */
static ct_tensor *kron_product(const ct_tensor *va, const ct_tensor *vb) {
  ct_scope_begin();
  ct_tensor *p = ct__pw_apply(&ct__pw_op_mul, va, vb);
  if (p) ct_retain(p);
  ct_scope_end();
  return p;
}

static ct_tensor *kron_impl(const ct_tensor *a, const ct_tensor *b) {
  ct_tensor *va, *vb, *r = NULL;
  int64_t rshape[CT_JOIN_MAXDIM], nd;
  if (!kron_views(a, b, &va, &vb, rshape, &nd)) return NULL;
  ct_tensor *p = kron_product(va, vb);
  if (p) r = ct__view_impl(p, (ct_shape){rshape, nd}); /* _unsafe_view: refused where no view exists */
  ct_release(p);
  ct_release(va);
  ct_release(vb);
  return r;
}

ct_tensor *ct_kron(const ct_tensor *t, const ct_tensor *other) {
  CT__NONNULL_PTR(t, other);
  if (!CT__OP_ACCEPTS(&kron_op, kron_op.aten, t, other)) return NULL;
  ct_tensor *r = kron_impl(t, other);
  if (r) {
    ct__grad_mark_result(r, t);
    ct__grad_mark_result(r, other);
  }
  return ct__own(r);
}

/* KronImpl::kron_out: resize_output(out, result shape), then mul_out into out viewed in the interleaved shape
   (_unsafe_view: refused where no view exists). mul's dtype and device rules are checked before out is
   resized, so that a failed call leaves it as it was. */
ct_status ct_kron_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(&kron_out_op, kron_out_op.aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&kron_out_op, out, t, other)) return CT_ERR_RUNTIME;
  ct_tensor *va, *vb, *view = NULL;
  int64_t rshape[CT_JOIN_MAXDIM], nd;
  if (!kron_views(t, other, &va, &vb, rshape, &nd)) return ct_last_error();
  int64_t mshape[CT_JOIN_MAXDIM];
  for (int64_t d = 0; d < 2 * nd; d++) mshape[d] = d % 2 == 0 ? va->sizes[d] : vb->sizes[d];
  ct_dtype dt;
  const ct_tensor *ops[2] = {va, vb}; /* mul's operands: the views, never 0-dim */
  ct_status s = ct__result_type(ops, 2, &dt);
  bool resized = out->ndim != nd || memcmp(out->sizes, rshape, (size_t)nd * sizeof(int64_t)) != 0;
  if (s == CT_OK && !resized && !ct__check_no_internal_overlap(out)) { /* TensorIterator's first check */
    s = ct_last_error();
  } else if (s == CT_OK && out->device_type != t->device_type) {
    ct__error(CT_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!",
              out->device_type == CT_META ? "meta" : "cpu", t->device_type == CT_META ? "meta" : "cpu");
    s = CT_ERR_RUNTIME;
  } else if (s == CT_OK && !ct_can_cast(dt, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct__dt(dt)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK) s = ct__tensor_resize_ok(out, nd, rshape) ? ct__join_fit_out(out, nd, rshape) : ct_last_error();
  if (s == CT_OK) s = (view = ct__view_impl(out, (ct_shape){mshape, 2 * nd})) ? CT_OK : ct_last_error();
  if (s == CT_OK) {
    const ct_tensor *in[2] = {va, vb};
    s = (ct__pw_op_mul.run ? ct__pw_op_mul.run : ct__pw_run)(&ct__pw_op_mul, view, in, 2, false, NULL, NULL);
  }
  ct_release(view);
  ct_release(va);
  ct_release(vb);
  return s;
}
