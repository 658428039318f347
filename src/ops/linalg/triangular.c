/* The legacy torch.triangular_solve and torch.linalg.solve_triangular as torch 1.13 computes them: BLAS trsm (alpha
   = 1) on batched column-major copies of B and A broadcast against each other, one matrix at a time, as torch's
   apply_triangular_solve. solve_triangular casts B to A's dtype (its result's), and its result is batched
   column-major unless A is a column-major conjugate view (torch then avoids copying A: contiguous). */
#include "ops/linalg/linalg_internal.h"
#include "ops/join/join_internal.h"

#include <string.h>

/* meta: triangular_solve's structured kernel (its checks, both results column-major; no dtype dispatch) */
static const ct_op triangular_solve_op = CT_LINALG_META_OP("triangular_solve", "aten::triangular_solve");
static const ct_op solve_triangular_op =
    CT_LINALG_OP("linalg_solve_triangular", "aten::linalg_solve_triangular");

/* trsm over the batch: W (m x k, or k x m with side 'R') against the n x n matrices of Ac (same batch). */
static void trsm_batch(const ct_tensor *Ac, ct_tensor *W, char side, bool upper, char trans, bool unit) {
  ct_dtype dt = (ct_dtype)Ac->dtype;
  int64_t n = Ac->sizes[Ac->ndim - 1], rows = W->sizes[W->ndim - 2], cols = W->sizes[W->ndim - 1];
  int64_t nb = ct__la_batch(W);
  if (n == 0 || rows == 0 || cols == 0) return;
  for (int64_t b = 0; b < nb; b++)
    ct__la_trsm(dt, side, upper ? 'U' : 'L', trans, unit ? 'U' : 'N', (int)rows, (int)cols,
                ct__la_at(Ac, b * n * n), (int)n, ct__la_at(W, b * rows * cols), (int)rows);
}

/* The broadcast shapes: B's (rs) and A's (as). */
static bool broadcast(const ct_tensor *B, const ct_tensor *A, int64_t *rs, int64_t *as, int64_t *nd) {
  int64_t nb;
  if (!ct__la_broadcast_batch(B, A, rs, &nb)) return false;
  memcpy(as, rs, (size_t)nb * sizeof(int64_t));
  rs[nb] = B->sizes[B->ndim - 2];
  rs[nb + 1] = B->sizes[B->ndim - 1];
  as[nb] = as[nb + 1] = A->sizes[A->ndim - 1];
  *nd = nb + 2;
  return true;
}

/* Whether the matrices of (sizes, strides) are column-major (the batch contiguous around them). */
static bool col_contiguous(int64_t nd, const int64_t *sizes, const int64_t *strides) {
  int64_t sz[CT_LA_MAXDIM], st[CT_LA_MAXDIM];
  memcpy(sz, sizes, (size_t)nd * sizeof(int64_t));
  memcpy(st, strides, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = sizes[nd - 1], sz[nd - 1] = sizes[nd - 2];
  st[nd - 2] = strides[nd - 1], st[nd - 1] = strides[nd - 2];
  return ct__geom_is_contiguous(nd, sz, st);
}

/* triangular_solve_out's outs: resized to the column-major results where their shape differs; when both are then
   column-major (empty ones count as such), torch solves in them and restrides the empty ones column-major;
   otherwise it copies into them. Releases r. */
static ct_status write_outs(ct_tensor **r, ct_tensor *const *outs) {
  bool same[2], copy_needed = false;
  ct_status s = CT_OK;
  for (int k = 0; k < 2; k++) {
    same[k] = outs[k]->ndim == r[k]->ndim &&
              memcmp(outs[k]->sizes, r[k]->sizes, (size_t)r[k]->ndim * sizeof(int64_t)) == 0;
    if (same[k] && outs[k]->numel > 0 && !col_contiguous(outs[k]->ndim, outs[k]->sizes, outs[k]->strides))
      copy_needed = true;
    if (!same[k] && !ct__tensor_resize_ok(outs[k], r[k]->ndim, r[k]->sizes)) s = ct_last_error();
  }
  for (int k = 0; k < 2 && s == CT_OK; k++)
    s = ct__la_write_out_as(outs[k], r[k], !copy_needed && outs[k]->numel == 0);
  ct_release(r[0]);
  ct_release(r[1]);
  return s;
}

/* ---- triangular_solve ---- */

/* triangular_solve's meta checks, in torch's order. */
static bool triangular_args(const ct_tensor *b, const ct_tensor *A) {
  const char *what[2] = {"b", "A"};
  const ct_tensor *ts[2] = {b, A};
  for (int i = 0; i < 2; i++)
    if (ts[i]->ndim < 2) {
      ct__error(
          CT_ERR_RUNTIME,
          "torch.triangular_solve: Expected %s to have at least 2 dimensions, but it has %lld dimensions "
          "instead",
          what[i], (long long)ts[i]->ndim);
      return false;
    }
  return ct__la_linear_solve_ok(b, A, "triangular_solve");
}

static ct_status triangular_common(const ct_tensor *b, const ct_tensor *A,
                                   const ct_triangular_solve_opts *opts, ct_tensor *out_x, ct_tensor *out_a,
                                   ct_tensor **x, ct_tensor **ca) {
  int64_t rs[CT_LA_MAXDIM], as[CT_LA_MAXDIM], nd;
  if (!triangular_args(b, A) || !broadcast(b, A, rs, as, &nd)) return ct_last_error();
  if (out_x && (!ct__la_out_ok(out_x, (ct_dtype)b->dtype, b) || !ct__la_out_ok(out_a, (ct_dtype)A->dtype, A)))
    return ct_last_error();
  bool meta = CT__OP_ON_META(b, A);
  if ((!meta && !ct__la_kernel_ok(A, "triangular_solve_cpu")) || !ct__la_int_ok(rs[nd - 1]) ||
      !ct__la_int_ok(as[nd - 1]))
    return ct_last_error();
  ct_tensor *r[2] = {
      meta ? ct__la_empty_colmajor(b, nd, rs, (ct_dtype)b->dtype) : ct__la_colmajor_copy(b, nd, rs), NULL};
  if (r[0])
    r[1] = meta ? ct__la_empty_colmajor(A, nd, as, (ct_dtype)A->dtype) : ct__la_colmajor_copy(A, nd, as);
  ct_status s = r[0] && r[1] ? CT_OK : ct_last_error();
  if (s == CT_OK &&
      meta) { /* the meta kernel resizes an out of another shape to its strides, keeps the others */
    for (int k = 0; k < 2; k++) ct__grad_mark_result(r[k], A);
    ct__grad_mark_result(r[0], b);
    if (!out_x) return ct__la_deliver2(r, NULL, NULL, x, ca, s);
    for (int k = 0; k < 2 && s == CT_OK; k++) s = ct__la_write_out_as(k ? out_a : out_x, r[k], false);
    ct_release(r[0]);
    ct_release(r[1]);
    return s;
  }
  if (s == CT_OK) {
    trsm_batch(r[1], r[0], 'L', !(opts && opts->lower), opts && opts->transpose ? 'T' : 'N',
               opts && opts->unitriangular);
    ct__grad_mark_result(r[0], b);
    ct__grad_mark_result(r[0], A);
    ct__grad_mark_result(r[1], A);
  }
  if (!out_x || s != CT_OK) return ct__la_deliver2(r, out_x, out_a, x, ca, s);
  return write_outs(r, (ct_tensor *const[]){out_x, out_a});
}

ct_status ct_triangular_solve(const ct_tensor *b, const ct_tensor *A, ct_tensor **solution,
                              ct_tensor **cloned_coefficient, const ct_triangular_solve_opts *opts) {
  if (solution) *solution = NULL;
  if (cloned_coefficient) *cloned_coefficient = NULL;
  CT__NONNULL_STATUS(b, A);
  if (!CT__OP_ACCEPTS(&triangular_solve_op, triangular_solve_op.aten, b, A)) return ct_last_error();
  return triangular_common(b, A, opts, NULL, NULL, solution, cloned_coefficient);
}

ct_status ct_triangular_solve_out(ct_tensor *solution, ct_tensor *cloned_coefficient, const ct_tensor *b,
                                  const ct_tensor *A, const ct_triangular_solve_opts *opts) {
  CT__NONNULL_STATUS(solution, cloned_coefficient, b, A);
  if (!CT__OP_ACCEPTS(&triangular_solve_op, triangular_solve_op.aten, b, A)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&triangular_solve_op, solution, cloned_coefficient, b, A)) return CT_ERR_RUNTIME;
  return triangular_common(b, A, opts, solution, cloned_coefficient, NULL, NULL);
}

/* ---- linalg.solve_triangular ---- */

/* checkInputsSolver(A, B, left, "linalg.solve_triangular"). */
static bool solve_triangular_args(const ct_tensor *A, const ct_tensor *B, bool left) {
  const char *api = "linalg.solve_triangular";
  if (!ct__la_ndim_ok(A, api, "A") || !ct__la_square_ok(A, api) || !ct__la_ndim_ok(B, api, "B")) return false;
  int64_t n = A->sizes[A->ndim - 1], bm = B->sizes[B->ndim - 2], bn = B->sizes[B->ndim - 1];
  if (left ? n != bm : n != bn) {
    ct__error(CT_ERR_RUNTIME,
              "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)", api,
              left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)bm, (long long)bn);
    return false;
  }
  return true;
}

/* The strides of torch's A_ (A expanded to the broadcast batch as), as expand computes them. */
static void expanded_strides(const ct_tensor *A, const int64_t *as, int64_t nd, int64_t *st) {
  for (int64_t d = 0; d < nd; d++) {
    int64_t ad = d - (nd - A->ndim);
    st[d] = ad < 0 || (A->sizes[ad] == 1 && as[d] != 1) ? 0 : A->strides[ad];
  }
}

/* is_row_or_column_contiguous */
static bool row_or_col(int64_t nd, const int64_t *sizes, const int64_t *strides) {
  return ct__geom_is_contiguous(nd, sizes, strides) || col_contiguous(nd, sizes, strides);
}

/* The result in torch's layout (row-major where torch avoided copying A, else column-major) from the
   solution W, which it releases. */
static ct_tensor *solved(ct_tensor *W, const ct_tensor *A, const ct_tensor *B, bool row_major, int64_t nd,
                         const int64_t *rs) {
  bool is_row = ct__geom_is_contiguous(W->ndim, W->sizes, W->strides);
  ct_tensor *r = W;
  if (row_major != is_row) {
    r = row_major ? ct__la_empty(A, nd, rs, (ct_dtype)W->dtype) : ct__la_colmajor_copy(W, nd, rs);
    if (r && row_major && ct__copy_into(r, W) != CT_OK) {
      ct_release(r);
      r = NULL;
    }
    ct_release(W);
  }
  if (r) {
    ct__grad_mark_result(r, A);
    ct__grad_mark_result(r, B);
  }
  return r;
}

/* The transposed equation: B copied row-major (the memory of X^T column-major), trsm on the other side with
   A^T as torch hands it over (transpose_A): a row-major A as it is (the triangle flipped), a row-major
   conjugate view resolved into a column-major copy (trans 'T'), a column-major A as it is (trans 'T', or
   'C' with its conjugate bit), any other A resolved into a row-major copy (the triangle flipped). */
static ct_tensor *solve_transposed(const ct_tensor *A, const ct_tensor *B, bool upper, bool left, bool unit,
                                   bool row_major, int64_t nd, const int64_t *rs, const int64_t *as,
                                   const int64_t *ast) {
  ct_dtype dt = (ct_dtype)A->dtype;
  bool conj = ct__math_bits(A) & CT_TENSOR_CONJ, rowc = ct__geom_is_contiguous(nd, as, ast);
  bool colc = col_contiguous(nd, as, ast), rowA = ast[nd - 1] == 1;
  ct_tensor *Wc = ct__la_empty(A, nd, rs, dt);
  if (Wc && ct__copy_into(Wc, B) != CT_OK) {
    ct_release(Wc);
    return NULL;
  }
  ct_tensor *Wt = Wc ? ct__transpose_impl(Wc, nd - 2, nd - 1) : NULL, *Ac = NULL;
  bool flip = false;
  char trans = 'N';
  if (Wt && !rowc && !colc) {
    Ac = ct__la_contiguous_copy(A, nd, as), flip = true;
  } else if (Wt && rowA && conj) {
    Ac = ct__la_colmajor_copy(A, nd, as), trans = 'T';
  } else if (Wt && rowA) {
    Ac = ct__la_contiguous_copy(A, nd, as), flip = true;
  } else if (Wt) {
    ct_tensor *Am = conj ? ct__conj_impl(A) : ct__alias_impl(A);
    Ac = Am ? ct__la_colmajor_copy(Am, nd, as) : NULL;
    ct_release(Am);
    trans = conj ? 'C' : 'T';
  }
  if (Ac) trsm_batch(Ac, Wt, left ? 'R' : 'L', upper != flip, trans, unit);
  ct_release(Ac);
  ct_release(Wt);
  if (!Ac) return ct_release(Wc), NULL;
  return solved(Wc, A, B, row_major, nd, rs);
}

static ct_tensor *solve_triangular_new(const ct_tensor *A, const ct_tensor *B, bool upper,
                                       const ct_linalg_solve_triangular_opts *opts, const ct_tensor *out) {
  bool left = !(opts && opts->right), unit = opts && opts->unitriangular;
  int64_t rs[CT_LA_MAXDIM], as[CT_LA_MAXDIM], nd;
  if (!solve_triangular_args(A, B, left) || !broadcast(B, A, rs, as, &nd)) return NULL;
  if (out && !ct__join_out_device_ok(out, A)) return NULL;
  ct_dtype dt = (ct_dtype)A->dtype;
  int64_t ast[CT_LA_MAXDIM];
  expanded_strides(A, as, nd, ast);
  bool conj = ct__math_bits(A) & CT_TENSOR_CONJ, rowc = ct__geom_is_contiguous(nd, as, ast);
  bool contig = conj && col_contiguous(nd, as, ast); /* torch's avoid_copy_A */
  /* the dtype of the tensor torch hands to trsm with A: out when it is (or is resized to be) row- or
     column-contiguous, else a copy of B */
  ct_dtype kdt = dt;
  if (out) {
    bool same = out->ndim == nd && memcmp(out->sizes, rs, (size_t)nd * sizeof(int64_t)) == 0;
    kdt =
        !same || row_or_col(out->ndim, out->sizes, out->strides) ? (ct_dtype)out->dtype : (ct_dtype)B->dtype;
  }
  if (!ct__la_kernel_ok(A, "triangular_solve_cpu")) return NULL;
  if (kdt != dt) {
    ct__error(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt(dt)->scalar_name,
              ct__dt(kdt)->scalar_name);
    return NULL;
  }
  if (!ct__la_int_ok(rs[nd - 2]) || !ct__la_int_ok(rs[nd - 1])) return NULL;
  /* torch solves in out_f: out where out has B's shape and is row- or column-contiguous, else out made
     column-major (row-major where it avoids copying A, a column-major conjugate view), or a clone of B laid
     out likewise. Where out_f's last stride is 1 (row-major, or a single row) it solves the transposed
     equation, X^T from A^T X^T = B^T (left and right swapped), in out_f's memory. */
  bool same = out && out->ndim == nd && memcmp(out->sizes, rs, (size_t)nd * sizeof(int64_t)) == 0;
  bool tr = same && row_or_col(out->ndim, out->sizes, out->strides) ? out->strides[nd - 1] == 1
                                                                    : contig || rs[nd - 2] == 1;
  if (tr) return solve_transposed(A, B, upper, left, unit, contig, nd, rs, as, ast);
  /* A's memory as torch hands it to trsm: a row-major A as it is (trans 'T', or 'C' with its conjugate bit, the
     triangle flipped), a column-major conjugate view resolved into a row-major copy (trans 'T', flipped), any
     other column-major */
  ct_tensor *W = ct__la_colmajor_cast(B, nd, rs, dt), *Ac = NULL;
  if (W && rowc && !contig) {
    ct_tensor *Am = conj ? ct__conj_impl(A) : ct__alias_impl(A);
    Ac = Am ? ct__la_contiguous_copy(Am, nd, as) : NULL;
    ct_release(Am);
  } else if (W && contig) {
    Ac = ct__la_contiguous_copy(A, nd, as);
  } else if (W) {
    Ac = ct__la_colmajor_copy(A, nd, as);
  }
  if (!Ac) return ct_release(W), NULL;
  bool flip = (rowc && !contig) || contig;
  trsm_batch(Ac, W, left ? 'L' : 'R', upper != flip, !flip ? 'N' : conj && !contig ? 'C' : 'T', unit);
  ct_release(Ac);
  return solved(W, A, B, contig, nd, rs);
}

ct_tensor *ct_linalg_solve_triangular(const ct_tensor *A, const ct_tensor *B, bool upper,
                                      const ct_linalg_solve_triangular_opts *opts) {
  CT__NONNULL_PTR(A, B);
  if (!CT__OP_ACCEPTS(&solve_triangular_op, solve_triangular_op.aten, A, B)) return NULL;
  return ct__own(solve_triangular_new(A, B, upper, opts, NULL));
}

ct_status ct_linalg_solve_triangular_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B, bool upper,
                                         const ct_linalg_solve_triangular_opts *opts) {
  CT__NONNULL_STATUS(out, A, B);
  if (!CT__OP_OUT_GRAD_OK(&solve_triangular_op, out, A, B)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&solve_triangular_op, "aten::linalg_solve_triangular.out", A, B, out))
    return ct_last_error();
  ct_tensor *r = solve_triangular_new(A, B, upper, opts, out);
  return ct__la_write_outs(&r, &out, 1, r ? CT_OK : ct_last_error());
}
