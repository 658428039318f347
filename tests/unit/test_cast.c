/* The casting core's scalar side: load/store of Python numbers, c10's checked conversion and its
   messages, promote_types. Expected values and messages come from torch 1.13 (noted per case). */
#include <math.h>

#include "check.h"
#include "core/cast.h"
#include "core/half.h"

/* torch.zeros(1, dtype=d).copy_(torch.tensor(v)): the unchecked store. */
static void test_store(void) {
  uint8_t u8;
  ct__store_scalar(CT_UINT8, &u8, ct_scalar_int(1000)); /* -> 232 */
  CHECK_EQ_INT(u8, 232);
  ct__store_scalar(CT_UINT8, &u8, ct_scalar_int(-1)); /* -> 255 */
  CHECK_EQ_INT(u8, 255);
  int32_t i32;
  ct__store_scalar(CT_INT32, &i32, ct_scalar_double(2.7)); /* -> 2 */
  CHECK_EQ_INT(i32, 2);
  ct__store_scalar(CT_INT32, &i32, ct_scalar_double(-2.7)); /* -> -2 */
  CHECK_EQ_INT(i32, -2);
  ct__store_scalar(CT_INT32, &i32, ct_scalar_double(3e9)); /* copy_ of tensor(3e9) -> -2147483648 */
  CHECK_EQ_INT(i32, INT32_MIN);
  int8_t i8;
  ct__store_scalar(CT_INT8, &i8, ct_scalar_double(300.7)); /* -> 44 */
  CHECK_EQ_INT(i8, 44);
  uint8_t b;
  ct__store_scalar(CT_BOOL, &b, ct_scalar_double(NAN)); /* -> True */
  CHECK_EQ_INT(b, 1);
  ct__store_scalar(CT_BOOL, &b, ct_scalar_complex(0, 1)); /* tensor([1j]).bool() -> False: real part only */
  CHECK_EQ_INT(b, 0);
  float f;
  ct__store_scalar(CT_FLOAT32, &f, ct_scalar_complex(1.5, 2)); /* -> 1.5 (imaginary part dropped) */
  CHECK(f == 1.5f);
  /* double -> float16 rounds through float: tensor([1 + 2**-11 + 2**-40], float64).half() == 1.0 */
  uint16_t h;
  ct__store_scalar(CT_FLOAT16, &h, ct_scalar_double(1 + 0x1p-11 + 0x1p-40));
  CHECK_EQ_INT(h, 0x3c00);
  ct_complex64 c;
  ct__store_scalar(CT_COMPLEX64, &c, ct_scalar_int(3));
  CHECK(c.re == 3.0f && c.im == 0.0f);
  /* a double keeps its precision until it is stored: float64 gets 0.1 exactly */
  double d;
  ct__store_scalar(CT_FLOAT64, &d, ct_scalar_double(0.1));
  CHECK(d == 0.1);
}

static void test_load(void) {
  uint16_t h = 0xc366; /* float16 -3.69921875 */
  ct_scalar s = ct__load_scalar(CT_FLOAT16, &h);
  CHECK(s.kind == CT_SCALAR_DOUBLE && s.v.d == -3.69921875);
  uint8_t u = 253;
  s = ct__load_scalar(CT_UINT8, &u);
  CHECK(s.kind == CT_SCALAR_INT && s.v.i == 253);
  uint8_t t = 1;
  s = ct__load_scalar(CT_BOOL, &t);
  CHECK(s.kind == CT_SCALAR_BOOL && s.v.b);
  ct_complex64 c = {3.7f, 1.0f};
  s = ct__load_scalar(CT_COMPLEX64, &c);
  CHECK(s.kind == CT_SCALAR_COMPLEX && s.v.c.re == (double)3.7f && s.v.c.im == 1.0);
}

/* torch.full((1,), v, dtype=d): fits, or "value cannot be converted to type ... without overflow". */
static void test_checked(void) {
  struct {
    ct_scalar v;
    ct_dtype d;
    const char *type; /* NULL: fits */
  } cases[] = {
      {{CT_SCALAR_INT, .v.i = 1000}, CT_UINT8, "uint8_t"},
      {{CT_SCALAR_INT, .v.i = -1}, CT_UINT8, NULL},  /* -> 255 */
      {{CT_SCALAR_INT, .v.i = -255}, CT_UINT8, NULL}, /* -> 1 */
      {{CT_SCALAR_INT, .v.i = -256}, CT_UINT8, "uint8_t"},
      {{CT_SCALAR_DOUBLE, .v.d = -1.0}, CT_UINT8, "uint8_t"},
      {{CT_SCALAR_INT, .v.i = 128}, CT_INT8, "int8_t"},
      {{CT_SCALAR_INT, .v.i = -128}, CT_INT8, NULL},
      {{CT_SCALAR_INT, .v.i = 32768}, CT_INT16, "int16_t"},
      {{CT_SCALAR_INT, .v.i = 2147483648LL}, CT_INT32, "int"},
      {{CT_SCALAR_DOUBLE, .v.d = 2.7}, CT_INT32, NULL},
      {{CT_SCALAR_DOUBLE, .v.d = 3e9}, CT_INT32, "int"},
      {{CT_SCALAR_DOUBLE, .v.d = NAN}, CT_INT32, "int"},
      {{CT_SCALAR_DOUBLE, .v.d = 0x1p63}, CT_INT64, NULL}, /* -> -9223372036854775808 */
      {{CT_SCALAR_DOUBLE, .v.d = 9.3e18}, CT_INT64, "int64_t"},
      {{CT_SCALAR_DOUBLE, .v.d = INFINITY}, CT_INT64, "int64_t"},
      {{CT_SCALAR_INT, .v.i = 70000}, CT_FLOAT16, "at::Half"},
      {{CT_SCALAR_DOUBLE, .v.d = 65504.0}, CT_FLOAT16, NULL},
      {{CT_SCALAR_DOUBLE, .v.d = 65519.0}, CT_FLOAT16, "at::Half"},
      {{CT_SCALAR_DOUBLE, .v.d = INFINITY}, CT_FLOAT16, NULL},
      {{CT_SCALAR_DOUBLE, .v.d = NAN}, CT_BFLOAT16, NULL},
      {{CT_SCALAR_DOUBLE, .v.d = 3.4e38}, CT_BFLOAT16, "at::BFloat16"},
      {{CT_SCALAR_DOUBLE, .v.d = 1e39}, CT_FLOAT32, "float"},
      {{CT_SCALAR_DOUBLE, .v.d = -3.5e38}, CT_FLOAT32, "float"},
      {{CT_SCALAR_DOUBLE, .v.d = 1e-300}, CT_FLOAT32, NULL},
      {{CT_SCALAR_INT, .v.i = INT64_MAX}, CT_FLOAT32, NULL},
      {{CT_SCALAR_INT, .v.i = INT64_MAX}, CT_FLOAT16, "at::Half"},
      {{CT_SCALAR_DOUBLE, .v.d = 1e39}, CT_COMPLEX64, "c10::complex<float>"},
      {{CT_SCALAR_DOUBLE, .v.d = 1e300}, CT_COMPLEX128, NULL},
      {{CT_SCALAR_COMPLEX, .v.c = {1, 2}}, CT_FLOAT32, "float"},
      {{CT_SCALAR_COMPLEX, .v.c = {1, 0}}, CT_FLOAT32, NULL},
      {{CT_SCALAR_COMPLEX, .v.c = {1, 2}}, CT_INT32, "int"},
      {{CT_SCALAR_COMPLEX, .v.c = {1, 2}}, CT_BOOL, NULL}, /* -> True */
      {{CT_SCALAR_COMPLEX, .v.c = {1, 2}}, CT_COMPLEX64, NULL},
      {{CT_SCALAR_DOUBLE, .v.d = NAN}, CT_BOOL, NULL},
      {{CT_SCALAR_BOOL, .v.b = true}, CT_UINT8, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bool fits = ct__scalar_fits(cases[i].v, cases[i].d);
    CHECK_EQ_INT(fits, cases[i].type == NULL);
    if (cases[i].type) {
      char msg[128];
      snprintf(msg, sizeof msg, "value cannot be converted to type %s without overflow", cases[i].type);
      CHECK_ERROR(CT_ERR_RUNTIME, msg);
    }
  }
}

/* torch.promote_types */
static void test_promote(void) {
  CHECK_EQ_INT(ct_promote_types(CT_UINT8, CT_INT8), CT_INT16);
  CHECK_EQ_INT(ct_promote_types(CT_BOOL, CT_FLOAT16), CT_FLOAT16);
  CHECK_EQ_INT(ct_promote_types(CT_FLOAT16, CT_BFLOAT16), CT_FLOAT32);
  CHECK_EQ_INT(ct_promote_types(CT_COMPLEX64, CT_FLOAT64), CT_COMPLEX128);
  CHECK_EQ_INT(ct_promote_types(CT_INT64, CT_FLOAT16), CT_FLOAT16);
  CHECK_EQ_INT(ct_promote_types(CT_BFLOAT16, CT_COMPLEX64), CT_COMPLEX64);
  CHECK_EQ_INT(ct_promote_types(CT_UINT8, CT_BOOL), CT_UINT8);
  CHECK_EQ_INT(ct_promote_types(CT_INT32, CT_UINT8), CT_INT32);
  CHECK_EQ_INT(ct_promote_types(CT_INT8, CT_INT16), CT_INT16);
  CHECK_EQ_INT(ct_promote_types(CT_FLOAT32, CT_FLOAT64), CT_FLOAT64);
  CHECK_EQ_INT(ct_promote_types(CT_COMPLEX128, CT_BOOL), CT_COMPLEX128);
}

int main(void) {
  test_store();
  test_load();
  test_checked();
  test_promote();
  return TEST_SUMMARY();
}
