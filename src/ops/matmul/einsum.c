/* torch.einsum as torch 1.13 computes it without opt_einsum (Debian's python3-torch has none): parse the
   subscripts (a-z are labels 0-25, A-Z 26-51, "..." the broadcast dims), align every operand to the
   output dims followed by the contracted ones (diagonals for repeated labels, size-1 dims for missing
   ones), then contract the first two operands with sumproduct_pair's permute + bmm (keeping summed dims
   as size 1), the product going to the front of the list (a left fold), and view the contraction dims away last (sum
   them out of a single operand). */
#include <ctype.h>

#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"

static const ct_op einsum_op = CT_MM_OP("einsum", "aten::einsum");

#define LABELS 52
#define ELL    (-1)
#define MAXL   64 /* subscripts per operand, dims per aligned operand */

static int label_index(char c) { return islower((unsigned char)c) ? c - 'a' : 26 + (c - 'A'); }

/* sum(t, dim, keepdim) as an owned tensor */
static ct_tensor *sum_dim(ct_tensor *t, int64_t dim, bool keepdim) {
  ct_tensor *r = NULL;
  ct_scope_begin();
  if (ct__sum_impl(NULL, t, &(ct_reduce_opts){.dims = {&dim, 1}, .keepdim = keepdim}, &r) == CT_OK && r)
    ct_retain(r);
  else r = NULL;
  ct_scope_end();
  return r;
}

/* Replaces *t by f(*t), releasing the old one; false when f failed. */
#define STEP(t, expr)          \
  do {                         \
    ct_tensor *next_ = (expr); \
    ct_release(t);             \
    (t) = next_;               \
  } while (0)

/* sumproduct_pair(left, right, sum_dims, keepdim): mul where nothing is summed */
static ct_tensor *sumproduct_pair(ct_tensor *left, ct_tensor *right, const int64_t *sum_dims, int64_t nsum,
                                  bool keepdim) {
  if (nsum == 0) return ct__mm_pw(&ct__pw_op_mul, left, right);
  int64_t dim = left->ndim;
  bool is_sum[MAXL] = {false};
  for (int64_t i = 0; i < nsum; i++) is_sum[sum_dims[i]] = true;
  int64_t lro[MAXL], lo[MAXL], ro[MAXL], nlro = 0, nlo = 0, nro = 0, lro_size = 1, lo_size = 1, ro_size = 1,
                                         sum_size = 1;
  ct_tensor *l = ct_retain(left), *r = ct_retain(right);
  for (int64_t i = 0; l && r && i < dim; i++) {
    bool sl = l->sizes[i] != 1, sr = r->sizes[i] != 1; /* a size-0 dim is present (1.13: size != 1) */
    if (is_sum[i]) {
      if (sl && sr) {
        if (l->sizes[i] != r->sizes[i]) {
          ct__error(CT_ERR_RUNTIME, "non-broadcast dimensions must match");
          ct_release(l), l = NULL;
          break;
        }
        sum_size *= l->sizes[i];
      } else if (sl) {
        STEP(l, sum_dim(l, i, true));
      } else if (sr) {
        STEP(r, sum_dim(r, i, true));
      }
    } else if (sl && sr) {
      if (l->sizes[i] != r->sizes[i]) {
        ct__error(CT_ERR_RUNTIME, "non-broadcast dimensions must match");
        ct_release(l), l = NULL;
        break;
      }
      lro[nlro++] = i, lro_size *= l->sizes[i];
    } else if (sl) {
      lo[nlo++] = i, lo_size *= l->sizes[i];
    } else {
      ro[nro++] = i, ro_size *= r->sizes[i];
    }
  }
  ct_tensor *res = NULL;
  if (l && r) {
    int64_t out_size[MAXL], lp[MAXL], rp[MAXL], op[MAXL], n = 0, k = 0;
    for (int64_t i = 0; i < nlro; i++) out_size[n++] = l->sizes[lro[i]];
    for (int64_t i = 0; i < nlo; i++) out_size[n++] = l->sizes[lo[i]];
    for (int64_t i = 0; i < nsum; i++) out_size[n++] = 1;
    for (int64_t i = 0; i < nro; i++) out_size[n++] = r->sizes[ro[i]];
    for (int64_t i = 0; i < nlro; i++) lp[k++] = lro[i];
    for (int64_t i = 0; i < nlo; i++) lp[k++] = lo[i];
    for (int64_t i = 0; i < nsum; i++) lp[k++] = sum_dims[i];
    for (int64_t i = 0; i < nro; i++) lp[k++] = ro[i];
    k = 0;
    for (int64_t i = 0; i < nlro; i++) rp[k++] = lro[i];
    for (int64_t i = 0; i < nsum; i++) rp[k++] = sum_dims[i];
    for (int64_t i = 0; i < nro; i++) rp[k++] = ro[i];
    for (int64_t i = 0; i < nlo; i++) rp[k++] = lo[i];
    k = 0;
    for (int64_t i = 0; i < nlro; i++) op[lro[i]] = k++;
    for (int64_t i = 0; i < nlo; i++) op[lo[i]] = k++;
    for (int64_t i = 0; i < nsum; i++) op[sum_dims[i]] = k++;
    for (int64_t i = 0; i < nro; i++) op[ro[i]] = k++;
    int64_t ls[3] = {lro_size, lo_size, sum_size}, rs[3] = {lro_size, sum_size, ro_size};
    STEP(l, ct__permute_impl(l, (ct_dims){lp, n}));
    if (l) STEP(l, ct__reshape_impl(l, (ct_shape){ls, 3}));
    if (l) STEP(r, ct__permute_impl(r, (ct_dims){rp, n}));
    if (l && r) STEP(r, ct__reshape_impl(r, (ct_shape){rs, 3}));
    if (l && r) res = ct__bmm_new(l, r);
    if (res) STEP(res, ct__view_impl(res, (ct_shape){out_size, n}));
    if (res) STEP(res, ct__permute_impl(res, (ct_dims){op, n}));
    if (res && !keepdim) { /* squeeze the summed dims */
      int64_t sizes[MAXL], m = 0;
      for (int64_t i = 0; i < dim; i++)
        if (!is_sum[i]) sizes[m++] = res->sizes[i];
      STEP(res, ct__view_impl(res, (ct_shape){sizes, m}));
    }
  }
  ct_release(l);
  ct_release(r);
  return res;
}

typedef struct parsed {
  int labels[MAXL];
  int64_t n;
} parsed;

static ct_tensor *einsum_impl(const char *eq, ct_tensors ops) {
  int64_t num_ops = ops.n;
  if (num_ops == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "einsum(): must provide at least one operand");
  if (num_ops > 256) return CT_ERR_NULL(CT_ERR_RUNTIME, "einsum(): too many operands");
  const char *arrow = strstr(eq, "->");
  size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
  parsed *pl = ct__malloc((size_t)num_ops * sizeof *pl);
  if (!pl) return NULL;
  for (int64_t i = 0; i < num_ops; i++) pl[i].n = 0;
  ct_tensor **perm = NULL, *result = NULL;
  bool found_ell = false;
  int64_t cur = 0;
#define FAIL(...)                           \
  do {                                      \
    ct__error(CT_ERR_RUNTIME, __VA_ARGS__); \
    goto done;                              \
  } while (0)
  for (size_t i = 0; i < lhs_len; i++) {
    char c = eq[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (found_ell)
        FAIL("einsum(): found '.' for operand %lld for which an ellipsis was already found", (long long)cur);
      if (!(i + 2 < lhs_len && eq[++i] == '.' && eq[++i] == '.'))
        FAIL("einsum(): found '.' for operand %lld that is not part of any ellipsis", (long long)cur);
      if (pl[cur].n < MAXL) pl[cur].labels[pl[cur].n++] = ELL;
      found_ell = true;
    } else if (c == ',') {
      if (++cur >= num_ops) FAIL("einsum(): fewer operands were provided than specified in the equation");
      found_ell = false;
    } else {
      if (!isalpha((unsigned char)c))
        FAIL("einsum(): invalid subscript given at index %zu in the equation string, subscripts must be in "
             "[a-zA-Z]",
             i);
      if (pl[cur].n >= MAXL) FAIL("einsum(): too many subscripts for operand %lld", (long long)cur);
      pl[cur].labels[pl[cur].n++] = label_index(c);
    }
  }
  if (cur != num_ops - 1) FAIL("einsum(): more operands were provided than specified in the equation");
  int label_count[LABELS] = {0};
  int64_t ell_num_dim = 0;
  for (int64_t i = 0; i < num_ops; i++) {
    int64_t ndims = ops.data[i]->ndim, nlabels = pl[i].n;
    bool has_ell = false;
    for (int64_t k = 0; k < pl[i].n; k++) {
      if (pl[i].labels[k] == ELL) {
        --nlabels;
        has_ell = true;
        if (ndims - nlabels > ell_num_dim) ell_num_dim = ndims - nlabels;
      } else {
        ++label_count[pl[i].labels[k]];
      }
    }
    if (has_ell ? nlabels > ndims : nlabels != ndims)
      FAIL("einsum(): the number of subscripts in the equation (%lld) %s (%lld) for operand %lld%s",
           (long long)nlabels,
           has_ell ? "is more than the number of dimensions" : "does not match the number of dimensions",
           (long long)ndims, (long long)i, has_ell ? "" : " and no ellipsis was given");
  }
  int64_t label_perm[LABELS], perm_index = 0, ell_index = 0;
  for (int k = 0; k < LABELS; k++) label_perm[k] = -1;
  found_ell = false;
  if (!arrow) {
    perm_index = ell_num_dim;
    found_ell = true;
    for (int k = 0; k < LABELS; k++)
      if (label_count[k] == 1) label_perm[k] = perm_index++;
  } else {
    const char *rhs = arrow + 2;
    size_t rl = strlen(rhs);
    for (size_t i = 0; i < rl; i++) {
      char c = rhs[i];
      if (c == ' ') continue;
      if (c == '.') {
        if (found_ell) FAIL("einsum(): found '.' for output but an ellipsis (...) was already found");
        if (!(i + 2 < rl && rhs[++i] == '.' && rhs[++i] == '.'))
          FAIL("einsum(): found '.' for output that is not part of any ellipsis (...)");
        ell_index = perm_index;
        perm_index += ell_num_dim;
        found_ell = true;
      } else {
        if (!isalpha((unsigned char)c))
          FAIL("einsum(): invalid subscript given at index %zu in the equation string, subscripts must be in "
               "[a-zA-Z]",
               (size_t)(rhs - eq) + i);
        int lb = label_index(c);
        if (!(label_count[lb] > 0 && label_perm[lb] == -1))
          FAIL("einsum(): output subscript %c%s", c,
               label_perm[lb] > -1 ? " appears more than once in the output"
                                   : " does not appear in the equation for any input operand");
        label_perm[lb] = perm_index++;
      }
    }
  }
  int64_t out_size = perm_index;
  if (!found_ell) {
    ell_index = perm_index;
    perm_index += ell_num_dim;
  }
  for (int k = 0; k < LABELS; k++)
    if (label_count[k] > 0 && label_perm[k] == -1) label_perm[k] = perm_index++;
  if (perm_index > MAXL) FAIL("einsum(): too many dimensions");
  perm = ct__malloc((size_t)num_ops * sizeof *perm);
  if (!perm) goto done;
  for (int64_t i = 0; i < num_ops; i++) perm[i] = NULL;
  for (int64_t i = 0; i < num_ops; i++) {
    int64_t perm_shape[MAXL], label_dim[LABELS], j = 0;
    for (int64_t k = 0; k < perm_index; k++) perm_shape[k] = -1;
    for (int k = 0; k < LABELS; k++) label_dim[k] = -1;
    ct_tensor *op = ct_retain((ct_tensor *)ops.data[i]);
    int64_t orig_ndim = op->ndim;
    for (int64_t k = 0; op && k < pl[i].n; k++) {
      int lb = pl[i].labels[k];
      if (lb == ELL) {
        int64_t missing = ell_num_dim - (orig_ndim - pl[i].n + 1);
        for (int64_t q = 0; op && q < missing; q++) STEP(op, ct__unsqueeze_impl(op, j));
        for (int64_t q = 0; q < ell_num_dim; q++) perm_shape[ell_index + q] = j++;
      } else if (label_dim[lb] != -1) {
        int64_t d = label_dim[lb];
        if (op->sizes[j] != op->sizes[d]) {
          ct__error(
              CT_ERR_RUNTIME,
              "einsum(): subscript %c is repeated for operand %lld but the sizes don't match, %lld != %lld",
              (char)(lb + 'a'), (long long)i, (long long)op->sizes[j], (long long)op->sizes[d]);
          ct_release(op);
          goto done;
        }
        STEP(op, ct__diagonal_impl(op, 0, d, j));
        int64_t src = -1;
        if (op) STEP(op, ct__movedim_impl(op, (ct_dims){&src, 1}, (ct_dims){&d, 1}));
      } else {
        label_dim[lb] = j;
        perm_shape[label_perm[lb]] = j++;
      }
    }
    for (int64_t k = 0; op && k < perm_index; k++)
      if (perm_shape[k] == -1) {
        STEP(op, ct__unsqueeze_impl(op, -1));
        perm_shape[k] = j++;
      }
    if (op) STEP(op, ct__permute_impl(op, (ct_dims){perm_shape, perm_index}));
    if (!op) goto done;
    perm[i] = op;
  }
  /* dim_counts: how many operands have each dim of size != 1 (torch 1.13 counts them as it aligns) */
  int64_t dim_counts[MAXL];
  for (int64_t d = 0; d < perm_index; d++) {
    int64_t bs = perm[0]->sizes[d];
    dim_counts[d] = bs != 1;
    for (int64_t i = 1; i < num_ops; i++) {
      int64_t ds = perm[i]->sizes[d];
      if (bs != ds && bs != 1 && ds != 1) {
        char msg[4096] = "einsum(): operands do not broadcast with remapped shapes [original->remapped]:";
        for (int64_t q = 0; q < num_ops; q++) {
          char a[512], b[512];
          size_t len = strlen(msg);
          ct__fmt_int_list(a, sizeof a, ops.data[q]->ndim, ops.data[q]->sizes);
          ct__fmt_int_list(b, sizeof b, perm[q]->ndim, perm[q]->sizes);
          snprintf(msg + len, sizeof msg - len, " %s->%s", a, b);
        }
        FAIL("%s", msg);
      }
      if (ds != 1) bs = ds, dim_counts[d]++;
    }
  }
  /* Contract as torch 1.13 does without a path: the first two operands, the product put first in the
     list, until one is left; each pair with sumproduct_pair(keepdim=true), summing a dim once no
     other operand has it. perm[] is the list (n entries), owning its tensors. */
  int64_t n = num_ops;
  while (n > 1) {
    ct_tensor *a = perm[0], *b = perm[1];
    for (int64_t q = 2; q < n; q++) perm[q - 2] = perm[q];
    perm[n - 2] = perm[n - 1] = NULL;
    n -= 2;
    int64_t sum_dims[MAXL], ns = 0;
    for (int64_t d = out_size; a && b && d < perm_index; d++) {
      if (a->sizes[d] != 1 && b->sizes[d] != 1) {
        if (--dim_counts[d] == 1) {
          sum_dims[ns++] = d;
          dim_counts[d] = 0;
        }
      } else if (dim_counts[d] == 1) {
        if (a->sizes[d] != 1) {
          STEP(a, sum_dim(a, d, true));
          dim_counts[d] = 0;
        } else if (b->sizes[d] != 1) {
          STEP(b, sum_dim(b, d, true));
          dim_counts[d] = 0;
        }
      }
    }
    ct_tensor *p = a && b ? sumproduct_pair(a, b, sum_dims, ns, true) : NULL;
    ct_release(a);
    ct_release(b);
    if (!p) goto done;
    /* without a path torch puts the product first (ops.emplace_front): a left fold, ((ab)c)d, whose
       order of complex products decides the last bits */
    memmove(perm + 1, perm, (size_t)n * sizeof *perm);
    perm[0] = p;
    n++;
  }
  /* the contraction dims: all of size 1 by now when there were several operands, viewed away (the dtype and
     strides of the last product stay); summed out of a single operand */
  if (perm_index > out_size && num_ops > 1) {
    result = ct__view_impl(perm[0], (ct_shape){perm[0]->sizes, out_size});
  } else if (perm_index > out_size) {
    int64_t sd[MAXL], ns = 0;
    for (int64_t d = out_size; d < perm_index; d++) sd[ns++] = d;
    ct_scope_begin();
    if (ct__sum_impl(NULL, perm[0], &(ct_reduce_opts){.dims = {sd, ns}}, &result) == CT_OK && result)
      ct_retain(result);
    else result = NULL;
    ct_scope_end();
  } else {
    result = ct_retain(perm[0]);
  }
done:
#undef FAIL
  if (perm)
    for (int64_t i = 0; i < num_ops; i++) ct_release(perm[i]);
  ct__free(perm);
  ct__free(pl);
  return result;
}

ct_tensor *ct_einsum(const char *equation, ct_tensors operands) {
  if (!equation) return (ct_tensor *)(ct__null_arg(1, "equation"), NULL);
  if (!ct__join_list_ok(&einsum_op, NULL, operands)) return NULL;
  ct_tensor *r = einsum_impl(equation, operands);
  ct__join_mark(r, operands);
  return ct__own(r);
}
