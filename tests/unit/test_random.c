/* Generators, torch.random and the sampling ops: API behaviour, PyTorch's error messages, state
   bytes, thread safety, failure atomicity and allocation failures. Every expected value was printed
   by torch 1.13 (the bit-level comparison over many seeds, sizes and layouts is test_random_diff /
   tests/diff/random_diff.py). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "core/internal.h"
#include "random/boxmuller.h"
#include "random/generator.h"

static const float *fdata(const ct_tensor *t) { return (const float *)ct_data_ptr(t); }
static const double *ddata(const ct_tensor *t) { return (const double *)ct_data_ptr(t); }
static const uint8_t *bdata(const ct_tensor *t) { return (const uint8_t *)ct_data_ptr(t); }

/* A float32 tensor holding the given values (the creation helpers from data live in another area). */
static ct_tensor *filled(ct_shape shape, const float *v) {
  ct_tensor *t = ct_empty(shape, NULL);
  memcpy(ct_data_ptr(t), v, (size_t)ct_numel(t) * sizeof(float));
  return t;
}

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void test_known_values(void) {
  /* torch.manual_seed(0); torch.randn(2, 3) */
  ct_manual_seed(0);
  ct_tensor *t = ct_randn(CT_SHAPE(2, 3), NULL);
  CHECK_SHAPE(t, 2, 3);
  const float want[6] = {0x1.8a7eb8p+0f, -0x1.2c78ap-2f, -0x1.16e292p+1f, 0x1.23096cp-1f, -0x1.15a342p+0f, -0x1.660a5ap+0f};
  for (int i = 0; i < 6; i++) CHECK(fdata(t)[i] == want[i]);
  ct_release(t);
  /* torch.manual_seed(0); torch.rand(4), torch.rand(3, dtype=float64) */
  ct_manual_seed(0);
  t = ct_rand(CT_SHAPE(4), NULL);
  CHECK(fdata(t)[0] == 0.49625658988952637f && fdata(t)[3] == 0.13203048706054688f);
  ct_release(t);
  ct_manual_seed(0);
  t = ct_rand(CT_SHAPE(3), &(ct_random_opts){.dtype = CT_FLOAT64});
  CHECK(ddata(t)[0] == 0.9700530018065531 && ddata(t)[2] == 0.45938294312745087);
  ct_release(t);
  /* scalar path (5 < 16) and fill path (17) */
  ct_manual_seed(3);
  t = ct_randn(CT_SHAPE(5), NULL);
  CHECK(fdata(t)[0] == 0x1.9b47p-1f && fdata(t)[3] == -0x1.3a394p-1f);
  ct_release(t);
  ct_manual_seed(3);
  t = ct_randn(CT_SHAPE(17), &(ct_random_opts){.dtype = CT_FLOAT64});
  CHECK(ddata(t)[0] == -0.21774879177876416 && ddata(t)[16] == 0.028752867895017985);
  ct_release(t);
  /* randint, randperm */
  ct_manual_seed(42);
  t = ct_randint(0, 10, CT_SHAPE(8), NULL);
  CHECK_EQ_INT(ct_dtype_of(t), CT_INT64);
  const int64_t ri[8] = {2, 7, 6, 4, 6, 5, 0, 4};
  for (int i = 0; i < 8; i++) CHECK_EQ_INT(((const int64_t *)ct_data_ptr(t))[i], ri[i]);
  ct_release(t);
  t = ct_randperm(6, NULL);
  const int64_t rp[6] = {4, 0, 1, 2, 3, 5};
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(((const int64_t *)ct_data_ptr(t))[i], rp[i]);
  ct_release(t);
}

static void test_other_distributions(void) {
  ct_manual_seed(9);
  ct_tensor *t = ct_empty(CT_SHAPE(4), NULL);
  CHECK_EQ_INT(ct_exponential_(t, 2, NULL), CT_OK);
  CHECK(fdata(t)[0] == 0.14136455953121185f && fdata(t)[3] == 0.04326038807630539f);
  CHECK_EQ_INT(ct_geometric_(t, 0.3, NULL), CT_OK);
  CHECK(fdata(t)[0] == 9.0f && fdata(t)[1] == 2.0f && fdata(t)[2] == 7.0f && fdata(t)[3] == 7.0f);
  ct_release(t);
  t = ct_empty(CT_SHAPE(3), NULL);
  CHECK_EQ_INT(ct_cauchy_(t, 0, 1, NULL), CT_OK);
  CHECK(fdata(t)[0] == -1.900622010231018f && fdata(t)[2] == 0.18414844572544098f);
  /* log_normal_() with PyTorch's defaults mean=1, std=2 */
  CHECK_EQ_INT(ct_log_normal_(t, 1, 2, NULL), CT_OK);
  CHECK(fdata(t)[0] == 1.4417096376419067f && fdata(t)[1] == 34.324642181396484f);
  ct_release(t);
  ct_manual_seed(9);
  /* random_ forms: int16 [0, 32767], float16 [-10, 10), int64 full 64-bit range */
  t = ct_empty(CT_SHAPE(5), &(ct_tensor_opts){.dtype = CT_INT16});
  CHECK_EQ_INT(ct_random_(t, NULL), CT_OK);
  CHECK_EQ_INT(((const int16_t *)ct_data_ptr(t))[0], 24958);
  CHECK_EQ_INT(((const int16_t *)ct_data_ptr(t))[4], 32694);
  ct_release(t);
  t = ct_empty(CT_SHAPE(5), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  CHECK_EQ_INT(ct_random_from_to_(t, -10, 10, NULL), CT_OK);
  CHECK_EQ_INT(((const uint16_t *)ct_data_ptr(t))[0], 0xc000); /* -2.0 */
  CHECK_EQ_INT(((const uint16_t *)ct_data_ptr(t))[4], 0xc880); /* -9.0 */
  ct_release(t);
  t = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK_EQ_INT(ct_random_from_(t, INT64_MIN, NULL), CT_OK);
  CHECK_EQ_INT(((const int64_t *)ct_data_ptr(t))[0], INT64_C(4031695932055720372));
  ct_release(t);
  /* torch.normal(zeros(3), ones(3) * 2) after manual_seed(3) */
  ct_manual_seed(3);
  ct_tensor *m = filled(CT_SHAPE(3), (const float[]){0, 0, 0});
  ct_tensor *s = filled(CT_SHAPE(3), (const float[]){2, 2, 2});
  t = ct_normal(m, s, NULL);
  CHECK(fdata(t)[0] == 1.6065521240234375f && fdata(t)[2] == 0.17795619368553162f);
  ct_release(t);
  ct_release(m);
  ct_release(s);
}

/* A transposed view fills its storage in order, a sliced one in index order (torch: uniform_ on
   empty(4, 3).t() equals rand(12) in storage order). */
static void test_layouts(void) {
  ct_tensor *base = ct_empty(CT_SHAPE(4, 3), NULL);
  ct_tensor *tr = ct__view(base, 2, (const int64_t[]){3, 4}, (const int64_t[]){1, 3}, 0);
  ct_manual_seed(0);
  CHECK_EQ_INT(ct_uniform_(tr, 0, 1, NULL), CT_OK);
  ct_manual_seed(0);
  ct_tensor *ref = ct_rand(CT_SHAPE(12), NULL);
  CHECK(memcmp(ct_data_ptr(base), ct_data_ptr(ref), 12 * sizeof(float)) == 0);
  ct_release(tr);
  ct_release(ref);
  /* empty(3, 4)[:, ::2].uniform_() */
  ct_tensor *sl = ct__view(base, 2, (const int64_t[]){3, 2}, (const int64_t[]){4, 2}, 0);
  ct_manual_seed(0);
  CHECK_EQ_INT(ct_uniform_(sl, 0, 1, NULL), CT_OK);
  CHECK(fdata(base)[0] == 0.49625658988952637f && fdata(base)[2] == 0.7682217955589294f);
  CHECK(fdata(base)[4] == 0.08847743272781372f && fdata(base)[10] == 0.6340786814689636f);
  ct_release(sl);
  /* rand_like keeps a dense input's strides; randn_like of a non-dense one gets its stride order */
  ct_tensor *t2 = ct__view(base, 2, (const int64_t[]){3, 4}, (const int64_t[]){1, 3}, 0);
  ct_tensor *like = ct_rand_like(t2, NULL);
  CHECK_STRIDES(like, 1, 3);
  ct_release(like);
  ct_tensor *nd = ct__view(base, 2, (const int64_t[]){2, 3}, (const int64_t[]){2, 4}, 0);
  like = ct_randn_like(nd, NULL);
  CHECK_STRIDES(like, 1, 2);
  ct_release(like);
  ct_release(nd);
  /* bernoulli(p) is contiguous whatever p's layout */
  like = ct_bernoulli_p(t2, 0.5, NULL);
  CHECK_STRIDES(like, 4, 1);
  ct_release(like);
  ct_release(t2);
  ct_release(base);
}

static void test_generators(void) {
  ct_generator *g = ct_generator_create(CT_DEVICE_CPU);
  CHECK(ct_generator_initial_seed(g) == UINT64_C(67280421310721));
  ct_tensor *t = ct_rand(CT_SHAPE(2), &(ct_random_opts){.generator = g});
  CHECK(fdata(t)[0] == 0.267295241355896f && fdata(t)[1] == 0.8725283145904541f);
  ct_release(t);
  CHECK(ct_generator_retain(g) == g);
  ct_generator_release(g);
  /* manual_seed's range: negative seeds are two's complement; the scalar form is Python's int() */
  CHECK_EQ_INT(ct_generator_manual_seed(g, -1), CT_OK);
  CHECK(ct_generator_initial_seed(g) == UINT64_MAX);
  CHECK_EQ_INT(ct_generator_manual_seed(g, INT64_MIN), CT_OK);
  CHECK(ct_generator_initial_seed(g) == UINT64_C(9223372036854775808));
  CHECK_EQ_INT(ct_generator_manual_seed_u64(g, UINT64_MAX), CT_OK);
  CHECK(ct_generator_initial_seed(g) == UINT64_MAX);
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(1.7)), CT_OK);
  CHECK(ct_generator_initial_seed(g) == 1);
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_BOOLV(true)), CT_OK);
  CHECK(ct_generator_initial_seed(g) == 1);
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(0x1p64)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Overflow when unpacking long");
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(-0x1p63 - 4096)), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Overflow when unpacking long");
  /* Python's int(inf) raises OverflowError, as torch.manual_seed(float('inf')) does */
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(INFINITY)), CT_ERR_OVERFLOW);
  CHECK_ERROR(CT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(-INFINITY)), CT_ERR_OVERFLOW);
  CHECK_ERROR(CT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  CHECK_STR(ct_error_kind_name(CT_ERR_OVERFLOW), "OverflowError");
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_DOUBLE(NAN)), CT_ERR_VALUE);
  CHECK_ERROR(CT_ERR_VALUE, "cannot convert float NaN to integer");
  CHECK_EQ_INT(ct_generator_manual_seed_scalar(g, CT_COMPLEX(1, 2)), CT_ERR_TYPE);
  CHECK_ERROR(CT_ERR_TYPE, "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
  CHECK(ct_generator_initial_seed(g) == 1); /* failures leave the seed alone */
  ct_generator_release(g);
  CHECK(ct_generator_create(CT_DEVICE_CUDA(0)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device type CUDA is not supported for torch.Generator() api.");
  /* seed(): non-deterministic, reported by initial_seed */
  uint64_t a = ct_seed(), b = ct_seed();
  CHECK(a != b);
  CHECK(ct_initial_seed() == b);
  CHECK(ct_default_generator() == ct_default_generator());
}

static void test_state(void) {
  /* torch.manual_seed(42); torch.randn(3); torch.get_rng_state() */
  ct_manual_seed(42);
  ct_tensor *r = ct_randn(CT_SHAPE(3), NULL);
  CHECK(fdata(r)[0] == 0.33669036626815796f && fdata(r)[2] == 0.23446236550807953f);
  ct_release(r);
  ct_tensor *s = ct_get_rng_state();
  CHECK_EQ_INT(ct_numel(s), 5056);
  CHECK_EQ_INT(ct_dtype_of(s), CT_UINT8);
  const uint8_t *b = bdata(s);
  CHECK(le64(b) == 42);
  CHECK_EQ_INT(b[8] | b[9] << 8, 617); /* left: 8 draws after seeding */
  CHECK_EQ_INT(b[12], 1);              /* seeded */
  CHECK(le64(b + 16) == 8);            /* next */
  CHECK(le64(b + 5024) == UINT64_C(0x3fcd7b8d7b0a7c22)); /* the cached normal */
  CHECK_EQ_INT(b[5040], 1);
  CHECK_EQ_INT(b[5052], 0);
  /* the round trip: the same next values */
  ct_tensor *x = ct_randn(CT_SHAPE(40), NULL);
  CHECK_EQ_INT(ct_set_rng_state(s), CT_OK);
  ct_tensor *y = ct_randn(CT_SHAPE(40), NULL);
  CHECK(memcmp(ct_data_ptr(x), ct_data_ptr(y), 40 * sizeof(float)) == 0);
  ct_release(x);
  ct_release(y);
  /* PyTorch's errors */
  ct_tensor *bad = ct_empty(CT_SHAPE(5056), &(ct_tensor_opts){.dtype = CT_INT8});
  CHECK_EQ_INT(ct_set_rng_state(bad), CT_ERR_TYPE);
  CHECK_ERROR(CT_ERR_TYPE, "RNG state must be a torch.ByteTensor");
  ct_release(bad);
  bad = ct_empty(CT_SHAPE(10), &(ct_tensor_opts){.dtype = CT_UINT8});
  CHECK_EQ_INT(ct_set_rng_state(bad), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a CPUGeneratorImplState "
                              "of size 5056 but found the input RNG state size to be 10");
  ct_release(bad);
  bad = ct_empty(CT_SHAPE(5056), &(ct_tensor_opts){.dtype = CT_UINT8});
  memcpy(ct_data_ptr(bad), b, 5056);
  ((uint8_t *)ct_data_ptr(bad))[8] = 0; /* left = 0 ... */
  ((uint8_t *)ct_data_ptr(bad))[9] = 0;
  CHECK_EQ_INT(ct_set_rng_state(bad), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Invalid mt19937 state");
  /* the legacy 5048-byte form: the cached normal is rho * sin(2 pi x) */
  ct_tensor *legacy = ct__view(bad, 1, (const int64_t[]){5048}, (const int64_t[]){1}, 0);
  ((uint8_t *)ct_data_ptr(bad))[8] = 1;
  double x025 = 0.25, rho = 2.0;
  memcpy((uint8_t *)ct_data_ptr(bad) + 5016, &x025, 8);
  memcpy((uint8_t *)ct_data_ptr(bad) + 5032, &rho, 8);
  CHECK_EQ_INT(ct_set_rng_state(legacy), CT_OK);
  ct_tensor *s2 = ct_get_rng_state();
  double cached;
  memcpy(&cached, bdata(s2) + 5024, 8);
  CHECK(cached == 2.0);
  ct_release(s2);
  ct_release(legacy);
  ct_release(bad);
  ct_release(s);
}

static void draw_some(void *ctx) {
  (void)ctx;
  ct_tensor *t = ct_randn(CT_SHAPE(100), NULL);
  ct_release(t);
}

static void test_fork_rng(void) {
  ct_generator *g = ct_generator_create(CT_DEVICE_CPU);
  ct_manual_seed(5);
  ct_tensor *before = ct_get_rng_state();
  ct_tensor *gbefore = ct_generator_get_state(g);
  ct_rng_fork *f = ct_fork_rng_begin(&g, 1);
  ct_tensor *t = ct_randn(CT_SHAPE(3), &(ct_random_opts){.generator = g});
  ct_release(t);
  draw_some(NULL);
  CHECK_EQ_INT(ct_fork_rng_end(f), CT_OK);
  ct_tensor *after = ct_get_rng_state(), *gafter = ct_generator_get_state(g);
  CHECK(memcmp(ct_data_ptr(before), ct_data_ptr(after), 5056) == 0);
  CHECK(memcmp(ct_data_ptr(gbefore), ct_data_ptr(gafter), 5056) == 0);
  ct_release(after);
  CHECK_EQ_INT(ct_fork_rng(NULL, 0, draw_some, NULL), CT_OK);
  after = ct_get_rng_state();
  CHECK(memcmp(ct_data_ptr(before), ct_data_ptr(after), 5056) == 0);
  ct_release(after);
  ct_release(gafter);
  ct_release(gbefore);
  ct_release(before);
  ct_generator_release(g);
}

/* One generator used by several threads at once: every op is atomic, so each result is one segment
   of the sequential stream and the final state is that of the same number of draws. */
#define THREADS 4
#define OPS 50
#define LEN 37
static ct_generator *shared;
static float results[THREADS][OPS][LEN];
static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int k = 0; k < OPS; k++) {
    ct_tensor *t = ct_rand(CT_SHAPE(LEN), &(ct_random_opts){.generator = shared});
    memcpy(results[id][k], ct_data_ptr(t), sizeof results[id][k]);
    ct_release(t);
  }
  return NULL;
}

static void test_threads(void) {
  shared = ct_generator_create(CT_DEVICE_CPU);
  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  ct_generator *ref = ct_generator_create(CT_DEVICE_CPU);
  ct_tensor *all = ct_rand(CT_SHAPE(THREADS * OPS * LEN), &(ct_random_opts){.generator = ref});
  const float *seq = fdata(all);
  int found = 0;
  for (int i = 0; i < THREADS; i++)
    for (int k = 0; k < OPS; k++)
      for (int seg = 0; seg < THREADS * OPS; seg++)
        if (memcmp(results[i][k], seq + seg * LEN, sizeof results[i][k]) == 0) {
          found++;
          break;
        }
  CHECK_EQ_INT(found, THREADS * OPS);
  ct_tensor *s1 = ct_generator_get_state(shared), *s2 = ct_generator_get_state(ref);
  CHECK(memcmp(ct_data_ptr(s1), ct_data_ptr(s2), 5056) == 0);
  ct_release(s1);
  ct_release(s2);
  ct_release(all);
  ct_generator_release(ref);
  ct_generator_release(shared);
  /* the stream does not depend on the thread count (the normal fill runs in parallel) */
  ct_tensor *r[2];
  for (int n = 1; n <= 2; n++) {
    ct_set_num_threads(n);
    ct_manual_seed(77);
    r[n - 1] = ct_randn(CT_SHAPE(200003), NULL);
  }
  CHECK(memcmp(ct_data_ptr(r[0]), ct_data_ptr(r[1]), 200003 * sizeof(float)) == 0);
  ct_release(r[0]);
  ct_release(r[1]);
  ct_set_num_threads(0);
}

static void test_errors(void) {
  ct_tensor *f = ct_empty(CT_SHAPE(3), NULL);
  ct_tensor *i64 = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_INT64});
  ct_tensor *h = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_FLOAT16});
  CHECK(ct_rand(CT_SHAPE(3), &(ct_random_opts){.dtype = CT_INT64}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"check_uniform_bounds\" not implemented for 'Long'");
  CHECK(ct_randn(CT_SHAPE(3), &(ct_random_opts){.dtype = CT_INT64}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"normal_kernel_cpu\" not implemented for 'Long'");
  CHECK_EQ_INT(ct_uniform_(f, 2, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
  CHECK_EQ_INT(ct_uniform_(h, -60000, 60000, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "uniform_ expects to-from <= std::numeric_limits<Half>::max(), but found to=60000 and "
                              "from=-60000 which result in to-from to exceed the limit");
  CHECK_EQ_INT(ct_uniform_(h, -70000, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "from is out of bounds for c10::Half");
  CHECK_EQ_INT(ct_normal_(f, 0, -1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std -1");
  CHECK_EQ_INT(ct_log_normal_(f, 0, 0, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=0");
  CHECK_EQ_INT(ct_geometric_(f, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=1");
  CHECK_EQ_INT(ct_exponential_(f, -1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=-1");
  CHECK_EQ_INT(ct_exponential_(i64, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"exponential_cpu\" not implemented for 'Long'");
  CHECK_EQ_INT(ct_bernoulli_(f, 1.5, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=1.5");
  CHECK_EQ_INT(ct_bernoulli_(h, 0.5, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bernoulli_scalar_cpu_\" not implemented for 'Half'");
  CHECK(ct_randint(5, 5, CT_SHAPE(3), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  CHECK(ct_randint(0, 300, CT_SHAPE(3), &(ct_random_opts){.dtype = CT_UINT8}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "to - 1 is out of bounds for unsigned char");
  CHECK(ct_randint(0, 70000, CT_SHAPE(3), &(ct_random_opts){.dtype = CT_FLOAT16}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "to - 1 is out of bounds for c10::Half");
  CHECK_EQ_INT(ct_random_from_(f, 1 << 24, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
                              "dtype, but got from=16777216 > to_inc=16777216");
  CHECK_EQ_INT(ct_random_from_(h, INT64_MIN, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"random_full_64_bits_range_kernel_cpu\" not implemented for 'Half'");
  CHECK(ct_randperm(-1, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension -1: [-1]");
  CHECK(ct_randperm(2050, &(ct_random_opts){.dtype = CT_FLOAT16}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "n cannot be greater than 2049 for Half type.");
  CHECK(ct_randperm(257, &(ct_random_opts){.dtype = CT_UINT8}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "value cannot be converted to type uint8_t without overflow");
  CHECK(ct_randperm(5, &(ct_random_opts){.dtype = CT_BOOL}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"randperm\" not implemented for 'Bool'");
  CHECK(ct_multinomial(f, 4, false, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  CHECK(ct_multinomial(i64, 2, false, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "multinomial only supports floating-point dtypes for input, got: Long");
  CHECK(ct_multinomial(h, 1, true, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "multinomial is not implemented for half on CPU");
  CHECK(ct_multinomial(f, 0, true, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
  /* an expanded (stride 0) target cannot be written */
  ct_tensor *ex = ct__view(f, 2, (const int64_t[]){2, 3}, (const int64_t[]){0, 1}, 0);
  CHECK_EQ_INT(ct_uniform_(ex, 0, 1, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "unsupported operation: more than one element of the written-to tensor refers to a "
                              "single memory location. Please clone() the tensor before performing the operation.");
  ct_release(ex);
  /* bernoulli's p: expansion and range */
  ct_tensor *p2 = ct_empty(CT_SHAPE(2), NULL);
  CHECK_EQ_INT(ct_bernoulli_tensor_(f, p2, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
                              "dimension 0.  Target sizes: [3].  Tensor sizes: [2]");
  ct_release(p2);
  /* NULL inputs fail; with no error pending the first records a ValueError naming its argument */
  CHECK(ct_rand_like(NULL, NULL) == NULL);
  CHECK(ct_multinomial(NULL, 1, true, NULL) == NULL);
  CHECK(ct_normal(NULL, f, NULL) == NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_VALUE); /* a NULL argument, none pending: a ValueError naming it */
  CHECK(strstr(ct_last_error_message(), "is NULL") != NULL);
  ct_release(f);
  ct_release(i64);
  ct_release(h);
}

/* A failing call leaves its target and the generator as they were. */
static void test_failure_atomicity(void) {
  ct_tensor *pt = filled(CT_SHAPE(4), (const float[]){0.5f, 0.25f, 1.5f, 0.0f});
  ct_tensor *self = ct_empty(CT_SHAPE(4), &(ct_tensor_opts){.dtype = CT_INT32});
  memset(ct_data_ptr(self), 0x5a, 16);
  ct_manual_seed(1);
  ct_tensor *before = ct_get_rng_state();
  CHECK_EQ_INT(ct_bernoulli_tensor_(self, pt, NULL), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                              "be improved?  If so, please report an enhancement request to PyTorch.)");
  ct_tensor *after = ct_get_rng_state();
  CHECK(memcmp(ct_data_ptr(before), ct_data_ptr(after), 5056) == 0);
  const uint8_t *d = bdata(self);
  bool untouched = true;
  for (int i = 0; i < 16; i++) untouched = untouched && d[i] == 0x5a;
  CHECK(untouched);
  ct_release(after);
  /* multinomial with replacement: the second row is invalid; no draw for the first */
  ct_tensor *wt = filled(CT_SHAPE(2, 3), (const float[]){1, 2, 3, 0, -1, 1});
  CHECK(ct_multinomial(wt, 2, true, NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "invalid multinomial distribution (encountering probability entry < 0)");
  after = ct_get_rng_state();
  CHECK(memcmp(ct_data_ptr(before), ct_data_ptr(after), 5056) == 0);
  ct_release(after);
  ct_release(wt);
  ct_release(before);
  ct_release(self);
  ct_release(pt);
}

/* Every allocation a call makes can fail: the call then fails with out-of-memory and leaks nothing. */
typedef ct_tensor *(*call_fn)(void);
static ct_tensor *call_randn(void) { return ct_randn(CT_SHAPE(40), NULL); }
static ct_tensor *call_randn_like(void) {
  ct_tensor *b = ct__empty(2, (const int64_t[]){4, 6}, CT_FLOAT32, CT_DEVICE_CPU);
  if (!b) return NULL;
  ct_tensor *v = ct__view(b, 2, (const int64_t[]){4, 3}, (const int64_t[]){6, 2}, 0);
  ct_release(b);
  if (!v) return NULL;
  ct_tensor *r = ct_randn_like(v, NULL);
  ct_release(v);
  return r;
}
static ct_tensor *call_multinomial(void) {
  ct_tensor *w = ct_rand(CT_SHAPE(3, 5), NULL);
  if (!w) return NULL;
  ct_tensor *r = ct_multinomial(w, 4, false, NULL);
  ct_release(w);
  return r;
}
static ct_tensor *call_normal(void) {
  ct_tensor *m = ct_rand(CT_SHAPE(3, 4), &(ct_random_opts){.dtype = CT_COMPLEX64});
  ct_tensor *s = ct_rand(CT_SHAPE(4), NULL);
  ct_tensor *r = m && s ? ct_normal(m, s, NULL) : NULL;
  ct_release(m);
  ct_release(s);
  return r;
}
static ct_tensor *call_state(void) {
  ct_generator *g = ct_generator_create(CT_DEVICE_CPU);
  if (!g) return NULL;
  ct_rng_fork *f = ct_fork_rng_begin(&g, 1);
  ct_tensor *s = f ? ct_generator_get_state(g) : NULL;
  if (f) ct_fork_rng_end(f);
  ct_generator_release(g);
  return s;
}

static void test_allocation_failures(void) {
  call_fn calls[] = {call_randn, call_randn_like, call_multinomial, call_normal, call_state};
  for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
    bool succeeded = false;
    for (int k = 0; k < 64 && !succeeded; k++) {
      ct_debug_fail_allocation_at(k);
      ct_tensor *t = calls[c]();
      ct_debug_fail_allocation_at(-1);
      if (t) {
        succeeded = true;
        ct_release(t);
      } else {
        CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
        ct_clear_error();
      }
    }
    CHECK(succeeded);
  }
}

/* The AVX2 + FMA float32 Box-Muller and the portable fmaf one give the same bits on every 24-bit
   uniform pair class, the ends of [0, 1) included. */
static void test_boxmuller_variants(void) {
  enum { N = 1 << 20 };
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
  uint32_t x = 12345;
  for (int i = 0; i < N; i++) {
    x = x * 1664525u + 1013904223u;
    a[i] = (float)(x >> 8) * 0x1p-24f;
  }
  a[0] = 0.0f;                  /* u1 = 1: log 0 */
  a[1] = 1.0f - 0x1p-24f;       /* u1 = 2^-24: the largest radius */
  a[8] = 0.0f;                  /* theta = 0 */
  a[9] = 1.0f - 0x1p-24f;       /* theta just below 2 pi */
  memcpy(b, a, N * sizeof(float));
  ct__boxmuller_f32(a, N / 16, 0.5f, 2.0f);
  ct__boxmuller_f32_scalar(b, N / 16, 0.5f, 2.0f);
  CHECK(memcmp(a, b, N * sizeof(float)) == 0);
  /* the variant that takes raw random() words and converts them as it loads, the 24-bit ends and
     bits above them included */
  uint32_t *w = malloc(N * sizeof(uint32_t));
  for (int i = 0; i < N; i++) {
    x = x * 1664525u + 1013904223u;
    w[i] = x;
  }
  w[0] = 0xFF000000u;
  w[1] = 0x00FFFFFFu;
  w[8] = 0xFFFFFFFFu;
  w[9] = 0x00000000u;
  memcpy(a, w, N * sizeof(float));
  memcpy(b, w, N * sizeof(float));
  ct__boxmuller_f32_words(a, N / 16, -1.0f, 0.25f);
  ct__u24_inplace((char *)b, N);
  ct__boxmuller_f32_scalar(b, N / 16, -1.0f, 0.25f);
  CHECK(memcmp(a, b, N * sizeof(float)) == 0);
  free(w);
  free(a);
  free(b);
}

/* The normal fill's pipeline (chunks of 1024 blocks of 16) gives the same bits and leaves the same
   generator state at any thread count, for sizes on each side of its chunk edges and of the sizes
   where it turns parallel, with and without a partial last block. */
static void test_fill_threads(void) {
  static const int64_t sizes[] = {16, 31, 8191, 8192, 8193, 16384, 16385, 16400, 65535, 65536, 65537, 3 * 16384 + 117};
  static const ct_dtype dts[] = {CT_FLOAT32, CT_FLOAT64};
  for (size_t d = 0; d < 2; d++) {
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      int64_t n = sizes[i];
      ct_tensor *r[3], *st[3];
      for (int th = 1; th <= 3; th++) {
        ct_set_num_threads(th);
        ct_manual_seed(1000 + (int64_t)i);
        r[th - 1] = ct_randn(CT_SHAPE(n), &(ct_random_opts){.dtype = dts[d]});
        st[th - 1] = ct_get_rng_state();
      }
      size_t bytes = (size_t)n * ct_element_size(r[0]);
      for (int th = 1; th < 3; th++) {
        CHECK(memcmp(ct_data_ptr(r[0]), ct_data_ptr(r[th]), bytes) == 0);
        CHECK(memcmp(ct_data_ptr(st[0]), ct_data_ptr(st[th]), 5056) == 0);
      }
      for (int th = 0; th < 3; th++) {
        ct_release(r[th]);
        ct_release(st[th]);
      }
    }
  }
  ct_set_num_threads(0);
}

static void test_scope(void) {
  ct_scope_begin();
  ct_tensor *t = ct_rand(CT_SHAPE(2), NULL);
  CHECK_EQ_INT(ct_refcount(t), 1);
  ct_tensor *kept = ct_keep(t);
  ct_scope_end();
  CHECK_EQ_INT(ct_refcount(kept), 1);
  ct_release(kept);
}

int main(void) {
  test_known_values();
  test_other_distributions();
  test_layouts();
  test_generators();
  test_state();
  test_fork_rng();
  test_threads();
  test_errors();
  test_failure_atomicity();
  test_allocation_failures();
  test_boxmuller_variants();
  test_fill_threads();
  test_scope();
  return TEST_SUMMARY();
}
