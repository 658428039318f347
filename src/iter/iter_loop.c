/* Running an iteration: each row of the coalesced shape goes to the op's 1-D loop. Operands whose dtype
   differs from the loop's are converted through small stack buffers, chunk by chunk; large iterations are
   split over threads by linear index, as at::parallel_for splits them. Rows with an input that walks them
   with a large stride go in cache-sized tiles (iter_tile.c); outputs far beyond the last-level cache are
   written with non-temporal stores. Neither changes a bit of any result. */
#include <stdio.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/cast.h"
#include "core/parallel.h"
#include "iter/iter.h"
#include "iter/iter_tile.h"

/* Elements per conversion chunk: 16 bytes (complex128) x 512 = 8 KiB per buffer. */
#define CT_CAST_CHUNK 512
/* Cuts inside a row fall a multiple of this many elements after the start of the row's piece in its
   thread's range, and leave at least as many after them (see cut). */
#define CT_CUT_ALIGN 512

/* Strided gather / scatter of n elements of size isz. */
static void gather(char *dst, const char *src, int64_t stride, int64_t n, size_t isz) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * isz, src + i * stride, isz);
}
static void scatter(char *dst, int64_t stride, const char *src, int64_t n, size_t isz) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * stride, src + (size_t)i * isz, isz);
}

/* Not inlined: its 56 KiB of buffers would make every caller's frame probe the stack on each call. */
static CT_NOINLINE void run_row_cast(const ct_iter *it, char *const *ptrs, const int64_t *strides, int64_t n, ct_loop_fn loop,
                         const void *ctx) {
  _Alignas(64) char bufs[CT_ITER_MAX_OPERANDS][CT_CAST_CHUNK * 16];
  _Alignas(64) char tmp[CT_CAST_CHUNK * 16];
  char *data[CT_ITER_MAX_OPERANDS];
  int64_t st[CT_ITER_MAX_OPERANDS];
  for (int64_t off = 0; off < n; off += CT_CAST_CHUNK) {
    int64_t m = n - off < CT_CAST_CHUNK ? n - off : CT_CAST_CHUNK;
    for (int k = 0; k < it->n_ops; k++) {
      ct_dtype have = (ct_dtype)it->ops[k]->dtype, want = it->loop_dtype[k];
      char *p = ptrs[k] + off * strides[k];
      if (have == want) {
        data[k] = p;
        st[k] = strides[k];
        continue;
      }
      data[k] = bufs[k];
      st[k] = (int64_t)ct__itemsize(want);
      if (k < it->n_out) continue; /* outputs are converted after the loop */
      if (strides[k] == 0) {
        /* a broadcast operand (a scalar, say): convert its one element once */
        if (off == 0) ct__cast_n(bufs[k], want, p, have, 1);
        st[k] = 0;
        continue;
      }
      size_t isz = ct__itemsize(have);
      const char *src = p;
      if (strides[k] != (int64_t)isz) {
        gather(tmp, p, strides[k], m, isz);
        src = tmp;
      }
      ct__cast_n(bufs[k], want, src, have, m);
    }
    loop(data, st, m, ctx);
    for (int k = 0; k < it->n_out; k++) {
      ct_dtype have = (ct_dtype)it->ops[k]->dtype, want = it->loop_dtype[k];
      if (have == want) continue;
      char *p = ptrs[k] + off * strides[k];
      size_t isz = ct__itemsize(have);
      if (strides[k] == (int64_t)isz) {
        ct__cast_n(p, have, bufs[k], want, m);
      } else {
        ct__cast_n(tmp, have, bufs[k], want, m);
        scatter(p, strides[k], tmp, m, isz);
      }
    }
  }
}

/* ---- streaming stores for large outputs ----
   An output far larger than the last-level cache cannot stay cached for whoever reads it next, and each
   plain store first reads its line from memory (read for ownership): a + b moves four bytes for three.
   Such outputs are written by the loop's streaming variant (kernels/cpu/loops.h), which computes the same
   values and sends whole lines to memory with non-temporal stores. (Computing chunks into a cached
   buffer and streaming that out is no faster than plain stores: the burst of stores stalls the loads.) */

/* The last-level cache in bytes: the largest cache sysfs lists for cpu 0 (sysconf's figure can be the
   host's in a virtual machine: 320 MiB here for a 32 MiB L3), else sysconf's, else 32 MiB. */
static int64_t llc_bytes(void) {
  int64_t best = 0;
  for (int i = 0; i < 8; i++) {
    char path[96], text[32] = {0};
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *f = fopen(path, "r");
    if (!f) break;
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end == 'K') v <<= 10;
    if (*end == 'M') v <<= 20;
    if (v > best) best = v;
  }
  if (best <= 0) best = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return best > 0 ? best : (int64_t)32 << 20;
}

/* Outputs of more bytes than this are streamed: beyond the last-level cache, smaller ones stay in it
   for whoever reads them next. */
static _Atomic int64_t stream_bytes = 0; /* 0: not yet known */

void ct__iter_set_stream_threshold(int64_t bytes) { atomic_store(&stream_bytes, bytes > 0 ? bytes : llc_bytes()); }

int64_t ct__iter_stream_threshold(void) {
  int64_t t = atomic_load_explicit(&stream_bytes, memory_order_relaxed);
  if (!t) {
    t = llc_bytes();
    atomic_store_explicit(&stream_bytes, t, memory_order_relaxed);
  }
  return t;
}

/* The streaming variant of loop when the output is a single one, contiguous in the inner dim, larger than
   the threshold and met by no input (an in-place output has its lines cached by the reads anyway). */
static ct_loop_fn plan_stream(const ct_iter *it, const ct_loop *loop) {
  if (it->n_out != 1 || it->ndim == 0) return NULL;
  ct_loop_fn stream = loop->stream;
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)it->ops[0]->dtype);
  if (!stream || it->strides[0] != isz || it->numel * isz <= ct__iter_stream_threshold()) return NULL;
  /* not for complex loops: GCC compiles complex products to fused multiply-adds (vfmaddsub) in some loops
     and not in others, so a complex result's last bit depends on the code that computes it */
  for (int k = 0; k < it->n_ops; k++)
    if (ct__dt(it->loop_dtype[k])->category == CT_CAT_COMPLEX) return NULL;
  return ct__iter_outputs_meet_inputs(it, false) ? NULL : stream;
}

static void serial_for_each(const ct_iter *it, int64_t begin, int64_t end, bool casts, ct_loop_fn loop,
                            const void *ctx) {
  int64_t nd = it->ndim;
  char *base[CT_ITER_MAX_OPERANDS], *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t inner[CT_ITER_MAX_OPERANDS];
  for (int k = 0; k < it->n_ops; k++) {
    base[k] = ct__tdata(it->ops[k]);
    inner[k] = nd ? it->strides[(size_t)k * (size_t)nd] : 0;
  }
  if (nd == 0) {
    if (casts)
      run_row_cast(it, base, inner, 1, loop, ctx);
    else
      loop(base, inner, 1, ctx);
    return;
  }
  if (nd == 1) { /* one row: no index to carry */
    for (int k = 0; k < it->n_ops; k++) base[k] += begin * inner[k];
    if (casts)
      run_row_cast(it, base, inner, end - begin, loop, ctx);
    else
      loop(base, inner, end - begin, ctx);
    return;
  }
  int64_t idx[nd];
  ct__iter_unravel(it, begin, idx);
  for (int64_t pos = begin; pos < end;) {
    int64_t n = it->shape[0] - idx[0];
    if (n > end - pos) n = end - pos;
    ct__iter_pointers(it, idx, ptrs);
    if (casts)
      run_row_cast(it, ptrs, inner, n, loop, ctx);
    else
      loop(ptrs, inner, n, ctx);
    pos += n;
    idx[0] += n;
    ct__iter_carry(it, idx);
  }
}

/* Elements [begin, end): tiled when planned so (iter_tile.c), else row by row. */
static void range_for_each(const ct_iter *it, const ct_tile_plan *tp, int64_t begin, int64_t end, bool casts,
                           bool stream, ct_loop_fn loop, const void *ctx) {
  if (tp->w) {
    ct__tile_range(it, tp, begin, end, loop, ctx);
  } else {
    serial_for_each(it, begin, end, casts, loop, ctx);
#if defined(__SSE2__)
    if (stream) _mm_sfence(); /* the streamed lines are visible before the caller (or the join) goes on */
#endif
  }
}

/* A parallel iteration: PyTorch's ranges (one per thread), each cut into pieces that any thread may run. */
typedef struct par_iter {
  const ct_iter *it;
  const ct_tile_plan *tp;
  bool casts, stream;
  ct_loop_fn loop;
  const void *ctx;
  int64_t range;  /* elements per range (the last may have fewer) */
  int64_t pieces; /* pieces per range */
} par_iter;

/* Where a piece boundary aimed at c goes, within the range [b, e). The loops see exactly the calls they
   would see for the whole range, so no element changes its formula: a cut falls at the start of the row
   piece (the part of c's row inside [b, e)) it aims into, or, in a row piece that is not tiled, a
   multiple of CT_CUT_ALIGN elements after its start with CT_CUT_ALIGN or more still after it. A loop's
   vector blocks (at most 64 bytes of 1-byte elements), its unrolled scalar groups and the conversion
   chunks (CT_CAST_CHUNK) all count from the start of the call, so they stay where they were, and the
   last call keeps its tail; no call shrinks below CT_CUT_ALIGN elements where short rows have forms of
   their own. Monotone in c, so pieces never overlap. */
static int64_t cut(const par_iter *p, int64_t c, int64_t b, int64_t e) {
  int64_t n0 = p->it->shape[0];
  int64_t r = c - c % n0;
  int64_t ps = r > b ? r : b;
  if (p->tp->w) return ps;
  int64_t pe = r + n0 < e ? r + n0 : e;
  int64_t room = pe - ps - CT_CUT_ALIGN; /* what may go before the cut */
  int64_t k = c - ps < room ? c - ps : room;
  k = k / CT_CUT_ALIGN * CT_CUT_ALIGN;
  return k > 0 ? ps + k : ps;
}

static void par_piece(void *v, int64_t i, int tid) {
  (void)tid;
  const par_iter *p = v;
  int64_t numel = p->it->numel;
  int64_t r = i / p->pieces, k = i % p->pieces;
  int64_t b = r * p->range, e = b + p->range < numel ? b + p->range : numel;
  if (b >= e) return; /* PyTorch's split can leave the last ranges empty */
  int64_t len = e - b;
  int64_t pb = k == 0 ? b : cut(p, b + len * k / p->pieces, b, e);
  int64_t pe = k == p->pieces - 1 ? e : cut(p, b + len * (k + 1) / p->pieces, b, e);
  if (pb < pe) range_for_each(p->it, p->tp, pb, pe, p->casts, p->stream, p->loop, p->ctx);
}

void ct__iter_run(ct_iter *it, const ct_loop *desc, const void *ctx) {
  ct_loop_fn loop = desc->fn;
  if (it->is_meta || it->numel == 0) return;
  bool casts = false;
  for (int k = 0; k < it->n_ops; k++) casts |= (ct_dtype)it->ops[k]->dtype != it->loop_dtype[k];
  int64_t numel = it->numel;
  if (numel < CT_PAR_GRAIN || desc->serial) { /* one thread, rows too short for tiles or streams to pay */
    serial_for_each(it, 0, numel, casts, loop, ctx);
    return;
  }
  ct_tile_plan tp = {0};
  if (!casts) ct__tile_plan(it, desc, &tp);
  ct_loop_fn stream = casts || tp.w ? NULL : plan_stream(it, desc);
  if (stream) loop = stream;
  /* at::parallel_for's split (core/parallel.h): rows cut at the same places as in PyTorch, so kernels
     whose vector and scalar paths differ in the last bit (complex abs, say) give PyTorch's bits with the
     same thread count. Each range then goes in pieces (cut above), handed to whichever thread is free. */
  int nt = ct__num_threads();
  int64_t ranges, range = ct__parallel_torch_split(numel, nt, &ranges);
  if (ranges <= 1) {
    range_for_each(it, &tp, 0, numel, casts, stream != NULL, loop, ctx);
    return;
  }
  par_iter p = {it, &tp, casts, stream != NULL, loop, ctx, range, 1};
  /* pieces let a free thread take over part of a range; in a quiet period the caller runs every range
     alone, and each piece would only cost it a call (256 of them for a 16M add) */
  if (!ct__parallel_quiet()) p.pieces = ct__parallel_nchunks(p.range, 1);
  ct__parallel_chunks(ranges * p.pieces, nt, par_piece, &p);
}
