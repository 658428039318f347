/* random_ in its four forms, randint and randint_like: integers drawn with random() (or random64()
   for ranges of 2^32 and more in int64 / float32 / float64 / bfloat16) and reduced modulo the range,
   with PyTorch's argument checks and its from / to adjustment for floating dtypes. */
#include <stdio.h>

#include "random/random_internal.h"

static bool is_integral_or_bool(ct_dtype dt) { return ct__dt(dt)->category <= CT_CAT_INT && ct__dtype_valid(dt); }

static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int highest_bit(int64_t v) { /* floor(log2(|v|)) as PyTorch's shift loop counts it */
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int n = 0;
  while (u >>= 1) ++n;
  return n;
}

/* update_from / update_to: move from right (to left) to the nearest value that stays inside
   [from, to) after the cast to the dtype. */
static int64_t update_from(ct_dtype dt, int64_t from) {
  int64_t from_plus_1 = ct__elem_round_i64(dt, wrap_add(from, 1));
  if (from_plus_1 < from) {
    int n = highest_bit(wrap_add(from, 1));
    from = wrap_add(from_plus_1, (int64_t)(UINT64_C(1) << (n - ct__dt(dt)->digits + 1)));
  }
  return from;
}
static int64_t update_to(ct_dtype dt, int64_t to) {
  int64_t to_minus_1 = ct__elem_round_i64(dt, wrap_add(to, -1));
  if (to_minus_1 >= to) {
    int n = highest_bit(wrap_add(to, -1));
    to = wrap_add(to_minus_1, -(int64_t)(UINT64_C(1) << (n - ct__dt(dt)->digits + 1)));
  }
  return to;
}

/* check_from_to_in_range: from and to - 1 must be values of the dtype (PyTorch prints its TypeMeta name). */
static bool check_in_range(ct_dtype dt, int64_t from, int64_t to_inc) {
  const ct_dtype_traits *t = ct__dt(dt);
  bool from_ok, to_ok;
  if (ct__is_float_dtype(dt)) {
    from_ok = (double)from >= t->lowest && (double)from <= t->max;
    to_ok = (double)to_inc >= t->lowest && (double)to_inc <= t->max;
  } else if (is_integral_or_bool(dt)) {
    from_ok = from >= ct__int_min(t) && from <= ct__int_max(t);
    to_ok = to_inc >= ct__int_min(t) && to_inc <= ct__int_max(t);
  } else {
    ct__error(CT_ERR_RUNTIME, "check_random_bounds handles only integral, floating-point and boolean types");
    return false;
  }
  if (!from_ok || !to_ok) {
    ct__error(CT_ERR_RUNTIME, "%s is out of bounds for %s", from_ok ? "to - 1" : "from", t->typemeta_name);
    return false;
  }
  return true;
}

typedef enum { MODE_FROM_TO, MODE_FULL64, MODE_DEFAULT } int_mode;

typedef struct int_ctx {
  ct_generator *g;
  ct_dtype dt;
  int_mode mode;
  bool use64;
  uint64_t range;
  int64_t base;
} int_ctx;

/* uniform_int_distribution<T> without bounds: [0, max] for integral types (bool: 0 or 1), [0, 2^digits] for
   floating ones. Generated from the dtype list: each case divides by a constant. */
#define DEFAULT_MOD_BOOL(T, DIGITS) UINT64_C(2)
#define DEFAULT_MOD_INT(T, DIGITS) (UINT64_C(1) << (DIGITS))
#define DEFAULT_MOD_HALF(T, DIGITS) ((UINT64_C(1) << (DIGITS)) + 1)
#define DEFAULT_MOD_FLOAT(T, DIGITS) ((UINT64_C(1) << (DIGITS)) + 1)
#define DEFAULT_MOD_COMPLEX(T, DIGITS) UINT64_C(1) /* random_ refuses complex dtypes */
#define DEFAULT_CASE(A, S, T, K, LOAD, STORE, NAME, LEGACY, SCALAR, CPP, TYPEMETA, DIGITS, ...) \
  case CT_##S: return (int64_t)(v % DEFAULT_MOD_##K(T, DIGITS));
static int64_t default_value(ct_dtype dt, uint64_t v) {
  switch (dt) {
    CT_DTYPE_LIST(DEFAULT_CASE, ~)
    default: return 0;
  }
}

/* Draws a chunk as int64 values, then stores it with the cast engine (static_cast<T>(int64) keeps the low
   bits, as the int64 -> T copy does): the per-dtype store is one vectorized loop per chunk. */
static void int_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  int_ctx *c = vctx;
  uint32_t buf[CT_RANDOM_CHUNK];
  int64_t vals[CT_RANDOM_CHUNK / 2];
  int64_t words = c->use64 ? 2 : 1;
  for (int64_t done = 0; done < n;) {
    int64_t m = n - done < CT_RANDOM_CHUNK / 2 ? n - done : CT_RANDOM_CHUNK / 2;
    ct__mt_fill(&c->g->mt, buf, m * words);
    for (int64_t i = 0; i < m; i++) {
      uint64_t v = c->use64 ? (uint64_t)buf[2 * i] << 32 | buf[2 * i + 1] : buf[i];
      switch (c->mode) {
        case MODE_FROM_TO: vals[i] = (int64_t)(v % c->range + (uint64_t)c->base); break;
        case MODE_FULL64: vals[i] = (int64_t)v; break;
        default: vals[i] = default_value(c->dt, v); break;
      }
    }
    ct__cast_strided(ptr[0] + done * stride[0], stride[0], c->dt, (const char *)vals, 8, CT_INT64, m);
    done += m;
  }
}

typedef struct int_args {
  int_ctx *c;
  const ct_sample_opts *opts;
} int_args;

CT_RANDOM_CPU_KERNEL(int, int_args, (a->c->g = g, ct__walk(t, NULL, int_run, a->c)))
/* random_(), random_(to), random_(from, to) (to None as well); randint and randint_like are empty + random_(from, to) */
static const ct_op random_op = {CT_CREATE_OP("random_", "aten::random_", &int_cpu)};
static const ct_op random_to_op = {CT_CREATE_OP("random_", "aten::random_.to", &int_cpu)};
static const ct_op random_from_op = {CT_CREATE_OP("random_", "aten::random_.from", &int_cpu)};
static const ct_create_op randint_op = {
    {CT_CREATE_OP("randint", "aten::random_.from", &int_cpu), .grad = CT_OP_GRAD_NONE}, CT_FACTORY_EMPTY};
static const ct_op randint_like_op = {CT_CREATE_OP("randint_like", "aten::random_.from", &int_cpu),
                                      .grad = CT_OP_GRAD_NONE};

static ct_status run(const ct_op *op, ct_tensor *self, int_ctx *c, const ct_sample_opts *opts) {
  return ct__fill_run(op, self, &(int_args){c, opts});
}

/* uniform_int_from_to_distribution: 64-bit draws only for wide ranges in the 64-bit-capable dtypes. */
static bool wide_draws(ct_dtype dt, uint64_t range) {
  return (dt == CT_INT64 || dt == CT_FLOAT64 || dt == CT_FLOAT32 || dt == CT_BFLOAT16) && range >= (UINT64_C(1) << 32);
}

static ct_status random_from_to_impl(ct_tensor *self, int64_t from, int64_t to, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, random_from_to_impl(tmp, from, to, opts));
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!(from < to)) {
    ct__error(CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
              (long long)from, (long long)to);
    return CT_ERR_RUNTIME;
  }
  if (ct__is_float_dtype(dt)) {
    from = update_from(dt, from);
    to = update_to(dt, to);
    if (!(from < to)) {
      ct__error(CT_ERR_RUNTIME,
                "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=%lld >= "
                "to=%lld",
                (long long)from, (long long)to);
      return CT_ERR_RUNTIME;
    }
  }
  if (!check_in_range(dt, from, wrap_add(to, -1))) return CT_ERR_RUNTIME;
  uint64_t range = (uint64_t)to - (uint64_t)from;
  int_ctx c = {.dt = dt, .mode = MODE_FROM_TO, .use64 = wide_draws(dt, range), .range = range, .base = from};
  return run(&random_from_op, self, &c, opts);
}

ct_status ct_random_from_to_(ct_tensor *self, int64_t from, int64_t to, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&random_from_op, self, self);
  return random_from_to_impl(self, from, to, opts);
}

ct_status ct_random_to_(ct_tensor *self, int64_t to, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&random_to_op, self, self);
  return random_from_to_impl(self, 0, to, opts);
}

static ct_status random_from_impl(ct_tensor *self, int64_t from, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, random_from_impl(tmp, from, opts));
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)self->dtype;
  if (from == INT64_MIN) {
    /* [int64 min, int64 max]: every 64-bit value, for the dtypes that can hold them */
    if (dt == CT_BOOL || dt == CT_FLOAT16 || !(is_integral_or_bool(dt) || ct__is_float_dtype(dt))) {
      ct__dispatch_error("random_full_64_bits_range_kernel_cpu", dt);
      return CT_ERR_RUNTIME;
    }
    if (!(dt == CT_INT64 || dt == CT_FLOAT64 || dt == CT_FLOAT32 || dt == CT_BFLOAT16)) {
      ct__error(CT_ERR_RUNTIME, "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
      return CT_ERR_RUNTIME;
    }
    int_ctx c = {.dt = dt, .mode = MODE_FULL64, .use64 = true};
    return run(&random_from_op, self, &c, opts);
  }
  int64_t to_inc;
  if (ct__is_float_dtype(dt)) {
    int digits = ct__dt(dt)->digits;
    to_inc = digits >= 63 ? INT64_MAX : (int64_t)(UINT64_C(1) << digits);
    from = update_from(dt, from);
    if (!(from < to_inc)) {
      ct__error(CT_ERR_RUNTIME,
                "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got "
                "from=%lld > to_inc=%lld",
                (long long)from, (long long)to_inc);
      return CT_ERR_RUNTIME;
    }
  } else if (is_integral_or_bool(dt)) {
    to_inc = ct__int_max(ct__dt(dt));
  } else {
    ct__error(CT_ERR_RUNTIME, "random_from_to_impl handles only integral, floating-point and boolean types");
    return CT_ERR_RUNTIME;
  }
  if (!check_in_range(dt, from, to_inc)) return CT_ERR_RUNTIME;
  uint64_t range = (uint64_t)to_inc - (uint64_t)from + 1;
  int_ctx c = {.dt = dt, .mode = MODE_FROM_TO, .use64 = wide_draws(dt, range), .range = range, .base = from};
  return run(&random_from_op, self, &c, opts);
}

ct_status ct_random_from_(ct_tensor *self, int64_t from, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&random_from_op, self, self);
  return random_from_impl(self, from, opts);
}

static ct_status random_impl(ct_tensor *self, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, random_impl(tmp, opts));
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!(is_integral_or_bool(dt) || ct__is_float_dtype(dt))) {
    ct__dispatch_error("random_kernel_cpu", dt);
    return CT_ERR_RUNTIME;
  }
  int_ctx c = {.dt = dt, .mode = MODE_DEFAULT, .use64 = dt == CT_FLOAT64 || dt == CT_INT64};
  return run(&random_op, self, &c, opts);
}

ct_status ct_random_(ct_tensor *self, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&random_op, self, self);
  return random_impl(self, opts);
}

static ct_tensor *fill_new(ct_tensor *t, int64_t low, int64_t high, const ct_random_opts *opts) {
  if (!t) return NULL;
  ct_sample_opts so = {opts ? opts->generator : NULL};
  if (random_from_to_impl(t, low, high, &so) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__own(t);
}

ct_tensor *ct_randint(int64_t low, int64_t high, ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(&randint_op, size, opts, CT_INT64), low, high, opts);
}

ct_tensor *ct_randint_like(const ct_tensor *t, int64_t low, int64_t high, const ct_random_opts *opts) {
  CT__OP_ENTER_PTR(&randint_like_op, t, t);
  return fill_new(ct__random_empty_like(t, opts), low, high, opts);
}
