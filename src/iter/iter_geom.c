/* The engine's geometry builder (see iter_geom.h). */
#include "iter/iter_geom.h"

#include "core/layout_rules.h"

void ct__geom_broadcast_bytes(const ct_tensor *t, const int64_t *el_strides, int64_t isz, const int64_t *shape,
                              int64_t ndim, int64_t *out) {
  const int64_t *st = el_strides ? el_strides : t->strides;
  int64_t offset = ndim - t->ndim;
  for (int64_t i = 0; i < offset; i++) out[i] = 0;
  for (int64_t i = 0; i < t->ndim; i++)
    out[offset + i] = (t->sizes[i] == 1 && shape[offset + i] != 1) ? 0 : ct__mul_wrap(st[i], isz);
}

static void permute(int64_t nd, int64_t *v, const int64_t *perm, int64_t *tmp) {
  for (int64_t i = 0; i < nd; i++) tmp[i] = v[perm[i]];
  memcpy(v, tmp, (size_t)nd * sizeof(int64_t));
}

int64_t ct__geom_arrange(ct_geom *g, int n_red_out, unsigned flags, int64_t *perm, int64_t *tmp) {
  int64_t nd = g->nd;
  if (flags & CT_GEOM_LOGICAL) {
    for (int64_t d = 0; d < nd; d++) perm[d] = nd - 1 - d;
  } else {
    ct__reorder_dims(g->rows, g->n_rows, n_red_out, g->shape, nd, perm);
  }
  if (nd > 1) {
    permute(nd, g->shape, perm, tmp);
    for (int k = 0; k < g->n_rows; k++) permute(nd, g->rows[k], perm, tmp);
  }
  if (!(flags & CT_GEOM_NO_COALESCE)) g->nd = ct__coalesce_dims(nd, g->shape, g->rows, g->n_rows);
  return g->nd;
}
