/* Every C line of docs/FROM_PYTORCH.md, in order, as one program: `make docs-check` compiles it with
   gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -Iinclude, and scripts/gen_api_docs.py
   --check fails when a C line of the page is not found here. Linked against the library and run, it
   prints what the page's torch lines print (and one deliberate error) and exits 0. */
#include <ctorch.h>
#include <stdio.h>
#include <stdlib.h>

static ct_tensor *standardize(const ct_tensor *x) {
  ct_scope_begin();
  ct_tensor *z = ct_div(ct_sub(x, ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(0)}), NULL),
                        ct_std(x, &(ct_var_opts){.dims = CT_DIMS(0)}), NULL);
  ct_keep(z);
  ct_scope_end();
  return z;
}

int main(void) {
  ct_tensor *ema = ct_zeros(CT_SHAPE(3), NULL);
  ct_scope_begin();

  /* creation */
  ct_tensor *a = CT_TENSOR(1.5, 2, 3);
  ct_tensor *m = CT_TENSOR(CT_L(1, 2), CT_L(3, 4));
  ct_tensor *z = ct_zeros(CT_SHAPE(2, 3), NULL);
  ct_tensor *o = ct_ones(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *f = ct_full(CT_SHAPE(2, 2), 3.5, NULL);
  ct_tensor *e = ct_empty(CT_SHAPE(2, 3), NULL);
  ct_tensor *r = ct_arange_end(10, NULL);
  ct_tensor *q = ct_arange(0, 1, 0.25, NULL);
  ct_tensor *l = ct_linspace(0, 1, 5, NULL);
  ct_tensor *i3 = ct_eye(3, NULL);
  ct_tensor *zl = ct_zeros_like(m, NULL);
  double buf[6] = {1, 2, 3, 4, 5, 6};
  ct_tensor *d = ct_tensor_from_data(buf, CT_FLOAT64, CT_SHAPE(2, 3), NULL);

  /* random numbers, seeded */
  ct_manual_seed(0);
  ct_tensor *x = ct_randn(CT_SHAPE(4, 3), NULL);
  ct_tensor *u = ct_rand(CT_SHAPE(2, 2), NULL);
  ct_tensor *ri = ct_randint(0, 10, CT_SHAPE(5), NULL);
  ct_tensor *p = ct_randperm(5, NULL);
  ct_generator *g = ct_generator_create(CT_DEVICE_CPU); ct_generator_manual_seed(g, 42);
  ct_tensor *xg = ct_randn(CT_SHAPE(3), &(ct_random_opts){.generator = g});
  ct_uniform_(e, -1, 1, NULL);

  /* views */
  ct_tensor *v = ct_view(r, CT_SHAPE(2, 5));
  ct_tensor *rs = ct_reshape(r, CT_SHAPE(5, -1));
  ct_tensor *xt = ct_transpose(x, 0, 1);
  ct_tensor *xp = ct_permute(x, CT_DIMS(1, 0));
  ct_tensor *au = ct_unsqueeze(a, 0);
  ct_tensor *row = ct_select(x, 0, 1);
  ct_tensor *cols = ct_slice(x, 1, 0, 2, 1);
  ct_tensor *ax = ct_expand(au, CT_SHAPE(2, 3));
  ct_tensor_list *parts = ct_chunk(x, 2, 0);
  ct_tensor *xc = ct_contiguous(xt, CT_MEMORY_FORMAT_UNSET);

  /* pointwise, with Python numbers as C numbers */
  ct_tensor *y = ct_add(x, x, NULL);
  ct_tensor *x1 = ct_add(x, 1, NULL);
  ct_tensor *h = ct_mul(0.5, x);
  ct_tensor *s2 = ct_sub(x, y, &(ct_alpha_opts){.alpha = CT_NUM(2)});
  ct_tensor *fd = ct_div(r, 3, &(ct_div_opts){.rounding_mode = "floor"});
  ct_tensor *sq = ct_pow(x, 2);
  ct_tensor *ex = ct_exp(x);
  ct_tensor *rt = ct_sqrt(ct_abs(x));
  ct_tensor *mask = ct_gt(x, 0.5);
  ct_tensor *w = ct_where(mask, x, y);
  ct_tensor *cl = ct_clamp(x, ct_wrapped_scalar(-1.0), ct_wrapped_scalar(1.0));

  /* reductions */
  ct_tensor *total = ct_sum(x, NULL);
  ct_tensor *rows = ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true});
  ct_tensor *mu = ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  ct_tensor *sd = ct_std(x, &(ct_var_opts){.dims = CT_DIMS(0)});
  ct_tensor *vals, *idx; ct_max_dim(x, 1, &vals, &idx, NULL);
  ct_tensor *am = ct_argmax(x, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  ct_tensor *cs = ct_cumsum(x, 0, NULL);

  /* out= and in place */
  ct_tensor *out = ct_empty(CT_SHAPE(0), NULL);
  ct_add_out(out, x, y, NULL);
  ct_mul_(y, 2);
  ct_add_(y, x, &(ct_alpha_opts){.alpha = CT_NUM(0.5)});
  ct_zero_(e);
  ct_fill_(e, CT_NUM(1.5));
  ct_copy_(e, z);

  /* dtypes and conversion */
  ct_tensor *x64 = ct_to(x, &(ct_to_opts){.dtype = CT_FLOAT64});
  ct_tensor *xl = ct_long(x);
  ct_tensor *xm = ct_to_other(x, m);
  double val; ct_item_double(total, &val);
  printf("%s\n", ct_dtype_name(ct_dtype_of(x)));
  int64_t n0 = ct_size(x, 0);
  int64_t n = ct_numel(x);

  /* printing */
  ct_print(x);
  char *shape = ct_size_repr(x); puts(shape); free(shape);
  char *list = ct_tolist_repr(a); puts(list); free(list);
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(2)});

  /* errors */
  ct_tensor *bad = ct_transpose(x, 0, 2);
  if (!bad) fprintf(stderr, "%s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
  ct_clear_error();

  /* ownership and scopes */
  ct_tensor *kept = standardize(x);
  ct_scope_begin(); ct_scope_end_replace(&ema, ct_add(ct_mul(0.9, ema), ct_mul(0.1, mu), NULL));

  (void)o, (void)f, (void)q, (void)l, (void)i3, (void)zl, (void)d, (void)u, (void)ri, (void)p, (void)xg;
  (void)v, (void)rs, (void)xp, (void)row, (void)cols, (void)ax, (void)parts, (void)xc, (void)x1, (void)h;
  (void)s2, (void)fd, (void)sq, (void)ex, (void)rt, (void)w, (void)cl, (void)rows, (void)sd, (void)am;
  (void)cs, (void)x64, (void)xl, (void)xm, (void)n0, (void)n;
  int failed = ct_last_error() != CT_OK;
  if (failed) fprintf(stderr, "unexpected %s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
  ct_scope_end();
  ct_release(kept);
  ct_release(ema);
  ct_generator_release(g);
  return failed;
}
