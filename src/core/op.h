/* What every op family's descriptor shares (the role of an ATen operator's registration): torch's names for
   messages, the layouts the op accepts, its autograd slot, and its kernels by (device type, dtype). A
   family's descriptor embeds a ct_op as its first member and adds what only that family needs (promotion,
   out= rules, ...). Lookups are array indexing: nothing here allocates or locks. */
#ifndef CTORCH_CORE_OP_H
#define CTORCH_CORE_OP_H

#include "core/internal.h"

/* Autograd's slot, until derivatives land: what torch's autograd layer checks in the op's out= form. A
   differentiable op refuses any argument that requires grad ("sum(): functions with out=... arguments don't
   support automatic differentiation"); most ops without a derivative check nothing; a few treat out as an
   in-place target (check_inplace). */
typedef enum { CT_OP_GRAD_DIFF = 0, CT_OP_GRAD_NONE, CT_OP_GRAD_OUT_INPLACE } ct_op_grad;

/* Device types a descriptor has a kernel row for, indexed by ct_device_type (row 0 unused). */
#define CT_OP_DEVICES (CT_META + 1)
/* A layout's bit in ct_op.layouts. */
#define CT_OP_LAYOUT(l) (1u << (l))

typedef struct ct_op {
  const char *name; /* torch's name of the op: "sum" */
  /* The ATen operator torch's dispatcher runs for the public call, which names it in its errors for a
     device or layout without a kernel: "aten::sum.dim_IntList". */
  const char *aten;
  /* Layouts the op accepts (CT_OP_LAYOUT bits); 0: strided only. Others are refused at entry with torch's
     dispatcher message for their backend ("SparseCPU"). */
  unsigned layouts;
  /* torch runs the op as a composite on any device (CompositeImplicitAutograd): the device is checked where
     the composite dispatches its inner operator, not at entry (cummax over aten::_cummax_helper). */
  bool composite;
  ct_op_grad grad;
  /* Kernels by device type, each the family's table by dtype ([CT_NUM_DTYPES + 1] entries of the family's
     kernel type; NULL: no kernel on that device, torch's dispatcher error). A new backend fills its row. */
  const void *kernels[CT_OP_DEVICES];
} ct_op;

/* Records the dispatcher's error for op (aten: the operator dispatched) on t's layout or device; false. */
bool ct__op_refuse(const ct_op *op, const ct_tensor *t, const char *aten);
/* The same for a dispatch key: layouts, the layout bits of the arguments (the highest refused one is named),
   dev, the highest device type. */
bool ct__op_refuse_key(const ct_op *op, const char *aten, unsigned layouts, ct_device_type dev);
/* torch 1.13's dispatcher error for an ATen operator without a Meta kernel, word for word where
   scripts/gen_meta_messages.py copied it (core/meta_messages.c), its first sentence otherwise. */
void ct__error_no_meta_kernel(const char *aten_op);

/* The entry guard's layout and device part for an input (NULL arguments are the caller's
   CT__NONNULL_STATUS / CT__NONNULL_PTR): a layout outside op->layouts, or (not composite) a device type
   without a kernel row, records torch's dispatcher error and returns false. */
static inline bool ct__op_accepts(const ct_op *op, const ct_tensor *t) {
  unsigned lay = op->layouts ? op->layouts : CT_OP_LAYOUT(CT_STRIDED);
  return CT_LIKELY(((lay >> t->layout) & 1u) && (op->composite || op->kernels[t->device_type])) ||
         ct__op_refuse(op, t, op->aten);
}
/* The entry guard's layout and device part for an op of several tensor arguments. c10's dispatch key of a
   call is the highest layout and device type among its tensors (a meta or sparse argument decides): each
   tensor adds its layout's bit and its device type's bit (from bit 16) to a key, which the op accepts when
   every layout is in op->layouts and the highest device type has a row. No call unless refused. */
static inline unsigned ct__op_key(const ct_tensor *t) {
  return (1u << t->layout) | (1u << (16 + t->device_type));
}
static inline bool ct__op_accepts_key(const ct_op *op, const char *aten, unsigned key) {
  unsigned ok = op->layouts ? op->layouts : CT_OP_LAYOUT(CT_STRIDED), lay = key & 0xffffu, devs = key >> 16;
  unsigned dev = devs ? 31u - (unsigned)__builtin_clz(devs) : 0u; /* the highest device type */
  return CT_LIKELY((lay & ~ok) == 0 && (op->composite || !dev || op->kernels[dev])) ||
         ct__op_refuse_key(op, aten, lay & ~ok ? lay & ~ok : lay, (ct_device_type)dev);
}
/* The same over ts[n] (NULL entries: omitted arguments); aten: the operator the public form dispatches. */
static inline bool ct__op_accepts_n(const ct_op *op, const char *aten, const ct_tensor *const *ts, int n) {
  unsigned key = 0;
  for (int i = 0; i < n; i++) key |= ts[i] ? ct__op_key(ts[i]) : 0u;
  return ct__op_accepts_key(op, aten, key);
}
/* The same over a list of tensor arguments: CT__OP_ACCEPTS(op, aten, a, b, c). */
#define CT__OP_ACCEPTS(op, aten, ...)                                 \
  ct__op_accepts_n(op, aten, (const ct_tensor *const[]){__VA_ARGS__}, \
                   (int)(sizeof((const ct_tensor *const[]){__VA_ARGS__}) / sizeof(const ct_tensor *)))

/* Whether a call dispatches to the meta device: c10's key is the highest device type among the call's tensors
   (NULL entries: omitted arguments), and meta is the highest. The op then runs its meta kernel: torch 1.13's
   Meta function for it (shapes and the checks that function makes, no values, no dtype dispatch). */
static inline bool ct__op_on_meta_n(const ct_tensor *const *ts, int n) {
  for (int i = 0; i < n; i++)
    if (ts[i] && ts[i]->device_type == CT_META) return true;
  return false;
}
#define CT__OP_ON_META(...)                                 \
  ct__op_on_meta_n((const ct_tensor *const[]){__VA_ARGS__}, \
                   (int)(sizeof((const ct_tensor *const[]){__VA_ARGS__}) / sizeof(const ct_tensor *)))

/* The kernel table for t's device type (a composite's dispatch point: the inner operator aten), or NULL
   with torch's dispatcher error recorded. */
static inline const void *ct__op_table(const ct_op *op, const ct_tensor *t, const char *aten) {
  const void *k = op->kernels[t->device_type];
  return CT_LIKELY(k != NULL) ? k : (ct__op_refuse(op, t, aten), NULL);
}

/* Entry guard of a public function returning ct_status / a pointer: the NULL arguments (named), then the
   layout and device of the tensor T. */
#define CT__OP_ENTER_STATUS(op, T, ...)                         \
  do {                                                          \
    CT__NONNULL_STATUS(__VA_ARGS__);                            \
    if (CT_UNLIKELY(!ct__op_accepts(op, T))) return ct_last_error(); \
  } while (0)
#define CT__OP_ENTER_PTR(op, T, ...)                    \
  do {                                                  \
    CT__NONNULL_PTR(__VA_ARGS__);                       \
    if (CT_UNLIKELY(!ct__op_accepts(op, T))) return NULL; \
  } while (0)

/* The same for an out= form: the NULL arguments, then c10's dispatch key over OUT and T together, as the dispatcher
   sees them (a meta out sends a CPU input's call to the meta device: an op without a Meta kernel refuses it). */
#define CT__OP_ENTER_OUT(op, OUT, T, ...)                                             \
  do {                                                                                \
    CT__NONNULL_STATUS(__VA_ARGS__);                                                  \
    if (CT_UNLIKELY(!CT__OP_ACCEPTS(op, (op)->aten, OUT, T))) return ct_last_error(); \
  } while (0)

/* Autograd's out= check from the descriptor's slot (until derivatives land): a differentiable op refuses an
   argument that requires grad, named by torch's op name. OUT_INPLACE's check is the op's own. */
#define CT__OP_OUT_GRAD_OK(op, ...) ((op)->grad != CT_OP_GRAD_DIFF || CT__OUT_GRAD_OK((op)->name, __VA_ARGS__))

#endif
