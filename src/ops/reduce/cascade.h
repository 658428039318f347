/* PyTorch's cascade summation (ATen/native/cpu/SumKernel.cpp: multi_row_sum, row_sum,
   vectorized_inner_sum, vectorized_outer_sum), reproduced operation for operation for float and double
   components (complex sums are the same over interleaved (re, im) components), so float32, float64 and
   complex sums round exactly as PyTorch's do at one thread. Instantiated by sum_cascade.c for T = float
   (AVX2 vectors of 8) and T = double (vectors of 4), and for float16 and bfloat16 values summed in float
   (T = float, stored type S = uint16_t): PyTorch's cast-load policies convert each value to float as it
   is loaded, so their sums are the float cascade run on the converted values.

   Parameters: CT_CASCADE_T (the accumulator), CT_CASCADE_W (its lanes in a vector), CT_CASCADE_NAME (the
   prefix); for a 16-bit stored type S (T = float): CT_CASCADE_S, CT_CASCADE_CVT (S to T),
   CT_CASCADE_VCVT (the same for a vector of W 32-bit lanes, each holding a value's bits in its low 16
   bits; the high ones are ignored), and CT_CASCADE_FOLD where Vectorized<S> holds twice the lanes of
   Vectorized<T>: how one load of vectorized_inner_sum folds its 2W values into the W lanes,
   CT_FOLD_PAIRS (lane l = x[2l] + x[2l + 1]) or CT_FOLD_HALVES (lane l = x[l] + x[l + W]).

   multi_row_sum: nk accumulators ("columns" k), each fed `size` items; four levels: every `step` items
   level 0 moves into level 1, every step^2 level 1 into level 2, and so on, so only numbers of a similar
   magnitude meet. An item here is L independent lanes (the lanes of a vector, or of a run of output
   columns: lane arithmetic never mixes, so any grouping of lanes gives the same bits). */
#ifndef CT_CASCADE_T
#error "define CT_CASCADE_T, CT_CASCADE_W and CT_CASCADE_NAME before including cascade.h"
#endif
#define CT_FOLD_PAIRS 1
#define CT_FOLD_HALVES 2

#define CC_CAT2(a, b) a##_##b
#define CC_CAT(a, b) CC_CAT2(a, b)
#define CC(name) CC_CAT(CT_CASCADE_NAME, name)

typedef CT_CASCADE_T CC(t);
#ifdef CT_CASCADE_S
typedef CT_CASCADE_S CC(s);
typedef uint16_t CC(narrow) __attribute__((vector_size(CT_CASCADE_W * 2)));
typedef uint32_t CC(wide) __attribute__((vector_size(CT_CASCADE_W * 4)));
#define CC_CVT(x) CT_CASCADE_CVT(x)
#else
typedef CT_CASCADE_T CC(s);
#define CC_CVT(x) (x)
#endif
/* stored elements one load of vectorized_inner_sum reads (Vectorized<S>::size()) */
#ifdef CT_CASCADE_FOLD
#define CC_ITEM (2 * CT_CASCADE_W)
#else
#define CC_ITEM CT_CASCADE_W
#endif
/* for the includer: the lanes of Vectorized<T> and of Vectorized<S> */
enum { CC(lanes) = CT_CASCADE_W, CC(item) = CC_ITEM };

/* lanes a chunk of multi_row_sum keeps in its level arrays (3 levels x 4 columns x chunk) */
#define CC_LANES (2048 / (int64_t)sizeof(CT_CASCADE_T) * 2)
/* lanes level 0 covers at a time (registers / L1) */
#define CC_BLOCK 64

static inline int64_t CC(ceil_log2)(int64_t x) {
  if (x <= 2) return 1;
  return 64 - (int64_t)__builtin_clzll((uint64_t)x - 1);
}

static inline CC(t) CC(ld)(const char *p, int nanz) {
  CC(t) v = CC_CVT(*(const CC(s) *)p);
  return nanz && v != v ? (CC(t))0 : v;
}

typedef CT_CASCADE_T CC(vec) __attribute__((vector_size(CT_CASCADE_W * sizeof(CT_CASCADE_T))));
/* CT_VINLINE (red.h): a vector result goes by another convention in the callers' AVX clones. */
CT_VINLINE CC(vec) CC(vnan0)(CC(vec) v, int nanz) {
  if (nanz) {
    CC(vec) z = {0};
    v = (CC(vec))(((__typeof__(v == v))v & (v == v)) | ((__typeof__(v == v))z & ~(v == v)));
  }
  return v;
}
/* W values at p */
CT_VINLINE CC(vec) CC(vld)(const CC(s) *p, int nanz) {
#ifdef CT_CASCADE_S
  CC(narrow) h;
  memcpy(&h, p, sizeof h);
  CC(vec) v = CT_CASCADE_VCVT(__builtin_convertvector(h, CC(wide)));
#else
  CC(vec) v;
  memcpy(&v, p, sizeof v);
#endif
  return CC(vnan0)(v, nanz);
}
/* One load of vectorized_inner_sum: CC_ITEM stored elements into the W lanes. Vectorized<c10::Half> is
   ATen's generic vector of 16 and goes through load_reduce_vec, which adds neighbours into a float
   lane starting at 0 (the same sum: a -0 lane only ever meets accumulators that start at +0, and NaN
   skipped or taken as 0 gives the same lane); Vectorized<c10::BFloat16> converts its two halves
   (load_fp32_from_bf16) and adds them. */
CT_VINLINE CC(vec) CC(vitem)(const CC(s) *p, int nanz) {
#if !defined(CT_CASCADE_FOLD)
  return CC(vld)(p, nanz);
#elif CT_CASCADE_FOLD == CT_FOLD_HALVES
  return CC(vld)(p, nanz) + CC(vld)(p + CT_CASCADE_W, nanz);
#else /* the 2W values as W 32-bit lanes: lane l holds x[2l] in its low half, x[2l + 1] in its high one */
  CC(wide) u;
  memcpy(&u, p, sizeof u);
  return CC(vnan0)(CT_CASCADE_VCVT(u), nanz) + CC(vnan0)(CT_CASCADE_VCVT(u >> 16), nanz);
#endif
}
/* a0[l] += item q's lane l for `rows` items (a multiple of 4) at p + q * qs, in item order per lane:
   the streaming loop of multi_row_sum's level 0 over long lines. Items that follow each other in memory
   one by one (a sequential sweep), others four at a time (fewer passes over a0 between far rows). */
CT_KERNEL_CLONES static void CC(add_rows)(CC(t) *a0, const char *p, int64_t qs, int64_t rows, int64_t ln, int nanz) {
  const int64_t W = CT_CASCADE_W;
  if (qs == ln * (int64_t)sizeof(CC(s))) { /* the items follow each other: one sequential sweep */
    for (int64_t q = 0; q < rows; q++) {
      const CC(s) *x = (const CC(s) *)(p + q * qs);
      int64_t l = 0;
      for (; l + W <= ln; l += W) {
        CC(vec) a;
        memcpy(&a, a0 + l, sizeof a);
        a += CC(vld)(x + l, nanz);
        memcpy(a0 + l, &a, sizeof a);
      }
      for (; l < ln; l++) a0[l] += CC(ld)((const char *)(x + l), nanz);
    }
    return;
  }
  for (int64_t q = 0; q < rows; q += 4) {
    const CC(s) *x0 = (const CC(s) *)(p + q * qs), *x1 = (const CC(s) *)(p + (q + 1) * qs),
                *x2 = (const CC(s) *)(p + (q + 2) * qs), *x3 = (const CC(s) *)(p + (q + 3) * qs);
    int64_t l = 0;
    for (; l + W <= ln; l += W) {
      CC(vec) a;
      memcpy(&a, a0 + l, sizeof a);
      a += CC(vld)(x0 + l, nanz);
      a += CC(vld)(x1 + l, nanz);
      a += CC(vld)(x2 + l, nanz);
      a += CC(vld)(x3 + l, nanz);
      memcpy(a0 + l, &a, sizeof a);
    }
    for (; l < ln; l++) {
      CC(t) a = a0[l];
      a += CC(ld)((const char *)(x0 + l), nanz);
      a += CC(ld)((const char *)(x1 + l), nanz);
      a += CC(ld)((const char *)(x2 + l), nanz);
      a += CC(ld)((const char *)(x3 + l), nanz);
      a0[l] = a;
    }
  }
}

/* multi_row_sum of fewer items than a tile over contiguous lanes: each lane's items in order from +0,
   a whole row of lanes at a time (a vector loop). */
CT_KERNEL_CLONES static void CC(mrs_short)(CC(t) *out, const char *p, int64_t qs, int64_t ks, int nk, int64_t size,
                                           int64_t L, int nanz) {
  for (int k = 0; k < nk; k++) {
    CC(t) *o = out + k * L;
    for (int64_t l = 0; l < L; l++) o[l] = 0;
    for (int64_t q = 0; q < size; q++) {
      const CC(s) *x = (const CC(s) *)(p + k * ks + q * qs);
      if (nanz)
        for (int64_t l = 0; l < L; l++) o[l] += CC(ld)((const char *)(x + l), 1);
      else
        for (int64_t l = 0; l < L; l++) o[l] += CC_CVT(x[l]);
    }
  }
}

/* multi_row_sum: out[k * L + l] = cascade sum over q < size of the lane l of item (q, k), which is at
   p + q * qs + k * ks + l * ls. nk is 1 or 4. Lanes are contiguous (ls = sizeof(S)) or, for
   scalar_outer_sum's columns, ls apart: every lane is summed on its own, so a pass takes as many lanes
   as fit (PyTorch's four are one grouping of them). */
static void CC(mrs)(CC(t) *out, const char *p, int64_t qs, int64_t ks, int nk, int64_t size, int64_t L, int64_t ls,
                    int nanz) {
  int64_t lp = CC(ceil_log2)(size) / 4;
  if (lp < 4) lp = 4;
  int64_t step = (int64_t)1 << lp, mask = step - 1;
  const int64_t ts = (int64_t)sizeof(CC(s));
  CC(t) lvbuf[3 * 4 * CC_LANES], a0buf[4 * CC_LANES];
  /* lanes per pass: the level arrays fill lvbuf; scattered lanes a register block at a time */
  const int64_t chunk = ls == ts ? 4 * CC_LANES / nk : CC_BLOCK;
#define LV(j, k, l) lvbuf[((j) * nk + (k)) * chunk + (l)]
  /* fewer items than a tile: the levels stay 0 and adding them changes nothing (level 0 starts at +0,
     so it is never -0), so they are neither cleared nor added: clearing them cost more than a few rows */
  const bool tiles = size >= step;
  if (!tiles && ls == ts) {
    CC(mrs_short)(out, p, qs, ks, nk, size, L, nanz);
    return;
  }
  for (int64_t l0 = 0; l0 < L; l0 += chunk) {
    int64_t ln = L - l0 < chunk ? L - l0 : chunk;
    if (tiles)
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < nk; k++)
          for (int64_t l = 0; l < ln; l++) LV(j, k, l) = 0;
    int64_t i = 0;
    for (; i + step <= size; i += step) {
      /* level 0 over one tile of `step` items, then level 1 += level 0. Short lines: a block of lanes
         at a time in registers; long ones: whole items in order (add_rows: streaming reads), level 0
         in L1. */
      if (ln <= CC_BLOCK) {
        for (int k = 0; k < nk; k++) {
          /* level 0 from +0: the first item + 0 (the same sum, IEEE addition commutes), which spares
             clearing the block (a rep stos per tile) */
          CC(t) a0[CC_BLOCK];
          const char *base = p + k * ks + l0 * ls;
          if (ln == 4 && ls == ts) { /* scalar_outer_sum's group of four columns: in registers */
            CC(t) b0 = CC(ld)(base + i * qs, nanz) + (CC(t))0, b1 = CC(ld)(base + i * qs + ts, nanz) + (CC(t))0,
                  b2 = CC(ld)(base + i * qs + 2 * ts, nanz) + (CC(t))0,
                  b3 = CC(ld)(base + i * qs + 3 * ts, nanz) + (CC(t))0;
            for (int64_t q = i + 1; q < i + step; q++) {
              const char *row = base + q * qs;
              b0 += CC(ld)(row, nanz), b1 += CC(ld)(row + ts, nanz), b2 += CC(ld)(row + 2 * ts, nanz);
              b3 += CC(ld)(row + 3 * ts, nanz);
            }
            LV(0, k, 0) += b0, LV(0, k, 1) += b1, LV(0, k, 2) += b2, LV(0, k, 3) += b3;
            continue;
          }
          for (int64_t l = 0; l < ln; l++) a0[l] = CC(ld)(base + i * qs + l * ls, nanz) + (CC(t))0;
          if (ls == ts) /* contiguous lanes: plain vector loads */
            for (int64_t q = i + 1; q < i + step; q++) {
              const CC(s) *row = (const CC(s) *)(base + q * qs);
              for (int64_t l = 0; l < ln; l++) a0[l] += CC(ld)((const char *)(row + l), nanz);
            }
          else
            for (int64_t q = i + 1; q < i + step; q++) {
              const char *row = base + q * qs;
              for (int64_t l = 0; l < ln; l++) a0[l] += CC(ld)(row + l * ls, nanz);
            }
          for (int64_t l = 0; l < ln; l++) LV(0, k, l) += a0[l];
        }
      } else {
        for (int k = 0; k < nk; k++) {
          CC(t) *a0 = a0buf + k * chunk;
          for (int64_t l = 0; l < ln; l++) a0[l] = 0;
          CC(add_rows)(a0, p + i * qs + k * ks + l0 * ts, qs, step, ln, nanz);
          for (int64_t l = 0; l < ln; l++) LV(0, k, l) += a0[l];
        }
      }
      /* the upper levels, as far as the item count's bits say */
      int64_t done = i + step;
      for (int j = 2; j <= 3; j++) {
        if ((done & (mask << ((j - 1) * lp))) != 0) break;
        for (int k = 0; k < nk; k++)
          for (int64_t l = 0; l < ln; l++) {
            LV(j - 1, k, l) += LV(j - 2, k, l);
            LV(j - 2, k, l) = 0;
          }
      }
    }
    /* the remaining items into level 0, then level 0 + 1 + 2 + 3 */
    for (int k = 0; k < nk; k++) {
      CC(t) *a0 = a0buf; /* item by item across the lanes: memory order, and a vector loop */
      const char *base = p + k * ks + l0 * ls;
      for (int64_t l = 0; l < ln; l++) a0[l] = 0;
      for (int64_t q = i; q < size; q++) {
        const char *row = base + q * qs;
        for (int64_t l = 0; l < ln; l++) a0[l] += CC(ld)(row + l * ls, nanz);
      }
      if (!tiles) {
        memcpy(out + k * L + l0, a0, (size_t)ln * sizeof *a0);
        continue;
      }
      for (int64_t l = 0; l < ln; l++) {
        CC(t) a = a0[l];
        a += LV(0, k, l);
        a += LV(1, k, l);
        a += LV(2, k, l);
        out[k * L + l0 + l] = a;
      }
    }
  }
#undef LV
}

/* multi_row_sum of four columns of one or two contiguous lanes (row_sum of one real or complex output
   value), its levels in registers: clearing mrs's level arrays costs more than summing a short row. */
static void CC(mrs4_short)(CC(t) *out, const char *p, int64_t qs, int64_t ks, int64_t size, int64_t L, int nanz) {
  int64_t lp = CC(ceil_log2)(size) / 4;
  if (lp < 4) lp = 4;
  const int64_t step = (int64_t)1 << lp, mask = step - 1, ts = (int64_t)sizeof(CC(s));
  CC(t) v0[4][2] = {{0}}, v1[4][2] = {{0}}, v2[4][2] = {{0}};
  int64_t i = 0;
  for (; i + step <= size; i += step) {
    /* the four columns (and two lanes) side by side: independent chains, fixed counts in registers */
    if (L == 1) {
      CC(t) a[4] = {0};
      for (int64_t q = i; q < i + step; q++)
        for (int k = 0; k < 4; k++) a[k] += CC(ld)(p + q * qs + k * ks, nanz);
      for (int k = 0; k < 4; k++) v0[k][0] += a[k];
    } else {
      CC(t) a[4][2] = {{0}};
      for (int64_t q = i; q < i + step; q++)
        for (int k = 0; k < 4; k++)
          for (int l = 0; l < 2; l++) a[k][l] += CC(ld)(p + q * qs + k * ks + l * ts, nanz);
      for (int k = 0; k < 4; k++) v0[k][0] += a[k][0], v0[k][1] += a[k][1];
    }
    int64_t done = i + step;
    if ((done & (mask << lp)) == 0) {
      for (int k = 0; k < 4; k++)
        for (int64_t l = 0; l < L; l++) v1[k][l] += v0[k][l], v0[k][l] = 0;
      if ((done & (mask << (2 * lp))) == 0)
        for (int k = 0; k < 4; k++)
          for (int64_t l = 0; l < L; l++) v2[k][l] += v1[k][l], v1[k][l] = 0;
    }
  }
  for (int k = 0; k < 4; k++)
    for (int64_t l = 0; l < L; l++) {
      CC(t) a = 0;
      for (int64_t q = i; q < size; q++) a += CC(ld)(p + q * qs + k * ks + l * ts, nanz);
      a += v0[k][l];
      a += v1[k][l];
      a += v2[k][l];
      out[k * L + l] = a;
    }
}

/* row_sum: `size` items at p + i * s (L lanes each): four interleaved partial sums over groups of four
   items, the leftover items into the first, then partial 0 + 1 + 2 + 3. out[L]; scratch holds 4 * L. */
static void CC(row_sum)(CC(t) *out, CC(t) *scratch, const char *p, int64_t s, int64_t size, int64_t L, int nanz) {
  const int64_t ts = (int64_t)sizeof(CC(s));
  int64_t ilp = size / 4;
  if (L <= 2)
    CC(mrs4_short)(scratch, p, 4 * s, s, ilp, L, nanz);
  else
    CC(mrs)(scratch, p, 4 * s, s, 4, ilp, L, ts, nanz);
  for (int64_t l = 0; l < L; l++) {
    CC(t) a = scratch[l];
    for (int64_t i = ilp * 4; i < size; i++) a += CC(ld)(p + i * s + l * ts, nanz);
    a += scratch[L + l];
    a += scratch[2 * L + l];
    a += scratch[3 * L + l];
    out[l] = a;
  }
}

/* row_sum over nvec contiguous loads of CC_ITEM stored elements, W lanes each (vectorized_inner_sum's
   vector part), the lanes in registers: the hot path of contiguous sums. The levels are named variables
   (b: level 1, c: level 2, d: level 3; e: level 0 of the leftover items) rather than an array, which GCC
   clears with rep stos, a fifth of the time of a 4096-element row. */
#define CC_ZERO4(v) v##0 = z, v##1 = z, v##2 = z, v##3 = z
#define CC_MOVE4(to, from) to##0 += from##0, to##1 += from##1, to##2 += from##2, to##3 += from##3, CC_ZERO4(from)
CT_KERNEL_CLONES static void CC(vrow)(CC(t) *out, const CC(s) *x, int64_t nvec, int nanz) {
  int64_t ilp = nvec / 4;
  int64_t lp = CC(ceil_log2)(ilp) / 4;
  if (lp < 4) lp = 4;
  int64_t step = (int64_t)1 << lp, mask = step - 1;
  const CC(vec) z = {0};
  CC(vec) b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, e0, e1, e2, e3;
  CC_ZERO4(b), CC_ZERO4(c), CC_ZERO4(d), CC_ZERO4(e);
  int64_t i = 0;
  for (; i + step <= ilp;) {
    CC(vec) a0 = z, a1 = z, a2 = z, a3 = z;
    for (int64_t end = i + step; i < end; i++) {
      const CC(s) *q = x + i * 4 * CC_ITEM;
      a0 += CC(vitem)(q, nanz);
      a1 += CC(vitem)(q + CC_ITEM, nanz);
      a2 += CC(vitem)(q + 2 * CC_ITEM, nanz);
      a3 += CC(vitem)(q + 3 * CC_ITEM, nanz);
    }
    /* level 0 starts each tile at zero, so its sum is a0..a3 */
    b0 += a0, b1 += a1, b2 += a2, b3 += a3;
    if ((i & (mask << lp)) == 0) {
      CC_MOVE4(c, b);
      if ((i & (mask << (2 * lp))) == 0) CC_MOVE4(d, c);
    }
  }
  for (; i < ilp; i++) {
    const CC(s) *q = x + i * 4 * CC_ITEM;
    e0 += CC(vitem)(q, nanz);
    e1 += CC(vitem)(q + CC_ITEM, nanz);
    e2 += CC(vitem)(q + 2 * CC_ITEM, nanz);
    e3 += CC(vitem)(q + 3 * CC_ITEM, nanz);
  }
  e0 += b0, e0 += c0, e0 += d0;
  e1 += b1, e1 += c1, e1 += d1;
  e2 += b2, e2 += c2, e2 += d2;
  e3 += b3, e3 += c3, e3 += d3;
  for (int64_t q = ilp * 4; q < nvec; q++) e0 += CC(vitem)(x + q * CC_ITEM, nanz);
  e0 += e1;
  e0 += e2;
  e0 += e3;
  memcpy(out, &e0, sizeof e0);
}
#undef CC_ZERO4
#undef CC_MOVE4

/* row_sum of fewer than 64 elements (multi_row_sum's first tile would take 16 groups of four): four
   partial sums over the groups, the leftover elements into the first, then partial 0 + 1 + 2 + 3 (the
   empty upper levels add +0, which changes nothing: a partial starts at +0, so it is never -0). */
static inline void CC(short_row)(CC(t) *out, const char *p, int64_t s, int64_t n, int C, int nanz) {
  const int64_t ts = (int64_t)sizeof(CC(s)), ilp = n / 4;
  for (int c = 0; c < C; c++) {
    const char *q = p + c * ts;
    CC(t) s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int64_t i = 0; i < ilp; i++, q += 4 * s) {
      s0 += CC(ld)(q, nanz);
      s1 += CC(ld)(q + s, nanz);
      s2 += CC(ld)(q + 2 * s, nanz);
      s3 += CC(ld)(q + 3 * s, nanz);
    }
    for (int64_t i = ilp * 4; i < n; i++, q += s) s0 += CC(ld)(q, nanz);
    s0 += s1;
    s0 += s2;
    s0 += s3;
    out[c] = s0;
  }
}

/* The sum of one line of n elements of C components at p, stride s (bytes), as PyTorch computes the
   line's contribution: vectorized_inner_sum when the line is contiguous and holds a vector's worth
   (Vectorized<S>::size() elements), else row_sum element by element. out[C]. */
static inline void CC(line)(CC(t) *out, const char *p, int64_t s, int64_t n, int C, int nanz) {
  const int64_t ts = (int64_t)sizeof(CC(s));
  const int per = CC_ITEM / C, lanes = CT_CASCADE_W / C; /* elements per load, per accumulator vector */
  CC(t) scratch[4 * CT_CASCADE_W];
  if (n < 64 && !(s == C * ts && n >= per)) {
    CC(short_row)(out, p, s, n, C, nanz);
    return;
  }
  if (s == C * ts && n >= per) {
    int64_t vecs = n / per;
    CC(t) vacc[CT_CASCADE_W];
    CC(vrow)(vacc, (const CC(s) *)p, vecs, nanz);
    for (int c = 0; c < C; c++) {
      CC(t) f = 0;
      for (int64_t k = vecs * per; k < n; k++) f += CC(ld)(p + (k * C + c) * ts, nanz);
      for (int k = 0; k < lanes; k++) f += vacc[k * C + c];
      out[c] = f;
    }
    return;
  }
  CC(row_sum)(out, scratch, p, s, n, C, nanz);
}

/* The line sums of m output columns (lanes contiguous: C components each, columns at stride
   C * sizeof(S) from p), n rows at stride rs. `multi` selects multi_row_sum per column
   (vectorized_outer_sum's blocks of 4 vectors and scalar_outer_sum's groups of 4), else row_sum per
   column. out[m * C]. */
static void CC(cols)(CC(t) *out, const char *p, int64_t rs, int64_t n, int64_t m, int C, int multi, int nanz) {
  int64_t L = m * C;
  if (multi) {
    CC(mrs)(out, p, rs, 0, 1, n, L, (int64_t)sizeof(CC(s)), nanz);
    return;
  }
  CC(t) *scratch = out; /* row_sum by lane chunks through a small scratch */
  for (int64_t l0 = 0; l0 < L; l0 += CC_LANES / 4) {
    int64_t ln = L - l0 < CC_LANES / 4 ? L - l0 : CC_LANES / 4;
    CC(t) tmp[CC_LANES];
    CC(row_sum)(scratch + l0, tmp, p + l0 * (int64_t)sizeof(CC(s)), rs, n, ln, nanz);
  }
}

#undef CC_CAT2
#undef CC_CAT
#undef CC
#undef CC_LANES
#undef CC_BLOCK
#undef CC_CVT
#undef CC_ITEM
#undef CT_FOLD_PAIRS
#undef CT_FOLD_HALVES
