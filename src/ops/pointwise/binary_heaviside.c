/* heaviside(input, values): 0 where input < 0, values where input == 0, 1 where input > 0 (NaN input: 0),
   as torch 1.13's heaviside_kernel computes `a == 0 ? b : static_cast<scalar_t>(a > 0)` for bool, the
   integers and the real floating dtypes (float16 and bfloat16 compare in float; values' element is
   stored back unchanged). torch's meta function refuses complex operands (an out= too) and operands (or an out=)
   of different dtypes before TensorIterator sees them, and its Python binding takes no number in either
   position. */
#include "kernels/cpu/loops.h"
#include "ops/pointwise/pw.h"

#define DEF_HEAVISIDE(E, T, CT, LD, ST) CT_BINARY_LOOP(heaviside_##E, T, CT, LD, T, ST, a == 0 ? b : (CT)(a > 0))
/* bool elements are read as bytes and normalised (CT_LDB): a bool view of a uint8 tensor may hold other
   bytes, and loading one as C bool is undefined */
DEF_HEAVISIDE(CT_BOOL, uint8_t, bool, CT_LDB, CT_ID)
CT_DT_INTEGRAL(DEF_HEAVISIDE)
CT_DT_FLOATING(DEF_HEAVISIDE)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(heaviside_##E),
static const ct_loop *const heaviside_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY)
                                                                      CT_DT_FLOATING(ENTRY)};
#undef ENTRY

/* The Python type a wrapped number came from, as the binding names it. */
static const char *number_type(const ct_tensor *t) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (dt == CT_BOOL) return "bool";
  switch (ct__dt(dt)->category) {
    case CT_CAT_FLOAT: return "float";
    case CT_CAT_COMPLEX: return "complex";
    default: return "int";
  }
}

/* torch's checks before TensorIterator: the binding's (no Python numbers), then the meta function's. */
static ct_status heaviside_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                               const void *args, ct_tensor **result) {
  if (result) *result = NULL;
  const ct_tensor *self = in[0], *values = in[1];
  if (self && values) {
    for (int i = inplace; i < 2; i++) {
      if (!ct_is_wrapped_number(in[i])) continue;
      ct__error(CT_ERR_TYPE, "heaviside%s(): argument '%s' (position %d) must be Tensor, not %s", inplace ? "_" : "",
                i ? "values" : "input", inplace ? i : i + 1, number_type(in[i]));
      return CT_ERR_TYPE;
    }
    if (ct__dt((ct_dtype)self->dtype)->category == CT_CAT_COMPLEX ||
        ct__dt((ct_dtype)values->dtype)->category == CT_CAT_COMPLEX ||
        (out && ct__dt((ct_dtype)out->dtype)->category == CT_CAT_COMPLEX)) {
      ct__error(CT_ERR_RUNTIME, "heaviside is not yet implemented for complex tensors.");
      return CT_ERR_RUNTIME;
    }
    if (self->dtype != values->dtype || (out && out->dtype != self->dtype)) {
      ct__error(CT_ERR_RUNTIME, "heaviside is not yet implemented for tensors with different dtypes.");
      return CT_ERR_RUNTIME;
    }
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}

/* torch 1.13 records heaviside's out= form as an in-place op on the out (a leaf out that requires grad is refused) */
const ct_pw_op ct__pw_op_heaviside = {
    CT_PW_OP_GRAD("heaviside", "heaviside_cpu", SAME, heaviside_loops, OUT_INPLACE), .run = heaviside_run};
