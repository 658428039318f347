/* Generator objects: creation, reference counting, seeding, the default generator. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "random/generator.h"

static ct_generator default_gen;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

/* c10's getNonDeterministicRandom on Linux: 64 bits from /dev/urandom. */
static uint64_t nondeterministic_seed(void) {
  uint64_t s = 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t got = read(fd, &s, sizeof s);
    close(fd);
    if (got == (ssize_t)sizeof s) return s;
  }
  /* No urandom (a sandbox): time and address bits still differ between runs. */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ (uint64_t)(uintptr_t)&ts;
}

static void gen_init(ct_generator *g, uint64_t seed) {
  atomic_init(&g->refcount, 1);
  pthread_mutex_init(&g->mutex, NULL);
  g->is_default = false;
  ct__gen_reseed_locked(g, seed);
}

static void default_init(void) {
  gen_init(&default_gen, nondeterministic_seed());
  default_gen.is_default = true;
}

ct_generator *ct__gen_or_default(ct_generator *g) {
  if (g) return g;
  pthread_once(&default_once, default_init);
  return &default_gen;
}

void ct__gen_reseed_locked(ct_generator *g, uint64_t seed) {
  ct__mt_seed(&g->mt, seed);
  g->has_next_double = false;
  g->has_next_float = false;
  g->next_double = 0.0;
  g->next_float = 0.0f;
}

double ct__gen_normal(ct_generator *g, double mean, double std) {
  double z;
  if (g->has_next_double) {
    g->has_next_double = false;
    z = g->next_double;
  } else {
    double u1 = ct__gen_uniform_double(g);
    double u2 = ct__gen_uniform_double(g);
    double r = sqrt(-2.0 * log(1.0 - u2));
    double theta = 2.0 * 3.14159265358979323846 * u1;
    g->next_double = r * sin(theta);
    g->has_next_double = true;
    z = r * cos(theta);
  }
  /* transformation::normal, fused by the AVX2 build PyTorch runs */
  return fma(z, std, mean);
}

/* ---- public API ---- */

ct_generator *ct_generator_create(ct_device device) {
  if (device.type != CT_DEVICE_TYPE_UNSET && device.type != CT_CPU) {
    ct__error(CT_ERR_RUNTIME, "Device type %s is not supported for torch.Generator() api.",
              device.type == CT_CUDA ? "CUDA" : "META");
    return NULL;
  }
  ct_generator *g = ct__malloc(sizeof *g);
  if (!g) return NULL;
  gen_init(g, CT_DEFAULT_RNG_SEED);
  return g;
}

ct_generator *ct_default_generator(void) { return ct__gen_or_default(NULL); }

ct_generator *ct_generator_retain(ct_generator *g) {
  if (g && !g->is_default) atomic_fetch_add(&g->refcount, 1);
  return g;
}

void ct_generator_release(ct_generator *g) {
  if (!g || g->is_default) return;
  if (atomic_fetch_sub(&g->refcount, 1) == 1) {
    pthread_mutex_destroy(&g->mutex);
    ct__free(g);
  }
}

ct_device ct_generator_device(const ct_generator *g) {
  (void)g;
  return CT_DEVICE_CPU;
}

ct_status ct_generator_manual_seed_u64(ct_generator *g, uint64_t seed) {
  g = ct__gen_or_default(g);
  ct__gen_lock(g);
  ct__gen_reseed_locked(g, seed);
  ct__gen_unlock(g);
  return CT_OK;
}

/* A negative seed is stored as its two's complement, as PyTorch's unpack_uint64 does. */
ct_status ct_generator_manual_seed(ct_generator *g, int64_t seed) {
  return ct_generator_manual_seed_u64(g, (uint64_t)seed);
}

/* Python's int(seed) for the number kinds, then PyTorch's range check. */
ct_status ct_generator_manual_seed_scalar(ct_generator *g, ct_scalar seed) {
  switch (seed.kind) {
    case CT_SCALAR_BOOL: return ct_generator_manual_seed_u64(g, seed.v.b ? 1u : 0u);
    case CT_SCALAR_INT: return ct_generator_manual_seed(g, seed.v.i);
    case CT_SCALAR_DOUBLE: {
      double d = seed.v.d;
      if (isnan(d)) {
        ct__error(CT_ERR_VALUE, "cannot convert float NaN to integer");
        return CT_ERR_VALUE;
      }
      if (isinf(d)) {
        ct__error(CT_ERR_OVERFLOW, "cannot convert float infinity to integer");
        return CT_ERR_OVERFLOW;
      }
      d = trunc(d);
      /* [-2^63, 2^64): the union of the signed and the unsigned 64-bit ranges */
      if (d < -0x1p63 || d >= 0x1p64) {
        ct__error(CT_ERR_RUNTIME, "Overflow when unpacking long");
        return CT_ERR_RUNTIME;
      }
      return d < 0 ? ct_generator_manual_seed(g, (int64_t)d) : ct_generator_manual_seed_u64(g, (uint64_t)d);
    }
    default:
      ct__error(CT_ERR_TYPE, "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
      return CT_ERR_TYPE;
  }
}

uint64_t ct_generator_seed(ct_generator *g) {
  g = ct__gen_or_default(g);
  uint64_t s = nondeterministic_seed();
  ct__gen_lock(g);
  ct__gen_reseed_locked(g, s);
  ct__gen_unlock(g);
  return s;
}

uint64_t ct_generator_initial_seed(ct_generator *g) {
  g = ct__gen_or_default(g);
  ct__gen_lock(g);
  uint64_t s = g->mt.seed;
  ct__gen_unlock(g);
  return s;
}

ct_status ct_manual_seed(int64_t seed) { return ct_generator_manual_seed(NULL, seed); }
ct_status ct_manual_seed_u64(uint64_t seed) { return ct_generator_manual_seed_u64(NULL, seed); }
ct_status ct_manual_seed_scalar(ct_scalar seed) { return ct_generator_manual_seed_scalar(NULL, seed); }
uint64_t ct_seed(void) { return ct_generator_seed(NULL); }
uint64_t ct_initial_seed(void) { return ct_generator_initial_seed(NULL); }
