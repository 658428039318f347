/* ct_linalg_vector_norm, the reduction of the "add an op" recipe: values and messages of torch 1.13
   (/usr/bin/python3: torch.linalg.vector_norm on x = torch.tensor([[1., -2, 0], [3, 0, 4]])), and the meta
   device through the descriptor's meta row. The differential tables cover it in depth
   (tests/diff/ops_reduce.py vector_norm*). */
#include <math.h>

#include "check.h"
#include "core/internal.h"

/* The first element as a double (float32 values convert exactly). */
static double at(const ct_tensor *t, int64_t i) {
  (void)i;
  double v = NAN;
  CHECK(ct_copy_to_buffer(t, &v, CT_FLOAT64, sizeof v) == CT_OK);
  return v;
}

int main(void) {
  ct_tensor *x = CT_TENSOR(CT_L(1.0, -2.0, 0.0), CT_L(3.0, 0.0, 4.0));
  ct_tensor *r = ct_linalg_vector_norm(x, NULL); /* torch: 5.4772257804870605, float32 */
  CHECK(r && ct_dtype_of(r) == CT_FLOAT32 && r->ndim == 0);
  CHECK(at(r, 0) == (double)5.4772257804870605f);
  ct_release(r);
  r = ct_linalg_vector_norm(x, &(ct_vector_norm_opts){.ord = CT_NUM(0)}); /* ord=0: 4.0 nonzeros */
  CHECK(r && at(r, 0) == 4.0);
  ct_release(r);
  r = ct_linalg_vector_norm(x, &(ct_vector_norm_opts){.ord = CT_NUM(-INFINITY)}); /* min |x|: 0.0 */
  CHECK(r && at(r, 0) == 0.0);
  ct_release(r);
  ct_tensor *c = ct_to_dtype(x, CT_COMPLEX64); /* complex input, real result: float32 5.4772257804870605 */
  r = ct_linalg_vector_norm(c, NULL);
  CHECK(r && ct_dtype_of(r) == CT_FLOAT32 && at(r, 0) == (double)5.4772257804870605f);
  ct_release(r);
  ct_tensor *i = CT_TENSOR(1, 2);
  CHECK(ct_linalg_vector_norm(i, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long");
  CHECK(ct_linalg_vector_norm(x, &(ct_vector_norm_opts){.dtype = CT_FLOAT16}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.vector_norm: the dtype of the input (Float) should be convertible without "
                              "narrowing to the specified dtype (Half)");
  ct_tensor *e = ct_empty(CT_SHAPE(0), NULL);
  CHECK(ct_linalg_vector_norm(e, &(ct_vector_norm_opts){.ord = CT_NUM(INFINITY)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.vector_norm cannot compute the inf norm on an empty tensor because the "
                              "operation does not have an identity");
  ct_tensor *out = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_linalg_vector_norm_out(out, x, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype float, but got double instead");
  /* meta: vector_norm(torch.empty(2, 3, device='meta'), dim=1) is a meta float32 tensor of shape (2,) */
  ct_tensor *m = ct_empty(CT_SHAPE(2, 3), &(ct_tensor_opts){.device = CT_DEVICE_META});
  r = ct_linalg_vector_norm(m, &(ct_vector_norm_opts){.dims = CT_DIMS(1)});
  CHECK(r && ct_device_of(r).type == CT_META && r->ndim == 1 && r->sizes[0] == 2 && ct_dtype_of(r) == CT_FLOAT32);
  ct_release(r);
  ct_release(m);
  ct_release(out);
  ct_release(e);
  ct_release(i);
  ct_release(c);
  ct_release(x);
  return TEST_SUMMARY();
}
