/* A tour of ctorch: run with `make run`. */
#include <stdio.h>

#include <ctorch.h>

int main(void) {
  ct_scope_begin();
  ct_tensor *t = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  printf("empty(2, 3, 4): dim=%lld numel=%lld dtype=%s\n", (long long)ct_dim(t), (long long)ct_numel(t),
         ct_dtype_name(ct_dtype_of(t)));
  ct_scope_end();
  return 0;
}
