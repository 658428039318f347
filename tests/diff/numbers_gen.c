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

/* The three-operand ops' number positions: where's a and b, lerp's weight, clamp's bounds (NULL is None),
   masked_fill's value; in place and out= too. */
static void ternary_numbers(void) {
  ct_tensor *c = ct_tensor_literal(CT_L((bool)1, (bool)0, (bool)1), NULL);
  ct_tensor *i = ct_tensor_literal(CT_L(1, 2, 3), &(ct_tensor_opts){.dtype = CT_INT32});
  ct_tensor *f = ct_tensor_literal(CT_L(1.5, -2.5, 3.25), NULL);
  show("c = torch.tensor([True, False, True])", c);
  show("i = torch.tensor([1, 2, 3], dtype=torch.int32)", i);
  show("f = torch.tensor([1.5, -2.5, 3.25])", f);
  show("torch.where(c, i, 0.5)", ct_where(c, i, 0.5));
  show("torch.where(c, 2, i)", ct_where(c, 2, i));
  show("torch.where(c, 1, 2)", ct_where(c, 1, 2));
  show("torch.where(c, 1.5, 2)", ct_where(c, 1.5, 2));
  show("torch.where(c, f, (1+2j))", ct_where(c, f, cplx(1, 2)));
  ct_tensor *o = ct_empty(CT_SHAPE(3), NULL);
  show_status("torch.empty(3).copy_(torch.where(c, f, 7))  # where's out= has no number form in torch 1.13", ct_where_out(o, c, f, 7), o);
  show("torch.lerp(f, torch.zeros(3), 0.25)", ct_lerp(f, ct_zeros(CT_SHAPE(3), NULL), 0.25));
  show("torch.lerp(f, torch.zeros(3), 2)", ct_lerp(f, ct_zeros(CT_SHAPE(3), NULL), 2));
  ct_tensor *g = ct_clone(f, CT_PRESERVE_FORMAT);
  show_status("g = f.clone(); g.lerp_(torch.ones(3), 0.5)", ct_lerp_(g, ct_ones(CT_SHAPE(3), NULL), 0.5), g);
  ct_tensor *o2 = ct_empty(CT_SHAPE(3), NULL);
  show_status("torch.lerp(f, torch.ones(3), -1.0, out=torch.empty(3))", ct_lerp_out(o2, f, ct_ones(CT_SHAPE(3), NULL), -1.0), o2);
  show("torch.clamp(i, 0.5, 2.5)", ct_clamp(i, 0.5, 2.5));
  show("torch.clamp(i, 2, None)", ct_clamp(i, 2, NULL));
  show("torch.clamp(i, None, 2)", ct_clamp(i, NULL, 2));
  show("torch.clamp(f, -1, True)", ct_clamp(f, -1, (bool)1));
  show("torch.clip(i, 1, 2)", ct_clip(i, 1, 2));
  ct_tensor *h = ct_clone(i, CT_PRESERVE_FORMAT);
  show_status("h = i.clone(); h.clamp_(1, 2)", ct_clamp_(h, 1, 2), h);
  show_status("h.clamp_(0.5, 2.5)", ct_clamp_(h, 0.5, 2.5), h);
  ct_tensor *o3 = ct_empty(CT_SHAPE(3), NULL);
  show_status("torch.clamp(i, 2, 3, out=torch.empty(3))", ct_clamp_out(o3, i, 2, 3), o3);
  show("torch.clamp_min(i, 1.5)", ct_clamp_min(i, 1.5));
  show("torch.clamp_max(i, 2)", ct_clamp_max(i, 2));
  show("torch.clamp_max(f, 2**64 - 1)", ct_clamp_max(f, UINT64_MAX));
  show("i.masked_fill(c, 3.7)", ct_masked_fill(i, c, 3.7));
  show("f.masked_fill(c, 3)", ct_masked_fill(f, c, 3));
  show("i.masked_fill(c, (1+1j))", ct_masked_fill(i, c, cplx(1, 1)));
  ct_tensor *k = ct_clone(f, CT_PRESERVE_FORMAT);
  show_status("k = f.clone(); k.masked_fill_(c, -0.0)", ct_masked_fill_(k, c, -0.0), k);
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
  ternary_numbers();
  factories();
  literals();
  ct_scope_end();
  return 0;
}
