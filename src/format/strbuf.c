/* The growable string the printers write into; allocation failures are remembered, not repeated. */
#include <stdio.h>
#include <stdlib.h>

#include "format/format_internal.h"

bool ct__sb_reserve(ct__strbuf *sb, size_t extra) {
  if (sb->failed) return false;
  if (sb->len + extra + 1 <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1) cap *= 2;
  char *p = ct__realloc(sb->data, cap);
  if (!p) {
    sb->failed = true;
    return false;
  }
  sb->data = p;
  sb->cap = cap;
  return true;
}

void ct__sb_append(ct__strbuf *sb, const char *s, size_t n) {
  if (!ct__sb_reserve(sb, n)) return;
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void ct__sb_puts(ct__strbuf *sb, const char *s) { ct__sb_append(sb, s, strlen(s)); }

void ct__sb_spaces(ct__strbuf *sb, int64_t n) {
  if (n <= 0 || !ct__sb_reserve(sb, (size_t)n)) return;
  memset(sb->data + sb->len, ' ', (size_t)n);
  sb->len += (size_t)n;
  sb->data[sb->len] = '\0';
}

void ct__sb_printf(ct__strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char tmp[256];
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof tmp) {
    ct__sb_append(sb, tmp, (size_t)n);
    return;
  }
  if (!ct__sb_reserve(sb, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  sb->len += (size_t)n;
}

void ct__sb_py_tuple(ct__strbuf *sb, int64_t n, const int64_t *vals) {
  ct__sb_puts(sb, "(");
  for (int64_t i = 0; i < n; i++) ct__sb_printf(sb, i ? ", %lld" : "%lld", (long long)vals[i]);
  ct__sb_puts(sb, n == 1 ? ",)" : ")");
}

void ct__sb_free(ct__strbuf *sb) {
  ct__free(sb->data);
  *sb = (ct__strbuf){0};
}
