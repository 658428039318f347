/* torch.multinomial on the CPU (1.13). Without replacement: q ~ Exp(1) over a
   tensor shaped like the input, then argmax / topk of p / q per row (the exponential-race form of
   sampling). With replacement: per row, the cumulative distribution in the input's dtype, normalized,
   its last entry forced to 1, and a binary search for each U53 draw. */
#include <math.h>

#include "random/random_internal.h"
#include "random/topk_order.h"

/* An element of a 1-D or 2-D probability tensor: row r (0 for 1-D), category j. */
static inline const char *elem_at(const ct_tensor *t, int64_t r, int64_t j) {
  int64_t off = j * t->strides[t->ndim - 1] + (t->ndim == 2 ? r * t->strides[0] : 0);
  return ct__tdata(t) + off * (int64_t)ct__itemsize((ct_dtype)t->dtype);
}

static bool check_no_replacement(const ct_tensor *p, int64_t n_dist, int64_t n_cat) {
  /* is_valid = (max < inf) & (min >= 0), then no row may sum to zero */
  for (int64_t r = 0; r < n_dist; r++)
    for (int64_t j = 0; j < n_cat; j++) {
      double v = ct__elem_load_f64((ct_dtype)p->dtype, elem_at(p, r, j));
      if (!(v < INFINITY && v >= 0)) {
        ct__error(CT_ERR_RUNTIME, "probability tensor contains either `inf`, `nan` or element < 0");
        return false;
      }
    }
  for (int64_t r = 0; r < n_dist; r++) {
    bool all_zero = true;
    for (int64_t j = 0; j < n_cat && all_zero; j++) all_zero = ct__elem_load_f64((ct_dtype)p->dtype, elem_at(p, r, j)) == 0;
    if (all_zero) {
      ct__error(CT_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
      return false;
    }
  }
  return true;
}

static bool sample_no_replacement(const ct_tensor *p, int64_t n_dist, int64_t n_cat, int64_t n_sample,
                                  int64_t *out, ct_generator *g) {
  ct_dtype dt = (ct_dtype)p->dtype;
  ct_tensor *q = ct__random_empty_like(p, NULL);
  ct_topk_elem *row = ct__malloc((size_t)(n_cat ? n_cat : 1) * sizeof *row);
  if (!q || !row) {
    if (q) ct_release(q);
    ct__free(row);
    return false;
  }
  ct__gen_lock(g);
  ct__exponential_fill(q, 1.0, g);
  ct__gen_unlock(g);
  for (int64_t r = 0; r < n_dist; r++) {
    for (int64_t j = 0; j < n_cat; j++) {
      /* q = p / q in the input's dtype */
      double v = ct__elem_load_f64(dt, elem_at(p, r, j)) / ct__elem_load_f64(dt, elem_at(q, r, j));
      row[j] = (ct_topk_elem){ct__elem_round_f64(dt, v), j};
    }
    if (n_sample == 1) {
      /* argmax: the first maximum, NaN counting as the largest */
      int64_t best = 0;
      for (int64_t j = 1; j < n_cat && !isnan(row[best].value); j++)
        if (isnan(row[j].value) || row[j].value > row[best].value) best = j;
      out[r] = best;
    } else {
      ct__topk_largest(row, n_cat, n_sample);
      for (int64_t k = 0; k < n_sample; k++) out[r * n_sample + k] = row[k].index;
    }
  }
  ct_release(q);
  ct__free(row);
  return true;
}

/* The with-replacement kernel's checks, all rows before any draw: entries >= 0 and finite, sum > 0
   (the sum accumulated as the kernel does: in the dtype, float for bfloat16). */
static bool cumulative(const ct_tensor *p, int64_t r, int64_t n_cat, double *cum) {
  ct_dtype dt = (ct_dtype)p->dtype;
  ct_dtype acc = (ct_dtype)ct__dt(dt)->opmath_dtype;
  double sum = 0;
  for (int64_t j = 0; j < n_cat; j++) {
    double v = ct__elem_load_f64(dt, elem_at(p, r, j));
    if (!(v >= 0)) {
      ct__error(CT_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
      return false;
    }
    if (!isfinite(v)) {
      ct__error(CT_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      return false;
    }
    sum = ct__elem_round_f64(acc, sum + v);
    if (cum) cum[j] = sum;
  }
  if (!(sum > 0)) {
    ct__error(CT_ERR_RUNTIME, "invalid multinomial distribution (sum of probabilities <= 0)");
    return false;
  }
  if (cum)
    for (int64_t j = 0; j < n_cat; j++) cum[j] = ct__elem_round_f64(acc, cum[j] / sum);
  return true;
}

static bool sample_with_replacement(const ct_tensor *p, int64_t n_dist, int64_t n_cat, int64_t n_sample,
                                    int64_t *out, ct_generator *g) {
  for (int64_t r = 0; r < n_dist; r++)
    if (!cumulative(p, r, n_cat, NULL)) return false;
  double *cum = ct__malloc((size_t)n_cat * sizeof *cum);
  if (!cum) return false;
  ct__gen_lock(g);
  for (int64_t r = 0; r < n_dist; r++) {
    cumulative(p, r, n_cat, cum);
    cum[n_cat - 1] = 1;
    for (int64_t s = 0; s < n_sample; s++) {
      double u = ct__gen_uniform_double(g);
      int64_t left = 0, right = n_cat;
      while (right - left > 0) {
        int64_t mid = left + (right - left) / 2;
        if (cum[mid] < u)
          left = mid + 1;
        else
          right = mid;
      }
      out[r * n_sample + s] = left;
    }
  }
  ct__gen_unlock(g);
  ct__free(cum);
  return true;
}

typedef struct multinomial_args {
  const ct_tensor *input;
  int64_t n_sample;
  bool replacement;
  const ct_sample_opts *opts;
} multinomial_args;

static ct_status multinomial_cpu_run(ct_tensor *out, const void *args) {
  const multinomial_args *a = args;
  const ct_tensor *input = a->input;
  if ((ct_dtype)input->dtype == CT_FLOAT16) {
    ct__error(CT_ERR_RUNTIME, "multinomial is not implemented for half on CPU");
    return CT_ERR_RUNTIME;
  }
  int64_t n_cat = input->sizes[input->ndim - 1], n_dist = input->ndim == 2 ? input->sizes[0] : 1;
  ct_generator *g = ct__sample_gen(a->opts);
  int64_t *res = (int64_t *)(void *)ct__tdata(out);
  bool ok;
  if (!a->replacement) /* 1.13 draws with replacement by the cumulative search even for one sample */
    ok = check_no_replacement(input, n_dist, n_cat) &&
         sample_no_replacement(input, n_dist, n_cat, a->n_sample, res, g);
  else ok = sample_with_replacement(input, n_dist, n_cat, a->n_sample, res, g);
  return ok ? CT_OK : ct_last_error();
}
static const ct_fill_kernel multinomial_cpu = {multinomial_cpu_run};
/* torch 1.13 has no Meta kernel for multinomial: the meta device gets its dispatcher message */
static const ct_op multinomial_op = {.name = "multinomial",
                                     .aten = "aten::multinomial",
                                     .grad = CT_OP_GRAD_NONE,
                                     .kernels = {[CT_CPU] = &multinomial_cpu}};

static ct_tensor *multinomial_impl(const ct_tensor *input, int64_t n_sample, bool replacement,
                                   const ct_sample_opts *opts) {
  if (CT_UNLIKELY(ct__math_bits(input) != 0)) { /* the sampler reads the values: a resolved copy */
    ct_tensor *r = ct__resolve_bits(input);
    ct_tensor *s = r ? multinomial_impl(r, n_sample, replacement, opts) : NULL;
    ct_release(r);
    return s;
  }
  ct_dtype dt = (ct_dtype)input->dtype;
  if (!(input->ndim == 1 || input->ndim == 2)) return CT_ERR_NULL(CT_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
  if (!ct__is_float_dtype(dt))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: %s",
                       ct_dtype_scalar_name(dt));
  if (n_sample <= 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
  int64_t n_cat = input->sizes[input->ndim - 1];
  if (!replacement && n_sample > n_cat)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  if (n_cat > (INT64_C(1) << 24)) return CT_ERR_NULL(CT_ERR_RUNTIME, "number of categories cannot exceed 2^24");
  int64_t n_dist = input->ndim == 2 ? input->sizes[0] : 1;
  int64_t shape[2] = {n_dist, n_sample};
  ct_tensor *out = input->ndim == 2 ? ct__empty(2, shape, CT_INT64, ct__tdevice(input))
                                    : ct__empty(1, &n_sample, CT_INT64, ct__tdevice(input));
  if (!out || out->numel == 0) return out;
  if (ct__fill_run(&multinomial_op, out, &(multinomial_args){input, n_sample, replacement, opts}) != CT_OK) {
    ct_release(out);
    return NULL;
  }
  return out;
}

ct_tensor *ct_multinomial(const ct_tensor *input, int64_t n_sample, bool replacement,
                          const ct_sample_opts *opts) {
  CT__OP_ENTER_PTR(&multinomial_op, input, input);
  return ct__own(multinomial_impl(input, n_sample, replacement, opts));
}
