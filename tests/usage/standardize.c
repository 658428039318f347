/* Standardising the columns of a matrix, written as a torch user writes it:

     torch.set_printoptions(precision=8)
     torch.manual_seed(0)
     x = torch.randn(8, 4) * 3 + 1
     z = (x - x.mean(0)) / x.std(0)
     print(z, z.mean(0), z.std(0)) */
#include <ctorch.h>
#include <stdio.h>

static void show(const char *name, const ct_tensor *t) {
  printf("%s =\n", name);
  ct_print(t);
}

int main(void) {
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(8)});
  ct_manual_seed(0);
  ct_scope_begin();
  ct_tensor *x = ct_add(ct_mul(ct_randn(CT_SHAPE(8, 4), NULL), ct_wrapped_scalar(CT_INT(3))),
                        ct_wrapped_scalar(CT_INT(1)), NULL);
  ct_tensor *mean = ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  ct_tensor *std = ct_std(x, &(ct_var_opts){.dims = CT_DIMS(0)});
  ct_tensor *z = ct_div(ct_sub(x, mean, NULL), std, NULL);
  ct_tensor *z_mean = ct_mean(z, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  ct_tensor *z_std = ct_std(z, &(ct_var_opts){.dims = CT_DIMS(0)});
  if (!z_mean || !z_std) {
    fprintf(stderr, "standardize: %s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_scope_end();
    return 1;
  }
  show("z", z);
  show("z_mean", z_mean);
  show("z_std", z_std);
  ct_scope_end();
  return 0;
}
