/* The C short forms with Python numbers and literals (include/ctorch/args.h) against torch 1.13: each
   case prints `>>> <the Python line>` and then what ctorch gives (the repr, or `Kind: message`), which
   tests/diff/numbers_diff.py checks by running the Python line in torch. The C calls are the thing tested:
   their C argument types (double, int, bool, unsigned, _Complex) must give torch's promotion for the
   Python number each stands for. */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>

#include <ctorch.h>

/* A C double complex (glibc's CMPLX is not offered to clang 14). */
static double _Complex cplx(double re, double im) {
  union { double _Complex z; double p[2]; } u = {.p = {re, im}};
  return u.z;
}

static void show(const char *expr, const ct_tensor *t) {
  printf(">>> %s\n", expr);
  if (!t) {
    printf("%s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_clear_error();
    return;
  }
  ct_print(t);
}

/* An in-place or out= call: torch's line evaluates to the tensor written. */
static void show_status(const char *expr, ct_status st, const ct_tensor *t) { show(expr, st == CT_OK ? t : NULL); }

/* A Python line that evaluates to None. */
static void show_none(const char *expr, ct_status st) {
  printf(">>> %s\n", expr);
  if (st == CT_OK) printf("None\n");
  else printf("%s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
}

static void binary_numbers(void) {
  ct_tensor *i = ct_tensor_literal(CT_L(1, 2, 3), &(ct_tensor_opts){.dtype = CT_INT32});
  show("i = torch.tensor([1, 2, 3], dtype=torch.int32)", i);
  show("i * 0.5", ct_mul(i, 0.5));
  show("0.5 * i", ct_mul(0.5, i));
  show("i * 2", ct_mul(i, 2));
  show("i + True", ct_add(i, (bool)1, NULL));
  show("i * 0.10000000149011612", ct_mul(i, 0.1f)); /* a C float is the Python float of its value */
  show("i * (1+2j)", ct_mul(i, cplx(1, 2)));
  show("i * (2**64 - 1)", ct_mul(i, UINT64_MAX));
  show("i * 7", ct_mul(i, (unsigned char)7));
  show("1 - i", ct_sub(1, i, NULL));
  show("torch.add(i, 2, alpha=3)", ct_add(i, 2, &(ct_alpha_opts){.alpha = CT_NUM(3)}));
  show("i / 2", ct_div(i, 2, NULL));
  show("torch.div(i, 2, rounding_mode='floor')", ct_div(i, 2, &(ct_div_opts){.rounding_mode = "floor"}));
  show("i ** 2", ct_pow(i, 2));
  show("2 ** i", ct_pow(2, i));
  show("i ** 0.5", ct_pow(i, 0.5));
  show("i ** -1", ct_pow(i, -1));
  show("i > 1.5", ct_gt(i, 1.5));
  show("i == 2", ct_eq(i, 2));
  show("torch.maximum(i, torch.tensor(2))", ct_maximum(i, ct_scalar_tensor(2, &(ct_tensor_opts){.dtype = CT_INT64})));
  show("torch.remainder(5, i)", ct_remainder(5, i));
  show("torch.mul(2, 3)", ct_mul(2, 3));
  show("torch.add(2.5, 3)", ct_add(2.5, 3, NULL));

  ct_tensor *b = ct_tensor_literal(CT_L((bool)1, (bool)0), NULL);
  show("b = torch.tensor([True, False])", b);
  show("b + 1", ct_add(b, 1, NULL));
  show("b + True", ct_add(b, (bool)1, NULL));
  show("b * 1.5", ct_mul(b, 1.5));
  show("b & True", ct_bitwise_and(b, (bool)1));

  ct_tensor *u = ct_tensor_literal(CT_L(1, 200), &(ct_tensor_opts){.dtype = CT_UINT8});
  show("u = torch.tensor([1, 200], dtype=torch.uint8)", u);
  show("u * 300", ct_mul(u, 300));
  show("u + (-1)", ct_add(u, -1, NULL));
  show("u * 2.5", ct_mul(u, 2.5));
  show("u - 1000", ct_sub(u, 1000L, NULL));

  ct_tensor *h = ct_tensor_literal(CT_L(1.5, -2.0), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  show("h = torch.tensor([1.5, -2.0], dtype=torch.float16)", h);
  show("h * 100000.0", ct_mul(h, 1e5));
  show("h + 1", ct_add(h, 1, NULL));
  show("h.float() + 1j", ct_add(ct_float(h), cplx(0, 1), NULL)); /* h + 1j: complex32, which ctorch lacks */

  ct_tensor *o = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  show_status("torch.mul(i, 2.5, out=torch.empty(3, dtype=torch.float64))", ct_mul_out(o, i, 2.5), o);
  show_status("i.mul_(2)", ct_mul_(i, 2), i);
  show_status("i.mul_(0.5)", ct_mul_(i, 0.5), i);
  show_status("i.add_(1, alpha=2)", ct_add_(i, 1, &(ct_alpha_opts){.alpha = CT_NUM(2)}), i);
  show_status("i.pow_(2)", ct_pow_(i, 2), i);
  show_status("i.div_(2, rounding_mode='trunc')", ct_div_(i, 2, &(ct_div_opts){.rounding_mode = "trunc"}), i);
}

static void factories(void) {
  show("torch.full((2, 3), 3.5)", ct_full(CT_SHAPE(2, 3), 3.5, NULL));
  show("torch.full((2,), 7)", ct_full(CT_SHAPE(2), 7, NULL));
  show("torch.full((2,), True)", ct_full(CT_SHAPE(2), (bool)1, NULL));
  show("torch.full((2,), 1+1j)", ct_full(CT_SHAPE(2), cplx(1, 1), NULL));
  show("torch.full((2,), 300, dtype=torch.uint8)", ct_full(CT_SHAPE(2), 300, &(ct_tensor_opts){.dtype = CT_UINT8}));
  show("torch.full((2,), 2**64 - 1)", ct_full(CT_SHAPE(2), UINT64_MAX, NULL));
  ct_tensor *x = ct_ones(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32});
  show("x = torch.ones(2, dtype=torch.int32)", x);
  show("torch.full_like(x, 2.5)", ct_full_like(x, 2.5, NULL));
  show("x.new_full((3,), 4)", ct_new_full(x, CT_SHAPE(3), 4, NULL));
  show("torch.arange(5)", ct_arange_end(5, NULL));
  show("torch.arange(2.5)", ct_arange_end(2.5, NULL));
  show("torch.arange(0, 10, 3)", ct_arange(0, 10, 3, NULL));
  show("torch.arange(0, 1, 0.25)", ct_arange(0, 1, 0.25, NULL));
  show("torch.arange(5, dtype=torch.float64)", ct_arange_end(5, &(ct_tensor_opts){.dtype = CT_FLOAT64}));
  show("torch.linspace(0, 1, 5)", ct_linspace(0, 1, 5, NULL));
  show("torch.logspace(0, 2, 3)", ct_logspace(0, 2, 3, 10.0, NULL));
  show("torch.scalar_tensor(2)", ct_scalar_tensor(2, NULL));
}

static void literals(void) {
  show("torch.tensor([1.5, 2])", CT_TENSOR(1.5, 2));
  show("torch.tensor([1, 2])", CT_TENSOR(1, 2));
  show("torch.tensor([True, False])", CT_TENSOR((bool)1, (bool)0));
  show("torch.tensor([True, 2])", CT_TENSOR((bool)1, 2));
  show("torch.tensor([1, True, 2.5])", CT_TENSOR(1, (bool)1, 2.5));
  show("torch.tensor([1, 2+1j])", CT_TENSOR(1, cplx(2, 1)));
  show("torch.tensor([True, 1+1j])", CT_TENSOR((bool)1, cplx(1, 1)));
  show("torch.tensor([0.10000000149011612])", CT_TENSOR(0.1f));
  show("torch.tensor([[1, 2], [3, 4]])", CT_TENSOR(CT_L(1, 2), CT_L(3, 4)));
  show("torch.tensor([[[1, 2.5]], [[3, 4]]])", CT_TENSOR(CT_L(CT_L(1, 2.5)), CT_L(CT_L(3, 4))));
  show("torch.tensor([[1, 2]])", CT_TENSOR(CT_L(1, 2)));
  show("torch.tensor(2.5)", ct_tensor_literal(CT_LIT(2.5), NULL));
  show("torch.tensor(7)", ct_tensor_literal(CT_LIT(7), NULL));
  show("torch.tensor([1e300])", CT_TENSOR(1e300));
  show("torch.tensor([0.1], dtype=torch.float16)", ct_tensor_literal(CT_L(0.1), &(ct_tensor_opts){.dtype = CT_FLOAT16}));
  show("torch.tensor([0.1], dtype=torch.bfloat16)",
       ct_tensor_literal(CT_L(0.1), &(ct_tensor_opts){.dtype = CT_BFLOAT16}));
  show("torch.tensor([[1.5]], dtype=torch.float64)",
       ct_tensor_literal(CT_L(CT_L(1.5)), &(ct_tensor_opts){.dtype = CT_FLOAT64}));
  show("torch.tensor([2.7, -2.7], dtype=torch.int32)",
       ct_tensor_literal(CT_L(2.7, -2.7), &(ct_tensor_opts){.dtype = CT_INT32}));
  show("torch.tensor([-1], dtype=torch.uint8)", ct_tensor_literal(CT_L(-1), &(ct_tensor_opts){.dtype = CT_UINT8}));
  show("torch.tensor([300], dtype=torch.uint8)", ct_tensor_literal(CT_L(300), &(ct_tensor_opts){.dtype = CT_UINT8}));
  show("torch.tensor([1e300], dtype=torch.int32)", ct_tensor_literal(CT_L(1e300), &(ct_tensor_opts){.dtype = CT_INT32}));
  show("torch.tensor([1, 2], dtype=torch.bool)", ct_tensor_literal(CT_L(1, 2), &(ct_tensor_opts){.dtype = CT_BOOL}));
  show("torch.tensor([1+2j], dtype=torch.float32)",
       ct_tensor_literal(CT_L(cplx(1, 2)), &(ct_tensor_opts){.dtype = CT_FLOAT32}));
  show("torch.tensor([1+2j], dtype=torch.int32)",
       ct_tensor_literal(CT_L(cplx(1, 2)), &(ct_tensor_opts){.dtype = CT_INT32}));
  show("torch.tensor([2.5, 1], dtype=torch.complex128)",
       ct_tensor_literal(CT_L(2.5, 1), &(ct_tensor_opts){.dtype = CT_COMPLEX128}));
  show("torch.tensor([2**64 - 1])", CT_TENSOR(UINT64_MAX));
  /* ragged and mixed nesting: torch's errors */
  show("torch.tensor([[1, 2], [3]])", CT_TENSOR(CT_L(1, 2), CT_L(3)));
  show("torch.tensor([[1, 2], [3, 4, 5]])", CT_TENSOR(CT_L(1, 2), CT_L(3, 4, 5)));
  show("torch.tensor([[[1], [2]], [[3], [4, 5]]])", CT_TENSOR(CT_L(CT_L(1), CT_L(2)), CT_L(CT_L(3), CT_L(4, 5))));
  show("torch.tensor([[1, 2], 3])", CT_TENSOR(CT_L(1, 2), 3));
  show("torch.tensor([1, [2]])", CT_TENSOR(1, CT_L(2)));
  show("torch.tensor([1.5, [2]])", CT_TENSOR(1.5, CT_L(2)));
  show("torch.tensor([1+1j, [2]])", CT_TENSOR(cplx(1, 1), CT_L(2)));
  show("torch.tensor([[1, 2], [3, [4]]])", CT_TENSOR(CT_L(1, 2), CT_L(3, CT_L(4))));
  /* the default dtype decides for floats and complex */
  show_none("torch.set_default_dtype(torch.float64)", ct_set_default_dtype(CT_FLOAT64));
  show("torch.tensor([1.5, 2])", CT_TENSOR(1.5, 2));
  show("torch.tensor([1, 1j])", CT_TENSOR(1, cplx(0, 1)));
  show("torch.full((2,), 0.5)", ct_full(CT_SHAPE(2), 0.5, NULL));
  show("torch.arange(2.5)", ct_arange_end(2.5, NULL));
  show_none("torch.set_default_dtype(torch.float32)", ct_set_default_dtype(CT_FLOAT32));
}

int main(void) {
  ct_scope_begin();
  binary_numbers();
  factories();
  literals();
  ct_scope_end();
  return 0;
}
