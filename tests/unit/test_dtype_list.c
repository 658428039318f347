/* The dtype list (src/core/dtype_list.h) and what is generated from it: the traits' columns against
   torch 1.13's values, and the public calls whose per-dtype behaviour now comes from the list (random's
   bounds messages, default ranges and stores, randperm's overflow message, the generated element access).
   Expected values were computed with torch 1.13 (/usr/bin/python3), as each comment shows. */
#include <math.h>

#include "check.h"
#include "core/elem.h"
#include "core/internal.h"
#include "kernels/cpu/dtypes.h"

#define ALL_DTYPES CT_BOOL, CT_UINT8, CT_INT8, CT_INT16, CT_INT32, CT_INT64, CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, \
                   CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128

static void test_acc_dtype(void) {
  /* at::acc_type<T, false>, torch 1.13 aten/src/ATen/AccumulateType.h (CPU_ACC_TYPE rows). One behaviour that
     shows float -> double: torch.tensor([1e8, 1, -1e8]).cumsum(0) is [1e8, 1e8, 1.0] (in float it would end
     in 0). */
  static const ct_dtype dts[] = {ALL_DTYPES};
  static const ct_dtype acc[] = {CT_BOOL,    CT_INT64,   CT_INT64,   CT_INT64,     CT_INT64,      CT_INT64,
                                 CT_FLOAT32, CT_FLOAT32, CT_FLOAT64, CT_FLOAT64,   CT_COMPLEX128, CT_COMPLEX128};
  /* at::opmath_type<T>: float for Half and BFloat16, T otherwise */
  static const ct_dtype opmath[] = {CT_BOOL,    CT_UINT8,   CT_INT8,    CT_INT16,   CT_INT32,     CT_INT64,
                                    CT_FLOAT32, CT_FLOAT32, CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    CHECK_EQ_INT(ct__dt(dts[i])->acc_dtype, acc[i]);
    CHECK_EQ_INT(ct__dt(dts[i])->opmath_dtype, opmath[i]);
  }
  float v[3] = {1e8f, 1, -1e8f};
  ct_tensor *t = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(3), NULL);
  ct_tensor *c = ct_cumsum(t, 0, NULL);
  float r[3] = {0};
  CHECK(c != NULL);
  if (c) memcpy(r, ct_data_ptr(c), sizeof r);
  CHECK(r[0] == 1e8f && r[1] == 1e8f && r[2] == 1.0f);
  ct_release(c);
  ct_release(t);
}

static void test_limits(void) {
  /* torch.finfo(dt).max / .min / .eps (digits = 1 - log2(eps)) and torch.iinfo(dt).min / .max / .bits */
  const ct_dtype_traits *h = ct__dt(CT_FLOAT16), *b = ct__dt(CT_BFLOAT16), *f = ct__dt(CT_FLOAT32),
                        *d = ct__dt(CT_FLOAT64);
  CHECK(h->max == 0x1.ffcp15 && h->lowest == -0x1.ffcp15 && h->digits == 11);
  CHECK(b->max == 0x1.fep127 && b->lowest == -0x1.fep127 && b->digits == 8);
  CHECK(f->max == 0x1.fffffep127 && f->lowest == -0x1.fffffep127 && f->digits == 24);
  CHECK(d->max == 0x1.fffffffffffffp1023 && d->lowest == -0x1.fffffffffffffp1023 && d->digits == 53);
  CHECK(ct__dt(CT_COMPLEX64)->max == f->max && ct__dt(CT_COMPLEX128)->digits == 53);
  CHECK_EQ_INT(ct__int_min(ct__dt(CT_UINT8)), 0);
  CHECK_EQ_INT(ct__int_max(ct__dt(CT_UINT8)), 255);
  CHECK_EQ_INT(ct__int_min(ct__dt(CT_INT8)), -128);
  CHECK_EQ_INT(ct__int_max(ct__dt(CT_INT16)), 32767);
  CHECK_EQ_INT(ct__int_min(ct__dt(CT_INT32)), INT32_MIN);
  CHECK(ct__int_min(ct__dt(CT_INT64)) == INT64_MIN && ct__int_max(ct__dt(CT_INT64)) == INT64_MAX);
  CHECK(ct__int_min(ct__dt(CT_BOOL)) == 0 && ct__int_max(ct__dt(CT_BOOL)) == 1);
  CHECK(ct__dt(CT_INT64)->max == 0x1p63 && ct__dt(CT_INT64)->lowest == -0x1p63);
  static const ct_dtype dts[] = {ALL_DTYPES};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) /* the list's storage types */
    CHECK_EQ_INT(ct__dt(dts[i])->itemsize, ct_dtype_itemsize(dts[i]));
  /* c10::toComplexType / toRealValueType, and the public functions that keep their documented answers */
  CHECK_EQ_INT(ct__dt(CT_BFLOAT16)->complex_dtype, CT_COMPLEX64);
  CHECK_EQ_INT(ct__dt(CT_FLOAT16)->complex_dtype, CT_DTYPE_UNSET);
  CHECK_EQ_INT(ct_dtype_to_complex(CT_BFLOAT16), CT_DTYPE_UNSET);
  CHECK_EQ_INT(ct_dtype_to_complex(CT_FLOAT64), CT_COMPLEX128);
  CHECK_EQ_INT(ct_dtype_to_complex(CT_INT32), CT_DTYPE_UNSET);
  CHECK_EQ_INT(ct_dtype_to_real(CT_COMPLEX64), CT_FLOAT32);
  CHECK_EQ_INT(ct_dtype_to_real(CT_INT8), CT_INT8);
}

static ct_tensor *empty_of(int64_t n, ct_dtype dt) { return ct_empty(CT_SHAPE(n), &(ct_tensor_opts){.dtype = dt}); }

static void test_names_in_messages(void) {
  /* torch.empty(3, dtype=torch.int16).random_(-40000, 0): "from is out of bounds for short int"; uint8
     random_(0, 257): "to - 1 is out of bounds for unsigned char"; bool random_(0, 3): "... for bool";
     float16 uniform_(0, 1e6): "to is out of bounds for c10::Half"; bfloat16 uniform_(-1e39, 0): "from is out
     of bounds for c10::BFloat16"; randperm(2**31 + 2, dtype=torch.int32): "value cannot be converted to type
     int without overflow"; randperm(300, dtype=torch.int8): "... to type int8_t without overflow". */
  static const struct {
    ct_dtype dt;
    bool uniform; /* uniform_(from, to), else random_(from, to) */
    double from, to;
    const char *msg;
  } cases[] = {{CT_INT16, false, -40000, 0, "from is out of bounds for short int"},
               {CT_UINT8, false, 0, 257, "to - 1 is out of bounds for unsigned char"},
               {CT_BOOL, false, 0, 3, "to - 1 is out of bounds for bool"},
               {CT_FLOAT16, true, 0, 1e6, "to is out of bounds for c10::Half"},
               {CT_BFLOAT16, true, -1e39, 0, "from is out of bounds for c10::BFloat16"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ct_tensor *t = empty_of(3, cases[i].dt);
    ct_status s = cases[i].uniform ? ct_uniform_(t, cases[i].from, cases[i].to, NULL)
                                   : ct_random_from_to_(t, (int64_t)cases[i].from, (int64_t)cases[i].to, NULL);
    CHECK(s == CT_ERR_RUNTIME);
    CHECK_STR(ct_last_error_message(), cases[i].msg);
    ct_release(t);
  }
  /* on the meta device: the check runs, nothing is allocated */
  CHECK(!ct_randperm((INT64_C(1) << 31) + 2, &(ct_random_opts){.dtype = CT_INT32, .device = CT_DEVICE_META}));
  CHECK_STR(ct_last_error_message(), "value cannot be converted to type int without overflow");
  CHECK(!ct_randperm(300, &(ct_random_opts){.dtype = CT_INT8}));
  CHECK_STR(ct_last_error_message(), "value cannot be converted to type int8_t without overflow");
}

/* Fills an n-element tensor of dtype dt with seed `seed` and compares its elements (as int64) with want. */
static void check_fill(ct_dtype dt, int seed, int which, double p, const int64_t *want, int64_t n) {
  ct_tensor *t = empty_of(n, dt);
  ct_manual_seed(seed);
  ct_status s = which == 0 ? ct_random_(t, NULL) : ct_geometric_(t, p, NULL);
  CHECK(s == CT_OK);
  for (int64_t i = 0; s == CT_OK && i < n; i++)
    CHECK_EQ_INT(ct__elem_load_i64(dt, (char *)ct_data_ptr(t) + i * (int64_t)ct_dtype_itemsize(dt)), want[i]);
  ct_release(t);
}

static void test_generated_random_paths(void) {
  /* torch.manual_seed(3); torch.empty(8, dtype=dt).random_() */
  static const int64_t i32[] = {218175338, 303761048, 893988089, 1460070019, 1249426360, 521102280, 46504192, 297689877};
  static const int64_t u8[] = {106, 152, 249, 131, 184, 200, 0, 21};
  static const int64_t f16[] = {379, 896, 1705, 258, 1483, 600, 600, 1424};
  static const int64_t b[] = {0, 0, 1, 1, 0, 0, 0, 1};
  check_fill(CT_INT32, 3, 0, 0, i32, 8);
  check_fill(CT_UINT8, 3, 0, 0, u8, 8);
  check_fill(CT_FLOAT16, 3, 0, 0, f16, 8);
  check_fill(CT_BOOL, 3, 0, 0, b, 8);
  /* torch.manual_seed(5); torch.empty(6, dtype=dt).geometric_(p): static_cast<uint8_t>(double) goes through
     the 32-bit conversion, so samples near 1e12 give 0 (through int64 they would keep low bits) */
  static const int64_t g_u8[] = {0, 0, 0, 0, 0, 0};
  static const int64_t g_i8[] = {-69, 68, -5, -125, 44, -95};
  check_fill(CT_UINT8, 5, 1, 1e-12, g_u8, 6);
  check_fill(CT_INT8, 5, 1, 1e-3, g_i8, 6);
  /* torch.manual_seed(3); torch.randint(-2**40, 2**40, (4,), dtype=torch.float32) */
  ct_manual_seed(3);
  ct_tensor *t = ct_randint(-(INT64_C(1) << 40), INT64_C(1) << 40, CT_SHAPE(4), &(ct_random_opts){.dtype = CT_FLOAT32});
  static const float want[] = {758374596608.0f, 362851139584.0f, 950721576960.0f, 283275591680.0f};
  CHECK(t && memcmp(ct_data_ptr(t), want, sizeof want) == 0);
  ct_release(t);
}

/* whether the element at elem (dtype dt) is what the cast engine makes of the value at src (dtype st) */
static bool same_as_cast(ct_dtype dt, const char *elem, const void *src, ct_dtype st) {
  char c[16] = {0};
  ct__cast_n(c, dt, src, st, 1);
  return memcmp(elem, c, ct_dtype_itemsize(dt)) == 0;
}

static void test_elem_access(void) {
  /* the generated element access follows the cast engine: one element converted both ways */
  static const ct_dtype dts[] = {ALL_DTYPES};
  static const int64_t vals[] = {0, 1, -1, 127, 128, 255, 256, -129, 40000, 70000, INT64_C(1) << 40, INT64_MIN,
                                 INT64_MAX, 16777217, -9007199254740993};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
      char a[16] = {0};
      ct__elem_store_i64(dts[i], a, vals[k]);
      CHECK(same_as_cast(dts[i], a, &vals[k], CT_INT64));
      int64_t x, y;
      double dx, dy;
      x = ct__elem_load_i64(dts[i], a);
      ct__cast_n(&y, CT_INT64, a, dts[i], 1);
      CHECK_EQ_INT(x, y);
      dx = ct__elem_load_f64(dts[i], a);
      ct__cast_n(&dy, CT_FLOAT64, a, dts[i], 1);
      CHECK(dx == dy);
    }
}

static void test_generated_kernel_types(void) {
  /* the kernels' accumulator type is the list's ACC column as a C type (at::acc_type<T, false>) */
#define IS_T(E, T) _Generic((CT_ACC_T(E))0, T : 1, default : 0)
  CHECK(IS_T(CT_BOOL, bool) && IS_T(CT_UINT8, int64_t) && IS_T(CT_INT32, int64_t) && IS_T(CT_FLOAT16, float));
  CHECK(IS_T(CT_BFLOAT16, float) && IS_T(CT_FLOAT32, double) && IS_T(CT_FLOAT64, double));
  CHECK(IS_T(CT_COMPLEX64, ct_c128) && IS_T(CT_COMPLEX128, ct_c128));
#undef IS_T
  /* the kernel lists select the list's rows by kind, in dtype order */
#define PUSH(E, T, CT, LOAD, STORE) got[n++] = E,
  ct_dtype got[CT_NUM_DTYPES + 1];
  int n = 0;
  CT_DT_ALL(PUSH)(void) 0;
  CHECK_EQ_INT(n, CT_NUM_DTYPES);
  for (int i = 0; i < n; i++) CHECK_EQ_INT(got[i], CT_BOOL + i);
  n = 0;
  CT_DT_INTEGRAL(PUSH) CT_DT_COMPLEX(PUSH)(void) 0;
  CHECK(n == 7 && got[0] == CT_UINT8 && got[4] == CT_INT64 && got[5] == CT_COMPLEX64 &&
        got[6] == CT_COMPLEX128);
  n = 0;
  CT_DT_FLOATING(PUSH)(void) 0;
  CHECK(n == 4 && got[0] == CT_FLOAT16 && got[1] == CT_BFLOAT16 && got[3] == CT_FLOAT64);
#undef PUSH
}

static void test_convert_f64(void) {
  /* ct__elem_convert_f64 (the reductions' result store) converts as the cast engine: torch.tensor([4294967301.0,
     300.0, -1.0, -129.5], dtype=torch.float64).to(torch.uint8) is [5, 44, 255, 127] (through int64: 2^32 + 5
     keeps its low byte), .to(torch.int8) is [0, 44, -1, 127] (through int32) */
  static const double u8in[] = {4294967301.0, 300.0, -1.0, -129.5};
  static const uint8_t u8[] = {5, 44, 255, 127};
  static const int8_t i8[] = {0, 44, -1, 127};
  for (int k = 0; k < 4; k++) {
    uint8_t a;
    int8_t b;
    ct__elem_convert_f64(CT_UINT8, &a, u8in[k]);
    ct__elem_convert_f64(CT_INT8, &b, u8in[k]);
    CHECK_EQ_INT(a, u8[k]);
    CHECK_EQ_INT(b, i8[k]);
  }
  static const ct_dtype dts[] = {ALL_DTYPES};
  static const double vals[] = {0,       -0.0, 1.5,      -1.5,         255.5,     65504.0,
                                65520.0, 1e10, -1e10,    4294967301.0, 1e300,     0x1p63,
                                -0x1p63, NAN,  INFINITY, -INFINITY,    1.0000001, 3.3e-39};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
      char a[16] = {0};
      ct__elem_convert_f64(dts[i], a, vals[k]);
      CHECK(same_as_cast(dts[i], a, &vals[k], CT_FLOAT64));
    }
}

static void test_typemeta_messages(void) {
  /* c10's TypeMeta names from the traits, in three families' messages (torch 1.13):
     torch.argmax(torch.ones(3, 2), 0, out=torch.empty(2, dtype=torch.int32)): "Expected out tensor to have
     dtype long int, but got int instead"; torch.ones(3, dtype=torch.int16).cumsum_(0, dtype=torch.float32):
     "Bad in-place call: input tensor dtype short int and output tensor dtype float should match";
     torch.lerp(torch.ones(3), torch.ones(3, dtype=torch.float64), 0.5): "expected dtype float for `end` but got
     dtype double" */
  ct_tensor *x = ct_ones(CT_SHAPE(3, 2), NULL), *o = empty_of(2, CT_INT32);
  CHECK_EQ_INT(ct_argmax_out(o, x, &(ct_reduce_opts){.dims = CT_DIMS(0)}), CT_ERR_RUNTIME);
  CHECK_STR(ct_last_error_message(), "Expected out tensor to have dtype long int, but got int instead");
  ct_tensor *s = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT16});
  CHECK_EQ_INT(ct_cumsum_(s, 0, &(ct_scan_opts){.dtype = CT_FLOAT32}), CT_ERR_RUNTIME);
  CHECK_STR(ct_last_error_message(),
            "Bad in-place call: input tensor dtype short int and output tensor dtype float should match");
  ct_tensor *a = ct_ones(CT_SHAPE(3), NULL),
            *b = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(!ct_lerp(a, b, 0.5));
  CHECK_STR(ct_last_error_message(), "expected dtype float for `end` but got dtype double");
  ct_release(x), ct_release(o), ct_release(s), ct_release(a), ct_release(b);
}

int main(void) {
  test_acc_dtype();
  test_limits();
  test_names_in_messages();
  test_generated_random_paths();
  test_elem_access();
  test_generated_kernel_types();
  test_convert_f64();
  test_typemeta_messages();
  return TEST_SUMMARY();
}
