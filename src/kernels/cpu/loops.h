/* Generators of 1-D inner loops (ct_loop_fn) from a scalar expression. Each loop has a contiguous path
   the compiler vectorizes (restrict, simple body), a path for a broadcast (stride 0) operand, and the
   general strided path. EXPR sees the compute-type values a, b, c and the op's context `ctx`. */
#ifndef CTORCH_KERNELS_LOOPS_H
#define CTORCH_KERNELS_LOOPS_H

#include "iter/iter.h"
#include "kernels/cpu/dtypes.h"

/* Every kernel is compiled for x86-64-v4 (AVX-512), v3 (AVX2 + FMA) and the baseline, and the best one
   the CPU supports is picked at load time, so one binary runs on any x86-64 and uses its vector units. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CT_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CT_KERNEL_CLONES
#endif

/* Declares a generated loop elementwise to the engine at load time (see ct__loop_declare_elementwise): each
   generator below reads exactly one TI at every input address and computes the same EXPR in all its paths.
   A function with target clones has two addresses: the one code takes (through a PLT stub) and the resolved
   one that data holding it (the ops' loop tables) gets; both are declared. */
#if defined(__GNUC__)
#define CT_LOOP_ELEMENTWISE(fname, TI)                                                   \
  static ct_loop_fn const volatile fname##_addr_ = fname;                               \
  __attribute__((constructor)) static void fname##_declare_(void) {                     \
    ct__loop_declare_elementwise(fname, (int)sizeof(TI));                               \
    ct__loop_declare_elementwise(fname##_addr_, (int)sizeof(TI));                       \
  }
#else
#define CT_LOOP_ELEMENTWISE(fname, TI)
#endif

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
  CT_LOOP_ELEMENTWISE(fname, TI)

#endif
