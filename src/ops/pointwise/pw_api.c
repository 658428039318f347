/* The public forms of the regular ops of include/ctorch/pointwise_ops.h, defined from the table: an op's
   forms hand their operands to its descriptor's route, an alias's forms call its target's. */
#include "ops/pointwise/pw.h"

static ct_status run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result) {
  /* the entry guard: a NULL operand first (named: positions are the C arguments', out first in an out=
     form, names torch's, self in place), then layout and device against the descriptor's rows (after
     autograd's out= check, as torch's VariableType runs before the backend's dispatch) */
  static const char *const names[2][2] = {{"input", "other"}, {"self", "other"}};
  bool out_form = !inplace && !result;
  if (out_form && !out) return ct__null_arg(1, "out");
  for (int i = 0; i < n_in; i++)
    if (!in[i]) return ct__null_arg((out_form ? 2 : 1) + i, i < 2 ? names[inplace][i] : NULL);
  if (out_form && op->op.grad == CT_OP_GRAD_DIFF) {
    const ct_tensor *ts[4] = {out, in[0], n_in > 1 ? in[1] : NULL, n_in > 2 ? in[2] : NULL};
    if (!ct__check_out_grad(op->op.name, ts, 4)) return CT_ERR_RUNTIME;
  }
  unsigned key = out_form ? ct__op_key(out) : 0u;
  for (int i = 0; i < n_in; i++) key |= ct__op_key(in[i]);
  if (!ct__op_accepts_key(&op->op, inplace ? op->aten_inplace : out_form ? op->aten_out : op->op.aten, key))
    return ct_last_error();
  if (inplace && op->meta_inplace_noop && (key >> 16) & (1u << CT_META)) return ct__pw_meta_inplace_noop(out);
  bool mark = out_form && op->op.grad == CT_OP_GRAD_OUT_INPLACE;
  if (mark && !ct__check_inplace(out)) return CT_ERR_RUNTIME;
  if (out_form && !ct__pw_out_device_ok(op->dev, out, in, n_in)) return ct_last_error();
  bool ref = op->dev == CT_PW_DEV_COPY && (!inplace || op->fn_over_out) && (key >> 16) & (1u << CT_META);
  ct_status s = ref ? ct__pw_ref_run(op, out, in, n_in, args, result)
                    : (op->run ? op->run : ct__pw_run)(op, out, in, n_in, inplace, args, result);
  if (mark && s == CT_OK) ct__grad_mark_out(out, in, n_in);
  return s;
}

static ct_tensor *unary(const ct_pw_op *op, const ct_tensor *t) {
  ct_tensor *r = NULL;
  run(op, NULL, &t, 1, false, NULL, &r);
  return r;
}
static ct_status unary_(const ct_pw_op *op, ct_tensor *self) {
  const ct_tensor *in[1] = {self};
  return run(op, self, in, 1, true, NULL, NULL);
}
static ct_status unary_out(const ct_pw_op *op, ct_tensor *out, const ct_tensor *t) {
  return run(op, out, &t, 1, false, NULL, NULL);
}

/* args: the alpha ops' options, NULL for the others */
static ct_tensor *binary(const ct_pw_op *op, const ct_tensor *a, const ct_tensor *b, const void *args) {
  const ct_tensor *in[2] = {a, b};
  ct_tensor *r = NULL;
  run(op, NULL, in, 2, false, args, &r);
  return r;
}
static ct_status binary_(const ct_pw_op *op, ct_tensor *self, const ct_tensor *other, const void *args) {
  const ct_tensor *in[2] = {self, other};
  return run(op, self, in, 2, true, args, NULL);
}
static ct_status binary_out(const ct_pw_op *op, ct_tensor *out, const ct_tensor *a, const ct_tensor *b,
                            const void *args) {
  const ct_tensor *in[2] = {a, b};
  return run(op, out, in, 2, false, args, NULL);
}

/* ---- an op's forms, from its descriptor ct__pw_op_<name> ---- */
#define OP_UNARY_FN(n) \
  ct_tensor *ct_##n(const ct_tensor *t) { return unary(&ct__pw_op_##n, t); }
#define OP_UNARY_INPLACE(n) \
  ct_status ct_##n##_(ct_tensor *self) { return unary_(&ct__pw_op_##n, self); }
#define OP_UNARY_OUT(n) \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *t) { return unary_out(&ct__pw_op_##n, out, t); }
#define OP_BINARY_FN(n) \
  ct_tensor *ct_##n(const ct_tensor *a, const ct_tensor *b) { return binary(&ct__pw_op_##n, a, b, NULL); }
#define OP_BINARY_INPLACE(n)                                       \
  ct_status ct_##n##_(ct_tensor *self, const ct_tensor *other) { \
    return binary_(&ct__pw_op_##n, self, other, NULL);             \
  }
#define OP_BINARY_OUT(n)                                                           \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) { \
    return binary_out(&ct__pw_op_##n, out, a, b, NULL);                            \
  }
#define OP_ALPHA(n)                                                                         \
  ct_tensor *ct_##n(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *opts) {    \
    return binary(&ct__pw_op_##n, a, b, opts);                                              \
  }                                                                                         \
  ct_status ct_##n##_(ct_tensor *self, const ct_tensor *other, const ct_alpha_opts *opts) { \
    return binary_(&ct__pw_op_##n, self, other, opts);                                      \
  }                                                                                         \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b,            \
                         const ct_alpha_opts *opts) {                                       \
    return binary_out(&ct__pw_op_##n, out, a, b, opts);                                     \
  }
#define OP_FORMS_UNARY(n) OP_UNARY_FN(n) OP_UNARY_INPLACE(n) OP_UNARY_OUT(n)
#define OP_FORMS_UNARY_NO_INPLACE(n) OP_UNARY_FN(n) OP_UNARY_OUT(n)
#define OP_FORMS_BINARY(n) OP_BINARY_FN(n) OP_BINARY_INPLACE(n) OP_BINARY_OUT(n)
#define OP_FORMS_BINARY_NO_INPLACE(n) OP_BINARY_FN(n) OP_BINARY_OUT(n)
#define OP_FORMS_ALPHA(n) OP_ALPHA(n)
#define DEFINE_OP(name, form, torch, kind) OP_FORMS_##form(name)
CT_POINTWISE_OPS(DEFINE_OP, CT_POINTWISE_SKIP, CT_POINTWISE_SKIP)

/* ---- an alias's forms: calls of its target's ---- */
#define ALIAS_UNARY_FN(n, t) \
  ct_tensor *ct_##n(const ct_tensor *x) { return ct_##t(x); }
#define ALIAS_UNARY_INPLACE(n, t) \
  ct_status ct_##n##_(ct_tensor *self) { return ct_##t##_(self); }
#define ALIAS_UNARY_OUT(n, t) \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *x) { return ct_##t##_out(out, x); }
#define ALIAS_BINARY_FN(n, t) \
  ct_tensor *ct_##n(const ct_tensor *a, const ct_tensor *b) { return ct_##t(a, b); }
#define ALIAS_BINARY_INPLACE(n, t) \
  ct_status ct_##n##_(ct_tensor *self, const ct_tensor *other) { return ct_##t##_(self, other); }
#define ALIAS_BINARY_OUT(n, t)                                                  \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) { \
    return ct_##t##_out(out, a, b);                                             \
  }
#define ALIAS_ALPHA(n, t)                                                                                  \
  ct_tensor *ct_##n(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *opts) {                  \
    return ct_##t(a, b, opts);                                                                             \
  }                                                                                                        \
  ct_status ct_##n##_(ct_tensor *self, const ct_tensor *other, const ct_alpha_opts *opts) {               \
    return ct_##t##_(self, other, opts);                                                                   \
  }                                                                                                        \
  ct_status ct_##n##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *opts) { \
    return ct_##t##_out(out, a, b, opts);                                                                  \
  }
#define ALIAS_FORMS_UNARY(n, t) ALIAS_UNARY_FN(n, t) ALIAS_UNARY_INPLACE(n, t) ALIAS_UNARY_OUT(n, t)
#define ALIAS_FORMS_UNARY_NO_INPLACE(n, t) ALIAS_UNARY_FN(n, t) ALIAS_UNARY_OUT(n, t)
#define ALIAS_FORMS_BINARY(n, t) ALIAS_BINARY_FN(n, t) ALIAS_BINARY_INPLACE(n, t) ALIAS_BINARY_OUT(n, t)
#define ALIAS_FORMS_BINARY_NO_INPLACE(n, t) ALIAS_BINARY_FN(n, t) ALIAS_BINARY_OUT(n, t)
#define ALIAS_FORMS_ALPHA(n, t) ALIAS_ALPHA(n, t)
#define DEFINE_ALIAS(name, form, torch, target) ALIAS_FORMS_##form(name, target)
CT_POINTWISE_OPS(CT_POINTWISE_SKIP, DEFINE_ALIAS, CT_POINTWISE_SKIP)
