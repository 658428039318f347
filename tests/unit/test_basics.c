/* The first-lines basics: fill_ / zero_, to(other), cpu(), torch.device(type, index), size/stride as
   status calls and Python's text of tolist() / item() / size() / stride(). Expected values and messages
   are torch 1.13's and Python 3.11's (cited next to each); tests/diff/ops_basics.py draws many more. */
#include <stdlib.h>

#include "check.h"

static void check_text(char *got, const char *want) {
  CHECK_STR(got, want);
  free(got);
}

static void test_fill(void) {
  ct_scope_begin();
  /* torch.zeros(3, 2).t().fill_(2.5) */
  ct_tensor *x = ct_transpose(ct_zeros(CT_SHAPE(3, 2), NULL), 0, 1);
  CHECK_EQ_INT(ct_fill_(x, CT_DOUBLE(2.5)), CT_OK);
  check_text(ct_tolist_repr(x), "[[2.5, 2.5, 2.5], [2.5, 2.5, 2.5]]");
  CHECK_EQ_INT(ct_zero_(x), CT_OK);
  check_text(ct_tolist_repr(x), "[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]");
  /* torch.zeros(2, dtype=torch.int8).fill_(300): RuntimeError, tensor unchanged */
  ct_tensor *i8 = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT8});
  CHECK_EQ_INT(ct_fill_(i8, CT_INT(300)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type int8_t without overflow");
  check_text(ct_tolist_repr(i8), "[0, 0]");
  /* int32 fill_(2.7) truncates: [2, 2]; bool fill_(2) is True */
  ct_tensor *i32 = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK_EQ_INT(ct_fill_(i32, CT_DOUBLE(2.7)), CT_OK);
  check_text(ct_tolist_repr(i32), "[2, 2]");
  ct_tensor *b = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK_EQ_INT(ct_fill_(b, CT_INT(2)), CT_OK);
  check_text(ct_tolist_repr(b), "[True, True]");
  /* an expanded tensor: every (shared) element written, as torch does */
  ct_tensor *e = ct_expand(ct_zeros(CT_SHAPE(2), NULL), CT_SHAPE(3, 2));
  CHECK_EQ_INT(ct_fill_(e, CT_INT(1)), CT_OK);
  check_text(ct_tolist_repr(e), "[[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]");
  /* a leaf that requires grad */
  ct_tensor *leaf = ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.requires_grad = true});
  CHECK_EQ_INT(ct_zero_(leaf), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "a leaf Variable that requires grad is being used in an in-place operation.");
  CHECK_EQ_INT(ct_fill_(NULL, CT_INT(1)), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "argument 'self' is NULL"); /* the entry guard names it */
  ct_scope_end();
}

static void test_to_other_cpu(void) {
  ct_scope_begin();
  ct_tensor *x = ct_arange(CT_INT(0), CT_INT(3), CT_INT(1), NULL);
  ct_tensor *f = ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *y = ct_to_other(x, f);
  CHECK_EQ_INT(ct_dtype_of(y), CT_FLOAT64);
  check_text(ct_tolist_repr(y), "[0.0, 1.0, 2.0]");
  CHECK(ct_to_other(y, f) == y); /* nothing changes: self */
  CHECK(ct_cpu(x) == x);
  ct_tensor *m = ct_to(x, &(ct_to_opts){.device = CT_DEVICE_META});
  CHECK(ct_is_meta(ct_to_other(x, m)));
  CHECK(ct_cpu(m) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  ct_scope_end();
}

static void test_device_make(void) {
  ct_device d;
  char buf[64];
  CHECK_EQ_INT(ct_device_make("cuda", 1, &d), CT_OK);
  ct_device_repr(d, buf, sizeof buf);
  CHECK_STR(buf, "device(type='cuda', index=1)");
  CHECK_EQ_INT(ct_device_make("cpu", 0, &d), CT_OK); /* torch.device('cpu', 0) is allowed */
  ct_device_repr(d, buf, sizeof buf);
  CHECK_STR(buf, "device(type='cpu', index=0)");
  CHECK_EQ_INT(ct_device_make("cuda", -1, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device index must not be negative");
  CHECK_EQ_INT(ct_device_make("cuda:1", 0, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "type (string) must not include an index because index was passed explicitly: cuda:1");
  CHECK_EQ_INT(ct_device_make("", 0, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device string must not be empty");
  /* torch keeps the low bits of 128 (index 65408): refused */
  CHECK_EQ_INT(ct_device_make("cuda", 128, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device index must be at most 127 (DeviceIndex is int8), got 128");
}

static void test_size_at(void) {
  ct_tensor *x = ct_zeros(CT_SHAPE(2, 3), NULL);
  int64_t v = 0;
  CHECK_EQ_INT(ct_size_at(x, -1, &v), CT_OK);
  CHECK_EQ_INT(v, 3);
  CHECK_EQ_INT(ct_stride_at(x, 0, &v), CT_OK);
  CHECK_EQ_INT(v, 3);
  v = 42;
  CHECK_EQ_INT(ct_size_at(x, 2, &v), CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  CHECK_EQ_INT(v, 42);
  CHECK_EQ_INT(ct_stride_at(x, -3, &v), CT_ERR_INDEX);
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  check_text(ct_size_repr(x), "torch.Size([2, 3])");
  check_text(ct_stride_repr(x), "(3, 1)");
  ct_release(x);
}

static void test_python_text(void) {
  ct_scope_begin();
  /* torch.tensor([0.1, nan, -0.0]).tolist(): float32 0.1 widened to a Python float */
  ct_tensor *f = ct_tensor_from_data((const float[]){0.1f, __builtin_nanf(""), -0.0f}, CT_FLOAT32, CT_SHAPE(3), NULL);
  check_text(ct_tolist_repr(f), "[0.10000000149011612, nan, -0.0]");
  check_text(ct_item_repr(ct_select(f, 0, 0)), "0.10000000149011612");
  check_text(ct_stride_repr(ct_select(f, 0, 0)), "()");
  check_text(ct_stride_repr(f), "(1,)");
  /* repr(float) / repr(complex) as Python writes them */
  static const struct {
    double re, im;
    bool complex;
    const char *text;
  } cases[] = {{1.0, 0, false, "1.0"},      {1e16, 0, false, "1e+16"},   {1e15, 0, false, "1000000000000000.0"},
               {1e-4, 0, false, "0.0001"},  {1e-5, 0, false, "1e-05"},   {5e-324, 0, false, "5e-324"},
               {-0.0, 0, false, "-0.0"},    {1.5e-7, 0, false, "1.5e-07"}, {0, 1, true, "1j"},
               {-0.0, 1, true, "(-0+1j)"},  {0, -0.0, true, "-0j"},      {1, 2, true, "(1+2j)"},
               {1e16, 1e-5, true, "(1e+16+1e-05j)"}, {1.5, __builtin_inf(), true, "(1.5+infj)"},
               {1, -__builtin_nan(""), true, "(1+nanj)"}};
  char buf[64];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_scalar s = cases[i].complex ? ct_scalar_complex(cases[i].re, cases[i].im) : ct_scalar_double(cases[i].re);
    int n = ct_scalar_repr(s, buf, sizeof buf);
    CHECK_STR(buf, cases[i].text);
    CHECK_EQ_INT(n, (int)strlen(cases[i].text));
  }
  ct_scalar_repr(ct_scalar_bool(false), buf, sizeof buf);
  CHECK_STR(buf, "False");
  ct_scalar_repr(ct_scalar_int(-9223372036854775807LL - 1), buf, sizeof buf);
  CHECK_STR(buf, "-9223372036854775808");
  CHECK_EQ_INT(ct_scalar_repr(ct_scalar_double(0.1), buf, 2), 3); /* truncated like snprintf */
  CHECK_STR(buf, "0");
  /* empty dims: torch.zeros(3, 0).tolist() is [[], [], []]; item() of many elements fails */
  check_text(ct_tolist_repr(ct_zeros(CT_SHAPE(3, 0), NULL)), "[[], [], []]");
  CHECK(ct_item_repr(f) == NULL);
  ct_clear_error();
  ct_scope_end();
}

int main(void) {
  test_fill();
  test_to_other_cpu();
  test_device_make();
  test_size_at();
  test_python_text();
  return TEST_SUMMARY();
}
