/* The op table (include/ctorch/pointwise_ops.h) against the descriptors the library defines for its
   regular ops: the promotion kind the table states is the descriptor's, and the descriptor names a
   kernel and has one at least, names its forms' ATen operators and has the meta row (torch 1.13 has a
   Meta kernel for every pointwise op). (An alias's target that is not an op, or an op without a descriptor,
   already fails the build.) */
#include "check.h"
#include "ops/pointwise/pw.h"

static const char *const kind_names[] = {[CT_PW_SAME] = "SAME",         [CT_PW_FLOAT] = "FLOAT",
                                         [CT_PW_COMMON] = "COMMON",     [CT_PW_COMMON_FLOAT] = "COMMON_FLOAT",
                                         [CT_PW_COMPARE] = "COMPARE", [CT_PW_PREDICATE] = "PREDICATE"};

static void check_op(const char *name, const ct_pw_op *op, ct_pw_kind table_kind, const char *kind_name) {
  int loops = 0;
  const ct_loop *const *cpu = op->op.kernels[CT_CPU];
  for (int d = CT_BOOL; d <= CT_COMPLEX128; d++) loops += cpu && cpu[d] != NULL;
  bool named = op->op.name && op->op.aten && op->aten_inplace && op->aten_out &&
               strncmp(op->op.aten, "aten::", 6) == 0 && strncmp(op->aten_out, "aten::", 6) == 0;
  bool ok = op->kind == table_kind && op->kernel && loops > 0 && named &&
            op->op.kernels[CT_META] == ct__pw_meta_loops;
  if (ok) {
    ct_test_passed++;
    return;
  }
  ct_test_failed++;
  if (op->kind != table_kind)
    fprintf(stderr, "%s: the table says %s, the descriptor ct__pw_op_%s %s\n", name, kind_name, name,
            kind_names[op->kind]);
  else
    fprintf(stderr,
            "%s: the descriptor ct__pw_op_%s lacks a kernel name, a loop, an ATen name or its meta row\n",
            name, name);
}

#define CHECK_OP(name, form, torch, kind) check_op(#name, &ct__pw_op_##name, CT_PW_##kind, #kind);

int main(void) {
  CT_POINTWISE_OPS(CHECK_OP, CT_POINTWISE_SKIP, CT_POINTWISE_SKIP)
  return TEST_SUMMARY();
}
