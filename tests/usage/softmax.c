/* A numerically stable softmax over the rows of a matrix, written as a torch user writes it:

     torch.set_printoptions(precision=8)
     torch.manual_seed(0)
     logits = torch.randn(4, 5) * 2
     e = (logits - logits.amax(1, keepdim=True)).exp()
     p = e / e.sum(1, keepdim=True)         # torch.softmax(logits, 1)
     print(p, p.sum(1), p.argmax(1)) */
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
  ct_tensor *logits = ct_mul(ct_randn(CT_SHAPE(4, 5), NULL), ct_wrapped_scalar(CT_INT(2)));
  ct_tensor *row_max = ct_amax(logits, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
  ct_tensor *e = ct_exp(ct_sub(logits, row_max, NULL));
  ct_tensor *p = ct_div(e, ct_sum(e, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true}), NULL);
  ct_tensor *total = ct_sum(p, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  ct_tensor *best = ct_argmax(p, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  if (!total || !best) {
    fprintf(stderr, "softmax: %s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_scope_end();
    return 1;
  }
  show("p", p);
  show("p_sum", total);
  show("p_argmax", best);
  ct_scope_end();
  return 0;
}
