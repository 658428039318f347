/* torch.normal with tensor arguments: the samples are drawn as normal_(0, std) or normal_(0, 1) into
   a contiguous result, then PyTorch's out.add_(mean) / out.mul_(std).add_(mean) are applied, with
   their broadcasting and dtype promotion. */
#include <stdio.h>

#include "core/cast.h"
#include "iter/iter.h"
#include "ops/pointwise/pw.h"
#include "random/random_internal.h"

/* out op= other through the pointwise engine (PyTorch's own out.mul_(std) / out.add_(mean)); any
   broadcast, promotion or cast rule is the engine's. */
typedef enum { OP_ADD, OP_MUL } bin_op;

typedef struct binop {
  const ct_tensor *other;
  bin_op op;
} binop;

typedef struct std_scan {
  ct_dtype dtype;
  bool ok;
} std_scan;

/* std.min().ge(0) over a run of std's elements: a NaN fails too. */
static void std_run(void *ctx, char *const *ptr, const int64_t *stride, int64_t n) {
  std_scan *c = ctx;
  for (int64_t i = 0; i < n && c->ok; i++)
    c->ok = ct__scalar_to_double(ct__load_scalar(c->dtype, ptr[0] + i * stride[0])) >= 0;
}

static bool check_std_tensor(const ct_tensor *std) {
  if (ct_dtype_is_complex((ct_dtype)std->dtype)) {
    ct__error(CT_ERR_RUNTIME, "normal expects standard deviation to be non-complex");
    return false;
  }
  if (std->numel == 0 || std->device_type == CT_META) return true;
  if (CT_UNLIKELY(ct__math_bits(std) != 0)) { /* the scan reads std's values: a resolved copy */
    ct_tensor *r = ct__resolve_bits(std);
    bool ok = r && check_std_tensor(r);
    ct_release(r);
    return ok;
  }
  /* each element in memory once: a broadcast (stride-0) dim repeats the same values, and an expanded std
     of 10^12 elements held a fuzz input for minutes */
  int64_t nd = std->ndim, sizes[nd > 0 ? nd : 1];
  bool expanded = false;
  for (int64_t d = 0; d < nd; d++) {
    sizes[d] = std->strides[d] == 0 ? 1 : std->sizes[d];
    expanded |= sizes[d] != std->sizes[d];
  }
  ct_tensor *v = expanded ? ct__view(std, nd, sizes, std->strides, std->offset) : NULL;
  if (expanded && !v) return false;
  std_scan c = {(ct_dtype)std->dtype, true};
  ct__walk(v ? v : std, NULL, std_run, &c);
  ct_release(v);
  if (!c.ok) ct__error(CT_ERR_RUNTIME, "normal expects all elements of std >= 0.0");
  return c.ok;
}

/* torch's normal.Tensor_float / float_Tensor / Tensor_Tensor (with Meta kernels); ctorch runs them as normal_
   then add_ / mul_, on the rows normal_ has. */
#define NORMAL_TENSOR_OP(ATEN) \
  { CT_CREATE_OP("normal", ATEN, &ct__fill_nothing) }
static const ct_op normal_tf_op = NORMAL_TENSOR_OP("aten::normal.Tensor_float");
static const ct_op normal_ft_op = NORMAL_TENSOR_OP("aten::normal.float_Tensor");
static const ct_op normal_tt_op = NORMAL_TENSOR_OP("aten::normal.Tensor_Tensor");

static ct_tensor *new_contiguous(int64_t nd, const int64_t *shape, const ct_tensor *like) {
  return ct__empty(nd, shape, (ct_dtype)like->dtype, ct__tdevice(like));
}

/* Draws normal_(out, 0, std) then applies the operations in order. out has the broadcast shape and a
   floating dtype every operand casts to, so the in-place ops cannot fail on their arguments, and up to
   rank 8 the engine does not allocate: the generator never moves for a call that fails. */
static ct_tensor *sample_then(ct_tensor *out, double std, const binop *ops, int nops, const ct_sample_opts *opts) {
  ct_status st = ct__normal_impl(out, 0.0, std, opts);
  for (int i = 0; i < nops && st == CT_OK; i++)
    st = ct__pw_apply_(ops[i].op == OP_ADD ? &ct__pw_op_add : &ct__pw_op_mul, out, ops[i].other);
  if (st != CT_OK) {
    ct_release(out);
    return NULL;
  }
  return ct__own(out);
}

ct_tensor *ct_normal_tensor_scalar(const ct_tensor *mean, double std, const ct_sample_opts *opts) {
  CT__OP_ENTER_PTR(&normal_tf_op, mean, mean);
  if (!(std >= 0.0)) return CT_ERR_NULL(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
  ct_tensor *out = new_contiguous(mean->ndim, mean->sizes, mean);
  if (!out) return NULL;
  const binop ops[1] = {{mean, OP_ADD}};
  return sample_then(out, std, ops, 1, opts);
}

ct_tensor *ct_normal_scalar_tensor(double mean, const ct_tensor *std, const ct_sample_opts *opts) {
  CT__OP_ENTER_PTR(&normal_ft_op, std, std);
  if (!check_std_tensor(std)) return NULL;
  ct_tensor *out = new_contiguous(std->ndim, std->sizes, std);
  if (!out) return NULL;
  /* mean_tensor = full({}, mean, output.options()): mean in the output's dtype */
  ct_tensor *m = ct__empty(0, NULL, (ct_dtype)out->dtype, CT_DEVICE_CPU);
  if (!m) {
    ct_release(out);
    return NULL;
  }
  ct__elem_store_f64((ct_dtype)m->dtype, ct__tdata(m), mean);
  const binop ops[2] = {{std, OP_MUL}, {m, OP_ADD}};
  ct_tensor *r = sample_then(out, 1.0, ops, 2, opts);
  ct_release(m);
  return r;
}

ct_tensor *ct_normal(const ct_tensor *mean, const ct_tensor *std, const ct_sample_opts *opts) {
  CT__OP_ENTER_PTR(&normal_tt_op, mean, mean, std);
  if (!ct__op_accepts(&normal_tt_op, std)) return NULL;
  if (!check_std_tensor(std)) return NULL;
  int64_t nd = mean->ndim > std->ndim ? mean->ndim : std->ndim;
  int64_t small[8], *shape = nd <= 8 ? small : ct__malloc((size_t)nd * sizeof(int64_t));
  if (!shape) return NULL;
  ct_tensor *out = NULL;
  if (ct__broadcast_shapes(mean->sizes, mean->ndim, std->sizes, std->ndim, shape) == CT_OK)
    out = new_contiguous(nd, shape, mean);
  if (shape != small) ct__free(shape);
  if (!out) return NULL;
  const binop ops[2] = {{std, OP_MUL}, {mean, OP_ADD}};
  return sample_then(out, 1.0, ops, 2, opts);
}
