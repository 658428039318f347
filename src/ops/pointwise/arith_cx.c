/* Complex add/sub (self + alpha * other) and mul, as torch 1.13's AVX2 build computes them.

   Every element is (a + bi)(c + di), plus self for add (a + bi = alpha, c + di = other), in one of a few
   compiled forms: Vectorized<complex<T>>'s operator* (four separately rounded products, hsub'ed) on the
   vectorized part of a row, and in the rest of the row (the tail, or every element of a strided row) the
   code GCC made of c10::complex's operator*: fused (re = fma(a, c, -(b*d)), im = fma(a, d, b*c)) in
   its auto-vectorized blocks, separately rounded in its scalar leftovers and fallbacks. Which form an
   element gets depends on the row's kind (contiguous, a broadcast operand, strided, aliased), its
   length and the element's place; the tables below were measured against torch 1.13 element by element.

   The forms also differ in which NaN comes out when operands are NaN: an x86 instruction returns its
   first NaN operand (quieted), and the compiled forms order their operands differently. When no
   operand is NaN every NaN produced (inf * 0, inf - inf) is the default NaN, so only the rounding
   (fused or not) matters; with a NaN operand, each part walks its operands in the order the compiled
   instructions see them and the first NaN met is the result. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#include "ops/pointwise/arith_cx.h"

#include "ops/pointwise/binary_common.h"

/* ---- forms ---- */

/* Inputs of a part: 0..3 = a, b, c, d; NC is -c (Vectorized's operator* multiplies by (d, -c)). */
enum { IA = 0, IB = 1, IC = 2, ID = 3, NC = 6 };

/* One part (real or imaginary) of a form: its operands in the order their NaNs win. Unfused: two
   products; fused: the two factors of the fused product and the separately rounded product. For add,
   `self_first` says whether self's NaN wins over the product's, and `swap` that the compiled product is
   other * alpha (its operands' order), not alpha * other. */
typedef struct cx_part {
  int8_t op[3][2]; /* op[k][1] < 0: input op[k][0]; else the product of inputs op[k][0] and op[k][1] */
  bool self_first;
  bool swap;
} cx_part;

typedef struct cx_form {
  bool fused;
  cx_part re, im;
} cx_form;

#define IN(i) {i, -1}
#define PR(i, j) {i, j}
/* sf: self's NaN wins over the product's (add); sw: the product is other * alpha (add) */
#define U2(sf, sw, p0, p1, p2, p3) {{PR(p0, p1), PR(p2, p3), IN(0)}, sf, sw}
#define F3(sf, sw, x, y, p0, p1) {{IN(x), IN(y), PR(p0, p1)}, sf, sw}

/* The parts found in torch's code: unfused ones (re: sub, im: add, or Vectorized's sub of (d, -c) products)
   list their products, operands in the order the instruction reads them; fused ones (re = fma(a, c,
   -(b*d)), im = fma(a, d, b*c)) list their operands in NaN order. */
#define SUB11(sf, sw) U2(sf, sw, IC, IA, ID, IB)  /* re = c*a - d*b */
#define SUB00(sf, sw) U2(sf, sw, IA, IC, IB, ID)  /* re = a*c - b*d */
#define SUB01(sf, sw) U2(sf, sw, IA, IC, ID, IB)  /* re = a*c - d*b */
#define VSUB11(sf, sw) U2(sf, sw, ID, IA, NC, IB) /* im = d*a - (-c)*b */
#define VSUB00(sf, sw) U2(sf, sw, IA, ID, IB, NC) /* im = a*d - b*(-c) */
#define ADD010(sf, sw) U2(sf, sw, IA, ID, IC, IB) /* im = a*d + c*b */
#define ADD000(sf, sw) U2(sf, sw, IA, ID, IB, IC) /* im = a*d + b*c */
#define FMS_ACDB(sf, sw) F3(sf, sw, IA, IC, ID, IB) /* re, NaN order a, c, d, b */
#define FMS_ACBD(sf, sw) F3(sf, sw, IA, IC, IB, ID)
#define FMS_CADB(sf, sw) F3(sf, sw, IC, IA, ID, IB)
#define FMS_CABD(sf, sw) F3(sf, sw, IC, IA, IB, ID)
#define FMA_ADCB(sf, sw) F3(sf, sw, IA, ID, IC, IB) /* im, NaN order a, d, c, b */
#define FMA_ADBC(sf, sw) F3(sf, sw, IA, ID, IB, IC)
#define FMA_DACB(sf, sw) F3(sf, sw, ID, IA, IC, IB)
#define FMA_DABC(sf, sw) F3(sf, sw, ID, IA, IB, IC)

/* mul forms by letter: a + bi = self, c + di = other */
static const cx_form mul_forms[128] = {
    ['V'] = {false, SUB11(0, 0), VSUB11(0, 0)},     ['W'] = {false, SUB00(0, 0), VSUB00(0, 0)},
    ['X'] = {false, SUB01(0, 0), ADD010(0, 0)},     ['Y'] = {false, SUB00(0, 0), ADD000(0, 0)},
    ['A'] = {true, FMS_ACDB(0, 0), FMA_ADCB(0, 0)}, ['B'] = {true, FMS_ACBD(0, 0), FMA_ADBC(0, 0)},
    ['G'] = {true, FMS_CADB(0, 0), FMA_DACB(0, 0)}, ['H'] = {true, FMS_CABD(0, 0), FMA_DABC(0, 0)},
};
/* add forms by letter: a + bi = alpha, c + di = other (swapped where sw is set) */
static const cx_form add_forms[128] = {
    ['V'] = {false, SUB11(0, 1), VSUB11(0, 1)},     ['v'] = {false, SUB00(0, 1), VSUB00(0, 1)},
    ['w'] = {false, SUB11(1, 1), VSUB11(1, 1)},     ['U'] = {false, SUB00(1, 0), ADD000(1, 0)},
    ['u'] = {false, SUB01(1, 0), ADD010(1, 0)},     ['T'] = {false, SUB01(0, 0), ADD010(0, 0)},
    ['F'] = {true, FMS_ACBD(0, 0), FMA_ADBC(0, 0)}, ['f'] = {true, FMS_CADB(1, 0), FMA_DACB(0, 0)},
    ['g'] = {true, FMS_CADB(1, 0), FMA_DACB(1, 0)}, ['G'] = {true, FMS_CABD(0, 0), FMA_DACB(1, 0)},
    ['H'] = {true, FMS_ACBD(0, 0), FMA_ADBC(1, 0)}, ['K'] = {true, FMS_CABD(0, 0), FMA_DABC(0, 0)},
    ['J'] = {true, FMS_ACBD(1, 0), FMA_ADBC(1, 0)}, ['M'] = {true, FMS_ACDB(0, 0), FMA_ADCB(0, 0)},
    ['P'] = {true, FMS_CABD(1, 0), FMA_DACB(0, 0)},
};

/* ---- where each form goes ---- */

/* Per kernel: the vectorized part's form and the tail's forms (by tail length) for the three vectorized
   row kinds, then strided rows (blocks of 4, a pair, the last odd element; a row of exactly two
   elements may differ) and the fallback. */
typedef struct cx_kernel {
  int64_t width; /* 2 * Vectorized<complex<T>>::size() */
  char vec[3];
  const char *tail[3][8];
  char blk4, blk2, one;
  const char *two;
  char fallback;
} cx_kernel;

/* mul: self * other */
static const cx_kernel mul64 = {
    .width = 8, .vec = {'V', 'V', 'W'}, .blk4 = 'G', .blk2 = 'G', .one = 'X', .fallback = 'X',
    .tail = {{"", "X", "BB", "BBX", "AAAA", "AAAAX", "AAAABB", "AAAABBX"},
             {"", "X", "XX", "XXY", "XXYX", "XGGGG", "XGGGGY", "XGGGGYX"},
             {"", "Y", "YY", "YYY", "YYYY", "YBBBB", "YBBBBY", "YBBBBYY"}}};
static const cx_kernel mul128 = {.width = 4, .vec = {'V', 'V', 'W'}, .blk4 = 'G', .blk2 = 'G', .one = 'H', .fallback = 'A',
                                 .tail = {{"", "B", "BB", "BBB"}, {"", "G", "GB", "GGG"}, {"", "B", "BB", "BBB"}}};
/* add: self + alpha * other */
static const cx_kernel add64 = {
    .width = 8, .vec = {'V', 'v', 'w'}, .blk4 = 'G', .blk2 = 'H', .one = 'u', .fallback = 'u',
    .tail = {{"", "U", "UU", "UUU", "FFFF", "FFFFU", "FFFFUU", "FFFFUUU"},
             {"", "U", "Uu", "UuU", "UuUT", "Uffff", "UffffU", "UffffUU"},
             {"", "T", "TT", "TTT", "TTTT", "Tgggg", "TggggT", "TggggTT"}}};
static const cx_kernel add128 = {.width = 4, .vec = {'V', 'v', 'w'}, .blk4 = 'P', .blk2 = 'P', .one = 'M', .two = "MM",
                                 .fallback = 'M', .tail = {{"", "F", "FF", "FFF"}, {"", "K", "KF", "Kff"}, {"", "J", "JM", "Jgg"}}};

typedef struct cx_seg {
  char form;
  int64_t n;
} cx_seg;

static int push(cx_seg *sg, int ns, char form, int64_t n) {
  if (n <= 0) return ns;
  if (ns > 0 && sg[ns - 1].form == form) {
    sg[ns - 1].n += n;
    return ns;
  }
  sg[ns] = (cx_seg){form, n};
  return ns + 1;
}

static int push_str(cx_seg *sg, int ns, const char *s) {
  for (; *s; s++) ns = push(sg, ns, *s, 1);
  return ns;
}

/* The forms of a row of n elements, as runs (at most 10). */
static int row_plan(const cx_kernel *k, ct_row_kind kind, int64_t n, cx_seg *sg) {
  int ns = 0;
  switch (kind) {
    case CT_ROW_CONTIG:
    case CT_ROW_SCALAR_B:
    case CT_ROW_SCALAR_A: {
      int64_t t = n % k->width;
      ns = push(sg, ns, k->vec[kind], n - t);
      return push_str(sg, ns, k->tail[kind][t]);
    }
    case CT_ROW_STRIDED:
      if (n == 2 && k->two) return push_str(sg, ns, k->two);
      ns = push(sg, ns, k->blk4, n / 4 * 4);
      ns = push(sg, ns, k->blk2, n % 4 / 2 * 2);
      return push(sg, ns, k->one, n % 2);
    default: return push(sg, ns, k->fallback, n);
  }
}

/* ---- evaluation ----
   v = a, b, c, d; self = the same part of self (add). A part with a NaN operand walks its operands in
   order: the first NaN met is the result (x + x quiets it); a product of two numbers that is NaN
   (inf * 0) is the default NaN and wins in its turn. Without NaN operands the value is computed. */
#define CX_EVAL(SUF, T, FMA)                                                                            \
  static inline T in_##SUF(int code, const T *v) { return code == NC ? -v[IC] : v[code]; }              \
  static inline T value_##SUF(bool fused, bool imag, const T *v) {                                      \
    if (imag) return fused ? FMA(v[IA], v[ID], v[IB] * v[IC]) : v[IA] * v[ID] + v[IB] * v[IC];           \
    T bd = v[IB] * v[ID]; /* vfmsub passes a NaN addend through unnegated */                             \
    return fused ? (bd != bd ? bd : FMA(v[IA], v[IC], -bd)) : v[IA] * v[IC] - bd;                          \
  }                                                                                                      \
  static T part_slow_##SUF(const cx_part *p, bool fused, bool imag, const T *v) {                      \
    for (int k = 0; k < (fused ? 3 : 2); k++) {                                                          \
      T x = in_##SUF(p->op[k][0], v);                                                                    \
      if (isnan(x)) return x + x;                                                                        \
      if (p->op[k][1] >= 0) {                                                                            \
        T y = in_##SUF(p->op[k][1], v);                                                                  \
        if (isnan(y)) return y + y;                                                                      \
        x = x * y;                                                                                       \
        if (isnan(x)) return x;                                                                          \
      }                                                                                                  \
    }                                                                                                    \
    return value_##SUF(fused, imag, v);                                                                  \
  }                                                                                                      \
  /* o = x * y */                                                                                        \
  static void mul_slow_##SUF(const cx_form *f, const T *x, const T *y, T *o) {                           \
    const T v[4] = {x[0], x[1], y[0], y[1]};                                                             \
    T re = part_slow_##SUF(&f->re, f->fused, false, v), im = part_slow_##SUF(&f->im, f->fused, true, v); \
    o[0] = re;                                                                                           \
    o[1] = im;                                                                                           \
  }                                                                                                      \
  static inline void mul_##SUF(const cx_form *f, const T *x, const T *y, T *o) {                         \
    const T v[4] = {x[0], x[1], y[0], y[1]};                                                             \
    if (isnan(v[0]) || isnan(v[1]) || isnan(v[2]) || isnan(v[3])) {                                      \
      mul_slow_##SUF(f, x, y, o);                                                                        \
      return;                                                                                            \
    }                                                                                                    \
    T re = value_##SUF(f->fused, false, v), im = value_##SUF(f->fused, true, v);                         \
    o[0] = re;                                                                                           \
    o[1] = im;                                                                                           \
  }                                                                                                      \
  /* one part of self + alpha * other (al = alpha, y = other, s = that part of self) */                  \
  static T add_part_slow_##SUF(const cx_part *p, bool fused, bool imag, const T *al, const T *y, T s) {  \
    const T v[4] = {p->swap ? y[0] : al[0], p->swap ? y[1] : al[1], p->swap ? al[0] : y[0],              \
                    p->swap ? al[1] : y[1]};                                                             \
    if (p->self_first && isnan(s)) return s + s;                                                         \
    T r = part_slow_##SUF(p, fused, imag, v);                                                            \
    if (isnan(r)) return r;                                                                              \
    if (isnan(s)) return s + s;                                                                          \
    return s + r;                                                                                        \
  }                                                                                                      \
  static void add_slow_##SUF(const cx_form *f, const T *al, const T *x, const T *y, T *o) {              \
    T re = add_part_slow_##SUF(&f->re, f->fused, false, al, y, x[0]);                                    \
    T im = add_part_slow_##SUF(&f->im, f->fused, true, al, y, x[1]);                                     \
    o[0] = re;                                                                                           \
    o[1] = im;                                                                                           \
  }                                                                                                      \
  static inline void add_##SUF(const cx_form *f, const T *al, const T *x, const T *y, T *o) {           \
    const T v[4] = {al[0], al[1], y[0], y[1]};                                                           \
    T s0 = x[0], s1 = x[1];                                                                              \
    if (isnan(v[0]) || isnan(v[1]) || isnan(v[2]) || isnan(v[3]) || isnan(s0) || isnan(s1)) {            \
      add_slow_##SUF(f, al, x, y, o);                                                                    \
      return;                                                                                            \
    }                                                                                                    \
    T re = s0 + value_##SUF(f->fused, false, v), im = s1 + value_##SUF(f->fused, true, v);               \
    o[0] = re;                                                                                           \
    o[1] = im;                                                                                           \
  }
CX_EVAL(f, float, fmaf)
CX_EVAL(d, double, fma)

/* ---- loops ---- */
#define CX_LOOPS(SUF, T)                                                                                \
  static void mul_row_##SUF(const cx_kernel *k, char **d, const int64_t *s, int64_t n) {                \
    cx_seg sg[12];                                                                                      \
    int ns = row_plan(k, ct__row_kind2(d, s, 2 * (int64_t)sizeof(T)), n, sg);                        \
    int64_t i = 0;                                                                                      \
    for (int g = 0; g < ns; g++) {                                                                      \
      const cx_form *f = &mul_forms[(unsigned char)sg[g].form];                                         \
      for (int64_t e = i + sg[g].n; i < e; i++)                                                         \
        mul_##SUF(f, (const T *)(d[1] + i * s[1]), (const T *)(d[2] + i * s[2]), (T *)(d[0] + i * s[0])); \
    }                                                                                                   \
  }                                                                                                     \
  static void add_row_##SUF(const cx_kernel *k, char **d, const int64_t *s, int64_t n, const T *al) {   \
    cx_seg sg[12];                                                                                      \
    int ns = row_plan(k, ct__row_kind2(d, s, 2 * (int64_t)sizeof(T)), n, sg);                        \
    int64_t i = 0;                                                                                      \
    for (int g = 0; g < ns; g++) {                                                                      \
      const cx_form *f = &add_forms[(unsigned char)sg[g].form];                                         \
      for (int64_t e = i + sg[g].n; i < e; i++)                                                         \
        add_##SUF(f, al, (const T *)(d[1] + i * s[1]), (const T *)(d[2] + i * s[2]), (T *)(d[0] + i * s[0])); \
    }                                                                                                   \
  }

CX_LOOPS(f, float)
CX_LOOPS(d, double)

void ct__cmul_c64(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (void)ctx;
  mul_row_f(&mul64, d, s, n);
}
void ct__cmul_c128(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (void)ctx;
  mul_row_d(&mul128, d, s, n);
}
void ct__cadd_c64(char **d, const int64_t *s, int64_t n, const void *ctx) {
  add_row_f(&add64, d, s, n, (const float *)ctx);
}
void ct__cadd_c128(char **d, const int64_t *s, int64_t n, const void *ctx) {
  add_row_d(&add128, d, s, n, (const double *)ctx);
}

/* The forms of a strided row depend on its length (a complex128 add row of two elements has its own), so
   the engine must not cut rows into tiles for these loops. */
CT_LOOP_WHOLE_ROWS(ct__cmul_c64)
CT_LOOP_WHOLE_ROWS(ct__cmul_c128)
CT_LOOP_WHOLE_ROWS(ct__cadd_c64)
CT_LOOP_WHOLE_ROWS(ct__cadd_c128)
