#!/usr/bin/env python3
"""Threads under load: for each op, ctorch's time at 2 threads over its time at 1 thread, and torch's,
first with the machine as it is ("idle"), then with one more process spinning ("loaded": a shell loop in
its own process group, killed by its id afterwards, whatever happens). Beside the pointwise, reduction,
scan and random ops, the main ops of the join, index and sort families (issue 16's bench shapes), and products
(OpenBLAS's and oneDNN's OpenMP threads, which the pool does not govern).
THREADS_LOAD_ONLY (comma-separated substrings of the labels) runs a subset; THREADS_LOAD_MEDIAN=1 reports
the median of the rounds' ctorch 2t/1t ratios instead of the best times' ratio, with a 95% interval of each
median (an op counts as slower at 2 threads only where the whole interval is above 1);
THREADS_LOAD_CONTROL=1 adds, with the median, a control per op: each loaded round also times the op at 1
thread against 1 thread, and an op counts as slower loaded only where its rounds' 2t/1t ratios over their
controls' ratios have an interval above 1 (the control is how wide the machine's noise alone is); with
the median an op counts as slower only where its interval at the 95% level of all the ops together
(Bonferroni) is above 1, the 95% intervals of single ops are printed; THREADS_LOAD_PRIORITY=1 runs this process and the spinner at autogroup nice -20 (root), so that other programs building on the
machine disturb less (the idle column is then the machine with them held back). A ratio above 1.00 means the op
is slower at 2 threads than at 1: ctorch's target is <= 1.00 in both columns (DESIGN.md 4.5; issue 13).

Each round times ctorch at 1 and 2 threads back to back (in alternating order), and torch likewise; the best time of
ROUNDS rounds is taken for each (the machine is shared: the best is the least disturbed). Times in ms.
CTORCH_BUILD (default build/) names the build; THREADS_LOAD_ROUNDS the rounds (default 7); THREADS_LOAD_N
the elements (default 16M; the matrix is 4096 x N/4096): a smaller N that fits in the caches shows the
threading alone where memory bandwidth is shared with other programs."""
import ctypes
import math
import os
import signal
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
ROUNDS = int(os.environ.get("THREADS_LOAD_ROUNDS", "7"))
N = int(os.environ.get("THREADS_LOAD_N", 16 << 20))
FLOAT32 = 9

# ctorch before torch: loading it brings libgomp into the process as a C program linking ctorch gets it
# (passive: src/core/omp_runtime.c). torch, loaded after, shares that libgomp, so its columns here are torch
# with libgomp passive, not torch alone (which spins: loaded, its LAPACK rows take 20-60x its 1-thread time).
lib = ctypes.CDLL(os.environ.get("CTORCH_LIB", os.path.join(BUILD, "libctorch.so")))
import blas_core  # noqa: E402,F401  (torch's OpenBLAS with ctorch's core type: products compare libraries)
import torch  # noqa: E402
P = ctypes.c_void_p


from ct_structs import Complex, RandomOpts, ReduceOpts, Scalar, ScalarValue, Shape, VarOpts  # noqa: F401


class Tensors(ctypes.Structure):  # ct_tensors
    _fields_ = [("data", ctypes.POINTER(P)), ("n", ctypes.c_int64)]


class Item(ctypes.Structure):  # ct_index_item (index.h): kind, slice, tensor, spec, number
    _fields_ = [("kind", ctypes.c_int), ("start", ctypes.c_int64), ("stop", ctypes.c_int64), ("step", ctypes.c_int64),
                ("tensor", P), ("spec", ctypes.c_char_p), ("number", Scalar)]


for name, res, args in [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
                        ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_add", P, [P, P, P]),
                        ("ct_cumsum", P, [P, ctypes.c_int64, P]), ("ct_randn", P, [Shape, P]),
                        ("ct_exp", P, [P]), ("ct_mul", P, [P, P]), ("ct_mm", P, [P, P]), ("ct_mv", P, [P, P]), ("ct_dot", P, [P, P]), ("ct_linalg_inv", P, [P]), ("ct_linalg_solve", P, [P, P, P]),
                        ("ct_cat_out", ctypes.c_int, [P, Tensors, ctypes.c_int64]),
                        ("ct_tril_out", ctypes.c_int, [P, P, ctypes.c_int64]), ("ct_flip", P, [P, Shape]),
                        ("ct_repeat", P, [P, Shape]), ("ct_index_select", P, [P, ctypes.c_int64, P]),
                        ("ct_gather", P, [P, ctypes.c_int64, P, P]), ("ct_scatter_add", P, [P, ctypes.c_int64, P, P]),
                        ("ct_masked_select", P, [P, P]), ("ct_nonzero", P, [P]),
                        ("ct_index_items", P, [P, P, ctypes.c_int64]),
                        ("ct_index_put_items_", ctypes.c_int, [P, P, ctypes.c_int64]),
                        ("ct_argsort", P, [P, P]), ("ct_softmax", P, [P, ctypes.c_int64, P]),
                        ("ct_amax", P, [P, P]), ("ct_last_error_message", ctypes.c_char_p, [])] + \
                       [(f, P, [P, P]) for f in ("ct_sum", "ct_mean", "ct_argmax", "ct_var")]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args
KEEP = []


def shape(dims):
    arr = (ctypes.c_int64 * max(1, len(dims)))(*dims)
    s = Shape(arr, len(dims))
    s._keep = arr
    return s


DTYPES = {torch.float32: FLOAT32, torch.int64: 6, torch.bool: 1, torch.bfloat16: 8, torch.float64: 10, torch.complex64: 11}


def to_ct(t):
    p = lib.ct_tensor_from_data(t.contiguous().data_ptr(), DTYPES[t.dtype], shape(list(t.shape)), None)
    KEEP.append(p)
    return p


def cases():
    torch.manual_seed(0)
    x, y, m = torch.randn(N), torch.randn(N), torch.randn(4096, N // 4096)
    cx, cy, cm = to_ct(x), to_ct(y), to_ct(m)

    def red(f, ct_x, dims, opts_type=ReduceOpts):
        o = opts_type()
        o.dims = shape(dims)
        KEEP.append(o)
        return lambda: f(ct_x, ctypes.byref(o))

    n = f"{N >> 20}M" if N % (1 << 20) == 0 else str(N)
    rs, ro = shape([N]), RandomOpts(None, FLOAT32)
    KEEP.extend([rs, ro])
    return [
        (f"sum {n}", red(lib.ct_sum, cx, []), lambda: x.sum()),
        (f"mean {n}", red(lib.ct_mean, cx, []), lambda: x.mean()),
        (f"sum 4096x{N // 4096} dim 1", red(lib.ct_sum, cm, [1]), lambda: m.sum(1)),
        (f"sum 4096x{N // 4096} dim 0", red(lib.ct_sum, cm, [0]), lambda: m.sum(0)),
        (f"argmax {n}", red(lib.ct_argmax, cx, []), lambda: x.argmax()),
        (f"var {n}", red(lib.ct_var, cx, [], VarOpts), lambda: x.var()),
        (f"cumsum {n}", lambda: lib.ct_cumsum(cx, 0, None), lambda: x.cumsum(0)),
        (f"cumsum 4096x{N // 4096} dim 0", lambda: lib.ct_cumsum(cm, 0, None), lambda: m.cumsum(0)),
        (f"cumsum 4096x{N // 4096} dim 1", lambda: lib.ct_cumsum(cm, 1, None), lambda: m.cumsum(1)),
        (f"add {n}", lambda: lib.ct_add(cx, cy, None), lambda: x + y),
        (f"mul {n}", lambda: lib.ct_mul(cx, cy), lambda: x * y),
        (f"exp {n}", lambda: lib.ct_exp(cx), lambda: x.exp()),
        (f"randn {n}", lambda: lib.ct_randn(rs, ctypes.byref(ro)), lambda: torch.randn(N)),
    ] + family_cases()


def status(st):
    """An out= or in-place call's status as timed_ct's result: True (nothing to release), None on failure."""
    return True if st == 0 else None


def family_cases():
    """The join, index and sort families' main ops at issue 16's bench shapes (float32, int64 indices)."""
    torch.manual_seed(1)
    out = []
    xs = [torch.randn(2 << 20) for _ in range(8)]
    lst = Tensors((P * 8)(*[to_ct(x) for x in xs]), 8)
    KEEP.append(lst)
    to, co = torch.empty(16 << 20), to_ct(torch.empty(16 << 20))
    out.append(("cat 8x2M out=", lambda: status(lib.ct_cat_out(co, lst, 0)), lambda: torch.cat(xs, 0, out=to)))
    m = torch.randn(4096, 4096)
    cm = to_ct(m)
    tt, ct = torch.empty(4096, 4096), to_ct(torch.empty(4096, 4096))
    out.append(("tril 4096^2 out=", lambda: status(lib.ct_tril_out(ct, cm, 0)), lambda: torch.tril(m, 0, out=tt)))
    d0, r21 = shape([0]), shape([2, 1])
    KEEP.extend([d0, r21])
    out.append(("flip 4096^2 dim 0", lambda: lib.ct_flip(cm, d0), lambda: torch.flip(m, (0,))))
    out.append(("repeat 4096^2 (2,1)", lambda: lib.ct_repeat(cm, r21), lambda: m.repeat(2, 1)))
    idx = torch.randint(0, 4096, (4096, 4096))
    ci = to_ct(idx)
    out.append(("gather 4096^2 dim 1", lambda: lib.ct_gather(cm, 1, ci, None), lambda: torch.gather(m, 1, idx)))
    out.append(("scatter_add 4096^2", lambda: lib.ct_scatter_add(cm, 1, ci, cm), lambda: torch.scatter_add(m, 1, idx, m)))
    rows = torch.randn(1 << 20, 64)
    ri = torch.randint(0, 1 << 20, (1 << 16,))
    cr, cri = to_ct(rows), to_ct(ri)
    out.append(("index_select 64K rows", lambda: lib.ct_index_select(cr, 0, cri), lambda: torch.index_select(rows, 0, ri)))
    big = torch.randn(N)
    mask = big > 0
    cb, cmask = to_ct(big), to_ct(mask)
    out.append(("masked_select half", lambda: lib.ct_masked_select(cb, cmask), lambda: torch.masked_select(big, mask)))
    out.append(("nonzero half", lambda: lib.ct_nonzero(cmask), lambda: torch.nonzero(mask)))
    src = torch.randn(1 << 20, 16)
    ai = torch.randint(0, 1 << 20, (1 << 20,))
    cs, cai = to_ct(src), to_ct(ai)
    get_items = (Item * 1)()
    get_items[0].kind, get_items[0].tensor = 6, cai  # CT_INDEX_TENSOR
    val, dst = torch.randn(1 << 20, 16), torch.zeros(1 << 20, 16)
    cv, cd = to_ct(val), to_ct(dst)
    put_items = (Item * 2)()
    put_items[0].kind, put_items[0].tensor, put_items[1].kind, put_items[1].tensor = 6, cai, 6, cv
    KEEP.extend([get_items, put_items])

    def t_set():
        dst[ai] = val
    out.append(("x[idx] 1M rows of 16", lambda: lib.ct_index_items(cs, ctypes.cast(get_items, P), 1), lambda: src[ai]))
    out.append(("x[idx] = v 1M rows", lambda: status(lib.ct_index_put_items_(cd, ctypes.cast(put_items, P), 2)), t_set))
    s1 = torch.randn(1 << 20)
    cs1 = to_ct(s1)
    out.append(("argsort 1M", lambda: lib.ct_argsort(cs1, None), lambda: torch.argsort(s1)))
    sm = torch.randn(4096, N // 4096)
    csm = to_ct(sm)
    out.append(("softmax rows dim 1", lambda: lib.ct_softmax(csm, 1, None), lambda: torch.softmax(sm, 1)))
    o = ReduceOpts()
    o.dims = shape([1])
    KEEP.append(o)
    out.append(("amax dim 1", lambda: lib.ct_amax(csm, ctypes.byref(o)), lambda: sm.amax(1)))
    # products: gemm, gemv and dot on the pool (blas_pool.c replays OpenBLAS's threaded driver: every real and
    # complex type, any size), oneDNN's OpenMP threads for bfloat16 on AVX-512 CPUs
    for dt, (mr, mk, mc) in ((torch.float32, (256, 256, 256)), (torch.float32, (1024, 1024, 1024)),
                          (torch.float64, (256, 256, 256)), (torch.float64, (1024, 1024, 1024)),
                          (torch.complex64, (256, 256, 256)), (torch.bfloat16, (64, 512, 512))):
        ta, tb = torch.randn(mr, mk).to(dt), torch.randn(mk, mc).to(dt)
        pa, pb = to_ct(ta), to_ct(tb)
        out.append(("mm %s %dx%dx%d" % (str(dt)[6:], mr, mk, mc), lambda pa=pa, pb=pb: lib.ct_mm(pa, pb),
                    lambda ta=ta, tb=tb: torch.mm(ta, tb)))
    dx, dy = torch.randn(4 << 20, dtype=torch.float64), torch.randn(4 << 20, dtype=torch.float64)
    cdx, cdy = to_ct(dx), to_ct(dy)
    out.append(("dot float64 4M", lambda: lib.ct_dot(cdx, cdy), lambda: torch.dot(dx, dy)))
    # LAPACK: OpenBLAS's own threads inside (its blocked routines call its threaded BLAS internally)
    sq = torch.randn(512, 512, dtype=torch.float64)
    csq = to_ct(sq)
    out.append(("linalg.inv float64 512", lambda: lib.ct_linalg_inv(csq), lambda: torch.linalg.inv(sq)))
    rhs = torch.randn(512, 64, dtype=torch.float64)
    crhs = to_ct(rhs)
    out.append(("linalg.solve float64 512", lambda: lib.ct_linalg_solve(csq, crhs, None),
                lambda: torch.linalg.solve(sq, rhs)))
    mat, vec = torch.randn(2048, 1536), torch.randn(1536)
    cmat, cvec = to_ct(mat), to_ct(vec)
    out.append(("mv float32 2048x1536", lambda: lib.ct_mv(cmat, cvec), lambda: torch.mv(mat, vec)))
    return out


def timed_ct(call, threads):
    lib.ct_set_num_threads(threads)
    t0 = time.perf_counter()
    r = call()
    t = time.perf_counter() - t0
    if not r:
        sys.exit("ctorch call failed: %s" % lib.ct_last_error_message().decode())
    if r is not True:
        lib.ct_release(r)
    return t


def timed_torch(call, threads):
    torch.set_num_threads(threads)
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


def measure(all_cases, control=False):
    """Per op: ctorch's rounds, then torch's (torch's OpenMP threads spin a while after each call: they
    would load the second core while ctorch runs). control: each round also times a control pair, both
    calls at 1 thread (the same protocol measuring nothing but the machine's noise), beside the 2t/1t
    pair and in alternating order with it, so that both pairs of a round meet the same machine; a row
    then also holds the rounds' control ratios."""
    rows = []
    for label, ct_call, torch_call in all_cases:
        ratios, controls = [], []  # ctorch 2t / 1t of each round; 1t / 1t of each round (control)
        best = [float("inf")] * 4
        timed_ct(ct_call, 2)  # warm-up: threads started, pages touched
        for r in range(ROUNDS):
            # the order alternates: a call that follows another may find the caches, the pages or the
            # worker's state that call left, and that must not favour one thread count (nor the pair
            # timed first in a round, with the control)
            def pair(many):
                if r % 2:
                    t2 = timed_ct(ct_call, many)
                    return timed_ct(ct_call, 1), t2
                t1 = timed_ct(ct_call, 1)
                return t1, timed_ct(ct_call, many)
            if control and r % 4 >= 2:
                c1, c2 = pair(1)
            t1, t2 = pair(2)
            if control and r % 4 < 2:
                c1, c2 = pair(1)
            if control:
                controls.append(c2 / c1)
            best[0], best[1] = min(best[0], t1), min(best[1], t2)
            ratios.append(t2 / t1)
        timed_torch(torch_call, 2)
        for _ in range(ROUNDS):
            best[2] = min(best[2], timed_torch(torch_call, 1))
            best[3] = min(best[3], timed_torch(torch_call, 2))
        rows.append((label, best, statistics.median(ratios), median_ci(ratios), ratios, controls))
    lib.ct_set_num_threads(0)
    return rows


def shift_ci(ratios, controls, alpha=0.05):
    """The 2t/1t ratios over the control's 1t/1t ratios, round by round: the median of the rounds'
    quotients and its 1 - alpha interval (median_ci). Above 1.00 as a whole, the op is slower at 2 threads
    than the same calls at 1 thread measured the same way at the same time."""
    q = [r / c for r, c in zip(ratios, controls)]
    return statistics.median(q), median_ci(q, alpha)


def median_ci(xs, alpha=0.05):
    """A 1 - alpha confidence interval of the median that assumes nothing of the distribution: the order
    statistics x_(k) and x_(n+1-k), k the largest with P(Binomial(n, 1/2) < k) <= alpha / 2 (the whole
    range where the rounds are too few for any narrower one)."""
    xs, n = sorted(xs), len(xs)
    k, below = 0, 0.0
    while k < n // 2:
        nxt = below + math.comb(n, k) / 2 ** n
        if nxt > alpha / 2:
            break
        below, k = nxt, k + 1
    k = max(k, 1)
    return xs[k - 1], xs[n - k]


PRIORITY = os.environ.get("THREADS_LOAD_PRIORITY") == "1"
# THREADS_LOAD_MEDIAN=1: ctorch's columns are the median of the rounds' 2t/1t ratios (each round times 1
# and 2 threads back to back), steadier than the best times on a machine that other programs disturb.
MEDIAN = os.environ.get("THREADS_LOAD_MEDIAN") == "1"
# THREADS_LOAD_CONTROL=1 (with MEDIAN): in the loaded pass, each round also times the op at 1 thread
# against 1 thread; the verdict then compares the 2t/1t ratios with these, round by round (shift_ci).
CONTROL = MEDIAN and os.environ.get("THREADS_LOAD_CONTROL") == "1"


def set_autogroup_nice(pid, nice=-20):
    """Returns the group's nice before."""
    with open(f"/proc/{pid}/autogroup") as f:
        before = int(f.read().split()[-1])
    with open(f"/proc/{pid}/autogroup", "w") as f:
        f.write(str(nice))
    return before


def start_spinner():
    """One busy process in its own process group (setsid), like another program on the second core."""
    sp = subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
    if PRIORITY:
        try:
            set_autogroup_nice(sp.pid)
        except OSError:
            stop_spinner(sp)
            raise
    return sp


def stop_spinner(sp):
    try:
        os.killpg(sp.pid, signal.SIGKILL)  # its own group (setsid), by its id
    except ProcessLookupError:
        pass
    sp.wait()


def main():
    how = f"ctorch: the median of {ROUNDS} rounds' ratios" if MEDIAN else f"best of {ROUNDS} rounds"
    print(f"threads under load (float32): time at 2 threads / time at 1 thread, {how}; "
          "<= 1.00 means 2 threads are no slower (ctorch's target in both columns)")
    nice_before = set_autogroup_nice(os.getpid()) if PRIORITY else None
    try:
        all_cases = cases()
        only = [w for w in os.environ.get("THREADS_LOAD_ONLY", "").split(",") if w]
        if only:
            all_cases = [c for c in all_cases if any(w in c[0] for w in only)]
        idle = measure(all_cases)
        sp = start_spinner()
        try:
            time.sleep(0.2)
            loaded = measure(all_cases, control=CONTROL)
        finally:
            stop_spinner(sp)
    finally:
        if nice_before is not None:  # the autogroup is the whole session's: give it back its priority
            set_autogroup_nice(os.getpid(), nice_before)
    # The verdict is about every op at once: at 95% per op, 30-odd ops that all run exactly as fast at 2
    # threads as at 1 would still put one or two intervals above 1.00 in most runs (another set each
    # run). So an op counts as measurably slower only where its interval at the family's level (95% for
    # all ops together: 1 - 0.05 / ops each, Bonferroni) is above 1.00; the 95% intervals are shown.
    family = 0.05 / len(idle)
    worst, measurably, per_op = 0.0, 0, 0
    print(f"  {'op':22s} {'idle: ctorch 2t/1t':>20s} {'torch':>7s}   {'loaded: ctorch 2t/1t':>22s} {'torch':>7s}"
          "   (ms: ctorch 1t, 2t loaded; torch 1t, 2t loaded)" + ("   95% intervals of the medians: idle, loaded" if MEDIAN else ""))
    for (label, bi, mi, ci_i, ri_all, _), (_, bl, ml, ci_l, rl_all, cl_all) in zip(idle, loaded):
        ri, rl = (mi, ml) if MEDIAN else (bi[1] / bi[0], bl[1] / bl[0])
        worst = max(worst, ri, rl)
        # with medians: SLOW only where the whole family-level interval is above 1.00 (measurably slower),
        # "~" where it holds 1.00 (no difference this many rounds can tell); with the control, loaded, the
        # interval of the ratios over the control's
        shift = shift_ci(rl_all, cl_all) if CONTROL else None
        if MEDIAN:
            idle_low = median_ci(ri_all, family)[0]
            loaded_low = shift_ci(rl_all, cl_all, family)[1][0] if shift else median_ci(rl_all, family)[0]
            slow = idle_low > 1.0 or loaded_low > 1.0
            per_op += ci_i[0] > 1.0 or (shift[1][0] if shift else ci_l[0]) > 1.0
        else:
            slow = max(ri, rl) > 1.0
        measurably += slow
        flag = "SLOW" if slow else ("ok " if max(ri, rl) <= 1.0 else "~")
        ci = f"   [{ci_i[0]:.2f}, {ci_i[1]:.2f}] [{ci_l[0]:.2f}, {ci_l[1]:.2f}]" if MEDIAN else ""
        print(f"  {flag:4s} {label:17s} {ri:20.2f} {bi[3] / bi[2]:7.2f}   {rl:22.2f} {bl[3] / bl[2]:7.2f}"
              f"   ({bl[0] * 1e3:.2f}, {bl[1] * 1e3:.2f}; {bl[2] * 1e3:.2f}, {bl[3] * 1e3:.2f}){ci}")
        if shift:
            cc = median_ci(cl_all)
            print(f"       {'':17s} loaded control (1t/1t, the same rounds): {statistics.median(cl_all):.2f} "
                  f"[{cc[0]:.2f}, {cc[1]:.2f}]; 2t/1t over control: {shift[0]:.2f} [{shift[1][0]:.2f}, {shift[1][1]:.2f}]"
                  f", family-level low {loaded_low:.3f}")
    print(f"  worst ctorch 2t/1t: {worst:.2f}" +
          (f"; ops measurably slower at 2 threads{' (loaded: over the control)' if CONTROL else ''}: {measurably} "
           f"(interval at the family's 95% above 1.00); {per_op} with the op's own 95% interval above 1.00 "
           f"(by chance alone, where every op ran as fast at 2 threads as at 1: about {0.025 * len(idle):.1f} "
           "per column)" if MEDIAN else ""))
    for p in KEEP:
        if isinstance(p, int):
            lib.ct_release(p)


if __name__ == "__main__":
    main()
