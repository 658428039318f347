/* Generators of 1-D inner loops (ct_loop_fn) from a scalar expression. Each loop has a contiguous path
   the compiler vectorizes (restrict, simple body), a path for a broadcast (stride 0) operand, and the
   general strided path. EXPR sees the compute-type values a, b, c and the op's context `ctx`. */
#ifndef CTORCH_KERNELS_LOOPS_H
#define CTORCH_KERNELS_LOOPS_H

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/cpu_isa.h" /* CT_KERNEL_CLONES: every loop below is compiled for each ISA level */
#include "iter/iter.h"
#include "kernels/cpu/dtypes.h"

/* The descriptor (ct_loop, iter/iter.h) of a loop that is elementwise over inputs of type TI, with its
   streaming variant STREAM (or NULL). */
#define CT_LOOP_DECLARE(fname, TI, STREAM) CT_LOOP_DEFINE(fname, (int)sizeof(TI), STREAM, false)
/* The generators below read exactly one TI at every input address, write every output element and
   compute the same EXPR in all their paths; each also defines fname##_nt, its streaming variant. */
#define CT_LOOP_ELEMENTWISE(fname, TI) CT_LOOP_DECLARE(fname, TI, fname##_nt)

/* ---- streaming stores ----
   The _nt variant of a generated loop writes a contiguous output row with non-temporal stores: whole
   64-byte blocks go to memory without first being read (read for ownership), which a + b into an output
   far larger than the cache would otherwise do for every line. The engine calls it for such outputs only
   (iter_loop.c); any other row goes to the loop itself.
   Its results are the loop's: IEEE arithmetic gives every non-NaN result exactly, whatever instructions
   compute it; a NaN result may come out with another sign or payload than the loop's (the NaN policy,
   docs/ARCHITECTURE.md: only NaN-ness is part of the contract). */
/* One 64-byte block from the 64-byte aligned src to the 16-byte aligned dst, around the caches. */
static inline void ct__stream_block(void *dst, const void *src) {
#if defined(__SSE2__)
  for (int i = 0; i < 4; i++)
    _mm_stream_si128((__m128i *)dst + i, _mm_load_si128((const __m128i *)src + i));
#else
  memcpy(dst, src, 64);
#endif
}
/* A block loop kept whole, so that the loop vectorizer, not the straight-line one (which gives up on many
   bodies and computes the block element by element: float16 add at half speed), sees it. */
#if defined(__GNUC__) && !defined(__clang__)
#define CT_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define CT_NO_UNROLL
#endif
/* The streamed row o_[k] = STOREO(EXPR) for k in [0, n), LOADS (statements reading element k) first; the
   last partial block (and a row whose output is not 16-byte aligned) by fname over NOPS operands. */
#define CT_STREAM_ROW(fname, NOPS, TO, o_, LOADS, EXPR, STOREO)                                   \
  do {                                                                                            \
    enum { CT_B_ = 64 / sizeof(TO) };                                                             \
    int64_t kb_ = 0;                                                                              \
    if ((uintptr_t)(o_) % 16 == 0) {                                                              \
      for (; kb_ + CT_B_ <= n; kb_ += CT_B_) {                                                    \
        _Alignas(64) TO t_[CT_B_];                                                                \
        CT_NO_UNROLL                                                                              \
        for (int64_t j_ = 0; j_ < CT_B_; j_++) {                                                  \
          const int64_t k = kb_ + j_;                                                             \
          LOADS t_[j_] = STOREO(EXPR);                                                            \
        }                                                                                         \
        ct__stream_block((o_) + kb_, t_);                                                         \
      }                                                                                           \
    }                                                                                             \
    if (kb_ < n) {                                                                                \
      char *rest_[NOPS];                                                                          \
      for (int q_ = 0; q_ < (NOPS); q_++) rest_[q_] = d[q_] + kb_ * s[q_];                        \
      fname(rest_, s, n - kb_, ctx);                                                              \
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
      CT_STREAM_ROW(fname, 2, TO, o_, CTI a = LOADI(i_[k]);, EXPR, STOREO);                              \
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
      CT_STREAM_ROW(fname, 3, TO, o_, CTI a = LOADI(x_[k]); CTI b = LOADI(y_[k]);, EXPR, STOREO);        \
    } else if (s[0] == so_ && s[1] == si_ && s[2] == 0) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict x_ = (const TI *)d[1];                                                   \
      const CTI b = LOADI(*(const TI *)d[2]);                                                     \
      CT_STREAM_ROW(fname, 3, TO, o_, CTI a = LOADI(x_[k]);, EXPR, STOREO);                              \
    } else if (s[0] == so_ && s[1] == 0 && s[2] == si_) {                                         \
      TO *restrict o_ = (TO *)d[0];                                                               \
      const TI *restrict y_ = (const TI *)d[2];                                                   \
      const CTI a = LOADI(*(const TI *)d[1]);                                                     \
      CT_STREAM_ROW(fname, 3, TO, o_, CTI b = LOADI(y_[k]);, EXPR, STOREO);                              \
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
      CT_STREAM_ROW(fname, 4, TO, o_, CTI a = LOADI(x_[k]); CTI b = LOADI(y_[k]); CTI c = LOADI(z_[k]);, EXPR, STOREO); \
    } else {                                                                                      \
      fname(d, s, n, ctx);                                                                        \
    }                                                                                             \
  }                                                                                               \
  CT_LOOP_ELEMENTWISE(fname, TI)

#endif
