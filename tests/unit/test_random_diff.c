/* The ctorch side of the random differential test (tests/diff/random_diff.py runs the same script
   through torch and compares). Usage: test_random_diff SCRIPT  (or - for stdin): runs each line and
   prints, per op, the result's metadata and bytes in hex ("M"/"V" lines, or "E kind message") and the
   generator's get_state bytes ("S" line). Without arguments it runs a built-in script and checks its
   output against values recorded from torch 1.13 (so ctest exercises the same code path). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/internal.h"
#include "core/elem.h"

#define MAX_GENS 8

typedef struct runner {
  FILE *out;
  char names[MAX_GENS][32];
  ct_generator *gens[MAX_GENS];
  int ngens;
  ct_generator *cur; /* NULL: the default generator */
  int ncmd;          /* commands run so far: each one's output starts with "C <index>" */
} runner;

static ct_dtype parse_dtype(const char *s) {
  ct_dtype d = CT_DTYPE_UNSET;
  if (ct_dtype_parse(s, &d) != CT_OK) {
    fprintf(stderr, "bad dtype %s\n", s);
    exit(2);
  }
  return d;
}

static int64_t parse_shape(const char *s, int64_t *shape) {
  if (strcmp(s, "-") == 0) return 0;
  int64_t n = 0;
  const char *p = s;
  while (*p) {
    char *end;
    shape[n++] = strtoll(p, &end, 10);
    p = *end == ',' ? end + 1 : end;
  }
  return n;
}

/* A tensor of `shape` in one of the test layouts (see random_diff.py): c contiguous, t all dims
   reversed (a transpose), s every other element of the last dim, o every other row with an offset. */
static ct_tensor *make_layout(ct_dtype dt, char layout, int64_t nd, const int64_t *shape) {
  int64_t base[16], strides[16];
  int64_t offset = 0;
  memcpy(base, shape, (size_t)nd * sizeof(int64_t));
  if (layout == 't') {
    for (int64_t d = 0; d < nd; d++) base[d] = shape[nd - 1 - d];
  } else if (layout == 's' && nd > 0) {
    base[nd - 1] = 2 * shape[nd - 1];
  } else if (layout == 'o' && nd > 0) {
    base[0] = 2 * shape[0] + 1;
  }
  ct_tensor *b = ct__empty(nd, base, dt, CT_DEVICE_CPU);
  if (!b) return NULL;
  if (layout == 'c') return b;
  int64_t bs[16];
  ct__contiguous_strides(nd, base, bs);
  for (int64_t d = 0; d < nd; d++) strides[d] = bs[d];
  if (layout == 't') {
    for (int64_t d = 0; d < nd; d++) strides[d] = bs[nd - 1 - d];
  } else if (layout == 's' && nd > 0) {
    strides[nd - 1] = 2 * bs[nd - 1];
  } else if (layout == 'o' && nd > 0) {
    strides[0] = 2 * bs[0];
    offset = bs[0];
  }
  ct_tensor *v = ct__view(b, nd, shape, strides, offset);
  ct_release(b);
  return v;
}

/* Visits t's elements in row-major order of its shape. */
static void for_each(const ct_tensor *t, void (*fn)(void *ctx, char *e, int64_t i), void *ctx) {
  int64_t idx[16] = {0};
  size_t isz = ct__itemsize((ct_dtype)t->dtype);
  char *base = ct__tdata(t);
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t off = 0;
    for (int64_t d = 0; d < t->ndim; d++) off += idx[d] * t->strides[d];
    fn(ctx, base + off * (int64_t)isz, i);
    for (int64_t d = t->ndim - 1; d >= 0; d--) {
      if (++idx[d] < t->sizes[d]) break;
      idx[d] = 0;
    }
  }
}

/* Deterministic input values by logical index, the same formulas as random_diff.py. */
typedef struct fill_ctx {
  ct_dtype dt;
  int kind;
} fill_ctx;
static double formula(int kind, int64_t i) {
  switch (kind) {
    case 0: return (double)((i * 37 + 11) % 101) / 100.0;                              /* p in [0, 1] */
    case 1: return i % 3 == 0 ? 0.0 : (double)((i * 37 + 11) % 101) / 100.0 + 0.01; /* weights, zeros */
    case 2: return (double)(i % 7) - 3.0 + 0.25;                                       /* means */
    default: return (double)(i % 5) * 0.5;                                             /* stds >= 0 */
  }
}
static void fill_fn(void *vctx, char *e, int64_t i) {
  fill_ctx *c = vctx;
  if (c->dt == CT_COMPLEX64 || c->dt == CT_COMPLEX128) {
    ct_dtype r = c->dt == CT_COMPLEX64 ? CT_FLOAT32 : CT_FLOAT64;
    ct__elem_store_f64(r, e, formula(c->kind, i));
    ct__elem_store_f64(r, e + ct__itemsize(r), 0.0);
    return;
  }
  ct__elem_store_f64(c->dt, e, formula(c->kind, i));
}
static ct_tensor *make_filled(ct_dtype dt, char layout, int64_t nd, const int64_t *shape, int kind) {
  ct_tensor *t = make_layout(dt, layout, nd, shape);
  if (!t) return NULL;
  fill_ctx c = {dt, kind};
  for_each(t, fill_fn, &c);
  return t;
}

typedef struct hex_ctx {
  FILE *out;
  size_t isz;
} hex_ctx;
static void hex_fn(void *vctx, char *e, int64_t i) {
  (void)i;
  hex_ctx *h = vctx;
  for (size_t k = 0; k < h->isz; k++) fprintf(h->out, "%02x", (unsigned char)e[k]);
}

static void print_tensor(runner *r, const ct_tensor *t) {
  fprintf(r->out, "M %s [", ct_dtype_name((ct_dtype)t->dtype));
  for (int64_t d = 0; d < t->ndim; d++) fprintf(r->out, d ? ", %lld" : "%lld", (long long)t->sizes[d]);
  fprintf(r->out, "] [");
  for (int64_t d = 0; d < t->ndim; d++) fprintf(r->out, d ? ", %lld" : "%lld", (long long)t->strides[d]);
  fprintf(r->out, "]\nV ");
  hex_ctx h = {r->out, ct__itemsize((ct_dtype)t->dtype)};
  for_each(t, hex_fn, &h);
  fprintf(r->out, "\n");
}

static void print_state(runner *r) {
  ct_tensor *s = ct_generator_get_state(r->cur);
  fprintf(r->out, "S ");
  const uint8_t *b = ct_data_ptr(s);
  for (int64_t i = 0; i < ct_numel(s); i++) fprintf(r->out, "%02x", b[i]);
  fprintf(r->out, "\n");
  ct_release(s);
}

static void print_error(runner *r) {
  fprintf(r->out, "E %s %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
  ct_clear_error();
}

static uint64_t parse_seed(const char *s, bool *neg) {
  *neg = s[0] == '-';
  return *neg ? (uint64_t)strtoll(s, NULL, 10) : strtoull(s, NULL, 10);
}

static ct_generator *find_gen(runner *r, const char *name) {
  if (strcmp(name, "default") == 0) return NULL;
  for (int i = 0; i < r->ngens; i++)
    if (strcmp(r->names[i], name) == 0) return r->gens[i];
  fprintf(stderr, "unknown generator %s\n", name);
  exit(2);
}

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

/* Runs one `op` line: tok[0] = op name, tok[1] dtype, tok[2] layout, tok[3] shape, then arguments. */
static void run_op(runner *r, char **tok, int ntok) {
  const char *op = tok[0];
  ct_dtype dt = parse_dtype(tok[1]);
  char layout = tok[2][0];
  int64_t shape[16];
  int64_t nd = parse_shape(tok[3], shape);
  char **a = tok + 4;
  int na = ntok - 4;
  double x = na > 0 ? atof(a[0]) : 0, y = na > 1 ? atof(a[1]) : 0;
  int64_t i0 = na > 0 ? strtoll(a[0], NULL, 10) : 0, i1 = na > 1 ? strtoll(a[1], NULL, 10) : 0;
  ct_random_opts ro = {.generator = r->cur, .dtype = dt};
  ct_sample_opts so = {r->cur};
  ct_shape sh = {shape, nd};
  ct_tensor *res = NULL;
  ct_tensor *self = NULL;
  ct_status st = CT_OK;
  bool inplace = false;
  if (strcmp(op, "rand") == 0) {
    res = ct_rand(sh, &ro);
  } else if (strcmp(op, "randn") == 0) {
    res = ct_randn(sh, &ro);
  } else if (strcmp(op, "randint") == 0) {
    res = ct_randint(i0, i1, sh, &ro);
  } else if (strcmp(op, "randperm") == 0) {
    res = ct_randperm(i0, &ro);
  } else if (strcmp(op, "normal_size") == 0) {
    res = ct_normal_size(x, y, sh, &ro);
  } else if (strcmp(op, "rand_like") == 0 || strcmp(op, "randn_like") == 0 || strcmp(op, "randint_like") == 0) {
    ct_tensor *src = make_layout(dt, layout, nd, shape);
    ct_random_opts lo = {.generator = r->cur};
    res = strcmp(op, "rand_like") == 0    ? ct_rand_like(src, &lo)
          : strcmp(op, "randn_like") == 0 ? ct_randn_like(src, &lo)
                                          : ct_randint_like(src, i0, i1, &lo);
    ct_release(src);
  } else if (strcmp(op, "bernoulli") == 0) {
    ct_tensor *p = make_filled(dt, layout, nd, shape, 0);
    res = ct_bernoulli(p, &so);
    ct_release(p);
  } else if (strcmp(op, "bernoulli_p") == 0) {
    ct_tensor *t = make_layout(dt, layout, nd, shape);
    res = ct_bernoulli_p(t, x, &so);
    ct_release(t);
  } else if (strcmp(op, "multinomial") == 0) {
    ct_tensor *p = make_filled(dt, layout, nd, shape, i1 ? 1 : 0);
    res = ct_multinomial(p, i0, atoi(a[2]) != 0, &so);
    ct_release(p);
  } else if (strcmp(op, "normal_ts") == 0) {
    ct_tensor *m = make_filled(dt, layout, nd, shape, 2);
    res = ct_normal_tensor_scalar(m, x, &so);
    ct_release(m);
  } else if (strcmp(op, "normal_st") == 0) {
    ct_tensor *s = make_filled(dt, layout, nd, shape, 3);
    res = ct_normal_scalar_tensor(x, s, &so);
    ct_release(s);
  } else if (strcmp(op, "normal_tt") == 0) {
    int64_t sshape[16];
    int64_t snd = parse_shape(a[2], sshape);
    ct_tensor *m = make_filled(dt, layout, nd, shape, 2);
    ct_tensor *s = make_filled(parse_dtype(a[0]), a[1][0], snd, sshape, 3);
    res = ct_normal(m, s, &so);
    ct_release(m);
    ct_release(s);
  } else {
    inplace = true;
    self = make_layout(dt, layout, nd, shape);
    if (strcmp(op, "uniform_") == 0) st = ct_uniform_(self, x, y, &so);
    else if (strcmp(op, "normal_") == 0) st = ct_normal_(self, x, y, &so);
    else if (strcmp(op, "log_normal_") == 0) st = ct_log_normal_(self, x, y, &so);
    else if (strcmp(op, "cauchy_") == 0) st = ct_cauchy_(self, x, y, &so);
    else if (strcmp(op, "exponential_") == 0) st = ct_exponential_(self, x, &so);
    else if (strcmp(op, "geometric_") == 0) st = ct_geometric_(self, x, &so);
    else if (strcmp(op, "bernoulli_") == 0) st = ct_bernoulli_(self, x, &so);
    else if (strcmp(op, "random_") == 0) st = ct_random_(self, &so);
    else if (strcmp(op, "random_to_") == 0) st = ct_random_to_(self, i0, &so);
    else if (strcmp(op, "random_from_to_") == 0) st = ct_random_from_to_(self, i0, i1, &so);
    else if (strcmp(op, "random_from_") == 0) st = ct_random_from_(self, i0, &so);
    else if (strcmp(op, "bernoulli_t") == 0) {
      int64_t pshape[16];
      int64_t pnd = parse_shape(a[2], pshape);
      ct_tensor *p = make_filled(parse_dtype(a[0]), a[1][0], pnd, pshape, 0);
      st = ct_bernoulli_tensor_(self, p, &so);
      ct_release(p);
    } else {
      fprintf(stderr, "unknown op %s\n", op);
      exit(2);
    }
  }
  if (inplace) {
    if (st == CT_OK)
      print_tensor(r, self);
    else
      print_error(r);
    ct_release(self);
  } else {
    if (res)
      print_tensor(r, res);
    else
      print_error(r);
    ct_release(res);
  }
  print_state(r);
}

static void run_line(runner *r, char *line) {
  char *tok[32];
  int n = 0;
  for (char *t = strtok(line, " \t\r\n"); t && n < 32; t = strtok(NULL, " \t\r\n")) tok[n++] = t;
  if (n == 0 || tok[0][0] == '#') return;
  fprintf(r->out, "C %d\n", r->ncmd++);
  bool neg;
  if (strcmp(tok[0], "seed") == 0) {
    uint64_t s = parse_seed(tok[1], &neg);
    ct_status st = neg ? ct_generator_manual_seed(r->cur ? r->cur : ct_default_generator(), (int64_t)s)
                       : ct_generator_manual_seed_u64(r->cur ? r->cur : ct_default_generator(), s);
    (void)st;
    fprintf(r->out, "I %llu\n", (unsigned long long)ct_generator_initial_seed(r->cur));
    print_state(r);
  } else if (strcmp(tok[0], "gen") == 0) {
    snprintf(r->names[r->ngens], sizeof r->names[0], "%s", tok[1]);
    r->gens[r->ngens++] = ct_generator_create(CT_DEVICE_CPU);
  } else if (strcmp(tok[0], "use") == 0) {
    r->cur = find_gen(r, tok[1]);
    print_state(r);
  } else if (strcmp(tok[0], "state") == 0) {
    print_state(r);
  } else if (strcmp(tok[0], "setstate") == 0) {
    size_t len = strlen(tok[1]) / 2;
    ct_tensor *t = ct__empty(1, (const int64_t[]){(int64_t)len}, CT_UINT8, CT_DEVICE_CPU);
    uint8_t *b = ct_data_ptr(t);
    for (size_t i = 0; i < len; i++) b[i] = (uint8_t)(hexval(tok[1][2 * i]) * 16 + hexval(tok[1][2 * i + 1]));
    if (ct_generator_set_state(r->cur, t) != CT_OK) print_error(r);
    ct_release(t);
    print_state(r);
  } else if (strcmp(tok[0], "op") == 0) {
    run_op(r, tok + 1, n - 1);
  } else {
    fprintf(stderr, "unknown command %s\n", tok[0]);
    exit(2);
  }
}

static void run_script(FILE *in, FILE *out) {
  runner r = {.out = out};
  size_t cap = 1 << 16;
  char *line = malloc(cap);
  size_t len = 0;
  int c;
  while ((c = fgetc(in)) != EOF) {
    if (len + 1 >= cap) line = realloc(line, cap *= 2);
    if (c == '\n') {
      line[len] = 0;
      run_line(&r, line);
      len = 0;
    } else {
      line[len++] = (char)c;
    }
  }
  if (len) {
    line[len] = 0;
    run_line(&r, line);
  }
  free(line);
  for (int i = 0; i < r.ngens; i++) ct_generator_release(r.gens[i]);
}

/* The built-in script and the FNV-1a hash of torch 1.13's output for it (printed by
   `random_diff.py --builtin-hash`). */
static const char *const builtin_script =
    "seed 0\n"
    "op randn float32 c 2,3\n"
    "op randn float32 c 3\n"
    "op randn float32 c 20\n"
    "op rand float64 c 5\n"
    "op randn float64 t 4,5\n"
    "op randint int64 c 7 -5 5\n"
    "op randperm int64 c - 10\n"
    "op bernoulli_ float32 s 3,4 0.3\n"
    "op multinomial float32 c 2,6 3 1 0\n"
    "op normal_ bfloat16 c 33 1.5 2\n"
    "op uniform_ complex64 c 5 -1 1\n"
    "gen g\n"
    "use g\n"
    "op exponential_ float16 o 3,2 2\n"
    "op uniform_ int64 c 3 0 1\n";
#define BUILTIN_HASH UINT64_C(0x6670fd403a8b85d8)

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = UINT64_C(14695981039346656037);
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * UINT64_C(1099511628211);
  return h;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    FILE *in = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
    if (!in) {
      perror(argv[1]);
      return 2;
    }
    run_script(in, stdout);
    if (in != stdin) fclose(in);
    return 0;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  FILE *in = fmemopen((void *)builtin_script, strlen(builtin_script), "r");
  run_script(in, mem);
  fclose(in);
  fclose(mem);
  uint64_t h = fnv1a(buf, len);
  if (h != BUILTIN_HASH) fprintf(stderr, "builtin script output hash %016llx\n", (unsigned long long)h);
  CHECK(h == BUILTIN_HASH);
  free(buf);
  return TEST_SUMMARY();
}
