/* _tensor_str: the nested-bracket body of a strided tensor. Summarized dims show their edge items
   around "..."; only the printed elements are read and formatted. */
#include "core/elem.h"
#include "format/elem_format.h"

/* The indices a dim shows: [lo0, hi0), then after "..." [lo1, hi1) when two > 0. */
typedef struct span {
  int64_t lo0, hi0, lo1, hi1;
  bool two;
} span;

typedef struct plan {
  const ct__print_opts *o;
  int64_t ndim;
  const int64_t *sizes;
  int64_t *bstrides; /* byte strides */
  span *spans;
  ct_dtype part; /* the dtype each element (or each complex part) is read as */
  size_t imag_off; /* complex: byte offset of the imaginary part */
  bool complex;
  ct__elem_fmt f1, f2; /* real (or only) part, imaginary part */
  ct__strbuf *out, scratch;
} plan;

/* Python's slice bound k of a length-n sequence (negative counts from the end), as self[:k] / self[k:]. */
static int64_t py_bound(int64_t k, int64_t n) { return k < 0 ? (n + k > 0 ? n + k : 0) : (k < n ? k : n); }

/* A dim is summarized when size > 2 * edgeitems: self[:e] and self[-e:] are shown (for 1-D with
   Python's slicing, so edgeitems 0 shows "..." and then every element, as PyTorch does). */
static span dim_span(int64_t n, bool summarize, int64_t e) {
  if (summarize && (e < 0 || n - e > e)) return (span){0, py_bound(e, n), py_bound(-e, n), n, true};
  return (span){0, n, 0, 0, false};
}

/* Feeds the formatters every element that will be printed. */
static void see(plan *pl, int64_t d, const char *p) {
  const span *s = &pl->spans[d];
  for (int r = 0; r < (s->two ? 2 : 1); r++) {
    const int64_t lo = r ? s->lo1 : s->lo0, hi = r ? s->hi1 : s->hi0;
    const char *q = p + lo * pl->bstrides[d];
    if (d + 1 < pl->ndim) {
      for (int64_t i = lo; i < hi; i++, q += pl->bstrides[d]) see(pl, d + 1, q);
    } else if (pl->f1.floating) {
      for (int64_t i = lo; i < hi; i++, q += pl->bstrides[d]) {
        ct__fmt_see_double(&pl->f1, ct__elem_load_f64(pl->part, q));
        if (pl->complex) ct__fmt_see_double(&pl->f2, ct__elem_load_f64(pl->part, q + pl->imag_off));
      }
    } else {
      for (int64_t i = lo; i < hi; i++, q += pl->bstrides[d]) ct__fmt_see_int(&pl->f1, ct__elem_load_i64(pl->part, q));
    }
  }
}

/* _scalar_str / _val_formatter: one element. */
static void element(plan *pl, const char *p) {
  if (!pl->f1.floating) {
    ct__fmt_int(&pl->f1, ct__elem_load_i64(pl->part, p), pl->out);
    return;
  }
  ct__fmt_double(&pl->f1, ct__elem_load_f64(pl->part, p), true, pl->out, &pl->scratch);
  if (pl->complex) ct__fmt_imag(&pl->f2, ct__elem_load_f64(pl->part, p + pl->imag_off), pl->out, &pl->scratch);
}

/* The separator before item k of a vector: ", " within a line, ",\n" and the indent between lines. */
static void item_sep(plan *pl, int64_t k, int64_t per_line, int64_t indent) {
  if (k == 0) return;
  if (k % per_line) {
    ct__sb_append(pl->out, ", ", 2);
  } else {
    ct__sb_append(pl->out, ",\n", 2);
    ct__sb_spaces(pl->out, indent + 1);
  }
}

/* _vector_str: elements (and " ...") joined by ", ", so many per line that they fit the line width. */
static void vector(plan *pl, int64_t d, const char *p, int64_t indent) {
  const int64_t elem_len = pl->f1.width + 2 + (pl->complex ? pl->f2.width + 1 : 0);
  const int64_t room = pl->o->linewidth - indent;
  int64_t per_line = room > 0 ? room / elem_len : 0;
  if (per_line < 1) per_line = 1;
  const span *s = &pl->spans[d];
  int64_t k = 0; /* items written so far, " ..." included */
  ct__sb_append(pl->out, "[", 1);
  for (int r = 0; r < (s->two ? 2 : 1); r++) {
    if (r) {
      item_sep(pl, k++, per_line, indent);
      ct__sb_append(pl->out, " ...", 4);
    }
    const int64_t lo = r ? s->lo1 : s->lo0, hi = r ? s->hi1 : s->hi0;
    const char *q = p + lo * pl->bstrides[d];
    for (int64_t i = lo; i < hi; i++, q += pl->bstrides[d]) {
      item_sep(pl, k++, per_line, indent);
      element(pl, q);
    }
  }
  ct__sb_append(pl->out, "]", 1);
}

/* The separator between sub-tensors of a dim with `newlines` dims below it. */
static void row_sep(plan *pl, int64_t newlines, int64_t indent) {
  ct__sb_append(pl->out, ",", 1);
  for (int64_t j = 0; j < newlines; j++) ct__sb_append(pl->out, "\n", 1);
  ct__sb_spaces(pl->out, indent + 1);
}

/* _tensor_str_with_formatter: sub-tensors joined by "," then a newline per remaining dim. */
static void render(plan *pl, int64_t d, const char *p, int64_t indent) {
  if (d == pl->ndim - 1) {
    vector(pl, d, p, indent);
    return;
  }
  const span *s = &pl->spans[d];
  const int64_t newlines = pl->ndim - d - 1;
  bool first = true;
  ct__sb_append(pl->out, "[", 1);
  for (int r = 0; r < (s->two ? 2 : 1); r++) {
    if (r) {
      row_sep(pl, newlines, indent); /* the summarized rows */
      ct__sb_append(pl->out, "...", 3);
    }
    const int64_t lo = r ? s->lo1 : s->lo0, hi = r ? s->hi1 : s->hi0;
    for (int64_t i = lo; i < hi; i++) {
      if (!first || r) row_sep(pl, newlines, indent);
      first = false;
      render(pl, d + 1, p + i * pl->bstrides[d], indent + 1);
    }
  }
  ct__sb_append(pl->out, "]", 1);
}

static ct_status finish(plan *pl, ct_status st) {
  ct__free(pl->bstrides);
  ct__sb_free(&pl->scratch);
  return st;
}

ct_status ct__tensor_str(const ct_tensor *t, int64_t indent, const ct__print_opts *o, ct__strbuf *out) {
  if (t->numel == 0) {
    ct__sb_puts(out, "[]");
    return CT_OK;
  }
  if (!ct__check_in_storage(t)) return CT_ERR_RUNTIME;
  if (CT_UNLIKELY(ct__math_bits(t) != 0)) { /* torch prints a conj/neg view's values: a resolved copy */
    ct_tensor *r = ct__resolve_bits(t);
    if (!r) return ct_last_error();
    ct_status st = ct__tensor_str(r, indent, o, out);
    ct_release(r);
    return st;
  }
  const ct_dtype dt = (ct_dtype)t->dtype;
  const bool summarize = t->numel > o->threshold;
  /* Keep edgeitems where the size arithmetic cannot overflow; no real size notices. */
  const int64_t lim = INT64_C(1) << 62;
  const int64_t e = o->edgeitems < -lim ? -lim : o->edgeitems > lim ? lim : o->edgeitems;
  if (summarize && t->ndim >= 2 && e <= 0) {
    /* get_summarized_data stacks the (empty) edge rows. */
    ct__error(CT_ERR_RUNTIME, "stack expects a non-empty TensorList");
    return CT_ERR_RUNTIME;
  }
  plan pl = {.o = o, .ndim = t->ndim, .sizes = t->sizes, .out = out};
  pl.complex = ct_dtype_is_complex(dt);
  pl.part = pl.complex ? ct_dtype_to_real(dt) : dt;
  pl.imag_off = ct__itemsize(pl.part);
  const int64_t nd = t->ndim ? t->ndim : 1;
  pl.bstrides = ct__malloc((size_t)nd * (sizeof(int64_t) + sizeof(span)));
  if (!pl.bstrides) return CT_ERR_OUT_OF_MEMORY;
  pl.spans = (span *)(pl.bstrides + nd);
  for (int64_t d = 0; d < t->ndim; d++) {
    pl.bstrides[d] = ct__mul_wrap(t->strides[d], (int64_t)ct__itemsize(dt));
    pl.spans[d] = dim_span(t->sizes[d], summarize, e);
  }
  const bool floating = ct_dtype_is_floating_point(dt) || pl.complex;
  ct__fmt_begin(&pl.f1, floating, dt == CT_BOOL);
  ct__fmt_begin(&pl.f2, floating, false);
  const char *base = ct__tdata(t);
  if (t->ndim == 0) {
    pl.bstrides[0] = 0;
    pl.spans[0] = (span){0, 1, 0, 0, false};
    pl.ndim = 1; /* scan the one element like a 1-element vector */
  }
  see(&pl, 0, base);
  pl.ndim = t->ndim;
  ct_status st = ct__fmt_end(&pl.f1, o, &pl.scratch);
  if (st == CT_OK && pl.complex) st = ct__fmt_end(&pl.f2, o, &pl.scratch);
  if (st != CT_OK) return finish(&pl, st);
  if (t->ndim == 0)
    element(&pl, base);
  else
    render(&pl, 0, base, indent);
  return finish(&pl, pl.scratch.failed ? CT_ERR_OUT_OF_MEMORY : CT_OK);
}
