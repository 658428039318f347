/* Printing: repr strings checked against torch 1.13's repr of the same tensors (every expected string
   below was printed by torch 1.13 on this machine), print options, hooks and failure paths. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/half.h"
#include "core/internal.h"
#include "format/format_internal.h"

/* Writes one element of dtype dt at p (complex: re and im). */
static void put(ct_dtype dt, char *p, double re, double im) {
  switch (dt) {
    case CT_BOOL: *(uint8_t *)p = re != 0; break;
    case CT_UINT8: *(uint8_t *)p = (uint8_t)re; break;
    case CT_INT8: *(int8_t *)p = (int8_t)re; break;
    case CT_INT16: { int16_t v = (int16_t)re; memcpy(p, &v, 2); break; }
    case CT_INT32: { int32_t v = (int32_t)re; memcpy(p, &v, 4); break; }
    case CT_INT64: { int64_t v = (int64_t)re; memcpy(p, &v, 8); break; }
    case CT_FLOAT16: { uint16_t v = ct__float_to_half((float)re); memcpy(p, &v, 2); break; }
    case CT_BFLOAT16: { uint16_t v = ct__float_to_bfloat16((float)re); memcpy(p, &v, 2); break; }
    case CT_FLOAT32: { float v = (float)re; memcpy(p, &v, 4); break; }
    case CT_FLOAT64: memcpy(p, &re, 8); break;
    case CT_COMPLEX64: { float v[2] = {(float)re, (float)im}; memcpy(p, v, 8); break; }
    case CT_COMPLEX128: { double v[2] = {re, im}; memcpy(p, v, 16); break; }
    default: break;
  }
}

/* A contiguous tensor from values (complex: re, im pairs); NULL values: 0, 1, 2, ... */
static ct_tensor *make(ct_dtype dt, ct_shape shape, const double *vals) {
  ct_tensor *t = ct_empty(shape, &(ct_tensor_opts){.dtype = dt});
  char *p = ct_data_ptr(t);
  const bool cplx = ct_dtype_is_complex(dt);
  for (int64_t i = 0; i < ct_numel(t); i++, p += ct_element_size(t)) {
    if (!vals)
      put(dt, p, (double)i, 0);
    else
      put(dt, p, vals[cplx ? 2 * i : i], cplx ? vals[2 * i + 1] : 0);
  }
  return t;
}

#define V(...) ((const double[]){__VA_ARGS__})

#define CHECK_REPR(t, expected)      \
  do {                               \
    ct_tensor *t_ = (t);             \
    char *s_ = ct_to_string(t_);     \
    CHECK_STR(s_, expected);         \
    free(s_);                        \
    ct_release(t_);                  \
  } while (0)

static void reset_options(void) {
  CHECK_EQ_INT(ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_DEFAULT}), CT_OK);
}

/* The verified examples of /work/shared/reference/printing.md. */
static void test_reference_examples(void) {
  const double nan = NAN, inf = INFINITY;
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1., 1000.)), "tensor([   1., 1000.])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1., 1001.)), "tensor([1.0000e+00, 1.0010e+03])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1e-4, 5e-4)), "tensor([1.0000e-04, 5.0000e-04])");
  CHECK_REPR(make(CT_FLOAT64, CT_SHAPE(2), V(1e-4, 5e-4)), "tensor([0.0001, 0.0005], dtype=torch.float64)");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(3), V(1.5, nan, -inf)), "tensor([1.5000,    nan,   -inf])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(4), V(0., nan, inf, -inf)), "tensor([0., nan, inf, -inf])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(0., -0.)), "tensor([0., -0.])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(99999999., 1.)), "tensor([1.0000e+08, 1.0000e+00])");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE(2), V(1, 2, -3.5, 0)), "tensor([ 1.0000+2.j, -3.5000+0.j])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE_SCALAR, V(1e10)), "tensor(1.0000e+10)");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE_SCALAR, V(7.)), "tensor(7.)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT64}), "tensor([], dtype=torch.int64)");
  CHECK_REPR(ct_empty(CT_SHAPE(2, 0), NULL), "tensor([], size=(2, 0))");
  CHECK_REPR(make(CT_INT64, CT_SHAPE(1001), NULL), "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE(2, 2), V(1, 1, 2.5, -3, 0, 1e-4, 5, 0)),
             "tensor([[1.0000+1.0000e+00j, 2.5000-3.0000e+00j],\n"
             "        [0.0000+1.0000e-04j, 5.0000+0.0000e+00j]])");
}

static void test_dtypes(void) {
  CHECK_REPR(make(CT_INT8, CT_SHAPE(17), NULL),
             "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16],\n       dtype=torch.int8)");
  CHECK_REPR(make(CT_INT8, CT_SHAPE(18), NULL),
             "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17],\n"
             "       dtype=torch.int8)");
  CHECK_REPR(make(CT_BOOL, CT_SHAPE(3), V(1, 0, 1)), "tensor([ True, False,  True])");
  CHECK_REPR(make(CT_UINT8, CT_SHAPE(3), V(0, 255, 7)), "tensor([  0, 255,   7], dtype=torch.uint8)");
  CHECK_REPR(make(CT_INT16, CT_SHAPE(2), V(-32768, 5)), "tensor([-32768,      5], dtype=torch.int16)");
  CHECK_REPR(make(CT_INT32, CT_SHAPE(2, 2), V(1, -20, 300, 4)),
             "tensor([[  1, -20],\n        [300,   4]], dtype=torch.int32)");
  ct_tensor *ext = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT64});
  int64_t *e = ct_data_ptr(ext);
  e[0] = INT64_MIN, e[1] = INT64_MAX, e[2] = 0;
  CHECK_REPR(ext, "tensor([-9223372036854775808,  9223372036854775807,                    0])");
  CHECK_REPR(make(CT_FLOAT16, CT_SHAPE(3), V(1.5, -2.25, 65504.)),
             "tensor([ 1.5000e+00, -2.2500e+00,  6.5504e+04], dtype=torch.float16)");
  CHECK_REPR(make(CT_BFLOAT16, CT_SHAPE(3), V(1.5, 3.140625, -0.0078125)),
             "tensor([ 1.5000,  3.1406, -0.0078], dtype=torch.bfloat16)");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1e-45, 1.)), "tensor([1.4013e-45, 1.0000e+00])");
  CHECK_REPR(make(CT_FLOAT64, CT_SHAPE(2), V(5e-324, 1.)),
             "tensor([4.9407e-324,  1.0000e+00], dtype=torch.float64)");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(3.4028234663852886e38, -1.)), "tensor([ 3.4028e+38, -1.0000e+00])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1e9, 1.)), "tensor([1.0000e+09, 1.0000e+00])");
  CHECK_REPR(make(CT_FLOAT64, CT_SHAPE(4), V(0.00005, 0.00015, 0.5, 2.5)),
             "tensor([5.0000e-05, 1.5000e-04, 5.0000e-01, 2.5000e+00], dtype=torch.float64)");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE(3), V(NAN, INFINITY, -0.0, -0.0, 1, 1)),
             "tensor([nan+infj, -0.-0.j, 1.+1.j])");
}

static void test_scalars(void) {
  CHECK_REPR(make(CT_INT8, CT_SHAPE_SCALAR, V(5)), "tensor(5, dtype=torch.int8)");
  CHECK_REPR(make(CT_BOOL, CT_SHAPE_SCALAR, V(1)), "tensor(True)");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE_SCALAR, V(-NAN)), "tensor(nan)");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE_SCALAR, V(1.5, -2)), "tensor(1.5000-2.j)");
  CHECK_REPR(make(CT_COMPLEX128, CT_SHAPE_SCALAR, V(0, 0)), "tensor(0.+0.j, dtype=torch.complex128)");
  CHECK_REPR(make(CT_FLOAT16, CT_SHAPE_SCALAR, V(0.1)), "tensor(0.1000, dtype=torch.float16)");
}

static void test_shapes(void) {
  CHECK_REPR(make(CT_INT64, CT_SHAPE(2, 3, 400), NULL),
             "tensor([[[   0,    1,    2,  ...,  397,  398,  399],\n"
             "         [ 400,  401,  402,  ...,  797,  798,  799],\n"
             "         [ 800,  801,  802,  ..., 1197, 1198, 1199]],\n\n"
             "        [[1200, 1201, 1202,  ..., 1597, 1598, 1599],\n"
             "         [1600, 1601, 1602,  ..., 1997, 1998, 1999],\n"
             "         [2000, 2001, 2002,  ..., 2397, 2398, 2399]]])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2, 2, 2, 2, 2, 2), NULL),
             "tensor([[[[[[ 0.,  1.],\n            [ 2.,  3.]],\n\n           [[ 4.,  5.],\n            [ 6.,  7.]]],\n\n\n"
             "          [[[ 8.,  9.],\n            [10., 11.]],\n\n           [[12., 13.],\n            [14., 15.]]]],\n\n\n\n"
             "         [[[[16., 17.],\n            [18., 19.]],\n\n           [[20., 21.],\n            [22., 23.]]],\n\n\n"
             "          [[[24., 25.],\n            [26., 27.]],\n\n           [[28., 29.],\n            [30., 31.]]]]],\n\n\n\n\n"
             "        [[[[[32., 33.],\n            [34., 35.]],\n\n           [[36., 37.],\n            [38., 39.]]],\n\n\n"
             "          [[[40., 41.],\n            [42., 43.]],\n\n           [[44., 45.],\n            [46., 47.]]]],\n\n\n\n"
             "         [[[[48., 49.],\n            [50., 51.]],\n\n           [[52., 53.],\n            [54., 55.]]],\n\n\n"
             "          [[[56., 57.],\n            [58., 59.]],\n\n           [[60., 61.],\n            [62., 63.]]]]]])");
  CHECK_REPR(ct_empty(CT_SHAPE(0, 3), &(ct_tensor_opts){.dtype = CT_INT32}),
             "tensor([], size=(0, 3), dtype=torch.int32)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_COMPLEX64}), "tensor([], dtype=torch.complex64)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64}), "tensor([], dtype=torch.float64)");
  CHECK_REPR(ct_empty(CT_SHAPE(2, 0, 3), &(ct_tensor_opts){.dtype = CT_BOOL}),
             "tensor([], size=(2, 0, 3), dtype=torch.bool)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), NULL), "tensor([])");
  CHECK_REPR(ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_INT32, .device = CT_DEVICE_META}),
             "tensor(..., device='meta', size=(2, 3), dtype=torch.int32)");
  /* A transposed view: arange(6.).reshape(2, 3).t() */
  ct_tensor *base = make(CT_FLOAT32, CT_SHAPE(2, 3), NULL);
  CHECK_REPR(ct__view(base, 2, (const int64_t[]){3, 2}, (const int64_t[]){1, 3}, 0),
             "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])");
  ct_release(base);
  /* linspace(-1, 1, 2001, dtype=float64): summarized, the dtype wraps to a new line */
  ct_tensor *ls = ct_empty(CT_SHAPE(2001), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  double *d = ct_data_ptr(ls);
  for (int i = 0; i < 2001; i++) d[i] = -1.0 + 2.0 * i / 2000.0;
  CHECK_REPR(ls, "tensor([-1.0000, -0.9990, -0.9980,  ...,  0.9980,  0.9990,  1.0000],\n       dtype=torch.float64)");
}

static void test_suffixes(void) {
  ct_tensor *rg = make(CT_FLOAT32, CT_SHAPE(2), V(1, 2));
  CHECK_EQ_INT(ct_requires_grad_(rg, true), CT_OK);
  CHECK_REPR(rg, "tensor([1., 2.], requires_grad=True)");
  double v[12];
  for (int i = 0; i < 12; i++) v[i] = 1.5 * i;
  CHECK_REPR(make(CT_FLOAT64, CT_SHAPE(12), v),
             "tensor([ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000,  7.5000,  9.0000, 10.5000,\n"
             "        12.0000, 13.5000, 15.0000, 16.5000], dtype=torch.float64)");
  CHECK_REPR(make(CT_FLOAT64, CT_SHAPE(11), v),
             "tensor([ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000,  7.5000,  9.0000, 10.5000,\n"
             "        12.0000, 13.5000, 15.0000], dtype=torch.float64)");
  /* The default dtype decides which dtypes go unnamed. */
  CHECK_EQ_INT(ct_set_default_dtype(CT_FLOAT64), CT_OK);
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(1), V(1.5)), "tensor([1.5000], dtype=torch.float32)");
  CHECK_REPR(make(CT_COMPLEX128, CT_SHAPE(1), V(0, 1.5)), "tensor([0.+1.5000j])");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE(1), V(0, 1.5)), "tensor([0.+1.5000j], dtype=torch.complex64)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT32}), "tensor([], dtype=torch.float32)");
  CHECK_REPR(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64}), "tensor([])");
  CHECK_EQ_INT(ct_set_default_dtype(CT_FLOAT32), CT_OK);
}

static const char *fake_grad_fn(const ct_tensor *t) { return ct_requires_grad(t) ? "SumBackward0" : NULL; }

static void test_grad_fn_hook(void) {
  ct__set_grad_fn_name_hook(fake_grad_fn);
  ct_tensor *s = make(CT_FLOAT32, CT_SHAPE_SCALAR, V(2));
  ct_requires_grad_(s, true);
  CHECK_REPR(s, "tensor(2., grad_fn=<SumBackward0>)");
  ct__set_grad_fn_name_hook(NULL);
}

/* A stand-in for the sparse COO printer, to show the shared suffix machinery places its parts as
   torch.sparse_coo_tensor([[0, 1], [1, 0]], [3., 4.], (2, 2)) prints. */
static ct_tensor *coo_indices, *coo_values;
static ct_status fake_coo(const ct_tensor *t, int64_t indent, const ct__print_opts *o, ct__strbuf *body,
                          ct__suffixes *sfx, bool *force_newline) {
  ct__suffix_add_size(sfx, t);
  ct__suffix_add(sfx, "nnz=%d", 2);
  ct__sb_puts(body, "indices=tensor(");
  ct_status st = ct__tensor_str(coo_indices, indent + 15, o, body);
  ct__sb_puts(body, "),\n");
  ct__sb_spaces(body, indent);
  ct__sb_puts(body, "values=tensor(");
  if (st == CT_OK) st = ct__tensor_str(coo_values, indent + 14, o, body);
  ct__sb_puts(body, ")");
  *force_newline = true;
  return st;
}

static void test_layout_printer(void) {
  coo_indices = make(CT_INT64, CT_SHAPE(2, 2), V(0, 1, 1, 0));
  coo_values = make(CT_FLOAT32, CT_SHAPE(2), V(3, 4));
  ct_tensor *t = ct_empty(CT_SHAPE(2, 2), NULL);
  t->layout = CT_SPARSE_COO;
  char *s = ct_to_string(t);
  CHECK(s == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "printing tensors with layout torch.sparse_coo is not supported");
  ct__set_layout_printer(CT_SPARSE_COO, fake_coo);
  CHECK_REPR(t, "tensor(indices=tensor([[0, 1],\n"
                "                       [1, 0]]),\n"
                "       values=tensor([3., 4.]),\n"
                "       size=(2, 2), nnz=2, layout=torch.sparse_coo)");
  ct__set_layout_printer(CT_SPARSE_COO, NULL);
  ct_release(coo_indices);
  ct_release(coo_values);
}

/* Each block follows a sequence of torch.set_printoptions calls, including the sci_mode reset. */
static void test_options(void) {
  ct_set_printoptions(&(ct_print_options){.threshold = CT_PRINT_SET(5)});
  CHECK_REPR(make(CT_INT64, CT_SHAPE(4, 4), NULL),
             "tensor([[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11],\n        [12, 13, 14, 15]])");
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(2)});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1.12345, -2.5)), "tensor([ 1.12, -2.50])");
  ct_set_printoptions(&(ct_print_options){.sci_mode = CT_SCI_MODE_ON});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1.5, 2)), "tensor([1.50e+00, 2.00e+00])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1, 2)), "tensor([1.00e+00, 2.00e+00])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(0, NAN)), "tensor([0., nan])");
  ct_set_printoptions(&(ct_print_options){.sci_mode = CT_SCI_MODE_OFF});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1e-8, 1)), "tensor([    0.00,     1.00])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1e10, 1)), "tensor([10000000000.,       1.])");
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_SHORT});
  double v[10];
  for (int i = 0; i < 10; i++) v[i] = (float)i / 7.0f;
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(10), v), "tensor([0.00, 0.14, 0.29, 0.43, 0.57, 0.71, 0.86, 1.00, 1.14, 1.29])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2000), NULL), "tensor([0.00e+00, 1.00e+00,  ..., 2.00e+03, 2.00e+03])");
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_FULL});
  ct_tensor *big = make(CT_INT16, CT_SHAPE(7, 143), NULL);
  CHECK_REPR(ct__view(big, 2, (const int64_t[]){2, 30}, (const int64_t[]){143, 1}, 0),
             "tensor([[  0,   1,   2,   3,   4,   5,   6,   7,   8,   9,  10,  11,  12,  13,\n"
             "          14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,\n"
             "          28,  29],\n"
             "        [143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156,\n"
             "         157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170,\n"
             "         171, 172]], dtype=torch.int16)");
  ct_release(big);
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_DEFAULT, .linewidth = CT_PRINT_SET(30)});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(12), NULL),
             "tensor([ 0.,  1.,  2.,  3.,\n         4.,  5.,  6.,  7.,\n         8.,  9., 10., 11.])");
  CHECK_REPR(make(CT_COMPLEX64, CT_SHAPE(5), V(1, 2, 1, 2, 1, 2, 1, 2, 1, 2)),
             "tensor([1.+2.j, 1.+2.j, 1.+2.j,\n        1.+2.j, 1.+2.j])");
  ct_set_printoptions(&(ct_print_options){
      .profile = CT_PRINT_PROFILE_DEFAULT, .edgeitems = CT_PRINT_SET(1), .threshold = CT_PRINT_SET(3)});
  CHECK_REPR(make(CT_INT64, CT_SHAPE(2, 3, 4), NULL),
             "tensor([[[ 0,  ...,  3],\n         ...,\n         [ 8,  ..., 11]],\n\n"
             "        [[12,  ..., 15],\n         ...,\n         [20,  ..., 23]]])");
  /* edgeitems 0: Python's self[-0:] is the whole vector; N-D fails in torch.stack. */
  ct_set_printoptions(&(ct_print_options){.edgeitems = CT_PRINT_SET(0)});
  CHECK_REPR(make(CT_INT64, CT_SHAPE(5), NULL), "tensor([ ..., 0, 1, 2, 3, 4])");
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE_SCALAR, V(5)), "tensor(5.)");
  ct_tensor *m = make(CT_FLOAT32, CT_SHAPE(4, 4), NULL);
  CHECK(ct_to_string(m) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "stack expects a non-empty TensorList");
  ct_release(m);
  ct_set_printoptions(&(ct_print_options){.edgeitems = CT_PRINT_SET(-2)});
  CHECK_REPR(make(CT_INT64, CT_SHAPE(10), NULL), "tensor([0, 1, 2, 3, 4, 5, 6, 7,  ..., 2, 3, 4, 5, 6, 7, 8, 9])");
  /* precision -1: Python's '{:.-1f}' fails, but only when a precision is used. */
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_DEFAULT, .precision = CT_PRINT_SET(-1)});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(2), V(1, 2)), "tensor([1., 2.])");
  ct_tensor *f = make(CT_FLOAT32, CT_SHAPE(2), V(1.5, 2));
  CHECK(ct_to_string(f) == NULL);
  CHECK_ERROR(CT_ERR_VALUE, "Format specifier missing precision");
  CHECK_EQ_INT(ct_print(f), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "Format specifier missing precision");
  ct_release(f);
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(-1), .sci_mode = CT_SCI_MODE_ON});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(1), V(0)), "tensor([0.])");
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_DEFAULT, .precision = CT_PRINT_SET(0)});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(3), V(1.5, 2.5, 3.5)), "tensor([2, 2, 4])");
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(0), .sci_mode = CT_SCI_MODE_ON});
  CHECK_REPR(make(CT_FLOAT32, CT_SHAPE(3), V(1.5, 2.5, 3.5)), "tensor([2e+00, 2e+00, 4e+00])");
  reset_options();
}

static void test_option_api(void) {
  ct_print_options o;
  CHECK_EQ_INT(ct_get_printoptions(&o), CT_OK);
  CHECK(o.precision.set && o.precision.value == 4 && o.threshold.value == 1000 && o.edgeitems.value == 3 &&
        o.linewidth.value == 80 && o.sci_mode == CT_SCI_MODE_AUTO);
  /* Setting anything resets sci_mode, unless it is given (or KEEP). */
  ct_set_printoptions(&(ct_print_options){.sci_mode = CT_SCI_MODE_OFF});
  ct_set_printoptions(&(ct_print_options){.sci_mode = CT_SCI_MODE_KEEP, .linewidth = CT_PRINT_SET(100)});
  ct_get_printoptions(&o);
  CHECK(o.sci_mode == CT_SCI_MODE_OFF && o.linewidth.value == 100);
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(6)});
  ct_get_printoptions(&o);
  CHECK(o.sci_mode == CT_SCI_MODE_AUTO && o.precision.value == 6 && o.linewidth.value == 100);
  /* get then set restores exactly. */
  ct_set_printoptions(&(ct_print_options){.profile = CT_PRINT_PROFILE_FULL, .sci_mode = CT_SCI_MODE_ON});
  ct_print_options saved;
  ct_get_printoptions(&saved);
  CHECK(saved.threshold.value == CT_PRINT_THRESHOLD_INF);
  reset_options();
  ct_set_printoptions(&saved);
  ct_get_printoptions(&o);
  CHECK(o.threshold.value == CT_PRINT_THRESHOLD_INF && o.sci_mode == CT_SCI_MODE_ON && o.precision.value == 4);
  CHECK_EQ_INT(ct_set_printoptions(&(ct_print_options){.profile = (ct_print_profile)9}), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "set_printoptions: invalid profile 9");
  CHECK_EQ_INT(ct_set_printoptions(&(ct_print_options){.sci_mode = (ct_sci_mode)7}), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "set_printoptions: invalid sci_mode 7");
  ct_get_printoptions(&o);
  CHECK(o.sci_mode == CT_SCI_MODE_ON); /* a rejected call changes nothing */
  CHECK_EQ_INT(ct_get_printoptions(NULL), CT_ERR_VALUE);
  ct_clear_error();
  reset_options();
}

static void test_null_and_print(void) {
  ct_clear_error();
  CHECK(ct_to_string(NULL) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_OK); /* a NULL input records nothing */
  CHECK(ct_fprint(stdout, NULL) != CT_OK);
  /* NULL inputs keep a recorded error; with none, a status call records a ValueError (status == kind) */
  CHECK_ERROR(CT_ERR_VALUE, "argument 't' is NULL");
  FILE *f = tmpfile();
  ct_tensor *t = make(CT_FLOAT32, CT_SHAPE(2), V(1, 2));
  CHECK_EQ_INT(ct_fprint(f, t), CT_OK);
  char buf[64] = {0};
  rewind(f);
  CHECK(fread(buf, 1, sizeof buf - 1, f) > 0);
  CHECK_STR(buf, "tensor([1., 2.])\n");
  fclose(f);
  ct_release(t);
}

/* Every allocation a print makes can fail: the call then returns NULL with out-of-memory and leaks
   nothing (the sanitizer build checks the leaks). */
static void test_allocation_failures(void) {
  ct_tensor *t = make(CT_COMPLEX128, CT_SHAPE(3, 400), NULL);
  ct_requires_grad_(t, true);
  int failures = 0;
  for (int64_t k = 0; k < 64; k++) {
    ct_debug_fail_allocation_at(k);
    char *s = ct_to_string(t);
    ct_debug_fail_allocation_at(-1);
    if (s) {
      free(s);
      break;
    }
    failures++;
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
  }
  CHECK(failures > 0 && failures < 64);
  ct_release(t);
}

/* Options change while other threads print: each print sees one consistent set. */
static ct_tensor *shared_t;
static _Atomic int thread_bad;
static void *printer_thread(void *arg) {
  (void)arg;
  for (int i = 0; i < 300; i++) {
    char *s = ct_to_string(shared_t);
    if (!s || (strcmp(s, "tensor([0.3333, 0.6667])") != 0 && strcmp(s, "tensor([0.33, 0.67])") != 0))
      atomic_fetch_add(&thread_bad, 1);
    free(s);
  }
  return NULL;
}

static void test_threads(void) {
  shared_t = make(CT_FLOAT32, CT_SHAPE(2), V(1.0 / 3, 2.0 / 3));
  pthread_t th[2];
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, printer_thread, NULL);
  for (int i = 0; i < 300; i++)
    ct_set_printoptions(&(ct_print_options){.profile = i % 2 ? CT_PRINT_PROFILE_SHORT : CT_PRINT_PROFILE_DEFAULT});
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  CHECK_EQ_INT(atomic_load(&thread_bad), 0);
  ct_release(shared_t);
  reset_options();
}

int main(void) {
  test_reference_examples();
  test_dtypes();
  test_scalars();
  test_shapes();
  test_suffixes();
  test_grad_fn_hook();
  test_layout_printer();
  test_options();
  test_option_api();
  test_null_and_print();
  test_allocation_failures();
  test_threads();
  return TEST_SUMMARY();
}
