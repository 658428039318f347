/* The right forms of tests/compile_fail/misuse.c's calls, and the short forms: this file must compile
   with -Wall -Wextra -Wpedantic -Werror (tests/compile_fail/run.sh). */
#include <ctorch.h>

void control(ct_tensor *x, ct_tensor *y, const ct_tensor *cx);
void control(ct_tensor *x, ct_tensor *y, const ct_tensor *cx) {
  ct_tensor *v = NULL, *i = NULL;
  bool ok = false;
  int64_t k = 5;
  unsigned char u8 = 3;
  bool flag = true;
  float f = 0.5f;
  double _Complex z = 1.0;
  const ct_reduce_opts keep = {.keepdim = true};
  ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(0, 1), .keepdim = true, .dtype = CT_FLOAT64});
  ct_sum(cx, &keep);
  ct_sum(x, NULL);
  ct_max_dim(x, 1, &v, &i, &(ct_keepdim_opts){.keepdim = true});
  ct_max_dim(x, 1, &v, NULL, NULL);
  ct_var(x, &(ct_var_opts){.dims = CT_DIMS(0), .correction = CT_NUM(0)});
  ct_var_mean(x, &v, &i, NULL);
  ct_allclose(x, y, &ok, &(ct_isclose_opts){.equal_nan = true});
  ct_cumsum(x, 0, NULL);
  ct_cummax(x, 0, &v, &i);
  ct_sqrt(x);
  ct_sqrt(cx);
  ct_mul(x, y);
  ct_mul(0.1, x);
  ct_mul(x, 2);
  ct_mul(k, x);
  ct_mul(x, u8);
  ct_add(x, flag, NULL);
  ct_add(x, f, &(ct_alpha_opts){.alpha = CT_NUM(2)});
  ct_sub(1, x, NULL);
  ct_mul(x, z);
  ct_mul_(x, 2);
  ct_mul_out(x, y, 3.5);
  ct_div(x, 2, &(ct_div_opts){.rounding_mode = "floor"});
  ct_pow(x, 2);
  ct_pow(2, x);
  ct_eq(x, 0);
  ct_full(CT_SHAPE(2, 3), 3.5, NULL);
  ct_full(CT_SHAPE(2), CT_NUM(1), &(ct_tensor_opts){.dtype = CT_INT32});
  ct_arange(0, 10, 2, NULL);
  ct_arange_end(k, NULL);
  ct_arange(CT_INT(0), CT_DOUBLE(1.5), CT_DOUBLE(0.5), NULL);
  ct_linspace(0, 1.0, 5, NULL);
  ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32, .requires_grad = false});
  ct_randn(CT_SHAPE(2), NULL);
  ct_to(x, &(ct_to_opts){.dtype = CT_FLOAT64});
  CT_TENSOR(1.5, 2);
  CT_TENSOR(CT_L(1, 2), CT_L(3, 4));
  CT_TENSOR(CT_L(CT_L(flag, 2), CT_L(3, z)));
  ct_tensor_literal(CT_L(1, 2), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor_literal(CT_LIT(2.5), NULL);
  ct_wrapped_scalar(2);
  ct_scalar_tensor(1.5, NULL);
  const int64_t dims[2] = {2, 3};
  ct_zeros((ct_shape){dims, 2}, NULL); /* commas in an argument: the call goes unchecked (args.h) */
  ct_full((ct_shape){dims, 2}, CT_NUM(1.5), &(ct_tensor_opts){.dtype = CT_FLOAT64, .requires_grad = false});
  ct_tensor *(*plain)(const ct_tensor *, const ct_reduce_opts *) = ct_sum; /* the function itself */
  (void)plain;
}
