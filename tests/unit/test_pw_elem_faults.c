/* Out of memory at every allocation point of the unary elementary ops' composite routes (temporaries,
   relayouts, meta layout chains, casts): every failure reports CT_ERR_OUT_OF_MEMORY, returns NULL or an
   error status and leaves inputs and out= / in-place targets unchanged; the sanitizer build proves
   nothing leaks on any path. */
#include <math.h>

#include "check.h"
#include "core/internal.h"

typedef struct snapshot {
  int64_t ndim, offset, sizes[8], strides[8];
  ct_dtype dtype;
  size_t nbytes;
  unsigned char bytes[512];
} snapshot;

static snapshot take(const ct_tensor *t) {
  snapshot s = {.ndim = ct_dim(t), .offset = ct_storage_offset(t), .dtype = ct_dtype_of(t)};
  for (int64_t i = 0; i < s.ndim && i < 8; i++) s.sizes[i] = ct_sizes(t)[i], s.strides[i] = ct_strides(t)[i];
  s.nbytes = t->storage->nbytes < sizeof s.bytes ? t->storage->nbytes : sizeof s.bytes;
  if (t->storage->data) memcpy(s.bytes, t->storage->data, s.nbytes);
  return s;
}

static bool same(const snapshot *a, const ct_tensor *t) {
  snapshot b = take(t);
  return a->ndim == b.ndim && a->offset == b.offset && a->dtype == b.dtype && a->nbytes == b.nbytes &&
         memcmp(a->sizes, b.sizes, sizeof a->sizes) == 0 && memcmp(a->strides, b.strides, sizeof a->strides) == 0 &&
         memcmp(a->bytes, b.bytes, a->nbytes) == 0;
}

/* x: float32 (3, 4) with nan/inf; c: complex64 (3, 4); i: int32 (3, 4); b: bool (4); o: float64 (0,) out */
static ct_tensor *x, *c, *i32, *b, *o;

typedef struct call {
  const char *name;
  ct_tensor *(*run)(ct_status *st);
} call;

#define T_CALL(name, expr) \
  static ct_tensor *name(ct_status *st) { *st = CT_OK; return (expr); }
#define S_CALL(name, expr) \
  static ct_tensor *name(ct_status *st) { *st = (expr); return NULL; }

T_CALL(c_abs_c, ct_abs(ct_t(c)))
S_CALL(c_abs_out_c, ct_abs_out(o, ct_t(c)))
T_CALL(c_angle_c, ct_angle(ct_t(c)))
S_CALL(c_angle_out_c, ct_angle_out(o, c))
T_CALL(c_angle_i, ct_angle(i32))
T_CALL(c_conj, ct_conj(ct_t(c)))
T_CALL(c_real, ct_real(c))
T_CALL(c_imag, ct_imag(c))
T_CALL(c_isinf_c, ct_isinf(c))
T_CALL(c_isfinite, ct_isfinite(ct_t(x)))
T_CALL(c_isreal_c, ct_isreal(c))
T_CALL(c_isreal_i, ct_isreal(i32))
T_CALL(c_isnan, ct_isnan(x))
T_CALL(c_square_b, ct_square(b))
S_CALL(c_square_b_, ct_square_(b))
T_CALL(c_deg2rad_i, ct_deg2rad(ct_t(i32)))
S_CALL(c_rad2deg_out, ct_rad2deg_out(o, i32))
T_CALL(c_nan_to_num, ct_nan_to_num(ct_t(x), NULL))
S_CALL(c_nan_to_num_out_i, ct_nan_to_num_out(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT32}), i32, NULL))
T_CALL(c_round_dec, ct_round(x, &(ct_round_opts){2}))
S_CALL(c_reciprocal_out, ct_reciprocal_out(o, ct_t(i32)))
S_CALL(c_logical_not_out, ct_logical_not_out(o, x))
S_CALL(c_sgn_, ct_sgn_(c))
S_CALL(c_abs_, ct_abs_(x))
T_CALL(c_signbit, ct_signbit(x))
S_CALL(c_isposinf_out, ct_isposinf_out(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_BOOL}), i32))

static const call calls[] = {
    {"abs complex", c_abs_c},       {"abs_out complex", c_abs_out_c},   {"angle complex", c_angle_c},
    {"angle_out complex", c_angle_out_c}, {"angle int", c_angle_i},     {"conj", c_conj},
    {"real", c_real},               {"imag", c_imag},                   {"isinf complex", c_isinf_c},
    {"isfinite", c_isfinite},       {"isreal complex", c_isreal_c},     {"isreal int", c_isreal_i},
    {"isnan", c_isnan},             {"square bool", c_square_b},        {"square_ bool (error)", c_square_b_},
    {"deg2rad int", c_deg2rad_i},   {"rad2deg_out", c_rad2deg_out},     {"nan_to_num", c_nan_to_num},
    {"nan_to_num_out int", c_nan_to_num_out_i}, {"round decimals", c_round_dec}, {"reciprocal_out", c_reciprocal_out},
    {"logical_not_out", c_logical_not_out}, {"sgn_", c_sgn_},           {"abs_", c_abs_},
    {"signbit", c_signbit},         {"isposinf_out int", c_isposinf_out},
};

static void make_inputs(void) {
  float v[24];
  for (int k = 0; k < 24; k++) v[k] = (float)k - 7.5f;
  v[3] = NAN;
  v[8] = -INFINITY;
  x = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(3, 4), NULL);
  c = ct_tensor_from_data(v, CT_COMPLEX64, CT_SHAPE(3, 4), NULL);
  i32 = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(3, 4), &(ct_tensor_opts){.dtype = CT_INT32});
  b = ct_tensor_from_data((const bool[]){true, false, true, true}, CT_BOOL, CT_SHAPE(4), NULL);
  o = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
}

int main(void) {
  ct_scope_begin();
  make_inputs();
  for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
    bool done = false;
    for (int64_t n = 0; n < 300 && !done; n++) {
      snapshot sx = take(x), sc = take(c), si = take(i32), sb = take(b), so = take(o);
      ct_scope_begin();
      ct_debug_fail_allocation_at(n);
      ct_status st;
      ct_tensor *r = calls[k].run(&st);
      ct_debug_fail_allocation_at(-1);
      ct_error_kind e = ct_last_error();
      bool ok = r != NULL || (st == CT_OK && e == CT_OK) || (e != CT_OK && e != CT_ERR_OUT_OF_MEMORY);
      ct_scope_end();
      if (ok) {
        done = true;
        break;
      }
      if (e != CT_ERR_OUT_OF_MEMORY)
        fprintf(stderr, "%s, failing allocation %lld: %s\n", calls[k].name, (long long)n, ct_last_error_message());
      CHECK_EQ_INT(e, CT_ERR_OUT_OF_MEMORY);
      ct_clear_error();
      bool kept = same(&sx, x) && same(&sc, c) && same(&si, i32) && same(&sb, b) && same(&so, o);
      if (!kept) fprintf(stderr, "%s, failing allocation %lld changed an input\n", calls[k].name, (long long)n);
      CHECK(kept);
    }
    CHECK(done);
    ct_clear_error();
    make_inputs();
  }
  ct_scope_end();
  return TEST_SUMMARY();
}
