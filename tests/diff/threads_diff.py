"""Results at 2 threads against PyTorch 1.13 (`make diff` runs it). The differential tables run torch at one
thread and draw small tensors, which no op splits over threads; this suite takes sizes that do split, and
compares bits with torch at the same thread count:

  * products and LAPACK calls (mm, bmm, matmul, mv, addmm, baddbmm, dot, inv, det, solve, cholesky, qr,
    svd, eigh, lu_factor; det, slogdet and logdet of batches of small matrices, whose reductions are torch's): both libraries call the same OpenBLAS, whose threaded blocking rounds otherwise
    than its one-thread blocking, so ctorch must make the calls torch makes with OpenBLAS's threads where
    torch does (a batch of 64 products of 128^3 split over ctorch's pool gave other bits once); LAPACK
    routines below the size from which ctorch gives them OpenBLAS's threads give torch's 1-thread bits;
  * bfloat16 products, torch's own loops with a rounding at every k step, which ctorch computes by tiles;
  * pointwise kernels whose vector and scalar paths differ in the last bit (complex abs and mul): torch
    cuts rows where its threads split, and so must ctorch;
  * reductions and scans, whose results ctorch keeps independent of the thread count: they must equal
    torch's at one thread (torch's own full sums change with its thread count), or, for sums longer than
    ctorch's reduction chunk (its own bits), ctorch's at one thread.

  CTORCH_LIB=build/libctorch.so /usr/bin/python3 tests/diff/threads_diff.py

The last line is `threads: N checked, M differ`; the exit status is non-zero when any differ."""
import ctypes
import os
import sys

# torch's OpenBLAS with the core type ctorch chooses by itself (bench/blas_core.py, imported before torch
# and numpy, whose BLAS is the same libopenblas.so.0: the first to load it fixes its core): the products are
# then checked with the kernels a program without torch gets, not OpenBLAS's fallback
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
import blas_core  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ctorch as C  # noqa: E402
from ops_reduce import ropts  # noqa: E402

L = C.lib()
SEED = int(os.environ.get("CTORCH_SEED", "20261126"))


def ct(name, *args):
    return C.own(L.fn(name)(*args))


def ct_results(name, n, *args, tail=(None,)):
    ps = [ctypes.c_void_p() for _ in range(n)]
    C.check(L.fn(name)(*args, *[ctypes.byref(p) for p in ps], *tail))
    return tuple(C.own(p.value) for p in ps)


def same(t, c):
    """Bit equality of a torch tensor and a ctorch result (NaN: by class), and the same shape and dtype."""
    if tuple(t.shape) != c.shape or t.dtype != c.dtype:
        return "geometry %s %s vs %s %s" % (tuple(t.shape), t.dtype, c.shape, c.dtype)
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: both as float32 (exact), NaN by class as below
        a = t.contiguous().float().numpy()
        b = torch.from_numpy(c.values()).view(torch.bfloat16).float().numpy()
    else:
        a = t.contiguous().numpy()
        b = c.values()
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return "NaN positions differ"
    a, b = np.where(nan_a, 0, a), np.where(nan_b, 0, b)
    if a.tobytes() != b.tobytes():
        d = np.flatnonzero(a.reshape(-1).view(np.uint8) != b.reshape(-1).view(np.uint8))
        return "bits differ (first byte %d of %d)" % (d[0], a.nbytes)
    return None


def close(t, c):
    """torch.testing.assert_close's default tolerances for the dtype, the same shape and dtype."""
    if tuple(t.shape) != c.shape or t.dtype != c.dtype:
        return "geometry %s %s vs %s %s" % (tuple(t.shape), t.dtype, c.shape, c.dtype)
    try:
        torch.testing.assert_close(torch.from_numpy(c.values().copy()).view(t.dtype).reshape(t.shape), t)
    except AssertionError as e:
        return "not close: " + str(e).splitlines()[0]
    return None


def spd(n, dt, g):
    a = torch.randn(n, n, dtype=dt, generator=g)
    return a @ a.mT + n * torch.eye(n, dtype=dt)


def product_cases(g):
    """(label, torch thunk, ctorch thunk): each thunk returns one tensor or a tuple."""
    f32, f64 = torch.float32, torch.float64
    a = torch.randn(384, 320, generator=g)
    b = torch.randn(320, 448, generator=g)
    ad, bd = a.double(), b.double()
    x3 = torch.randn(64, 128, 128, generator=g)
    y3 = torch.randn(64, 128, 128, generator=g)
    s3 = torch.randn(6, 200, 160, generator=g)
    t3 = torch.randn(160, 96, generator=g)
    m = torch.randn(2048, 1536, generator=g)
    v = torch.randn(1536, generator=g)
    c = torch.randn(384, 448, generator=g)
    big = torch.randn(1 << 20, generator=g)
    cx = torch.randn(300, 200, dtype=torch.complex64, generator=g)
    cy = torch.randn(200, 250, dtype=torch.complex64, generator=g)
    sq = {dt: torch.randn(256, 256, dtype=dt, generator=g) for dt in (f32, f64)}
    sp = {dt: spd(256, dt, g) for dt in (f32, f64)}
    rhs = torch.randn(256, 32, dtype=f64, generator=g)
    T = C.from_torch
    cases = [
        ("mm f32", lambda: torch.mm(a, b), lambda: ct("ct_mm", T(a), T(b))),
        ("mm f64", lambda: torch.mm(ad, bd), lambda: ct("ct_mm", T(ad), T(bd))),
        ("mm f32 transposed", lambda: torch.mm(b.mT, a.mT), lambda: ct("ct_mm", ct("ct_mT", T(b)), ct("ct_mT", T(a)))),
        ("mm complex64", lambda: torch.mm(cx, cy), lambda: ct("ct_mm", T(cx), T(cy))),
        ("bmm 64x128^3", lambda: torch.bmm(x3, y3), lambda: ct("ct_bmm", T(x3), T(y3))),
        ("matmul batch x matrix", lambda: torch.matmul(s3, t3), lambda: ct("ct_matmul", T(s3), T(t3))),
        ("mv", lambda: torch.mv(m, v), lambda: ct("ct_mv", T(m), T(v))),
        ("addmm", lambda: torch.addmm(c, a, b), lambda: ct("ct_addmm", T(c), T(a), T(b), None)),
        ("baddbmm", lambda: torch.baddbmm(x3, x3, y3), lambda: ct("ct_baddbmm", T(x3), T(x3), T(y3), None)),
        ("dot 1M", lambda: torch.dot(big, big), lambda: ct("ct_dot", T(big), T(big))),
    ]
    # dots OpenBLAS threads (ddot.c / zdot.c kernels: float64 and complex128 past 10000 elements), which
    # ctorch runs as its ranges on the pool (blas_pool.c): odd lengths, a strided operand. (torch's complex
    # dot is not bit for bit OpenBLAS's: test_matmul compares zdot's route with OpenBLAS's own call.)
    for dt, n in ((f64, 1 << 20), (f64, 10001), (f64, 77777)):
        x = torch.randn(2 * n, dtype=dt, generator=g)
        y = torch.randn(n, dtype=dt, generator=g)
        xs = x[::2]
        name = str(dt)[6:]
        cases += [
            ("dot %s %d strided" % (name, n), lambda xs=xs, y=y: torch.dot(xs, y),
             lambda x=x, y=y, n=n: ct("ct_dot", ct("ct_slice", T(x), 0, 0, 2 * n, 2), T(y))),
            ("dot %s %d" % (name, n), lambda x=x, n=n: torch.dot(x[:n], x[n:]),
             lambda x=x, n=n: ct("ct_dot", ct("ct_narrow", T(x), 0, 0, n), ct("ct_narrow", T(x), 0, n, n)))]
    # LAPACK: ctorch runs a routine on OpenBLAS's threads only from the size where they pay, and on one
    # thread below it (src/ops/linalg/lapack.c), so at 2 threads a 256 x 256 factorization gives torch's
    # 1-thread bits; getrf from 1024 on; the fourth field is torch's thread count. The triangular solves
    # with many right-hand sides (inv, solve) are ctorch's own blocking over gemm (trsm_left.c), not
    # OpenBLAS trsm's: a fifth field "close" compares them within assert_close's tolerances, and ctorch's
    # bits at 2 threads with its bits at 1 (the right-hand sides in blocks on the pool); "close only" where
    # getrf runs on OpenBLAS's threads at 2 (n >= 1024), whose bits differ from its 1-thread bits
    for dt in (f32, f64):
        n = "f32" if dt == f32 else "f64"
        A, S = sq[dt], sp[dt]
        cases += [
            ("inv 256 " + n, lambda A=A: torch.linalg.inv(A), lambda A=A: ct("ct_linalg_inv", T(A)), 1, "close"),
            ("det 256 " + n, lambda A=A: torch.linalg.det(A), lambda A=A: ct("ct_linalg_det", T(A)), 1),
            ("cholesky 256 " + n, lambda S=S: torch.linalg.cholesky(S), lambda S=S: ct("ct_linalg_cholesky", T(S), None), 1),
            ("qr 256 " + n, lambda A=A: torch.linalg.qr(A), lambda A=A: ct_results("ct_linalg_qr", 2, T(A)), 1),
            ("svd 256 " + n, lambda A=A: torch.linalg.svdvals(A), lambda A=A: ct("ct_linalg_svdvals", T(A)), 1),
            ("eigh 256 " + n, lambda S=S: torch.linalg.eigvalsh(S), lambda S=S: ct("ct_linalg_eigvalsh", T(S), None), 1),
            ("lu_factor 256 " + n, lambda A=A: torch.linalg.lu_factor(A),
             lambda A=A: ct_results("ct_linalg_lu_factor", 2, T(A)), 1),
        ]
    A6, A11 = (torch.randn(k, k, dtype=f64, generator=g) for k in (600, 1100))
    cases += [("lu_factor 600 f64", lambda: torch.linalg.lu_factor(A6),
               lambda: ct_results("ct_linalg_lu_factor", 2, T(A6)), 1),
              ("inv 600 f64", lambda: torch.linalg.inv(A6), lambda: ct("ct_linalg_inv", T(A6)), 1, "close"),
              ("inv 1100 f64", lambda: torch.linalg.inv(A11), lambda: ct("ct_linalg_inv", T(A11)), 2, "close only"),
              ("lu_factor 1100 f64", lambda: torch.linalg.lu_factor(A11),
               lambda: ct_results("ct_linalg_lu_factor", 2, T(A11)), 2)]
    # det / slogdet / logdet of batches of small matrices: torch composes them from lu_factor's U with its
    # own prod, sgn, abs, log and sum (float32 products rounded at every step), so the bits are exact
    for dt in (f32, f64, torch.complex64, torch.complex128):
        for nb, k in ((3000, 8), (300, 32)):
            B = torch.randn(nb, k, k, dtype=dt, generator=g) + k ** 0.5 * torch.eye(k, dtype=dt)
            n = "%s %dx%dx%d" % (str(dt)[6:], nb, k, k)
            cases += [
                ("det " + n, lambda B=B: torch.linalg.det(B), lambda B=B: ct("ct_linalg_det", T(B))),
                ("slogdet " + n, lambda B=B: tuple(torch.linalg.slogdet(B)),
                 lambda B=B: ct_results("ct_linalg_slogdet", 2, T(B), tail=())),
                ("logdet " + n, lambda B=B: torch.logdet(B), lambda B=B: ct("ct_logdet", T(B))),
            ]
    cases.append(("solve 256 f64", lambda: torch.linalg.solve(sq[f64], rhs),
                  lambda: ct("ct_linalg_solve", T(sq[f64]), T(rhs), None), 2, "close"))
    # the other solves through trsm_left.c (from 256 rows, 16 right-hand sides): potrs, getrs with torch's
    # factors, trsm
    for dt in (f32, f64):
        n = "f32" if dt == f32 else "f64"
        b3 = torch.randn(300, 70, dtype=dt, generator=g)
        l3 = torch.linalg.cholesky(spd(300, dt, g))
        lu3, piv3 = torch.linalg.lu_factor(torch.randn(300, 300, dtype=dt, generator=g) + 20 * torch.eye(300, dtype=dt))
        u3 = torch.randn(300, 300, dtype=dt, generator=g).triu() * 0.1 + 2 * torch.eye(300, dtype=dt)
        cases += [
            ("cholesky_solve 300 " + n, lambda b3=b3, l3=l3: torch.cholesky_solve(b3, l3),
             lambda b3=b3, l3=l3: ct("ct_cholesky_solve", T(b3), T(l3), None), 2, "close"),
            ("lu_solve 300 " + n, lambda lu3=lu3, piv3=piv3, b3=b3: torch.linalg.lu_solve(lu3, piv3, b3),
             lambda lu3=lu3, piv3=piv3, b3=b3: ct("ct_linalg_lu_solve", T(lu3), T(piv3), T(b3), None), 2, "close"),
            ("solve_triangular 300 " + n, lambda u3=u3, b3=b3: torch.linalg.solve_triangular(u3, b3, upper=True),
             lambda u3=u3, b3=b3: ct("ct_linalg_solve_triangular", T(u3), T(b3), True, None), 2, "close"),
        ]
    return cases


def pooled_gemm_cases(g):
    """Products that ctorch runs on its pool with OpenBLAS's threaded blocking reproduced (blas_pool.c):
    k past GEMM_Q (320 float, 192 complex64, 128 complex128 on the AVX-512 cores; other cores have other
    values, and these shapes still cross several), odd sizes, every transpose and conjugate case, addmm's
    beta and alpha. float64 keeps OpenBLAS's own threads; its cases check that nothing else changed."""
    T = C.from_torch
    cases = []
    kinds = [(torch.float32, 1200), (torch.complex64, 700), (torch.complex128, 500), (torch.float64, 900)]
    for i in range(24):
        dt, kmax = kinds[i % 4]
        lo, hi = (200, 640) if dt == torch.float32 else (3, 260)  # float tiles past the small kernels' 100^3
        m, n = (int(v) for v in torch.randint(lo, hi, (2,), generator=g))
        kk = int(torch.randint(100, kmax, (1,), generator=g))
        if i % 6 == 5:
            m = int(torch.randint(1, 4, (1,), generator=g))  # too few rows for OpenBLAS to split M
        ta, tb = i % 2 == 1, (i // 2) % 2 == 1
        cj = dt.is_complex and i % 3 == 0
        a = torch.randn(kk, m, dtype=dt, generator=g).mT if ta else torch.randn(m, kk, dtype=dt, generator=g)
        b = torch.randn(n, kk, dtype=dt, generator=g).mT if tb else torch.randn(kk, n, dtype=dt, generator=g)
        c = torch.randn(m, n, dtype=dt, generator=g)
        beta, alpha = [(1, 1), (0.5, -1.5), (0, 2), (2, 0)][i % 4]
        o = _addmm_opts(beta, alpha)

        def ta_ct(a=a, ta=ta, cj=cj):
            x = ct("ct_mT", T(a.mT)) if ta else T(a)
            return ct("ct_conj", x) if cj else x

        def tb_ct(b=b, tb=tb):
            return ct("ct_mT", T(b.mT)) if tb else T(b)
        A = (lambda a=a, cj=cj: a.conj() if cj else a)
        cases.append(("pooled addmm %s %dx%dx%d ta=%d tb=%d conj=%d beta=%g alpha=%g"
                      % (str(dt)[6:], m, kk, n, ta, tb, cj, beta, alpha),
                      lambda A=A, b=b, c=c, beta=beta, alpha=alpha: torch.addmm(c, A(), b, beta=beta, alpha=alpha),
                      lambda c=c, o=o, ta_ct=ta_ct, tb_ct=tb_ct: ct("ct_addmm", T(c), ta_ct(), tb_ct(), ctypes.byref(o))))
    return cases


def dnnl_sgemm_cases(g):
    """float32 products that ctorch sends to oneDNN's sgemm where its bits are OpenBLAS's (kernels/cpu/blas.c:
    alpha 1, beta 0, m and n of 32 or more, k up to GEMM_Q = 320, m * n * k past 100^3, a call OpenBLAS runs on
    one thread): mm, bmm and matmul around those edges and every transpose, compared with torch at 1 thread
    (and bmm at 2, one matrix per pool thread), each library at that count."""
    T = C.from_torch
    out = []
    for i in range(16):
        m, n = (int(v) for v in torch.randint(32, 400, (2,), generator=g))
        kk = int(torch.randint(8, 321, (1,), generator=g))
        while m * n * kk <= 1000000:
            kk = min(kk * 2, 320)
            m = m if m * n * kk > 1000000 else m + 64
        # the edges: the route's smallest m and largest k; past them (OpenBLAS's calls, where oneDNN's bits
        # would differ): k past GEMM_Q, few columns with 'tn' (oneDNN's other kernels)
        m, n, kk = [(32, n, 320), (m + 100, 33, 321), (12, 2194, 68), (m, n, kk)][i % 4] if i < 8 else (m, n, kk)
        ta, tb = i % 2 == 1, (i // 2) % 2 == 1
        if i % 4 == 2:  # BLAS's 't' 'n' with 12 columns: torch's b transposed, 12 rows
            ta, tb = False, True
        a = torch.randn(kk, m, generator=g).mT if ta else torch.randn(m, kk, generator=g)
        b = torch.randn(n, kk, generator=g).mT if tb else torch.randn(kk, n, generator=g)

        def ct_a(a=a, ta=ta):
            return ct("ct_mT", T(a.mT)) if ta else T(a)

        def ct_b(b=b, tb=tb):
            return ct("ct_mT", T(b.mT)) if tb else T(b)
        label = "%dx%dx%d ta=%d tb=%d" % (m, kk, n, ta, tb)
        if i % 3 == 2 and i >= 8:
            bs = 3
            a3, b3 = a.expand(bs, m, kk).contiguous(), torch.randn(bs, kk, n, generator=g)
            out.append(("oneDNN sgemm bmm %d x %s" % (bs, label), lambda a3=a3, b3=b3: torch.bmm(a3, b3),
                        lambda a3=a3, b3=b3: ct("ct_bmm", T(a3), T(b3)), 1 + i % 2))
        else:
            fn = "ct_matmul" if i % 3 == 1 and i >= 8 else "ct_mm"
            out.append(("oneDNN sgemm %s %s" % (fn[3:], label), lambda a=a, b=b, fn=fn: getattr(torch, fn[3:])(a, b),
                        lambda fn=fn, ct_a=ct_a, ct_b=ct_b: ct(fn, ct_a(), ct_b()), 1))
    return out


def pooled_gemv_cases(g):
    """mv / addmv that ctorch runs on its pool as OpenBLAS's threaded gemv's ranges (blas_pool.c): both
    transposes, beta and alpha, odd sizes, and the sizes where OpenBLAS splits x instead (few rows, 'n');
    complex too (torch's own loop there, no BLAS), with a conjugated transposed view."""
    T = C.from_torch
    cases = []
    shapes = [(2048, 1536), (1537, 999), (97, 3001), (3, 5000), (6, 4000), (5000, 3), (9, 1100)]
    for i, (m, n) in enumerate(shapes):
        for dt in (torch.float32, torch.float64, torch.complex64, torch.complex128):
            tr = i % 2 == 1  # a transposed matrix: BLAS's other case
            cj = tr and dt.is_complex and i % 4 == 1  # a conjugated transposed view: BLAS's 'c'
            base = torch.randn(n, m, dtype=dt, generator=g) if tr else torch.randn(m, n, dtype=dt, generator=g)
            a = (base.mH if cj else base.mT) if tr else base
            v = torch.randn(n, dtype=dt, generator=g)
            s = torch.randn(m, dtype=dt, generator=g)
            beta, alpha = [(1, 1), (0.5, -1.5), (0, 2)][i % 3]
            o = _addmm_opts(beta, alpha)
            A = (lambda base=base, tr=tr, cj=cj: (ct("ct_conj", ct("ct_mT", T(base))) if cj else ct("ct_mT", T(base)))
                 if tr else T(base))
            cases.append(("pooled addmv %s %dx%d tr=%d conj=%d beta=%g alpha=%g" % (str(dt)[6:], m, n, tr, cj, beta,
                                                                                  alpha),
                          lambda a=a, v=v, s=s, beta=beta, alpha=alpha: torch.addmv(s, a, v, beta=beta, alpha=alpha),
                          lambda s=s, A=A, v=v, o=o: ct("ct_addmv", T(s), A(), T(v), ctypes.byref(o))))
    return cases


def bf16_product_cases(g):
    """bfloat16 products: torch 1.13 computes them in its own loops (no BLAS routine), rounding c to bfloat16
    at every k step in its order; ctorch computes tiles of c in registers over the pool. Shapes that leave
    every tail (rows past a multiple of 16 and of 8, columns past a multiple of 4, k past a run of 128),
    every transpose case, beta and alpha, and values that overflow float or are inf / NaN."""
    T = C.from_torch
    cases = []
    for k in range(12):
        m, n, kk = (int(v) for v in torch.randint(1, 90, (3,), generator=g))
        if k % 3 == 0:
            kk = int(torch.randint(120, 400, (1,), generator=g))
        a = torch.randn(m, kk, generator=g).bfloat16()
        b = torch.randn(kk, n, generator=g).bfloat16()
        c = torch.randn(m, n, generator=g).bfloat16()
        if k % 4 == 1:
            a[0, :] = 3e38  # products overflow float: inf, then inf - inf = NaN in later steps
            b[:, -1] = -b[:, -1]
        if k % 5 == 2:
            a[-1, 0], b[0, 0] = float("nan"), float("inf")
        ta, tb = k % 2 == 1, k % 3 == 1
        # a canonical copy (contiguous() keeps a (1, k) view's strides (1, 1), which C.from_torch does not
        # carry over: torch and ctorch would then be given different layouts)
        ta_ = a.mT.clone(memory_format=torch.contiguous_format) if ta else a
        tb_ = b.mT.clone(memory_format=torch.contiguous_format) if tb else b
        a, b = (ta_.mT if ta else a), (tb_.mT if tb else b)  # torch's layout choice follows the strides
        A = (lambda ta_=ta_, ta=ta: ct("ct_mT", T(ta_)) if ta else T(ta_))
        B = (lambda tb_=tb_, tb=tb: ct("ct_mT", T(tb_)) if tb else T(tb_))
        beta, alpha = [(1, 1), (0.5, -1.5), (0, 2), (1, float("nan"))][k % 4]
        o = _addmm_opts(beta, alpha)
        cases.append(("bf16 addmm %dx%dx%d ta=%d tb=%d beta=%g alpha=%g" % (m, kk, n, ta, tb, beta, alpha),
                      lambda a=a, b=b, c=c, beta=beta, alpha=alpha: torch.addmm(c, a, b, beta=beta, alpha=alpha),
                      lambda c=c, A=A, B=B, o=o: ct("ct_addmm", T(c), A(), B(), ctypes.byref(o))))
    x = torch.randn(64, 512, generator=g).bfloat16()
    y = torch.randn(512, 512, generator=g).bfloat16()
    cases.append(("bf16 matmul 64x512x512", lambda: torch.matmul(x, y), lambda: ct("ct_matmul", T(x), T(y))))
    # products of 2^25 multiply-adds and more, which ctorch runs on oneDNN's threads (below, on the calling
    # thread alone: kernels/cpu/dnnl.c), odd row counts, transposed weights with long K (cut into blocks of
    # rows, each oneDNN's product on one thread, these gave other bits than torch), beta, a batch, a batch of
    # one, broadcast weights, a vector; one below the bound
    for i, (m, kk, n) in enumerate([(301, 1024, 257), (97, 4000, 130), (2048, 128, 160), (33, 16384, 80)]):
        a = torch.randn(m, kk, generator=g).bfloat16()
        b = torch.randn(kk, n, generator=g).bfloat16()
        c = torch.randn(m, n, generator=g).bfloat16()
        bt = b.mT.clone(memory_format=torch.contiguous_format)
        if i % 2:
            cases.append(("bf16 mm %dx%dx%d b transposed" % (m, kk, n), lambda a=a, bt=bt: torch.mm(a, bt.mT),
                          lambda a=a, bt=bt: ct("ct_mm", T(a), ct("ct_mT", T(bt)))))
        else:
            o = _addmm_opts(0.5, 1)
            cases.append(("bf16 addmm %dx%dx%d beta=0.5" % (m, kk, n),
                          lambda a=a, b=b, c=c: torch.addmm(c, a, b, beta=0.5),
                          lambda a=a, b=b, c=c, o=o: ct("ct_addmm", T(c), T(a), T(b), ctypes.byref(o))))
    for bs, m, kk, n in [(5, 130, 400, 140), (1, 600, 256, 300), (3, 1, 512, 700)]:
        a = torch.randn(bs, m, kk, generator=g).bfloat16()
        b = torch.randn(bs, kk, n, generator=g).bfloat16()
        cases.append(("bf16 bmm %dx%dx%dx%d" % (bs, m, kk, n), lambda a=a, b=b: torch.bmm(a, b),
                      lambda a=a, b=b: ct("ct_bmm", T(a), T(b))))
    a = torch.randn(4, 200, 300, generator=g).bfloat16()
    w = torch.randn(300, 300, generator=g).bfloat16()
    cases.append(("bf16 matmul batch x matrix", lambda: torch.matmul(a, w), lambda: ct("ct_matmul", T(a), T(w))))
    v = torch.randn(8192, generator=g).bfloat16()
    wm = torch.randn(4096, 8192, generator=g).bfloat16()
    cases.append(("bf16 mv 4096x8192", lambda: torch.mv(wm, v), lambda: ct("ct_mv", T(wm), T(v))))
    return cases


def _addmm_opts(beta, alpha):
    from ops_matmul import ct_addmm_opts
    o = ct_addmm_opts()
    o.beta, o.alpha = C.ct_scalar.of(beta), C.ct_scalar.of(alpha)
    return o


def pointwise_cases(g):
    z = torch.randn(1 << 20, dtype=torch.complex64, generator=g)
    w = torch.randn(1 << 20, dtype=torch.complex64, generator=g)
    T = C.from_torch
    cases = [
        ("abs complex64 1M", lambda: torch.abs(z), lambda: ct("ct_abs", T(z))),
        ("mul complex64 1M", lambda: torch.mul(z, w), lambda: ct("ct_mul", T(z), T(w))),
    ]
    # addr's kernel (addr_kernel.c): torch's 2-thread split cuts rows, and each element's form (vector block,
    # unrolled scalar block, leftover) is counted from the start of the piece of row a thread gets
    for dt in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        for beta, alpha in ((0.7, -1.1), (0, -1.1 + 0.4j if dt.is_complex else -1.1)):
            s = torch.randn(301, 389, dtype=dt, generator=g)
            v1, v2 = torch.randn(301, dtype=dt, generator=g), torch.randn(389, dtype=dt, generator=g)
            o = _addmm_opts(beta, alpha)
            cases.append(("addr %s 301x389 beta=%s" % (str(dt)[6:], beta),
                          lambda s=s, v1=v1, v2=v2, beta=beta, alpha=alpha: torch.addr(s, v1, v2, beta=beta, alpha=alpha),
                          lambda s=s, v1=v1, v2=v2, o=o: ct("ct_addr", T(s), T(v1), T(v2), ctypes.byref(o))))
    return cases


def reduction_cases(g):
    """Compared with torch at one thread: these results do not depend on ctorch's thread count. (Sums of
    more than CT_RED_CHUNK elements per output are cut into fixed chunks: their bits are ctorch's own,
    the same at any thread count, checked by same_at_1_and_2 below.)"""
    x = torch.randn(1 << 22, generator=g)
    x2 = x.view(1024, -1)
    x3 = x.view(-1, 1024)
    T = C.from_torch
    return [
        ("sum 1024x4096 dim 0", lambda: x2.sum(0), lambda: ct("ct_sum", T(x2), ropts(dim=0))),
        ("sum 4096x1024 dim 1", lambda: x3.sum(1), lambda: ct("ct_sum", T(x3), ropts(dim=1))),
        ("amax 4M", lambda: x.amax(), lambda: ct("ct_amax", T(x), None)),
        ("argmax 4M", lambda: x.argmax(), lambda: ct("ct_argmax", T(x), None)),
        ("cumsum 4M", lambda: x.cumsum(0), lambda: ct("ct_cumsum", T(x), 0, None)),
        ("cumsum 1024x4096 dim 0", lambda: x2.cumsum(0), lambda: ct("ct_cumsum", T(x2), 0, None)),
    ]


def thread_free_cases(g):
    """ctorch's own bits (long sums), the same at 1 and 2 threads."""
    x = torch.randn(1 << 22, generator=g)
    T = C.from_torch
    return [
        ("sum 4M", lambda: ct("ct_sum", T(x), None)),
        ("mean 4M", lambda: ct("ct_mean", T(x), None)),
        ("var 4M", lambda: ct("ct_var", T(x), None)),
        ("sum 4M float64", lambda: ct("ct_sum", T(x.double()), None)),
    ]


def same_at_1_and_2(label, c_fn, errors):
    got = []
    for n in (1, 2):
        L.ct_set_num_threads(n)
        got.append(c_fn().values().tobytes())
    if got[0] != got[1]:
        errors.append("%s: ctorch's bits at 2 threads differ from its bits at 1 thread" % label)
    C.release_all()


def compare(label, t_fn, c_fn, torch_threads, errors, ct_threads=2, tolerance=None):
    if tolerance == "close":
        same_at_1_and_2(label, c_fn, errors)
    torch.set_num_threads(torch_threads)
    L.ct_set_num_threads(ct_threads)
    t = t_fn()
    c = c_fn()
    ts = t if isinstance(t, tuple) else (t,)
    cs = c if isinstance(c, tuple) else (c,)
    for k, (tt, cc) in enumerate(zip(ts, cs)):
        why = close(tt, cc) if tolerance else same(tt, cc)
        if why:
            errors.append("%s (result %d, torch at %d thread(s)): %s" % (label, k, torch_threads, why))
    C.release_all()


def main():
    g = torch.Generator().manual_seed(SEED)
    errors, n = [], 0
    for case in product_cases(g) + pooled_gemm_cases(g) + pooled_gemv_cases(g) + bf16_product_cases(g) + pointwise_cases(g):
        compare(case[0], case[1], case[2], case[3] if len(case) > 3 else 2, errors, tolerance=case[4] if len(case) > 4 else None)
        n += 1
    for label, t_fn, c_fn, threads in dnnl_sgemm_cases(g):
        compare(label, t_fn, c_fn, threads, errors, threads)
        n += 1
    for label, t_fn, c_fn in reduction_cases(g):
        compare(label, t_fn, c_fn, 1, errors)
        n += 1
    for label, c_fn in thread_free_cases(g):
        same_at_1_and_2(label, c_fn, errors)
        n += 1
    L.ct_set_num_threads(0)
    for e in errors:
        print("DIFFER " + e)
    print("threads: %d checked, %d differ" % (n, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
