/* Differential printing test, C side: makes seeded random tensors (every dtype, 0-D to 6-D, empty,
   non-contiguous views, special values, scales 1e-12..1e12, varied print options) and writes, per
   case, one tab-separated line: the options, the tensor's exact spec (dtype, device, shape, strides,
   offset, storage bytes in hex) and what ct_to_string returned (hex), for print_diff.py to replay
   through torch 1.13.
   Usage: print_gen SEED COUNT > cases.tsv */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/half.h"
#include "core/internal.h"

static uint64_t rng_state;

static uint64_t next_u64(void) { /* splitmix64 */
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static int64_t randint(int64_t lo, int64_t hi) { return lo + (int64_t)(next_u64() % (uint64_t)(hi - lo + 1)); }
static double uniform(void) { return (double)(next_u64() >> 11) * 0x1.0p-53; }
static bool chance(double p) { return uniform() < p; }
static double normal(void) {
  double u = uniform() + 1e-300, v = uniform();
  return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* How a case draws its floating values. */
enum { V_NORMAL, V_INTEGRAL, V_SPECIAL_MIX, V_ONLY_SPECIAL, V_TIES, V_RAW_BITS, V_SAME_SIGN, V_FEW, V_COUNT };

static double special_value(ct_dtype part) {
  const bool f64 = part == CT_FLOAT64;
  const bool f16 = part == CT_FLOAT16;
  const double table[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0,
                          f64 ? 4.9e-324 : f16 ? 5.96e-8 : 1.4e-45,  /* smallest denormal */
                          f64 ? 1.7e308 : f16 ? 65504 : 3.4e38,      /* huge */
                          f64 ? 2.3e-308 : f16 ? 6.1e-5 : 1.2e-38,   /* tiny normal */
                          1.0, -1.0, 1e8, 1e-4, 9.99999e-5, 1000.0, 1001.0, 100000000.0, 123456789.0};
  return table[randint(0, (int64_t)(sizeof table / sizeof table[0]) - 1)];
}

static double float_value(int mode, double scale, ct_dtype part) {
  static const double ties[] = {0.5, 1.5, 2.5, 0.125, 0.375, 0.00005, 0.00015, 1.00005, 2.00025, 0.25, 1e-4,
                                12345.5, 0.045, 0.0625, 3.0000500000000001};
  switch (mode) {
    case V_NORMAL: return normal() * scale;
    case V_INTEGRAL: return round(normal() * scale);
    case V_SPECIAL_MIX: return chance(0.25) ? special_value(part) : normal() * scale;
    case V_ONLY_SPECIAL: return chance(0.5) ? special_value(part) : (chance(0.5) ? 0.0 : NAN);
    case V_TIES: return ties[randint(0, (int64_t)(sizeof ties / sizeof ties[0]) - 1)] * (chance(0.3) ? -1 : 1);
    case V_SAME_SIGN: return (0.5 + uniform()) * scale;
    default: return (double)randint(-3, 3) * scale;
  }
}

static void write_float(ct_dtype part, char *p, double v, bool raw) {
  switch (part) {
    case CT_FLOAT16: {
      uint16_t h = raw ? (uint16_t)next_u64() : ct__float_to_half((float)v);
      memcpy(p, &h, 2);
      break;
    }
    case CT_BFLOAT16: {
      uint16_t h = raw ? (uint16_t)next_u64() : ct__float_to_bfloat16((float)v);
      memcpy(p, &h, 2);
      break;
    }
    case CT_FLOAT32: {
      float f = (float)v;
      if (raw) {
        uint32_t u = (uint32_t)next_u64();
        memcpy(p, &u, 4);
      } else {
        memcpy(p, &f, 4);
      }
      break;
    }
    default: {
      if (raw) {
        uint64_t u = next_u64();
        memcpy(p, &u, 8);
      } else {
        memcpy(p, &v, 8);
      }
      break;
    }
  }
}

static void write_int(ct_dtype dt, char *p, int mode) {
  int64_t v;
  if (mode == 0)
    v = randint(-10, 10);
  else if (mode == 1)
    v = (int64_t)next_u64();
  else if (mode == 2)
    v = chance(0.5) ? (chance(0.5) ? INT64_MIN : INT64_MAX) : randint(-1000, 1000);
  else
    v = randint(0, 100000);
  switch (dt) {
    case CT_BOOL: *(uint8_t *)p = (uint8_t)(v & 1); break;
    case CT_UINT8: *(uint8_t *)p = (uint8_t)v; break;
    case CT_INT8: *(int8_t *)p = (int8_t)v; break;
    case CT_INT16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case CT_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
  }
}

static void hex_out(const unsigned char *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    putchar(digits[p[i] >> 4]);
    putchar(digits[p[i] & 15]);
  }
  if (n == 0) putchar('-');
}

static void list_out(int64_t n, const int64_t *v) {
  if (n == 0) putchar('-');
  for (int64_t i = 0; i < n; i++) printf(i ? ",%" PRId64 : "%" PRId64, v[i]);
}

/* Sizes for a case: mostly small, sometimes past the threshold, sometimes empty. */
static int64_t pick_shape(int64_t *sizes) {
  const int64_t ndim = chance(0.1) ? 0 : randint(1, chance(0.3) ? 6 : 3);
  const int kind = (int)randint(0, 9);
  int64_t numel = 1;
  for (int64_t d = 0; d < ndim; d++) {
    if (kind == 0)
      sizes[d] = randint(0, 3); /* may be empty */
    else if (kind <= 2 && ndim <= 3)
      sizes[d] = randint(1, ndim == 1 ? 3000 : ndim == 2 ? 60 : 14); /* often summarized */
    else
      sizes[d] = randint(1, ndim <= 2 ? 12 : 4);
    numel *= sizes[d];
  }
  return numel > 6000 ? pick_shape(sizes) : ndim;
}

static void one_case(int64_t id) {
  /* print options (and the default dtype) */
  ct_print_options po = {0};
  int64_t prec = 4, thr = 1000, edge = 3, lw = 80;
  int sci = 0;
  if (chance(0.5)) {
    if (chance(0.5)) prec = randint(0, 8);
    if (chance(0.4)) thr = chance(0.2) ? CT_PRINT_THRESHOLD_INF : randint(0, 300);
    if (chance(0.4)) edge = randint(1, 5);
    if (chance(0.4)) lw = randint(10, 200);
    if (chance(0.4)) sci = (int)randint(1, 2);
    if (chance(0.05)) prec = randint(9, 40);  /* long fixed-point texts */
    if (chance(0.05)) lw = randint(-5, 9);    /* one element per line */
    if (chance(0.03)) thr = randint(-3, -1);  /* everything summarized */
    if (chance(0.02)) prec = -1; /* Python's format error, when a precision is used */
    if (chance(0.02)) edge = 0;  /* "..." then the whole vector; torch.stack's error for N-D */
  }
  po.precision = (ct_print_int){true, prec};
  po.threshold = (ct_print_int){true, thr};
  po.edgeitems = (ct_print_int){true, edge};
  po.linewidth = (ct_print_int){true, lw};
  po.sci_mode = (ct_sci_mode)sci;
  ct_set_printoptions(&po);
  const ct_dtype def = chance(0.15) ? CT_FLOAT64 : CT_FLOAT32;
  ct_set_default_dtype(def);

  /* the tensor: a view (permuted, stepped, expanded, offset) of a random storage */
  const ct_dtype dt = (ct_dtype)randint(CT_BOOL, CT_COMPLEX128);
  const bool meta = chance(0.01);
  int64_t sizes[6], strides[6];
  const int64_t ndim = pick_shape(sizes);
  int64_t perm[6];
  for (int64_t d = 0; d < ndim; d++) perm[d] = d;
  const bool noncontig = chance(0.35);
  if (noncontig)
    for (int64_t d = ndim - 1; d > 0; d--) {
      int64_t j = randint(0, d), tmp = perm[d];
      perm[d] = perm[j], perm[j] = tmp;
    }
  int64_t stride = 1, numel = 1;
  for (int64_t k = ndim - 1; k >= 0; k--) {
    const int64_t d = perm[k];
    const int64_t step = noncontig ? randint(1, 3) : 1;
    strides[d] = noncontig && sizes[d] > 1 && chance(0.1) ? 0 : stride * step;
    stride *= (sizes[d] > 0 ? sizes[d] : 1) * step;
    numel *= sizes[d];
  }
  const int64_t offset = noncontig ? randint(0, 4) : 0;
  int64_t storage_elems = numel ? offset + 1 : 0;
  for (int64_t d = 0; d < ndim && numel; d++) storage_elems += (sizes[d] - 1) * strides[d];

  ct_tensor *base = ct_empty(CT_SHAPE(storage_elems), &(ct_tensor_opts){.dtype = dt,
                                                                     .device = meta ? CT_DEVICE_META : CT_DEVICE_CPU});
  const size_t isz = ct__itemsize(dt);
  char *data = meta ? NULL : ct_data_ptr(base);
  if (data) {
    const bool cplx = ct_dtype_is_complex(dt);
    const ct_dtype part = cplx ? ct_dtype_to_real(dt) : dt;
    const int mode = (int)randint(0, V_COUNT - 1), imode = (int)randint(0, V_COUNT - 1), int_mode = (int)randint(0, 3);
    const double scale = pow(10.0, (double)randint(-12, 12)), iscale = pow(10.0, (double)randint(-12, 12));
    for (int64_t i = 0; i < storage_elems; i++) {
      char *p = data + i * (int64_t)isz;
      if (ct_dtype_is_floating_point(dt) || cplx) {
        write_float(part, p, float_value(mode, scale, part), mode == V_RAW_BITS);
        if (cplx) write_float(part, p + isz / 2, float_value(imode, iscale, part), imode == V_RAW_BITS);
      } else {
        write_int(dt, p, int_mode);
      }
    }
  }
  ct_tensor *t = ct__view(base, ndim, sizes, strides, offset);
  if ((ct_dtype_is_floating_point(dt) || ct_dtype_is_complex(dt)) && chance(0.1)) ct_requires_grad_(t, true);

  printf("%" PRId64 "\t%" PRId64 "\t", id, prec);
  if (thr == CT_PRINT_THRESHOLD_INF)
    printf("inf");
  else
    printf("%" PRId64, thr);
  printf("\t%" PRId64 "\t%" PRId64 "\t%d\t%s\t%s\t%s\t%d\t", edge, lw, sci, ct_dtype_name(def), ct_dtype_name(dt),
         meta ? "meta" : "cpu", ct_requires_grad(t));
  list_out(ndim, sizes);
  putchar('\t');
  list_out(ndim, strides);
  printf("\t%" PRId64 "\t", offset);
  hex_out((const unsigned char *)data, data ? (size_t)storage_elems * isz : 0);
  putchar('\t');
  char *s = ct_to_string(t);
  if (s) {
    printf("OK:");
    hex_out((const unsigned char *)s, strlen(s));
    free(s);
  } else {
    printf("ERR:%s:", ct_error_kind_name(ct_last_error()));
    hex_out((const unsigned char *)ct_last_error_message(), strlen(ct_last_error_message()));
    ct_clear_error();
  }
  putchar('\n');
  ct_release(t);
  ct_release(base);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s SEED COUNT\n", argv[0]);
    return 2;
  }
  rng_state = strtoull(argv[1], NULL, 10);
  const int64_t count = strtoll(argv[2], NULL, 10);
  for (int64_t i = 0; i < count; i++) one_case(i);
  return 0;
}
