/* Errors that say where: ct_last_error_function() names the public function the user called (the
   outermost ct_ frame, so nested public calls report the outer one), NULL arguments are named, the
   error handler and the debug mode's report. Built twice: linked to the static library with -rdynamic
   (test_error_origin) and to the shared library (test_error_origin_shared, CT_TEST_SHARED). */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

/* A program's own function named like a ctorch one: never taken for the library's (its object is not
   the library's) when the library is shared. */
ct_tensor *ct_user_helper(const ct_tensor *t);
ct_tensor *ct_user_helper(const ct_tensor *t) {
  ct_tensor *r = ct_transpose(t, 0, 5);
  return r;
}

typedef struct {
  const char *function; /* expected */
  ct_error_kind kind;
} expect;

static void check_origin(const char *call, bool failed, expect e) {
  if (!failed) fprintf(stderr, "%s did not fail\n", call);
  CHECK(failed);
  if (strcmp(ct_last_error_function(), e.function) != 0)
    fprintf(stderr, "%s: reported %s, expected %s (%s)\n", call, ct_last_error_function(), e.function,
            ct_last_error_message());
  CHECK_STR(ct_last_error_function(), e.function);
  CHECK_EQ_INT(ct_last_error(), e.kind);
  ct_clear_error();
  CHECK_STR(ct_last_error_function(), "");
}
#define ORIGIN(call, fn, kind) check_origin(#call, (call), (expect){fn, kind})

static void test_table(void) {
  ct_scope_begin();
  ct_tensor *x = ct_zeros(CT_SHAPE(2, 3), NULL);
  ct_tensor *leaf = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.requires_grad = true});
  ct_tensor *meta = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.device = CT_DEVICE_META});
  ct_tensor *i8 = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT8});
  ct_tensor *v = NULL, *ix = NULL;
  int64_t n;
  ct_device dev;
  ORIGIN(ct_transpose(x, 0, 2) == NULL, "ct_transpose", CT_ERR_INDEX);
  ORIGIN(ct_view(x, CT_SHAPE(4)) == NULL, "ct_view", CT_ERR_RUNTIME);
  ORIGIN(ct_reshape(x, CT_SHAPE(4)) == NULL, "ct_reshape", CT_ERR_RUNTIME);
  ORIGIN(ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(3)}) == NULL, "ct_sum", CT_ERR_INDEX);
  ORIGIN(ct_std(x, &(ct_var_opts){.dims = CT_DIMS(3)}) == NULL, "ct_std", CT_ERR_INDEX);
  ORIGIN(ct_var(x, &(ct_var_opts){.dims = CT_DIMS(3)}) == NULL, "ct_var", CT_ERR_INDEX);
  ORIGIN(ct_max_dim(x, 4, &v, &ix, NULL) != CT_OK, "ct_max_dim", CT_ERR_INDEX);
  ORIGIN(ct_add_(leaf, leaf, NULL) != CT_OK, "ct_add_", CT_ERR_RUNTIME);
  ORIGIN(ct_mul(x, ct_zeros(CT_SHAPE(4), NULL)) == NULL, "ct_mul", CT_ERR_RUNTIME);
  ORIGIN(ct_empty(CT_SHAPE(-1), NULL) == NULL, "ct_empty", CT_ERR_RUNTIME);
  ORIGIN(ct_zeros(CT_SHAPE(-1), NULL) == NULL, "ct_zeros", CT_ERR_RUNTIME);
  ORIGIN(ct_full(CT_SHAPE(2), ct_scalar_int(300), &(ct_tensor_opts){.dtype = CT_INT8}) == NULL, "ct_full",
         CT_ERR_RUNTIME);
  ORIGIN(ct_size_at(x, 2, &n) != CT_OK, "ct_size_at", CT_ERR_INDEX);
  ORIGIN(ct_size(x, 2) == -1, "ct_size", CT_ERR_INDEX);
  ORIGIN(ct_device_parse("foo", &dev) != CT_OK, "ct_device_parse", CT_ERR_RUNTIME);
  ORIGIN(ct_device_make("cuda", -1, &dev) != CT_OK, "ct_device_make", CT_ERR_RUNTIME);
  ORIGIN(ct_fill_(i8, ct_scalar_int(300)) != CT_OK, "ct_fill_", CT_ERR_RUNTIME);
  ORIGIN(ct_zero_(leaf) != CT_OK, "ct_zero_", CT_ERR_RUNTIME);
  /* public functions that end in a call of another (a tail call without -fno-optimize-sibling-calls) */
  ORIGIN(ct_to_dtype(x, (ct_dtype)99) == NULL, "ct_to_dtype", CT_ERR_TYPE);
  ORIGIN(ct_cpu(meta) == NULL, "ct_cpu", CT_ERR_NOT_IMPLEMENTED);
  ORIGIN(ct_tolist_repr(meta) == NULL, "ct_tolist_repr", CT_ERR_NOT_IMPLEMENTED);
  ORIGIN(ct_to_other(meta, x) == NULL, "ct_to_other", CT_ERR_NOT_IMPLEMENTED);
  /* a chain: the first failure's function stays */
  ORIGIN(ct_sum(ct_transpose(x, 0, 9), NULL) == NULL, "ct_transpose", CT_ERR_INDEX);
#ifdef CT_TEST_SHARED
  ORIGIN(ct_user_helper(x) == NULL, "ct_transpose", CT_ERR_INDEX);
#endif
  ct_scope_end();
}

/* A NULL argument with no error pending names itself; with one pending, the first cause stays. */
static void test_null_arguments(void) {
  ct_tensor *x = ct_zeros(CT_SHAPE(2), NULL);
  CHECK(ct_mul(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul: argument 'other' (position 2) is NULL");
  CHECK(ct_mul(NULL, x) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul: argument 'input' (position 1) is NULL");
  CHECK_EQ_INT(ct_mul_(x, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul_: argument 'other' (position 2) is NULL");
  CHECK_EQ_INT(ct_mul_(NULL, x), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul_: argument 'self' (position 1) is NULL");
  CHECK_EQ_INT(ct_mul_out(NULL, x, x), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul_out: argument 'out' (position 1) is NULL");
  CHECK_EQ_INT(ct_mul_out(x, x, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_mul_out: argument 'other' (position 3) is NULL");
  CHECK(ct_add(x, NULL, NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_add: argument 'other' (position 2) is NULL");
  CHECK(ct_exp(NULL) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "ct_exp: argument 'input' (position 1) is NULL");
  CHECK_EQ_INT(ct_item(NULL, NULL), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "ct_item: argument 't' is NULL");
  /* a pending error is the chain's first cause */
  CHECK(ct_transpose(x, 0, 3) == NULL);
  CHECK(ct_mul(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got 3)");
  ct_release(x);
}

typedef struct {
  int calls;
  ct_error_kind kind;
  char function[64], message[128];
} seen;

static void remember(ct_error_kind kind, const char *function, const char *message, void *user) {
  seen *s = user;
  s->calls++;
  s->kind = kind;
  snprintf(s->function, sizeof s->function, "%s", function);
  snprintf(s->message, sizeof s->message, "%s", message);
  /* a failing call inside the handler does not call it again */
  ct_empty(CT_SHAPE(-2), NULL);
}

static void test_handler(void) {
  seen s = {0};
  ct_set_error_handler(remember, &s);
  ct_tensor *x = ct_zeros(CT_SHAPE(2), NULL);
  CHECK(ct_unsqueeze(x, 4) == NULL);
  CHECK_EQ_INT(s.calls, 1);
  CHECK_EQ_INT(s.kind, CT_ERR_INDEX);
  CHECK_STR(s.function, "ct_unsqueeze");
  CHECK_STR(s.message, "Dimension out of range (expected to be in range of [-2, 1], but got 4)");
  /* the handler's own failure is what is recorded now */
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -2: [-2]");
  ct_set_error_handler(NULL, NULL);
  CHECK(ct_unsqueeze(x, 4) == NULL);
  CHECK_EQ_INT(s.calls, 1);
  ct_clear_error();
  ct_release(x);
}

/* The debug mode prints the error with its function and a backtrace when it is recorded. */
static void test_debug_print(void) {
  char path[] = "/tmp/ct_debug_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  bool was = ct_debug_enabled();
  ct_set_debug(true);
  CHECK(ct_debug_enabled());
  ct_tensor *x = ct_zeros(CT_SHAPE(2), NULL);
  CHECK(ct_narrow(x, 0, 1, 5) == NULL);
  ct_set_debug(was);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char text[4096] = {0};
  FILE *f = fopen(path, "r");
  size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  close(fd);
  unlink(path);
  CHECK(got > 0);
  const char *head = "ctorch: RuntimeError in ct_narrow: start (1) + length (5) exceeds dimension size (2).\n";
  if (strncmp(text, head, strlen(head)) != 0) fprintf(stderr, "debug output:\n%s\n", text);
  CHECK(strncmp(text, head, strlen(head)) == 0);
  /* then the backtrace, which names the function among its frames */
  CHECK(strstr(text + strlen(head), "ct_narrow") != NULL);
  ct_clear_error();
  ct_release(x);
}

int main(void) {
  test_table();
  test_null_arguments();
  test_handler();
  test_debug_print();
  return TEST_SUMMARY();
}
