/* _str_intern: "tensor(" + body + suffixes + ")", and the public printing entry points. */
#include <stdio.h>
#include <stdlib.h>

#include "format/format_internal.h"

/* ---- hooks, set once by the layers that come later (autograd, sparse, nested) ---- */
static _Atomic(ct__grad_fn_name_fn) grad_fn_name_hook;
static _Atomic(ct__layout_printer_fn) layout_printers[CT_JAGGED + 1];

void ct__set_grad_fn_name_hook(ct__grad_fn_name_fn fn) { atomic_store(&grad_fn_name_hook, fn); }

void ct__set_layout_printer(ct_layout layout, ct__layout_printer_fn fn) {
  if ((unsigned)layout <= CT_JAGGED) atomic_store(&layout_printers[layout], fn);
}

/* ---- suffixes ---- */
void ct__suffix_add(ct__suffixes *s, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof tmp) n = (int)sizeof tmp - 1; /* callers' suffixes are short names */
  ct__sb_append(&s->text, tmp, (size_t)n + 1);     /* keeps the NUL as the separator */
  s->count += !s->text.failed;
}

void ct__suffix_add_size(ct__suffixes *s, const ct_tensor *t) {
  /* Any rank: written straight into the list rather than through a fixed buffer. */
  ct__sb_puts(&s->text, "size=");
  ct__sb_py_tuple(&s->text, t->ndim, t->sizes);
  ct__sb_append(&s->text, "", 1);
  s->count += !s->text.failed;
}

void ct__add_suffixes(ct__strbuf *out, const ct__suffixes *s, int64_t indent, bool force_newline,
                      int64_t linewidth) {
  /* Python: len(tensor_str) - tensor_str.rfind("\n") + 1, i.e. the last line's length + 2. */
  size_t line_start = out->len;
  while (line_start > 0 && out->data[line_start - 1] != '\n') line_start--;
  int64_t last = (int64_t)(out->len - line_start) + 2;
  const char *p = s->text.data;
  for (int64_t i = 0; i < s->count; i++) {
    const int64_t n = (int64_t)strlen(p);
    if (force_newline || last + n + 2 > linewidth) {
      ct__sb_append(out, ",\n", 2);
      ct__sb_spaces(out, indent);
      last = indent + n;
      force_newline = false;
    } else {
      ct__sb_append(out, ", ", 2);
      last += n + 2;
    }
    ct__sb_append(out, p, (size_t)n);
    p += n + 1;
  }
  ct__sb_append(out, ")", 1);
}

/* ---- repr ---- */
static bool has_default_dtype(ct_dtype dt) {
  const ct_dtype def = ct_get_default_dtype();
  return dt == def || dt == ct_dtype_to_complex(def) || dt == CT_INT64 || dt == CT_BOOL;
}

/* Body and suffixes of t, in _str_intern's order. */
static ct_status build(const ct_tensor *t, const ct__print_opts *o, ct__strbuf *out, ct__suffixes *sfx,
                       bool *force_newline) {
  const int64_t indent = 7; /* len("tensor(") */
  const ct_dtype dt = (ct_dtype)t->dtype;
  const ct_layout layout = (ct_layout)t->layout;
  ct__sb_puts(out, "tensor(");
  if (t->device_type != CT_CPU) {
    char dev[32];
    ct_device_str(ct__tdevice(t), dev, sizeof dev);
    ct__suffix_add(sfx, "device='%s'", dev);
  }
  ct_status st = CT_OK;
  if (layout != CT_STRIDED && layout != CT_LAYOUT_UNSET) {
    ct__layout_printer_fn printer = (unsigned)layout <= CT_JAGGED ? atomic_load(&layout_printers[layout]) : NULL;
    if (!printer) {
      ct__error(CT_ERR_NOT_IMPLEMENTED, "printing tensors with layout %s is not supported", ct_layout_name(layout));
      return CT_ERR_NOT_IMPLEMENTED;
    }
    st = printer(t, indent, o, out, sfx, force_newline);
    if (!has_default_dtype(dt)) ct__suffix_add(sfx, "dtype=%s", ct_dtype_name(dt));
  } else if (t->device_type == CT_META) {
    ct__suffix_add_size(sfx, t);
    if (dt != ct_get_default_dtype()) ct__suffix_add(sfx, "dtype=%s", ct_dtype_name(dt));
    ct__sb_puts(out, "...");
  } else if (t->numel == 0) {
    /* NumPy's habit: the shape unless it is (0,); the dtype, which no element can show. */
    if (t->ndim != 1) ct__suffix_add_size(sfx, t);
    if (dt != ct_get_default_dtype()) ct__suffix_add(sfx, "dtype=%s", ct_dtype_name(dt));
    ct__sb_puts(out, "[]");
  } else {
    if (!has_default_dtype(dt)) ct__suffix_add(sfx, "dtype=%s", ct_dtype_name(dt));
    if (t->device_type != CT_CPU) {
      /* The elements would need a copy to the host, which comes with the CUDA backend. */
      ct__error(CT_ERR_NOT_IMPLEMENTED, "printing the elements of a %s tensor is not supported",
                ct__tdevice(t).type == CT_CUDA ? "cuda" : "non-CPU");
      return CT_ERR_NOT_IMPLEMENTED;
    }
    st = ct__tensor_str(t, indent, o, out);
  }
  if (st != CT_OK) return st;
  if (layout != CT_STRIDED && layout != CT_LAYOUT_UNSET) ct__suffix_add(sfx, "layout=%s", ct_layout_name(layout));
  ct__grad_fn_name_fn hook = atomic_load(&grad_fn_name_hook);
  const char *grad_fn = hook ? hook(t) : NULL;
  if (grad_fn)
    ct__suffix_add(sfx, "grad_fn=<%s>", grad_fn);
  else if (ct_requires_grad(t))
    ct__suffix_add(sfx, "requires_grad=True");
  return CT_OK;
}

char *ct_to_string(const ct_tensor *t) {
  if (!t) return NULL;
  ct__print_opts o;
  ct__get_print_opts(&o);
  ct__strbuf out = {0};
  ct__suffixes sfx = {0};
  bool force_newline = false;
  ct_status st = build(t, &o, &out, &sfx, &force_newline);
  if (st == CT_OK && !sfx.text.failed) ct__add_suffixes(&out, &sfx, 7, force_newline, o.linewidth);
  ct__sb_free(&sfx.text);
  if (st != CT_OK || out.failed || sfx.text.failed) {
    ct__sb_free(&out);
    return NULL;
  }
  return out.data; /* from malloc via ct__malloc: the caller's free() releases it */
}

ct_status ct_fprint(FILE *f, const ct_tensor *t) {
  CT__NONNULL_STATUS(t);
  if (!f) {
    ct__error(CT_ERR_VALUE, "ct_fprint: the FILE must not be NULL");
    return CT_ERR_VALUE;
  }
  char *s = ct_to_string(t);
  if (!s) return ct_last_error();
  int rc = fputs(s, f);
  free(s);
  if (rc < 0 || fputc('\n', f) == EOF) {
    ct__error(CT_ERR_IO, "ct_fprint: write failed");
    return CT_ERR_IO;
  }
  return CT_OK;
}

ct_status ct_print(const ct_tensor *t) { return ct_fprint(stdout, t); }
