/* The C short forms with Python numbers (include/ctorch/args.h): who owns what. A wrapped number lives
   only for its call, inside a scope or not, so nothing leaks (LSan in make asan-check) and nothing is
   released twice; results follow the usual rule (outside a scope the caller owns them). The values and
   dtypes against torch are checked by tests/diff/numbers_diff.py; the few here are torch 1.13's. */
#include <stdint.h>

#include "check.h"

static double item(const ct_tensor *t) {
  double v = -1;
  return ct_item_double(t, &v) == CT_OK ? v : -1;
}

static void outside_scope(void) {
  ct_tensor *i = CT_TENSOR(1, 2, 3);
  ct_tensor *r = ct_mul(i, 0.5); /* torch.tensor([1, 2, 3]) * 0.5: tensor([0.5000, 1.0000, 1.5000]) */
  CHECK(r && ct_dtype_of(r) == CT_FLOAT32 && ct_refcount(r) == 1 && ct_refcount(i) == 1);
  ct_tensor *s = ct_sum(r, NULL);
  CHECK(item(s) == 3.0);
  CHECK(ct_mul_(i, 2) == CT_OK && ct_refcount(i) == 1);
  ct_tensor *o = ct_empty(CT_SHAPE(3), NULL);
  CHECK(ct_add_out(o, 1, i, NULL) == CT_OK && ct_refcount(o) == 1); /* 1 + i*2: [3, 5, 7] */
  ct_tensor *s2 = ct_sum(o, NULL);
  CHECK(item(s2) == 15.0);
  ct_release(r);
  ct_release(s);
  ct_release(o);
  ct_release(s2);
  ct_release(i);
}

static void inside_scope(void) {
  ct_scope_begin();
  ct_tensor *i = CT_TENSOR(1, 2, 3);
  ct_tensor *r = ct_sub(10, ct_pow(2, i), NULL); /* 10 - 2 ** i: tensor([8, 6, 2]) */
  CHECK(r && ct_dtype_of(r) == CT_INT64 && item(ct_sum(r, NULL)) == 16.0);
  ct_tensor *kept = ct_keep(ct_div(r, 4, &(ct_div_opts){.rounding_mode = "floor"})); /* [2, 1, 0] */
  ct_scope_end();
  CHECK(kept && ct_refcount(kept) == 1 && ct_dtype_of(kept) == CT_INT64);
  ct_tensor *s = ct_sum(kept, NULL);
  CHECK(item(s) == 3.0);
  ct_release(s);
  ct_release(kept);
}

static void failures(void) {
  ct_tensor *i = CT_TENSOR(1, 2);
  ct_clear_error();
  /* i * (2**64 - 1): RuntimeError: Overflow when unpacking long */
  CHECK(ct_mul(i, UINT64_MAX) == NULL && ct_last_error() == CT_ERR_RUNTIME);
  CHECK_STR(ct_last_error_message(), "Overflow when unpacking long");
  ct_clear_error();
  CHECK(ct_mul_(i, UINT64_MAX) == CT_ERR_RUNTIME);
  ct_clear_error();
  /* i.mul_(0.5): result type Float can't be cast to the desired output type Long; i unchanged */
  CHECK(ct_mul_(i, 0.5) == CT_ERR_RUNTIME);
  ct_tensor *s = ct_sum(i, NULL);
  CHECK(item(s) == 3.0);
  ct_clear_error();
  /* a NULL operand (a failed earlier call) gives NULL, and no wrapped number is left behind */
  CHECK(ct_mul(NULL, 2) == NULL && ct_add((ct_tensor *)NULL, 1.5, NULL) == NULL);
  ct_clear_error();
  ct_release(s);
  ct_release(i);
}

int main(void) {
  outside_scope();
  inside_scope();
  failures();
  return TEST_SUMMARY();
}
