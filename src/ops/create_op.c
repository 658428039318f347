/* The entry guard of the creation and random ops (create_internal.h: ct_create_op). A factory has no input
   tensor: what the dispatcher sees is the request, its layout and device, so the guard applies torch 1.13's
   rules to them (checked in torch 1.13; the unit test test_create_seam.c holds each message). */
#include "ops/create_internal.h"

static ct_status nothing_run(ct_tensor *t, const void *args) {
  (void)t;
  (void)args;
  return CT_OK;
}
const ct_fill_kernel ct__fill_meta = {nothing_run}, ct__fill_nothing = {nothing_run};

bool ct__layout_unbuilt(const ct_op *op, ct_layout layout) {
  /* The sparse issue gives tensors their non-strided parts and fills these rows. */
  ct__error(CT_ERR_NOT_IMPLEMENTED, "%s: ctorch cannot build %s tensors yet (torch 1.13 returns one here)",
            op->name, ct_layout_name(layout));
  return false;
}

/* The dispatcher's refusal of op on a request: what it sees of a tensor there is its layout and device. */
static bool refuse_request(const ct_op *op, ct_layout layout, ct_device_type dev) {
  ct_tensor probe = {.layout = (uint8_t)layout, .device_type = (uint8_t)dev};
  return ct__op_refuse(op, &probe, NULL);
}

/* c10's name of a sparse-compressed layout, as its messages print it. */
static const char *compressed_name(ct_layout l) {
  return l == CT_SPARSE_CSR   ? "SparseCsr"
         : l == CT_SPARSE_CSC ? "SparseCsc"
         : l == CT_SPARSE_BSR ? "SparseBsr"
                              : "SparseBsc";
}

/* at::native::empty_sparse_compressed's checks (torch.empty with a compressed layout), in its order. */
static bool compressed_empty_ok(ct_layout layout, ct_shape shape) {
  if (!ct__check_list(shape, "shape")) return false;
  if (shape.ndim < 2) {
    char sz[64];
    ct__fmt_int_list(sz, sizeof sz, shape.ndim, shape.data);
    ct__error(
        CT_ERR_RUNTIME,
        "torch.empty: Only batched sparse compressed (non-block) tensors are supported, but got size %s", sz);
    return false;
  }
  if (layout == CT_SPARSE_BSR || layout == CT_SPARSE_BSC) {
    ct__error(CT_ERR_RUNTIME,
              "\"empty_sparse_compressed\" expected sparse compressed (non-block) tensor layout but got %s",
              compressed_name(layout));
    return false;
  }
  return true;
}

static bool layout_ok(const ct_create_op *c, ct_layout layout, ct_device_type dev, ct_shape empty_shape) {
  if (layout == CT_LAYOUT_UNSET || layout == CT_STRIDED) return true;
  if (c->layout_rule == CT_FACTORY_NO_ARG) {
    ct__error(CT_ERR_TYPE, "%s() got an unexpected keyword argument 'layout'", c->op.name);
    return false;
  }
  if ((unsigned)layout > CT_SPARSE_BSC) { /* no layout of torch 1.13 */
    ct__error(CT_ERR_NOT_IMPLEMENTED, "layout %s is not supported by this factory yet",
              ct_layout_name(layout));
    return false;
  }
  /* scalar_tensor's CPU path makes a strided tensor whatever is asked; elsewhere it is empty + fill_ */
  if (c->layout_rule == CT_FACTORY_IGNORED && dev == CT_CPU) return true;
  bool compressed = layout != CT_SPARSE_COO;
  if (compressed && dev == CT_META) { /* c10's dispatch key of the options, before any op */
    ct__error(CT_ERR_RUNTIME, "Unsupported device type for %s layout: meta", compressed_name(layout));
    return false;
  }
  if (compressed && c->layout_rule != CT_FACTORY_STRIDED && !compressed_empty_ok(layout, empty_shape))
    return false;
  if (!compressed && c->layout_rule == CT_FACTORY_FULL) {
    ct__error(CT_ERR_RUNTIME, "full(...) is not implemented for sparse layout");
    return false;
  }
  if ((c->op.layouts >> layout) & 1u) return ct__layout_unbuilt(&c->op, layout);
  return refuse_request(&c->op, layout, dev);
}

bool ct__factory_refuses(const ct_create_op *c, ct_layout layout, ct_device device, ct_shape empty_shape) {
  /* torch initializes CUDA before the op sees its arguments */
  if (device.type == CT_CUDA && !ct_cuda_is_available()) {
    ct__error(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
    return true;
  }
  if (!layout_ok(c, layout, device.type, empty_shape)) return true;
  return c->op.kernels[device.type] == NULL && !refuse_request(&c->op, CT_STRIDED, device.type);
}

bool ct__create_input_ok(const ct_op *op, const ct_tensor *t) {
  if (CT_UNLIKELY(!ct__op_accepts(op, t))) return false;
  return CT_LIKELY(t->layout == CT_STRIDED) || ct__layout_unbuilt(op, (ct_layout)t->layout);
}
