/* Pointwise ops: one descriptor per op (kernel name, promotion kind, loops per dtype, optional argument
   checks, the route its public forms take) and the generic entry that runs any of them through the
   engine in its three forms: out-of-place, in-place (`_`) and `_out`. */
#ifndef CTORCH_OPS_PW_H
#define CTORCH_OPS_PW_H

#include "iter/iter.h"

typedef enum ct_pw_kind {
  CT_PW_SAME,         /* unary, dtype kept, all operands must share it (abs, neg) */
  CT_PW_FLOAT,        /* promote, integers and bool to the default float (sqrt, exp) */
  CT_PW_COMMON,       /* promote to the common dtype (add, mul) */
  CT_PW_COMMON_FLOAT, /* promote, then integers and bool to the default float (true div, atan2) */
  CT_PW_COMPARE,      /* promote, bool result (eq, lt, logical_and) */
  CT_PW_PREDICATE,    /* unary, any dtype, bool result (isnan, signbit) */
} ct_pw_kind;

/* Room for an op's loop context (alpha, a scalar in the compute dtype, ...). */
typedef struct ct_pw_ctx {
  _Alignas(16) unsigned char bytes[64];
} ct_pw_ctx;

typedef struct ct_pw_op ct_pw_op;

/* What torch's autograd layer (VariableType) checks before an op's out= form runs: a differentiable op
   refuses any argument that requires grad; most ops without a derivative check nothing; a few
   (conj_physical, floor_divide, bitwise ops) treat the out as an in-place target (check_inplace). */
typedef enum { CT_PW_GRAD_DIFF = 0, CT_PW_GRAD_NONE, CT_PW_GRAD_OUT_INPLACE } ct_pw_grad;

/* How torch's out= form of an op meets an out on another device than its inputs: TensorIterator's "Expected
   all tensors to be on the same device" (most ops); the copy of a result computed on the inputs' device
   ("Attempting to copy from device cpu to device meta, but cross-device copies are not allowed!": abs,
   logical ops, floor_divide, where, logit, nan_to_num...); angle's "out Tensor doesn't have the correct
   device set". */
typedef enum { CT_PW_DEV_ITER = 0, CT_PW_DEV_COPY, CT_PW_DEV_OUT_SET } ct_pw_dev;

/* How the public forms of an op run it. out: NULL for the functional form, self in place, the out=
   tensor; in: its n_in operands (self first in place); args: the op's arguments (the alpha ops pass
   their ct_alpha_opts, the others NULL); result: where the functional form's new tensor goes (NULL for
   the other forms). ct__pw_run is the plain one. */
typedef ct_status (*ct_pw_route)(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                                 bool inplace, const void *args, ct_tensor **result);

struct ct_pw_op {
  const char *kernel; /* the name in PyTorch's "not implemented" message: "abs_cpu" */
  ct_pw_kind kind;
  const ct_loop *const *loops; /* [CT_NUM_DTYPES + 1] by compute dtype; NULL: not implemented */
  /* Op-specific argument and dtype checks PyTorch makes; records the error and returns false. */
  bool (*check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* Fills the loop context for the compute dtype from the op's arguments. */
  void (*prepare)(ct_dtype common, const void *args, ct_pw_ctx *ctx);
  /* The route of the public forms; NULL is ct__pw_run. Others add the checks PyTorch makes before
     TensorIterator's, take its casting route (ct__pw_run_staged, ct__bin_pw_run) or its composite. */
  ct_pw_route run;
  /* Autograd's slot, until derivatives land: what torch's autograd layer checks in the op's out= form
     (ct_pw_grad); grad_name: the ATen name of the op a table op's forms run, where it is not the table's
     name (square runs pow), for the DIFF refusal's message. */
  ct_pw_grad grad;
  const char *grad_name;
  ct_pw_dev dev; /* the out= form's device message */
};

/* The descriptors of the regular ops of include/ctorch/pointwise_ops.h, ct__pw_op_<name>, each defined
   with the op's kernels; pw_api.c defines the public forms from them. */
#define CT__PW_OP_EXTERN(name, form, torch, kind) extern const ct_pw_op ct__pw_op_##name;
CT_POINTWISE_OPS(CT__PW_OP_EXTERN, CT_POINTWISE_SKIP, CT_POINTWISE_SKIP)
#undef CT__PW_OP_EXTERN

/* The device check of an out= form whose descriptor's dev is not CT_PW_DEV_ITER (records torch's message). */
bool ct__pw_out_device_ok(ct_pw_dev rule, const ct_tensor *out, const ct_tensor *const *in, int n_in);

/* Runs op. out NULL: a new result is stored in *result. inplace: out is in[0] and keeps its shape. */
ct_status ct__pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result);

/* The same, but inputs of another dtype are first converted into temporaries laid out as Tensor.to lays
   them out, as TensorIterator does, instead of on the fly: for kernels whose vector and scalar paths
   differ (cpu_kernel_vec), so that the loop sees PyTorch's rows. */
ct_status ct__pw_run_staged(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result);

#endif
