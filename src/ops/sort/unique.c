/* torch.unique and torch.unique_consecutive (torch 1.13, Unique.cpp). Without a dim: the distinct values in
   ascending order (a stable sort of keys: the first occurrence of each value, -0.0 and 0.0 one value, is
   the one kept, as torch's hash set keeps the first inserted), the inverse indices and the counts; with
   sorted=False, the order of torch's std::unordered_set (unique_hashed, unique_hash.c); consecutive runs
   compare with != as torch's loop does. With a dim: the slices along it, std::sort-ed
   lexicographically (its moves run here, stl_algo.h), equal neighbours merged (at::equal), the first of
   each group kept, and the result transposed back as torch's view of the stacked rows (sorted=False too:
   torch's unique_dim ignores it). */
#include "core/elem.h"
#include "ops/sort/sort_internal.h"
#include "ops/sort/stl_algo.h"
#include "ops/sort/unique_hash.h"
#include "ops/view_internal.h"

/* AT_DISPATCH_ALL_TYPES_AND2(BFloat16, Bool) */
static const ct_sort_type *const unique_types[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(CT_SORT_ROW) CT_DT_INTEGRAL(CT_SORT_ROW) CT_DT_FLOAT(CT_SORT_ROW)[CT_BFLOAT16] =
        &ct__sort_key_CT_BFLOAT16};
static const ct_op unique_op = {CT_SORT_OP("unique", "aten::_unique2", unique_types, NULL),
                                .grad = CT_OP_GRAD_NONE};
static const ct_op unique_dim_op = {CT_SORT_OP("unique_dim", "aten::unique_dim", unique_types, NULL),
                                    .grad = CT_OP_GRAD_NONE};
static const ct_op unique_consecutive_op = {
    CT_SORT_OP("unique_consecutive", "aten::unique_consecutive", unique_types, NULL),
    .grad = CT_OP_GRAD_NONE};

/* A row of values as doubles (every dtype but int64) or int64s, for the comparisons torch makes in the
   element type. */
typedef struct rows {
  const double *d;
  const int64_t *i;
  int64_t width;
  bool wide;
} rows;
static inline bool elem_lt(const rows *r, int64_t a, int64_t b) {
  return r->wide ? r->i[a] < r->i[b] : r->d[a] < r->d[b];
}
static inline bool elem_gt(const rows *r, int64_t a, int64_t b) {
  return r->wide ? r->i[a] > r->i[b] : r->d[a] > r->d[b];
}
static inline bool elem_eq(const rows *r, int64_t a, int64_t b) {
  return r->wide ? r->i[a] == r->i[b] : r->d[a] == r->d[b];
}
static bool row_less(const void *cx, int64_t a, int64_t b) {
  const rows *r = cx;
  for (int64_t i = 0; i < r->width; i++) {
    if (elem_lt(r, a * r->width + i, b * r->width + i)) return true;
    if (elem_gt(r, a * r->width + i, b * r->width + i)) return false;
  }
  return false;
}
static bool row_equal(const rows *r, int64_t a, int64_t b) {
  for (int64_t i = 0; i < r->width; i++)
    if (!elem_eq(r, a * r->width + i, b * r->width + i)) return false;
  return true;
}
#define ROW_LESS(cx, a, b) row_less(cx, a, b)
CT_STL_ALGOS(urow, int64_t, ROW_LESS)

/* The values of a contiguous tensor as rows (a new buffer in *buf). */
static bool load_rows(const ct_sort_type *ty, const ct_tensor *c, int64_t width, rows *r, void **buf) {
  int64_t n = c->numel;
  *buf = ct__malloc((size_t)(n > 0 ? n : 1) * 8);
  if (!*buf) return false;
  r->width = width;
  r->wide = ty->dtype == CT_INT64;
  const char *p = ct__tdata(c);
  size_t isz = ct__itemsize(ty->dtype);
  if (r->wide) {
    if (n) memcpy(*buf, p, (size_t)n * 8);
    r->i = *buf;
  } else {
    double *d = *buf;
    for (int64_t j = 0; j < n; j++) d[j] = ty->to_double(p + (size_t)j * isz);
    r->d = d;
  }
  return true;
}

typedef struct uniq_res {
  ct_tensor *out, *inverse, *counts;
} uniq_res;

static void uniq_release(uniq_res *u) {
  ct_release(u->out);
  ct_release(u->inverse);
  ct_release(u->counts);
  u->out = u->inverse = u->counts = NULL;
}

/* ---- flat ---- */
/* torch's inverse and count maps (unordered_maps reserved for the output's size) meet a bfloat16 -0.0 and 0.0
   that its set kept apart (c10 hashes a BFloat16 by its bits) when they hold 2 buckets: an output of just
   the two zeros. Each zero's entry is then the last one written: every element maps to 1, both count all. */
static bool bf16_zero_pair(const ct_sort_type *ty, const char *p, const int64_t *rep, int64_t groups) {
  if (ty->dtype != CT_BFLOAT16 || groups != 2) return false;
  const uint16_t *b = (const uint16_t *)(const void *)p;
  return (b[rep[0]] & 0x7fff) == 0 && (b[rep[1]] & 0x7fff) == 0;
}

/* sorted=False: the order of torch's std::unordered_set (unique_hash.c) over std::hash of the element type:
   the value itself for integers (bool: false before true), _Hash_bytes of a float's bytes (0 for -0.0 and
   0.0, equal there), a bfloat16's bits (c10's hash). rep[j]: the first element of output j; NaNs are each
   their own output and map to 0 with count 0 (the maps' operator[] makes a new entry for each). */
static ct_status unique_hashed(const ct_sort_type *ty, const char *p, int64_t n, int64_t *rep, int64_t *inv,
                               int64_t *cnt, int64_t *groups) {
  int64_t m = n ? n : 1;
  uint64_t *code = NULL, *key = NULL;
  uint8_t *alone = NULL;
  int64_t *first = ct__malloc((size_t)m * sizeof(int64_t) * 2), *node_of = inv;
  if (!first) return (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
  if (ty->dtype == CT_INT64) {
    code = (uint64_t *)(uintptr_t)p;
  } else {
    code = ct__malloc((size_t)m * sizeof(uint64_t) * (ty->is_float ? 2 : 1));
    alone = ty->is_float ? ct__malloc((size_t)m) : NULL;
    if (!code || (ty->is_float && !alone)) {
      ct__free(first);
      ct__free(code);
      return (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
    }
  }
  if (ty->dtype == CT_FLOAT32 || ty->dtype == CT_FLOAT64) {
    key = code + m;
    bool f32 = ty->dtype == CT_FLOAT32;
    for (int64_t i = 0; i < n; i++) {
      uint64_t bits = 0;
      double v;
      if (f32) {
        float f;
        memcpy(&f, p + i * 4, 4);
        memcpy(&bits, &f, 4);
        v = f;
      } else {
        memcpy(&v, p + i * 8, 8);
        memcpy(&bits, &v, 8);
      }
      alone[i] = isnan(v);
      key[i] = v == 0 ? 0 : bits;
      code[i] = v == 0 ? 0 : ct__hash_bytes(p + i * (f32 ? 4 : 8), f32 ? 4 : 8, 0xc70f6907u);
    }
  } else if (ty->dtype == CT_BFLOAT16) {
    const uint16_t *b = (const uint16_t *)(const void *)p;
    for (int64_t i = 0; i < n; i++) {
      code[i] = b[i];
      alone[i] = (b[i] & 0x7fff) > 0x7f80;
    }
  } else if (ty->dtype != CT_INT64) {
    size_t isz = ct__itemsize(ty->dtype);
    for (int64_t i = 0; i < n; i++) code[i] = (uint64_t)(int64_t)ty->to_double(p + (size_t)i * isz);
  }
  int64_t *order = first + m;
  int64_t g = ct__uset_build(n, code, key, alone, first, node_of, order, NULL);
  if (g == 2 && ty->dtype == CT_BOOL && code[first[order[0]]]) {
    /* torch 1.13 builds no set for bool: it writes false, then true, those it has seen */
    order[0] = 1 - order[0];
    order[1] = 1 - order[1];
  }
  if (g >= 0) {
    /* rank of each node in the iteration order, in cnt's space for now */
    int64_t *rank = rep; /* rep is free until the end: rank by node, then rep by rank */
    for (int64_t j = 0; j < g; j++) rank[order[j]] = j;
    for (int64_t j = 0; j < g; j++) cnt[j] = 0;
    for (int64_t i = 0; i < n; i++) {
      if (alone && alone[i]) {
        inv[i] = 0;
        continue;
      }
      inv[i] = rank[node_of[i]];
      cnt[inv[i]]++;
    }
    for (int64_t j = 0; j < g; j++) rep[j] = first[order[j]];
    *groups = g;
    if (bf16_zero_pair(ty, p, rep, g)) {
      for (int64_t i = 0; i < n; i++) inv[i] = 1;
      cnt[0] = cnt[1] = n;
    }
  }
  ct__free(first);
  if (ty->dtype != CT_INT64) ct__free(code);
  ct__free(alone);
  return g < 0 ? ct_last_error() : CT_OK;
}

/* sorted=True over a bfloat16 -0.0 and 0.0 that torch's set keeps apart: their order is what std::sort makes
   of the set's order (they are equal under <), so the set's order (unique_hashed), then std::sort's moves
   (stl_algo.h). Only without NaNs, which < cannot order (the path below puts them last). */
static bool bf16_less(const void *cx, int64_t a, int64_t b) {
  const uint16_t *v = cx;
  uint32_t ua = (uint32_t)v[a] << 16, ub = (uint32_t)v[b] << 16;
  float fa, fb;
  memcpy(&fa, &ua, 4);
  memcpy(&fb, &ub, 4);
  return fa < fb;
}
#define BF16_LESS(cx, a, b) bf16_less(cx, a, b)
CT_STL_ALGOS(ubf, int64_t, BF16_LESS)

static bool bf16_zeros_apart(const ct_sort_type *ty, const char *p, int64_t n) {
  if (ty->dtype != CT_BFLOAT16) return false;
  const uint16_t *b = (const uint16_t *)(const void *)p;
  bool pos = false, neg = false;
  for (int64_t i = 0; i < n; i++) {
    if ((b[i] & 0x7fff) > 0x7f80) return false;
    pos |= b[i] == 0;
    neg |= b[i] == 0x8000;
  }
  return pos && neg;
}

static ct_status unique_bf16_sorted(const ct_sort_type *ty, const char *p, int64_t n, int64_t *rep,
                                    int64_t *inv, int64_t *cnt, int64_t *groups) {
  ct_status s = unique_hashed(ty, p, n, rep, inv, cnt, groups);
  int64_t *at = s == CT_OK ? ct__malloc(65536 * sizeof(int64_t)) : NULL;
  if (s == CT_OK && !at) s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
  if (s != CT_OK) return s;
  const uint16_t *b = (const uint16_t *)(const void *)p;
  ubf_sort(b, rep, rep + *groups);
  for (int64_t j = 0; j < *groups; j++) {
    at[b[rep[j]]] = j;
    cnt[j] = 0;
  }
  for (int64_t i = 0; i < n; i++) cnt[inv[i] = at[b[i]]]++;
  if (bf16_zero_pair(ty, p, rep, *groups)) {
    for (int64_t i = 0; i < n; i++) inv[i] = 1;
    cnt[0] = cnt[1] = n;
  }
  ct__free(at);
  return CT_OK;
}

/* Integer keys spanning at most twice their count: grouped by counting, with no sort. Groups come out in key
   order, which for integers is value order, so output, inverse and counts are what torch's sort gives (equal
   integers cannot be told apart, whichever element represents them). kv: {key, position} in position order.
   False when the keys are too spread (or too few to be worth it): the caller sorts. */
static bool unique_dense(const ct_kv *kv, int64_t n, const ct_tensor *like, int64_t *rep, int64_t *inv,
                         int64_t *cnt, int64_t *groups, ct_status *s) {
  if (n < 1024) return false;
  uint64_t lo = kv[0].k, hi = kv[0].k;
  for (int64_t i = 1; i < n; i++) {
    lo = kv[i].k < lo ? kv[i].k : lo;
    hi = kv[i].k > hi ? kv[i].k : hi;
  }
  if (hi - lo >= (uint64_t)(2 * n)) return false;
  int64_t len = (int64_t)(hi - lo) + 1;
  ct_tensor *scratch = ct__empty(1, &len, CT_INT64, ct__tdevice(like));
  if (!scratch) {
    *s = ct_last_error();
    return true;
  }
  int64_t *slot = (int64_t *)(void *)ct__tdata(scratch), g = 0; /* first position per key, then its group */
  memset(slot, 0xff, (size_t)len * sizeof(int64_t));
  for (int64_t i = 0; i < n; i++)
    if (slot[kv[i].k - lo] < 0) slot[kv[i].k - lo] = kv[i].i;
  for (int64_t r = 0; r < len; r++)
    if (slot[r] >= 0) {
      rep[g] = slot[r];
      cnt[g] = 0;
      slot[r] = g++;
    }
  for (int64_t i = 0; i < n; i++) {
    int64_t k = slot[kv[i].k - lo];
    inv[kv[i].i] = k;
    cnt[k]++;
  }
  *groups = g;
  ct_release(scratch);
  return true;
}

static ct_status unique_flat(const ct_sort_type *ty, const ct_tensor *t, bool consecutive, bool unsorted,
                             uniq_res *u) {
  ct_tensor *c = ct__contiguous_impl(t, CT_CONTIGUOUS_FORMAT);
  if (!c) return ct_last_error();
  int64_t n = t->numel;
  size_t isz = ct__itemsize(ty->dtype);
  const char *p = ct__tdata(c);
  int64_t *inv = NULL, *cnt = NULL, *rep = NULL;
  ct_kv *kv = NULL;
  int64_t groups = 0;
  ct_status s = CT_OK;
  /* scratch from the tensor allocator, whose cache hands large blocks back already faulted in */
  int64_t m = n ? n : 1, maps_len = 3 * m, kv_bytes = m * 2 * (int64_t)sizeof(ct_kv);
  ct_tensor *maps = ct__empty(1, &maps_len, CT_INT64, ct__tdevice(t)), *kv_t = NULL;
  if (maps) {
    inv = (int64_t *)(void *)ct__tdata(maps);
    cnt = inv + m;
    rep = cnt + m;
  } else {
    s = ct_last_error();
  }
  if (s == CT_OK && consecutive) {
    /* `input_data[i] != *p`: NaN starts a new run each time; -0.0 continues a run of 0.0 */
    for (int64_t i = 0; i < n; i++) {
      bool fresh = i == 0;
      if (!fresh) {
        const char *a = p + (size_t)i * isz, *b = p + (size_t)rep[groups - 1] * isz;
        if (ty->dtype == CT_INT64) fresh = memcmp(a, b, 8) != 0;
        else fresh = ty->to_double(a) != ty->to_double(b);
      }
      if (fresh) {
        rep[groups] = i;
        cnt[groups] = 0;
        groups++;
      }
      cnt[groups - 1]++;
      inv[i] = groups - 1;
    }
  } else if (s == CT_OK && unsorted) {
    s = unique_hashed(ty, p, n, rep, inv, cnt, &groups);
  } else if (s == CT_OK && bf16_zeros_apart(ty, p, n)) {
    s = unique_bf16_sorted(ty, p, n, rep, inv, cnt, &groups);
  } else if (s == CT_OK) {
    kv_t = ct__empty(1, &kv_bytes, CT_UINT8, ct__tdevice(t));
    kv = kv_t ? (ct_kv *)(void *)ct__tdata(kv_t) : NULL;
    if (!kv) s = ct_last_error();
    if (s == CT_OK) ty->kv(p, (int64_t)isz, n, 0, kv);
    if (s == CT_OK && !ty->is_float && unique_dense(kv, n, t, rep, inv, cnt, &groups, &s)) {
      /* counted */
    } else if (s == CT_OK) {
      int key_bits = ty->key_bits;
      bool split_zeros = false;
      if (ty->dtype == CT_BFLOAT16 && n >= 3) {
        /* with NaNs (else unique_bf16_sorted): c10 hashes a BFloat16 by its bits, so -0.0 and 0.0 fall in
           different buckets of torch's set (a prime count of them, at least 13) and both stay; here the one
           seen first is put later, an approximation of the set's order and std::sort's moves */
        const uint16_t *b = (const uint16_t *)p;
        int64_t first_pos = -1, first_neg = -1;
        for (int64_t j = 0; j < n; j++)
          if ((b[j] & 0x7fff) == 0) {
            if ((b[j] & 0x8000) && first_neg < 0) first_neg = j;
            if (!(b[j] & 0x8000) && first_pos < 0) first_pos = j;
          }
        bool neg_ahead = first_neg > first_pos;
        for (int64_t j = 0; j < n; j++) {
          kv[j].k <<= 1;
          if ((b[j] & 0x7fff) == 0) kv[j].k |= (b[j] & 0x8000) ? !neg_ahead : neg_ahead;
        }
        key_bits = 24;
        split_zeros = first_neg >= 0 && first_pos >= 0;
      }
      ct__sort_kv_stable(kv, kv + n, n, key_bits);
      for (int64_t j = 0; j < n; j++) {
        /* NaNs are each their own value (NaN != NaN in torch's set) */
        bool nan = ty->is_float && isnan(ty->to_double(p + (size_t)kv[j].i * isz));
        if (j == 0 || kv[j].k != kv[j - 1].k || nan) {
          rep[groups] = kv[j].i;
          cnt[groups] = 0;
          groups++;
        }
        cnt[groups - 1] += nan ? 0 : 1;
        inv[kv[j].i] = nan ? 0 : groups - 1;
      }
      if (split_zeros && bf16_zero_pair(ty, p, rep, groups)) {
        for (int64_t j = 0; j < n; j++) inv[j] = 1;
        cnt[0] = cnt[1] = n;
      }
    }
  }
  if (s == CT_OK) {
    int64_t g = groups;
    u->out = ct__empty(1, &g, ty->dtype, ct__tdevice(t));
    u->inverse = ct__empty(t->ndim, t->sizes, CT_INT64, ct__tdevice(t));
    u->counts = ct__empty(1, &g, CT_INT64, ct__tdevice(t));
    if (!u->out || !u->inverse || !u->counts) s = ct_last_error();
  }
  if (s == CT_OK) {
    char *o = ct__tdata(u->out);
    for (int64_t j = 0; j < groups; j++) memcpy(o + (size_t)j * isz, p + (size_t)rep[j] * isz, isz);
    if (n) memcpy(ct__tdata(u->inverse), inv, (size_t)n * sizeof(int64_t));
    if (groups) memcpy(ct__tdata(u->counts), cnt, (size_t)groups * sizeof(int64_t));
  }
  ct_release(maps);
  ct_release(kv_t);
  ct_release(c);
  if (s != CT_OK) uniq_release(u);
  return s;
}

/* ---- along a dim ---- */
static ct_status unique_along(const ct_sort_type *ty, const ct_tensor *t, int64_t dim, bool consecutive,
                              uniq_res *u) {
  int64_t nd = t->ndim, zeros = 0;
  for (int64_t d = 0; d < nd; d++) zeros += t->sizes[d] == 0;
  ct_device dev = ct__tdevice(t);
  if (t->sizes[dim] == 0) {
    if (zeros != 1) {
      ct__error(CT_ERR_RUNTIME,
                "Number of zero sized dimensions is more than one, so unique cannot be applied ");
      return CT_ERR_RUNTIME;
    }
    int64_t z = 0;
    u->out = ct__empty(nd, t->sizes, ty->dtype, dev);
    u->inverse = ct__empty(1, &z, CT_INT64, dev);
    u->counts = ct__empty(1, &z, CT_INT64, dev);
    if (u->out && u->inverse && u->counts) return CT_OK;
    uniq_release(u);
    return ct_last_error();
  }
  if (zeros) {
    ct__error(CT_ERR_RUNTIME,
              "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
    return CT_ERR_RUNTIME;
  }
  /* transpose(dim, 0).contiguous(): rows of width numel / size(dim) */
  int64_t order[nd];
  for (int64_t d = 0; d < nd; d++) order[d] = d;
  order[0] = dim;
  order[dim] = 0;
  ct_tensor *moved = ct__permute_unchecked(t, order);
  ct_tensor *c = moved ? ct__contiguous_impl(moved, CT_CONTIGUOUS_FORMAT) : NULL;
  ct_release(moved);
  if (!c) return ct_last_error();
  int64_t n = t->sizes[dim], width = t->numel / n;
  rows r = {0};
  void *buf = NULL;
  int64_t *idx = ct__malloc((size_t)n * sizeof(int64_t) * 3);
  ct_status s = CT_OK;
  if (!idx || !load_rows(ty, c, width, &r, &buf))
    s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
  int64_t groups = 0;
  if (s == CT_OK) {
    int64_t *inv = idx + n, *cnt = idx + 2 * n;
    for (int64_t j = 0; j < n; j++) idx[j] = j;
    if (!consecutive) urow_sort(&r, idx, idx + n);
    /* _unique_dim_cpu_impl: idx[j] is the row at sorted position j; groups keep their first row */
    int64_t result = 0, previous = 0;
    inv[idx[0]] = 0;
    for (int64_t cur = 1; cur < n; cur++) {
      if (!row_equal(&r, idx[cur], idx[result])) {
        idx[++result] = idx[cur];
        cnt[groups++] = cur - previous;
        previous = cur;
      }
      inv[idx[cur]] = result;
    }
    cnt[groups++] = n - previous;
    /* the output: the kept rows stacked, shaped as the transposed input, transposed back */
    int64_t sizes[nd];
    sizes[0] = groups;
    for (int64_t d = 1; d < nd; d++) sizes[d] = c->sizes[d];
    ct_tensor *stacked = ct__empty(nd, sizes, ty->dtype, dev);
    u->inverse = ct__empty(1, &n, CT_INT64, dev);
    u->counts = ct__empty(1, &groups, CT_INT64, dev);
    if (!stacked || !u->inverse || !u->counts) {
      s = ct_last_error();
      ct_release(stacked);
    } else {
      size_t row_bytes = (size_t)width * ct__itemsize(ty->dtype);
      for (int64_t j = 0; j < groups; j++)
        memcpy(ct__tdata(stacked) + (size_t)j * row_bytes, ct__tdata(c) + (size_t)idx[j] * row_bytes,
               row_bytes);
      memcpy(ct__tdata(u->inverse), inv, (size_t)n * sizeof(int64_t));
      memcpy(ct__tdata(u->counts), cnt, (size_t)groups * sizeof(int64_t));
      int64_t back[nd];
      for (int64_t d = 0; d < nd; d++) back[order[d]] = d;
      u->out = ct__permute_unchecked(stacked, back);
      ct_release(stacked);
      if (!u->out) s = ct_last_error();
    }
  }
  ct__free(idx);
  ct__free(buf);
  ct_release(c);
  if (s != CT_OK) uniq_release(u);
  return s;
}

static ct_status unique_common(const ct_op *flat_op, const ct_tensor *t, bool consecutive, ct_tensor **output,
                               ct_tensor **inverse, ct_tensor **counts, const ct_unique_opts *o) {
  ct_unique_opts none = {0};
  if (!o) o = &none;
  if (output) *output = NULL;
  if (inverse) *inverse = NULL;
  if (counts) *counts = NULL;
  if (consecutive && o->unsorted) {
    ct__error(CT_ERR_TYPE, "unique_consecutive() got an unexpected keyword argument 'sorted'");
    return CT_ERR_TYPE;
  }
  bool has_dim;
  int64_t dim = 0;
  if (!ct__red_single_dim(consecutive ? "unique_consecutive" : "unique", o->dims, &has_dim, &dim))
    return ct_last_error();
  if (!ct__check_in_storage(t)) return ct_last_error();
  uniq_res u = {0};
  ct_status s;
  /* unique_consecutive with dim 0 of a 1-D input is the flat form (unique_consecutive_cpu); the dim forms
     dispatch on the dtype before they look at the dim */
  bool flat = !has_dim || (consecutive && dim == 0 && t->ndim == 1);
  const ct_op *op = flat ? flat_op : &unique_dim_op;
  const ct_sort_type *ty = ct__sort_type(op, t);
  if (!ty) {
    ct__red_not_implemented(flat ? "unique" : "unique_dim", (ct_dtype)t->dtype);
    return CT_ERR_RUNTIME;
  }
  if (!flat && t->ndim == 0) { /* maybe_wrap_dim(dim, 0, wrap_scalar=false) */
    ct__error(CT_ERR_INDEX, "Dimension specified as %" PRId64 " but tensor has no dimensions", dim);
    return CT_ERR_INDEX;
  }
  if (!flat && (dim = ct__wrap_dim(dim, t->ndim)) < 0) return CT_ERR_INDEX;
  s = flat ? unique_flat(ty, t, consecutive, o->unsorted, &u) : unique_along(ty, t, dim, consecutive, &u);
  if (s != CT_OK) return s;
  ct_tensor *r[3] = {u.out, u.inverse, u.counts};
  ct_tensor **want[3] = {output, inverse, counts};
  return ct__sort_hand_out(r, want, 3, CT_OK);
}

ct_status ct_unique(const ct_tensor *t, ct_tensor **output, ct_tensor **inverse, ct_tensor **counts,
                    const ct_unique_opts *opts) {
  /* torch.unique with dim= dispatches unique_dim (the dispatcher's refusal names it), without dim= _unique2 */
  CT__OP_ENTER_STATUS(opts && opts->dims.ndim > 0 ? &unique_dim_op : &unique_op, t, t);
  return unique_common(&unique_op, t, false, output, inverse, counts, opts);
}

ct_status ct_unique_consecutive(const ct_tensor *t, ct_tensor **output, ct_tensor **inverse,
                                ct_tensor **counts, const ct_unique_opts *opts) {
  CT__OP_ENTER_STATUS(&unique_consecutive_op, t, t);
  return unique_common(&unique_consecutive_op, t, true, output, inverse, counts, opts);
}
