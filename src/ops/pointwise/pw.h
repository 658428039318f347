/* Pointwise ops: one descriptor per op (kernel name, promotion kind, loops per dtype, optional argument
   checks, the route its public forms take) and the generic entry that runs any of them through the
   engine in its three forms: out-of-place, in-place (`_`) and `_out`. */
#ifndef CTORCH_OPS_PW_H
#define CTORCH_OPS_PW_H

#include "core/op.h"
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
  /* What every family shares (core/op.h): name, the ATen op the public forms run (autograd's out= refusal
     names it: "pow" for square); aten, the functional form's ATen operator ("aten::remainder.Tensor");
     grad, autograd's slot; kernels[CT_CPU], the loops by compute dtype (NULL entry: "not implemented
     for"); kernels[CT_META], ct__pw_meta_loops (torch 1.13 has a Meta kernel for every pointwise op:
     shape only, no dtype check). */
  ct_op op;
  const char *aten_inplace, *aten_out; /* the in-place and out= forms' ATen operators */
  const char *kernel; /* the name in PyTorch's "not implemented" message: "abs_cpu" */
  ct_pw_kind kind;
  /* Op-specific argument and dtype checks PyTorch makes; records the error and returns false. */
  bool (*check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* The checks torch's CPU kernel makes once it runs (a scalar's checked conversion to the compute dtype, an
     integer zero divisor, Loops.h's dynamic-casting assert), after "not implemented": a call that dispatches
     to the meta device runs no kernel, so torch 1.13 makes none of them there. Same contract as check. */
  bool (*kernel_check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* Fills the loop context for the compute dtype from the op's arguments. */
  void (*prepare)(ct_dtype common, const void *args, ct_pw_ctx *ctx);
  /* The route of the public forms; NULL is ct__pw_run. Others add the checks PyTorch makes before
     TensorIterator's, take its casting route (ct__pw_run_staged, ct__bin_pw_run) or its composite. */
  ct_pw_route run;
  ct_pw_dev dev; /* the out= form's device message */
  /* torch builds the op's TensorIterator without allow_cpu_scalars though it has two inputs (clamp with one
     Tensor bound): a CPU 0-dim operand must then be on the common device too. The engine's default is torch's
     builders': the binary ones allow one CPU scalar, the unary and ternary ones none. */
  bool no_cpu_scalars;
  /* torch runs the functional form over the out= form with an empty out (unary_op_impl, comparison_op), the
     in-place form with out self: with CT_PW_DEV_COPY, on meta, out_wrapper resizes that empty out, so the
     result is contiguous, and self keeps its shape when it holds the result's element count (ct__pw_ref_run) */
  bool fn_over_out;
  /* The checks of the op's torch/_refs reference, which torch 1.13 runs on meta in place of its CPU kernel
     ("torch.complex64 not supported for floor_divide"): made on meta after check. Same contract as check. */
  bool (*meta_check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* torch 1.13's Meta kernel of the in-place form is RegisterMeta's stand-in for an op with no meta function of
     its own (floor_divide_, logit_, masked_fill_): no check, self returned (ct__pw_meta_inplace_noop). */
  bool meta_inplace_noop;
  /* The reference reaches a prim over its operands (logical_or's bitwise_or), whose meta checks they share a device
     (CPU 0-dim tensors aside: ct__pw_refs_same_device) before anything is computed and gives the result its first
     operand's device. */
  bool ref_same_device;
  /* The reference's own rule for operands on two devices, made after its broadcast: the device it computes on (and
     gives its result), or false with its refusal recorded ("Expected divisor (b) to be on the same device (cpu) as
     dividend (a), but it is found on meta!"). With it, ct__pw_ref_run runs the route over meta stand-ins of the
     operands (the reference's checks, meta_check, and its result's shape and dtype, whatever device the operands are
     on); where the reference computes on CPU operands (a meta out), ref_cpu_check follows and nothing is computed:
     that result only meets out_wrapper's refusal of an out on another device. */
  bool (*ref_device)(const ct_tensor *const *in, int n_in, ct_device *dev);
  /* The checks of the CPU kernels the reference's steps run where it computes on CPU operands (logit's clamp: "value
     cannot be converted to type float without overflow"), common being its computation dtype (opmath: float32 for
     float16 and bfloat16). Same contract as check. */
  bool (*ref_cpu_check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* The strides of the reference's functional result on meta (dev CT_PW_DEV_COPY), where they are not
     TensorIterator's: in, the operands; r, the result the op's route computed (its shape and dtype). */
  void (*ref_strides)(const ct_tensor *const *in, int n_in, const ct_tensor *r, int64_t *strides);
};

/* The meta row of every pointwise descriptor: a shape-only loop for every dtype (the engine sizes the
   outputs of a call with a meta operand and runs nothing). */
extern const ct_loop *const ct__pw_meta_loops[CT_NUM_DTYPES + 1];

/* The rows of an op that returns its input or a view of it (positive, real): it runs wherever the
   tensor is. */
extern const char ct__pw_view_row[1];
#define CT_PW_VIEW_OP(nm, aten_) \
  .name = nm, .aten = aten_, .kernels = {[CT_CPU] = ct__pw_view_row, [CT_META] = ct__pw_view_row}

/* The ATen operators of an op's functional, in-place and out= forms, as torch's dispatcher names them:
   plain ("aten::sqrt", "aten::sqrt_", "aten::sqrt.out"), the Tensor overloads ("aten::eq.Tensor",
   "aten::eq_.Tensor", "aten::eq.Tensor_out"), or any three (checked with torch 1.13 on sparse inputs). */
#define CT_PW_ATEN(n)        ("aten::" n, "aten::" n "_", "aten::" n ".out")
#define CT_PW_ATEN_TENSOR(n) ("aten::" n ".Tensor", "aten::" n "_.Tensor", "aten::" n ".Tensor_out")
/* an op whose forms torch runs as composites over its out= form (logical_and) */
#define CT_PW_ATEN_OUT(n)            ("aten::" n ".out", "aten::" n ".out", "aten::" n ".out")
#define CT__PW_ATEN_FN(fn, ip, out)  fn
#define CT__PW_ATEN_IP(fn, ip, out)  ip
#define CT__PW_ATEN_OUT(fn, ip, out) out

/* A descriptor's common part, then its own designators (.check, .prepare, .run, .dev):
     const ct_pw_op ct__pw_op_sqrt = {CT_PW_OP("sqrt", "sqrt_vml_cpu", FLOAT, sqrt_loops)};
   name: the ATen op the forms run; kernel: the name in "not implemented for"; kind: CT_PW_<kind>; loops: the
   CPU row. CT_PW_OP_GRAD adds autograd's slot where it is not DIFF (CT_OP_GRAD_<grad>), CT_PW_OP_ATEN the
   forms' ATen operators where they are not CT_PW_ATEN(name). */
#define CT_PW_OP_ATEN(nm, aten_, kernel_, kind_, loops_, grad_)                               \
  .op = {.name = nm,                                                                          \
         .aten = CT__PW_ATEN_FN aten_,                                                        \
         .grad = CT_OP_GRAD_##grad_,                                                          \
         .kernels = {[CT_CPU] = loops_, [CT_META] = ct__pw_meta_loops}},                      \
  .aten_inplace = CT__PW_ATEN_IP aten_, .aten_out = CT__PW_ATEN_OUT aten_, .kernel = kernel_, \
  .kind = CT_PW_##kind_
#define CT_PW_OP_GRAD(nm, kernel_, kind_, loops_, grad_) \
  CT_PW_OP_ATEN(nm, CT_PW_ATEN(nm), kernel_, kind_, loops_, grad_)
#define CT_PW_OP(nm, kernel_, kind_, loops_) CT_PW_OP_ATEN(nm, CT_PW_ATEN(nm), kernel_, kind_, loops_, DIFF)

/* A public form's entry guard over its tensor arguments (after its named NULL checks): layout and
   dispatch device against op's rows, refused with the dispatcher's message for aten (CT__OP_ACCEPTS). */
#define CT__PW_ACCEPTS(pw, aten, ...) CT__OP_ACCEPTS(&(pw)->op, aten, __VA_ARGS__)

/* The ATen operator of a public form: in place, out= (out given), functional. */
static inline const char *ct__pw_aten(const ct_pw_op *op, const ct_tensor *out, bool inplace) {
  return inplace ? op->aten_inplace : out ? op->aten_out : op->op.aten;
}
/* The entry guard of a form with its own route (irregular ops), after its named NULL checks: out (NULL in
   the functional form) and the tensor arguments against op's layouts and device rows. */
#define CT__PW_ENTER(pw, out, inplace, ...) \
  CT__PW_ACCEPTS(pw, ct__pw_aten(pw, out, inplace), out, __VA_ARGS__)

/* The kernel row of a call's dispatch device: the meta row where an operand (or out) is on the meta
   device (the engine's is_meta), the CPU row otherwise (a device without a row was refused at entry). */
static inline const ct_loop *const *ct__pw_row(const ct_pw_op *op, bool meta) {
  return (const ct_loop *const *)op->op.kernels[meta ? CT_META : CT_CPU];
}

/* The descriptors of the regular ops of include/ctorch/pointwise_ops.h, ct__pw_op_<name>, each defined
   with the op's kernels; pw_api.c defines the public forms from them. */
#define CT__PW_OP_EXTERN(name, form, torch, kind) extern const ct_pw_op ct__pw_op_##name;
CT_POINTWISE_OPS(CT__PW_OP_EXTERN, CT_POINTWISE_SKIP, CT_POINTWISE_SKIP)
#undef CT__PW_OP_EXTERN

/* A call of an op whose dev is CT_PW_DEV_COPY that dispatches to the meta device: torch 1.13's Meta kernel of
   its out= form is the op's Python reference (torch/_refs) under out_wrapper, so the result is computed new
   (out NULL) and handed to out by core/out_wrapper.h's rule; the functional form (out NULL) gets that result,
   or, fn_over_out, a contiguous one (the empty out resized). In place only fn_over_out: torch runs the out= form
   with out self (comparison_op_), so out is self. */
ct_status ct__pw_ref_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                         const void *args, ct_tensor **result);

/* torch/_refs' _maybe_broadcast (_broadcast_shapes): the shapes right-aligned in order; a size other than 1 that
   differs from the one met before is refused with the RuntimeError torch raises with three arguments, whose
   text is their tuple. The common shape goes to (*nd, shape) where they are not NULL (shape: room for the
   largest ndim among in). */
bool ct__pw_refs_broadcast(const ct_tensor *const *in, int n_in, int64_t *nd, int64_t *shape);

/* torch/_prims_common's check_same_device with allow_cpu_scalar_tensors: the tensors of ts[n] but CPU 0-dim ones on
   one device (*dev; the CPU when there are none), else "Tensor on device meta is not on the expected device cpu!". */
bool ct__pw_refs_same_device(const ct_tensor *const *ts, int n, ct_device *dev);

/* The ref_device of a reference over one tensor operand: it computes on that operand's device (logit). */
bool ct__pw_ref_operand_device(const ct_tensor *const *in, int n_in, ct_device *dev);

/* A new meta tensor (no data) with the given geometry: a stand-in for an intermediate of a torch/_refs
   reference; not scope-registered. */
ct_tensor *ct__pw_meta_strided(int64_t ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dt);
/* The same on another device (uninitialized data): the result a reference computed on its inputs' device, where
   only its geometry and device are read (out_wrapper's refusal of an out on another device). */
ct_tensor *ct__pw_strided_on(int64_t ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dt,
                             ct_device device);

/* An operand as torch/_refs' elementwise_type_promotion_wrapper hands it on: t itself when it has dtype dt or is a
   Python number, else prims.convert_element_type's result (a prim's layout of t alone), a stand-in owned by the
   current scope (NULL when memory runs out). */
const ct_tensor *ct__pw_ref_converted(const ct_tensor *t, ct_dtype dt);

/* The in-place form of an op whose Meta kernel checks nothing (meta_inplace_noop), on a call that dispatches to
   meta: autograd's in-place check (before the backend), then torch's refusal of a self that is not on meta
   ("Cannot inplace into non-meta tensor with meta tensor argument"); self is left as it is. */
ct_status ct__pw_meta_inplace_noop(const ct_tensor *self);

/* The device check of an out= form whose descriptor's dev is not CT_PW_DEV_ITER (records torch's message); with
   CT_PW_DEV_COPY, none where the call dispatches to meta: out_wrapper's comes after the reference's computation. */
bool ct__pw_out_device_ok(ct_pw_dev rule, const ct_tensor *out, const ct_tensor *const *in, int n_in);

/* The bodies of public forms that composites elsewhere run (logsumexp), past their entry guards: the
   result, as the public form's, belongs to the current scope. */
ct_tensor *ct__isinf_impl(const ct_tensor *t);
ct_status ct__masked_fill_impl_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value);

/* Runs op. out NULL: a new result is stored in *result. inplace: out is in[0] and keeps its shape. */
ct_status ct__pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result);

/* The same, but inputs of another dtype are first converted into temporaries laid out as Tensor.to lays
   them out, as TensorIterator does, instead of on the fly: for kernels whose vector and scalar paths
   differ (cpu_kernel_vec), so that the loop sees PyTorch's rows. */
ct_status ct__pw_run_staged(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result);

/* A regular pointwise op run through its descriptor's route, past its public entry (composites: one public
   call records one autograd node): out NULL gives a new (scope-owned) result, the _ form runs on self. */
static inline ct_tensor *ct__pw_apply(const ct_pw_op *op, const ct_tensor *a, const ct_tensor *b) {
  const ct_tensor *in[2] = {a, b};
  ct_tensor *r = NULL;
  (op->run ? op->run : ct__pw_run)(op, NULL, in, b ? 2 : 1, false, NULL, &r);
  return r;
}
static inline ct_status ct__pw_apply_(const ct_pw_op *op, ct_tensor *self, const ct_tensor *b) {
  const ct_tensor *in[2] = {self, b};
  return (op->run ? op->run : ct__pw_run)(op, self, in, b ? 2 : 1, true, NULL, NULL);
}

#endif
