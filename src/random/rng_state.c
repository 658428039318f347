/* get_state / set_state: PyTorch's CPUGeneratorImplState bytes, so states move between torch and
   ctorch in both directions. Layout (little-endian, 5056 bytes; the legacy form stops at 5048):
     0 u64 initial seed | 8 i32 left | 12 i32 seeded | 16 u64 next | 24 u64[624] state words |
     5016 f64 normal_x (0) | 5024 f64 cached double normal | 5032 f64 normal_rho (0) |
     5040 i32 cached-double valid | 5048 f32 cached float normal | 5052 u8 its valid flag. */
#include <math.h>

#include "random/generator.h"

#define STATE_BYTES 5056
#define LEGACY_BYTES 5048
#define OFF_STATE 24
#define OFF_NORMAL_X 5016
#define OFF_NORMAL_Y 5024
#define OFF_NORMAL_RHO 5032
#define OFF_NORMAL_VALID 5040
#define OFF_FLOAT 5048
#define OFF_FLOAT_VALID 5052

static void put_u64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint32_t get_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double get_f64(const uint8_t *p) {
  uint64_t u = get_u64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static void serialize(const ct_generator *g, uint8_t *b) {
  memset(b, 0, STATE_BYTES); /* padding and the dummy normal_x / normal_rho are zero, as in PyTorch */
  put_u64(b, g->mt.seed);
  put_u32(b + 8, (uint32_t)g->mt.left);
  put_u32(b + 12, g->mt.seeded ? 1u : 0u);
  put_u64(b + 16, g->mt.next);
  for (int i = 0; i < CT_MT_N; i++) put_u64(b + OFF_STATE + 8 * i, g->mt.state[i]);
  if (g->has_next_double) {
    uint64_t u;
    memcpy(&u, &g->next_double, sizeof u);
    put_u64(b + OFF_NORMAL_Y, u);
    put_u32(b + OFF_NORMAL_VALID, 1);
  }
  if (g->has_next_float) {
    uint32_t u;
    memcpy(&u, &g->next_float, sizeof u);
    put_u32(b + OFF_FLOAT, u);
    b[OFF_FLOAT_VALID] = 1;
  }
}

ct_tensor *ct_generator_get_state(ct_generator *g) {
  g = ct__gen_or_default(g);
  ct_tensor *t = ct__empty(1, (const int64_t[]){STATE_BYTES}, CT_UINT8, CT_DEVICE_CPU);
  if (!t) return NULL;
  ct__gen_lock(g);
  serialize(g, (uint8_t *)ct__tdata(t));
  ct__gen_unlock(g);
  return ct__own(t);
}

/* The state's bytes in logical order. PyTorch reads the raw memory from the data pointer; for a
   contiguous state (the only kind it produces) that is the same thing. Only dims of size > 1 move the
   index, and a tensor of at most 5056 elements has at most 12 of them. */
static void read_bytes(const ct_tensor *t, uint8_t *out) {
  const uint8_t *base = (const uint8_t *)ct__tdata(t);
  int64_t sizes[16], strides[16], idx[16] = {0};
  int nd = 0;
  for (int64_t d = 0; d < t->ndim; d++)
    if (t->sizes[d] > 1) {
      sizes[nd] = t->sizes[d];
      strides[nd++] = t->strides[d];
    }
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t off = 0;
    for (int d = 0; d < nd; d++) off += idx[d] * strides[d];
    out[i] = base[off];
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

ct_status ct_generator_set_state(ct_generator *g, const ct_tensor *state) {
  CT__NONNULL_STATUS(state);
  g = ct__gen_or_default(g);
  if (state->layout != CT_STRIDED || state->device_type != CT_CPU || state->dtype != CT_UINT8) {
    ct__error(CT_ERR_TYPE, "RNG state must be a torch.ByteTensor");
    return CT_ERR_TYPE;
  }
  int64_t n = state->numel;
  if (n != STATE_BYTES && n != LEGACY_BYTES) {
    ct__error(CT_ERR_RUNTIME,
              "Expected either a CPUGeneratorImplStateLegacy of size %d or a CPUGeneratorImplState of size %d but "
              "found the input RNG state size to be %lld",
              LEGACY_BYTES, STATE_BYTES, (long long)n);
    return CT_ERR_RUNTIME;
  }
  uint8_t b[STATE_BYTES];
  read_bytes(state, b);

  ct_mt19937 mt;
  mt.seed = get_u64(b);
  mt.left = (int32_t)get_u32(b + 8);
  mt.seeded = get_u32(b + 12) != 0;
  mt.next = (uint32_t)get_u64(b + 16); /* PyTorch narrows the saved u64 to the engine's u32 */
  for (int i = 0; i < CT_MT_N; i++) mt.state[i] = (uint32_t)get_u64(b + OFF_STATE + 8 * i);
  if (!ct__mt_valid(&mt)) {
    ct__error(CT_ERR_RUNTIME, "Invalid mt19937 state");
    return CT_ERR_RUNTIME;
  }
  bool has_double = get_u32(b + OFF_NORMAL_VALID) != 0;
  double next_double = 0.0;
  bool has_float = false;
  float next_float = 0.0f;
  if (n == STATE_BYTES) {
    next_double = get_f64(b + OFF_NORMAL_Y);
    has_float = b[OFF_FLOAT_VALID] != 0;
    uint32_t u = get_u32(b + OFF_FLOAT);
    memcpy(&next_float, &u, sizeof next_float);
  } else if (has_double) {
    /* The legacy form kept Box-Muller's inputs: the cached value is rho * sin(2 pi x). */
    next_double = get_f64(b + OFF_NORMAL_RHO) * sin(2.0 * 3.14159265358979323846 * get_f64(b + OFF_NORMAL_X));
  }
  ct__gen_lock(g);
  g->mt = mt;
  g->has_next_double = has_double;
  g->next_double = has_double ? next_double : 0.0;
  g->has_next_float = has_float;
  g->next_float = has_float ? next_float : 0.0f;
  ct__gen_unlock(g);
  return CT_OK;
}

ct_tensor *ct_get_rng_state(void) { return ct_generator_get_state(NULL); }
ct_status ct_set_rng_state(const ct_tensor *state) { return ct_generator_set_state(NULL, state); }
