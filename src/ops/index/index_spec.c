/* ct_index's arguments into resolved items: the spec string (Python's subscript syntax) parsed once, its
   `%` placeholders filled from the arguments after it, C numbers turned into Python ints and bools. */
#include <ctype.h>
#include <string.h>

#include "ops/index/index_internal.h"

typedef struct parser {
  const char *spec, *p;
  const ct_index_item *args;
  int64_t nargs, used;
} parser;

static bool spec_error(const parser *ps, const char *what) {
  ct__error(CT_ERR_VALUE, "ct_index: invalid index spec \"%s\" at position %lld: %s", ps->spec,
            (long long)(ps->p - ps->spec), what);
  return false;
}

static void skip_space(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n') ps->p++;
}

static bool take_word(parser *ps, const char *w) {
  size_t n = strlen(w);
  if (strncmp(ps->p, w, n) != 0 || isalnum((unsigned char)ps->p[n]) || ps->p[n] == '_') return false;
  ps->p += n;
  return true;
}

/* A NULL index tensor (argument k after the spec, or item k): a failed chain's error is kept; with none
   recorded, the NULL argument is named. */
static bool null_tensor(int64_t k) {
  if (ct_last_error() == CT_OK) ct__error(CT_ERR_VALUE, "ct_index: argument 'tensor' is NULL (item %lld)", (long long)k);
  return false;
}

/* The next placeholder's argument, or false with the count error. */
static bool next_arg(parser *ps, const ct_index_item **arg) {
  if (ps->used >= ps->nargs) return spec_error(ps, "a placeholder '%' without its argument");
  *arg = &ps->args[ps->used++];
  return true;
}

/* A C number item as Python's int or bool; other numbers stay NUMBER (refused where they are used). */
static ct_idx from_item(const ct_index_item *it) {
  ct_idx r = {it->kind, it->start, it->stop, it->step, it->tensor, it->number};
  if (it->kind == CT_INDEX_NUMBER) {
    if (it->number.kind == CT_SCALAR_INT) {
      r.kind = CT_INDEX_INT;
      r.a = it->number.v.i;
    } else if (it->number.kind == CT_SCALAR_BOOL) {
      r.kind = CT_INDEX_BOOL;
      r.a = it->number.v.b;
    }
  }
  return r;
}

/* An optional slice bound: an integer, `%` (a C integer), None or nothing; *has is false for the last two. */
static bool parse_bound(parser *ps, int64_t *v, bool *has) {
  skip_space(ps);
  *has = false;
  if (take_word(ps, "None")) return true;
  if (*ps->p == '%') {
    const ct_index_item *arg;
    if (!next_arg(ps, &arg)) return false;
    ps->p++;
    ct_idx r = from_item(arg);
    if (r.kind != CT_INDEX_INT) return spec_error(ps, "a slice bound must be a C integer");
    *v = r.a;
    *has = true;
    return true;
  }
  const char *s = ps->p;
  bool neg = false;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  if (!isdigit((unsigned char)*s)) return true; /* omitted */
  uint64_t m = 0;
  for (; isdigit((unsigned char)*s); s++) {
    unsigned d = (unsigned)(*s - '0');
    if (m > (UINT64_MAX - d) / 10) return spec_error(ps, "integer out of range");
    m = m * 10 + d;
  }
  if (m > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) return spec_error(ps, "integer out of range");
  *v = neg ? (int64_t)(0 - m) : (int64_t)m;
  *has = true;
  ps->p = s;
  return true;
}

/* One item (up to its comma or the end). */
static bool parse_item(parser *ps, ct_idx *out) {
  skip_space(ps);
  memset(out, 0, sizeof *out);
  if (strncmp(ps->p, "...", 3) == 0) {
    ps->p += 3;
    out->kind = CT_INDEX_ELLIPSIS;
    return true;
  }
  const char *start = ps->p;
  if (take_word(ps, "True") || take_word(ps, "False")) {
    out->kind = CT_INDEX_BOOL;
    out->a = *start == 'T';
    return true;
  }
  if (*ps->p == '%') {
    const char *save = ps->p;
    ps->p++;
    skip_space(ps);
    if (*ps->p != ':') { /* a whole item */
      ps->p = save;
      const ct_index_item *arg;
      if (!next_arg(ps, &arg)) return false;
      *out = from_item(arg);
      if (out->kind == CT_INDEX_TENSOR && !out->t) return null_tensor(ps->used);
      if (out->kind == CT_INDEX_SPEC) return spec_error(ps, "a placeholder's argument is another spec string");
      ps->p++;
      return true;
    }
    ps->p = save; /* a slice's start */
  }
  const char *save = ps->p;
  if (take_word(ps, "None")) {
    skip_space(ps);
    if (*ps->p != ':') {
      out->kind = CT_INDEX_NONE;
      return true;
    }
    ps->p = save;
  }
  int64_t v[3] = {0, CT_SLICE_END, 1};
  bool has[3];
  if (!parse_bound(ps, &v[0], &has[0])) return false;
  skip_space(ps);
  if (*ps->p != ':') {
    if (!has[0]) return spec_error(ps, ps->p == start && (*ps->p == ',' || !*ps->p) ? "an empty index item"
                                                                                   : "expected an index item");
    out->kind = CT_INDEX_INT;
    out->a = v[0];
    return true;
  }
  if (!has[0]) v[0] = 0;
  ps->p++;
  if (!parse_bound(ps, &v[1], &has[1])) return false;
  if (!has[1]) v[1] = CT_SLICE_END;
  skip_space(ps);
  if (*ps->p == ':') {
    ps->p++;
    if (!parse_bound(ps, &v[2], &has[2])) return false;
    if (!has[2]) v[2] = 1;
  }
  out->kind = CT_INDEX_SLICE;
  out->a = v[0];
  out->b = v[1];
  out->c = v[2];
  return true;
}

static bool parse_spec(const char *spec, const ct_index_item *args, int64_t nargs, ct_idx **out, int64_t *nout,
                       bool *tuple) {
  int64_t cap = 1;
  for (const char *s = spec; *s; s++) cap += *s == ',';
  ct_idx *items = ct__malloc((size_t)cap * sizeof *items);
  if (!items) return false;
  parser ps = {spec, spec, args, nargs, 0};
  int64_t n = 0;
  bool comma = false;
  skip_space(&ps);
  while (*ps.p) {
    if (!parse_item(&ps, &items[n])) goto fail;
    n++;
    skip_space(&ps);
    if (!*ps.p) break;
    if (*ps.p != ',') {
      spec_error(&ps, "expected ',' or the end of the spec");
      goto fail;
    }
    comma = true;
    ps.p++;
    skip_space(&ps);
  }
  if (ps.used != nargs) {
    ct__error(CT_ERR_VALUE, "ct_index: the spec \"%s\" has %lld placeholders but %lld arguments were given", spec,
              (long long)ps.used, (long long)nargs);
    goto fail;
  }
  *out = items;
  *nout = n;
  *tuple = comma || n == 0;
  return true;
fail:
  ct__free(items);
  return false;
}

ct_idx ct__index_resolve_one(const ct_index_item *item) { return from_item(item); }

bool ct__index_resolve(const ct_index_item *items, int64_t n, ct_idx **out, int64_t *nout, bool *tuple) {
  if (n < 0) {
    ct__error(CT_ERR_VALUE, "ct_index: negative item count %lld", (long long)n);
    return false;
  }
  if (n > 0 && items[0].kind == CT_INDEX_SPEC) {
    if (!items[0].spec) {
      ct__error(CT_ERR_VALUE, "ct_index: the spec string is NULL");
      return false;
    }
    return parse_spec(items[0].spec, items + 1, n - 1, out, nout, tuple);
  }
  ct_idx *r = ct__malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
  if (!r) return false;
  for (int64_t i = 0; i < n; i++) {
    r[i] = from_item(&items[i]);
    const char *bad = NULL;
    if (r[i].kind == CT_INDEX_SPEC)
      bad = "a spec string can only be the first item";
    else if (r[i].kind == CT_INDEX_TENSOR && !r[i].t) {
      ct__free(r);
      return null_tensor(i);
    } else if (r[i].kind < CT_INDEX_INT || r[i].kind > CT_INDEX_NUMBER)
      bad = "unknown item kind";
    if (bad) {
      ct__error(CT_ERR_VALUE, "ct_index: item %lld: %s", (long long)i, bad);
      ct__free(r);
      return false;
    }
  }
  *out = r;
  *nout = n;
  *tuple = n != 1;
  return true;
}
