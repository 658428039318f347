/* A tour of ctorch, run by `make run`. Each step prints what PyTorch would print for the same code,
   shown in the comment above it. */
#include <stdio.h>

#include <ctorch.h>

/* Prints a labelled tensor like `>>> expr` followed by torch's repr. */
static void show(const char *expr, const ct_tensor *t) {
  printf(">>> %s\n", expr);
  if (!t) {
    printf("%s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_clear_error();
    return;
  }
  ct_print(t);
}

/* Python's tuple text: (5, 1), (3,), (). */
static void print_tuple(const int64_t *v, int64_t n) {
  printf("(");
  for (int64_t i = 0; i < n; i++) printf(i ? ", %lld" : "%lld", (long long)v[i]);
  printf(n == 1 ? ",)" : ")");
}

/* size, stride(), storage_offset() and is_contiguous() as Python prints them. */
static void show_shape(const char *label, const ct_tensor *t) {
  char sizes[128];
  ct_shape_str(ct_shape_of(t), sizes, sizeof sizes);
  printf("%s: %s, stride ", label, sizes);
  print_tuple(ct_strides(t), ct_dim(t));
  printf(", storage_offset %lld, is_contiguous %s\n", (long long)ct_storage_offset(t),
         ct_is_contiguous(t, CT_CONTIGUOUS_FORMAT) ? "True" : "False");
}

int main(void) {
  ct_scope_begin(); /* the scope owns every tensor made below */

  printf("== Tensors, storages and views ==\n");
  const float rows[2][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
  ct_tensor *x = ct_tensor_from_data(rows, CT_FLOAT32, CT_SHAPE(2, 5), NULL);
  show("x = torch.Tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])", x);
  show_shape("x", x);
  show_shape("x.t()", ct_t(x));

  ct_tensor *y = ct_empty(CT_SHAPE(2, 3, 4), NULL);
  ct_tensor *yt = ct_transpose(y, 1, 2);
  show_shape("y = torch.empty(2, 3, 4)", y);
  show_shape("y.transpose(1, 2)", yt);
  printf("shares data_ptr with y: %s\n", ct_data_ptr(yt) == ct_data_ptr(y) ? "True" : "False");

  ct_tensor *r = ct_arange(CT_INT(0), CT_INT(10), CT_INT(1), NULL);
  ct_tensor *tail = ct_slice(r, 0, 3, CT_END, 1);
  show("r = torch.arange(10); r[3:]", tail);
  show_shape("r[3:]", tail);
  ct_set_item(tail, (int64_t[]){0}, CT_INT(-1)); /* writes through the view */
  show("r[3:][0] = -1; r", r);
  show("r.view(2, 5)[1]", ct_select(ct_view(r, CT_SHAPE(2, 5)), 0, 1));
  show_shape("y.transpose(1, 2).contiguous() (a copy)", ct_contiguous(yt, CT_CONTIGUOUS_FORMAT));

  printf("\n== Creation, dtypes and devices ==\n");
  show("torch.zeros([2, 4], dtype=torch.int32)", ct_zeros(CT_SHAPE(2, 4), &(ct_tensor_opts){.dtype = CT_INT32}));
  show("torch.ones([2, 4], dtype=torch.float64)", ct_ones(CT_SHAPE(2, 4), &(ct_tensor_opts){.dtype = CT_FLOAT64}));
  const float m[2][2] = {{1, -1}, {1, -1}};
  show("torch.tensor([[1., -1.], [1., -1.]])", ct_tensor_from_data(m, CT_FLOAT32, CT_SHAPE(2, 2), NULL));
  ct_tensor *d = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  show("torch.ones((2,), dtype=torch.float64).new_full((3, 4), 3.141592)",
       ct_new_full(d, CT_SHAPE(3, 4), CT_DOUBLE(3.141592), NULL));
  show("torch.eye(3, 2)", ct_eye_m(3, 2, NULL));
  show("torch.linspace(1, 16, 16).view(2, 4, 2)", ct_view(ct_linspace(CT_INT(1), CT_INT(16), 16, NULL), CT_SHAPE(2, 4, 2)));
  show("torch.full((2, 2), True)", ct_full(CT_SHAPE(2, 2), CT_BOOLV(true), NULL));
  show("torch.arange(0, 1, 0.25, dtype=torch.bfloat16)",
       ct_arange(CT_INT(0), CT_INT(1), CT_DOUBLE(0.25), &(ct_tensor_opts){.dtype = CT_BFLOAT16}));
  printf("%s is %s, %lld bytes per element\n", ct_dtype_name(CT_COMPLEX64), ct_dtype_legacy_type_name(CT_COMPLEX64),
         (long long)ct_dtype_itemsize(CT_COMPLEX64));
  ct_device dev;
  char buf[64];
  if (ct_device_parse("cuda:1", &dev) == CT_OK && ct_device_repr(dev, buf, sizeof buf) > 0)
    printf("torch.device('cuda:1') -> %s\n", buf);
  show("torch.zeros(2, device='cuda')", ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.device = CT_DEVICE_CUDA(0)}));
  show("torch.empty(2, 3, device='meta')", ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.device = CT_DEVICE_META}));

  printf("\n== Conversion and element access ==\n");
  ct_tensor *f = ct_tensor_from_data((const double[]){-1.7, 300.7, 2.5}, CT_FLOAT64, CT_SHAPE(3), NULL);
  show("f = torch.tensor([-1.7, 300.7, 2.5], dtype=torch.float64); f.to(torch.uint8)", ct_to_dtype(f, CT_UINT8));
  show("f.to(torch.int8)", ct_to_dtype(f, CT_INT8));
  show("f.half()", ct_half(f));
  double v;
  if (ct_item_double(ct_select(f, 0, 1), &v) == CT_OK) printf(">>> f[1].item()\n%.1f\n", v);
  show("f.view(3, 1).expand(3, 2)", ct_expand(ct_view(f, CT_SHAPE(3, 1)), CT_SHAPE(3, 2)));

  printf("\n== Errors carry PyTorch's messages ==\n");
  show("torch.zeros(2, 3).view(4)", ct_view(ct_zeros(CT_SHAPE(2, 3), NULL), CT_SHAPE(4)));
  show("torch.zeros(2, 3).transpose(0, 2)", ct_transpose(ct_zeros(CT_SHAPE(2, 3), NULL), 0, 2));
  show("torch.ones(3) + torch.ones(4)", ct_add(ct_ones(CT_SHAPE(3), NULL), ct_ones(CT_SHAPE(4), NULL), NULL));

  printf("\n== Seeded random numbers are torch's, bit for bit ==\n");
  ct_manual_seed(0);
  show("torch.manual_seed(0); torch.randn(2, 3)", ct_randn(CT_SHAPE(2, 3), NULL));
  show("torch.rand(4, dtype=torch.float64)", ct_rand(CT_SHAPE(4), &(ct_random_opts){.dtype = CT_FLOAT64}));
  show("torch.randperm(6)", ct_randperm(6, NULL));

  printf("\n== Pointwise ops follow PyTorch's promotion and layouts ==\n");
  ct_tensor *i = ct_arange(CT_INT(0), CT_INT(6), CT_INT(1), &(ct_tensor_opts){.dtype = CT_INT32});
  show("i = torch.arange(6, dtype=torch.int32).view(2, 3); i + 2.5", ct_add(ct_view(i, CT_SHAPE(2, 3)), ct_wrapped_scalar(CT_DOUBLE(2.5)), NULL));
  ct_tensor *sum = ct_add(ct_t(ct_view(i, CT_SHAPE(3, 2))), ct_ones(CT_SHAPE(3), NULL), NULL);
  show("i.view(3, 2).t() + torch.ones(3)", sum);
  show_shape("  its layout follows the transposed input", sum);

  printf("\n== Reductions and scans ==\n");
  show("x.sum()", ct_sum(x, NULL));
  show("x.sum(1, keepdim=True)", ct_sum(x, &(ct_reduce_opts){.dims = CT_DIMS(1), .keepdim = true}));
  show("x.mean(0)", ct_mean(x, &(ct_reduce_opts){.dims = CT_DIMS(0)}));
  show("x.var(1)", ct_var(x, &(ct_var_opts){.dims = CT_DIMS(1)}));
  show("x.norm()", ct_norm(x, NULL));
  ct_tensor *values = NULL, *indices = NULL;
  if (ct_max_dim(x, 0, &values, &indices, NULL) == CT_OK) {
    show("x.max(0).values", values);
    show("x.max(0).indices", indices);
  }
  show("x.argmin()", ct_argmin(x, NULL));
  show("i.sum()  # integer sums accumulate in int64", ct_sum(i, NULL));
  show("x.cumsum(1)", ct_cumsum(x, 1, NULL));
  show("torch.logsumexp(x, 1)", ct_logsumexp(x, &(ct_reduce_opts){.dims = CT_DIMS(1)}));

  printf("\n== Indexing: Python's subscripts, views where Python gives views ==\n");
  ct_tensor *s = CT_TENSOR(CT_L(1, 2, 3), CT_L(4, 5, 6));
  show("s = torch.tensor([[1, 2, 3], [4, 5, 6]]); s[1][2]", ct_index(ct_index(s, 1), 2));
  ct_index_put_(ct_index(s, 0), 1, 8); /* s[0] is a view: the write lands in s */
  show("s[0][1] = 8; s", s);
  show_shape("x[:, 1::2]", ct_index(x, ":, 1::2"));
  show("x[x > 4]", ct_index(x, "%", ct_gt(x, 4)));
  show("x[[1, 0], [4, 3]]", ct_index(x, "%, %", CT_TENSOR(1, 0), CT_TENSOR(4, 3)));
  ct_index_put_(s, ":, %", CT_TENSOR(0, 2), 0); /* an index tensor: the value broadcast over the picks */
  show("s[:, [0, 2]] = 0; s", s);
  show("s[..., None, -1]", ct_index(s, "..., None, -1"));
  show("s[1, 5]", ct_index(s, "1, 5"));

  printf("\n== Linear algebra: LAPACK's routines, torch's results and errors ==\n");
  ct_tensor *A = CT_TENSOR(CT_L(3.0, 1.0), CT_L(1.0, 2.0));
  show("A = torch.tensor([[3., 1.], [1., 2.]]); torch.linalg.solve(A, torch.tensor([9., 8.]))",
       ct_linalg_solve(A, CT_TENSOR(9.0, 8.0), NULL));
  show("torch.linalg.det(A)", ct_linalg_det(A));
  show("torch.linalg.svdvals(A)", ct_linalg_svdvals(A));
  show("torch.linalg.inv(torch.ones(2, 2))", ct_linalg_inv(ct_ones(CT_SHAPE(2, 2), NULL)));

  ct_scope_end();
  return 0;
}
