/* Printing internals shared by the strided printer here and the printers of other kinds (sparse,
   nested) and by autograd, which names grad_fn nodes. Mirrors torch/_tensor_str.py. */
#ifndef CTORCH_FORMAT_INTERNAL_H
#define CTORCH_FORMAT_INTERNAL_H

#include "core/internal.h"

/* ---- print options: one consistent snapshot per print ---- */
typedef struct ct__print_opts {
  int64_t precision, threshold, edgeitems, linewidth;
  ct_sci_mode sci_mode; /* AUTO, ON or OFF */
} ct__print_opts;
void ct__get_print_opts(ct__print_opts *o);

/* ---- a growable string; after the first failed allocation every append is a no-op ---- */
typedef struct ct__strbuf {
  char *data;
  size_t len, cap;
  bool failed;
} ct__strbuf;

/* Makes room for `extra` more bytes plus the NUL; false (and failed set, OOM recorded) on failure. */
bool ct__sb_reserve(ct__strbuf *sb, size_t extra);
void ct__sb_append(ct__strbuf *sb, const char *s, size_t n);
void ct__sb_puts(ct__strbuf *sb, const char *s);
void ct__sb_spaces(ct__strbuf *sb, int64_t n);
void ct__sb_printf(ct__strbuf *sb, const char *fmt, ...) CT_PRINTF(2, 3);
/* Python's str(tuple(sizes)): "(2, 3)", "(5,)", "()". */
void ct__sb_py_tuple(ct__strbuf *sb, int64_t n, const int64_t *vals);
void ct__sb_free(ct__strbuf *sb);

/* ---- suffixes: "dtype=...", "grad_fn=<...>", ... in order, placed by _add_suffixes ---- */
typedef struct ct__suffixes {
  ct__strbuf text; /* each suffix NUL-terminated, one after the other */
  int64_t count;
} ct__suffixes;

void ct__suffix_add(ct__suffixes *s, const char *fmt, ...) CT_PRINTF(2, 3);
/* "size=(2, 3)" */
void ct__suffix_add_size(ct__suffixes *s, const ct_tensor *t);
/* Appends the suffixes and the closing parenthesis to out (which holds "tensor(" + body): each goes
   after ", " unless the line would pass linewidth (or force_newline, for the first one), then on a
   new line indented by indent. */
void ct__add_suffixes(ct__strbuf *out, const ct__suffixes *s, int64_t indent, bool force_newline,
                      int64_t linewidth);

/* ---- _tensor_str: the body of a strided CPU tensor printed at `indent` ("[]" when empty) ---- */
ct_status ct__tensor_str(const ct_tensor *t, int64_t indent, const ct__print_opts *o, ct__strbuf *out);

/* ---- hooks for the parts that come with other layers ---- */
/* Autograd names a tensor's grad_fn node ("SumBackward0") or returns NULL when it has none. */
typedef const char *(*ct__grad_fn_name_fn)(const ct_tensor *t);
void ct__set_grad_fn_name_hook(ct__grad_fn_name_fn fn);

/* A non-strided kind writes its body (what follows "tensor(") into `body` and adds its leading
   suffixes ("size=...", "nnz=..."); ct_to_string adds device=, dtype=, layout= and the autograd
   suffix around them. *force_newline puts the first suffix on a new line (sparse COO does). */
typedef ct_status (*ct__layout_printer_fn)(const ct_tensor *t, int64_t indent, const ct__print_opts *o,
                                          ct__strbuf *body, ct__suffixes *suffixes, bool *force_newline);
void ct__set_layout_printer(ct_layout layout, ct__layout_printer_fn fn);

#endif
