/* Thread-local error state. */
#include <stdio.h>

#include "core/internal.h"

/* Room for torch's longest messages: its dispatcher errors list every backend (about 4.8 KB). */
#define CT_ERROR_CAPACITY 8192

static _Thread_local ct_error_kind tl_kind = CT_OK;
static _Thread_local char tl_message[CT_ERROR_CAPACITY];

void ct__error(ct_error_kind kind, const char *fmt, ...) {
  /* Format into a temporary first: a message may quote the previous one. */
  char tmp[CT_ERROR_CAPACITY];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  size_t used = len < 0 ? 0 : (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1;
  tmp[used] = '\0';
  memcpy(tl_message, tmp, used + 1);
  tl_kind = kind;
}

ct_error_kind ct_last_error(void) { return tl_kind; }

ct_status ct__null_status(void) {
  if (tl_kind == CT_OK) ct__error(CT_ERR_VALUE, "a NULL tensor was passed where a tensor is required");
  return tl_kind;
}
const char *ct_last_error_message(void) { return tl_kind == CT_OK ? "" : tl_message; }

void ct_clear_error(void) {
  tl_kind = CT_OK;
  tl_message[0] = '\0';
}

const char *ct_error_kind_name(ct_error_kind kind) {
  static const char *const names[] = {"", "RuntimeError", "ValueError", "TypeError", "IndexError",
                                      "NotImplementedError", "OutOfMemoryError", "OSError",
                                      "OverflowError"};
  return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "Error";
}

bool ct__check_dtype(ct_dtype d) {
  if (ct__dtype_valid(d)) return true;
  ct__error(CT_ERR_TYPE, "invalid dtype value %d", (int)d);
  return false;
}

int ct__fmt_int_list(char *buf, size_t n, int64_t count, const int64_t *vals) {
  /* buf must be non-NULL with n > 0; output is truncated to fit. Returns the length written. */
  size_t used = 0;
  buf[0] = '\0';
  used += (size_t)snprintf(buf, n, "[");
  for (int64_t i = 0; i < count && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, i ? ", %lld" : "%lld", (long long)vals[i]);
  if (used < n) used += (size_t)snprintf(buf + used, n - used, "]");
  return (int)(used < n ? used : n - 1);
}
