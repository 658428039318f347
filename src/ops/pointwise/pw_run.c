/* The generic entry of every pointwise op: the op's promotion kind becomes the engine's configuration. */
#include "ops/pointwise/pw.h"

static void configure(const ct_pw_op *op, ct_iter_config *cfg, const ct_tensor *out) {
  switch (op->kind) {
    case CT_PW_SAME:
      cfg->check_all_same_dtype = true;
      break;
    case CT_PW_FLOAT:
    case CT_PW_COMMON_FLOAT:
      cfg->promote_int_to_float = true;
      /* fallthrough */
    case CT_PW_COMMON:
      cfg->promote_inputs = true;
      cfg->cast_to_outputs = true;
      cfg->enforce_safe_cast = true;
      break;
    case CT_PW_COMPARE:
      cfg->promote_inputs = true;
      cfg->static_out_dtype = CT_BOOL;
      cfg->loop_out_dtype = CT_BOOL;
      cfg->cast_to_outputs = out && out->dtype != CT_BOOL;
      break;
    case CT_PW_PREDICATE:
      cfg->static_out_dtype = CT_BOOL;
      cfg->loop_out_dtype = CT_BOOL;
      break;
  }
}

typedef struct pw_call {
  const ct_pw_op *op;
  const ct_tensor *const *in;
  const void *args;
} pw_call;

static bool validate(ct_dtype common, const void *arg) {
  const pw_call *c = arg;
  if (c->op->check && !c->op->check(common, c->in, c->args)) return false;
  if (!c->op->loops[common]) {
    ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", c->op->kernel, ct__dt(common)->scalar_name);
    return false;
  }
  return true;
}

ct_status ct__pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result) {
  if (result) *result = NULL;
  for (int i = 0; i < n_in; i++)
    if (!in[i]) return ct__null_status();
  if (!result && !out) return ct__null_status();
  ct_iter_config cfg = {.n_out = 1, .n_in = n_in, .check_mem_overlap = true, .no_resize_outputs = inplace};
  cfg.out[0] = out;
  for (int i = 0; i < n_in; i++) cfg.in[i] = in[i];
  configure(op, &cfg, out);
  pw_call call = {op, in, args};
  cfg.validate = validate;
  cfg.validate_arg = &call;
  ct_iter it;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  ct_pw_ctx ctx;
  if (op->prepare) op->prepare(it.common, args, &ctx);
  ct__iter_for_each(&it, op->loops[it.common], &ctx);
  if (result) *result = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}
