/* all, any, count_nonzero.

   all/any test each element as PyTorch's cast to bool does (nonzero; NaN is true; complex: the real
   part), count_nonzero as x != 0 (complex: either part). A uint8 result (uint8 inputs, or a uint8 out=)
   comes from the input cast to uint8 first, as PyTorch's CPU kernel does for more than one element. */
#include "ops/reduce/red.h"

#define TRUTH_R(T) (*(const T *)p != 0)
#define TRUTH_H(T) ((*(const uint16_t *)p & 0x7fffu) != 0)
#define TRUTH_C(RT) (((const RT *)p)[0] != 0)
#define NZ_C(RT) (((const RT *)p)[0] != 0 || ((const RT *)p)[1] != 0)

/* Each element is tested on its own, so any grouping gives the same results: the vertical loops
   (OUTER) fold a row at a time into a row of accumulators, branch-free. */
#define DEF_OUTER(NAME, TEST, OP, SZ)                                                                           \
  CT_KERNEL_CLONES static void NAME##_outer(void *acc, const char *in, int64_t cs, int64_t m, int64_t rs,       \
                                            int64_t n, int64_t idx, const ct_red_cols *cols, const void *ctx) { \
    (void)idx, (void)cols, (void)ctx;                                                                           \
    uint64_t *restrict a = acc;                                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                                           \
      const char *row = in + i * rs;                                                                            \
      if (cs == (int64_t)(SZ)) /* a constant stride: a vector loop */                                          \
        for (int64_t j = 0; j < m; j++) a[j] OP (uint64_t)TEST(row + j * (int64_t)(SZ));                        \
      else                                                                                                      \
        for (int64_t j = 0; j < m; j++) a[j] OP (uint64_t)TEST(row + j * cs);                                   \
    }                                                                                                           \
  }
#define DEF_LOGIC(E, TRUTH, NZ, SZ)                                                                                 \
  static inline bool E##_truth(const char *p) { return TRUTH; }                                                 \
  static inline bool E##_nz(const char *p) { return NZ; }                                                       \
  CT_VINLINE void all_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    uint64_t a = *(uint64_t *)acc;                                                                              \
    for (int64_t k = 0; k < n && a; k++) a = E##_truth(in + k * s);                                             \
    *(uint64_t *)acc = a;                                                                                       \
  }                                                                                                             \
  CT_VINLINE void any_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    uint64_t a = *(uint64_t *)acc;                                                                              \
    for (int64_t k = 0; k < n && !a; k++) a = E##_truth(in + k * s);                                            \
    *(uint64_t *)acc = a;                                                                                       \
  }                                                                                                             \
  CT_VINLINE void cnz_##E##_line(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    (void)idx, (void)ctx;                                                                                       \
    uint64_t a = 0;                                                                                             \
    if (s == (int64_t)(SZ)) /* a constant stride: a vector loop */                                             \
      for (int64_t k = 0; k < n; k++) a += E##_nz(in + k * (int64_t)(SZ));                                      \
    else                                                                                                        \
      for (int64_t k = 0; k < n; k++) a += E##_nz(in + k * s);                                                  \
    *(uint64_t *)acc += a;                                                                                      \
  }                                                                                                             \
  CT_RED_DEF_INNER(all_##E, 8)                                                                                  \
  CT_RED_DEF_INNER(any_##E, 8)                                                                                  \
  CT_RED_DEF_INNER(cnz_##E, 8)                                                                                  \
  DEF_OUTER(all_##E, E##_truth, &=, SZ)                                                                         \
  DEF_OUTER(any_##E, E##_truth, |=, SZ)                                                                         \
  DEF_OUTER(cnz_##E, E##_nz, +=, SZ)
DEF_LOGIC(CT_BOOL, TRUTH_R(uint8_t), TRUTH_R(uint8_t), 1) /* bytes: any nonzero one is true */
DEF_LOGIC(CT_UINT8, TRUTH_R(uint8_t), TRUTH_R(uint8_t), sizeof(uint8_t))
DEF_LOGIC(CT_INT8, TRUTH_R(int8_t), TRUTH_R(int8_t), sizeof(int8_t))
DEF_LOGIC(CT_INT16, TRUTH_R(int16_t), TRUTH_R(int16_t), sizeof(int16_t))
DEF_LOGIC(CT_INT32, TRUTH_R(int32_t), TRUTH_R(int32_t), sizeof(int32_t))
DEF_LOGIC(CT_INT64, TRUTH_R(int64_t), TRUTH_R(int64_t), sizeof(int64_t))
DEF_LOGIC(CT_FLOAT16, TRUTH_H(uint16_t), TRUTH_H(uint16_t), sizeof(uint16_t))
DEF_LOGIC(CT_BFLOAT16, TRUTH_H(uint16_t), TRUTH_H(uint16_t), sizeof(uint16_t))
DEF_LOGIC(CT_FLOAT32, TRUTH_R(float), TRUTH_R(float), sizeof(float))
DEF_LOGIC(CT_FLOAT64, TRUTH_R(double), TRUTH_R(double), sizeof(double))
DEF_LOGIC(CT_COMPLEX64, TRUTH_C(float), NZ_C(float), 2 * sizeof(float))
DEF_LOGIC(CT_COMPLEX128, TRUTH_C(double), NZ_C(double), 2 * sizeof(double))

static void init_one(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(uint64_t *)acc = 1;
}
static void init_zero(void *acc, const char *aux, const void *ctx) {
  (void)aux, (void)ctx;
  *(uint64_t *)acc = 0;
}
static void combine_and(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(uint64_t *)acc = *(uint64_t *)acc && *(const uint64_t *)b;
}
static void combine_or(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(uint64_t *)acc = *(uint64_t *)acc || *(const uint64_t *)b;
}
static void combine_add(void *acc, const void *b, const void *ctx) {
  (void)ctx;
  *(uint64_t *)acc += *(const uint64_t *)b;
}
static void finish_int(char *const *out, const void *acc, const void *ctx) {
  ct__red_store_i64(out[0], ((const ct_red_ctx *)ctx)->out_dtype[0], (int64_t) * (const uint64_t *)acc);
}

static void init_one_run(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {
  (void)aux, (void)as, (void)ctx;
  for (int64_t j = 0; j < m; j++) ((uint64_t *)acc)[j] = 1;
}
static void init_zero_run(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {
  (void)aux, (void)as, (void)ctx;
  memset(acc, 0, (size_t)m * 8);
}
CT_RED_DEF_FINISH_RUN(finish_int_run, 8, 1, finish_int)

#define K_LOGIC(E, T, CT, LD, ST)                                                                              \
  static const ct_red_kernel all_k_##E = {8,     init_one, all_##E##_inner, all_##E##_outer, combine_and, finish_int, \
                                          false, false,    all_##E##_inner_run, init_one_run, finish_int_run};        \
  static const ct_red_kernel any_k_##E = {8,     init_zero, any_##E##_inner, any_##E##_outer, combine_or, finish_int, \
                                          false, false,     any_##E##_inner_run, init_zero_run, finish_int_run};      \
  static const ct_red_kernel cnz_k_##E = {8,     init_zero, cnz_##E##_inner, cnz_##E##_outer, combine_add, finish_int, \
                                          false, false,     cnz_##E##_inner_run, init_zero_run, finish_int_run};
CT_DT_ALL(K_LOGIC)
#define ENTRY_ALL(E, T, CT, LD, ST) [E] = &all_k_##E,
#define ENTRY_ANY(E, T, CT, LD, ST) [E] = &any_k_##E,
#define ENTRY_CNZ(E, T, CT, LD, ST) [E] = &cnz_k_##E,
static const ct_red_table all_table = {CT_DT_ALL(ENTRY_ALL)};
static const ct_red_table any_table = {CT_DT_ALL(ENTRY_ANY)};
static const ct_red_table cnz_table = {CT_DT_ALL(ENTRY_CNZ)};

static const ct_op all_op = {CT_RED_OP("all", "aten::all", &all_table), .grad = CT_OP_GRAD_NONE};
static const ct_op any_op = {CT_RED_OP("any", "aten::any", &any_table), .grad = CT_OP_GRAD_NONE};
/* no Meta kernel in torch 1.13: its dispatcher's error on a meta tensor */
static const ct_op cnz_op = {CT_RED_OP_ROWS("count_nonzero", "aten::count_nonzero.dim_IntList", &cnz_table, NULL)};

static const ct_reduce_opts no_opts;

static ct_status allany(bool is_all, ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res) {
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  const char *name = is_all ? "all" : "any";
  if (!ct__red_no_dtype(name, o)) return ct__null_status();
  bool has_dim;
  int64_t dim;
  if (!ct__red_single_dim(name, o->dims, &has_dim, &dim)) return ct__null_status();
  if (out && out->dtype != CT_BOOL && out->dtype != CT_UINT8) {
    ct__error(CT_ERR_RUNTIME, "%s only supports bool tensor for result, got: %s", name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_dtype in = (ct_dtype)t->dtype;
  ct_dtype od = out ? (ct_dtype)out->dtype : in == CT_UINT8 ? CT_UINT8 : CT_BOOL;
  ct_red_call c = {.in = t, .keepdim = o->keepdim, .n_out = 1, .out = {out}, .out_dtype = {od},
                   /* PyTorch copies a one-element input (allany_impl) and fills only otherwise */
                   .alias_fill = t->numel != 1, .alias_identity = ct_scalar_bool(is_all)};
  if (!ct__red_mask(t, o->dims, &c.mask)) return ct__null_status();
  /* more than one element into a uint8 result: PyTorch casts the input to uint8 first */
  c.kdtype = od == CT_UINT8 && t->numel > 1 && in != CT_BOOL ? CT_UINT8 : in;
  c.k = ct__red_kernel(is_all ? &all_op : &any_op, c.kdtype, t, c.out[0]);
  return ct__red_exec(&c, res);
}

CT_RED_DEFINE_API(all, &all_op, ct_reduce_opts, allany, true, )
CT_RED_DEFINE_API(any, &any_op, ct_reduce_opts, allany, false, )

ct_tensor *ct_count_nonzero(const ct_tensor *t, const ct_reduce_opts *opts) {
  CT__OP_ENTER_PTR(&cnz_op, t, t);
  const ct_reduce_opts *o = opts ? opts : &no_opts;
  if (!ct__red_no_dtype("count_nonzero", o)) return NULL;
  if (o->keepdim) return CT_ERR_NULL(CT_ERR_TYPE, "count_nonzero() got an unexpected keyword argument 'keepdim'");
  ct_red_call c = {.in = t, .kdtype = (ct_dtype)t->dtype, .n_out = 1, .out_dtype = {CT_INT64}};
  if (!ct__red_mask(t, o->dims, &c.mask)) return NULL;
  c.k = ct__red_kernel(&cnz_op, c.kdtype, t);
  return ct__red_exec1(&c);
}
