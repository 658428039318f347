/* torch.randperm on the CPU (1.13): 0..n-1 in the dtype, then for i < n - 1 swap element i with
   element i + random() % (n - i). */
#include "random/random_internal.h"

/* check_supported_max_int_with_precision: n - 1 must fit the dtype, and n must be exact in it. */
static bool check_n(int64_t n, ct_dtype dt) {
  int64_t last = n > 0 ? n - 1 : n;
  /* scalar_tensor(n - 1) in the dtype: c10's checked conversion (cast.h: ct__scalar_fits) */
  if (ct__dtype_valid(dt) && dt != CT_BOOL && !ct__scalar_fits(ct_scalar_int(last), dt)) return false;
  const char *msg = NULL;
  if (dt == CT_FLOAT16 && n > (INT64_C(1) << 11) + 1) msg = "n cannot be greater than 2049 for Half type.";
  if (dt == CT_FLOAT32 && n > (INT64_C(1) << 24) + 1) msg = "n cannot be greater than 2^24+1 for Float type.";
  if (dt == CT_FLOAT64 && n > (INT64_C(1) << 53) + 1) msg = "n cannot be greater than 2^53+1 for Double type.";
  if (msg) {
    ct__error(CT_ERR_RUNTIME, "%s", msg);
    return false;
  }
  if (dt == CT_BOOL || !(dt >= CT_UINT8 && dt <= CT_FLOAT64)) {
    ct__dispatch_error("randperm", dt);
    return false;
  }
  return true;
}

static void shuffle(char *data, int64_t n, size_t isz, ct_generator *g) {
  uint32_t buf[CT_RANDOM_CHUNK];
  char tmp[8];
  for (int64_t i = 0; i < n - 1;) {
    int64_t m = n - 1 - i < CT_RANDOM_CHUNK ? n - 1 - i : CT_RANDOM_CHUNK;
    ct__mt_fill(&g->mt, buf, m);
    for (int64_t k = 0; k < m; k++, i++) {
      int64_t z = (int64_t)(buf[k] % (uint64_t)(n - i));
      char *a = data + i * (int64_t)isz, *b = data + (i + z) * (int64_t)isz;
      memcpy(tmp, a, isz);
      memcpy(a, b, isz);
      memcpy(b, tmp, isz);
    }
  }
}

static ct_status randperm_cpu_run(ct_tensor *t, const void *args) {
  const ct_random_opts *opts = *(const ct_random_opts *const *)args;
  int64_t n = t->numel;
  if (n == 0) return CT_OK;
  ct_dtype dt = (ct_dtype)t->dtype;
  char *data = ct__tdata(t);
  size_t isz = ct__itemsize(dt);
  for (int64_t i = 0; i < n; i++) ct__elem_store_i64(dt, data + i * (int64_t)isz, i);
  ct_generator *g = ct__random_gen(opts);
  ct__gen_lock(g);
  shuffle(data, n, isz, g);
  ct__gen_unlock(g);
  return CT_OK;
}
static const ct_fill_kernel randperm_cpu = {randperm_cpu_run};
/* torch makes empty({n}) first, then runs randperm.generator_out */
static const ct_create_op randperm_op = {
    {CT_CREATE_OP("randperm", "aten::randperm.generator_out", &randperm_cpu), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_EMPTY};

ct_tensor *ct_randperm(int64_t n, const ct_random_opts *opts) {
  ct_tensor *t = ct__random_empty(&randperm_op, (ct_shape){&n, 1}, opts, CT_INT64);
  if (!t) return NULL;
  if (!check_n(n, (ct_dtype)t->dtype)) {
    ct_release(t);
    return NULL;
  }
  ct__fill_run(&randperm_op.op, t, &opts);
  return ct__own(t);
}
