/* An exponential moving average carried across the iterations of a loop, written as a torch user
   writes it:

     torch.set_printoptions(precision=8)
     torch.manual_seed(0)
     ema = torch.zeros(3)
     for step in range(20):
         x = torch.randn(3) + 0.1 * step
         ema = 0.9 * ema + 0.1 * x
     print(ema, ema / (1 - 0.9 ** 20))     # the bias-corrected average

   In C each iteration's temporaries belong to a scope; the new average is handed out of it with
   ct_keep, and the old one is released once replaced. */
#include <ctorch.h>
#include <math.h>
#include <stdio.h>

static void show(const char *name, const ct_tensor *t) {
  printf("%s =\n", name);
  ct_print(t);
}

int main(void) {
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(8)});
  ct_manual_seed(0);
  ct_tensor *ema = ct_zeros(CT_SHAPE(3), NULL); /* outside any scope: ours to release */
  for (int step = 0; step < 20; step++) {
    ct_scope_begin();
    ct_tensor *x = ct_add(ct_randn(CT_SHAPE(3), NULL), ct_wrapped_scalar(CT_DOUBLE(0.1 * step)), NULL);
    ct_tensor *next = ct_keep(ct_add(ct_mul(ct_wrapped_scalar(CT_DOUBLE(0.9)), ema),
                                     ct_mul(ct_wrapped_scalar(CT_DOUBLE(0.1)), x), NULL));
    ct_scope_end();
    ct_release(ema);
    ema = next; /* NULL after a failure: the next calls then fail too, and the check below reports it */
  }
  ct_tensor *corrected = ct_div(ema, ct_wrapped_scalar(CT_DOUBLE(1 - pow(0.9, 20))), NULL);
  if (!corrected) {
    fprintf(stderr, "ema: %s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_release(ema);
    return 1;
  }
  show("ema", ema);
  show("ema_corrected", corrected);
  ct_release(corrected);
  ct_release(ema);
  return 0;
}
