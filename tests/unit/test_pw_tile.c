/* The engine's cache-blocked path (iter_tile.c: an input that walks the inner dim with a large stride, as
   B.t() in A + B.t(), read tile by tile, through a transposed buffer for declared loops) and its streaming
   stores (outputs beyond the last-level cache). Both must give exactly the bits of the plain row-by-row
   path: every tiled result is compared with the same call with tiling off, at 1 and 2 threads (and the
   two thread counts with each other), and, for ops whose loops have one formula, with the op run row by
   row on 1-D slices; streamed results with the same call with streaming off. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "iter/iter.h"

/* ---- inputs: deterministic values with NaN, infinities and signed zeros among them ---- */
static uint64_t lcg_state = 0x9E3779B97F4A7C15u;
static bool with_specials = true; /* floating values include NaN, infinities and zeros */
static double next_value(bool specials) {
  lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
  uint64_t r = lcg_state >> 33;
  if (specials) {
    switch (r % 29) {
      case 0: return NAN;
      case 1: return INFINITY;
      case 2: return -INFINITY;
      case 3: return -0.0;
      case 4: return 0.0;
      default: break;
    }
  }
  return ((double)(r % 20001) - 10000.0) / 97.0;
}

/* A contiguous tensor of dtype dt and this shape, filled with next_value (integers: small values). Like
   every tensor made here, it belongs to the innermost scope. */
static ct_tensor *make(ct_dtype dt, int64_t nd, const int64_t *shape) {
  int64_t n = 1;
  for (int64_t i = 0; i < nd; i++) n *= shape[i];
  bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  bool integral = dt <= CT_INT64; /* bool and the integer dtypes come first in ct_dtype */
  double *v = malloc((size_t)(cplx ? 2 * n : n) * sizeof(double) + 8);
  for (int64_t i = 0; i < (cplx ? 2 * n : n); i++) {
    double x = next_value(!integral && with_specials);
    v[i] = integral ? floor(x / 4) : x;
  }
  ct_tensor *f = ct_tensor_from_data(v, cplx ? CT_COMPLEX128 : CT_FLOAT64, (ct_shape){shape, nd}, NULL);
  free(v);
  return ct_to_dtype(f, dt);
}

/* Same dtype, shape and bits. */
static bool same_bits(const ct_tensor *a, const ct_tensor *b) {
  if (!a || !b || ct_dtype_of(a) != ct_dtype_of(b) || ct_dim(a) != ct_dim(b)) return false;
  for (int64_t i = 0; i < ct_dim(a); i++)
    if (ct_sizes(a)[i] != ct_sizes(b)[i]) return false;
  size_t bytes = (size_t)ct_numel(a) * ct_element_size(a);
  char *x = malloc(bytes + 1), *y = malloc(bytes + 1);
  bool same = ct_copy_to_buffer(a, x, ct_dtype_of(a), bytes) == CT_OK &&
              ct_copy_to_buffer(b, y, ct_dtype_of(b), bytes) == CT_OK && memcmp(x, y, bytes) == 0;
  free(x);
  free(y);
  return same;
}

/* ---- ops, taking their inputs as an array ---- */
typedef ct_tensor *(*op_fn)(const ct_tensor *const *in);
static ct_tensor *op_add(const ct_tensor *const *in) { return ct_add(in[0], in[1], NULL); }
static ct_tensor *op_add_alpha(const ct_tensor *const *in) {
  ct_alpha_opts o = {ct_dtype_of(in[0]) <= CT_INT64 ? ct_scalar_int(3) : ct_scalar_double(2.5)};
  return ct_add(in[0], in[1], &o);
}
static ct_tensor *op_sub(const ct_tensor *const *in) { return ct_sub(in[0], in[1], NULL); }
static ct_tensor *op_mul(const ct_tensor *const *in) { return ct_mul(in[0], in[1]); }
static ct_tensor *op_div(const ct_tensor *const *in) { return ct_div(in[0], in[1], NULL); }
static ct_tensor *op_maximum(const ct_tensor *const *in) { return ct_maximum(in[0], in[1]); }
static ct_tensor *op_atan2(const ct_tensor *const *in) { return ct_atan2(in[0], in[1]); }
static ct_tensor *op_eq(const ct_tensor *const *in) { return ct_eq(in[0], in[1]); }
static ct_tensor *op_lt(const ct_tensor *const *in) { return ct_lt(in[0], in[1]); }
static ct_tensor *op_where(const ct_tensor *const *in) { return ct_where(in[2], in[0], in[1]); }
static ct_tensor *op_lerp(const ct_tensor *const *in) { return ct_lerp(in[0], in[1], in[2]); }

typedef struct op_case {
  const char *name;
  op_fn fn;
  int n_in; /* 3: in[2] is a bool condition (where) or a third operand of the dtype (lerp) */
  bool bool_ok, int_ok, complex_ok;
  bool third_bool;
  bool one_formula; /* the same bits on any row split (row-by-row reference valid) */
} op_case;

static const op_case OPS[] = {
    /* add/sub/mul compute bfloat16, complex (and which NaN wins in float16 / float / double) by torch's
       forms for the row's kind and an element's place in it */
    {"add", op_add, 2, true, true, true, false, false},
    {"add alpha", op_add_alpha, 2, false, true, true, false, false},
    {"sub", op_sub, 2, false, true, true, false, false},
    {"mul", op_mul, 2, true, true, true, false, false},
    {"div", op_div, 2, true, true, true, false, false},
    {"maximum", op_maximum, 2, true, true, false, false, false},
    {"atan2", op_atan2, 2, false, false, false, false, false},
    {"eq", op_eq, 2, true, true, true, false, true},
    {"lt", op_lt, 2, true, true, false, false, true},
    {"where", op_where, 3, true, true, true, true, true},
    {"lerp", op_lerp, 3, false, false, true, false, false},
};

static const ct_dtype DTYPES[] = {CT_BOOL,    CT_UINT8,    CT_INT8,    CT_INT16,     CT_INT32,     CT_INT64,
                                  CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};

static bool op_takes(const op_case *op, ct_dtype dt) {
  if (dt == CT_BOOL) return op->bool_ok;
  if (dt <= CT_INT64) return op->int_ok;
  if (dt == CT_COMPLEX64 || dt == CT_COMPLEX128) return op->complex_ok;
  return true;
}

/* in[k] broadcast to shape (a view). */
static ct_tensor *expanded(const ct_tensor *t, int64_t nd, const int64_t *shape) {
  return ct_expand(t, (ct_shape){shape, nd});
}

/* The row at flat row index r of t (rank >= 2): a 1-D view along the last dim. */
static ct_tensor *row_of(const ct_tensor *t, int64_t r) {
  ct_tensor *v = (ct_tensor *)t;
  for (int64_t d = ct_dim(t) - 2; d >= 0; d--) {
    int64_t n = ct_sizes(t)[d];
    v = ct_select(v, d, r % n);
    r /= n;
  }
  return v;
}

/* r must equal op run on each row of the inputs (broadcast to r's shape). */
static bool matches_rows(const ct_tensor *r, op_fn fn, const ct_tensor *const *in, int n_in) {
  int64_t nd = ct_dim(r);
  const int64_t *shape = ct_sizes(r);
  int64_t rows = ct_numel(r) / shape[nd - 1];
  const ct_tensor *ex[3];
  for (int k = 0; k < n_in; k++) ex[k] = expanded(in[k], nd, shape);
  bool ok = true;
  for (int64_t i = 0; i < rows && ok; i++) {
    ct_scope_begin();
    const ct_tensor *rin[3];
    for (int k = 0; k < n_in; k++) rin[k] = row_of(ex[k], i);
    ok = same_bits(row_of(r, i), fn(rin));
    ct_scope_end();
  }
  return ok;
}

/* op over the inputs at 1 and 2 threads, tiled: the bits of the untiled call at the same thread count, the
   same at both counts (a tiled row is one torch runs through its scalar loop, whatever the split), and
   for ops of one formula those of the row-by-row results. */
static void check_op(const char *what, const op_case *op, ct_dtype dt, const ct_tensor *const *in) {
  ct_tensor *r[2], *plain[2];
  for (int t = 0; t < 2; t++) {
    ct_set_num_threads(t + 1);
    r[t] = op->fn(in);
    ct__iter_set_tiling(false);
    plain[t] = op->fn(in);
    ct__iter_set_tiling(true);
  }
  ct_set_num_threads(0);
  bool ok;
  if (!r[0]) { /* no kernel for the dtype (atan2 on float16, say): the same failure every time */
    ok = !r[1] && !plain[0] && !plain[1];
    ct_clear_error();
  } else {
    ok = same_bits(r[0], plain[0]) && same_bits(r[1], plain[1]) && same_bits(r[0], r[1]);
    if (ok && op->one_formula) ok = matches_rows(r[0], op->fn, in, op->n_in);
  }
  if (!ok) fprintf(stderr, "  %s: %s %s\n", what, op->name, ct__dt(dt)->name);
  CHECK(ok);
}

/* The inputs of an op case: a (contiguous), b (the strided view), the third one contiguous. */
static void run_ops(const char *what, const ct_tensor *a, const ct_tensor *b, int64_t nd, const int64_t *shape,
                    ct_dtype dt) {
  for (size_t o = 0; o < sizeof OPS / sizeof OPS[0]; o++) {
    const op_case *op = &OPS[o];
    if (!op_takes(op, dt)) continue;
    ct_scope_begin();
    const ct_tensor *in[3] = {a, b, NULL};
    if (op->n_in == 3) in[2] = make(op->third_bool ? CT_BOOL : dt, nd, shape);
    check_op(what, op, dt, in);
    ct_scope_end();
  }
}

/* A + B.t() over every dtype and op, in shapes whose tiles end ragged. */
static void test_transposed_2d(void) {
  static const int64_t shapes[][2] = {{37, 53}, {130, 67}, {5, 300}, {300, 3}, {2, 2}, {257, 301}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int64_t R = shapes[s][0], C = shapes[s][1];
    /* the large shape only for a few dtypes (it is there for the thread split in the middle of a row) */
    for (size_t d = 0; d < sizeof DTYPES / sizeof DTYPES[0]; d++) {
      ct_dtype dt = DTYPES[d];
      if (R * C > 50000 && dt != CT_FLOAT32 && dt != CT_INT8 && dt != CT_COMPLEX128 && dt != CT_BFLOAT16) continue;
      ct_scope_begin();
      int64_t ab[2] = {R, C}, ba[2] = {C, R};
      ct_tensor *a = make(dt, 2, ab);
      ct_tensor *bt = ct_transpose(make(dt, 2, ba), 0, 1);
      run_ops("2-D A + B.t()", a, bt, 2, ab, dt);
      ct_scope_end();
    }
  }
}

/* 3-D: the strided input from transpose / permute, and inputs broadcast against it. */
static void test_3d_and_broadcast(void) {
  static const ct_dtype dts[] = {CT_FLOAT32, CT_FLOAT64, CT_INT16, CT_FLOAT16, CT_COMPLEX64, CT_BOOL};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    ct_dtype dt = dts[d];
    ct_scope_begin();
    int64_t s3[3] = {3, 40, 50};
    ct_tensor *a = make(dt, 3, s3);
    /* (3, 50, 40).transpose(1, 2): inner stride 40 elements, next dim contiguous */
    ct_tensor *b1 = ct_transpose(make(dt, 3, (int64_t[]){3, 50, 40}), 1, 2);
    run_ops("3-D transpose(1, 2)", a, b1, 3, s3, dt);
    /* (50, 3, 40).permute(1, 2, 0): strides (40, 1, 120) */
    ct_tensor *b2 = ct_permute(make(dt, 3, (int64_t[]){50, 3, 40}), CT_DIMS(1, 2, 0));
    run_ops("3-D permute(1, 2, 0)", a, b2, 3, s3, dt);
    /* a broadcast along the leading dim against a 2-D transposed input */
    ct_tensor *bt = ct_transpose(make(dt, 2, (int64_t[]){50, 40}), 0, 1);
    run_ops("broadcast (3, 40, 50) + (40, 50).t()-like", a, bt, 3, s3, dt);
    /* a column broadcast along the inner dim, with a strided input */
    ct_tensor *col = make(dt, 2, (int64_t[]){40, 1});
    run_ops("broadcast column + B.t()", col, bt, 2, (int64_t[]){40, 50}, dt);
    /* the strided input broadcast along the leading dim of the result */
    ct_tensor *bt3 = ct_transpose(make(dt, 3, (int64_t[]){1, 50, 40}), 1, 2);
    run_ops("broadcast (3, 40, 50) + (1, 40, 50) transposed", a, bt3, 3, s3, dt);
    ct_scope_end();
  }
}

typedef ct_status (*out_fn)(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
static ct_status out_add(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_add_out(o, a, b, NULL); }
static ct_status out_add_alpha(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) {
  ct_alpha_opts opts = {ct_dtype_of(a) <= CT_INT64 ? ct_scalar_int(-2) : ct_scalar_double(0.75)};
  return ct_add_out(o, a, b, &opts);
}
static ct_status out_mul(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_mul_out(o, a, b); }
static ct_status out_div(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_div_out(o, a, b, NULL); }
static ct_status out_eq(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_eq_out(o, a, b); }
static ct_status out_neg(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) {
  (void)b;
  return ct_neg_out(o, a);
}
static ct_status out_lerp(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_lerp_out(o, a, b, a); }
static ct_status out_exp(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) {
  (void)b;
  return ct_exp_out(o, a);
}
static ct_status out_sub(ct_tensor *o, const ct_tensor *a, const ct_tensor *b) { return ct_sub_out(o, a, b, NULL); }

/* fn(out, a, b) with tiling on and off, into two copies of out (a view of a fresh tensor laid out as out):
   the same status and bits. in_place: a is out (its copy). */
static bool same_tiled(out_fn fn, const ct_tensor *out, const ct_tensor *a, const ct_tensor *b, bool in_place) {
  ct_tensor *o[2];
  ct_status st[2];
  for (int t = 0; t < 2; t++) {
    /* a copy of out with out's strides: clone with the same layout */
    o[t] = ct_clone(out, CT_PRESERVE_FORMAT);
    if (!o[t] || memcmp(ct_strides(o[t]), ct_strides(out), (size_t)ct_dim(out) * sizeof(int64_t)) != 0) return false;
    ct__iter_set_tiling(t == 0);
    st[t] = fn(o[t], in_place ? o[t] : a, b);
    ct__iter_set_tiling(true);
  }
  ct_clear_error();
  return st[0] == st[1] && (st[0] != CT_OK || same_bits(o[0], o[1]));
}

/* out= (contiguous out, transposed input; transposed out, contiguous inputs) and in place. */
static void test_out_and_inplace(void) {
  static const ct_dtype dts[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_UINT8, CT_BFLOAT16, CT_COMPLEX128};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    ct_dtype dt = dts[d];
    for (int threads = 1; threads <= 2; threads++) {
      ct_scope_begin();
      ct_set_num_threads(threads);
      int64_t R = 190, C = 210; /* > 32768 elements: split over 2 threads in the middle of a row */
      ct_tensor *a = make(dt, 2, (int64_t[]){R, C});
      ct_tensor *b = make(dt, 2, (int64_t[]){R, C});
      ct_tensor *bt = ct_transpose(make(dt, 2, (int64_t[]){C, R}), 0, 1);
      ct_tensor *out = make(dt, 2, (int64_t[]){R, C});
      ct_tensor *out_t = ct_transpose(make(dt, 2, (int64_t[]){C, R}), 0, 1);
      /* contiguous out, transposed input */
      CHECK(same_tiled(out_add, out, a, bt, false));
      CHECK(same_tiled(out_mul, out, bt, a, false));
      CHECK(same_tiled(out_div, out, a, bt, false));
      CHECK(same_tiled(out_neg, out, bt, NULL, false));
      CHECK(same_tiled(out_exp, out, bt, NULL, false));
      /* transposed out, contiguous inputs: those are the strided ones in the loop */
      CHECK(same_tiled(out_mul, out_t, a, b, false));
      CHECK(same_tiled(out_add_alpha, out_t, a, b, false));
      /* in place: a += b.t(), a *= b.t(), a transposed self -= b */
      CHECK(same_tiled(out_add, out, NULL, bt, true));
      CHECK(same_tiled(out_mul, out, NULL, bt, true));
      CHECK(same_tiled(out_sub, out_t, NULL, b, true));
      /* and, where add and mul have one formula (one NaN in the data), the contiguous results */
      if (dt != CT_COMPLEX128 && dt != CT_BFLOAT16) {
        ct_tensor *o = ct_empty(CT_SHAPE(R, C), &(ct_tensor_opts){.dtype = dt});
        CHECK(ct_add_out(o, a, bt, NULL) == CT_OK);
        CHECK(same_bits(o, ct_add(a, ct_contiguous(bt, CT_CONTIGUOUS_FORMAT), NULL)));
        const ct_tensor *in2[2] = {a, bt};
        CHECK(matches_rows(o, op_add, in2, 2));
        ct_tensor *ot = ct_transpose(ct_empty(CT_SHAPE(C, R), &(ct_tensor_opts){.dtype = dt}), 0, 1);
        CHECK(ct_mul_out(ot, a, b) == CT_OK);
        CHECK(same_bits(ot, ct_mul(a, b)));
        ct_tensor *self = ct_clone(a, CT_PRESERVE_FORMAT);
        CHECK(ct_add_(self, bt, NULL) == CT_OK);
        CHECK(same_bits(self, ct_add(a, bt, NULL)));
      }
      ct_set_num_threads(0);
      ct_scope_end();
    }
  }
}

/* An output that overlaps a strided input (not the same elements) is never tiled: a[:, 1:] += a.t()[...]
   style aliasing must read each element before it is written, row by row, as torch does. */
static void test_overlap_not_tiled(void) {
  ct_scope_begin();
  int64_t n = 64;
  ct_tensor *base = make(CT_FLOAT32, 2, (int64_t[]){n, n});
  ct_tensor *copy = ct_clone(base, CT_CONTIGUOUS_FORMAT);
  /* out = base[0:32, :], input = base.t()[32:64, :] (columns 32.. of base): they share memory partly */
  ct_tensor *out = ct_narrow(base, 0, 0, 32);
  ct_tensor *in = ct_narrow(ct_transpose(base, 0, 1), 0, 32, 32);
  ct_status s = ct_add_out(out, out, in, NULL);
  if (s == CT_OK) {
    /* the reference: row by row, in order, on the copy */
    bool ok = true;
    for (int64_t i = 0; i < 32; i++) {
      ct_tensor *orow = ct_select(ct_narrow(copy, 0, 0, 32), 0, i);
      ct_tensor *irow = ct_select(ct_narrow(ct_transpose(copy, 0, 1), 0, 32, 32), 0, i);
      ok &= ct_add_out(orow, orow, irow, NULL) == CT_OK;
    }
    CHECK(ok);
    CHECK(same_bits(base, copy));
  } else {
    ct_clear_error(); /* PyTorch may refuse the partial overlap: then nothing to compare */
  }
  ct_scope_end();
}

/* Streaming stores: with the threshold lowered to nothing, every op whose output qualifies streams; the
   bits must be those of the same call without streaming. Rows start at every alignment (narrowed views). */
/* A float input without specials but for one NaN (and one infinity) far into it, so that the streamed
   blocks before it and the loop's own rows after it meet in the middle of a row. */
static ct_tensor *sparse_nan(ct_dtype dt, int64_t n, int64_t at) {
  with_specials = false;
  ct_tensor *t = make(dt, 1, (int64_t[]){n});
  with_specials = true;
  if (dt >= CT_FLOAT16 && dt <= CT_FLOAT64) {
    ct_tensor *nan = ct_full(CT_SHAPE(1), ct_scalar_double(NAN), &(ct_tensor_opts){.dtype = dt});
    ct_tensor *inf = ct_full(CT_SHAPE(1), ct_scalar_double(-INFINITY), &(ct_tensor_opts){.dtype = dt});
    CHECK(ct_copy_(ct_narrow(t, 0, at, 1), nan) == CT_OK);
    CHECK(ct_copy_(ct_narrow(t, 0, at / 2, 1), inf) == CT_OK);
  }
  return t;
}

static void test_streaming(void) {
  static const struct {
    const char *name;
    out_fn fn;
    bool ints, bools, cplx, out_bool, floats_only;
  } ops[] = {{"add", out_add, true, true, true, false, false},     {"add alpha", out_add_alpha, true, false, true, false, false},
             {"mul", out_mul, true, true, true, false, false},     {"div", out_div, false, false, true, false, true},
             {"eq", out_eq, true, true, true, true, false},        {"neg", out_neg, true, false, true, false, false},
             {"lerp", out_lerp, false, false, true, false, true}};
  for (size_t d = 0; d < sizeof DTYPES / sizeof DTYPES[0]; d++) {
    ct_dtype dt = DTYPES[d];
    bool is_int = dt <= CT_INT64 && dt != CT_BOOL, cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
      if ((is_int && !ops[o].ints) || (dt == CT_BOOL && !ops[o].bools) || (cplx && !ops[o].cplx)) continue;
      if (ops[o].floats_only && dt <= CT_INT64) continue;
      ct_dtype odt = ops[o].out_bool ? CT_BOOL : dt;
      int64_t line = 64 / (int64_t)ct__itemsize(odt), quarter = line / 4 ? line / 4 : 1;
      /* output offsets: a line, a quarter line (16 bytes), one element; inputs at other offsets */
      const int64_t offs[][2] = {{0, 0}, {0, 1}, {quarter, 2}, {1, 0}, {line, 3}};
      for (size_t c = 0; c < sizeof offs / sizeof offs[0]; c++) {
        for (int threads = 1; threads <= 2; threads++) {
          ct_scope_begin();
          ct_set_num_threads(threads);
          /* > 32768: two threads; odd, so the second part starts in the middle of a line */
          int64_t n = c % 2 ? 70001 : 65536 + 2 * line, oo = offs[c][0], io = offs[c][1];
          ct_tensor *a = ct_narrow(make(dt, 1, (int64_t[]){n + 3}), 0, io, n);
          ct_tensor *b = ct_narrow(make(dt, 1, (int64_t[]){n + 3}), 0, 3 - io, n);
          ct_tensor *scalar = make(dt, 0, NULL);
          ct_tensor *o1 = ct_narrow(ct_empty(CT_SHAPE(n + line), &(ct_tensor_opts){.dtype = odt}), 0, oo, n);
          ct_tensor *o2 = ct_narrow(ct_empty(CT_SHAPE(n + line), &(ct_tensor_opts){.dtype = odt}), 0, oo, n);
          ct_tensor *o3 = ct_narrow(ct_empty(CT_SHAPE(n + line), &(ct_tensor_opts){.dtype = odt}), 0, oo, n);
          ct_tensor *o4 = ct_narrow(ct_empty(CT_SHAPE(n + line), &(ct_tensor_opts){.dtype = odt}), 0, oo, n);
          ct__iter_set_stream_threshold(1);
          ct_status s1 = ops[o].fn(o1, a, b), s3 = ops[o].fn(o3, scalar, b);
          ct__iter_set_stream_threshold(0);
          ct_status s2 = ops[o].fn(o2, a, b), s4 = ops[o].fn(o4, scalar, b);
          bool ok = s1 == s2 && s3 == s4;
          if (s1 == CT_OK) ok &= same_bits(o1, o2);
          if (s3 == CT_OK) ok &= same_bits(o3, o4);
          ct_clear_error(); /* an op without a kernel for the dtype fails the same way both times */
          if (!ok) fprintf(stderr, "  streaming: %s %s offsets %lld %lld threads %d\n", ops[o].name,
                           ct__dt(dt)->name, (long long)oo, (long long)io, threads);
          CHECK(ok);
          ct_set_num_threads(0);
          ct_scope_end();
        }
      }
    }
  }
  /* real dtypes with few specials: most blocks streamed, the rest of a row from a NaN on by the loop */
  static const ct_dtype reals[] = {CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64, CT_INT16};
  for (size_t d = 0; d < sizeof reals / sizeof reals[0]; d++) {
    for (int threads = 1; threads <= 2; threads++) {
      for (int64_t at = 100; at < 90000; at += 44444) {
        ct_scope_begin();
        ct_set_num_threads(threads);
        ct_dtype dt = reals[d];
        int64_t n = 90001;
        ct_tensor *a = sparse_nan(dt, n, at), *b = sparse_nan(dt, n, n - 1 - at);
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
          if (ops[o].floats_only && dt == CT_INT16) continue;
          ct_dtype odt = ops[o].out_bool ? CT_BOOL : dt;
          ct_tensor *o1 = ct_empty(CT_SHAPE(n), &(ct_tensor_opts){.dtype = odt});
          ct_tensor *o2 = ct_empty(CT_SHAPE(n), &(ct_tensor_opts){.dtype = odt});
          ct__iter_set_stream_threshold(1);
          ct_status s1 = ops[o].fn(o1, a, b);
          ct__iter_set_stream_threshold(0);
          ct_status s2 = ops[o].fn(o2, a, b);
          bool ok = s1 == s2 && (s1 != CT_OK || same_bits(o1, o2));
          ct_clear_error();
          if (!ok) fprintf(stderr, "  streaming, sparse NaN: %s %s at %lld\n", ops[o].name, ct__dt(dt)->name, (long long)at);
          CHECK(ok);
        }
        ct_set_num_threads(0);
        ct_scope_end();
      }
    }
  }
  /* a new output and an in-place one (never streamed: its lines are read anyway) */
  ct_scope_begin();
  ct_tensor *a = make(CT_FLOAT32, 1, (int64_t[]){100000}), *b = make(CT_FLOAT32, 1, (int64_t[]){100000});
  ct_tensor *ref = ct_add(a, b, NULL);
  ct_tensor *self = ct_clone(a, CT_PRESERVE_FORMAT);
  ct__iter_set_stream_threshold(1);
  CHECK(same_bits(ct_add(a, b, NULL), ref));
  CHECK(ct_add_(self, b, NULL) == CT_OK);
  ct__iter_set_stream_threshold(0);
  CHECK(same_bits(self, ref));
  ct_scope_end();
}

int main(void) {
  test_transposed_2d();
  test_3d_and_broadcast();
  test_out_and_inplace();
  test_overlap_not_tiled();
  test_streaming();
  return TEST_SUMMARY();
}
