/* ISA dispatch (core/cpu_isa.h): the hand-written AVX2 / AVX-512 variants and the portable code they stand
   in for give the same bits, so that the CPU a result was computed on never shows in it (torch's own
   AVX2 and DEFAULT kernels agree on these ops, except where said below). Each kernel runs at the CPU's
   level and again forced to the generic one, in this process (ct__cpu_force_isa) and in a child started
   with CTORCH_ISA=generic (the environment variable, read once). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/cpu_isa.h"

#define N 100003 /* a partial vector and a partial block at the end of every row */

static float *inputs(void) {
  float *v = malloc(N * sizeof *v);
  if (!v) return NULL;
  uint32_t s = 12345u;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u;
    v[i] = (float)(s >> 8) * (8.0f / 16777216.0f) - 4.0f;
  }
  v[17] = INFINITY;
  v[4099] = -0.0f;
  return v;
}

/* The kernels whose variants must agree bit for bit: random draws (mt19937's twist and temper, the
   float32 Box-Muller block of torch's AVX2 normal fill and its scalar form, float64's FMA copy), the
   float32 max (minmax_avx2.c / minmax_avx512.c against the generic 16-lane loop), var (Welford in
   vector lanes against one by one), cumsum (the vector prefix pass), and the plain loops of add and sum
   (compiled per level by target_clones, bound at load time: they must agree too). */
enum { K_RANDN32, K_RANDN64, K_RAND32, K_MAX, K_VAR, K_CUMSUM, K_ADD, K_SUM, K_EXACT, K_EXP = K_EXACT, K_COUNT };
static const char *const names[K_COUNT] = {"randn f32", "randn f64", "rand f32", "max f32", "var f32",
                                           "cumsum f32", "add f32", "sum f32", "exp f32"};

static ct_tensor *run(int k, const ct_tensor *x, const ct_tensor *y) {
  if (k <= K_RAND32) ct_manual_seed(20240611);
  switch (k) {
    case K_RANDN32: return ct_randn(CT_SHAPE(N), NULL);
    case K_RANDN64: return ct_randn(CT_SHAPE(N), &(ct_random_opts){.dtype = CT_FLOAT64});
    case K_RAND32: return ct_rand(CT_SHAPE(N), NULL);
    case K_MAX: return ct_max(x);
    case K_VAR: return ct_var(x, NULL);
    case K_CUMSUM: return ct_cumsum(x, 0, NULL);
    case K_ADD: return ct_add(x, y, NULL);
    case K_SUM: return ct_sum(x, NULL);
    default: return ct_exp(x);
  }
}

/* The result's bytes as float64 values (any float dtype converts exactly). */
static double *values(const ct_tensor *t) {
  int64_t n = ct_numel(t);
  double *d = malloc((size_t)n * sizeof *d);
  if (d && ct_copy_to_buffer(t, d, CT_FLOAT64, (size_t)n * sizeof *d) != CT_OK) {
    free(d);
    return NULL;
  }
  return d;
}

static uint64_t fnv(const double *d, int64_t n) {
  uint64_t h = 1469598103934665603ull;
  const unsigned char *p = (const unsigned char *)d;
  for (size_t i = 0; i < (size_t)n * sizeof *d; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/* Hashes of every kernel's result at the current level. */
static void hashes(uint64_t h[K_COUNT], const ct_tensor *x, const ct_tensor *y) {
  for (int k = 0; k < K_COUNT; k++) {
    ct_tensor *r = run(k, x, y);
    double *d = r ? values(r) : NULL;
    h[k] = d ? fnv(d, ct_numel(r)) : 0;
    free(d);
    ct_release(r);
  }
}

/* ulps between two floats of the same sign */
static int64_t ulps(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  return ia > ib ? (int64_t)ia - ib : (int64_t)ib - ia;
}

/* SLEEF's exp in AVX2 (torch's Vectorized<float>::exp, with FMA) and its portable scalar form (without
   FMA) are different evaluations of the same u10 algorithm: the generic level is within 1 ulp, not the
   same bits (torch's DEFAULT build calls std::exp there, again other bits). */
static void check_exp_close(const ct_tensor *x) {
  ct_tensor *a = ct_exp(x);
  ct__cpu_force_isa(CT_ISA_GENERIC);
  ct_tensor *b = ct_exp(x);
  ct__cpu_force_isa(-1);
  double *da = a ? values(a) : NULL, *db = b ? values(b) : NULL;
  CHECK(da && db);
  int64_t worst = 0;
  for (int i = 0; da && db && i < N; i++) {
    int64_t u = ulps((float)da[i], (float)db[i]);
    if (u > worst) worst = u;
  }
  CHECK(worst <= 1);
  CHECK(worst >= 1); /* and the forced level reached the kernel: its scalar SLEEF ran */
  free(da);
  free(db);
  ct_release(a);
  ct_release(b);
}

int main(int argc, char **argv) {
  float *v = inputs();
  CHECK(v != NULL);
  if (!v) return TEST_SUMMARY();
  ct_tensor *x = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(N), NULL);
  for (int i = 0; i < N; i++) v[i] = v[N - 1 - i] * 0.5f;
  ct_tensor *y = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(N), NULL);
  free(v);
  CHECK(x && y);
  uint64_t here[K_COUNT], generic[K_COUNT];
  if (argc > 1 && !strcmp(argv[1], "--child")) { /* started below with CTORCH_ISA=generic */
    if (ct__cpu_isa() != CT_ISA_GENERIC || ct__cpu_fma()) return 2;
    hashes(here, x, y);
    for (int k = 0; k < K_COUNT; k++) printf("%016llx\n", (unsigned long long)here[k]);
    ct_release(x);
    ct_release(y);
    return 0;
  }

  ct_isa level = ct__cpu_isa();
  if (level < CT_ISA_AVX2) printf("this CPU runs the generic level: nothing to compare\n");
  hashes(here, x, y);
  ct__cpu_force_isa(CT_ISA_GENERIC);
  CHECK_EQ_INT(ct__cpu_isa(), CT_ISA_GENERIC);
  CHECK(!ct__cpu_fma());
  hashes(generic, x, y);
  ct__cpu_force_isa(-1);
  CHECK_EQ_INT(ct__cpu_isa(), level);
  for (int k = 0; k < K_EXACT; k++) {
    if (here[k] != generic[k]) fprintf(stderr, "%s: the generic level gives other bits\n", names[k]);
    CHECK(here[k] != 0 && here[k] == generic[k]);
  }
  if (level >= CT_ISA_AVX2) check_exp_close(x);
  if (level == CT_ISA_AVX512) { /* the AVX2 variants too */
    uint64_t avx2[K_COUNT];
    ct__cpu_force_isa(CT_ISA_AVX2);
    hashes(avx2, x, y);
    ct__cpu_force_isa(-1);
    for (int k = 0; k < K_COUNT; k++) CHECK(avx2[k] == here[k]); /* exp too: SLEEF's FMA forms agree */
  }

  /* CTORCH_ISA=generic: the child's level is the generic one from its first call, its bits those above */
  char self[4096], cmd[4200];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  CHECK(len > 0);
  if (len > 0) {
    self[len] = 0;
    snprintf(cmd, sizeof cmd, "CTORCH_ISA=generic '%s' --child", self);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    int got = 0;
    char line[64];
    for (int k = 0; p && k < K_COUNT && fgets(line, sizeof line, p); k++, got++)
      CHECK(strtoull(line, NULL, 16) == generic[k]);
    CHECK_EQ_INT(got, K_COUNT);
    if (p) CHECK_EQ_INT(pclose(p), 0);
  }
  ct_release(x);
  ct_release(y);
  return TEST_SUMMARY();
}
