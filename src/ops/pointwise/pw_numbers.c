/* The calls behind the C forms of the binary ops that take Python numbers (include/ctorch/args.h):
   ct_mul(0.1, t) wraps 0.1 as torch wraps a Python number, calls ct_mul and releases the wrapped
   number, which no scope ever owns (so nothing leaks or is released twice, inside a scope or not). */
#include "ctorch/args.h"
#include "ops/create_internal.h"

static ct_arg tensor_arg(const ct_tensor *t) {
  ct_arg a = {t, {(ct_scalar_kind)0, {false}}, false};
  return a;
}

/* The tensor an operand stands for: the tensor itself, or a new wrapped number (*tmp, released by
   the caller). False after recording the error of a number ctorch cannot hold (ct__check_scalar). */
static bool operand(ct_arg a, const ct_tensor **t, ct_tensor **tmp) {
  *tmp = NULL;
  if (!a.is_number) {
    *t = a.tensor;
    return true;
  }
  *tmp = ct__wrapped_scalar(a.number);
  *t = *tmp;
  return *tmp != NULL;
}

/* Both operands as tensors, or false (nothing left to release). */
static bool operands(ct_arg a, ct_arg b, const ct_tensor **ta, const ct_tensor **tb, ct_tensor **tmp) {
  if (!operand(a, ta, &tmp[0])) return false;
  if (operand(b, tb, &tmp[1])) return true;
  ct_release(tmp[0]);
  return false;
}

#define RELEASE2(tmp) (ct_release((tmp)[0]), ct_release((tmp)[1]))

ct_tensor *ct_call_binary(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *), ct_arg a, ct_arg b) {
  const ct_tensor *ta, *tb;
  ct_tensor *tmp[2];
  if (!operands(a, b, &ta, &tb, tmp)) return NULL;
  ct_tensor *r = fn(ta, tb);
  RELEASE2(tmp);
  return r;
}

ct_status ct_call_binary_(ct_status (*fn)(ct_tensor *, const ct_tensor *), ct_tensor *self, ct_arg other) {
  const ct_tensor *t;
  ct_tensor *tmp;
  if (!operand(other, &t, &tmp)) return ct_last_error();
  ct_status st = fn(self, t);
  ct_release(tmp);
  return st;
}

ct_status ct_call_binary_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *), ct_tensor *out,
                             ct_arg a, ct_arg b) {
  const ct_tensor *ta, *tb;
  ct_tensor *tmp[2];
  if (!operands(a, b, &ta, &tb, tmp)) return ct_last_error();
  ct_status st = fn(out, ta, tb);
  RELEASE2(tmp);
  return st;
}

/* Three operands: the numbers among them wrapped, in order (on a failure the ones made are released). */
static bool operands3(const ct_arg *a, const ct_tensor **t, ct_tensor **tmp) {
  for (int i = 0; i < 3; i++) {
    if (operand(a[i], &t[i], &tmp[i])) continue;
    while (i-- > 0) ct_release(tmp[i]);
    return false;
  }
  return true;
}
#define RELEASE3(tmp) (ct_release((tmp)[0]), ct_release((tmp)[1]), ct_release((tmp)[2]))

ct_tensor *ct_call_ternary(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *, const ct_tensor *), ct_arg a,
                           ct_arg b, ct_arg c) {
  const ct_arg args[3] = {a, b, c};
  const ct_tensor *t[3];
  ct_tensor *tmp[3];
  if (!operands3(args, t, tmp)) return NULL;
  ct_tensor *r = fn(t[0], t[1], t[2]);
  RELEASE3(tmp);
  return r;
}

ct_status ct_call_ternary_(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *), ct_tensor *self,
                           ct_arg b, ct_arg c) {
  const ct_arg args[3] = {tensor_arg(self), b, c};
  const ct_tensor *t[3];
  ct_tensor *tmp[3];
  if (!operands3(args, t, tmp)) return ct_last_error();
  ct_status st = fn(self, t[1], t[2]);
  RELEASE3(tmp);
  return st;
}

ct_status ct_call_ternary_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *, const ct_tensor *),
                              ct_tensor *out, ct_arg a, ct_arg b, ct_arg c) {
  const ct_arg args[3] = {a, b, c};
  const ct_tensor *t[3];
  ct_tensor *tmp[3];
  if (!operands3(args, t, tmp)) return ct_last_error();
  ct_status st = fn(out, t[0], t[1], t[2]);
  RELEASE3(tmp);
  return st;
}

/* The same with the op's options passed on: alpha (add, sub) and rounding_mode (div). */
#define CALLS_WITH_OPTS(kind, opts_t)                                                                      \
  ct_tensor *ct_call_##kind(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *, const opts_t *), ct_arg a, \
                            ct_arg b, const opts_t *opts) {                                                 \
    const ct_tensor *ta, *tb;                                                                              \
    ct_tensor *tmp[2];                                                                                     \
    if (!operands(a, b, &ta, &tb, tmp)) return NULL;                                                       \
    ct_tensor *r = fn(ta, tb, opts);                                                                       \
    RELEASE2(tmp);                                                                                         \
    return r;                                                                                              \
  }                                                                                                        \
  ct_status ct_call_##kind##_(ct_status (*fn)(ct_tensor *, const ct_tensor *, const opts_t *), ct_tensor *self, \
                              ct_arg other, const opts_t *opts) {                                          \
    const ct_tensor *t;                                                                                    \
    ct_tensor *tmp;                                                                                        \
    if (!operand(other, &t, &tmp)) return ct_last_error();                                                 \
    ct_status st = fn(self, t, opts);                                                                      \
    ct_release(tmp);                                                                                       \
    return st;                                                                                             \
  }                                                                                                        \
  ct_status ct_call_##kind##_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *, const opts_t *), \
                                 ct_tensor *out, ct_arg a, ct_arg b, const opts_t *opts) {                 \
    const ct_tensor *ta, *tb;                                                                              \
    ct_tensor *tmp[2];                                                                                     \
    if (!operands(a, b, &ta, &tb, tmp)) return ct_last_error();                                            \
    ct_status st = fn(out, ta, tb, opts);                                                                  \
    RELEASE2(tmp);                                                                                         \
    return st;                                                                                             \
  }
CALLS_WITH_OPTS(alpha, struct ct_alpha_opts)
CALLS_WITH_OPTS(div, struct ct_div_opts)
