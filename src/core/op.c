/* The dispatcher's refusals: a layout or device the op has no kernel for, in torch 1.13's words. */
#include "core/op.h"

#include "core/meta_messages.h"

/* c10's DispatchKey name of a (layout, device) pair, as its dispatcher errors print it. */
static const char *backend_name(ct_layout layout, ct_device_type dev) {
  static const char *const dense[CT_OP_DEVICES] = {"", "CPU", "CUDA", "Meta"};
  static const char *const coo[CT_OP_DEVICES] = {"", "SparseCPU", "SparseCUDA", "SparseMeta"};
  static const char *const csr[CT_OP_DEVICES] = {"", "SparseCsrCPU", "SparseCsrCUDA", "SparseCsrMeta"};
  unsigned d = (unsigned)dev < CT_OP_DEVICES ? (unsigned)dev : 0;
  return layout == CT_STRIDED ? dense[d] : layout == CT_SPARSE_COO ? coo[d] : csr[d];
}

static void no_kernel(const char *aten_op, const char *backend) {
  ct__error(CT_ERR_NOT_IMPLEMENTED,
            "Could not run '%s' with arguments from the '%s' backend. This could be because the operator "
            "doesn't exist for this backend, or was omitted during the selective/custom build process (if using "
            "custom build).",
            aten_op, backend);
}

void ct__error_no_meta_kernel(const char *aten_op) {
  for (const ct_meta_message *m = ct__meta_messages; m->aten_op; m++) {
    if (strcmp(m->aten_op, aten_op) != 0) continue;
    char msg[8192];
    size_t used = 0;
    msg[0] = '\0';
    for (const short *l = m->lines; *l >= 0; l++) {
      size_t n = strlen(m->pool[*l]);
      if (used + n >= sizeof msg) break;
      memcpy(msg + used, m->pool[*l], n + 1);
      used += n;
    }
    ct__error(CT_ERR_NOT_IMPLEMENTED, "%s", msg);
    return;
  }
  no_kernel(aten_op, "Meta");
}

bool ct__op_refuse_key(const ct_op *op, const char *aten, unsigned layouts, ct_device_type dev) {
  const char *name = aten ? aten : op->aten;
  ct_layout layout = CT_STRIDED;
  for (unsigned l = 0; l < 32; l++)
    if ((layouts >> l) & 1u) layout = (ct_layout)l;
  if (layout == CT_STRIDED && dev == CT_META) ct__error_no_meta_kernel(name);
  else no_kernel(name, backend_name(layout, dev));
  return false;
}

bool ct__op_refuse(const ct_op *op, const ct_tensor *t, const char *aten) {
  return ct__op_refuse_key(op, aten, 1u << t->layout, (ct_device_type)t->device_type);
}
