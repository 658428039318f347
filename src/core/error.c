/* Thread-local error state, the debug mode and the error handler. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error_origin.h"
#include "core/internal.h"

/* Room for torch's longest messages: its dispatcher errors list every backend (about 4.8 KB). */
#define CT_ERROR_CAPACITY 8192
/* Frames kept of the stack that recorded the error: the library's own depth is a few tens at most. */
#define CT_ERROR_FRAMES 64

static _Thread_local ct_error_kind tl_kind = CT_OK;
static _Thread_local char tl_message[CT_ERROR_CAPACITY];
/* The recording stack, symbolized only when asked for (ct_last_error_function, the debug mode, a
   handler): capturing costs about a microsecond, looking symbols up more. */
static _Thread_local void *tl_frames[CT_ERROR_FRAMES];
static _Thread_local int tl_nframes;
static _Thread_local const char *tl_function;
static _Thread_local bool tl_function_known;
static _Thread_local bool tl_in_handler;

_Atomic int ct__debug_mode;

/* CTORCH_DEBUG=1 (any value but "" and "0") turns the debug mode on from the start. */
__attribute__((constructor)) static void debug_from_environment(void) {
  const char *v = getenv("CTORCH_DEBUG");
  if (v && v[0] && strcmp(v, "0") != 0) atomic_store(&ct__debug_mode, 1);
}

void ct_set_debug(bool on) { atomic_store(&ct__debug_mode, on ? 1 : 0); }
bool ct_debug_enabled(void) { return atomic_load_explicit(&ct__debug_mode, memory_order_relaxed) != 0; }

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static ct_error_handler handler_fn;
static void *handler_user;

void ct_set_error_handler(ct_error_handler fn, void *user) {
  pthread_mutex_lock(&handler_lock);
  handler_fn = fn;
  handler_user = user;
  pthread_mutex_unlock(&handler_lock);
}

static const char *recorded_function(void) {
  if (!tl_function_known) {
    tl_function = ct__origin_function(tl_frames, tl_nframes);
    tl_function_known = true;
  }
  return tl_function ? tl_function : "";
}

const char *ct_last_error_function(void) { return tl_kind == CT_OK ? "" : recorded_function(); }

/* What the debug mode and the handler do once an error is recorded. A handler that itself makes a
   failing call is not called again for it (nor is the debug print repeated). */
static void announce(void) {
  if (tl_in_handler) return;
  bool debug = ct_debug_enabled();
  pthread_mutex_lock(&handler_lock);
  ct_error_handler fn = handler_fn;
  void *user = handler_user;
  pthread_mutex_unlock(&handler_lock);
  if (!debug && !fn) return;
  tl_in_handler = true;
  const char *where = recorded_function();
  if (debug) {
    fprintf(stderr, "ctorch: %s in %s: %s\n", ct_error_kind_name(tl_kind), where[0] ? where : "(unknown function)",
            tl_message);
    ct__origin_print(tl_frames, tl_nframes);
    fflush(stderr);
  }
  if (fn) fn(tl_kind, where, tl_message, user);
  tl_in_handler = false;
}

/* Records kind and the formatted message, prefixed with "function: " when `prefix` and the failing
   public function is known. */
static void record(ct_error_kind kind, bool prefix, const char *fmt, va_list ap) {
  /* Format into a temporary first: a message may quote the previous one. */
  char tmp[CT_ERROR_CAPACITY];
  int len = vsnprintf(tmp, sizeof tmp, fmt, ap);
  size_t used = len < 0 ? 0 : (size_t)len < sizeof tmp ? (size_t)len : sizeof tmp - 1;
  tmp[used] = '\0';
  tl_nframes = ct__origin_capture(tl_frames, CT_ERROR_FRAMES);
  tl_function_known = false;
  const char *fn = prefix ? recorded_function() : "";
  size_t pre = fn[0] ? strlen(fn) + 2 : 0;
  if (pre + used >= sizeof tl_message) used = sizeof tl_message - 1 - pre; /* truncated, as vsnprintf does */
  if (pre) {
    memcpy(tl_message, fn, pre - 2);
    memcpy(tl_message + pre - 2, ": ", 2);
  }
  memcpy(tl_message + pre, tmp, used);
  tl_message[pre + used] = '\0';
  tl_kind = kind;
  announce();
}

void ct__error(ct_error_kind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(kind, false, fmt, ap);
  va_end(ap);
}

static void record_prefixed(ct_error_kind kind, const char *fmt, ...) CT_PRINTF(2, 3);
static void record_prefixed(ct_error_kind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(kind, true, fmt, ap);
  va_end(ap);
}

ct_status ct__null_arg(int position, const char *name) {
  if (tl_kind != CT_OK) return tl_kind;
  if (name)
    record_prefixed(CT_ERR_VALUE, "argument '%s' (position %d) is NULL", name, position);
  else
    record_prefixed(CT_ERR_VALUE, "argument %d is NULL", position);
  return tl_kind;
}

void *ct__null_ptr_arg(const char *name) {
  if (tl_kind == CT_OK) record_prefixed(CT_ERR_VALUE, "argument '%s' is NULL", name);
  return NULL;
}

ct_status ct__null_named_status(const char *names, int index) {
  if (tl_kind != CT_OK) return tl_kind;
  const char *p = names; /* the index-th name of "a, b, c" */
  for (int i = 0; i < index && p; i++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  while (p && *p == ' ') p++;
  size_t n = p ? strcspn(p, ", ") : 0;
  if (n == 0) return ct__null_status();
  record_prefixed(CT_ERR_VALUE, "argument '%.*s' is NULL", (int)n, p);
  return tl_kind;
}

ct_error_kind ct_last_error(void) { return tl_kind; }

ct_status ct__null_status(void) {
  if (tl_kind == CT_OK) record_prefixed(CT_ERR_VALUE, "a NULL tensor was passed where a tensor is required");
  return tl_kind;
}
const char *ct_last_error_message(void) { return tl_kind == CT_OK ? "" : tl_message; }

void ct_clear_error(void) {
  tl_kind = CT_OK;
  tl_nframes = 0;
  tl_function_known = false;
  tl_message[0] = '\0';
}

const char *ct_error_kind_name(ct_error_kind kind) {
  static const char *const names[] = {"", "RuntimeError", "ValueError", "TypeError", "IndexError",
                                      "NotImplementedError", "OutOfMemoryError", "OSError",
                                      "OverflowError", "_LinAlgError"};
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
