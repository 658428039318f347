/* Complex add/sub (self + alpha * other) and mul, as torch 1.13's AVX2 build computes them.

   Every element is (a + bi)(c + di), plus self for add (a + bi = alpha, c + di = other), in one of a few
   compiled forms: Vectorized<complex<T>>'s operator* (four separately rounded products, hsub'ed) on the
   vectorized part of a row, and in the rest of the row (the tail, or every element of a strided row) the
   code GCC made of c10::complex's operator*: fused (re = fma(a, c, -(b*d)), im = fma(a, d, b*c)) in
   its auto-vectorized blocks, separately rounded in its scalar leftovers and fallbacks. Which form an
   element gets depends on the row's kind (contiguous, a broadcast operand, strided, aliased), its
   length and the element's place; the tables below were measured against torch 1.13 element by element.

   The forms also differ in which NaN comes out when operands are NaN (an x86 instruction returns its
   first NaN operand, and the compiled forms order their operands differently); NaN bits are not part of
   the contract (docs/ARCHITECTURE.md), so only the rounding (fused or not) of each form is reproduced.
   Which forms are fused still decides NaN-ness too (inf - inf from two overflowed products). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "ops/pointwise/arith_cx.h"

#include "ops/pointwise/binary_common.h"

/* ---- forms ----
   A form is fused (re = fma(a, c, -(b*d)), im = fma(a, d, b*c): GCC's contraction of c10::complex's
   operator*) or not (four separately rounded products: Vectorized's operator*, scalar leftovers). The
   letters name the forms found in torch's code, which also differ in operand order (NaN order only). */
typedef struct cx_form {
  bool fused;
} cx_form;

/* mul forms by letter: a + bi = self, c + di = other */
static const cx_form mul_forms[128] = {
    ['V'] = {false}, ['W'] = {false}, ['X'] = {false}, ['Y'] = {false},
    ['A'] = {true},  ['B'] = {true},  ['G'] = {true},  ['H'] = {true},
};
/* add forms by letter: a + bi = alpha, c + di = other */
static const cx_form add_forms[128] = {
    ['V'] = {false}, ['v'] = {false}, ['w'] = {false}, ['U'] = {false}, ['u'] = {false}, ['T'] = {false},
    ['F'] = {true},  ['f'] = {true},  ['g'] = {true},  ['G'] = {true},  ['H'] = {true},  ['K'] = {true},
    ['J'] = {true},  ['M'] = {true},  ['P'] = {true},
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

/* ---- evaluation: (a + bi)(c + di) in the form's rounding; add: self + that product ---- */
#define CX_EVAL(SUF, T, FMA)                                                                            \
  static inline void prod_##SUF(bool fused, T a, T b, T c, T d, T *re, T *im) {                         \
    *re = fused ? FMA(a, c, -(b * d)) : a * c - b * d;                                                   \
    *im = fused ? FMA(a, d, b * c) : a * d + b * c;                                                      \
  }                                                                                                      \
  /* o = x * y */                                                                                        \
  static inline void mul_##SUF(const cx_form *f, const T *x, const T *y, T *o) {                         \
    T re, im;                                                                                            \
    prod_##SUF(f->fused, x[0], x[1], y[0], y[1], &re, &im);                                              \
    o[0] = re;                                                                                           \
    o[1] = im;                                                                                           \
  }                                                                                                      \
  /* o = x + al * y */                                                                                   \
  static inline void add_##SUF(const cx_form *f, const T *al, const T *x, const T *y, T *o) {           \
    T re, im, s0 = x[0], s1 = x[1];                                                                      \
    prod_##SUF(f->fused, al[0], al[1], y[0], y[1], &re, &im);                                            \
    o[0] = s0 + re;                                                                                      \
    o[1] = s1 + im;                                                                                      \
  }
/* torch compat (kernels/cpu/torch_compat.h): the fused forms are CT_COMPAT_FMA; with the switch off the
   rows have one kind (ct__row_kind2: the fallback) and every form rounds each operation once. */
CX_EVAL(f, float, CT_COMPAT_FMAF)
CX_EVAL(d, double, CT_COMPAT_FMA)

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

static void ct__cmul_c64(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (void)ctx;
  mul_row_f(&mul64, d, s, n);
}
static void ct__cmul_c128(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (void)ctx;
  mul_row_d(&mul128, d, s, n);
}
static void ct__cadd_c64(char **d, const int64_t *s, int64_t n, const void *ctx) {
  add_row_f(&add64, d, s, n, (const float *)ctx);
}
static void ct__cadd_c128(char **d, const int64_t *s, int64_t n, const void *ctx) {
  add_row_d(&add128, d, s, n, (const double *)ctx);
}

/* The forms of a strided row depend on its length (a complex128 add row of two elements has its own), so
   the engine must not cut rows into tiles for these loops. */
const ct_loop ct__cmul_c64_loop_desc_ = {ct__cmul_c64, NULL, 0, true, false};
const ct_loop ct__cmul_c128_loop_desc_ = {ct__cmul_c128, NULL, 0, true, false};
const ct_loop ct__cadd_c64_loop_desc_ = {ct__cadd_c64, NULL, 0, true, false};
const ct_loop ct__cadd_c128_loop_desc_ = {ct__cadd_c128, NULL, 0, true, false};
