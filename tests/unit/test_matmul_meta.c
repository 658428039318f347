/* The products on the meta device: torch 1.13's meta functions (structured mm/bmm/addmm, Python meta_dot,
   vdot, addbmm, torch/_refs' trace) and the composites over them (matmul, einsum). Every expected geometry
   and message below is torch 1.13's, from the lines quoted (m(*s, dtype) = torch.empty(*s, device="meta",
   dtype=dtype)). tests/diff/ops_meta_core.py compares every entry of ops_matmul on meta at random. */
#include <string.h>

#include "check.h"

static ct_tensor *meta(ct_shape s, ct_dtype dt) {
  return ct_empty(s, &(ct_tensor_opts){.device = CT_DEVICE_META, .dtype = dt});
}

static bool on_meta(const ct_tensor *t) { return t && ct_device_of(t).type == CT_META; }

/* mm and bmm: the structured meta functions' geometry, none of the CPU kernel's checks. */
static void test_mm_bmm(void) {
  /* torch.mm(m(2, 3), m(3, 4, dtype=float64)): (2, 4), strides (4, 1), float32 (the CPU refuses the dtypes) */
  ct_tensor *a = meta(CT_SHAPE(2, 3), CT_FLOAT32), *b = meta(CT_SHAPE(3, 4), CT_FLOAT64);
  ct_tensor *r = ct_mm(a, b);
  CHECK(on_meta(r) && ct_dtype_of(r) == CT_FLOAT32);
  if (r) {
    CHECK_SHAPE(r, 2, 4);
    CHECK_STRIDES(r, 4, 1);
  }
  ct_release(r);
  /* torch.mm(torch.ones(2, 3), m(3, 4, dtype=float64)).device: meta (c10 dispatches to meta, whose kernel
     makes a meta result) */
  ct_tensor *cpu = ct_ones(CT_SHAPE(2, 3), NULL);
  r = ct_mm(cpu, b);
  CHECK(on_meta(r) && ct_dtype_of(r) == CT_FLOAT32);
  ct_release(r);
  ct_release(cpu);
  /* torch.mm(m(2, 3), m(4, 4)): "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x4)" */
  ct_tensor *c = meta(CT_SHAPE(4, 4), CT_FLOAT32);
  CHECK(ct_mm(a, c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x4)");
  /* torch.addmm(m(10, 4), m(9, 3), m(3, 4)): (9, 4): the meta function does not expand self */
  ct_tensor *s = meta(CT_SHAPE(10, 4), CT_FLOAT32), *m1 = meta(CT_SHAPE(9, 3), CT_FLOAT32),
            *m2 = meta(CT_SHAPE(3, 4), CT_FLOAT32);
  r = ct_addmm(s, m1, m2, NULL);
  CHECK(on_meta(r));
  if (r) {
    CHECK_SHAPE(r, 9, 4);
    CHECK_STRIDES(r, 4, 1);
  }
  ct_release(r);
  /* o = m(2, 4, 2).transpose(1, 2); torch.bmm(m(2, 2, 3), m(2, 3, 4), out=o): o keeps strides (8, 1, 2) */
  ct_tensor *x = meta(CT_SHAPE(2, 2, 3), CT_FLOAT32), *y = meta(CT_SHAPE(2, 3, 4), CT_FLOAT32),
            *ob = meta(CT_SHAPE(2, 4, 2), CT_FLOAT32), *o = ct_transpose(ob, 1, 2);
  CHECK(ct_bmm_out(o, x, y) == CT_OK);
  CHECK_SHAPE(o, 2, 2, 4);
  CHECK_STRIDES(o, 8, 1, 2);
  /* m(4).addbmm_(m(2, 2, 3), m(2, 3, 4)): addbmm_'s Meta kernel checks nothing, self stays (4,) */
  ct_tensor *s4 = meta(CT_SHAPE(4), CT_FLOAT32);
  CHECK(ct_addbmm_(s4, x, y, NULL) == CT_OK);
  CHECK_SHAPE(s4, 4);
  ct_release(s4);
  ct_release(o);
  ct_release(ob);
  ct_release(x);
  ct_release(y);
  ct_release(s);
  ct_release(m1);
  ct_release(m2);
  ct_release(c);
  ct_release(a);
  ct_release(b);
}

/* matmul and einsum: composites over mm, mv, bmm and the views. */
static void test_matmul_einsum(void) {
  ct_tensor *x = meta(CT_SHAPE(2, 2, 3), CT_FLOAT32), *v = meta(CT_SHAPE(3), CT_FLOAT32);
  /* torch.matmul(m(2, 2, 3), m(3)): (2, 2), strides (2, 1) */
  ct_tensor *r = ct_matmul(x, v);
  CHECK(on_meta(r));
  if (r) {
    CHECK_SHAPE(r, 2, 2);
    CHECK_STRIDES(r, 2, 1);
  }
  ct_release(r);
  /* torch.matmul(m(2, 1, 3, 4), m(5, 4, 2)): (2, 5, 3, 2), strides (30, 6, 2, 1) */
  ct_tensor *p = meta(CT_SHAPE(2, 1, 3, 4), CT_FLOAT32), *q = meta(CT_SHAPE(5, 4, 2), CT_FLOAT32);
  r = ct_matmul(p, q);
  CHECK(on_meta(r));
  if (r) {
    CHECK_SHAPE(r, 2, 5, 3, 2);
    CHECK_STRIDES(r, 30, 6, 2, 1);
  }
  ct_release(r);
  /* torch.einsum('bij,bjk->bik', m(2, 3, 4), m(2, 4, 5)): (2, 3, 5), strides (15, 5, 1) */
  ct_tensor *e1 = meta(CT_SHAPE(2, 3, 4), CT_FLOAT32), *e2 = meta(CT_SHAPE(2, 4, 5), CT_FLOAT32);
  r = ct_einsum("bij,bjk->bik", CT_TENSORS(e1, e2));
  CHECK(on_meta(r));
  if (r) {
    CHECK_SHAPE(r, 2, 3, 5);
    CHECK_STRIDES(r, 15, 5, 1);
  }
  ct_release(r);
  /* torch.einsum('ii->i', m(3, 3)): the diagonal view, (3,), strides (4,) */
  ct_tensor *sq = meta(CT_SHAPE(3, 3), CT_FLOAT32);
  r = ct_einsum("ii->i", CT_TENSORS(sq));
  CHECK(on_meta(r));
  if (r) {
    CHECK_SHAPE(r, 3);
    CHECK_STRIDES(r, 4);
  }
  ct_release(r);
  ct_release(sq);
  ct_release(e1);
  ct_release(e2);
  ct_release(p);
  ct_release(q);
  ct_release(x);
  ct_release(v);
}

/* dot, vdot and trace: Python meta functions. */
static void test_dot_trace(void) {
  /* torch.dot(m(3), m(4, dtype=int32)): a float32 0-dim tensor (meta_dot checks only the dims) */
  ct_tensor *a = meta(CT_SHAPE(3), CT_FLOAT32), *b = meta(CT_SHAPE(4), CT_INT32);
  ct_tensor *r = ct_dot(a, b);
  CHECK(on_meta(r) && ct_dtype_of(r) == CT_FLOAT32 && ct_dim(r) == 0);
  ct_release(r);
  /* c = m(3, dtype=complex64): torch.dot(c.conj(), c.conj()).is_conj() is False (meta_dot reads no conjugate
     bit), torch.vdot(c, c.conj()).is_conj() is True (vdot's routing: dot(c, c).conj()) */
  ct_tensor *c = meta(CT_SHAPE(3), CT_COMPLEX64), *cc = ct_conj(c);
  r = ct_dot(cc, cc);
  CHECK(on_meta(r) && !ct_is_conj(r));
  ct_release(r);
  r = ct_vdot(c, cc);
  CHECK(on_meta(r) && ct_is_conj(r));
  ct_release(r);
  /* torch.trace(m(2, 2, dtype=bool)).dtype: torch.int64 (torch/_refs' sum of the diagonal) */
  ct_tensor *t = meta(CT_SHAPE(2, 2), CT_BOOL);
  r = ct_trace(t);
  CHECK(on_meta(r) && ct_dtype_of(r) == CT_INT64 && ct_dim(r) == 0);
  ct_release(r);
  /* torch.trace(m(2, 2, 2)): the reference's message, not an f-string */
  ct_tensor *t3 = meta(CT_SHAPE(2, 2, 2), CT_FLOAT32);
  CHECK(ct_trace(t3) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "expected a matrix, but got tensor with dim {self.ndim}");
  /* torch.tensordot(m(2, 3), m(3, 4), 1, out=m(2, 4)): tensordot.out has no Meta kernel */
  ct_tensor *x = meta(CT_SHAPE(2, 3), CT_FLOAT32), *y = meta(CT_SHAPE(3, 4), CT_FLOAT32),
            *o = meta(CT_SHAPE(2, 4), CT_FLOAT32);
  CHECK(ct_tensordot_out(o, x, y, 1) == CT_ERR_NOT_IMPLEMENTED);
  const char *want = "Could not run 'aten::tensordot.out' with arguments from the 'Meta' backend.";
  CHECK(strncmp(ct_last_error_message(), want, strlen(want)) == 0);
  ct_clear_error();
  ct_release(o);
  ct_release(x);
  ct_release(y);
  ct_release(t3);
  ct_release(t);
  ct_release(cc);
  ct_release(c);
  ct_release(a);
  ct_release(b);
}

static ct_tensor *cpu(ct_shape s, ct_dtype dt) { return ct_zeros(s, &(ct_tensor_opts){.dtype = dt}); }

/* The composites' out= forms with tensors on two devices (c(*s) = torch.zeros(*s)): each meets the device check
   of the op it reaches first, or that composite's own. A failing call leaves out as it was (torch has resized it
   by then in the matmul, dot and chain_matmul cases). */
static void test_mixed_devices(void) {
  ct_tensor *c324 = cpu(CT_SHAPE(3, 2, 4), CT_FLOAT32), *c45 = cpu(CT_SHAPE(4, 5), CT_FLOAT32);
  ct_tensor *m324 = meta(CT_SHAPE(3, 2, 4), CT_FLOAT32), *c345 = cpu(CT_SHAPE(3, 4, 5), CT_FLOAT32);
  /* torch.matmul(c(3, 2, 4), c(4, 5), out=m(1)): the fold's mm_out, on meta, checks out against its self */
  ct_tensor *o = meta(CT_SHAPE(1), CT_FLOAT32);
  CHECK(ct_matmul_out(o, c324, c45) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have device cpu, but got meta instead");
  CHECK_SHAPE(o, 1);
  ct_release(o);
  /* o = c(1); torch.matmul(m(3, 2, 4), c(3, 4, 5), out=o): bmm_out's meta function (batch2 on the CPU, as o) resizes
     o to (3, 2, 5), strides (10, 5, 1), and writes nothing */
  o = cpu(CT_SHAPE(1), CT_FLOAT32);
  CHECK(ct_matmul_out(o, m324, c345) == CT_OK);
  CHECK_SHAPE(o, 3, 2, 5);
  CHECK_STRIDES(o, 10, 5, 1);
  ct_release(o);
  /* torch.matmul(m(4), c(4), out=c(())): dot_out's own check */
  ct_tensor *m4 = meta(CT_SHAPE(4), CT_FLOAT32), *c4 = cpu(CT_SHAPE(4), CT_FLOAT32);
  o = ct_zeros((ct_shape){NULL, 0}, NULL);
  CHECK(ct_matmul_out(o, m4, c4) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "dot: Expected the output and input tensors to be on the same device, but got the "
              "output tensor on cpu, the 'input' tensor on meta, and the 'other' tensor on cpu");
  ct_release(o);
  /* torch.inner(c(3, 4), m(2, 4), out=c(1)): checkDeviceType over out, self, other */
  ct_tensor *c34 = cpu(CT_SHAPE(3, 4), CT_FLOAT32), *m24 = meta(CT_SHAPE(2, 4), CT_FLOAT32);
  o = cpu(CT_SHAPE(1), CT_FLOAT32);
  CHECK(ct_inner_out(o, c34, m24) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Expected tensor to have cpu DeviceType, but got tensor with meta DeviceType (while "
              "checking arguments for inner())");
  /* torch.linalg.multi_dot([c(2, 3), m(3, 5)], out=c(1)), then ([c(2, 3), c(3, 5)], out=m(1)) */
  ct_tensor *c23 = cpu(CT_SHAPE(2, 3), CT_FLOAT32), *m35 = meta(CT_SHAPE(3, 5), CT_FLOAT32),
            *c35 = cpu(CT_SHAPE(3, 5), CT_FLOAT32);
  CHECK(ct_linalg_multi_dot_out(o, CT_TENSORS(c23, m35)) == CT_ERR_RUNTIME);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "multi_dot(): all tensors must be on the same device but tensor 0 is on cpu and tensor 1 on meta");
  ct_tensor *mo = meta(CT_SHAPE(1), CT_FLOAT32);
  CHECK(ct_linalg_multi_dot_out(mo, CT_TENSORS(c23, c35)) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "multi_dot(): expected out tensor to be on device cpu but got meta");
  /* torch.chain_matmul(m(3, 4), out=c(1)): copy_ out of meta; torch.chain_matmul(c(3, 4), out=m(1)): resized to
     (3, 4), strides (4, 1) */
  ct_tensor *m34 = meta(CT_SHAPE(3, 4), CT_FLOAT32);
  CHECK(ct_chain_matmul_out(o, CT_TENSORS(m34)) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  CHECK_SHAPE(o, 1);
  CHECK(ct_chain_matmul_out(mo, CT_TENSORS(c34)) == CT_OK);
  CHECK_SHAPE(mo, 3, 4);
  CHECK_STRIDES(mo, 4, 1);
  /* torch.linalg.vecdot(c(3, 4), c(3, 4), out=m(2)): checkSameDevice names x "result" and out "input";
     torch.linalg.vecdot(c(4), m(4), out=c(2)): vdot_out's check; out=c(2, dtype=int64): the out dtype check first */
  ct_tensor *m2 = meta(CT_SHAPE(2), CT_FLOAT32), *c2 = cpu(CT_SHAPE(2), CT_FLOAT32),
            *l2 = cpu(CT_SHAPE(2), CT_INT64);
  CHECK(ct_linalg_vecdot_out(m2, c34, c34, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.vecdot: Expected result and input tensors to be on the same device, but got "
              "result on cpu and input on meta");
  CHECK(ct_linalg_vecdot_out(c2, c4, m4, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "vdot: Expected the output and input tensors to be on the same device, but got the "
              "output tensor on cpu, the 'input' tensor on cpu, and the 'other' tensor on meta");
  CHECK(ct_linalg_vecdot_out(l2, c34, m34, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.vecdot: Expected out of dtypeFloat but found Long");
  ct_tensor *all[] = {c324, c45, m324, c345, m4, c4, c34, m24, o, c23, m35, c35, mo, m34, m2, c2, l2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) ct_release(all[i]);
}

int main(void) {
  test_mm_bmm();
  test_matmul_einsum();
  test_dot_trace();
  test_mixed_devices();
  return TEST_SUMMARY();
}
