/* Calls that must not compile (tests/compile_fail/run.sh builds this file once per case, -DCASE_<name>),
   each the mistake a PyTorch user makes in C; CASE_none is the file's own control: with no case it
   compiles cleanly under -Wall -Wextra -Wpedantic -Werror, so each failure comes from its case. */
#include <ctorch.h>

void misuse(ct_tensor *x, ct_tensor *y, const ct_tensor *cx);
void misuse(ct_tensor *x, ct_tensor *y, const ct_tensor *cx) {
  ct_tensor *v = NULL, *i = NULL;
  bool ok = false;
  (void)x, (void)y, (void)cx, (void)v, (void)i, (void)ok;
#if defined(CASE_mean_dim_as_options)
  ct_mean(x, 0); /* torch.mean(x, 0): 0 would be a NULL options pointer (every dim) */
#elif defined(CASE_sum_dim_as_options)
  ct_sum(x, 1); /* torch.sum(x, 1) */
#elif defined(CASE_max_dim_keepdim_positional)
  ct_max_dim(x, 1, false, &v, &i); /* the old signature: keepdim is an option now */
#elif defined(CASE_options_of_another_op)
  ct_sum(x, &(ct_var_opts){.keepdim = true});
#elif defined(CASE_number_for_tensor)
  ct_sum(2, NULL);
#elif defined(CASE_number_to_unary_op)
  ct_sqrt(2.0); /* torch.sqrt(2.0) is a TypeError */
#elif defined(CASE_scan_options_zero)
  ct_cumsum(x, 0, 0);
#elif defined(CASE_var_mean_options_first)
  ct_var_mean(x, NULL, &v, &i); /* the old order: options come last */
#elif defined(CASE_allclose_options_first)
  ct_allclose(x, y, NULL, &ok);
#elif defined(CASE_tensor_as_fill_value)
  ct_full(CT_SHAPE(2), x, NULL);
#elif defined(CASE_shape_as_operand)
  ct_mul(x, CT_SHAPE(2));
#elif defined(CASE_in_place_on_const)
  ct_mul_(cx, 2);
#elif defined(CASE_factory_options_of_reduction)
  ct_zeros(CT_SHAPE(2), &(ct_reduce_opts){.keepdim = true});
#elif defined(CASE_random_options_zero)
  ct_randn(CT_SHAPE(2), 0);
#elif defined(CASE_alpha_as_number)
  ct_add(x, y, 2); /* torch.add(x, y, alpha=2) is .alpha in ct_alpha_opts */
#elif defined(CASE_rounding_mode_as_string)
  ct_div(x, y, "floor");
#elif defined(CASE_to_options_zero)
  ct_to(x, 0);
#elif defined(CASE_arange_tensor_bound)
  ct_arange(0, x, 1, NULL);
#elif defined(CASE_literal_of_tensor)
  CT_TENSOR(1, x);
#elif defined(CASE_cummax_options)
  ct_cummax(x, 0, NULL, &v, &i);
#elif defined(CASE_none)
#else
#error "unknown case"
#endif
}
