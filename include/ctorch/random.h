/* torch.Generator, torch.random and the random sampling ops, bit-identical to PyTorch 1.13 on the CPU:
   the same seed gives the same values and the same get_rng_state bytes after every call. */
#ifndef CTORCH_RANDOM_H
#define CTORCH_RANDOM_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- generators ---- */

/* torch.Generator(device): CPU only (UNSET means CPU); starts at seed 67280421310721. Release with
   ct_generator_release. A generator may be used from several threads: each op holds its lock. */
CT_API ct_generator *ct_generator_create(ct_device device);
CT_API ct_generator *ct_generator_retain(ct_generator *g);
CT_API void ct_generator_release(ct_generator *g);
/* torch.default_generator: seeded non-deterministically at first use; borrowed, never released.
   Every generator argument below (and every options struct's generator field) takes NULL for it. */
CT_API ct_generator *ct_default_generator(void);
CT_API ct_device ct_generator_device(const ct_generator *g);

/* Generator.manual_seed. PyTorch accepts [-2^63, 2^64 - 1]; a negative seed is stored as its two's
   complement (manual_seed(-1).initial_seed() is 2^64 - 1). The signed and unsigned entry points cover
   that whole range; the scalar one takes any Python number as torch does (int(seed): a float is
   truncated, and one outside the range is PyTorch's "Overflow when unpacking long" RuntimeError). */
CT_API ct_status ct_generator_manual_seed(ct_generator *g, int64_t seed);
CT_API ct_status ct_generator_manual_seed_u64(ct_generator *g, uint64_t seed);
CT_API ct_status ct_generator_manual_seed_scalar(ct_generator *g, ct_scalar seed);
/* Generator.seed(): reseeds from /dev/urandom and returns the seed. */
CT_API uint64_t ct_generator_seed(ct_generator *g);
CT_API uint64_t ct_generator_initial_seed(ct_generator *g);
/* Generator.get_state(): a new uint8 tensor of 5056 bytes in PyTorch's exact layout. */
CT_API ct_tensor *ct_generator_get_state(ct_generator *g);
/* Generator.set_state(): 5056 bytes, or PyTorch's 5048-byte legacy form. Errors as PyTorch's. */
CT_API ct_status ct_generator_set_state(ct_generator *g, const ct_tensor *state);

/* torch.manual_seed / seed / initial_seed / get_rng_state / set_rng_state: the default generator. */
CT_API ct_status ct_manual_seed(int64_t seed);
CT_API ct_status ct_manual_seed_u64(uint64_t seed);
CT_API ct_status ct_manual_seed_scalar(ct_scalar seed);
CT_API uint64_t ct_seed(void);
CT_API uint64_t ct_initial_seed(void);
CT_API ct_tensor *ct_get_rng_state(void);
CT_API ct_status ct_set_rng_state(const ct_tensor *state);

/* torch.random.fork_rng: ct_fork_rng_begin saves the default generator's state and that of the n
   listed generators (n may be 0); ct_fork_rng_end restores them all and frees the handle.
   ct_fork_rng does both around fn(ctx). */
typedef struct ct_rng_fork ct_rng_fork;
CT_API ct_rng_fork *ct_fork_rng_begin(ct_generator *const *generators, int64_t n);
CT_API ct_status ct_fork_rng_end(ct_rng_fork *fork);
CT_API ct_status ct_fork_rng(ct_generator *const *generators, int64_t n, void (*fn)(void *ctx), void *ctx);

/* ---- options ---- */

/* Keyword arguments of the random factories (rand, randn, randint, randperm, normal with a size, and
   the *_like forms). Zero value: PyTorch's defaults (default dtype, or int64 for randint / randperm,
   or like the input for *_like; CPU; the default generator). */
typedef struct ct_random_opts {
  ct_generator *generator;
  ct_dtype dtype;
  ct_device device;
  ct_layout layout;
  ct_memory_format memory_format; /* *_like only: UNSET means preserve */
  bool requires_grad;
} ct_random_opts;

/* Keyword arguments of the sampling ops on existing tensors (uniform_, normal_, bernoulli, ...). */
typedef struct ct_sample_opts {
  ct_generator *generator;
} ct_sample_opts;

/* ---- factories ---- */
CT_API ct_tensor *ct_rand(ct_shape size, const ct_random_opts *opts);
CT_API ct_tensor *ct_rand_like(const ct_tensor *t, const ct_random_opts *opts);
CT_API ct_tensor *ct_randn(ct_shape size, const ct_random_opts *opts);
CT_API ct_tensor *ct_randn_like(const ct_tensor *t, const ct_random_opts *opts);
/* torch.randint(low, high, size): [low, high); torch.randint(high, size) is low = 0. */
CT_API ct_tensor *ct_randint(int64_t low, int64_t high, ct_shape size, const ct_random_opts *opts);
CT_API ct_tensor *ct_randint_like(const ct_tensor *t, int64_t low, int64_t high, const ct_random_opts *opts);
CT_API ct_tensor *ct_randperm(int64_t n, const ct_random_opts *opts);
/* torch.normal(mean, std, size): floats mean and std. */
CT_API ct_tensor *ct_normal_size(double mean, double std, ct_shape size, const ct_random_opts *opts);

/* ---- sampling from tensors ---- */
/* torch.normal(mean: Tensor, std: Tensor), (Tensor, float) and (float, Tensor). */
CT_API ct_tensor *ct_normal(const ct_tensor *mean, const ct_tensor *std, const ct_sample_opts *opts);
CT_API ct_tensor *ct_normal_tensor_scalar(const ct_tensor *mean, double std, const ct_sample_opts *opts);
CT_API ct_tensor *ct_normal_scalar_tensor(double mean, const ct_tensor *std, const ct_sample_opts *opts);
/* torch.bernoulli(input): input holds the probabilities; torch.bernoulli(input, p): input's shape and
   dtype with probability p. */
CT_API ct_tensor *ct_bernoulli(const ct_tensor *p, const ct_sample_opts *opts);
CT_API ct_tensor *ct_bernoulli_p(const ct_tensor *t, double p, const ct_sample_opts *opts);
/* torch.multinomial(input, num_samples, replacement): int64 indices. */
CT_API ct_tensor *ct_multinomial(const ct_tensor *input, int64_t num_samples, bool replacement,
                                 const ct_sample_opts *opts);

/* ---- in place: fill self (any strides) and return CT_OK, or leave it untouched and fail ---- */
CT_API ct_status ct_uniform_(ct_tensor *self, double from, double to, const ct_sample_opts *opts);
CT_API ct_status ct_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts);
CT_API ct_status ct_log_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts);
CT_API ct_status ct_cauchy_(ct_tensor *self, double median, double sigma, const ct_sample_opts *opts);
CT_API ct_status ct_exponential_(ct_tensor *self, double lambd, const ct_sample_opts *opts);
CT_API ct_status ct_geometric_(ct_tensor *self, double p, const ct_sample_opts *opts);
CT_API ct_status ct_bernoulli_(ct_tensor *self, double p, const ct_sample_opts *opts);
CT_API ct_status ct_bernoulli_tensor_(ct_tensor *self, const ct_tensor *p, const ct_sample_opts *opts);
/* Tensor.random_(): [0, 2^mantissa] for floats, [0, max] for integers. */
CT_API ct_status ct_random_(ct_tensor *self, const ct_sample_opts *opts);
/* Tensor.random_(to): [0, to). */
CT_API ct_status ct_random_to_(ct_tensor *self, int64_t to, const ct_sample_opts *opts);
/* Tensor.random_(from, to): [from, to). */
CT_API ct_status ct_random_from_to_(ct_tensor *self, int64_t from, int64_t to, const ct_sample_opts *opts);
/* Tensor.random_(from, None): [from, dtype max] (2^mantissa for floats). */
CT_API ct_status ct_random_from_(ct_tensor *self, int64_t from, const ct_sample_opts *opts);

/* C: each function above with options is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_rand(...) CT__CHECKED(2, CT__CK_ct_rand, ct_rand, __VA_ARGS__)
#define CT__CK_ct_rand(a, o) ct_rand(a, CT__OPTS(ct_random_opts, o))
#define ct_rand_like(...) CT__CHECKED(2, CT__CK_ct_rand_like, ct_rand_like, __VA_ARGS__)
#define CT__CK_ct_rand_like(t, o) ct_rand_like(CT__T(t), CT__OPTS(ct_random_opts, o))
#define ct_randn(...) CT__CHECKED(2, CT__CK_ct_randn, ct_randn, __VA_ARGS__)
#define CT__CK_ct_randn(a, o) ct_randn(a, CT__OPTS(ct_random_opts, o))
#define ct_randn_like(...) CT__CHECKED(2, CT__CK_ct_randn_like, ct_randn_like, __VA_ARGS__)
#define CT__CK_ct_randn_like(t, o) ct_randn_like(CT__T(t), CT__OPTS(ct_random_opts, o))
#define ct_randint(...) CT__CHECKED(4, CT__CK_ct_randint, ct_randint, __VA_ARGS__)
#define CT__CK_ct_randint(a, a2, a3, o) ct_randint(a, a2, a3, CT__OPTS(ct_random_opts, o))
#define ct_randint_like(...) CT__CHECKED(4, CT__CK_ct_randint_like, ct_randint_like, __VA_ARGS__)
#define CT__CK_ct_randint_like(t, a, a2, o) ct_randint_like(CT__T(t), a, a2, CT__OPTS(ct_random_opts, o))
#define ct_randperm(...) CT__CHECKED(2, CT__CK_ct_randperm, ct_randperm, __VA_ARGS__)
#define CT__CK_ct_randperm(a, o) ct_randperm(a, CT__OPTS(ct_random_opts, o))
#define ct_normal_size(...) CT__CHECKED(4, CT__CK_ct_normal_size, ct_normal_size, __VA_ARGS__)
#define CT__CK_ct_normal_size(a, a2, a3, o) ct_normal_size(a, a2, a3, CT__OPTS(ct_random_opts, o))
#define ct_normal(...) CT__CHECKED(3, CT__CK_ct_normal, ct_normal, __VA_ARGS__)
#define CT__CK_ct_normal(t, t2, o) ct_normal(CT__T(t), CT__T(t2), CT__OPTS(ct_sample_opts, o))
#define ct_normal_tensor_scalar(...) CT__CHECKED(3, CT__CK_ct_normal_tensor_scalar, ct_normal_tensor_scalar, __VA_ARGS__)
#define CT__CK_ct_normal_tensor_scalar(t, a, o) \
  ct_normal_tensor_scalar(CT__T(t), a, CT__OPTS(ct_sample_opts, o))
#define ct_normal_scalar_tensor(...) CT__CHECKED(3, CT__CK_ct_normal_scalar_tensor, ct_normal_scalar_tensor, __VA_ARGS__)
#define CT__CK_ct_normal_scalar_tensor(a, t, o) \
  ct_normal_scalar_tensor(a, CT__T(t), CT__OPTS(ct_sample_opts, o))
#define ct_bernoulli(...) CT__CHECKED(2, CT__CK_ct_bernoulli, ct_bernoulli, __VA_ARGS__)
#define CT__CK_ct_bernoulli(t, o) ct_bernoulli(CT__T(t), CT__OPTS(ct_sample_opts, o))
#define ct_bernoulli_p(...) CT__CHECKED(3, CT__CK_ct_bernoulli_p, ct_bernoulli_p, __VA_ARGS__)
#define CT__CK_ct_bernoulli_p(t, a, o) ct_bernoulli_p(CT__T(t), a, CT__OPTS(ct_sample_opts, o))
#define ct_multinomial(...) CT__CHECKED(4, CT__CK_ct_multinomial, ct_multinomial, __VA_ARGS__)
#define CT__CK_ct_multinomial(t, a, a2, o) ct_multinomial(CT__T(t), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_uniform_(...) CT__CHECKED(4, CT__CK_ct_uniform_, ct_uniform_, __VA_ARGS__)
#define CT__CK_ct_uniform_(self, a, a2, o) ct_uniform_(CT__TM(self), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_normal_(...) CT__CHECKED(4, CT__CK_ct_normal_, ct_normal_, __VA_ARGS__)
#define CT__CK_ct_normal_(self, a, a2, o) ct_normal_(CT__TM(self), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_log_normal_(...) CT__CHECKED(4, CT__CK_ct_log_normal_, ct_log_normal_, __VA_ARGS__)
#define CT__CK_ct_log_normal_(self, a, a2, o) ct_log_normal_(CT__TM(self), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_cauchy_(...) CT__CHECKED(4, CT__CK_ct_cauchy_, ct_cauchy_, __VA_ARGS__)
#define CT__CK_ct_cauchy_(self, a, a2, o) ct_cauchy_(CT__TM(self), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_exponential_(...) CT__CHECKED(3, CT__CK_ct_exponential_, ct_exponential_, __VA_ARGS__)
#define CT__CK_ct_exponential_(self, a, o) ct_exponential_(CT__TM(self), a, CT__OPTS(ct_sample_opts, o))
#define ct_geometric_(...) CT__CHECKED(3, CT__CK_ct_geometric_, ct_geometric_, __VA_ARGS__)
#define CT__CK_ct_geometric_(self, a, o) ct_geometric_(CT__TM(self), a, CT__OPTS(ct_sample_opts, o))
#define ct_bernoulli_(...) CT__CHECKED(3, CT__CK_ct_bernoulli_, ct_bernoulli_, __VA_ARGS__)
#define CT__CK_ct_bernoulli_(self, a, o) ct_bernoulli_(CT__TM(self), a, CT__OPTS(ct_sample_opts, o))
#define ct_bernoulli_tensor_(...) CT__CHECKED(3, CT__CK_ct_bernoulli_tensor_, ct_bernoulli_tensor_, __VA_ARGS__)
#define CT__CK_ct_bernoulli_tensor_(self, t, o) \
  ct_bernoulli_tensor_(CT__TM(self), CT__T(t), CT__OPTS(ct_sample_opts, o))
#define ct_random_(...) CT__CHECKED(2, CT__CK_ct_random_, ct_random_, __VA_ARGS__)
#define CT__CK_ct_random_(self, o) ct_random_(CT__TM(self), CT__OPTS(ct_sample_opts, o))
#define ct_random_to_(...) CT__CHECKED(3, CT__CK_ct_random_to_, ct_random_to_, __VA_ARGS__)
#define CT__CK_ct_random_to_(self, a, o) ct_random_to_(CT__TM(self), a, CT__OPTS(ct_sample_opts, o))
#define ct_random_from_to_(...) CT__CHECKED(4, CT__CK_ct_random_from_to_, ct_random_from_to_, __VA_ARGS__)
#define CT__CK_ct_random_from_to_(self, a, a2, o) \
  ct_random_from_to_(CT__TM(self), a, a2, CT__OPTS(ct_sample_opts, o))
#define ct_random_from_(...) CT__CHECKED(3, CT__CK_ct_random_from_, ct_random_from_, __VA_ARGS__)
#define CT__CK_ct_random_from_(self, a, o) ct_random_from_(CT__TM(self), a, CT__OPTS(ct_sample_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
