/* Generators of 1-D inner loops (ct_loop_fn) from a scalar expression. Each loop has a contiguous path
   the compiler vectorizes (restrict, simple body), a path for a broadcast (stride 0) operand, and the
   general strided path. EXPR sees the compute-type values a, b, c and the op's context `ctx`. */
#ifndef CTORCH_KERNELS_LOOPS_H
#define CTORCH_KERNELS_LOOPS_H

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "iter/iter.h"
#include "kernels/cpu/dtypes.h"

/* Every kernel is compiled for x86-64-v4 (AVX-512), v3 (AVX2 + FMA) and the baseline, and the best one
   the CPU supports is picked at load time, so one binary runs on any x86-64 and uses its vector units. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CT_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CT_KERNEL_CLONES
#endif

/* Declares a loop elementwise to the engine at load time (see ct__loop_declare_elementwise), with its
   streaming variant STREAM (or NULL). A function with target clones has two addresses: the one code takes
   (through a PLT stub) and the resolved one that data holding it (the ops' loop tables) gets; both are
   declared. */
#if defined(__GNUC__)
#define CT_LOOP_DECLARE(fname, TI, STREAM)                                               \
  static ct_loop_fn const volatile fname##_addr_ = fname;                               \
  __attribute__((constructor)) static void fname##_declare_(void) {                     \
    ct__loop_declare_elementwise(fname, (int)sizeof(TI), STREAM);                       \
    ct__loop_declare_elementwise(fname##_addr_, (int)sizeof(TI), STREAM);               \
  }
#else
#define CT_LOOP_DECLARE(fname, TI, STREAM)
#endif
/* The generators below read exactly one TI at every input address, write every output element and
   compute the same EXPR in all their paths; each also defines fname##_nt, its streaming variant. */
#define CT_LOOP_ELEMENTWISE(fname, TI) CT_LOOP_DECLARE(fname, TI, fname##_nt)

/* ---- streaming stores ----
   The _nt variant of a generated loop writes a contiguous output row with non-temporal stores: whole
   64-byte lines go to memory without first being read (read for ownership), which a + b into an output
   far larger than the cache would otherwise do for every line. The engine calls it for such outputs only
   (iter_loop.c); it computes every element with the same expression as the loop itself, and any other
   row goes to the loop. */
/* Elements before the first 64-byte boundary of o (all n when o is not aligned to its element size). */
static inline int64_t ct__stream_head(const void *o, int64_t size, int64_t n) {
  uintptr_t p = (uintptr_t)o;
  if (p % (uintptr_t)size) return n;
  int64_t h = (int64_t)((64 - p % 64) % 64) / size;
  return h < n ? h : n;
}
/* One 64-byte line from the aligned src to the aligned dst, around the caches. */
static inline void ct__stream_line(void *dst, const void *src) {
#if defined(__SSE2__)
  for (int i = 0; i < 4; i++)
    _mm_stream_si128((__m128i *)dst + i, _mm_load_si128((const __m128i *)src + i));
#else
  memcpy(dst, src, 64);
#endif
}
/* o_[k] = VAL for k in [0, n), LOADS (statements reading element k) first; whole lines streamed. */
#define CT_STREAM_ROW(TO, o_, n, LOADS, VAL)                                                     \
  do {                                                                                            \
    enum { CT_B_ = 64 / sizeof(TO) };                                                             \
    int64_t kb_ = 0, e_ = ct__stream_head(o_, (int64_t)sizeof(TO), (n));                         \
    for (; kb_ < e_; kb_++) {                                                                     \
      const int64_t k = kb_;                                                                      \
      LOADS o_[k] = VAL;                                                                          \
    }                                                                                             \
    for (; kb_ + CT_B_ <= (n); kb_ += CT_B_) {                                                    \
      _Alignas(64) TO t_[CT_B_];                                                                  \
      for (int64_t j_ = 0; j_ < CT_B_; j_++) {                                                    \
        const int64_t k = kb_ + j_;                                                               \
        LOADS t_[j_] = VAL;                                                                       \
      }                                                                                           \
      ct__stream_line(o_ + kb_, t_);                                                              \
    }                                                                                             \
    for (; kb_ < (n); kb_++) {                                                                    \
      const int64_t k = kb_;                                                                      \
      LOADS o_[k] = VAL;                                                                          \
    }                                                                                             \
  } while (0)

#define CT_AT(T, p, stride, i) (*(const T *)((p) + (i) * (stride)))
#define CT_OUT(T, p, stride, i) (*(T *)((p) + (i) * (stride)))

/* out[i] = EXPR(a) with a of input type TI, result stored as TO. */
#define CT_UNARY_LOOP(fname, TI, CTI, LOADI, TO, STOREO, EXPR)                                   \
  CT_KERNEL_CLONES static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {                     \
    (void)ctx;                                                                                    \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI)) {                            \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict i_ = (const TI *)d[1];                                                   \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(i_[k]);                                                                     \
        o_[k] = STOREO(EXPR);                                                                     \
      }                                                                                           \
    } else {                                                                                      \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(CT_AT(TI, d[1], s[1], k));                                                  \
        CT_OUT(TO, d[0], s[0], k) = STOREO(EXPR);                                                 \
      }                                                                                           \
    }                                                                                             \
  }                                                                                               \
  CT_KERNEL_CLONES static void fname##_nt(char **d, const int64_t *s, int64_t n, const void *ctx) {                \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI)) {                            \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict i_ = (const TI *)d[1];                                                   \
      CT_STREAM_ROW(TO, o_, n, CTI a = LOADI(i_[k]);, STOREO(EXPR));                              \
    } else {                                                                                      \
      fname(d, s, n, ctx);                                                                        \
    }                                                                                             \
  }                                                                                               \
  CT_LOOP_ELEMENTWISE(fname, TI)

/* out[i] = EXPR(a, b); both inputs of type TI. */
#define CT_BINARY_LOOP(fname, TI, CTI, LOADI, TO, STOREO, EXPR)                                  \
  CT_KERNEL_CLONES static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {                     \
    (void)ctx;                                                                                    \
    const int64_t si_ = (int64_t)sizeof(TI), so_ = (int64_t)sizeof(TO);                           \
    if (s[0] == so_ && s[1] == si_ && s[2] == si_) {                                              \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1], *restrict y_ = (const TI *)d[2];                  \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(x_[k]), b = LOADI(y_[k]);                                                   \
        o_[k] = STOREO(EXPR);                                                                     \
      }                                                                                           \
    } else if (s[0] == so_ && s[1] == si_ && s[2] == 0) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1];                                                   \
      const CTI b = LOADI(*(const TI *)d[2]);                                                     \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(x_[k]);                                                                     \
        o_[k] = STOREO(EXPR);                                                                     \
      }                                                                                           \
    } else if (s[0] == so_ && s[1] == 0 && s[2] == si_) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict y_ = (const TI *)d[2];                                                   \
      const CTI a = LOADI(*(const TI *)d[1]);                                                     \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI b = LOADI(y_[k]);                                                                     \
        o_[k] = STOREO(EXPR);                                                                     \
      }                                                                                           \
    } else {                                                                                      \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(CT_AT(TI, d[1], s[1], k)), b = LOADI(CT_AT(TI, d[2], s[2], k));             \
        CT_OUT(TO, d[0], s[0], k) = STOREO(EXPR);                                                 \
      }                                                                                           \
    }                                                                                             \
  }                                                                                               \
  CT_KERNEL_CLONES static void fname##_nt(char **d, const int64_t *s, int64_t n, const void *ctx) {                \
    const int64_t si_ = (int64_t)sizeof(TI), so_ = (int64_t)sizeof(TO);                           \
    if (s[0] == so_ && s[1] == si_ && s[2] == si_) {                                              \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1], *restrict y_ = (const TI *)d[2];                  \
      CT_STREAM_ROW(TO, o_, n, CTI a = LOADI(x_[k]); CTI b = LOADI(y_[k]);, STOREO(EXPR));        \
    } else if (s[0] == so_ && s[1] == si_ && s[2] == 0) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1];                                                   \
      const CTI b = LOADI(*(const TI *)d[2]);                                                     \
      CT_STREAM_ROW(TO, o_, n, CTI a = LOADI(x_[k]);, STOREO(EXPR));                              \
    } else if (s[0] == so_ && s[1] == 0 && s[2] == si_) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict y_ = (const TI *)d[2];                                                   \
      const CTI a = LOADI(*(const TI *)d[1]);                                                     \
      CT_STREAM_ROW(TO, o_, n, CTI b = LOADI(y_[k]);, STOREO(EXPR));                              \
    } else {                                                                                      \
      fname(d, s, n, ctx);                                                                        \
    }                                                                                             \
  }                                                                                               \
  CT_LOOP_ELEMENTWISE(fname, TI)

/* out[i] = EXPR(a, b, c); a contiguous path the compiler vectorizes, then the general strided one. */
#define CT_TERNARY_LOOP(fname, TI, CTI, LOADI, TO, STOREO, EXPR)                                 \
  CT_KERNEL_CLONES static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {                     \
    (void)ctx;                                                                                    \
    const int64_t si_ = (int64_t)sizeof(TI);                                                      \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == si_ && s[2] == si_ && s[3] == si_) {               \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1], *restrict y_ = (const TI *)d[2],                  \
                         *restrict z_ = (const TI *)d[3];                                         \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(x_[k]), b = LOADI(y_[k]), c = LOADI(z_[k]);                                 \
        o_[k] = STOREO(EXPR);                                                                     \
      }                                                                                           \
    } else {                                                                                      \
      for (int64_t k = 0; k < n; k++) {                                                           \
        CTI a = LOADI(CT_AT(TI, d[1], s[1], k)), b = LOADI(CT_AT(TI, d[2], s[2], k)),             \
            c = LOADI(CT_AT(TI, d[3], s[3], k));                                                  \
        CT_OUT(TO, d[0], s[0], k) = STOREO(EXPR);                                                 \
      }                                                                                           \
    }                                                                                             \
  }                                                                                               \
  CT_KERNEL_CLONES static void fname##_nt(char **d, const int64_t *s, int64_t n, const void *ctx) {                \
    const int64_t si_ = (int64_t)sizeof(TI);                                                      \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == si_ && s[2] == si_ && s[3] == si_) {               \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1], *restrict y_ = (const TI *)d[2],                  \
                         *restrict z_ = (const TI *)d[3];                                         \
      CT_STREAM_ROW(TO, o_, n, CTI a = LOADI(x_[k]); CTI b = LOADI(y_[k]); CTI c = LOADI(z_[k]);, STOREO(EXPR)); \
    } else {                                                                                      \
      fname(d, s, n, ctx);                                                                        \
    }                                                                                             \
  }                                                                                               \
  CT_LOOP_ELEMENTWISE(fname, TI)

#endif
